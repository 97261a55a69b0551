# Session 54, device run D: the verification of the final runtime and emitter (s54f =
# 8ecc8895: fk_g_shape, loops unrolled by 32, every thread a runner without region tasks):
# every classroom example's first case and seven semantics programs on every backend with compute-sanitizer (v1); every case of the programs
# with a grid region (sieve, Hillis-Steele, list ranking, grid_region_*: P = 5, 7 and 70 spread
# unevenly over the blocks) likewise (v2); matmul N = 256 at P = 65,536 (no region tasks: 512
# runners a block) against the simulator and under compute-sanitizer. Run E benches.
C=$PWD/.device-bin/s54f/forkcc
. scripts/results-lib.sh
cp classroom-examples/lcg.h /tmp/
S=tests/semantics
verify v1 300 1 1 classroom-examples/*.fork $S/fault_sibling_race.fork $S/fault_step_limit.fork \
    $S/fault_recursion_depth.fork $S/grid_region_fault.fork $S/fault_in_owned_loop.fork \
    $S/fault_division_by_zero.fork $S/straight_call_sync.fork
verify v2 150 0 1 classroom-examples/sieve.fork classroom-examples/prefix_hillis_steele.fork \
    classroom-examples/list_ranking.fork $S/grid_region_fault.fork $S/grid_region_crcw_common.fork \
    $S/grid_region_step_limit.fork
# A program without region tasks, every thread of its blocks a runner (P > 42,240): matmul
# N = 256 at P = 65,536 on the simulator, both schedules and the nvcc-built `.cu`, and the
# `.cu` under compute-sanitizer.
M="-p 65536 -D N=256 classroom-examples/matmul.fork"
"$C" build --schedule device --emit cuda -D N=256 classroom-examples/matmul.fork > /tmp/mm256.cu
cu_build mm256 /tmp/mm256.cu
"$C" sim $M > "$OUT/mm256-sim.txt" 2>&1
"$C" run --backend gpu --schedule device $M > "$OUT/mm256-dev.txt" 2>&1
"$C" run --backend gpu --schedule host $M > "$OUT/mm256-gpu.txt" 2>&1
/tmp/mm256 -p 65536 > "$OUT/mm256-cud.txt" 2>&1
for v in dev gpu cud; do echo "mm256 $v: $(cmp -s "$OUT/mm256-sim.txt" "$OUT/mm256-$v.txt" && echo same || echo DIFFERS)"; done
cat "$OUT/mm256-sim.txt"
for t in memcheck racecheck synccheck; do
    timeout 150 compute-sanitizer --tool $t --error-exitcode 99 /tmp/mm256 -p 65536 > "$OUT/san-mm256-$t.log" 2>&1 &
done
wait
for t in memcheck racecheck synccheck; do
    echo "$t: $(grep -m1 -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/san-mm256-$t.log")"
done
at mm256
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
