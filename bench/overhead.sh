#!/usr/bin/env bash
# Measurement overhead of bestguess against the physical limit.
#
# Runs bestguess and a minimal static C loop (bench/ref_loop.c: posix_spawn +
# wait4, nothing else) alternately on /bin/true and prints the ratios
# bestguess / reference of:
#   - the median CPU time reported per run
#   - the median wall time reported per run
#   - whole-process elapsed time per run (what the user waits)
#   - the median max RSS reported
# then runs one 20,000-run experiment and compares the median max RSS reported
# for the first and the last thousand runs (bestguess's memory must not leak
# into what it reports).
#
# Usage: bench/overhead.sh [RUNS_PER_ROUND] [ROUNDS]     (defaults 500 40)
# Many short alternating rounds: this VM's speed drifts by up to 30 % over
# seconds, so long rounds would measure the drift, not the tools.
# Targets: CPU <= 1.02, wall <= 1.03, elapsed <= 1.05, max RSS <= 1.10,
#          first vs last thousand max RSS within 2 %.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-500}
rounds=${2:-40}
prog=/bin/true
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cargo build --release --quiet
bg=target/release/bestguess
cc -O2 -static -o "$work/ref_loop" bench/ref_loop.c

now() { date +%s%N; }
median() { sort -n | awk '{v[NR]=$1} END {if (NR%2) print v[(NR+1)/2]; else print (v[NR/2]+v[NR/2+1])/2}'; }

: > "$work/bg.txt"
: > "$work/ref.txt"
bg_elapsed=0
ref_elapsed=0
for r in $(seq "$rounds"); do
    t0=$(now)
    "$bg" -Q -r "$runs" -o "$work/bg.csv" "$prog"
    t1=$(now)
    "$work/ref_loop" "$runs" "$prog" >> "$work/ref.txt"
    t2=$(now)
    # Columns: 14 total time, 13 wall, 8 max RSS (bytes -> KiB).
    tail -n +2 "$work/bg.csv" | awk -F, '{print $14, $13, $8/1024}' >> "$work/bg.txt"
    bg_elapsed=$((bg_elapsed + t1 - t0))
    ref_elapsed=$((ref_elapsed + t2 - t1))
    echo "round $r/$rounds done" >&2
done

col() { awk -v c="$1" '{print $c}' "$2" | median; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.3f", a / b}'; }
n=$((runs * rounds))
bg_cpu=$(col 1 "$work/bg.txt");  ref_cpu=$(col 1 "$work/ref.txt")
bg_wall=$(col 2 "$work/bg.txt"); ref_wall=$(col 2 "$work/ref.txt")
bg_rss=$(col 3 "$work/bg.txt");  ref_rss=$(col 3 "$work/ref.txt")
bg_el=$(awk -v t="$bg_elapsed" -v n="$n" 'BEGIN {printf "%.1f", t / n / 1000}')
ref_el=$(awk -v t="$ref_elapsed" -v n="$n" 'BEGIN {printf "%.1f", t / n / 1000}')

echo
echo "$prog, $rounds alternating rounds of $runs runs each ($(date -u +%F), $(nproc) cores)"
printf '%-28s %12s %12s %8s\n' "" bestguess reference ratio
printf '%-28s %12s %12s %8s\n' "median CPU time (us)" "$bg_cpu" "$ref_cpu" "$(ratio "$bg_cpu" "$ref_cpu")"
printf '%-28s %12s %12s %8s\n' "median wall time (us)" "$bg_wall" "$ref_wall" "$(ratio "$bg_wall" "$ref_wall")"
printf '%-28s %12s %12s %8s\n' "elapsed per run (us)" "$bg_el" "$ref_el" "$(ratio "$bg_el" "$ref_el")"
printf '%-28s %12s %12s %8s\n' "median max RSS (KiB)" "$bg_rss" "$ref_rss" "$(ratio "$bg_rss" "$ref_rss")"

echo
echo "20,000-run experiment: max RSS reported, first vs last thousand runs"
"$bg" -Q -r 20000 -o "$work/big.csv" "$prog"
first=$(awk -F, 'NR >= 2 && NR <= 1001 {print $8}' "$work/big.csv" | median)
last=$(tail -n 1000 "$work/big.csv" | awk -F, '{print $8}' | median)
printf 'first 1000: %s bytes, last 1000: %s bytes, change %s%%\n' "$first" "$last" \
    "$(awk -v a="$first" -v b="$last" 'BEGIN {printf "%+.2f", (b - a) / a * 100}')"
