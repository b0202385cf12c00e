#!/usr/bin/env bash
# Where bestreport's time goes at scale, by phase: `perf record` (software
# task-clock, so it works without a PMU, as on the CI machine) over one run
# on a file bench/scale.sh generates, then each phase's share of the CPU
# samples (its function and everything it calls, on every thread).
#
#   bench/scale-profile.sh FILE.csv [BESTREPORT]   (default: target/release/bestreport)
#   JSON_RUNS=LIST passes --json-runs LIST (default: the whole document).
#
# Prints CPU time (user + system, all threads) and, per phase, its share and the CPU
# seconds that share stands for. Phases that run on their own threads (the
# summaries, the JSON writer) are counted on those threads, so shares can
# overlap in elapsed time. The export's fdatasync and rename are elapsed
# time, not CPU: see bench/scale.sh for the end-to-end figures. Needs perf.
set -euo pipefail
cd "$(dirname "$0")/.."
file=$1
bin=${2:-target/release/bestreport}
[ -n "${2:-}" ] || cargo build --release --quiet --bin bestreport
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# One sample per millisecond of CPU time (a fixed period, so the sample
# count is the CPU time of bestreport alone, not of perf).
/usr/bin/time -f '%e' -o "$work/time" \
    perf record -q -e task-clock -c 1000000 --call-graph dwarf,16384 -o "$work/perf.data" \
    "$bin" -E ${JSON_RUNS:+--json-runs "$JSON_RUNS"} --export-json "$work/out.json" "$file" > /dev/null 2> "$work/err" || {
    cat "$work/err" >&2
    exit 1
}
read -r elapsed < "$work/time"
perf report -i "$work/perf.data" --children --stdio --no-call-graph 2> /dev/null > "$work/report"
samples=$(perf report -i "$work/perf.data" --no-children --stdio --sort comm -n 2> /dev/null |
    awk '/^ +[0-9.]+%/ {n += $2} END {print n}')
cpu=$(awk "BEGIN {print $samples / 1000}")
echo "$(basename "$file"): CPU $cpu s (samples of 1 ms), elapsed $elapsed s under perf"
share() { # label, symbol regex
    local p
    p=$(awk -v re="$2" '$0 ~ re {gsub("%", "", $1); print $1; exit}' "$work/report")
    p=${p:-0}
    printf '  %-44s %5.1f %%  %5.2f s\n' "$1" "$p" "$(awk "BEGIN {print $p * $cpu / 100}")"
}
share_sum() { # label, symbol regex: the sum over every thread (comm) it ran on
    local p
    p=$(awk -v re="$2" '$0 ~ re {gsub("%", "", $1); p += $1} END {print p + 0}' "$work/report")
    printf '  %-44s %5.1f %%  %5.2f s\n' "$1" "$p" "$(awk "BEGIN {print $p * $cpu / 100}")"
}
# The reader runs on the main thread and its csv-parse workers.
share_sum "read and parse (all threads)" "csv_read::read_raw_csv_into$|chunks::work$"
share_sum "  fast path (rows to blocks)" "fast_read::parse$"
share_sum "  general path (tokenizer, record)" "Tokenizer<R>::next_row$|csv_read::Layout::record$"
share_sum "  dataset build (columns)" "RowSink>::rows$|dataset::(CommandRuns::push|DatasetBuilder::push_to)$"
share "statistics, main thread (Analysis::new)" "analysis::Analysis::new$"
share "summaries (every metric, every command)" "analysis::summarise$"
share "  validate and sort" "sample::Sample::new$"
share "complete rounds" "analysis::complete_rounds$"
share "ranking and comparisons" "ranking::rank_with$"
share "  paired comparisons" "compare::compare_paired(_with)?$"
share "  point estimates (choosing the best)" "ranking::choose_best$"
share "diagnostics (trend, best case)" "diagnostics::diagnose(_one)?(::\\{\\{closure\\}\\})?$"
share "report rendering" "report::render$"
share "JSON made" "json::write(_document)?$"
share "JSON written (system time)" "ksys_write$"
