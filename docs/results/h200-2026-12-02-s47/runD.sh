# Session 47, device run D: a grid region's team thread keeps its first two members'
# FkThreads under the device schedule (s47c, the working tree on 9c037de2) against s47b
# (52fbbc18): Hillis-Steele 2^20, list ranking 2^18 and the grid barrier step at P = 65,536
# (most team threads have two members), sieve 10^7 at 16,384 (one); then s47c on the GPU:
# every classroom example's first case with compute-sanitizer, Hillis-Steele's .cu at
# P = 40,000 (up to two members a thread) under the three tools, a fault at 65,536 on both
# schedules against the simulator.
. scripts/results-lib.sh
for i in 1 2; do for v in s47b s47c; do
    C=$PWD/.device-bin/$v/forkcc
    b hs-$v-$i 60 prefix --program prefix_hillis_steele --n 1048576 --procs 65536 --backends gpu-device --runs 5
    b lr-$v-$i 60 list_ranking --n 262144 --procs 65536 --backends gpu-device --runs 5
done; done
for v in s47b s47c; do
    C=$PWD/.device-bin/$v/forkcc
    b gb-$v 60 overhead --program grid_barrier --procs 65536 --backends gpu-device --runs 5
    b sv-$v 60 sieve --n 10000000 --procs 16384 --backends gpu-device --runs 5
done
C=$PWD/.device-bin/s47c/forkcc
sanitize_hs 40000
timeout 150 "$C" sim tests/semantics/grid_region_fault.fork -p 65536 > /tmp/fault-sim.out 2> $OUT/fault-sim.err
for s in host device; do
    timeout 60 "$C" run --backend gpu --schedule $s tests/semantics/grid_region_fault.fork -p 65536 > /tmp/fault-$s.out 2> $OUT/fault-$s.err
    echo "fault $s rc=$? $(wc -l < /tmp/fault-$s.out) lines, stdout as sim: $(cmp -s /tmp/fault-$s.out /tmp/fault-sim.out && echo yes || echo no), first stderr line as sim: $(cmp -s <(head -1 $OUT/fault-$s.err) <(head -1 $OUT/fault-sim.err | sed 's/ at PRAM step [0-9]*//') && echo yes || echo no)"
done
at stops
verify v1 250 1 1 $(ls classroom-examples/*.fork | tr '\n' ' ')
at done
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
