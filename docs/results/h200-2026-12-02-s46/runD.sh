# Session 46, device run D: synccheck on probe/named_barrier_sites.cu's four kernels (a named
# barrier of the whole block met from one function called at two sites, and the variants),
# and run C's synccheck of Hillis-Steele at P = 40,000 (s46c, wide) with every report kept,
# summarised by block and warp. Then the final tree (s46e: the wide grid regions left out,
# an output overflow reported before a fault): every classroom example's first case with
# compute-sanitizer, grid_region_fault.fork at 2^20 (its records overflow the 64 MiB buffer)
# and grid_region_step_limit.fork at 65,536 against the simulator.
. scripts/results-lib.sh
nvcc -O2 -arch=sm_90 docs/results/h200-2026-12-02-s46/probe/named_barrier_sites.cu -o /tmp/nb > $OUT/nvcc-nb.txt 2>&1; at "nvcc rc=$?"
for v in 1 2 3 4; do
    compute-sanitizer --tool synccheck /tmp/nb $v > $OUT/nb-$v.log 2>&1
    echo "variant $v: $(grep -m1 'ERROR SUMMARY' $OUT/nb-$v.log) $(grep -m1 'Barrier error\|Divergent' $OUT/nb-$v.log)"
done
C=$PWD/.device-bin/s46c/forkcc
"$C" build --schedule device --emit cuda classroom-examples/prefix_hillis_steele.fork -D N=40000 > /tmp/hs.cu
nvcc -O2 -arch=sm_90 /tmp/hs.cu -o /tmp/hs > $OUT/nvcc-hs.txt 2>&1; at "nvcc rc=$?"
timeout 200 compute-sanitizer --tool synccheck --print-limit 1000000 /tmp/hs -p 40000 > /tmp/san.log 2>&1
grep -m1 "ERROR SUMMARY" /tmp/san.log
grep "by thread" /tmp/san.log | sed 's/.*by thread (\([0-9]*\),0,0) in block (\([0-9]*\),0,0)/\2 \1/' |
    awk '{w=int($2/32); k=$1" "w; c[k]++} END{for(k in c) print k, c[k]}' | sort -n -k1 -k2 > $OUT/san-hs-by-warp.txt
echo "blocks reported: $(awk '{print $1}' $OUT/san-hs-by-warp.txt | sort -u | wc -l), warps: $(wc -l < $OUT/san-hs-by-warp.txt)"
awk '{print $2}' $OUT/san-hs-by-warp.txt | sort -n | uniq -c
awk '{print $3}' $OUT/san-hs-by-warp.txt | sort -n | uniq -c
grep "  at " /tmp/san.log | sort | uniq -c
head -30 $OUT/san-hs-by-warp.txt
C=$PWD/.device-bin/s46e/forkcc
timeout 60 "$C" run --backend gpu --schedule device tests/semantics/grid_region_fault.fork -p 1048576 > /tmp/fault.out 2> $OUT/fault-gpu.err
echo "fault: gpu rc=$? $(wc -l < /tmp/fault.out) lines"; head -3 $OUT/fault-gpu.err
for s in host device; do
    timeout 60 "$C" run --backend gpu --schedule $s tests/semantics/grid_region_step_limit.fork -p 65536 --max-steps 2006 > $OUT/steps-$s.out 2> $OUT/steps-$s.err
    echo "steps $s: rc=$? $(head -1 $OUT/steps-$s.err)"
done
at stops
verify v1 280 1 1 $(ls classroom-examples/*.fork | tr '\n' ' ')
at done
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
