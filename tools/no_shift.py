#!/usr/bin/env python3
"""Coverage of bestreport's shift interval when one sample is no shift of
the other: a command whose runs are (nearly) all one value against one
whose runs spread, and controls where the shift model holds.

Each case draws two independent samples of integer microseconds, writes
them as a raw CSV (one command's runs, then the other's), runs the real
`bestreport` and checks its Hodges-Lehmann interval against the median of
the distribution of Y - X, which is what the interval estimates whatever
the shapes. That median is computed exactly from the two distributions
(X discrete, Y the rounding of a continuous law): the smallest integer t
with sum_x P(X = x) P(Y <= t + x) >= 1/2.

Usage: tools/no_shift.py [BESTREPORT] [REPLICATIONS]
       (NO_SHIFT_UNEQUAL=1: the unequal-spread cases instead)
       (default target/release/bestreport, 300). Needs numpy and scipy.
"""
import collections
import math
import os
import sys
import tempfile

import numpy as np
from scipy import stats

from paired_ticks import comparison, write_runs


def exponential(low, mean):
    """Y = round(low + Exp(mean)): its CDF at integers, and a sampler."""
    def cdf(k):
        return 0.0 if k + 0.5 <= low else 1.0 - math.exp(-(k + 0.5 - low) / mean)
    def draw(rng, n):
        return [int(v) for v in np.round(low + rng.exponential(mean, n))]
    return cdf, draw


def lognormal(median, sigma):
    """Y = round(lognormal(ln median, sigma))."""
    def cdf(k):
        return 0.0 if k + 0.5 <= 0 else float(stats.norm.cdf((math.log(k + 0.5) - math.log(median)) / sigma))
    def draw(rng, n):
        return [int(v) for v in np.round(rng.lognormal(math.log(median), sigma, n))]
    return cdf, draw


def discrete(weights):
    """X with probabilities proportional to the given {value: weight}: its
    pmf and a sampler."""
    total = sum(weights.values())
    pmf = {k: w / total for k, w in weights.items()}
    values, probs = zip(*sorted(pmf.items()))
    def draw(rng, n):
        return [int(v) for v in rng.choice(values, size=n, p=probs)]
    return dict(pmf), draw


def median_difference(x_pmf, y_cdf, lo, hi):
    for t in range(lo, hi):
        if sum(p * y_cdf(t + x) for x, p in x_pmf.items()) >= 0.5 - 1e-12:
            return t
    raise ValueError("median outside the search range")


def simulate(bestreport, name, x, y, n_x, n_y, reps, seed):
    (x_pmf, draw_x), (y_cdf, draw_y) = x, y
    truth = median_difference(x_pmf, y_cdf, -100_000, 100_000)
    rng = np.random.default_rng(seed)
    covered, widths, levels = 0, [], []
    verdicts = collections.Counter()
    with tempfile.TemporaryDirectory() as work:
        raw, out = os.path.join(work, "raw.csv"), os.path.join(work, "out.json")
        for _ in range(reps):
            a, b = draw_x(rng, n_x), draw_y(rng, n_y)
            write_runs(raw, [(0, v) for v in a] + [(1, v) for v in b])
            c = comparison(bestreport, raw, out)
            low, high = c["ci_low_us"], c["ci_high_us"]
            if c["against"] == 1:  # b is the best: the shift is a - b
                low, high = -high, -low
            covered += low <= truth <= high
            widths.append(high - low)
            levels.append(c["ci_confidence"])
            verdicts[c["verdict"]] += 1
    print(f"{name}: {n_x} v {n_y} runs, median of Y - X {truth} µs: covered {covered}/{reps} "
          f"({100 * covered / reps:.1f} %), median width {float(np.median(widths)):g} µs, "
          f"median level {100 * float(np.nanmedian(levels)):.2f} %; verdicts {dict(sorted(verdicts.items()))}")


def main():
    bestreport = sys.argv[1] if len(sys.argv) > 1 else "target/release/bestreport"
    reps = int(sys.argv[2]) if len(sys.argv) > 2 else 300
    spread = exponential(80, 40)
    rounded = discrete({k: (1 - math.exp(-0.5 / 40)) if k == 100 else
                        math.exp(-(k - 100.5) / 40) - math.exp(-(k - 99.5) / 40)
                        for k in range(100, 1000)})
    lattice = discrete({1000 + 10 * j: float(stats.norm.pdf(j, 0, 3)) for j in range(-15, 16)})
    lattice_pmf, draw_lattice = lattice
    shifted_lattice = (lambda k: sum(p for v, p in lattice_pmf.items() if v + 20 <= k),
                       lambda rng, n: [v + 20 for v in draw_lattice(rng, n)])
    def rounded_normal(mean, sd):
        """Y = round(N(mean, sd))."""
        def cdf(k):
            return float(stats.norm.cdf((k + 0.5 - mean) / sd))
        def draw(rng, n):
            return [int(v) for v in np.round(rng.normal(mean, sd, n))]
        return cdf, draw
    steady = discrete({k: float(stats.norm.cdf((k + 0.5 - 1000) / 5) - stats.norm.cdf((k - 0.5 - 1000) / 5))
                       for k in range(960, 1041)})
    unequal = [
        ("unequal spreads (sd 5 and 200 μs), 30 v 30", steady, rounded_normal(1000, 200), 30, 30),
        ("unequal spreads, 200 steady v 10 spread", steady, rounded_normal(1000, 200), 200, 10),
        ("unequal spreads, 10 steady v 200 spread", steady, rounded_normal(1000, 200), 10, 200),
    ]
    if os.environ.get("NO_SHIFT_UNEQUAL"):
        for i, (name, x, y, n_x, n_y) in enumerate(unequal):
            simulate(bestreport, name, x, y, n_x, n_y, reps, seed=100 + i)
        return
    cases = [
        ("one value", discrete({100: 1.0}), spread, 30, 30),
        ("one value, 30 runs against 5", discrete({100: 1.0}), spread, 30, 5),
        ("nearly one value", discrete({100: 0.97, 101: 0.03}), spread, 30, 30),
        ("nearly one value, many runs", discrete({1000: 0.95, 1001: 0.05}),
         lognormal(1100, 0.2), 200, 150),
        # Controls: the shift model holds (ties from rounding; a lattice).
        ("control: rounded, shifted 10", rounded, exponential(110, 40), 30, 30),
        ("control: 10 µs lattice, shifted 20", lattice, shifted_lattice, 30, 30),
    ]
    for i, (name, x, y, n_x, n_y) in enumerate(cases):
        simulate(bestreport, name, x, y, n_x, n_y, reps, seed=i)


if __name__ == "__main__":
    main()
