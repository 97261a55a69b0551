# Helpers for the device runs of docs/results/*/runX.sh, sourced from the repository root on
# the GPU machine (no cargo) with C set to the forkcc binary and OUT to the folder that comes
# back:
#
#   C=$PWD/.device-bin/NAME/forkcc; . scripts/results-lib.sh
#
# It sets the CUDA 13.0 paths and a compile cache in /tmp, writes the GPU's name, driver and
# clock to OUT/machine.txt, and defines
#   at NAME                   "== NAME at S s" (seconds since sourcing), also into OUT/times.txt
#   report DIR NAME           gpu-verify.sh's progress and summary from DIR into OUT/NAME-*,
#                             a count per status, and the first failures' stderr
#   b NAME CAP ARGS...        `forkcc bench ARGS` capped at CAP seconds into OUT/NAME and
#                             OUT/NAME.txt, its table printed (the plots left out)
#   verify NAME CAP FIRST SAN FILE...
#                             scripts/gpu-verify.sh of $C over the FILEs (FIRST 1: only each
#                             file's first case; SAN 1: with the sanitizer, each of its runs
#                             capped at 25 s), capped at CAP seconds, in /tmp/NAME: its log
#                             into OUT/NAME.log, `report /tmp/NAME NAME`, and with SAN 1 a
#                             count of the sanitizer's results
#   qsb_path NAME             `forkcc run --stats --trace` of quicksort_balanced 10^6 at
#                             P = 4096 (device schedule) into OUT/trace-NAME.txt, its critical
#                             path (docs/results/h200-2026-11-29-s24/critical_path.py) into
#                             OUT/qsb-NAME-critical-path.txt, and that path split by part of a
#                             level (docs/results/h200-2026-11-30-s30/critical_path_split.py),
#                             printed; the trace itself is not kept (up to 10^6 events:
#                             the default 20,000 cut it about halfway through the run)
#   sanitize_hs P             Hillis-Steele's device-schedule `.cu` of $C with N = P, built by
#                             nvcc into /tmp/hs, run with -p P under compute-sanitizer's
#                             memcheck, racecheck and synccheck at once (OUT/san-hs-TOOL.log),
#                             each summary and its first reports printed
#   cu_build NAME SRC [FLAGS...]
#                             SRC (a `.cu`, as it is) built by nvcc -O2 for sm_90 with a 256 MiB
#                             heap and FLAGS into /tmp/NAME, nvcc's output in OUT/nvcc-NAME.txt
#   kernel_build NAME SRC [FLAGS...]
#                             SRC (an emitted device-schedule `.cu`) patched to print the
#                             persistent kernel's time (docs/results/h200-2026-11-30-s32/
#                             time_kernel.py), then built as cu_build does (several builds
#                             may run at once: `kernel_build a x.cu & ... wait`)
#   kernel_rounds ROUNDS ARGS NAME...
#                             runs each /tmp/NAME with ARGS (as "-p 4096") ROUNDS times, the
#                             names interleaved, each run's kernel time and first output line
#                             into OUT/rounds.txt; prints each name's median, min and max time
#                             and how many of its runs printed "sorted: yes"
#   prof_runs "P..." RUNS NAME...
#                             runs each /tmp/NAME (a `.cu` timed by part, docs/results/
#                             h200-2026-12-03-s51/prof_hs.py and the passes on it) with -p P,
#                             RUNS times for each P, the names interleaved: each run's output
#                             in OUT/NAME-P-I.out, its rc, `fkprof` line and whether it printed
#                             "correct: yes" printed and kept in OUT/prof.txt
#   stamps ROUNDS NAME=OBJ... links each object (a stamped `.cu` compiled here with
#                             `nvcc -c`, docs/results/h200-2026-11-29-s26/) and runs it with
#                             `-p 4096` ROUNDS times, the names interleaved: its stamps
#                             ("prof" lines) and last output line printed, OUT/NAME-I.*
export LD_LIBRARY_PATH=/usr/local/cuda-13.0/targets/x86_64-linux/lib:${LD_LIBRARY_PATH:-}
export PATH=/usr/local/cuda-13.0/bin:$PATH
export FORKCC_CACHE_DIR=/tmp/cache
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > "$OUT/machine.txt"
at() { echo "== $1 at $(( $(date +%s) - t0 )) s" | tee -a "$OUT/times.txt"; }
report() {
    cp "$1/progress.txt" "$OUT/$2-progress.txt"; cp "$1/summary.txt" "$OUT/$2-summary.txt" 2>/dev/null
    awk '{print $1}' "$OUT/$2-progress.txt" | sort | uniq -c
    grep -v "^pass\|^na" "$OUT/$2-progress.txt" | head -20
    mkdir -p "$OUT/$2-logs"
    for f in $(grep -v "^pass\|^na" "$OUT/$2-progress.txt" | awk '{print $2}' | head -4); do
        cp "$1"/logs/"$f".*.err "$OUT/$2-logs/" 2>/dev/null; done
}
b() {
    local name=$1 limit=$2; shift 2
    timeout "$limit" "$C" bench "$@" --out "$OUT/$name" > "$OUT/$name.txt" 2>&1
    at "$name rc=$?"; rm -f "$OUT/$name"/*.svg
    grep -A40 "^program" "$OUT/$name.txt" | grep -v "^  " | head -40
}
verify() {
    local name=$1 limit=$2 first=$3 san=$4; shift 4
    FILES="$*" FIRST_ONLY=$first SANITIZE=$san SANITIZE_TIMEOUT=25 timeout "$limit" \
        bash scripts/gpu-verify.sh "$C" "/tmp/$name" > "$OUT/$name.log" 2>&1
    at "$name rc=$?"; report "/tmp/$name" "$name"
    if [ "$san" = 1 ]; then
        grep -E "memcheck|racecheck|synccheck" "/tmp/$name/summary.txt" | awk '{print $2, $3, $4}' |
            sort | uniq -c | sort -rn | head
    fi
}
qsb_path() {
    timeout 100 "$C" run --backend gpu --schedule device --stats --trace "$OUT/qsb-$1.json" \
        --trace-limit 1000000 --heap-mib 256 -p 4096 -D N=1000000 classroom-examples/quicksort_balanced.fork \
        > "$OUT/trace-$1.txt" 2>&1
    at "trace $1 rc=$?"; tail -5 "$OUT/trace-$1.txt"
    python3 docs/results/h200-2026-11-29-s24/critical_path.py "$OUT/qsb-$1.json" \
        > "$OUT/qsb-$1-critical-path.txt" 2>&1
    python3 docs/results/h200-2026-11-30-s30/critical_path_split.py "$OUT/qsb-$1-critical-path.txt"
    rm -f "$OUT/qsb-$1.json"
}
prof_runs() {
    local ps=$1 runs=$2 p i v; shift 2
    for p in $ps; do
        for i in $(seq "$runs"); do
            for v in "$@"; do
                timeout 60 "/tmp/$v" -p "$p" > "$OUT/$v-$p-$i.out" 2>&1
                echo "$v p=$p rc=$? $(grep fkprof "$OUT/$v-$p-$i.out") $(grep -c 'correct: yes' "$OUT/$v-$p-$i.out")"
            done
        done
    done | tee "$OUT/prof.txt"
}
stamps() {
    local rounds=$1 v i t; shift
    for v in "$@"; do nvcc -arch=sm_90 -o "/tmp/${v%%=*}" "${v#*=}"; done
    for i in $(seq "$rounds"); do for v in "${@%%=*}"; do
        t=$(date +%s%N); timeout 60 "/tmp/$v" -p 4096 > "$OUT/$v-$i.out" 2> "$OUT/$v-$i.err"
        at "$v $i rc=$? ms=$(( ($(date +%s%N) - t) / 1000000 ))"
        grep prof "$OUT/$v-$i.err"; tail -1 "$OUT/$v-$i.out"
    done; done
}
cu_build() {
    local name=$1 src=$2; shift 2
    nvcc -O2 -arch=sm_90 -DFK_HEAP_BYTES=268435456 "$@" -o "/tmp/$name" "$src" > "$OUT/nvcc-$name.txt" 2>&1
}
kernel_build() {
    local name=$1 src=$2; shift 2
    python3 docs/results/h200-2026-11-30-s32/time_kernel.py "$src" "/tmp/$name-t.cu"
    cu_build "$name" "/tmp/$name-t.cu" "$@"
}
kernel_rounds() {
    local rounds=$1 args=$2 v i t; shift 2
    for i in $(seq "$rounds"); do for v in "$@"; do
        # shellcheck disable=SC2086
        timeout 60 "/tmp/$v" $args > "$OUT/$v-$i.out" 2> "$OUT/$v-$i.err"
        echo "code $v round $i rc=$? $(grep prof "$OUT/$v-$i.err") $(head -1 "$OUT/$v-$i.out" | head -c 50)"
    done; done >> "$OUT/rounds.txt"
    for v in "$@"; do
        t=$(grep "code $v " "$OUT/rounds.txt" | awk '{print $8}' | sort -n)
        echo "code $v median $(echo "$t" | sed -n "$(( (rounds + 1) / 2 ))p") ms, min $(echo "$t" | head -1), max $(echo "$t" | tail -1), sorted $(grep "code $v " "$OUT/rounds.txt" | grep -c 'sorted: yes')/$rounds"
    done
}
sanitize_hs() {
    "$C" build --schedule device --emit cuda classroom-examples/prefix_hillis_steele.fork -D N="$1" > /tmp/hs.cu
    nvcc -O2 -arch=sm_90 /tmp/hs.cu -o /tmp/hs > "$OUT/nvcc-hs.txt" 2>&1; at "nvcc rc=$?"
    for t in memcheck racecheck synccheck; do
        timeout 200 compute-sanitizer --tool $t --error-exitcode 99 /tmp/hs -p "$1" > "$OUT/san-hs-$t.log" 2>&1 &
    done
    wait
    for t in memcheck racecheck synccheck; do
        echo "$t: $(grep -m1 -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/san-hs-$t.log")"
        grep -m4 "Error\|error detected\|  at " "$OUT/san-hs-$t.log"
    done
}
