#!/usr/bin/env python3
"""Coverage of bestreport's paired interval when half the rounds' differences
are exactly 0 and the rest continuous (an open finding, BENCHMARKS.md).

Two commands are "run" in 300 complete rounds; command b takes command a's
time plus D, where D is 0 with probability 1/2 and otherwise a normal
(mean 1900 µs, sd 100 µs, rounded to whole µs). The interval bestreport
gives for the Hodges-Lehmann shift is checked against the pseudo-median of
D's distribution (what it estimates: the median of (D1 + D2)/2, here from
four million pairs), and beside it the classic interval, the Walsh
averages' order statistics at the normal signed-rank quantile, untied.

Usage: tools/heavy_zeros_coverage.py [REPLICATIONS] [BESTREPORT]
       (default 200, target/release/bestreport). Needs numpy.
"""
import json
import subprocess
import sys

import numpy as np

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from paired_ticks import write_rounds  # noqa: E402

ROUNDS = 300


def main():
    reps = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    binary = sys.argv[2] if len(sys.argv) > 2 else "target/release/bestreport"
    rng = np.random.default_rng(7)

    def differences(n):
        zero = rng.random(n) < 0.5
        return np.where(zero, 0, np.rint(rng.normal(1900, 100, n))).astype(int)

    theta = float(np.median((differences(4_000_000) + differences(4_000_000)) / 2))
    i, j = np.triu_indices(ROUNDS)
    sd = np.sqrt(ROUNDS * (ROUNDS + 1) * (2 * ROUNDS + 1) / 24)
    tool, classic, widths, classic_widths = 0, 0, [], []
    path = "/tmp/heavy_zeros_rounds.csv"
    for k in range(reps):
        base = np.rint(rng.normal(10_000, 300, ROUNDS)).astype(int)
        d = differences(ROUNDS)
        write_rounds(path, list(base), list(base + d), k)
        out = subprocess.run(
            [binary, "-Q", "--json-runs", "none", "--export-json", "-", path],
            capture_output=True, text=True, check=True,
        )
        results = json.loads(out.stdout)["results"]
        other = next(r for r in results if r["bestguess"].get("comparison"))
        c = other["bestguess"]["comparison"]
        sign = 1 if other["command"] == "cmd_b" else -1
        lo, hi = sorted([sign * c["ci_low_us"], sign * c["ci_high_us"]])
        tool += lo <= theta <= hi
        widths.append(hi - lo)
        w = np.sort((d[i] + d[j]) / 2)
        kk = int(np.floor(len(w) / 2 - 1.96 * sd))
        classic += w[kk] <= theta <= w[len(w) - 1 - kk]
        classic_widths.append(w[len(w) - 1 - kk] - w[kk])
    print(f"pseudo-median {theta} us, {reps} experiments of {ROUNDS} rounds")
    print(f"bestreport: covered {tool}/{reps}, median width {np.median(widths):.1f} us, "
          f"narrower than 10 us in {sum(x < 10 for x in widths)}")
    print(f"classic Walsh interval: covered {classic}/{reps}, "
          f"median width {np.median(classic_widths):.1f} us")


if __name__ == "__main__":
    main()
