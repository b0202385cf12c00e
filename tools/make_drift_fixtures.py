#!/usr/bin/env python3
"""Writes the raw-data fixtures for the time-order diagnostics
(tests/data/fixtures/{steady,drift,step,mirrored_step}.csv), used by
tests/diagnostics_cli.rs.
Deterministic (fixed seed); not run by CI.

Each file holds two commands run in random order (as `bestguess --order
random` would), 40 runs each, 10 ms and 12 ms of CPU time with lognormal
noise (sigma 0.03). The rows are written in a shuffled order: only the
Sequence column says when each run happened, as it is the only thing the
analysis may rely on.

* steady.csv: no change over time.
* drift.csv: both commands slow down linearly, by 30 % from the first run to
  the last (a machine heating up).
* step.csv: command 1's runs are 20 % slower from its 21st run on (its
  fastest runs jump halfway); command 2 is steady.
* mirrored_step.csv: two identical commands (10 ms) in the order
  `bestguess --order sequential` runs them, mirrored blocks of 20, 40 and
  20 runs (A B A), and the machine 10 % slower from the first run of B on:
  in plain blocks (A then B) nothing but B's verdict would show it.

Usage: python3 tools/make_drift_fixtures.py
"""
import os
import random

OUT = os.path.join(os.path.dirname(__file__), "..", "tests", "data", "fixtures")
HEADER = ("Command,Shell,Name,Batch,Exit code,User time (us),System time (us),Max RSS (Bytes),"
          "Page Reclaims,Page Faults,Voluntary Context Switches,Involuntary Context Switches,"
          "Wall clock (us),Total time (us),Total Context Switches,Sequence,"
          "Start time (us since epoch),Signal,Timed out")
RUNS = 40
COMMANDS = [("work --size 10", "", 10_000), ("work --size 12", "", 12_000)]


def write(name, factor, seed, commands=COMMANDS, schedule=None):
    """`schedule`: the command of each run in time order (by default a
    random order of RUNS runs of each)."""
    rng = random.Random(seed)
    if schedule is None:
        schedule = [c for c in range(len(commands)) for _ in range(RUNS)]
        rng.shuffle(schedule)
    total_runs = len(schedule)
    rows, t0 = [], 1795358000000000
    done = [0] * len(commands)
    for seq, c in enumerate(schedule, 1):
        cmd, label, base = commands[c]
        t = (seq - 1) / (total_runs - 1)
        tot = int(base * (1 + abs(rng.gauss(0, 0.005)) + rng.expovariate(25)) * factor(c, t, done[c]))
        done[c] += 1
        u = int(tot * 0.8)
        wall = tot + rng.randint(100, 400)
        rows.append(f'"{cmd}","","{label}",{c + 1},0,{u},{tot - u},2000000,100,0,1,2,{wall},{tot},3,'
                    f"{seq},{t0 + seq * 20000},,0")
    rng.shuffle(rows)
    with open(os.path.join(OUT, name), "w") as f:
        f.write(HEADER + "\n" + "\n".join(rows) + "\n")


write("steady.csv", lambda c, t, i: 1.0, 11)
write("drift.csv", lambda c, t, i: 1.0 + 0.3 * t, 12)
write("step.csv", lambda c, t, i: 1.2 if c == 0 and i >= RUNS // 2 else 1.0, 13)

# A B A, 20, 40 and 20 runs; B's first run is run 21, at t = 20/79.
write("mirrored_step.csv", lambda c, t, i: 1.1 if t >= 20 / 79 else 1.0, 14,
      [("work --size 10", "work 1", 10_000), ("work --size 10", "work 2", 10_000)],
      [0] * (RUNS // 2) + [1] * RUNS + [0] * (RUNS // 2))
