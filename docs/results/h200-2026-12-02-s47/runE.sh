# Session 47, device run E: run D's two kept members with a thread of one member on its
# own path again (s47d, the working tree) against s47b (52fbbc18): sieve 10^7 at 16,384
# (one member a thread) twice in turn, Hillis-Steele 2^20, list ranking 2^18 and the grid
# barrier step at 65,536 (two); then s47d: Hillis-Steele's .cu at 40,000 under the three
# sanitizer tools, a fault at 65,536 against the simulator, the three grid programs' first
# cases with compute-sanitizer.
. scripts/results-lib.sh
for i in 1 2; do for v in s47b s47d; do
    C=$PWD/.device-bin/$v/forkcc
    b sv-$v-$i 40 sieve --n 10000000 --procs 16384 --backends gpu-device --runs 5
done; done
for v in s47b s47d; do
    C=$PWD/.device-bin/$v/forkcc
    b hs-$v 40 prefix --program prefix_hillis_steele --n 1048576 --procs 65536 --backends gpu-device --runs 5
    b lr-$v 40 list_ranking --n 262144 --procs 65536 --backends gpu-device --runs 5
    b gb-$v 40 overhead --program grid_barrier --procs 65536 --backends gpu-device --runs 5
done
C=$PWD/.device-bin/s47d/forkcc
sanitize_hs 40000
timeout 100 "$C" sim tests/semantics/grid_region_fault.fork -p 65536 > /tmp/fault-sim.out 2> $OUT/fault-sim.err
timeout 60 "$C" run --backend gpu --schedule device tests/semantics/grid_region_fault.fork -p 65536 > /tmp/fault-device.out 2> $OUT/fault-device.err
echo "fault device rc=$? $(wc -l < /tmp/fault-device.out) lines, stdout as sim: $(cmp -s /tmp/fault-device.out /tmp/fault-sim.out && echo yes || echo no)"
verify v1 120 1 1 classroom-examples/sieve.fork classroom-examples/prefix_hillis_steele.fork classroom-examples/list_ranking.fork
at done
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
