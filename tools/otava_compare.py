#!/usr/bin/env python3
"""BestGuess's change points beside Apache Otava's, on the same series.

Reads what `cargo bench --bench changepoints` wrote (DIR/series.csv: each
series' experiment medians and where its step is; DIR/bestguess.csv: the
change points BestGuess found with every run at hand, and its delay),
runs Otava's E-divisive (`otava.analysis.compute_change_points`, its
defaults: window 50, max p-value 0.001, no minimum magnitude) on the same
medians, and prints the comparison as Markdown rows for bench/results/changepoints.md.

A step counts as found when a change point lies within 2 experiments of
it; every other change point is false. The delay is the fewest
experiments after the step with which a change point near it is reported
(each method run on every prefix of the series).

    pip install apache-otava
    cargo bench --bench changepoints
    python3 tools/otava_compare.py target/changepoints
"""

import csv
import statistics
import sys
from collections import defaultdict

from otava.analysis import compute_change_points

TOLERANCE = 2


def otava(medians):
    change_points, _ = compute_change_points(medians)
    return [c.index for c in change_points]


def otava_delay(medians, tau):
    for end in range(tau + 1, len(medians) + 1):
        if any(abs(c - tau) <= TOLERANCE for c in otava(medians[:end])):
            return end - tau
    return None


def score(cps, tau):
    """(step found, number of false change points)."""
    near = [c for c in cps if tau is not None and abs(c - tau) <= TOLERANCE]
    return bool(near), len(cps) - min(len(near), 1) if near else len(cps)


def main(directory):
    series = {}
    with open(f"{directory}/series.csv") as f:
        for row in csv.DictReader(f):
            tau = int(row["tau"])
            series[row["id"]] = dict(
                n=int(row["n"]),
                noise=float(row["noise"]),
                step=float(row["step"]),
                tau=None if tau < 0 else tau,
                medians=[float(x) for x in row["medians"].split()],
            )
    ours = {}
    with open(f"{directory}/bestguess.csv") as f:
        for row in csv.DictReader(f):
            ours[row["id"]] = (
                [int(x) for x in row["change_points"].split()],
                int(row["delay"]) if row["delay"] else None,
            )
    # Otava's answers, kept beside the series they are of (the series are
    # the same for the same seed and replications).
    cache_path = f"{directory}/otava.csv"
    cache = {}
    try:
        with open(cache_path) as f:
            for row in csv.DictReader(f):
                cache[(row["id"], row["medians"])] = (
                    [int(x) for x in row["change_points"].split()],
                    int(row["delay"]) if row["delay"] else None,
                )
    except FileNotFoundError:
        pass
    # cell -> method -> list of (found, false, delay)
    cells = defaultdict(lambda: defaultdict(list))
    fresh = []
    for key, s in series.items():
        cps_b, delay_b = ours[key]
        text = " ".join(f"{m:.3f}" for m in s["medians"])
        if (key, text) in cache:
            cps_o, delay_o = cache[(key, text)]
        else:
            cps_o = otava(s["medians"])
            delay_o = otava_delay(s["medians"], s["tau"]) if s["tau"] is not None else None
        fresh.append((key, text, cps_o, delay_o))
        for method, cps, delay in (("BestGuess", cps_b, delay_b), ("Otava", cps_o, delay_o)):
            found, false = score(cps, s["tau"])
            for cell in (("step", s["step"]), ("n", s["n"], s["step"] > 0), ("noise", s["noise"], s["step"] > 0)):
                cells[cell][method].append((found, false, delay))

    with open(cache_path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["id", "medians", "change_points", "delay"])
        for key, text, cps_o, delay_o in fresh:
            w.writerow([key, text, " ".join(map(str, cps_o)), "" if delay_o is None else delay_o])

    def row(label, results, with_step):
        out = [label]
        for method in ("BestGuess", "Otava"):
            r = results[method]
            false = sum(f for _, f, _ in r) / len(r)
            if with_step:
                found = sum(1 for fd, _, _ in r if fd)
                delays = [d for _, _, d in r if d is not None]
                delay = f"{statistics.median(delays):.0f}" if delays else "–"
                out += [f"{found}/{len(r)}", f"{false:.3f}", delay]
            else:
                out += [f"{false:.3f}"]
        return "| " + " | ".join(out) + " |"

    print("| Step | BestGuess found | false/series | median delay | Otava found | false/series | median delay |")
    print("|---|---|---|---|---|---|---|")
    for step in sorted({c[1] for c in cells if c[0] == "step"}):
        results = cells[("step", step)]
        if step == 0:
            continue
        print(row(f"{step:.0%}", results, True))
    print()
    print("| Without a step | BestGuess false change points per series | Otava false change points per series |")
    print("|---|---|---|")
    print(row("all", cells[("step", 0.0)], False))
    for n in sorted({c[1] for c in cells if c[0] == "n"}):
        print(row(f"N = {n}", cells[("n", n, False)], False))
    for noise in sorted({c[1] for c in cells if c[0] == "noise"}):
        print(row(f"σ = {noise:.0%}", cells[("noise", noise, False)], False))
    print()
    print("| With a step, by N and noise | BestGuess found | false/series | median delay | Otava found | false/series | median delay |")
    print("|---|---|---|---|---|---|---|")
    for n in sorted({c[1] for c in cells if c[0] == "n"}):
        print(row(f"N = {n}", cells[("n", n, True)], True))
    for noise in sorted({c[1] for c in cells if c[0] == "noise"}):
        print(row(f"σ = {noise:.0%}", cells[("noise", noise, True)], True))
    totals = {m: [x for k, v in cells.items() if k[0] == "step" for x in v[m]] for m in ("BestGuess", "Otava")}
    for m in ("BestGuess", "Otava"):
        found = sum(1 for fd, _, _ in totals[m] if fd)
        false = sum(f for _, f, _ in totals[m])
        print(f"\n{m}: {found} steps found, {false} false change points in {len(totals[m])} series")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "target/changepoints")
