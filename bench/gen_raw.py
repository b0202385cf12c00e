#!/usr/bin/env python3
"""Write synthetic raw data files for bench/scale.sh (BestGuess's 19-column
format, as bestguess -o writes it).

Values look like a small command's (ls -l): total CPU around 1-3 ms with a
long right tail, wall a little above, max RSS around 2.8 MB in whole pages,
a few faults and context switches; every run has its sequence number and
start time. Deterministic (seeded), so every run of the benchmark reads
the same bytes.

    gen_raw.py OUT.csv COMMANDS RUNS        one file, COMMANDS x RUNS rows
    gen_raw.py --interleaved OUT.csv COMMANDS RUNS
                                            the same, measured in complete
                                            rounds (interleaved Sequence:
                                            bestreport pairs the commands)
    gen_raw.py --files DIR N RUNS           N files of one command each
"""
import random
import sys

HEADER = ("Command,Shell,Name,Batch,Exit code,User time (us),System time (us),"
          "Max RSS (Bytes),Page Reclaims,Page Faults,Voluntary Context Switches,"
          "Involuntary Context Switches,Wall clock (us),Total time (us),"
          "Total Context Switches,Sequence,Start time (us since epoch),Signal,Timed out\n")


def rows(rng, commands, runs, first_batch=1, interleaved=False):
    seq = 0
    start = 1_795_000_000_000_000
    for c in range(commands):
        command = f"cmd{first_batch + c} --flag {c}"
        for run in range(runs):
            # Interleaved: round `run` holds sequence numbers
            # run*commands + 1 ... (run+1)*commands, one per command.
            seq = run * commands + c + 1 if interleaved else seq + 1
            user = int(rng.lognormvariate(6.8, 0.35)) + 200 * c % 5000
            system = int(rng.lognormvariate(7.2, 0.3))
            wall = user + system + int(rng.expovariate(1 / 150))
            rss = 4096 * (700 + int(rng.expovariate(1 / 6)))
            minflt = 120 + int(rng.expovariate(1 / 4))
            vcsw = int(rng.expovariate(1))
            icsw = int(rng.expovariate(1 / 3))
            start += wall + 40
            yield (f'"{command}","","",{first_batch + c},0,{user},{system},{rss},'
                   f"{minflt},0,{vcsw},{icsw},{wall},{user + system},{vcsw + icsw},"
                   f"{seq},{start},,0\n")


def write(path, rng, commands, runs, first_batch=1, interleaved=False):
    with open(path, "w") as f:
        f.write(HEADER)
        buf = []
        for row in rows(rng, commands, runs, first_batch, interleaved):
            buf.append(row)
            if len(buf) >= 10000:
                f.write("".join(buf))
                buf.clear()
        f.write("".join(buf))


def main():
    rng = random.Random(20261123)
    if sys.argv[1] == "--files":
        directory, n, runs = sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
        for i in range(n):
            write(f"{directory}/f{i:05}.csv", rng, 1, runs)
    elif sys.argv[1] == "--interleaved":
        write(sys.argv[2], rng, int(sys.argv[3]), int(sys.argv[4]), interleaved=True)
    else:
        write(sys.argv[1], rng, int(sys.argv[2]), int(sys.argv[3]))


if __name__ == "__main__":
    main()
