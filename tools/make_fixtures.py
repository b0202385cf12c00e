#!/usr/bin/env python3
"""Writes the synthetic raw-data fixtures in tests/data/fixtures/ used by the
report and export snapshot tests: UTF-8 names, one run, many commands,
all-zero times, identical commands, failed runs, and a mix of microsecond and
second-scale commands. Deterministic (fixed seed); not run by CI.

Usage: python3 tools/make_fixtures.py
"""
import os
import random

random.seed(7)
OUT = os.path.join(os.path.dirname(__file__), "..", "tests", "data", "fixtures")
HEADER = ("Command,Shell,Name,Batch,Exit code,User time (us),System time (us),Max RSS (Bytes),"
          "Page Reclaims,Page Faults,Voluntary Context Switches,Involuntary Context Switches,"
          "Wall clock (us),Total time (us),Total Context Switches,Sequence,"
          "Start time (us since epoch),Signal,Timed out")


def q(s):
    return '"' + s.replace('"', '""') + '"'


def write(name, cmds):
    rows, seq, t0 = [], 0, 1795358000000000
    for batch, (cmd, shell, nm, runs) in enumerate(cmds, 1):
        for (u, s, rss, vcs, ics, wall, code) in runs:
            seq += 1
            rows.append(f"{q(cmd)},{q(shell)},{q(nm)},{batch},{code},{u},{s},{rss},{100 + seq % 7},0,"
                        f"{vcs},{ics},{wall},{u + s},{vcs + ics},{seq},{t0 + seq * 5000},,0")
    with open(os.path.join(OUT, name), "w") as f:
        f.write(HEADER + "\n" + "\n".join(rows) + "\n")


def gen(n, base, spread, rss=2_000_000, code=0):
    out = []
    for _ in range(n):
        tot = int(base * random.lognormvariate(0, spread))
        u = int(tot * 0.7)
        out.append((u, tot - u, rss + 4096 * random.randint(0, 20), random.randint(0, 3),
                    random.randint(0, 30), tot + random.randint(50, 400), code))
    return out


os.makedirs(OUT, exist_ok=True)
write("utf8.csv", [("ls -l", "", "naïve ⛄ snowman", gen(12, 1500, 0.1)),
                   ("sort big.txt", "", "日本語のコマンド名前がとても長いですね本当に長い名前です", gen(12, 9000, 0.1)),
                   ("echo 🚀", "/bin/sh -c", "", gen(12, 1600, 0.1))])
write("one_run.csv", [("true", "", "", gen(1, 800, 0.1)), ("ls", "", "", gen(1, 1200, 0.1))])
write("many.csv", [(f"cmd{i:02d} --flag", "", " ", gen(6, 1000 + 150 * i, 0.05)) for i in range(30)])
write("zeros.csv", [("noop", "", "", [(0, 0, 0, 0, 0, 0, 0)] * 8), ("noop2", "", "", [(0, 0, 0, 0, 0, 0, 0)] * 8)])
same = gen(20, 3000, 0.2)
write("identical.csv", [("a", "", "first", same), ("b", "", "second", same)])
write("failures.csv", [("flaky", "", "", gen(10, 2000, 0.1) + gen(3, 500, 0.1, code=1))])
write("seconds_mixed.csv", [("quick", "", "", gen(25, 400, 0.3)),
                            ("slow", "", "", gen(25, 2_400_000, 0.05, rss=3_000_000_000))])


# The method's fixtures, from their own generator so that the
# fixtures above stay byte-identical. Runs are written in random-order
# rounds (one run of each command per round, shuffled), as bestguess
# measures by default.
rounds_rng = random.Random(46)


def write_rounds(name, cmds):
    """cmds: (command, runs) with equally many runs; totals in µs."""
    rows, seq, t0 = [], 0, 1795358000000000
    n = len(cmds[0][1])
    for r in range(n):
        order = list(range(len(cmds)))
        rounds_rng.shuffle(order)
        for i in order:
            cmd, runs = cmds[i]
            tot = runs[r]
            u = int(tot * 0.3)
            seq += 1
            rows.append(f"{q(cmd)},\"\",\"\",{i + 1},0,{u},{tot - u},2097152,{100 + seq % 7},0,"
                        f"1,2,{tot + 80},{tot},3,{seq},{t0 + seq * 2000},,0")
    with open(os.path.join(OUT, name), "w") as f:
        f.write(HEADER + "\n" + "\n".join(rows) + "\n")


def lognormal(n, median, sigma):
    return [int(round(median * rounds_rng.lognormvariate(0, sigma))) for _ in range(n)]


# `ls` against `ls -la /usr/lib` as measured on a 2-vCPU VM: about 1.07 ms and
# 1.55 ms of CPU time (1.45x, a Hodges-Lehmann shift near 480 µs), 30 runs.
write_rounds("fast_145.csv", [("ls", lognormal(30, 1070, 0.08)),
                              ("ls -la /usr/lib", lognormal(30, 1550, 0.08))])
# An A/A experiment: one command measured twice, 30 runs each.
write_rounds("aa.csv", [("/bin/ls -l /usr/lib", lognormal(30, 1500, 0.1)),
                        ("/bin/ls -l /usr/lib ", lognormal(30, 1500, 0.1))])


# Tick-quantised A/A experiments: one command measured
# twice, about 1 ms of CPU time on a clock with 100 µs ticks, so the runs
# take about six distinct values. `ticks.csv`: 40 random-order rounds
# (paired analysis, exact conditional law); `ticks_sequential.csv`: 100 runs
# of each, one command after the other (independent samples, normal law).
ticks_rng = random.Random(47)


def ticked(n):
    return [100 * round(1000 * ticks_rng.lognormvariate(0, 0.1) / 100) for _ in range(n)]


write_rounds("ticks.csv", [("/bin/ls", ticked(40)), ("/bin/ls ", ticked(40))])


def tick_runs(n):
    return [(int(t * 0.3), t - int(t * 0.3), 2_097_152, 1, 2, t + 80, 0) for t in ticked(n)]


write("ticks_sequential.csv", [("/bin/ls", "", "", tick_runs(100)), ("/bin/ls ", "", "", tick_runs(100))])


# The ratio of medians at the run counts people type: a 2x difference in
# five random-order rounds (`two_x_5_rounds.csv`), and ten commands in ten
# rounds, the other nine 14x to 50x the fastest (`ten_commands_10.csv`).
counts_rng = random.Random(48)


def around(n, median, sigma=0.05):
    return [int(round(median * counts_rng.lognormvariate(0, sigma))) for _ in range(n)]


write_rounds("two_x_5_rounds.csv", [("gzip -9 -c big.txt", around(5, 12_000)),
                                    ("bzip2 -9 -c big.txt", around(5, 24_000))])
write_rounds("ten_commands_10.csv",
             [("fastest", around(10, 1_000))]
             + [(f"times {f}", around(10, 1_000 * f)) for f in (14, 18, 22, 26, 30, 34, 38, 42, 50)])

# Six rounds: the fewest in which a two-sided 95 % interval of the median
# within-round ratio can exclude 1 (2 · 2⁻⁶ ≤ 0.05); five rounds decide at
# the 1 − 2 · 2⁻⁵ = 93.75 % they reach.
write_rounds("two_x_6_rounds.csv", [("gzip -9 -c big.txt", around(6, 12_000)),
                                    ("bzip2 -9 -c big.txt", around(6, 24_000))])
