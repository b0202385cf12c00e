#!/usr/bin/env python3
"""Golden vectors for the time-order diagnostics (src/stats/best_case.rs,
src/stats/trend.rs).

Writes tests/data/golden/{best_case,trend}.json, which
tests/diagnostics_golden.rs compares against. Run from anywhere:

    pip install numpy scipy
    python3 tools/golden_diagnostics.py

The input data are stored in the JSON beside the expected values, so the
tests do not need Python; the random data come from a fixed numpy seed, so
re-running reproduces the files with the same library versions.

Where the values come from
--------------------------
* Best case (after `tim`, c-blake/bu): `best_case` below, written from the
  definition (tim's), independently of the Rust code: halves of the
  time-ordered values (the first floor(n/2), then the rest), in each the
  mean and stdev (statistics.stdev, n - 1) of the k smallest values, the
  estimate (m1 + m2)/2 with error sqrt(s1^2 + s2^2)/2 and the distance
  |m1 - m2|/sqrt(s1^2 + s2^2). The datasets say whether they are meant to
  be stable (stationary noise) or not (the fastest runs jump halfway); the
  script stops if the computed verdict disagrees with that design.
* Mann-Kendall trend test: scipy.stats.kendalltau(range(n), y,
  method="asymptotic") gives tau_b and the two-sided p-value (normal
  approximation, tie-corrected variance, no continuity correction). Kendall's
  S is counted over all pairs by brute force, and z = S/sqrt(Var S) with the
  tie-corrected variance computed in Python integers; the script checks
  that z reproduces scipy's p-value.
"""

import json
import math
import statistics
import sys
from pathlib import Path

import numpy as np
import scipy
import scipy.stats as st

ROOT = Path(__file__).resolve().parent.parent
OUT_DIR = ROOT / "tests" / "data" / "golden"
SEED = 20261123
TREND_MIN_N = 10


def fail(message):
    sys.exit(f"golden_diagnostics.py: {message}")


# ---------------------------------------------------------------- best case


