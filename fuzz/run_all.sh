#!/usr/bin/env bash
# Every fuzz target for SECONDS each (default 600), one after another, on one
# core at low priority; prints each target's executions and peak RSS.
# Needs nightly and cargo-fuzz (`cargo install cargo-fuzz`). The working
# corpus is kept outside the repository (CORPUS, default /tmp/bestguess-fuzz);
# it starts from the committed fuzz/corpus/TARGET/. A crash stops its target
# and is left in fuzz/artifacts/TARGET/.
#
# Usage: fuzz/run_all.sh [SECONDS]
set -uo pipefail
cd "$(dirname "$0")"
seconds=${1:-600}
corpus=${CORPUS:-/tmp/bestguess-fuzz}
for t in any_input raw_csv split command_file options metrics_file; do
    mkdir -p "$corpus/$t"
    cp corpus/$t/* "$corpus/$t/"
    log="$corpus/$t.log"
    nice -n 19 cargo +nightly fuzz run "$t" "$corpus/$t" -- \
        -max_total_time="$seconds" -rss_limit_mb=2048 -print_final_stats=1 > "$log" 2>&1
    status=$?
    runs=$(awk '/stat::number_of_executed_units/ {print $2}' "$log")
    rss=$(awk '/stat::peak_rss_mb/ {print $2}' "$log")
    echo "$t: exit $status, ${runs:-?} executions, peak RSS ${rss:-?} MB (log $log)"
done
