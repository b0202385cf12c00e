#!/usr/bin/env bash
# bestreport at scale: time and peak RSS end to end, on generated raw files
# (bench/gen_raw.py, seeded: every run reads the same bytes).
#
#   1. 2 commands x 1,000,000 runs, -E and a JSON export   (target <= 1.0 s, <= 150 MB)
#      a. sequential order (independent samples): the whole document
#         (replacing the previous export, and to a path that does not
#         exist yet: replacing costs the kernel the old file's deletion),
#         and with --json-runs bestguess (only what bestreport reads back)
#      b. complete rounds, interleaved Sequence (paired: signed-rank,
#         Walsh averages; what bestguess's default --order random makes),
#         the whole document and --json-runs bestguess
#   2. 5,000 input files of one command x 20 runs each, -Q with a JSON export
#   3. 10,000 commands x 5 runs, -Q with a JSON export
#
# Each case runs REPEAT times (default 3); the best and worst elapsed
# times, the least CPU time (user + system, all threads) and the largest
# peak RSS (MiB) are printed (GNU time -v). Elapsed time includes the export's
# fdatasync and rename (the file is replaced safely), so it depends on the
# disk too. The machine's own speed moves: compare figures only from runs
# whose "no export" case (the same work every time) took about the same;
# a fixed loop on one core is no guide (it can hold at 0.26-0.28 s while
# that case moves from 0.29 to 0.42 s).
# Where the CPU time goes: bench/scale-profile.sh. The machine is shared, so run
# it when it is idle and say how loaded it was (uptime is printed).
#
# Usage: bench/scale.sh [REPEAT]        Needs python3 and /usr/bin/time.
#   SCALE_DIR=DIR keeps (and reuses) the generated inputs there;
#   BESTREPORT=PATH measures that binary instead of building this tree's.
set -euo pipefail
cd "$(dirname "$0")/.."
repeat=${1:-3}
work=${SCALE_DIR:-$(mktemp -d)}
[ -n "${SCALE_DIR:-}" ] || trap 'rm -rf "$work"' EXIT
if [ -n "${BESTREPORT:-}" ]; then
    bin=$BESTREPORT # another build, e.g. an earlier commit's, for comparison
else
    cargo build --release --quiet --bin bestreport
    bin=target/release/bestreport
fi

[ -f "$work/2x1M.csv" ] || python3 bench/gen_raw.py "$work/2x1M.csv" 2 1000000
[ -f "$work/2x1M-rounds.csv" ] || python3 bench/gen_raw.py --interleaved "$work/2x1M-rounds.csv" 2 1000000
if [ ! -d "$work/files" ]; then
    mkdir -p "$work/files"
    python3 bench/gen_raw.py --files "$work/files" 5000 20
fi
[ -f "$work/10000x5.csv" ] || python3 bench/gen_raw.py "$work/10000x5.csv" 10000 5

measure() { # name, then the bestreport arguments; $fresh: a path removed before each run
    local name=$1 best= worst= cpu= peak=0
    shift
    for _ in $(seq "$repeat"); do
        [ -z "${fresh:-}" ] || rm -f "$fresh"
        /usr/bin/time -v "$bin" "$@" > /dev/null 2> "$work/time.txt"
        local e c m
        e=$(awk -F': ' '/Elapsed/ {split($2, t, ":"); print t[1] * 60 + t[2]}' "$work/time.txt")
        c=$(awk -F': ' '/User time|System time/ {s += $2} END {print s}' "$work/time.txt")
        m=$(awk -F': ' '/Maximum resident/ {print $2}' "$work/time.txt")
        if [ -z "$best" ] || awk "BEGIN {exit !($e < $best)}"; then best=$e; fi
        if [ -z "$worst" ] || awk "BEGIN {exit !($e > $worst)}"; then worst=$e; fi
        if [ -z "$cpu" ] || awk "BEGIN {exit !($c < $cpu)}"; then cpu=$c; fi
        [ "$m" -gt "$peak" ] && peak=$m
    done
    printf '%-50s %5.2f-%5.2f s elapsed %5.2f s CPU %6.1f MiB\n' "$name" "$best" "$worst" "$cpu" \
        "$(awk "BEGIN {print $peak / 1024}")"
}

uptime
echo "input: $(du -hL "$work/2x1M.csv" | cut -f1) (2 x 1M), $(du -shL "$work/files" | cut -f1) (5,000 files), $(du -hL "$work/10000x5.csv" | cut -f1) (10,000 x 5)"
measure "2 x 1,000,000 runs, -E, JSON" -E --export-json "$work/out.json" "$work/2x1M.csv"
echo "  (its JSON: $(du -h "$work/out.json" | cut -f1))"
fresh=$work/out-new.json measure "2 x 1,000,000 runs, -E, JSON to a new path" \
    -E --export-json "$work/out-new.json" "$work/2x1M.csv"
rm -f "$work/out-new.json"
measure "2 x 1,000,000 runs, -E, JSON --json-runs bestguess" \
    -E --json-runs bestguess --export-json "$work/out-bestguess.json" "$work/2x1M.csv"
echo "  (its JSON: $(du -h "$work/out-bestguess.json" | cut -f1))"
measure "2 x 1,000,000 runs, -E, no export" -E "$work/2x1M.csv"
measure "2 x 1,000,000 rounds (paired), -E, JSON" -E --export-json "$work/out.json" "$work/2x1M-rounds.csv"
measure "2 x 1,000,000 rounds (paired), -E, JSON --json-runs bestguess" \
    -E --json-runs bestguess --export-json "$work/out-bestguess.json" "$work/2x1M-rounds.csv"
measure "5,000 files x 20 runs, -Q, JSON" -Q --export-json "$work/out.json" "$work"/files/*.csv
measure "10,000 commands x 5 runs, -Q, JSON" -Q --export-json "$work/out.json" "$work/10000x5.csv"
