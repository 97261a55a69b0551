#!/usr/bin/env bash
# GPU verification of forkcc's CUDA backends, for a machine with an NVIDIA GPU (sm_90).
#
#   scripts/gpu-verify.sh FORKCC OUT [DIR]
#
# FORKCC: a release `forkcc` binary. OUT: a folder for the summary and the logs. DIR: run the
# `.fork` files of DIR instead of the corpus, e.g. random programs from
# `cargo run --release -p forkgen -- --emit 200 --out DIR` (each carries its `//! run:` lines).
# Needs only bash, the binary, nvcc (env NVCC, default `nvcc` on PATH) and, for the sanitizer
# pass, compute-sanitizer (env SANITIZER, default on PATH); libnvrtc must be loadable by the
# binary (LD_LIBRARY_PATH). No cargo. SANITIZE=0 skips the sanitizer pass (each run is capped
# at SANITIZE_TIMEOUT seconds, default 120; racecheck of the device schedule's quicksort.1
# needs more).
#
# For every `//! run:` case of classroom-examples/, tests/semantics/, tests/cpu_plan/ and
# tests/random/ (the generator's regressions) it runs
#   sim  : forkcc sim FILE ARGS                      (the reference)
#   gpu  : forkcc run FILE ARGS --backend gpu        (NVRTC + cudarc driver, host schedule)
#   dev  : the same with --schedule device           (one persistent launch)
#   cu   : forkcc build FILE -D.. --emit cuda; nvcc -O2 -arch=sm_90; ./prog -p P
#   cud  : the same with --schedule device
# and compares stdout bytes and success/failure with the reference, and for a run that stops
# with a runtime fault the fault's R-code, file:line:col and processor (`fault_of`: every run uses
# `--message-format short`, the form the standalone binary prints; a GPU limit names its loop
# or call: `error[R0006]: the loop at FILE:LINE:COL ...`). Runs with --model erew/crew or
# --check races are simulator-only: n/a; `--max-steps` is passed to the .cu. Then it runs
# compute-sanitizer memcheck, racecheck and synccheck on the nvcc binaries of the classroom
# examples (both schedules, checked and built with -DFK_CHECKS=0), and writes the GPU trace (`--trace`, both schedules) of every
# classroom example's first case, checked to be trace-event JSON (python3) next to the
# simulator's output, with the device time per function of `--stats`. Cases run in parallel
# (JOBS, default nproc), and so do the sanitizer passes.
# Compile cache: every verification gets a fresh, empty one (FORKCC_CACHE_DIR=OUT/cache), so
# each device source is compiled by NVRTC here, with this binary and this NVRTC, and the
# other runs of the same source (further run lines with the same -D values, the traces) load
# it; the summary counts the runs that compiled and those the cache answered (`--stats`).
# Results: OUT/summary.txt (a table, written at the end), OUT/progress.txt (each case's row
# as it finishes, status word first), OUT/logs/<case>.<backend>.{out,err}. The exit status is
# 0 only when every case agrees. FILES="a.fork b.fork" narrows the run to some programs;
# FIRST_ONLY=1 runs only the first `//! run:` case of each. CUD_FLAGS: more nvcc flags for the
# device schedule's `.cu` (cud), e.g. CUD_FLAGS=-DFK_REGION_TASK_MIN=1073741824 runs no block
# region on a block of the persistent kernel (the default runs one for every group of 2 or
# more members, and for a group of one where a block's team is idle), so the `cud` column checks the regions' instructions run one by one.

set -u