def best_case(values, k, max_distance):
    n = len(values)
    if n < 2 * k:
        return {"not_applicable": "too_few_values", "n": n, "min": 2 * k}
    halves = [values[: n // 2], values[n // 2 :]]
    means, sds = [], []
    for h in halves:
        fastest = sorted(h)[:k]
        means.append(statistics.fmean(fastest))
        sds.append(statistics.stdev(fastest))
    combined = math.sqrt(sds[0] ** 2 + sds[1] ** 2)
    gap = abs(means[0] - means[1])
    if combined > 0:
        distance = gap / combined
    elif gap == 0:
        distance = 0.0
    else:
        distance = None
    return {
        "halves": [
            {"n": len(h), "mean": m, "sd": s} for h, m, s in zip(halves, means, sds)
        ],
        "estimate": (means[0] + means[1]) / 2,
        "error": combined / 2,
        "distance": distance,
        "stable": distance is not None and distance <= max_distance,
    }


def timing(rng, n, location, spread):
    """Right-skewed integer microseconds: location + lognormal noise."""
    return [int(location + spread * x) for x in rng.lognormal(0.0, 0.8, n)]


def best_case_datasets(rng):
    sets = []

    def add(name, values, k=3, max_distance=9.0, design=None):
        sets.append((name, values, k, max_distance, design))

    for n in (6, 10, 31, 100, 1000):
        add(f"stationary n={n}", timing(rng, n, 5000, 40), design="stable")
    add("stationary k=5", timing(rng, 60, 12000, 90), k=5, design="stable")
    add("stationary k=2 threshold 3", timing(rng, 40, 800, 20), k=2, max_distance=3.0)
    for n in (20, 60, 200):
        early = timing(rng, n // 2, 5000, 40)
        late = timing(rng, n - n // 2, 5500, 40)
        add(f"fastest runs jump 10% halfway n={n}", early + late, design="unstable")
    slow_start = timing(rng, 50, 9000, 300) + timing(rng, 50, 5000, 40)
    add("warm-up: first half slower", slow_start, design="unstable")
    ticks = [4000 * (1 + int(x)) for x in rng.exponential(0.7, 40)]
    add("tick-quantised", ticks)
    add("one half's fastest runs constant", [5, 5, 5, 9, 9, 9, 5, 6, 7, 9, 9, 9])
    add("constant", [1000] * 12, design="stable")
    add("constant halves that differ", [1000] * 6 + [2000] * 6, design="unstable")
    add("too few for k=3", [5, 4, 3, 2, 1])
    add("odd length, extra run in the later half", [9, 1, 2, 3, 8, 7, 2, 3, 4, 1, 6])
    return sets


def best_case_golden(rng):
    out = []
    for name, values, k, max_distance, design in best_case_datasets(rng):
        result = best_case([float(v) for v in values], k, max_distance)
        if design is not None and result.get("stable") != (design == "stable"):
            fail(f"{name}: designed {design} but computed {result}")
        out.append(
            {
                "name": name,
                "values": values,
                "k": k,
                "max_distance": max_distance,
                "expected": result,
            }
        )
    return out


# ---------------------------------------------------------------- trend


def kendall_s(y):
    s = 0
    for i in range(len(y)):
        for j in range(i + 1, len(y)):
            s += (y[j] > y[i]) - (y[j] < y[i])
    return s


def mann_kendall(y):
    n = len(y)
    if n < TREND_MIN_N:
        return {"not_applicable": "too_few_values", "n": n, "min": TREND_MIN_N}
    if len(set(y)) == 1:
        return {"not_applicable": "zero_variance"}
    s = kendall_s(y)
    counts = {}
    for v in y:
        counts[v] = counts.get(v, 0) + 1
    correction = sum(t * (t - 1) * (2 * t + 5) for t in counts.values())
    var_s = (n * (n - 1) * (2 * n + 5) - correction) / 18
    z = s / math.sqrt(var_s)
    res = st.kendalltau(np.arange(n), np.asarray(y, dtype=float), method="asymptotic")
    p_from_z = 2 * st.norm.sf(abs(z))
    if abs(p_from_z - res.pvalue) > 1e-12 * max(res.pvalue, 1e-300) and abs(p_from_z - res.pvalue) > 1e-15:
        fail(f"z does not reproduce scipy's p: {p_from_z} vs {res.pvalue}")
    return {"s": s, "tau": float(res.statistic), "z": z, "p_value": float(res.pvalue)}


def trend_datasets(rng):
    sets = []
    for n in (10, 30, 100, 1000):
        sets.append((f"stationary n={n}", timing(rng, n, 5000, 40), "none"))
    for n in (30, 100):
        base = timing(rng, n, 5000, 40)
        drift = [int(v * (1 + 0.10 * i / (n - 1))) for i, v in enumerate(base)]
        sets.append((f"10% linear slowdown n={n}", drift, "increasing"))
    base = timing(rng, 60, 5000, 40)
    sets.append(
        ("step: 5% faster halfway", [int(v * (0.95 if i >= 30 else 1)) for i, v in enumerate(base)], "decreasing")
    )
    ticks = [4000 * (1 + int(x)) for x in rng.exponential(0.7, 50)]
    sets.append(("tick-quantised", ticks, None))
    sets.append(("too short", [5, 4, 3, 2, 1, 0, 1, 2, 3], None))
    sets.append(("constant", [7] * 15, None))
    return sets


def trend_golden(rng):
    out = []
    for name, values, design in trend_datasets(rng):
        result = mann_kendall(values)
        if design is not None:
            found = "none"
            if result["p_value"] < 0.01:
                found = "increasing" if result["s"] > 0 else "decreasing"
            if found != design and not (design == "none" and result["p_value"] >= 0.01):
                fail(f"{name}: designed {design} but found {found} ({result})")
        out.append({"name": name, "values": values, "design": design, "expected": result})
    return out


def main():
    rng = np.random.default_rng(SEED)
    versions = {"python": sys.version.split()[0], "numpy": np.__version__, "scipy": scipy.__version__}
    OUT_DIR.mkdir(parents=True, exist_ok=True)
    for name, data in (
        ("best_case.json", {"versions": versions, "datasets": best_case_golden(rng)}),
        ("trend.json", {"versions": versions, "datasets": trend_golden(rng)}),
    ):
        (OUT_DIR / name).write_text(json.dumps(data, indent=1) + "\n")
        print(f"wrote {OUT_DIR / name}")


if __name__ == "__main__":
    main()
