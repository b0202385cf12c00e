#!/usr/bin/env python3
"""Price & Bonett's normal-approximation intervals for a ratio of medians,
against the exact order-statistic bounds BestGuess uses, where timing data
are awkward. Prints Markdown for bench/results/price_bonett.md; not run by CI.

1. Implements statpsych's `ci.ratio.median2` (Price & Bonett 2002,
   independent samples) and `ci.ratio.median.ps` (Bonett & Price 2020,
   paired) from their published formulas, and stops unless both reproduce
   the examples in statpsych's documentation (1.7.0 and later) to the
   printed digits.
2. Simulates the cells of the method grid where an approximation is most
   at risk (few runs, heavy ties, tick lattices, unequal spreads) and
   prints, per cell, the coverage of the 95 % Price-Bonett interval and of
   the exact bounds (src/stats/medians.rs, as tools/golden.py writes them
   from their definition) with the confidence they state, and how often
   each interval has no width.

    pip install numpy scipy statsmodels mpmath
    python3 tools/price_bonett.py [REPLICATIONS]     (default 2000)
"""

import sys

import numpy as np
import scipy.stats as st

from golden import contrast_independent, contrast_paired

Z = st.norm.ppf(0.975)


def se_log_median(y):
    """Bonett's standard error of the log of a sample median, from the
    order statistics c and n - c + 1, c = round(n/2 - sqrt(n)) (at least 1)."""
    y = np.sort(np.asarray(y, dtype=float))
    n = len(y)
    c = max(int(round(n / 2 - np.sqrt(n))), 1)
    z0 = st.norm.ppf(1 - st.binom.cdf(c - 1, n, 0.5))
    return (np.log(y[n - c]) - np.log(y[c - 1])) / (2 * z0)


def ratio_median2(y1, y2, z=Z):
    """statpsych::ci.ratio.median2: median(y1)/median(y2) and its interval."""
    ratio = np.median(y1) / np.median(y2)
    se = np.hypot(se_log_median(y1), se_log_median(y2))
    return ratio, ratio * np.exp(-z * se), ratio * np.exp(z * se)


def ratio_median_ps(y1, y2, z=Z):
    """statpsych::ci.ratio.median.ps: the same for paired measurements,
    with the covariance of the two log medians from the share of pairs
    below both medians, (count + 1/4)/(n + 1)."""
    y1, y2 = np.asarray(y1, dtype=float), np.asarray(y2, dtype=float)
    n = len(y1)
    m1, m2 = np.median(y1), np.median(y2)
    s1, s2 = se_log_median(y1), se_log_median(y2)
    p00 = (np.sum((y1 < m1) & (y2 < m2)) + 0.25) / (n + 1)
    se = np.sqrt(s1**2 + s2**2 - 2 * (4 * p00 - 1) * s1 * s2)
    ratio = m1 / m2
    return ratio, ratio * np.exp(-z * se), ratio * np.exp(z * se)


def check_examples():
    y1 = [36, 44, 47, 42, 49, 39, 46, 31, 33, 48]
    y2 = [32, 39, 26, 35, 43, 27, 40, 37, 34, 29, 49, 42, 40]
    got = ratio_median2(y1, y2)
    want = (1.162162, 0.927667, 1.455933)
    y1 = [76.41, 66.91, 81.06, 74.78, 83.76, 89.31, 78.78, 87.06, 82.61, 76.74, 88.33, 86.18]
    y2 = [59.85, 60.64, 84.86, 68.16, 71.53, 86.18, 67.30, 65.46, 83.50, 66.76, 88.37, 65.02]
    got_ps = ratio_median_ps(y1, y2)
    want_ps = (1.208253, 1.069251, 1.365326)
    for what, g, w in (("ci.ratio.median2", got, want), ("ci.ratio.median.ps", got_ps, want_ps)):
        if any(abs(a - b) > 5e-7 for a, b in zip(g, w)):
            sys.exit(f"{what} does not reproduce statpsych's example: {g} against {w}")


def lattice(rng, values, weights, n):
    return rng.choice(values, size=n, p=weights)


