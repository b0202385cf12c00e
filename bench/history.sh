#!/usr/bin/env bash
# The history at scale (BENCHMARKS.md, "History at scale"): a store of
# N experiments (default 10,000) of 5 commands x 100 runs, filled in one
# process (benches/history_scale.rs, `fill`); then the time of one more
# append (`bestreport --history-import` of one raw file: the whole
# program, git included), of `bestreport --history` for one benchmark
# and for all of them, and the store's size against the gzipped raw CSV
# files it holds (gzip -6, each file alone).
#
#   bench/history.sh [N [DIR]]
#
# DIR keeps the filled store (DIR/history-N.db) and its gzipped size for
# the next run, which then skips the fill (about 5 minutes for 10,000 on
# a quiet machine); without DIR all is removed at the end. The appends
# go to a copy, so a kept store stays as filled.
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-10000}
cargo build --release --quiet
cargo bench --bench history_scale --no-run --quiet 2>/dev/null
SCALE=$(find target/release/deps -maxdepth 1 -type f -executable -name 'history_scale-*' \
    -printf '%T@ %p\n' | sort -n | tail -1 | cut -d' ' -f2)
BIN=target/release
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
KEEP=${2:-$WORK}
mkdir -p "$KEEP"
FILLED=$KEEP/history-$N.db
if [ ! -s "$FILLED.gz-bytes" ]; then
    echo "Filling $N experiments (5 commands x 100 runs)…" >&2
    rm -f "$FILLED" "$FILLED"-*
    "$SCALE" fill "$FILLED" "$N" | python3 bench/gzip_frames.py >"$FILLED.gz-bytes"
fi
GZ=$(cat "$FILLED.gz-bytes")
SIZE=$(stat -c %s "$FILLED")
STORE=$WORK/appended.db
cp "$FILLED" "$STORE"
"$SCALE" raw 1000000 >"$WORK/one.csv"

# Runs a command REPS times; prints the median wall-clock time and the
# median CPU time (user + system), in ms.
time_ms() {
    local reps=$1
    shift
    for _ in $(seq "$reps"); do
        /usr/bin/time -f '%e %U %S' -o "$WORK/t" "$@" >/dev/null 2>&1
        awk '{ printf "%d %d\n", $1 * 1000, ($2 + $3) * 1000 }' "$WORK/t"
    done >"$WORK/times"
    local wall cpu
    wall=$(cut -d' ' -f1 "$WORK/times" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
    cpu=$(cut -d' ' -f2 "$WORK/times" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
    echo "$wall $cpu"
}
# The appended experiments are of one more commit.
read -r APPEND APPEND_CPU < <(time_ms 11 "$BIN/bestreport" "--history-import=$STORE" \
    "$WORK/one.csv" --commit "$(printf 'f%039x' 1)")
read -r ONE ONE_CPU < <(time_ms 5 "$BIN/bestreport" "--history=$STORE" --command "cmd3 --flag 2")
read -r ALL ALL_CPU < <(time_ms 5 "$BIN/bestreport" "--history=$STORE")
read -r EVERY EVERY_CPU < <(time_ms 3 "$BIN/bestreport" "--history=$STORE" --metric all)
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "| experiments | append (ms) | one benchmark (ms) | all, cpu (ms) | all, every metric (ms) | store (MB) | gzipped raw CSV (MB) | store / gzip |"
echo "|---|---|---|---|---|---|---|---|"
awk -v n="$N" -v a="$APPEND" -v ac="$APPEND_CPU" -v o="$ONE" -v oc="$ONE_CPU" \
    -v l="$ALL" -v lc="$ALL_CPU" -v m="$EVERY" -v mc="$EVERY_CPU" -v s="$SIZE" -v g="$GZ" \
    'BEGIN { printf "| %d | %d (%d) | %d (%d) | %d (%d) | %d (%d) | %.1f | %.1f | %.2f |\n",
             n, a, ac, o, oc, l, lc, m, mc, s / 1e6, g / 1e6, s / g }'
