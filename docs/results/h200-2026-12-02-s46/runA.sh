# Session 46, device run A: a grid region on the whole block (s46w: the runner warps join
# their team in it where a block's share of members is more than the team's 256 threads,
# fk_grid_wide) against the tree before (s46a = 70271ab0). Device schedule: Hillis-Steele
# 2^20 and list ranking 2^18 at P = 65,536, sieve 10^7 at 65,536, the grid barrier's cost
# per step at 65,536 and 2^20; s46w's host schedule on the first two for the comparison.
# Then s46w's stops in a wide grid region at P = 65,536 (the step limit, the time limit, a
# fault: exit status and report against the simulator's), and the three grid programs'
# first cases with compute-sanitizer.
. scripts/results-lib.sh
for c in s46a s46w; do
    C=$PWD/.device-bin/$c/forkcc
    b hs-$c 100 prefix --program prefix_hillis_steele --n 1048576 --procs 65536 --backends gpu-device --runs 5
    b lr-$c 60 list_ranking --n 262144 --procs 65536 --backends gpu-device --runs 5
    b sv-$c 120 sieve --n 10000000 --procs 65536 --backends gpu-device --runs 5
    b gb-$c 120 overhead --program grid_barrier --procs 65536 --procs 1048576 --backends gpu-device --runs 5
    grep -A8 "cost per step" $OUT/gb-$c.txt | head -8
done
C=$PWD/.device-bin/s46w/forkcc
b hsh-s46w 100 prefix --program prefix_hillis_steele --n 1048576 --procs 65536 --backends gpu --runs 5
b lrh-s46w 60 list_ranking --n 262144 --procs 65536 --backends gpu --runs 5
stop() {
    local name=$1 file=$2; shift 2
    timeout 60 "$C" sim "$file" "$@" > "$OUT/$name-sim.out" 2> "$OUT/$name-sim.err"; echo "sim rc=$?" > "$OUT/$name.rc"
    timeout 60 "$C" run --backend gpu --schedule device "$file" "$@" > "$OUT/$name-gpu.out" 2> "$OUT/$name-gpu.err"; echo "gpu rc=$?" >> "$OUT/$name.rc"
    echo "$name: $(tr '\n' ' ' < "$OUT/$name.rc") stdout $(cmp -s "$OUT/$name-sim.out" "$OUT/$name-gpu.out" && echo same || echo DIFFERENT)"
    head -2 "$OUT/$name-sim.err"; head -2 "$OUT/$name-gpu.err"
}
stop steps tests/semantics/grid_region_step_limit.fork -p 65536 --max-steps 2006
# The simulator's default step limit would take minutes at this P: the GPU's report alone.
timeout 60 "$C" run --backend gpu --schedule device tests/semantics/grid_region_step_limit.fork -p 65536 --timeout 2 \
    > "$OUT/time-gpu.out" 2> "$OUT/time-gpu.err"; echo "time: gpu rc=$?"; head -2 "$OUT/time-gpu.err"
stop fault tests/semantics/grid_region_fault.fork -p 65536
# (the outputs, 5.4 MB each, were replaced by fault-lines.txt after the run)
at stops
verify v1 200 1 1 classroom-examples/sieve.fork classroom-examples/prefix_hillis_steele.fork classroom-examples/list_ranking.fork
at done
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
