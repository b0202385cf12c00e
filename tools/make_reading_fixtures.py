#!/usr/bin/env python3
"""Writes the raw-data fixtures of the reading snapshots
(tests/layout_snapshots.rs): what a ranking says when a row is negative,
when a command is faster than a given reference, when one command is
alone, and when a budget ends an adaptive experiment with a comparison
open. Each file's verdicts are checked here by the rule of
docs/statistics.md, computed independently of the program (scipy's
binomial for the medians' ranks).

    pip install numpy scipy
    python3 tools/make_reading_fixtures.py

Deterministic (one numpy seed per file); not run by CI, and the tests do
not need Python. The files are raw CSVs as `bestguess -o` writes them
(tools/make_method_fixtures.py's writer), in random rounds:

* near_reference.csv: 40 rounds of `old` (lognormal, median 10 ms, σ
  0.03) and `new`, 0.6 % faster at the median. Against `--reference old`
  the estimate is negative and the comparison open.
* reference_faster.csv: 30 rounds of `old build` (10 ms), `new build`
  (7.5 ms) and `debug build` (13 ms), σ 0.05: against `--reference 1`,
  one faster and one slower.
* one_command.csv: one command, 30 runs (median 5 ms, σ 0.05).
* budget_stop.csv: an adaptive A/A experiment (`--runs auto`, the rule
  recorded in the header) of `ls -l /usr/lib` twice (σ 0.05) that a
  budget stopped after 50 rounds, between the looks at 41 and 62, no
  look before having decided.
"""

import math
import sys
from pathlib import Path

import numpy as np

TOOLS = Path(__file__).resolve().parent
sys.path.insert(0, str(TOOLS))
import make_method_fixtures as method  # noqa: E402

method.OUT = TOOLS.parent / "tests" / "data" / "reading"
ALPHA = 0.05
MARKER = "Runs auto (alpha 0.05; min-runs 0; precision 0.02)"


def against(commands, ref, alpha, effect=0.01, epsilon=0.01):
    """Verdicts and ratio intervals against a fixed reference `ref`,
    every command compared: (verdict, estimate, low, high) per command."""
    k = len(commands)
    b = [method.bounds(c, alpha / (2 * k)) for c in commands]
    assert all(x is not None for x in b), "too few runs to compare"
    out = []
    for i in range(k):
        if i == ref:
            out.append(("best", 1.0, 1.0, 1.0))
            continue
        estimate = b[i][0] / b[ref][0]
        low, high = b[i][1] / b[ref][2], b[i][2] / b[ref][1]
        if low > 1 + effect:
            verdict = "slower"
        elif high < 1 / (1 + effect):
            verdict = "faster"
        elif low >= 1 / (1 + epsilon) and high <= 1 + epsilon:
            verdict = "equivalent"
        else:
            verdict = "inconclusive"
        out.append((verdict, estimate, low, high))
    return out


def looks(k, last):
    """The rounds of the looks up to `last` and each one's share of α."""
    n = next(n for n in range(1, 100) if 0.5 ** n <= ALPHA * 0.5 / (2 * k))
    out, j = [], 0
    while n <= last:
        out.append((n, ALPHA / ((j + 1) * (j + 2))))
        n, j = max(math.ceil(n * 1.5), n + 1), j + 1
    return out


def main():
    method.OUT.mkdir(parents=True, exist_ok=True)

    rng = np.random.default_rng(43001)
    old = method.lognormal(rng, 40, 10_000, 0.03)
    new = method.lognormal(rng, 40, 9_940, 0.03)
    verdicts = against([old, new], 0, ALPHA)
    assert verdicts[1][0] == "inconclusive" and verdicts[1][1] < 1, verdicts
    method.write("near_reference.csv", [("old", old), ("new", new)], "rounds", rng)
    print(f"near_reference.csv: {verdicts[1]}")

    rng = np.random.default_rng(43002)
    commands = [("old build", method.lognormal(rng, 30, 10_000, 0.05)),
                ("new build", method.lognormal(rng, 30, 7_500, 0.05)),
                ("debug build", method.lognormal(rng, 30, 13_000, 0.05))]
    verdicts = against([v for _, v in commands], 0, ALPHA)
    assert [v[0] for v in verdicts] == ["best", "faster", "slower"], verdicts
    method.write("reference_faster.csv", commands, "rounds", rng)
    print(f"reference_faster.csv: {verdicts}")

    rng = np.random.default_rng(43003)
    one = method.lognormal(rng, 30, 5_000, 0.05)
    method.write("one_command.csv", [("gzip -6 -c big.txt", one)], "rounds", rng)
    median, low, high = method.bounds(one, ALPHA / 2)
    print(f"one_command.csv: median {median} [{low}, {high}]")

    rng = np.random.default_rng(43004)
    a = method.lognormal(rng, 50, 1_500, 0.05)
    b = method.lognormal(rng, 50, 1_500, 0.05)
    for n, share in looks(2, 50):
        verdicts = method.rank([a[:n], b[:n]], share)
        assert "inconclusive" in verdicts, (n, verdicts)
    method.write("budget_stop.csv", [("ls -l /usr/lib", a), ("ls -l /usr/lib ", b)],
                 "rounds", rng, MARKER)
    print(f"budget_stop.csv: open at every look to round 50: {looks(2, 50)}")


if __name__ == "__main__":
    main()
