#!/usr/bin/env python3
"""Read a JSON export the way Hyperfine's own analysis scripts do.

Hyperfine ships scripts (advanced_statistics.py, plot_whisker.py,
plot_histogram.py, plot_progression.py, plot_parametrized.py ...) that read
its `--export-json` file. This script performs the same field accesses they
perform, without numpy or matplotlib, so anyone can check that a BestGuess
export works with them:

    python3 tests/hyperfine_compat/check.py results.json

It exits 0 and prints what advanced_statistics.py would print if every
access succeeds, and fails with a traceback at the first one that does not.
Not run by CI (the tests must not need Python); the Rust test
`json_has_every_key_and_type_of_hyperfine_1s_export` (and `_2s_) in
tests/export_snapshots.rs checks the same keys and types.
"""

import argparse
import json
import math
import statistics


def percentile(values, p):
    """numpy.percentile's default (linear interpolation, type 7)."""
    xs = sorted(values)
    h = (len(xs) - 1) * p / 100.0
    lo = math.floor(h)
    hi = min(lo + 1, len(xs) - 1)
    return xs[lo] + (h - lo) * (xs[hi] - xs[lo])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", help="JSON file with benchmark results")
    args = parser.parse_args()

    # Every script starts like this.
    with open(args.file, encoding="utf-8") as f:
        results = json.load(f)["results"]

    # plot_whisker.py, plot_histogram.py, plot_progression.py: labels and
    # per-run times.
    labels = [b["command"] for b in results]
    times = [b["times"] for b in results]
    assert all(isinstance(label, str) for label in labels)
    assert all(isinstance(t, (int, float)) for ts in times for t in ts)

    # plot_parametrized.py, plot_benchmarks.py: summary numbers (stddev is
    # null for a single run, in Hyperfine too).
    for b in results:
        for key in ("mean", "median", "min", "max", "user", "system"):
            assert isinstance(b[key], (int, float)), key
        assert b["stddev"] is None or isinstance(b["stddev"], (int, float))
        codes = b["exit_codes"]
        assert len(codes) == len(b["times"])
        assert all(c is None or isinstance(c, int) for c in codes)
        if "memory_usage_byte" in b:
            assert len(b["memory_usage_byte"]) == len(b["times"])
        b.get("parameters", {})

    # advanced_statistics.py, with numpy replaced by the standard library.
    for command, ts in zip(labels, times):
        p05, p25 = percentile(ts, 5), percentile(ts, 25)
        p75, p95 = percentile(ts, 75), percentile(ts, 95)
        stdev = statistics.stdev(ts) if len(ts) > 1 else float("nan")
        print("Command '{}'".format(command))
        print("  mean:   {:8.3f} s".format(statistics.fmean(ts)))
        print("  stddev: {:8.3f} s".format(stdev))
        print("  median: {:8.3f} s".format(statistics.median(ts)))
        print("  min:    {:8.3f} s".format(min(ts)))
        print("  max:    {:8.3f} s".format(max(ts)))
        print()
        print("  percentiles:")
        print("     P_05 .. P_95:    {:.3f} s .. {:.3f} s".format(p05, p95))
        print(
            "     P_25 .. P_75:    {:.3f} s .. {:.3f} s  "
            "(IQR = {:.3f} s)".format(p25, p75, p75 - p25)
        )
        print()


if __name__ == "__main__":
    main()
