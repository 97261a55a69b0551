# Session 46, device run B: a grid region on the whole block only where that gives a thread
# fewer rounds of members (s46b: at P = 2^20 on 132 blocks 21 rounds instead of 32; at 65,536
# none, 2 either way) against the tree before (s46a = 70271ab0): the rows that do not widen
# (Hillis-Steele 2^20 at 65,536, sieve 10^7 at 16,384) and those that do (Hillis-Steele 2^20
# at P = 2^20, list ranking 2^18 at 2^18, the grid barrier at 2^20). Then s46b at P = 40,000
# (1 round on the block's 384 threads instead of 2 on the team's 256): Hillis-Steele and
# list ranking against the simulator, and Hillis-Steele's nvcc build under compute-sanitizer;
# the stops in a wide grid region at 2^20.
. scripts/results-lib.sh
for c in s46a s46b; do
    C=$PWD/.device-bin/$c/forkcc
    b hs-$c 100 prefix --program prefix_hillis_steele --n 1048576 --procs 65536 --procs 1048576 --backends gpu-device --runs 5
    b sv-$c 120 sieve --n 10000000 --procs 16384 --backends gpu-device --runs 5
    b lr-$c 60 list_ranking --n 262144 --procs 262144 --backends gpu-device --runs 5
    b gb-$c 120 overhead --program grid_barrier --procs 1048576 --backends gpu-device --runs 5
    grep -A4 "cost per step" $OUT/gb-$c.txt | head -4
done
C=$PWD/.device-bin/s46b/forkcc
same() {
    local name=$1 file=$2; shift 2
    timeout 120 "$C" sim "$file" "$@" > "$OUT/$name-sim.out" 2> "$OUT/$name-sim.err"; local s=$?
    timeout 60 "$C" run --backend gpu --schedule device "$file" "$@" > "$OUT/$name-gpu.out" 2> "$OUT/$name-gpu.err"; local g=$?
    echo "$name: sim rc=$s gpu rc=$g, stdout $(cmp -s "$OUT/$name-sim.out" "$OUT/$name-gpu.out" && echo same || echo DIFFERENT), $(wc -l < "$OUT/$name-gpu.out") lines"
    head -2 "$OUT/$name-sim.err"; head -2 "$OUT/$name-gpu.err"
}
same hs40k classroom-examples/prefix_hillis_steele.fork -p 40000 -D N=40000
same lr40k classroom-examples/list_ranking.fork -p 40000 -D N=40000
same steps tests/semantics/grid_region_step_limit.fork -p 1048576 --max-steps 2006
same fault tests/semantics/grid_region_fault.fork -p 1048576
# (the outputs, 100 MB, were replaced by fault-lines.txt and fault-diff-head.txt after the run)
at same
# (as run, the summaries were followed by each log's last lines, not its first reports)
sanitize_hs 40000
at done
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
