#!/usr/bin/env bash
# The history at scale (BENCHMARKS.md, "History at scale"): a store of
# N experiments (default 10,000) of 5 commands x 100 runs, then the time
# of one more append, of `bestreport --history` for one benchmark and for
# all of them, and the store's size against the gzipped raw CSV files it
# holds.
#
#   bench/history.sh [N]
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-10000}
cargo build --release --quiet
BIN=target/release
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
STORE=$WORK/history.db
echo "Filling $N experiments (5 commands x 100 runs)…" >&2
GZ=$(python3 bench/history_fill.py "$BIN/bestreport" "$STORE" "$WORK" "$N" 5 100)
SIZE=$(stat -c %s "$STORE")
# Median of 5 wall-clock times of a command, in ms.
time_ms() {
    for _ in 1 2 3 4 5; do
        local t0 t1
        t0=$(date +%s%N)
        "$@" >/dev/null 2>&1
        t1=$(date +%s%N)
        echo $(( (t1 - t0) / 1000000 ))
    done | sort -n | sed -n 3p
}
ONE=$WORK/e00000.csv
k=0
append() { k=$((k + 1)); "$BIN/bestreport" "--history-import=$STORE" "$ONE" --commit "$(printf 'f%039x' "$k")"; }
APPEND=$(time_ms append)
ONE_BENCH=$(time_ms "$BIN/bestreport" "--history=$STORE" --command "cmd3 --flag 2")
ALL=$(time_ms "$BIN/bestreport" "--history=$STORE")
ALL_METRICS=$(time_ms "$BIN/bestreport" "--history=$STORE" --metric all)
echo "| experiments | append (ms) | one benchmark (ms) | all, cpu (ms) | all, every metric (ms) | store (MB) | gzipped raw CSV (MB) | store / gzip |"
echo "|---|---|---|---|---|---|---|---|"
awk -v n="$N" -v a="$APPEND" -v o="$ONE_BENCH" -v l="$ALL" -v m="$ALL_METRICS" -v s="$SIZE" -v g="$GZ" \
    'BEGIN { printf "| %d | %d | %d | %d | %d | %.1f | %.1f | %.2f |\n", n, a, o, l, m, s / 1e6, g / 1e6, s / g }'