if [ $# -lt 2 ] || [ $# -gt 3 ]; then
    echo "usage: $0 FORKCC OUT [DIR]" >&2
    exit 2
fi
FORKCC=$(realpath "$1")
OUT=$2
if [ $# -eq 3 ]; then
    if ! compgen -G "$3/*.fork" >/dev/null; then
        echo "error: no .fork files in $3" >&2
        exit 2
    fi
    FILES=$(printf '%s ' "$(realpath "$3")"/*.fork)
fi
NVCC=${NVCC:-nvcc}
SANITIZER=${SANITIZER:-compute-sanitizer}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
LOGS=$OUT/logs
BIN=$OUT/bin
rm -rf "$OUT/cache"
export FORKCC_CACHE_DIR=$OUT/cache
mkdir -p "$LOGS" "$BIN" "$FORKCC_CACHE_DIR"
SUMMARY=$OUT/summary.txt

{
    echo "forkcc GPU verification, $(date -u '+%Y-%m-%d %H:%M UTC')"
    echo "binary: $FORKCC ($("$FORKCC" --version 2>&1))"
    echo "nvcc: $("$NVCC" --version 2>&1 | tail -1)"
    command -v nvidia-smi >/dev/null &&
        nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
    echo
    printf '%-44s %-34s %-6s %-6s %-6s %-6s %-6s %-22s %s\n' case args sim gpu dev cu cud \
        'gpu total (--stats)' 'dev total'
} >"$SUMMARY"

ROWS=$OUT/rows
PROGRESS=$OUT/progress.txt
rm -rf "$ROWS"
mkdir -p "$ROWS"
: >"$PROGRESS"
# Cases run in parallel (the GPU is shared by time slicing; nvcc builds dominate).
JOBS=${JOBS:-$(nproc)}

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

# `--crcw MODE` and `--max-steps N` of a run line, if any (the standalone binary takes them
# too).
crcw_of() {
    local words=($1) i=0
    while [ $i -lt ${#words[@]} ]; do
        case ${words[$i]} in
            --crcw | --max-steps) echo "${words[$i]} ${words[$((i + 1))]}" ;;
        esac
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

# The fault of a run's stderr as `FILE:LINE:COL R.... PROC` (empty without one): the short form
# `FILE:LINE:COL: error[R....]: ..., by processor PROC ...`, or a GPU limit's
# `error[R....]: the loop at FILE:LINE:COL ... on processor PROC`.
fault_of() {
    sed -n -E -e 's/^([^ ]+:[0-9]+:[0-9]+): error\[(R[0-9]+)\].*/\1 \2 &/p' \
        -e 's/^error\[(R[0-9]+)\]: [^:]* at ([^ :]+:[0-9]+:[0-9]+).*/\2 \1 &/p' "$1" |
        head -1 | sed -E 's/^([^ ]+ [^ ]+) .*(by|on) processor ([0-9]+).*/\1 \3/; t; s/^([^ ]+ R[0-9]+) .*/\1/'
}

# compare NAME BACKEND STATUS: "ok" when stdout, success and the fault's code and location
# match the reference.
compare() {
    local name=$1 backend=$2 status=$3 ref_status=$4
    if cmp -s "$LOGS/$name.sim.out" "$LOGS/$name.$backend.out" &&
        [ $((status == 0)) -eq $((ref_status == 0)) ] &&
        [ "$(fault_of "$LOGS/$name.sim.err")" = "$(fault_of "$LOGS/$name.$backend.err")" ]; then
        echo ok
    else
        echo DIFF
    fi
}

# verify_case INDEX FILE N ARGS: runs one `//! run:` case on the three backends and writes
# its summary row to $ROWS/INDEX (status word first: pass, fail or na).
verify_case() {
    local index=$1 file=$2 n=$3 args=$4
    local name sim rc gpu dev cu cud status simres gpu_ms dev_ms
    name="$(basename "$file" .fork).$n"
    # shellcheck disable=SC2086
    timeout 300 "$FORKCC" sim "$file" $args --message-format short \
        >"$LOGS/$name.sim.out" 2>"$LOGS/$name.sim.err"
    sim=$?
    if [[ " $args " =~ \ --model\ (erew|crew)\  || " $args " == *" --check races"* ]]; then
        # Access-model and race checks exist only on the simulator.
        gpu=n/a
        dev=n/a
        cu=n/a
        cud=n/a
        status=na
    else
        # shellcheck disable=SC2086
        timeout 300 "$FORKCC" run "$file" $args --backend gpu --stats --message-format short \
            >"$LOGS/$name.gpu.out" 2>"$LOGS/$name.gpu.err"
        rc=$?
        gpu=$(compare "$name" gpu $rc $sim)
        # shellcheck disable=SC2086
        timeout 300 "$FORKCC" run "$file" $args --backend gpu --schedule device --stats \
            --message-format short \
            >"$LOGS/$name.dev.out" 2>"$LOGS/$name.dev.err"
        rc=$?
        dev=$(compare "$name" dev $rc $sim)
        cu=$(standalone "$name" "$file" "$args" host $sim)
        cud=$(standalone "$name" "$file" "$args" device $sim)
        if [[ " $args " == *" --crcw priority "* ]]; then
            # The device schedule refuses `--crcw priority` (a step's members run in no fixed
            # order), with a message: n/a.
            dev=n/a
            cud=n/a
        fi
        status=$([ "$gpu" = ok ] && [[ $dev == ok || $dev == n/a ]] && [[ $cu == ok || $cu == n/a ]] &&
            [[ $cud == ok || $cud == n/a ]] && echo pass || echo fail)
    fi
    simres=$([ $sim -eq 0 ] && echo ok || echo "rc=$sim")
    gpu_ms=$(grep -so 'total [0-9.]* ms' "$LOGS/$name.gpu.err" | tail -1)
    dev_ms=$(grep -so 'total [0-9.]* ms' "$LOGS/$name.dev.err" | tail -1)
    printf '%s %-44s %-34s %-6s %-6s %-6s %-6s %-6s %-22s %s\n' "$status" "$name" "$args" \
        "$simres" "$gpu" "$dev" "$cu" "$cud" "$gpu_ms" "$dev_ms" >"$ROWS/$index"
    # As it finishes, so that a run cut short (a time limit) still has every finished row.
    cat "$ROWS/$index" >>"$PROGRESS"
}

# standalone NAME FILE ARGS SCHEDULE SIM_STATUS: builds the .cu of one schedule with nvcc, runs
# it, compares; prints ok, DIFF or BUILD. The host schedule's binary is $BIN/NAME, the device
# schedule's $BIN/NAME.dev.
standalone() {
    local name=$1 file=$2 args=$3 schedule=$4 sim=$5 bin col rc result
    local flags=()
    bin=$BIN/$name
    col=cu
    if [ "$schedule" = device ]; then
        bin=$BIN/$name.dev
        col=cud
        read -r -a flags <<<"${CUD_FLAGS:-}"
    fi
    # shellcheck disable=SC2086,SC2046
    if "$FORKCC" build "$file" $(define_args "$args") --emit cuda --schedule "$schedule" \
        -o "$bin.cu" 2>"$LOGS/$name.$col.build.err" &&
        "$NVCC" -O2 -arch=sm_90 "${flags[@]}" "$bin.cu" -o "$bin" >"$LOGS/$name.$col.nvcc.log" 2>&1; then
        # The same source without the checks, for the sanitizer pass.
        "$NVCC" -O2 -arch=sm_90 "${flags[@]}" -DFK_CHECKS=0 "$bin.cu" -o "$bin.unchecked" \
            >>"$LOGS/$name.$col.nvcc.log" 2>&1
        # shellcheck disable=SC2046
        timeout 300 "$bin" -p "$(procs_of "$args")" $(crcw_of "$args") \
            >"$LOGS/$name.$col.out" 2>"$LOGS/$name.$col.err"
        rc=$?
        compare "$name" $col $rc "$sim"
    else
        # A program the front end rejects agrees when the simulator rejected it too.
        : >"$LOGS/$name.$col.out"
        result=$(compare "$name" $col 1 "$sim")
        [ "$result" = ok ] && echo ok || echo BUILD
    fi
}
export -f verify_case compare fault_of define_args crcw_of procs_of standalone
export FORKCC NVCC LOGS BIN ROWS PROGRESS

# The cases, one per line: INDEX<TAB>FILE<TAB>N<TAB>ARGS. FILES narrows the run to some programs.
index=0
for file in ${FILES:-"$ROOT"/classroom-examples/*.fork "$ROOT"/tests/semantics/*.fork \
    "$ROOT"/tests/cpu_plan/*.fork "$ROOT"/tests/random/*.fork}; do
    n=0
    while IFS= read -r line; do
        # FIRST_ONLY=1: the first case of each program (a quick pass, e.g. for the sanitizer).
        [ "${FIRST_ONLY:-0}" = 1 ] && [ $n -ge 1 ] && break
        n=$((n + 1))
        index=$((index + 1))
        args=${line#//! run:}
        args=${args#"${args%%[![:space:]]*}"}
        printf '%05d\t%s\t%s\t%s\n' "$index" "$file" "$n" "$args"
    done < <(grep '^//! run:' "$file")
done >"$OUT/cases.tsv"

# Logs and rows are named by the program's file name: two programs of one name would mix.
same=$(cut -f2 "$OUT/cases.tsv" | sort -u | xargs -n1 basename | sort | uniq -d)
if [ -n "$same" ]; then
    echo "error: two programs named $same; rename one (the logs are named by file name)" >&2
    exit 2
fi

# shellcheck disable=SC2016
xargs -a "$OUT/cases.tsv" -d '\n' -P "$JOBS" -I{} \
    bash -c 'IFS=$'"'"'\t'"'"' read -r i f n a <<<"$1"; verify_case "$i" "$f" "$n" "$a"' _ {}

total=$(wc -l <"$OUT/cases.tsv")
passed=$(cat "$ROWS"/* | grep -c '^pass ')
skipped=$(cat "$ROWS"/* | grep -c '^na ')
failed_cases=$(cat "$ROWS"/* | awk '$1 == "fail" { print $2 }' | tr '\n' ' ')
cut -d' ' -f2- "$ROWS"/* >>"$SUMMARY"

{
    echo
    echo "cases: $total, sim = gpu = dev = cu = cud: $passed, simulator-only checks (n/a): $skipped"
    [ -n "$failed_cases" ] && echo "differing: $failed_cases"
    # Parallel runs of one source may each miss before the first has written the entry.
    nvrtc_runs=$(cat "$LOGS"/*.gpu.err "$LOGS"/*.dev.err 2>/dev/null | grep -c ' NVRTC [0-9.]* ms, ')
    cached_runs=$(cat "$LOGS"/*.gpu.err "$LOGS"/*.dev.err 2>/dev/null | grep -c ' NVRTC [0-9.]* ms (cached)')
    echo "GPU runs compiled by NVRTC: $nvrtc_runs, loaded from the compile cache: $cached_runs" \
        "($(find "$FORKCC_CACHE_DIR" -type f | wc -l) entries in $FORKCC_CACHE_DIR)"
    echo
    echo "compute-sanitizer (classroom examples, nvcc binaries, first run line):"
} >>"$SUMMARY"

# sanitize NAME P TOOL: one compute-sanitizer pass over an nvcc-built example.
sanitize() {
    local name=$1 p=$2 tool=$3 rc errors
    timeout "${SANITIZE_TIMEOUT:-120}" "$SANITIZER" --tool "$tool" --error-exitcode 99 "$BIN/$name" -p "$p" \
        >"$LOGS/$name.$tool.log" 2>&1
    rc=$?
    errors=$(grep -m1 -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$LOGS/$name.$tool.log")
    printf '  %-30s %-10s rc=%-3s %s\n' "$name" "$tool" "$rc" "$errors" >"$ROWS/san.$name.$tool"
}
export -f sanitize
export SANITIZER

if [ "${SANITIZE:-1}" = 0 ]; then
    echo "  skipped: SANITIZE=0" >>"$SUMMARY"
elif command -v "$SANITIZER" >/dev/null; then
    for file in ${FILES:-"$ROOT"/classroom-examples/*.fork}; do
        case $file in *classroom-examples/*) ;; *) continue ;; esac
        name="$(basename "$file" .fork).1"
        [ -x "$BIN/$name" ] || continue
        args=$(grep -m1 '^//! run:' "$file")
        p=$(procs_of "${args#//! run:}")
        for bin in "$name" "$name.unchecked" "$name.dev" "$name.dev.unchecked"; do
            [ -x "$BIN/$bin" ] &&
                printf '%s %s memcheck\n%s %s racecheck\n%s %s synccheck\n' "$bin" "$p" \
                    "$bin" "$p" "$bin" "$p"
        done
    done | xargs -r -P "$JOBS" -L1 bash -c 'sanitize "$@"' _
    cat "$ROWS"/san.* >>"$SUMMARY" 2>/dev/null
else
    echo "  skipped: no $SANITIZER" >>"$SUMMARY"
fi

# gpu_trace FILE SCHEDULE: the first case of FILE with --trace and --stats on the GPU; ok when
# it prints what the simulator printed, the trace is trace-event JSON in microseconds with a
# track per group instance, each group instance (construct, site, @, size and its parent's
# construct and site; block regions' included) is one of the simulator's trace (which also
# has the groups of ifs and loops that run inside one kernel on the GPU, docs/tracing.md),
# and --stats has the time per function with `main` called once. The check's message, if
# any: $LOGS/NAME.trace-SCHEDULE.check.
gpu_trace() {
    local file=$1 schedule=$2 name args json sim_json rc
    name="$(basename "$file" .fork).1"
    args=$(grep -m1 '^//! run:' "$file")
    args=${args#//! run:}
    json=$OUT/traces/$name.$schedule.json
    sim_json=$OUT/traces/$name.sim.json
    # shellcheck disable=SC2086
    timeout 300 "$FORKCC" run "$file" $args --backend gpu --schedule "$schedule" --stats \
        --trace "$json" >"$LOGS/$name.trace-$schedule.out" 2>"$LOGS/$name.trace-$schedule.err"
    rc=$?
    if ! cmp -s "$LOGS/$name.sim.out" "$LOGS/$name.trace-$schedule.out" ||
        ! grep -Eq '^  main +1 call ' "$LOGS/$name.trace-$schedule.err"; then
        echo "DIFF (rc=$rc)"
    elif ! command -v python3 >/dev/null; then
        [ -s "$json" ] && echo "written (no python3 to read it)" || echo "NO TRACE"
    else
        # shellcheck disable=SC2086
        timeout 300 "$FORKCC" sim "$file" $args --trace "$sim_json" >/dev/null 2>&1
        python3 - "$json" "$sim_json" 2>"$LOGS/$name.trace-$schedule.check" <<'PY' && echo ok || echo "BAD TRACE"
import collections, json, sys
doc = json.load(open(sys.argv[1]))
assert doc["otherData"]["time_unit"] == "microsecond (GPU timestamps)"
end = doc["otherData"]["duration_us"]
events = doc["traceEvents"]
assert any(e["ph"] == "X" and e["cat"] == "group" for e in events)
for e in events:
    assert e["ph"] in "MXisf" and e["pid"] == 1, e
    if e["ph"] == "X":
        assert 0 <= e["ts"] and e["ts"] + e["dur"] <= end + 1e-3, e

def tree(doc):
    """Group instances outside `seq` bodies: construct, site, @, size, parent's construct, site.
    Without the groups that hold their whole parent (size and @): a uniform condition forms
    one in the simulator and none on the GPU; a group's parent is its nearest shown one."""
    g = {e["args"]["group"]: e["args"] for e in doc["traceEvents"]
         if e["ph"] == "X" and e["cat"] == "group"}
    def in_seq(a):
        while "parent" in a:
            a = g[a["parent"]]
            if a["construct"] == "seq":
                return True
        return False
    def whole(a):
        return "parent" in a and (g[a["parent"]]["size"], g[a["parent"]]["@"]) == (a["size"], a["@"])
    def parent(a):
        while "parent" in a:
            a = g[a["parent"]]
            if not whole(a):
                return (a["construct"], a["site"])
        return None
    return collections.Counter(
        (a["construct"], a["site"], a["@"], a["size"], parent(a))
        for a in g.values() if not in_seq(a) and not whole(a))

sim = json.load(open(sys.argv[2]))
if "cut" not in doc["otherData"] and "cut" not in sim["otherData"]:
    extra = tree(doc) - tree(sim)
    assert not extra, f"group instances the simulator's trace does not have: {dict(extra)}"
PY
    fi
}

echo >>"$SUMMARY"
echo "GPU traces (--trace run.json --stats, classroom examples, first run line: $OUT/traces):" >>"$SUMMARY"
mkdir -p "$OUT/traces"
trace_failed=0
for file in ${FILES:-"$ROOT"/classroom-examples/*.fork}; do
    case $file in *classroom-examples/*) ;; *) continue ;; esac
    for schedule in host device; do
        result=$(gpu_trace "$file" "$schedule")
        [ "$result" = ok ] || trace_failed=1
        printf '  %-30s %-7s %s\n' "$(basename "$file" .fork)" "$schedule" "$result" >>"$SUMMARY"
    done
done

cat "$SUMMARY"
[ $((passed + skipped)) -eq "$total" ] && [ "$trace_failed" = 0 ]
