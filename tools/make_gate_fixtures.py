#!/usr/bin/env python3
"""Writes the raw-data fixtures of the regression gate's tests
(tests/data/fixtures/gate_*.csv), used by tests/gate_cli.rs. Deterministic
(fixed seeds); not run by CI.

Every command has 30 runs in random order with the shape of real timing
noise: a floor with |N(0, 0.5 %)| jitter and an exponential right tail of
mean 4 %.

* gate_baseline.csv: "parse" (10 ms), "render" (20 ms), "retired" (5 ms).
* gate_slower.csv: "parse" 10 % slower, "render" from the same distribution,
  "retired" gone, "fresh" (3 ms) new.
* gate_same.csv: "parse" and "render" drawn again from the baseline's
  distributions (other seeds), "retired" too.
* gate_all_failed.csv: "parse" and "render", every run exiting with status
  1 after 0.3 ms (a broken build: much faster, and wrong).
* gate_part_failed.csv: "parse" and "render" from the baseline's
  distributions; "render" has 3 runs with status 2 and 1 ended by signal 9.
* gate_baseline_failed.csv: the baseline's distributions; "parse" has 2
  runs with status 1.

Usage: python3 tools/make_gate_fixtures.py
"""
import os
import random

OUT = os.path.join(os.path.dirname(__file__), "..", "tests", "data", "fixtures")
HEADER = ("Command,Shell,Name,Batch,Exit code,User time (us),System time (us),Max RSS (Bytes),"
          "Page Reclaims,Page Faults,Voluntary Context Switches,Involuntary Context Switches,"
          "Wall clock (us),Total time (us),Total Context Switches,Sequence,"
          "Start time (us since epoch),Signal,Timed out")
RUNS = 30


def write(name, commands, seed, fail=None):
    """fail(command, k) -> (exit, signal) for the k-th run (from 0) of a
    command, or None for a run that succeeded."""
    rng = random.Random(seed)
    schedule = [c for c in range(len(commands)) for _ in range(RUNS)]
    rng.shuffle(schedule)
    rows, t0 = [], 1795358000000000
    done = [0] * len(commands)
    for seq, c in enumerate(schedule, 1):
        cmd, base = commands[c]
        how = fail(cmd, done[c]) if fail else None
        done[c] += 1
        code, signal = how if how else (0, "")
        tot = int(base * (1 + abs(rng.gauss(0, 0.005)) + rng.expovariate(25)))
        u = int(tot * 0.8)
        wall = tot + rng.randint(100, 400)
        rows.append(f'"{cmd}","","",{c + 1},{code},{u},{tot - u},2000000,100,0,1,2,{wall},{tot},3,'
                    f"{seq},{t0 + seq * 40000},{signal},0")
    with open(os.path.join(OUT, name), "w") as f:
        f.write(HEADER + "\n" + "\n".join(rows) + "\n")


write("gate_baseline.csv", [("parse", 10_000), ("render", 20_000), ("retired", 5_000)], 21)
write("gate_slower.csv", [("parse", 11_000), ("render", 20_000), ("fresh", 3_000)], 22)
write("gate_same.csv", [("parse", 10_000), ("render", 20_000), ("retired", 5_000)], 23)
write("gate_all_failed.csv", [("parse", 300), ("render", 300)], 24, lambda c, k: (1, ""))
write("gate_part_failed.csv", [("parse", 10_000), ("render", 20_000)], 25,
      lambda c, k: {3: (2, ""), 10: (2, ""), 17: (2, ""), 20: (137, 9)}.get(k) if c == "render" else None)
write("gate_baseline_failed.csv", [("parse", 10_000), ("render", 20_000), ("retired", 5_000)], 21,
      lambda c, k: (1, "") if c == "parse" and k in (4, 9) else None)
