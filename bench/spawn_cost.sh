#!/usr/bin/env bash
# CPU time billed to a command before its exec, per spawn path.
#
# task-clock (`--counters task-clock`) counts from the command's exec (the
# launcher's counters are enabled on exec); the total CPU time (user +
# system, from wait4) counts from the clone. Their difference is what a run
# is billed for the work of the spawn before exec, plus the part of exec
# and exit that falls outside the counter (the same for both paths). For
# each path (the launcher's clone3 path, and posix_spawn forced with
# BESTGUESS_SPAWN=posix_spawn) this runs bestguess on /bin/true and prints
# the median over rounds of each round's median of (total CPU − task-clock)
# per run, alternating the paths' order from round to round.
#
# Usage: bench/spawn_cost.sh [RUNS_PER_ROUND] [ROUNDS]     (defaults 500 20)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-500}
rounds=${2:-20}
prog=/bin/true
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cargo build --release --quiet
bg=target/release/bestguess
"$bg" --limits | grep -A1 'Spawn:' >&2

median() { sort -n | awk '{v[NR]=$1} END {if (NR%2) print v[(NR+1)/2]; else print (v[NR/2]+v[NR/2+1])/2}'; }
# Raw CSV columns: 14 total CPU time (us), 20 task-clock (ns).
before_exec() { tail -n +2 "$1" | awk -F, '{printf "%.3f\n", $14 - $20 / 1000}' | median; }
cpu() { tail -n +2 "$1" | awk -F, '{print $14}' | median; }
run() { # $1: clone3 or posix_spawn
    local spawn=""
    [ "$1" = posix_spawn ] && spawn=posix_spawn
    BESTGUESS_SPAWN=$spawn "$bg" -Q --counters task-clock -r "$runs" -o "$work/$1.csv" "$prog" 2>/dev/null
    grep -q ',[1-9][0-9]*$' "$work/$1.csv" || { echo "task-clock did not count: is it available here (--limits)?" >&2; exit 1; }
}

: > "$work/rounds.txt"
for r in $(seq "$rounds"); do
    if (( r % 2 )); then order=(clone3 posix_spawn); else order=(posix_spawn clone3); fi
    for p in "${order[@]}"; do run "$p"; done
    echo "$(before_exec "$work/clone3.csv") $(before_exec "$work/posix_spawn.csv")" \
         "$(cpu "$work/clone3.csv") $(cpu "$work/posix_spawn.csv")" >> "$work/rounds.txt"
    echo "round $r/$rounds done" >&2
done
colmed() { awk -v c="$1" '{print $c}' "$work/rounds.txt" | median; }
diffmed() { awk '{printf "%.3f\n", $2 - $1}' "$work/rounds.txt" | median; }

echo
echo "$prog, $rounds alternating rounds of $runs runs per path ($(date -u '+%F %H:%M UTC'), $(nproc) cores)"
echo "(median over rounds of each round's median)"
printf '%-40s %10s %12s\n' "" clone3 posix_spawn
printf '%-40s %10s %12s\n' "total CPU - task-clock per run (us)" "$(colmed 1)" "$(colmed 2)"
printf '%-40s %10s %12s\n' "total CPU time per run (us)" "$(colmed 3)" "$(colmed 4)"
printf 'posix_spawn - clone3, billed before exec: %s us per run (median of per-round differences)\n' "$(diffmed)"
