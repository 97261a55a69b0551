#!/usr/bin/env bash
# GPU verification of forkcc's CUDA backends, for a machine with an NVIDIA GPU (sm_90).
#
#   scripts/gpu-verify.sh FORKCC OUT
#
# FORKCC: a release `forkcc` binary. OUT: a folder for the summary and the logs.
# Needs only bash, the binary, nvcc (env NVCC, default `nvcc` on PATH) and, for the sanitizer
# pass, compute-sanitizer (env SANITIZER, default on PATH); libnvrtc must be loadable by the
# binary (LD_LIBRARY_PATH). No cargo. SANITIZE=0 skips the sanitizer pass (each run is capped
# at 120 s).
#
# For every `//! run:` case of classroom-examples/, tests/semantics/ and tests/cpu_plan/ it runs
#   sim  : forkcc sim FILE ARGS                      (the reference)
#   gpu  : forkcc run FILE ARGS --backend gpu        (NVRTC + cudarc driver)
#   cu   : forkcc build FILE -D.. --emit cuda; nvcc -O2 -arch=sm_90; ./prog -p P
# and compares stdout bytes and success/failure with the reference (runs with --model erew/crew,
# --check or --max-steps are simulator-only: n/a). The nvcc builds run in parallel. Then it runs
# compute-sanitizer memcheck and racecheck on the nvcc binaries of the classroom examples.
# Results: OUT/summary.txt (a table), OUT/logs/<case>.<backend>.{out,err}. The exit status is
# 0 only when every case agrees. FILES="a.fork b.fork" narrows the run to some programs.

set -u

if [ $# -ne 2 ]; then
    echo "usage: $0 FORKCC OUT" >&2
    exit 2
fi
FORKCC=$(realpath "$1")
OUT=$2
NVCC=${NVCC:-nvcc}
SANITIZER=${SANITIZER:-compute-sanitizer}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
LOGS=$OUT/logs
BIN=$OUT/bin
mkdir -p "$LOGS" "$BIN"
SUMMARY=$OUT/summary.txt

{
    echo "forkcc GPU verification, $(date -u '+%Y-%m-%d %H:%M UTC')"
    echo "binary: $FORKCC ($("$FORKCC" --version 2>&1))"
    echo "nvcc: $("$NVCC" --version 2>&1 | tail -1)"
    command -v nvidia-smi >/dev/null &&
        nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
    echo
    printf '%-44s %-34s %-6s %-6s %-6s %s\n' case args sim gpu cu 'gpu total (--stats)'
} >"$SUMMARY"

total=0
passed=0
skipped=0
failed_cases=()

# The -D words only (for `build`).
define_args() {
    local out=() words=($1) i=0
    while [ $i -lt ${#words[@]} ]; do
        case ${words[$i]} in
            -D) out+=("-D" "${words[$((i + 1))]}"); i=$((i + 2)) ;;
            -D*) out+=("${words[$i]}"); i=$((i + 1)) ;;
            -p) i=$((i + 2)) ;;
            *) i=$((i + 1)) ;;
        esac
    done
    echo "${out[@]}"
}

