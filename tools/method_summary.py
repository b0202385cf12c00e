#!/usr/bin/env python3
"""One row per group of `cargo bench --bench method`'s output: the worst
figure of each judged column over the group's cells.

Usage: python3 tools/method_summary.py bench/results/method.md

Reads the Markdown tables the bench prints (a `### Group` heading, then a
table with the columns of `benches/method/main.rs`) and prints a Markdown
table for BENCHMARKS.md. Cover margin is cover − stated, lowest over the
cells that claim a level (sequential drift cells excluded: nothing is true
to cover there, they are judged by their warnings, as are their slower @1%
and wrong @1%); the others are the highest over the group's cells.
"""
import sys


def number(cell):
    try:
        return float(cell)
    except ValueError:
        return None


def groups(lines):
    name, header, rows = None, None, []
    for line in lines:
        if line.startswith("### "):
            if name and header and rows:
                yield name, header, rows
            name, header, rows = line[4:].strip(), None, []
        elif line.startswith("| shape |"):
            header = [c.strip() for c in line.strip().strip("|").split("|")]
            if "slower A/A" not in header:
                header = None
        elif line.startswith("|") and header and not line.startswith("|---"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if len(cells) == len(header):
                rows.append(dict(zip(header, cells)))
    if name and header and rows:
        yield name, header, rows


def main():
    lines = open(sys.argv[1], encoding="utf-8").read().splitlines()
    print("| group | cells | lowest cover − stated | slower A/A | slower @1% | wrong @1% | ×1.10 power | max |")
    print("|---|---|---|---|---|---|---|---|")
    for name, _, rows in groups(lines):
        def col(key, keep=lambda r: True):
            vals = [number(r[key].replace(" ✗", "")) for r in rows if keep(r)]
            return [v for v in vals if v is not None]
        claims = lambda r: not (r["order"] == "seq" and r["drift"] != "–")
        margins = [c - s for c, s in zip(col("cover", claims), col("stated", claims))]
        power = col("×1.10")
        print(
            f"| {name} | {len(rows)} "
            f"| {min(margins):+.1f} " if margins else f"| {name} | {len(rows)} | – ",
            end="",
        )
        print(
            f"| {max(col('slower A/A'), default=0):.1f} "
            f"| {max(col('slower @1%', claims), default=0):.1f} "
            f"| {max(col('wrong @1%', claims), default=0):.1f} "
            f"| {min(power, default=0):.1f}–{max(power, default=0):.1f} "
            f"| {max(col('max'), default=0):.2f} |"
        )


if __name__ == "__main__":
    main()
