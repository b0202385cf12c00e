#!/usr/bin/env bash
# Measurement overhead of bestguess against the physical limit.
#
# Runs bestguess and two minimal static C loops (bench/ref_loop.c: posix_spawn +
# wait4, and vfork + execve + wait4 with a child that does nothing but exec)
# alternately on /bin/true and prints the ratios bestguess / reference of:
#   - the median CPU time reported per run
#   - the median wall time reported per run
#   - whole-process elapsed time per run (what the user waits)
#   - the median max RSS reported
#   - the elapsed time of the same runs made by --runs auto (the default:
#     --max-runs N with a precision no run reaches, so it asks after its
#     rounds whether to stop and never does) against -r N
# then runs one 20,000-run experiment per build and compares the median max
# RSS reported for the first and the last thousand runs (bestguess's memory
# must not leak into what it reports).
#
# Usage: bench/overhead.sh [RUNS_PER_ROUND] [ROUNDS]     (defaults 500 40)
# BESTGUESS_OPTS: extra bestguess options for every bestguess run (split on
# blanks), e.g. BESTGUESS_OPTS="--counters task-clock" to measure what the
# counters add; the reference loops are unchanged.
# BESTGUESS_BUILDS: builds to compare in one run, "NAME=PATH ..." (e.g.
# "before=/tmp/bg-main after=target/release/bestguess
#  portable=target/portable/release/bestguess"); every round runs each of
# them beside the same reference loops, in an order that alternates, and the
# table has a row block per build. Without it, the build of this checkout
# (cargo build --release) is the one build.
# Many short alternating rounds: this VM's speed drifts by up to 30 % over
# seconds, so long rounds would measure the drift, not the tools.
# Targets: CPU <= 1.02 of the vfork loop; wall <= 1.03, elapsed <= 1.05,
#          max RSS <= 1.10 of the posix_spawn loop; first vs last thousand
#          max RSS within 2 %; auto/fixed elapsed <= 1.02.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-500}
rounds=${2:-40}
prog=/bin/true
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

names=()
declare -A path=()
if [ -n "${BESTGUESS_BUILDS:-}" ]; then
    for b in $BESTGUESS_BUILDS; do
        names+=("${b%%=*}")
        path[${b%%=*}]=${b#*=}
    done
else
    cargo build --release --quiet
    names=(bestguess)
    path[bestguess]=target/release/bestguess
fi
read -r -a opts <<< "${BESTGUESS_OPTS:-}"
# -Q hides the progress display. To measure what the display (and --live)
# costs, run the whole script on a terminal with BESTGUESS_PROGRESS=1:
#   BESTGUESS_PROGRESS=1 BESTGUESS_OPTS=--live script -qfec bench/overhead.sh /dev/null
if [ -n "${BESTGUESS_PROGRESS:-}" ]; then quiet=(-N); else quiet=(-Q); fi
# Static where the C library allows it (not on macOS).
cc -O2 -static -o "$work/ref_loop" bench/ref_loop.c 2>/dev/null || cc -O2 -o "$work/ref_loop" bench/ref_loop.c

now() { date +%s%N; }
median() { sort -n | awk '{v[NR]=$1} END {if (NR%2) print v[(NR+1)/2]; else print (v[NR/2]+v[NR/2+1])/2}'; }
m() { awk -v c="$1" '{print $c}' "$2" | median; }

# Each round: every build (fixed runs and --runs auto), the posix_spawn
# loop and the vfork loop, $runs runs each, in an order that reverses every
# other round. Ratios are computed per round (the parts of a round see the
# same machine state) and the median over rounds is reported.
ref_run() { "$work/ref_loop" "$runs" "$prog" > "$work/ref.txt"; }
vref_run() { "$work/ref_loop" --vfork "$runs" "$prog" > "$work/vref.txt"; }
for n in "${names[@]}"; do : > "$work/ratios-$n.txt"; done
for r in $(seq "$rounds"); do
    steps=(ref vref)
    for n in "${names[@]}"; do steps+=("bg:$n" "auto:$n"); done
    if (( r % 2 == 0 )); then
        for ((i = 0, j = ${#steps[@]} - 1; i < j; i++, j--)); do
            t=${steps[i]}; steps[i]=${steps[j]}; steps[j]=$t
        done
    fi
    declare -A ns=()
    for s in "${steps[@]}"; do
        t0=$(now)
        case $s in
            ref) ref_run ;;
            vref) vref_run ;;
            bg:*) "${path[${s#bg:}]}" "${quiet[@]}" "${opts[@]}" -r "$runs" -o "$work/bg-${s#bg:}.csv" "$prog" ;;
            auto:*) "${path[${s#auto:}]}" "${quiet[@]}" "${opts[@]}" --max-runs "$runs" --precision 0.000001 -o "$work/auto.csv" "$prog" ;;
        esac
        t1=$(now); ns[$s]=$((t1 - t0))
    done
    for n in "${names[@]}"; do
        # Raw CSV columns: 14 total CPU time, 13 wall, 8 max RSS (bytes).
        tail -n +2 "$work/bg-$n.csv" | awk -F, '{print $14, $13, $8/1024}' > "$work/bg.txt"
        echo "$(m 1 "$work/bg.txt") $(m 1 "$work/ref.txt") $(m 2 "$work/bg.txt") $(m 2 "$work/ref.txt")" \
             "${ns[bg:$n]} ${ns[ref]} $(m 3 "$work/bg.txt") $(m 3 "$work/ref.txt")" \
             "$(m 1 "$work/vref.txt") $(m 2 "$work/vref.txt") ${ns[vref]} $(m 3 "$work/vref.txt") ${ns[auto:$n]}" \
             >> "$work/ratios-$n.txt"
    done
    echo "round $r/$rounds done" >&2
