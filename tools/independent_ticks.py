#!/usr/bin/env python3
"""Verdicts of bestreport on tick-accounted CPU times, independent samples.

The kernel charges CPU time in ticks (10 ms here): a command whose true
time is t is recorded as T * floor(t/T + U), U uniform on [0, 1), so its
recorded mean is t while its median is a tick. Two commands are "run" one
after the other (independent samples), written as a raw CSV and analysed
by the real `bestreport`. Per case: how often the Mann-Whitney test
rejects (p < 0.05), how often the shift interval covers the median of the
recorded differences (what it estimates) and the ratio interval the
median of their log-ratios, and the verdicts. A pair whose tick
frequencies differ has a median difference of 0 while the test rejects:
"equivalent" would contradict the test (docs/DESIGN.md, verdicts).

Usage: tools/independent_ticks.py [BESTREPORT] [REPLICATIONS]
       (default target/release/bestreport, 200). Needs numpy.
"""
import collections
import math
import os
import sys
import tempfile

import numpy as np

from paired_ticks import TICK, comparison, write_runs


def recorded(t):
    low = math.floor(t / TICK) * TICK
    frac = t / TICK - math.floor(t / TICK)
    return {low: 1 - frac, low + TICK: frac}


def median_of(f, t_a, t_b):
    """The median of f(Y, X) over the recorded values' distributions."""
    d = collections.Counter()
    for x, px in recorded(t_a).items():
        for y, py in recorded(t_b).items():
            d[f(y, x)] += px * py
    total = 0.0
    for v in sorted(d):
        total += d[v]
        if total >= 0.5 - 1e-12:
            return v
    return None


def simulate(bestreport, t_a, t_b, n, reps, seed=0):
    rng = np.random.default_rng(seed)
    shift = median_of(lambda y, x: y - x, t_a, t_b)
    ratio = math.exp(median_of(lambda y, x: math.log(y) - math.log(x), t_a, t_b))
    rejected = covered = covered_ratio = 0
    verdicts = collections.Counter()
    with tempfile.TemporaryDirectory() as work:
        raw, out = os.path.join(work, "raw.csv"), os.path.join(work, "out.json")
        for _ in range(reps):
            a = (TICK * np.floor(t_a / TICK + rng.random(n))).astype(int)
            b = (TICK * np.floor(t_b / TICK + rng.random(n))).astype(int)
            # One command's runs, then the other's.
            write_runs(raw, [(0, x) for x in a] + [(1, y) for y in b])
            c = comparison(bestreport, raw, out)
            low, high = c["ci_low_us"], c["ci_high_us"]
            r_low, r_high = c["ratio_ci_low"], c["ratio_ci_high"]
            if c["against"] == 1:  # b is the best: the shift is a - b
                low, high, r_low, r_high = -high, -low, 1 / r_high, 1 / r_low
            covered += low <= shift <= high
            covered_ratio += r_low * (1 - 1e-12) <= ratio <= r_high * (1 + 1e-12)
            rejected += c["p_value"] < 0.05
            verdicts[c["verdict"]] += 1
    print(f"true {t_a / 1000:g} and {t_b / 1000:g} ms, {n} runs each: median difference "
          f"{shift:g} µs, of log-ratios {ratio:.4f}; p < 0.05 in {rejected}/{reps}; covered "
          f"{covered}/{reps}, ratio {covered_ratio}/{reps}; verdicts {dict(sorted(verdicts.items()))}")


def main():
    bestreport = sys.argv[1] if len(sys.argv) > 1 else "target/release/bestreport"
    reps = int(sys.argv[2]) if len(sys.argv) > 2 else 200
    for t_a, t_b, n in [(12_000, 14_500, 96), (10_000, 12_500, 96), (10_000, 12_900, 300),
                        (13_000, 13_000, 96), (13_000, 13_000, 300), (15_000, 25_000, 30)]:
        simulate(bestreport, t_a, t_b, n, reps)


if __name__ == "__main__":
    main()
