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


def write(name, commands, seed):
    rng = random.Random(seed)
    schedule = [c for c in range(len(commands)) for _ in range(RUNS)]
    rng.shuffle(schedule)
    rows, t0 = [], 1795358000000000
    for seq, c in enumerate(schedule, 1):
        cmd, base = commands[c]
        tot = int(base * (1 + abs(rng.gauss(0, 0.005)) + rng.expovariate(25)))
        u = int(tot * 0.8)
        wall = tot + rng.randint(100, 400)
        rows.append(f'"{cmd}","","",{c + 1},0,{u},{tot - u},2000000,100,0,1,2,{wall},{tot},3,'
                    f"{seq},{t0 + seq * 40000},,0")
    with open(os.path.join(OUT, name), "w") as f:
        f.write(HEADER + "\n" + "\n".join(rows) + "\n")


write("gate_baseline.csv", [("parse", 10_000), ("render", 20_000), ("retired", 5_000)], 21)
write("gate_slower.csv", [("parse", 11_000), ("render", 20_000), ("fresh", 3_000)], 22)
write("gate_same.csv", [("parse", 10_000), ("render", 20_000), ("retired", 5_000)], 23)
