#!/usr/bin/env bash
# Runs one fuzz target for a while and prints a one-line summary.
#
#   fuzz/run.sh TARGET SECONDS
#
# TARGET is parse_bytes, random_chunks, fixpoint, edits, events_equal_dom,
# xpath or serde. The seeds of fuzz/seeds/TARGET are copied into
# fuzz/corpus/TARGET (which libFuzzer then grows), the run's output goes to
# the terminal and to fuzz/logs/TARGET-<date>.log, and a crash input to
# fuzz/artifacts/TARGET/.
# Needs cargo-fuzz and the nightly toolchain (docs/robustness.md).
#
# SANITIZER=none (the default: the crate has no unsafe code, and it runs
# about three times faster) or SANITIZER=address picks the sanitizer. Extra
# libFuzzer flags may follow the seconds, e.g. `-fork=1 -ignore_crashes=1`
# to go on past a crash already known (each crash is still saved).
set -euo pipefail

if [ $# -lt 2 ]; then
    echo "usage: $0 TARGET SECONDS [LIBFUZZER-FLAGS...]" >&2
    exit 2
fi
target=$1
seconds=$2
shift 2

cd "$(dirname "$0")/.."
case $target in
    parse_bytes | random_chunks | fixpoint | edits | events_equal_dom)
        dict=fuzz/xml.dict
        max_len=65536
        ;;
    xpath)
        dict=fuzz/xpath.dict
        max_len=8192
        ;;
    serde)
        dict=fuzz/serde.dict
        max_len=65536
        ;;
    *)
        echo "$0: unknown target $target (parse_bytes, random_chunks, fixpoint, edits, events_equal_dom, xpath, serde)" >&2
        exit 2
        ;;
esac
sanitizer=${SANITIZER:-none}

corpus=fuzz/corpus/$target
mkdir -p "$corpus" fuzz/logs "fuzz/artifacts/$target"
cp -n fuzz/seeds/"$target"/* "$corpus"/ 2>/dev/null || true
log=fuzz/logs/$target-$(date +%Y-%m-%d-%H%M%S).log
crashes_before=$(find "fuzz/artifacts/$target" -type f | wc -l)

set +e
cargo +nightly fuzz run --sanitizer "$sanitizer" "$target" "$corpus" -- \
    -max_total_time="$seconds" \
    -dict="$dict" \
    -max_len="$max_len" \
    -rss_limit_mb=2048 \
    -timeout=10 \
    -print_final_stats=1 \
    "$@" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
set -e

# libFuzzer's last status line: "#N ... cov: C ft: F corp: K/S ... exec/s: E"
# ("#N: cov: ... time: Ts" in -fork mode, where exec/s is not kept).
last=$(grep -E '^#[0-9]+' "$log" | tail -n 1 || true)
field() { sed -nE "s|.* $1: ([0-9]+).*|\\1|p" <<<"$last"; }
final_stat() { grep -E "^stat::$1:" "$log" | awk '{print $2}' | tail -n 1 || true; }
runs=$(final_stat number_of_executed_units)
runs=${runs:-$(sed -nE 's/^#([0-9]+).*/\1/p' <<<"$last")}
rate=$(final_stat average_exec_per_sec)
rate=${rate:-$(field exec/s)}
# In -fork mode, the rate over the whole run.
elapsed=$(field time)
if [ -n "$runs" ] && [ "${elapsed:-0}" -gt 0 ]; then
    rate=$((runs / elapsed))
fi
# Crash files written by this run; -fork mode also counts them itself.
crashes=$(($(find "fuzz/artifacts/$target" -type f | wc -l) - crashes_before))
forked=$(sed -nE 's|.* oom/timeout/crash: ([0-9]+/[0-9]+/[0-9]+).*|\1|p' <<<"$last")
echo "summary: target=$target seconds=$seconds sanitizer=$sanitizer executions=${runs:-?}" \
    "exec/s=${rate:-?} cov=$(field cov) ft=$(field ft)" \
    "corpus=$(find "$corpus" -type f | wc -l) new-crash-files=$crashes${forked:+ oom/timeout/crash=$forked}" \
    "exit=$status log=$log"
exit "$status"
