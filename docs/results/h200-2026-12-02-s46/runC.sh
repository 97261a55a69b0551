# Session 46, device run C. s46c: run B's s46b with the wide grid region's two barriers in one
# function for team and runner warps (run B's synccheck reported the runners meeting the team
# at another instruction as divergent), and an output overflow reported before a fault. s46d:
# s46c without the runner loop's part of the wide regions (a runner never joins: only for
# timing rows that do not widen). Hillis-Steele 2^20 and list ranking 2^18 at P = 65,536
# (no widening) on s46a (70271ab0), s46c, s46d, twice in turn; Hillis-Steele at P = 2^20.
# Then s46c: Hillis-Steele's nvcc build at P = 40,000 (wide) under compute-sanitizer, and
# grid_region_fault.fork at 2^20, whose printf records overflow the 64 MiB buffer.
. scripts/results-lib.sh
for r in 1 2; do
    for c in s46a s46c s46d; do
        C=$PWD/.device-bin/$c/forkcc
        b hs-$c-$r 100 prefix --program prefix_hillis_steele --n 1048576 --procs 65536 --backends gpu-device --runs 5
        b lr-$c-$r 60 list_ranking --n 262144 --procs 65536 --backends gpu-device --runs 5
    done
done
C=$PWD/.device-bin/s46c/forkcc
b hsw-s46c 100 prefix --program prefix_hillis_steele --n 1048576 --procs 1048576 --backends gpu-device --runs 5
sanitize_hs 40000
timeout 60 "$C" run --backend gpu --schedule device tests/semantics/grid_region_fault.fork -p 1048576 > $OUT/fault-gpu.out 2> $OUT/fault-gpu.err
echo "fault: gpu rc=$? $(wc -l < $OUT/fault-gpu.out) lines"; head -3 $OUT/fault-gpu.err
at done
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