# `--crcw MODE` of a run line, if any (the standalone binary takes it too).
crcw_of() {
    local words=($1) i=0
    while [ $i -lt ${#words[@]} ]; do
        [ "${words[$i]}" = --crcw ] && echo "--crcw ${words[$((i + 1))]}"
        i=$((i + 1))
    done
}

procs_of() {
    local words=($1) i=0
    while [ $i -lt ${#words[@]} ]; do
        case ${words[$i]} in
            -p) echo "${words[$((i + 1))]}"; return ;;
            -p*) echo "${words[$i]#-p}"; return ;;
        esac
        i=$((i + 1))
    done
    echo 1
}

# compare NAME BACKEND STATUS: "ok" when stdout and success match the reference.
compare() {
    local name=$1 backend=$2 status=$3 ref_status=$4
    if cmp -s "$LOGS/$name.sim.out" "$LOGS/$name.$backend.out" &&
        [ $((status == 0)) -eq $((ref_status == 0)) ]; then
        echo ok
    else
        echo DIFF
    fi
}

# Simulator-only runs: access-model and race checks, and the step limit (the GPU has none).
simulator_only() {
    [[ " $1 " =~ \ --model\ (erew|crew)\  || " $1 " == *" --check "* || " $1 " == *" --max-steps "* ]]
}

# The cases: name, file, run line. FILES (space-separated paths) narrows them.
names=()
files=()
lines=()
for file in ${FILES:-"$ROOT"/classroom-examples/*.fork "$ROOT"/tests/semantics/*.fork "$ROOT"/tests/cpu_plan/*.fork}; do
    n=0
    while IFS= read -r line; do
        n=$((n + 1))
        args=${line#//! run:}
        names+=("$(basename "$file" .fork).$n")
        files+=("$file")
        lines+=("${args#"${args%%[![:space:]]*}"}")
    done < <(grep '^//! run:' "$file")
done

# Phase 1: the standalone .cu of every case, compiled by nvcc in parallel.
jobs_max=$(nproc 2>/dev/null || echo 4)
for i in "${!names[@]}"; do
    name=${names[$i]}
    simulator_only "${lines[$i]}" && continue
    # shellcheck disable=SC2046
    "$FORKCC" build "${files[$i]}" $(define_args "${lines[$i]}") --emit cuda -o "$BIN/$name.cu" \
        2>"$LOGS/$name.build.err" || continue
    while [ "$(jobs -rp | wc -l)" -ge "$jobs_max" ]; do wait -n; done
    "$NVCC" -O2 -arch=sm_90 "$BIN/$name.cu" -o "$BIN/$name" >"$LOGS/$name.nvcc.log" 2>&1 &
done
wait

# Phase 2: run every case on the simulator, the GPU driver and the nvcc binary.
for i in "${!names[@]}"; do
    name=${names[$i]}
    file=${files[$i]}
    args=${lines[$i]}
    total=$((total + 1))
    # shellcheck disable=SC2086
    timeout 300 "$FORKCC" sim "$file" $args >"$LOGS/$name.sim.out" 2>"$LOGS/$name.sim.err"
    sim=$?
    if simulator_only "$args"; then
        gpu=n/a
        cu=n/a
        skipped=$((skipped + 1))
    else
        # shellcheck disable=SC2086
        timeout 300 "$FORKCC" run "$file" $args --backend gpu --stats \
            >"$LOGS/$name.gpu.out" 2>"$LOGS/$name.gpu.err"
        rc=$?
        gpu=$(compare "$name" gpu $rc $sim)
        if [ -x "$BIN/$name" ]; then
            # shellcheck disable=SC2046
            timeout 300 "$BIN/$name" -p "$(procs_of "$args")" $(crcw_of "$args") \
                >"$LOGS/$name.cu.out" 2>"$LOGS/$name.cu.err"
            rc=$?
            cu=$(compare "$name" cu $rc $sim)
        else
            cu=BUILD
        fi
    fi
    simres=$([ $sim -eq 0 ] && echo ok || echo "rc=$sim")
    gpu_ms=$(grep -so 'total [0-9.]* ms' "$LOGS/$name.gpu.err" | tail -1)
    printf '%-44s %-34s %-6s %-6s %-6s %s\n' "$name" "$args" "$simres" "$gpu" "$cu" "$gpu_ms" >>"$SUMMARY"
    if [ "$gpu" = ok ] && [ "$cu" = ok ]; then
        passed=$((passed + 1))
    elif [ "$gpu" != n/a ]; then
        failed_cases+=("$name")
    fi
done

{
    echo
    echo "cases: $total, sim = gpu = cu: $passed, simulator-only checks (n/a): $skipped"
    [ ${#failed_cases[@]} -gt 0 ] && echo "differing: ${failed_cases[*]}"
    echo
    echo "compute-sanitizer (classroom examples, nvcc binaries, first run line):"
} >>"$SUMMARY"

if [ "${SANITIZE:-1}" = 0 ]; then
    echo "  skipped: SANITIZE=0" >>"$SUMMARY"
elif command -v "$SANITIZER" >/dev/null; then
    for file in "$ROOT"/classroom-examples/*.fork; do
        name="$(basename "$file" .fork).1"
        [ -x "$BIN/$name" ] || continue
        args=$(grep -m1 '^//! run:' "$file")
        p=$(procs_of "${args#//! run:}")
        for tool in memcheck racecheck; do
            timeout 120 "$SANITIZER" --tool "$tool" --error-exitcode 99 "$BIN/$name" -p "$p" \
                >"$LOGS/$name.$tool.log" 2>&1
            rc=$?
            errors=$(grep -m1 -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$LOGS/$name.$tool.log")
            printf '  %-30s %-10s rc=%-3s %s\n' "$name" "$tool" "$rc" "$errors" >>"$SUMMARY"
        done
    done
else
    echo "  skipped: no $SANITIZER" >>"$SUMMARY"
fi

cat "$SUMMARY"
[ $((passed + skipped)) -eq "$total" ]
