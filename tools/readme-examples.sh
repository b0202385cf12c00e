#!/usr/bin/env bash
# Regenerates the example output shown in README.md from a real run on this
# machine: prints Markdown to paste into the README's "Examples" section.
# Usage: tools/readme-examples.sh > /tmp/examples.md
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
bg=target/release/bestguess
br=target/release/bestreport
raw=$(mktemp --suffix=.csv)
trap 'rm -f "$raw"' EXIT

"$bg" -Q -w 3 -r 40 --order random --seed 1 -o "$raw" \
    "ls /usr/bin" -n "ls" "ls -l /usr/bin" -n "ls -l" "ls -1 /usr/bin" -n "ls -1" 2>/dev/null

block() {
    echo
    echo "\`$1\`"
    echo
    echo '```'
    shift
    "$@"
    echo '```'
}
echo "Measured $(date -u +%F) on $(nproc) cores ($(lscpu | sed -n 's/^Model name: *//p')):"
echo
echo '```sh'
echo 'bestguess -w 3 -r 40 --order random --seed 1 -o raw.csv \'
echo '    "ls /usr/bin" -n ls "ls -l /usr/bin" -n "ls -l" "ls -1 /usr/bin" -n "ls -1"'
echo '```'
block "bestreport raw.csv   (the default report, also what bestguess prints)" "$br" "$raw"
block "bestreport -M raw.csv" "$br" -M "$raw"
block "bestreport -Q -B raw.csv" "$br" -Q -B "$raw"
block "bestreport -Q -E raw.csv" "$br" -Q -E "$raw"
block "bestreport -Q -D -T raw.csv" "$br" -Q -D -T "$raw"
block "bestreport --export-markdown - raw.csv" sh -c "'$br' --export-markdown - '$raw' 2>/dev/null"
block "bestreport --hyperfine-csv - raw.csv" sh -c "'$br' --hyperfine-csv - '$raw' 2>/dev/null"
block "bestreport --export-csv - raw.csv | cut -d, -f1-12" sh -c "'$br' --export-csv - '$raw' 2>/dev/null | cut -d, -f1-12"
block "bestreport --export-json - raw.csv | sed -n '/primary_metric/,+30p'" sh -c "'$br' --export-json - '$raw' 2>/dev/null | sed -n '/primary_metric/,+30p'"
