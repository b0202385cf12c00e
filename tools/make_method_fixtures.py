#!/usr/bin/env python3
"""Writes the raw-data fixtures of tests/verdicts.rs that check what the
ranking claims (tests/data/method/), by independent simulation.

    pip install numpy scipy
    python3 tools/make_method_fixtures.py

Deterministic (one numpy seed per file); not run by CI, and the tests do
not need Python. Every file is a raw CSV as `bestguess -o` writes it (the
reference's fifteen columns, then Sequence, Start time, Signal, Timed out),
the runs in the order they were made: random rounds (each round one run of
every command, shuffled) or sequential order. Times are integer
microseconds of user time; system time is 0.

* equal_medians.csv: 300 random rounds of a lognormal (median 10 ms, σ
  0.1) and a shifted exponential (9 ms + an exponential of median 1 ms):
  equal medians, different shapes. The population median of within-round
  ratios is about 1.017 (this sample's is printed below), the ratio of
  medians 1: never "slower".
* two_percent.csv: 1,500 random rounds of a lognormal (median 10 ms, σ
  0.05) and a command sometimes slow (a quarter of its runs 1.5× longer),
  scaled so that its median is exactly 2 % above: never "equivalent".
* same_values_rounds.csv, same_values_sequential.csv: the same values of
  two commands (lognormal σ 0.1, and the other shape 1.5 % slower at the
  median), in random rounds and in sequential order.
* five_run_one.csv: four commands of 49, 5, 400 and 150 runs, sequential
  order (about 1 ms, 1.2 ms, 42 ms and 48 ms): the 5-run one cannot be
  compared (four medians need 8 runs each), the others are decided.
* four_equally_slow.csv: 40 random rounds of five commands, four of them
  2× the first (lognormal σ 0.3).
* adaptive.csv, adaptive.json: an adaptive experiment (`--runs auto`) of
  three commands (10 ms; 1.5×; the same as the first, σ 0.01), its
  stopping rule simulated here from docs/statistics.md (looks at n0, 1.5×
  apart; look j spends α/((j + 1)(j + 2)); every median bounded at the
  look's α/(2K) a side with scipy's binomial), the header recording the
  rule, and the verdicts at its stop in adaptive.json.
"""

import json
import math
from pathlib import Path

import numpy as np
import scipy.stats as st

OUT = Path(__file__).resolve().parent.parent / "tests" / "data" / "method"
HEADER = ("Command,Shell,Name,Batch,Exit code,User time (us),System time (us),Max RSS (Bytes),"
          "Page Reclaims,Page Faults,Voluntary Context Switches,Involuntary Context Switches,"
          "Wall clock (us),Total time (us),Total Context Switches,Sequence,"
          "Start time (us since epoch),Signal,Timed out")
T0 = 1796000000000000


def q(s):
    return '"' + s.replace('"', '""') + '"'


def write(name, commands, order, rng, marker=None):
    """commands: (label, values in µs); order: 'rounds' or 'sequential'."""
    k = len(commands)
    if order == "rounds":
        n = len(commands[0][1])
        slots = []
        for r in range(n):
            for i in rng.permutation(k):
                slots.append((int(i), r))
    else:
        slots = [(i, r) for i, (_, v) in enumerate(commands) for r in range(len(v))]
    header = HEADER + ("," + marker if marker else "")
    rows = []
    for seq, (i, r) in enumerate(slots, 1):
        label, values = commands[i]
        u = int(values[r])
        row = (f"{q(label)},\"\",\"\",{i + 1},0,{u},0,2097152,{100 + seq % 7},0,1,2,{u + 90},{u},3,"
               f"{seq},{T0 + 3 * seq * u // 2},,0")
        rows.append(row + ("," if marker else ""))
    (OUT / name).write_text(header + "\n" + "\n".join(rows) + "\n")


def lognormal(rng, n, median, sigma):
    return np.round(median * np.exp(sigma * rng.standard_normal(n)))


def shifted_exp(rng, n, shift, median_excess):
    return np.round(shift + rng.exponential(median_excess / math.log(2), n))


def sometimes_slow(rng, n, median, sigma, scale):
    v = median * np.exp(sigma * rng.standard_normal(n))
    v[rng.random(n) < 0.25] *= 1.5
    return np.round(v * scale)


def median_of_sometimes_slow(median, sigma):
    """The population median of `sometimes_slow` (scale 1), by bisection
    on its distribution function."""
    cdf = lambda x: 0.75 * st.norm.cdf(math.log(x / median) / sigma) + \
        0.25 * st.norm.cdf(math.log(x / (1.5 * median)) / sigma)
    lo, hi = median / 2, 3 * median
    for _ in range(200):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if cdf(mid) < 0.5 else (lo, mid)
    return (lo + hi) / 2


# ------------------------------------------------------------ the rule


