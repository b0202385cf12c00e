#!/usr/bin/env python3
"""Coverage of bestreport's paired interval on tick-accounted CPU times.

The kernel charges CPU time in ticks (10 ms here): a command whose true
time is t is recorded as T * floor(t/T + U), U uniform on [0, 1). Two
commands are "run" in complete rounds (random order within each round),
written as a raw CSV and analysed by the real `bestreport`; its interval
for the Hodges-Lehmann shift is checked against the pseudo-median of the
recorded differences' distribution (what the interval estimates), and so
is a reference interval: the inversion of the tie-corrected normal
signed-rank test with continuity correction (R's wilcox.test for tied
data) over every Walsh average and every gap between two, closed.

Usage: tools/paired_ticks.py [BESTREPORT] [REPLICATIONS]
       (default target/release/bestreport, 200). Needs numpy and scipy.
"""
import collections
import json
import math
import os
import random
import subprocess
import sys
import tempfile

import numpy as np
from scipy import stats

TICK = 10_000  # µs
HEADER = ("Command,Shell,Name,Batch,Exit code,User time (us),System time (us),"
          "Max RSS (Bytes),Page Reclaims,Page Faults,Voluntary Context Switches,"
          "Involuntary Context Switches,Wall clock (us),Total time (us),"
          "Total Context Switches,Sequence,Start time (us since epoch),Signal,Timed out")


def write_runs(path, runs):
    """A raw CSV of `runs`, (command index 0 or 1, CPU time in µs) pairs,
    in the order they were run."""
    seq, start, rows = 0, 1_795_358_000_000_000, []
    for idx, cpu in runs:
        seq += 1
        wall = cpu + 100
        start += wall + 50
        rows.append(f'"cmd_{"ab"[idx]}","","",{idx + 1},0,{cpu},0,2097152,100,0,1,0,'
                    f'{wall},{cpu},1,{seq},{start},,0')
    with open(path, "w") as f:
        f.write(HEADER + "\n" + "\n".join(rows) + "\n")


def write_rounds(path, a, b, seed):
    """A raw CSV of commands a and b run in complete rounds, round i
    pairing a[i] with b[i], the order within each round random."""
    rng = random.Random(seed)
    runs = []
    for ra, rb in zip(a, b):
        order = [(0, ra), (1, rb)]
        rng.shuffle(order)
        runs.extend(order)
    write_runs(path, runs)


def comparison(bestreport, raw, out):
    """`bestreport`'s comparison of the two commands in `raw` (its JSON
    written to `out`): the compared command's `comparison` object."""
    subprocess.run([bestreport, "-Q", "--export-json", out, raw], check=True,
                   capture_output=True)
    with open(out) as f:
        doc = json.load(f)
    return next(x["bestguess"]["comparison"] for x in doc["results"]
                if x["bestguess"].get("comparison"))


def pseudo_median(t_a, t_b):
    """The median of (D1 + D2)/2 for D the recorded difference b - a."""
    def recorded(t):
        low = math.floor(t / TICK) * TICK
        frac = t / TICK - math.floor(t / TICK)
        return {low: 1 - frac, low + TICK: frac}
    d = collections.Counter()
    for x, px in recorded(t_a).items():
        for y, py in recorded(t_b).items():
            d[y - x] += px * py
    w = collections.Counter()
    for x, px in d.items():
        for y, py in d.items():
            w[(x + y) / 2] += px * py
    total = 0.0
    for v in sorted(w):
        total += w[v]
        if total >= 0.5:
            return v
    return None


def z_at(d, delta):
    """The tie-corrected, continuity-corrected signed-rank z at delta."""
    e = np.asarray(d, float) - delta
    e = e[e != 0]
    n = len(e)
    if n == 0:
        return 0.0
    r = stats.rankdata(np.abs(e))
    t_plus = r[e > 0].sum()
    _, counts = np.unique(r, return_counts=True)
    var = n * (n + 1) * (2 * n + 1) / 24 - (counts ** 3 - counts).sum() / 48
    if var <= 0:
        return 0.0
    z = t_plus - n * (n + 1) / 4
    return (z - 0.5 * np.sign(z)) / math.sqrt(var)


def reference_interval(d, alpha=0.05):
    """The closure of the deltas (Walsh averages and gap midpoints) at
    which the tie-corrected normal test accepts; None if none does."""
    d = np.asarray(d, float)
    i, j = np.triu_indices(len(d))
    w = np.unique((d[i] + d[j]) / 2)
    z_crit = stats.norm.isf(alpha / 2)
    accepted = [c for c in list(w) + list((w[1:] + w[:-1]) / 2) if abs(z_at(d, c)) <= z_crit]
    if not accepted:
        return None
    low, high = min(accepted), max(accepted)
    return (max([x for x in w if x <= low], default=low),
            min([x for x in w if x >= high], default=high))


def simulate(bestreport, t_a, t_b, n, reps, seed=0):
    rng = np.random.default_rng(seed)
    truth = pseudo_median(t_a, t_b)
    verdicts = collections.Counter()
    covered = covered_ref = 0
    levels = []
    with tempfile.TemporaryDirectory() as work:
        raw, out = os.path.join(work, "raw.csv"), os.path.join(work, "out.json")
        for r in range(reps):
            a = (TICK * np.floor(t_a / TICK + rng.random(n))).astype(int)
            b = (TICK * np.floor(t_b / TICK + rng.random(n))).astype(int)
            write_rounds(raw, list(a), list(b), seed=r)
            c = comparison(bestreport, raw, out)
            low, high = c["ci_low_us"], c["ci_high_us"]
            if c["against"] == 1:  # b is the best: the shift is a - b
                low, high = -high, -low
            covered += low <= truth <= high
            verdicts[c["verdict"]] += 1
            levels.append(c["ci_confidence"])
            ref = reference_interval(b - a)
            covered_ref += ref is not None and ref[0] <= truth <= ref[1]
    print(f"true {t_a / 1000:g} and {t_b / 1000:g} ms, {n} rounds: pseudo-median {truth:g} µs; "
          f"bestreport covers it {covered}/{reps} (median level {np.median(levels):.4f}), "
          f"the reference {covered_ref}/{reps}; verdicts {dict(sorted(verdicts.items()))}")


def main():
    bestreport = sys.argv[1] if len(sys.argv) > 1 else "target/release/bestreport"
    reps = int(sys.argv[2]) if len(sys.argv) > 2 else 200
    for t_a, t_b, n in [(12_000, 14_500, 96), (10_000, 12_900, 300),
                        (13_000, 13_000, 96), (10_000, 12_500, 96)]:
        simulate(bestreport, t_a, t_b, n, reps)


if __name__ == "__main__":
    main()
