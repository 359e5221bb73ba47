#!/bin/sh
# Instruction counts (callgrind) of a DOM parse and of `xml5dom check` on
# 2 MB of each generated shape: the figures a refactor must keep within a
# few percent (issue 34). Counts do not depend on what else the machine
# does, so a before and an after may be measured at different times.
#
#   bench-tools/instructions.sh [TARGET_DIR]     # default: target
#
# Builds `profile` and the CLI in release mode first (run it in a checkout
# of the revision to measure; TARGET_DIR lets two checkouts share nothing).
# Prints one line per shape: the DOM parse (`profile SHAPE 1` minus
# `profile SHAPE 0`, which only generates the input) and `check FILE`.
set -eu
target=${1:-target}
size=2000000
cargo build -q --release -p bench-tools -p xml5dom-cli --bin profile --bin generate --bin xml5dom --target-dir "$target"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
count() {
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null |
        sed -n 's/.*Collected : *\([0-9]*\).*/\1/p'
}
for shape in records prose atom; do
    "$target/release/generate" "$shape" 2 > "$dir/$shape.xml"
    with=$(XML5DOM_PERF_SIZE=$size count "$target/release/profile" "$shape" 1)
    without=$(XML5DOM_PERF_SIZE=$size count "$target/release/profile" "$shape" 0)
    check=$(count "$target/release/xml5dom" check "$dir/$shape.xml")
    echo "$shape: parse $((with - without)) check $check"
done