done

# Per-round medians: 1 bg cpu, 2 ref cpu, 3 bg wall, 4 ref wall, 5 bg elapsed ns, 6 ref elapsed ns,
# 7 bg rss, 8 ref rss, 9 vref cpu, 10 vref wall, 11 vref elapsed ns, 12 vref rss,
# 13 auto elapsed ns.
fmt() { awk -v v="$1" 'BEGIN {printf "%.3f", v}'; }
per_run() { awk -v v="$1" -v n="$runs" 'BEGIN {printf "%.1f", v / n / 1000}'; }

echo
echo "$prog, $rounds alternating rounds of $runs runs each ($(date -u '+%F %H:%M UTC'), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg))${opts[*]:+, bestguess options: ${opts[*]}}"
echo "(values: median over rounds of each round's median; ratio: median of per-round ratios)"
for n in "${names[@]}"; do
    f="$work/ratios-$n.txt"
    colmed() { awk -v c="$1" '{print $c}' "$f" | median; }
    ratio_med() { awk -v a="$1" -v b="$2" '{printf "%.6f\n", $a / $b}' "$f" | median; }
    echo
    echo "build: $n (${path[$n]})"
    printf '%-24s %10s %12s %10s %11s %10s\n' "" bestguess posix_spawn vfork "ratio/spawn" "ratio/vfork"
    printf '%-24s %10s %12s %10s %11s %10s\n' "median CPU time (us)" "$(colmed 1)" "$(colmed 2)" "$(colmed 9)" "$(fmt "$(ratio_med 1 2)")" "$(fmt "$(ratio_med 1 9)")"
    printf '%-24s %10s %12s %10s %11s %10s\n' "median wall time (us)" "$(colmed 3)" "$(colmed 4)" "$(colmed 10)" "$(fmt "$(ratio_med 3 4)")" "$(fmt "$(ratio_med 3 10)")"
    printf '%-24s %10s %12s %10s %11s %10s\n' "elapsed per run (us)" "$(per_run "$(colmed 5)")" "$(per_run "$(colmed 6)")" "$(per_run "$(colmed 11)")" "$(fmt "$(ratio_med 5 6)")" "$(fmt "$(ratio_med 5 11)")"
    printf '%-24s %10s %12s\n' "elapsed, --runs auto" "$(per_run "$(colmed 13)")" "ratio auto/fixed $(fmt "$(ratio_med 13 5)")"
    printf '%-24s %10s %12s %10s %11s %10s\n' "median max RSS (KiB)" "$(colmed 7)" "$(colmed 8)" "$(colmed 12)" "$(fmt "$(ratio_med 7 8)")" "$(fmt "$(ratio_med 7 12)")"
done

echo
echo "20,000-run experiment per build: max RSS reported, first vs last thousand runs"
for n in "${names[@]}"; do
    "${path[$n]}" "${quiet[@]}" "${opts[@]}" -r 20000 -o "$work/big.csv" "$prog"
    first=$(awk -F, 'NR >= 2 && NR <= 1001 {print $8}' "$work/big.csv" | median)
    last=$(tail -n 1000 "$work/big.csv" | awk -F, '{print $8}' | median)
    printf '%s: first 1000: %s bytes, last 1000: %s bytes, change %s%%\n' "$n" "$first" "$last" \
        "$(awk -v a="$first" -v b="$last" 'BEGIN {printf "%+.2f", (b - a) / a * 100}')"
done
