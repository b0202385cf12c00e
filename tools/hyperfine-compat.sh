#!/usr/bin/env bash
# Runs every analysis script shipped with Hyperfine 2.0.0 and with Hyperfine
# 1.20.0 on a fresh `bestguess --export-json` (and on the same data exported
# again by `bestreport`), headless, and says which pass.
#
# Usage: tools/hyperfine-compat.sh            (exit 0 when every script passes)
#
# The scripts come from the crates' source packages on crates.io, as cargo
# unpacks them into ~/.cargo/registry/src; if they are not there yet, a
# throwaway project that depends on each version is fetched (cargo fetch).
# The scripts need numpy, scipy and matplotlib (pip installs them if
# missing). Not run by `cargo test` (which must not need Python): the Rust
# tests in tests/export_snapshots.rs check the same keys and types.
#
# "Pass" means: exit status 0 and, for a plot, a non-empty PNG. The one
# exception is plot_parametrized.py, which plots a `--parameter-scan` and
# refuses any export without `parameters` (Hyperfine's own too; the export
# checked here has no -P): it passes when it refuses our file with exactly
# the message it gives Hyperfine's own export of the same shape
# (/work/shared/reference/hyperfine or tests/hyperfine_compat). On a
# parameter scan (`bestguess -P`, and Hyperfine 1.20's own scan
# tests/data/formats/hyperfine-1.20-scan.json re-exported by bestreport) it
# must plot: 2.0's script the default export, 1.20's the export made with
# `--json-runs hyperfine1` (`parameters` in 1.x's shape; docs/JSON.md).
set -uo pipefail
cd "$(dirname "$0")/.."
root=$PWD
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

scripts_of() { # version -> scripts directory (fetching the crate if needed)
    local v=$1 dir
    dir=$(ls -d "${CARGO_HOME:-$HOME/.cargo}"/registry/src/*/hyperfine-"$v"/scripts 2>/dev/null | head -1)
    if [ -z "$dir" ]; then
        mkdir -p "$work/fetch-$v/src"
        printf '[package]\nname = "fetch"\nversion = "0.0.0"\nedition = "2021"\n[dependencies]\nhyperfine = "=%s"\n' "$v" >"$work/fetch-$v/Cargo.toml"
        echo 'fn main() {}' >"$work/fetch-$v/src/main.rs"
        (cd "$work/fetch-$v" && cargo fetch --quiet) >&2 || return 1
        dir=$(ls -d "${CARGO_HOME:-$HOME/.cargo}"/registry/src/*/hyperfine-"$v"/scripts | head -1)
    fi
    echo "$dir"
}

python3 -c 'import numpy, scipy, matplotlib' 2>/dev/null || pip install --quiet numpy scipy matplotlib

cargo build --release --quiet || exit 1
bg=target/release/bestguess
br=target/release/bestreport
"$bg" -Q -w 2 -r 30 -o "$work/raw.csv" --export-json "$work/bestguess.json" \
    "ls /usr/bin" -n "ls" "ls -l /usr/bin" 2>/dev/null || exit 1
"$br" -Q --export-json "$work/bestreport.json" "$work/raw.csv" || exit 1
# A parameter scan, measured and re-exported, for each generation.
"$bg" -Q -r 10 -P n 1 3 -o "$work/scan.csv" 'sleep 0.00{n}' 2>/dev/null || exit 1
for src in "$work/scan.csv" tests/data/formats/hyperfine-1.20-scan.json; do
    base=$(basename "$src" | tr . -)
    "$br" -Q --export-json "$work/scan-$base-2.json" "$src" || exit 1
    "$br" -Q --json-runs hyperfine1 --export-json "$work/scan-$base-1.json" "$src" || exit 1
done
hf1_ref=tests/hyperfine_compat/hyperfine-1.20-export.json
hf2_ref=tests/hyperfine_compat/hyperfine-2.0-export.json

pass=0
fail=0
result() { # name status detail
    if [ "$2" = ok ]; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
    printf '%-4s %s%s\n' "$2" "$1" "${3:+  ($3)}"
}

# run VERSION SCRIPT JSON [extra args...]: one script on one export.
run() {
    local v=$1 script=$2 json=$3 dir name png log status
    shift 3
    dir=$(scripts_of "$v") || { result "$v $script" FAIL "no scripts"; return; }
    name="$v $script $(basename "$json")${*:+ $*}"
    png="$work/$RANDOM.png"
    log="$work/log"
    case $script in
    plot_*) (cd "$dir" && MPLBACKEND=Agg python3 "$script.py" "$json" "$@" -o "$png") >"$log" 2>&1 ;;
    *) (cd "$dir" && MPLBACKEND=Agg python3 "$script.py" "$json" "$@") >"$log" 2>&1 ;;
    esac
    status=$?
    if [ "$script" = plot_parametrized ] && [[ $json != */scan-* ]]; then
        local ref=$hf2_ref theirs
        [ "$v" = 1.20.0 ] && ref=$hf1_ref
        theirs=$(cd "$dir" && MPLBACKEND=Agg python3 "$script.py" "$root/$ref" -o "$png" 2>&1)
        if [ $status -ne 0 ] && [ "$(cat "$log")" = "$theirs" ]; then
            result "$name" ok "refused as Hyperfine's own export: $(tail -1 "$log")"
        else
            result "$name" FAIL "$(tail -1 "$log")"
        fi
        return
    fi
    if [ $status -ne 0 ]; then
        result "$name" FAIL "$(grep -v '^ ' "$log" | tail -1)"
    elif [[ $script == plot_* ]] && [ ! -s "$png" ]; then
        result "$name" FAIL "no image written"
    else
        result "$name" ok
    fi
}

for v in 2.0.0 1.20.0; do
    gen=2
    [ "$v" = 1.20.0 ] && gen=1
    for json in "$work"/scan-*-"$gen".json; do
        run "$v" plot_parametrized "$json"
    done
    dir=$(scripts_of "$v") || { echo "cannot fetch hyperfine $v" >&2; exit 1; }
    for json in "$work/bestguess.json" "$work/bestreport.json"; do
        for py in "$dir"/*.py; do
            script=$(basename "$py" .py)
            case $script in
            plot_utils) ;; # a module, not a script
            plot_benchmark_comparison) run "$v" "$script" "$json" "$work/bestguess.json" ;;
            *) run "$v" "$script" "$json" ;;
            esac
        done
    done
    if [ "$v" = 2.0.0 ]; then
        # 2.0's scripts take any metric; ours default to time_cpu.
        for metric in time_wall_clock time_user time_system memory_peak_resident; do
            for script in advanced_statistics plot_histogram plot_whisker welch_ttest plot_progression; do
                run "$v" "$script" "$work/bestguess.json" --metric "$metric"
            done
        done
    fi
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
