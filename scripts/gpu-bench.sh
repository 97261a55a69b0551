#!/usr/bin/env bash
# `forkcc bench` rows on a GPU machine, by name, for the results folders of docs/results/
# (no cargo: it runs a built binary).
#
#   scripts/gpu-bench.sh FORKCC OUT ROW...
#
# Each ROW runs one `forkcc bench` invocation below, with its own time cap, into OUT/ROW/
# (results.json, results.csv, plots) and OUT/ROW.txt (the table); the script prints each
# row's table as it finishes and packs OUT into OUT.tgz at the end. RUNS (default 5) sets
# --runs. Rows:
#   prefix1024 prefix65536     Hillis-Steele and Blelloch 2^20 at P = 1024 / 65,536
#   sieve1024 sieve16384 sieve65536   sieve 10^7
#   lr                         list ranking 65,536 at P = 1024
#   qs                         quicksort 10^6 at P = 4096 (3 runs: a run takes seconds)
#   matmul                     matmul 2048 at P = N^2 = 4,194,304
#   overhead-few overhead-many the overhead suite at P = 1, 32, 1024 / 65,536 and 2^20
# A row's backends: both schedules, the host schedule unchecked, and the baselines it has.
set -u
if [ $# -lt 3 ]; then
    echo "usage: $0 FORKCC OUT ROW..." >&2
    exit 2
fi
F=$(realpath "$1")
D=$2
shift 2
RUNS=${RUNS:-5}
mkdir -p "$D"
t0=$(date +%s)
gpu=gpu,gpu-unchecked,gpu-device
run() { # name cap args...
    local n=$1 t=$2
    shift 2
    timeout "$t" "$F" bench "$@" --out "$D/$n" >"$D/$n.txt" 2>&1
    echo "== $n rc=$? at $(($(date +%s) - t0)) s"
    grep -A12 '^program' "$D/$n.txt" | cut -c1-230
}
for row in "$@"; do
    case $row in
    prefix1024) run "$row" 120 prefix --n 1048576 --procs 1024 --runs "$RUNS" --backends $gpu,cuda-hand,seq ;;
    prefix65536) run "$row" 120 prefix --n 1048576 --procs 65536 --runs "$RUNS" --backends $gpu,cuda-hand ;;
    sieve1024) run "$row" 60 sieve --n 10000000 --procs 1024 --runs "$RUNS" --backends $gpu,seq ;;
    sieve16384) run "$row" 90 sieve --n 10000000 --procs 16384 --runs "$RUNS" --backends $gpu,seq ;;
    sieve65536) run "$row" 90 sieve --n 10000000 --procs 65536 --runs "$RUNS" --backends gpu,gpu-unchecked,seq ;;
    lr) run "$row" 60 list_ranking --n 65536 --procs 1024 --runs "$RUNS" --backends $gpu,seq ;;
    qs) run "$row" 120 quicksort --n 1000000 --procs 4096 --runs 3 --backends gpu-device,seq ;;
    matmul) run "$row" 150 matmul --n 2048 --procs 4194304 --runs "$RUNS" --backends $gpu,cuda-hand ;;
    overhead-few) run "$row" 150 overhead --procs 1 --procs 32 --procs 1024 --runs "$RUNS" --backends gpu,gpu-device ;;
    overhead-many) run "$row" 240 overhead --procs 65536 --procs 1048576 --runs 3 --backends gpu,gpu-device ;;
    *) echo "unknown row $row" >&2 ;;
    esac
done
tar czf "$D.tgz" -C "$(dirname "$D")" "$(basename "$D")"
