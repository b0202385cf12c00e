#!/usr/bin/env python3
"""Writes the fixtures of other tools' (and older) formats in
tests/data/formats/ that no real file in /work/shared/reference covers,
each from a real file or a header quoted from the real tool:

* c-tool-11-columns.csv, c-tool-10-columns.csv: the rows of the C tool's
  tests/data/c_tool/raw1.csv (ls -l, ls) under the older headers
  `Command,Shell,Exit code,…,Wall clock (us)` (11 columns) and
  `Command,Exit code,Shell,…,Involuntary Context Switches` (10 columns, no
  wall-clock time), in those orders.
* cbdr-millis.csv: older cbdr's columns
  `benchmark,kernel_cpu_millis,user_cpu_millis,wall_clock_millis`, the
  values of cbdr-0.2.4-sample.csv in milliseconds.
* hyperfine-1-no-exit-codes.json: hyperfine-1.20-export.json without
  `exit_codes` (as Hyperfine before 1.13 wrote it), its `user` and
  `system` means kept.
* hyperfine-2.0-export.csv: what Hyperfine 2.0's `--export-csv` writes for
  hyperfine-2.0-export.json (its exporter: `command`, then per metric
  `<metric>_unit,_mean,_stddev,_median,_min,_max`).
* hyperfine-1.20-scan.json: a Hyperfine 1.20 `--parameter-scan` export
  (parameters as name -> string) of `sleep 0.00{n}`, n = 1..3, made from
  made-up times.

Deterministic; not run by CI.

Usage: python3 tools/make_format_fixtures.py
"""
import csv
import json
import os
import statistics

ROOT = os.path.join(os.path.dirname(__file__), "..")
OUT = os.path.join(ROOT, "tests", "data", "formats")
REF = os.path.join(ROOT, "tests", "data", "reference", "raw1.csv")


def c_tool():
    with open(REF, newline="") as f:
        rows = list(csv.reader(f))
    header, body = rows[0], rows[1:]
    pos = {name: i for i, name in enumerate(header)}
    metrics = ["User time (us)", "System time (us)", "Max RSS (Bytes)", "Page Reclaims",
               "Page Faults", "Voluntary Context Switches", "Involuntary Context Switches"]
    layouts = {
        "c-tool-11-columns.csv": ["Command", "Shell", "Exit code"] + metrics + ["Wall clock (us)"],
        "c-tool-10-columns.csv": ["Command", "Exit code", "Shell"] + metrics,
    }
    for name, columns in layouts.items():
        with open(os.path.join(OUT, name), "w") as f:
            f.write(",".join(columns) + "\n")
            for row in body:
                fields = []
                for c in columns:
                    v = row[pos[c]]
                    fields.append('"' + v + '"' if c in ("Command", "Shell") else v)
                f.write(",".join(fields) + "\n")


def cbdr_millis():
    with open(os.path.join(OUT, "cbdr-0.2.4-sample.csv"), newline="") as f:
        rows = list(csv.DictReader(f))
    with open(os.path.join(OUT, "cbdr-millis.csv"), "w") as f:
        f.write("benchmark,kernel_cpu_millis,user_cpu_millis,wall_clock_millis\n")
        for r in rows:
            ms = lambda k: repr(round(float(r[k]) * 1000, 6))
            f.write(f"{r['benchmark']},{ms('sys_time')},{ms('user_time')},{ms('wall_time')}\n")


def hyperfine1_without_exit_codes():
    with open(os.path.join(OUT, "hyperfine-1.20-export.json")) as f:
        doc = json.load(f)
    for r in doc["results"]:
        del r["exit_codes"]
    with open(os.path.join(OUT, "hyperfine-1-no-exit-codes.json"), "w") as f:
        json.dump(doc, f, indent=2)
        f.write("\n")


def hyperfine2_csv():
    with open(os.path.join(OUT, "hyperfine-2.0-export.json")) as f:
        doc = json.load(f)
    metrics = ["time_wall_clock", "time_cpu", "time_user", "time_system", "memory_peak_resident"]
    header = ["command"] + [f"{m}_{k}" for m in metrics
                            for k in ("unit", "mean", "stddev", "median", "min", "max")]
    with open(os.path.join(OUT, "hyperfine-2.0-export.csv"), "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(header)
        for r in doc["results"]:
            row = [r["command"]]
            for m in metrics:
                xs = [x[m]["value"] for x in r["measurements"]]
                row += ["s" if m.startswith("time") else "B", repr(statistics.mean(xs)),
                        repr(statistics.stdev(xs)), repr(statistics.median(xs)),
                        repr(min(xs)), repr(max(xs))]
            w.writerow(row)


def hyperfine1_scan():
    results = []
    for n in (1, 2, 3):
        times = [0.001 * n + 0.0011 + 0.00001 * k for k in range(10)]
        results.append({
            "command": f"sleep 0.00{n}",
            "mean": statistics.mean(times),
            "stddev": statistics.stdev(times),
            "median": statistics.median(times),
            "user": 0.0005,
            "system": 0.0004,
            "min": min(times),
            "max": max(times),
            "times": times,
            "exit_codes": [0] * len(times),
            "parameters": {"n": str(n)},
        })
    with open(os.path.join(OUT, "hyperfine-1.20-scan.json"), "w") as f:
        json.dump({"results": results}, f, indent=2)
        f.write("\n")


c_tool()
cbdr_millis()
hyperfine1_without_exit_codes()
hyperfine2_csv()
hyperfine1_scan()
