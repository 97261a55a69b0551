#!/usr/bin/env bash
# The pictures of every classroom example at its first recorded case: the Perfetto/Chrome
# trace (.json), the SVG picture (.svg) and the SVG rasterised (.png, with resvg).
#   scripts/trace-pictures.sh [OUT_DIR]      (default: target/trace-pictures)
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-target/trace-pictures}
mkdir -p "$out"
cargo build -q --bin forkcc
cargo build -q -p pram-trace --example svg_to_png
for file in classroom-examples/*.fork; do
    name=$(basename "$file" .fork)
    args=$(grep -m1 '^//! run:' "$file" | sed 's#^//! run:##')
    for ext in json svg; do
        # shellcheck disable=SC2086 # the case's arguments are words
        target/debug/forkcc sim "$file" $args --trace "$out/$name.$ext" > /dev/null
    done
    target/debug/examples/svg_to_png "$out/$name.svg" "$out/$name.png"
    echo "$out/$name.{json,svg,png} ($args)"
done
