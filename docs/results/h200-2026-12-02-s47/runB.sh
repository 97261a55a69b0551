# Session 47, device run B: the tree with the new grid barrier (s47b = 52fbbc18's code) on
# the GPU: every classroom example's first case with compute-sanitizer; a fault and the step
# limit inside a grid region at P = 65,536 (the stop bit carried by the barrier's word) on
# both schedules against the simulator; sieve against sequential Rust and Hillis-Steele
# against the hand-written CUDA in one call; Hillis-Steele's device .cu at P = 40,000 under
# the three sanitizer tools.
. scripts/results-lib.sh
C=$PWD/.device-bin/s47b/forkcc
verify v1 260 1 1 $(ls classroom-examples/*.fork | tr '\n' ' ')
timeout 150 "$C" sim tests/semantics/grid_region_fault.fork -p 65536 > /tmp/fault-sim.out 2> $OUT/fault-sim.err
echo "fault sim rc=$? $(wc -l < /tmp/fault-sim.out) lines: $(head -1 $OUT/fault-sim.err)"
for s in host device; do
    timeout 60 "$C" run --backend gpu --schedule $s tests/semantics/grid_region_fault.fork -p 65536 > /tmp/fault-$s.out 2> $OUT/fault-$s.err
    echo "fault $s rc=$? $(wc -l < /tmp/fault-$s.out) lines, stdout as sim: $(cmp -s /tmp/fault-$s.out /tmp/fault-sim.out && echo yes || echo no), stderr as sim: $(cmp -s $OUT/fault-$s.err $OUT/fault-sim.err && echo yes || echo no)"
    timeout 60 "$C" run --backend gpu --schedule $s tests/semantics/grid_region_step_limit.fork -p 65536 --max-steps 2006 > $OUT/steps-$s.out 2> $OUT/steps-$s.err
    echo "steps $s: rc=$? $(head -1 $OUT/steps-$s.err)"
done
at stops
b sv 60 sieve --n 10000000 --procs 16384 --backends gpu,gpu-device,seq --runs 5
b hs 60 prefix --program prefix_hillis_steele --n 1048576 --procs 65536 --backends gpu,gpu-device,cuda-hand --runs 5
sanitize_hs 40000
at done
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