def bounds(values, gamma):
    """A median's bounds at gamma a side: the k-th smallest and largest,
    k the largest rank with P(Bin(n, 1/2) <= k - 1) <= gamma; None when
    even the extremes miss more often."""
    v = np.sort(np.asarray(values, dtype=float))
    n = len(v)
    tail = st.binom.cdf(np.arange((n + 1) // 2), n, 0.5)
    k = int(np.sum(tail <= gamma))
    if k == 0:
        return None
    return float(np.median(v)), float(v[k - 1]), float(v[n - k])


def rank(commands, alpha, effect=0.01, epsilon=0.01):
    """Verdicts of equally many runs of each command at alpha, with
    relative thresholds (every command compared, or none)."""
    k = len(commands)
    b = [bounds(c, alpha / (2 * k)) for c in commands]
    if any(x is None for x in b):
        return None
    best = min(range(k), key=lambda i: (b[i][0], i))
    verdicts = []
    for i in range(k):
        if i == best:
            verdicts.append("best")
            continue
        low = b[i][1] / b[best][2]
        high = b[i][2] / b[best][1]
        if low > 1 + effect:
            verdicts.append("slower")
        elif low >= 1 / (1 + epsilon) and high <= 1 + epsilon:
            verdicts.append("equivalent")
        else:
            verdicts.append("inconclusive")
    return verdicts


def adaptive(rng, alpha=0.05, max_rounds=1000):
    """Draws rounds until a look decides every comparison."""
    draw = [lambda: 10_000 * math.exp(0.01 * rng.standard_normal()),
            lambda: 15_000 * math.exp(0.01 * rng.standard_normal()),
            lambda: 10_000 * math.exp(0.01 * rng.standard_normal())]
    k = len(draw)
    first = next(n for n in range(1, 100) if 0.5 ** n <= alpha * 0.5 / (2 * k))
    looks, n = [], first
    while n <= max_rounds:
        looks.append(n)
        n = max(math.ceil(n * 1.5), n + 1)
    values = [[] for _ in range(k)]
    for j, look in enumerate(looks):
        while len(values[0]) < look:
            for c in range(k):
                values[c].append(round(draw[c]()))
        share = alpha / ((j + 1) * (j + 2))
        verdicts = rank(values, share)
        if verdicts and all(v != "inconclusive" for v in verdicts):
            return values, verdicts, look, j, share
    raise SystemExit("the simulated experiment did not decide")


def main():
    OUT.mkdir(parents=True, exist_ok=True)

    rng = np.random.default_rng(41001)
    n = 300
    a = lognormal(rng, n, 10_000, 0.1)
    b = shifted_exp(rng, n, 9_000, 1_000)
    within = np.median(b / a)
    write("equal_medians.csv", [("lognormal", a), ("shifted exponential", b)], "rounds", rng)
    print(f"equal_medians.csv: median of within-round ratios {within:.4f}, "
          f"sample medians {np.median(a):.0f} and {np.median(b):.0f}")

    rng = np.random.default_rng(41002)
    n = 1500
    scale = 1.02 * 10_000 / median_of_sometimes_slow(10_000, 0.05)
    a = lognormal(rng, n, 10_000, 0.05)
    b = sometimes_slow(rng, n, 10_000, 0.05, scale)
    write("two_percent.csv", [("steady", a), ("sometimes slow", b)], "rounds", rng)
    print(f"two_percent.csv: ratio of sample medians {np.median(b) / np.median(a):.4f}")

    rng = np.random.default_rng(41003)
    n = 400
    a = lognormal(rng, n, 10_000, 0.1)
    b = shifted_exp(rng, n, 9_000 * 1.015, 1_000 * 1.015)
    for order in ("rounds", "sequential"):
        write(f"same_values_{order}.csv", [("lognormal", a), ("shifted exponential", b)], order, rng)

    rng = np.random.default_rng(41004)
    commands = [("one ms", lognormal(rng, 49, 1_000, 0.05)),
                ("five runs", lognormal(rng, 5, 1_200, 0.05)),
                ("forty-two ms", lognormal(rng, 400, 42_000, 0.05)),
                ("forty-eight ms", lognormal(rng, 150, 48_000, 0.05))]
    write("five_run_one.csv", commands, "sequential", rng)

    rng = np.random.default_rng(41005)
    n = 40
    commands = [("first", lognormal(rng, n, 10_000, 0.3))]
    commands += [(f"slow {i}", lognormal(rng, n, 20_000, 0.3)) for i in range(1, 5)]
    write("four_equally_slow.csv", commands, "rounds", rng)

    rng = np.random.default_rng(41006)
    values, verdicts, look, j, share = adaptive(rng)
    marker = "Runs auto (alpha 0.05; min-runs 0; precision 0.02)"
    labels = ["ten ms", "fifteen ms", "ten ms again"]
    write("adaptive.csv", list(zip(labels, values)), "rounds", rng, marker)
    expected = {"rounds": look, "look": j, "alpha": share, "verdicts": verdicts}
    (OUT / "adaptive.json").write_text(json.dumps(expected, indent=1) + "\n")
    print(f"adaptive.csv: decided at look {j + 1}, round {look}: {verdicts}")


if __name__ == "__main__":
    main()
