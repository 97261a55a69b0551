#!/usr/bin/env bash
# The GPU statistics issue 5 asks for (no cargo): `forkcc run --backend gpu --stats` of the
# sieve (N = 10^7), quicksort (10^6 keys, P = 4096, as in the 2012 study) and matrix
# multiplication (N = 2048), each next to the simulator-independent expected line where one is
# cheap to state.   scripts/gpu-stats.sh FORKCC [TIMEOUT_S]
set -u
FORKCC=$1
LIMIT=${2:-150}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
run() {
    echo "== forkcc run $* --backend gpu --stats"
    timeout "$LIMIT" "$FORKCC" run "$@" --backend gpu --stats 2>&1 | grep -v '^warning\|^ *[│╭╰─]\|^ *$\|^ *Help\|^ *[0-9]* │'
    echo "rc=${PIPESTATUS[0]}"
}
run "$ROOT/classroom-examples/sieve.fork" -p 65536 -D N=10000000
run "$ROOT/classroom-examples/quicksort.fork" -p 4096 -D N=1000000
run "$ROOT/classroom-examples/matmul.fork" -p 65536 -D N=2048
