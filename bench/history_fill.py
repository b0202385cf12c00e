#!/usr/bin/env python3
"""Fill a history store for bench/history.sh: N experiments of COMMANDS
commands x RUNS runs each (complete rounds in random order, values as
bench/gen_raw.py makes them: a small command's times, memory and
counts), each written as a raw CSV file, gzipped in memory to measure
what the files take, and loaded with `bestreport --history-import`, ten
experiments per commit (a commit measured ten times, as CI runs do).

    history_fill.py BESTREPORT STORE DIR N COMMANDS RUNS

Prints the total size of the gzipped raw files in bytes. Deterministic.
"""
import gzip
import os
import random
import subprocess
import sys

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from gen_raw import HEADER  # noqa: E402


def experiment(rng, k, commands, runs):
    start = 1_795_000_000_000_000 + k * 600_000_000
    out = [HEADER]
    seq = 0
    # A slow drift over the experiments and a 5 % step at the middle, so
    # that the series have something to find.
    level = 1.0 + 0.05 * (k >= 5000)
    for run in range(runs):
        order = list(range(commands))
        rng.shuffle(order)
        for c in order:
            seq += 1
            user = int(rng.lognormvariate(6.8, 0.35) * level) + 200 * c % 5000
            system = int(rng.lognormvariate(7.2, 0.3))
            wall = user + system + int(rng.expovariate(1 / 150))
            rss = 4096 * (700 + int(rng.expovariate(1 / 6)))
            minflt = 120 + int(rng.expovariate(1 / 4))
            vcsw = int(rng.expovariate(1))
            icsw = int(rng.expovariate(1 / 3))
            start += wall + 40
            out.append(f'"cmd{c + 1} --flag {c}","","",{c + 1},0,{user},{system},{rss},'
                       f"{minflt},0,{vcsw},{icsw},{wall},{user + system},{vcsw + icsw},"
                       f"{seq},{start},,0\n")
    return "".join(out)


def main():
    bestreport, store, directory = sys.argv[1:4]
    n, commands, runs = (int(x) for x in sys.argv[4:7])
    rng = random.Random(20261207)
    gzipped = 0
    batch = []
    for k in range(n):
        text = experiment(rng, k, commands, runs).encode()
        gzipped += len(gzip.compress(text, compresslevel=6))
        path = f"{directory}/e{k:05}.csv"
        with open(path, "wb") as f:
            f.write(text)
        batch.append(path)
        if len(batch) == 10 or k == n - 1:
            subprocess.run([bestreport, f"--history-import={store}", *batch,
                            "--commit", f"{k // 10:040x}"], check=True,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            for p in batch[1:]:
                os.remove(p)
            batch = []
    print(gzipped)


if __name__ == "__main__":
    main()
