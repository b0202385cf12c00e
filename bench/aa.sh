#!/usr/bin/env bash
# A/A experiments: how often does a plain run warn when nothing differs?
#
# Runs EXPERIMENTS experiments of two identical commands (default
# `ls -l /usr/lib`, -r 30, default settings otherwise: random order, no
# warm-up), keeps each experiment's raw CSV in DIR, and counts the
# experiments whose warnings (standard error, after the reports) name a
# change. Then re-reads every CSV with bestreport, so a change to the
# warnings can be judged on the same runs without measuring again:
#   bench/aa.sh report DIR
# Extra bestguess options go in BESTGUESS_OPTS (e.g. "--warmup 1").
#
# Usage: bench/aa.sh [EXPERIMENTS] [DIR]      (defaults 100, a new temp dir)
#        bench/aa.sh report DIR
# Target: at most 1 experiment in 10 warns.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
bg=$PWD/target/release/bestguess
br=$PWD/target/release/bestreport
command=${AA_COMMAND:-ls -l /usr/lib}

# Counts the files (CSV) in $1 whose report warns; prints a summary line.
count() {
    local dir=$1 warned=0 total=0 kinds=""
    for f in "$dir"/*.csv; do
        total=$((total + 1))
        err=$("$br" "$f" 2>&1 >/dev/null || true) # not -Q: it holds the warnings
        if grep -q '^Warning' <<< "$err"; then
            warned=$((warned + 1))
            kinds+=$(grep '^Warning' <<< "$err" | sed -E 's/^Warning: ([a-z ]+).*/\1/' | sort -u)$'\n'
        fi
    done
    echo "$warned of $total experiments warned ($(awk -v w="$warned" -v t="$total" 'BEGIN { printf "%.1f", 10 * w / t }') per 10)"
    if [ -n "$kinds" ]; then
        printf '%s' "$kinds" | sort | uniq -c | sed 's/^/  /'
    fi
}

if [ "${1:-}" = report ]; then
    count "$2"
    exit
fi
experiments=${1:-100}
dir=${2:-$(mktemp -d)}
mkdir -p "$dir"
read -r -a opts <<< "${BESTGUESS_OPTS:-}"
for i in $(seq -w 1 "$experiments"); do
    "$bg" -Q -r 30 "${opts[@]}" -o "$dir/aa-$i.csv" "$command" "$command" 2>/dev/null
done
echo "raw data: $dir"
echo "bestguess ${opts[*]} -r 30 \"$command\" \"$command\", $(nproc) CPUs, $(date -u +%FT%TZ)"
count "$dir"
