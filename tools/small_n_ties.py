#!/usr/bin/env python3
"""Paired rounds, few of them, times in whole microseconds: how often
bestreport's interval for the shift covers the true shift, grouped by the
confidence it reports.

Each experiment draws ROUNDS rounds of two commands, a shared round
effect (sd 20 us) plus each run's own noise (sd SIGMA us), the second
command SHIFT = 7.3 us slower, and records each time as whole
microseconds (the kernel's resolution: ties between differences come from
that, not from ticks). The real `bestreport` analyses each raw file; its
interval is checked against the pseudo-median of the recorded
differences' distribution (a lattice point near 7.3 us, found by drawing
400,000 pairs). A reported level that the covered
fraction falls well below is an over-claim (stop 28: at 5 rounds the
conditional law at the estimate's tie pattern reported 100 % where the
estimate was itself a difference, and those intervals covered 88-92 %).

With DESIGN `independent` the two commands run one after the other
(ROUNDS runs each, no shared round effect): the two-sample interval,
checked against the median of the recorded differences' distribution
(Y − X, a whole number of microseconds).

Usage: tools/small_n_ties.py [BESTREPORT] [REPLICATIONS] [ROUNDS] [SIGMA] [DESIGN]
       (default target/release/bestreport, 400, 5, 15, paired). Seeded:
       the same arguments give the same experiments.
"""
import collections
import json
import os
import random
import subprocess
import sys
import tempfile

BIN = sys.argv[1] if len(sys.argv) > 1 else "target/release/bestreport"
REPS = int(sys.argv[2]) if len(sys.argv) > 2 else 400
ROUNDS = int(sys.argv[3]) if len(sys.argv) > 3 else 5
SIGMA = float(sys.argv[4]) if len(sys.argv) > 4 else 15.0
DESIGN = sys.argv[5] if len(sys.argv) > 5 else "paired"
if DESIGN not in ("paired", "independent"):
    sys.exit("DESIGN is paired or independent")
SHIFT = 7.3
HEADER = ("Command,Shell,Name,Batch,Exit code,User time (us),System time (us),Max RSS (Bytes),"
          "Page Reclaims,Page Faults,Voluntary Context Switches,Involuntary Context Switches,"
          "Wall clock (us),Total time (us),Total Context Switches,Sequence")


def truth(rng, draws=400_000):
    """The pseudo-median of the recorded difference's distribution (the
    median of the mean of two independent differences), which the
    interval estimates: recorded differences are whole microseconds, so it
    is a lattice point (a multiple of 0.5 us), not SHIFT itself."""
    def difference():
        base = 10000 + rng.gauss(0, 20)
        return int(base + SHIFT + rng.gauss(0, SIGMA)) - int(base + rng.gauss(0, SIGMA))
    if DESIGN == "independent":
        def difference():
            return int(10000 + SHIFT + rng.gauss(0, SIGMA)) - int(10000 + rng.gauss(0, SIGMA))
        return sorted(difference() for _ in range(draws))[draws // 2]
    walsh = sorted((difference() + difference()) / 2 for _ in range(draws))
    return walsh[draws // 2]


def experiment(rng, path, target):
    rows, seq = [], 0
    if DESIGN == "independent":
        for k, (name, shift) in enumerate([("ref", 0.0), ("new", SHIFT)]):
            for _ in range(ROUNDS):
                seq += 1
                v = int(10000 + shift + rng.gauss(0, SIGMA))
                rows.append(f'"{name}","","",{k + 1},0,{v},0,1000,1,0,1,1,{v + 50},{v},2,{seq}')
    for _ in range(ROUNDS if DESIGN == "paired" else 0):
        base = 10000 + rng.gauss(0, 20)
        times = [base + rng.gauss(0, SIGMA), base + SHIFT + rng.gauss(0, SIGMA)]
        for k, (name, t) in enumerate(zip(["ref", "new"], times)):
            seq += 1
            v = int(t)
            rows.append(f'"{name}","","",{k + 1},0,{v},0,1000,1,0,1,1,{v + 50},{v},2,{seq}')
    with open(path, "w") as f:
        f.write(HEADER + "\n" + "\n".join(rows) + "\n")
    out = subprocess.run([BIN, "-Q", "--reference", "ref", "--export-json", "-", path],
                         capture_output=True, text=True, check=True).stdout
    c = json.loads(out)["results"][1]["bestguess"]["comparison"]
    return c["ci_confidence"], c["ci_low_us"] <= target <= c["ci_high_us"]


def main():
    rng = random.Random(1)
    target = truth(random.Random(2))
    by_level = collections.defaultdict(lambda: [0, 0])
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "r.csv")
        for _ in range(REPS):
            level, covered = experiment(rng, path, target)
            key = "100%" if level >= 0.99995 else f"{100 * level:.2f}%"
            by_level[key][0] += 1
            by_level[key][1] += covered
    what = "runs of each command, one after the other" if DESIGN == "independent" else "rounds"
    truth_is = "median" if DESIGN == "independent" else "pseudo-median"
    print(f"{REPS} experiments of {ROUNDS} {what}, noise sd {SIGMA} us, shift {SHIFT} us "
          f"({truth_is} of the recorded differences {target} us):")
    for key in sorted(by_level):
        n, cov = by_level[key]
        print(f"  reported {key:>7}: {n:4d} experiments, covered {cov:4d} ({100 * cov / n:.1f} %)")


if __name__ == "__main__":
    main()