def population_median(draw, rng, size=400_000):
    return float(np.median(draw(rng, size)))


def cells():
    """(name, paired, draw_a, draw_b, n_a, n_b): draw_x(rng, n) gives n runs;
    for paired cells draw_a gives (a, b) rounds."""
    def lognormal(median, sigma):
        return lambda rng, n: median * rng.lognormal(0, sigma, n)

    def ticks(draw, tick):
        return lambda rng, n: np.maximum(tick, tick * np.round(draw(rng, n) / tick))

    ties = lambda rng, n: lattice(rng, [10_000, 11_000, 12_000, 13_000], [0.3, 0.4, 0.2, 0.1], n)
    out = [
        ("3-4 distinct values, 50 against 5 runs", False, ties, lognormal(11_000, 0.05), 50, 5),
        ("3-4 distinct values, 1000 against 8 runs", False, ties, lognormal(11_000, 0.05), 1000, 8),
        ("10 ms ticks at 20 ms, 10 runs each", False, ticks(lognormal(20_000, 0.3), 10_000),
         ticks(lognormal(20_000, 0.3), 10_000), 10, 10),
        ("spread 1:40, 20 against 5 runs", False, lognormal(10_000, 0.01), lognormal(10_000, 0.4), 20, 5),
        ("lognormal σ 0.05, 5 runs each", False, lognormal(10_000, 0.05), lognormal(10_000, 0.05), 5, 5),
        ("both 3-4 distinct values, one tick apart, 30 runs each", False, ties,
         lambda rng, n: ties(rng, n) + 1_000, 30, 30),
    ]
    for n in (5, 6, 10):
        def rounds(rng, size, tick=100.0):
            machine = rng.lognormal(0, 0.05, size)
            a = np.maximum(tick, tick * np.round(1_000 * machine * rng.lognormal(0, 0.1, size) / tick))
            b = np.maximum(tick, tick * np.round(1_100 * machine * rng.lognormal(0, 0.1, size) / tick))
            return a, b
        out.append((f"100 µs ticks at 1 ms, paired, {n} rounds", True, rounds, None, n, n))
    return out


def simulate(reps):
    rng = np.random.default_rng(20261129)
    print("| cell | Price–Bonett 95 %: cover | of no width | exact bounds: stated | cover | of no width |")
    print("|---|---|---|---|---|---|")
    for name, paired, draw_a, draw_b, na, nb in cells():
        # Price-Bonett estimate the ratio of the medians; over rounds the
        # exact bounds, the median of the within-round ratios.
        if paired:
            a, b = draw_a(rng, 400_000)
            truth_pb, truth = float(np.median(b) / np.median(a)), float(np.median(b / a))
        else:
            truth = population_median(draw_b, rng) / population_median(draw_a, rng)
            truth_pb = truth
        pb = exact = stated = pb_flat = flat = 0
        for _ in range(reps):
            if paired:
                a, b = draw_a(rng, na)
                _, low, high = ratio_median_ps(b, a)
                c = contrast_paired(list(a), list(b), 0.025)
            else:
                a, b = np.sort(draw_a(rng, na)), np.sort(draw_b(rng, nb))
                _, low, high = ratio_median2(b, a)
                c = contrast_independent(list(a), list(b), 0.025)
            pb += low <= truth_pb <= high
            pb_flat += low == high
            if not c["reached"]:
                c = (contrast_paired(list(a), list(b), 0.05) if paired
                     else contrast_independent(list(a), list(b), 0.05))
            exact += c["low"] <= truth <= c["high"]
            flat += c["low"] == c["high"]
            stated += 1 - 2 * c["miss"]
        pct = lambda x: f"{100 * x / reps:.1f}"
        print(f"| {name} | {pct(pb)} | {pct(pb_flat)} | {pct(stated)} | {pct(exact)} | {pct(flat)} |")


def main():
    check_examples()
    print("statpsych's documented examples reproduced (ci.ratio.median2, ci.ratio.median.ps).\n")
    simulate(int(sys.argv[1]) if len(sys.argv) > 1 else 2000)


if __name__ == "__main__":
    main()
