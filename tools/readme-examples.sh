#!/usr/bin/env bash
# Regenerates the example output shown in README.md from a real run on this
# machine: prints Markdown to paste into the README's "A first run" section
# (the experiment and its default report) and "Exports" (the Markdown table).
# Usage: tools/readme-examples.sh > /tmp/examples.md
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
bg=target/release/bestguess
br=target/release/bestreport
raw=$(mktemp --suffix=.csv)
trap 'rm -f "$raw"' EXIT

"$bg" -Q --seed 1 -o "$raw" "ls /usr/bin" -n "ls" "ls -l /usr/bin" -n "ls -l" 2>/dev/null

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
echo 'bestguess --seed 1 -o raw.csv "ls /usr/bin" -n ls "ls -l /usr/bin" -n "ls -l"'
echo '```'
block "bestreport raw.csv   (the default report, also what bestguess prints)" "$br" "$raw"
echo
echo 'For the "Exports" section:'
echo
echo '```'
"$br" --export-markdown - "$raw" 2>/dev/null
echo '```'
