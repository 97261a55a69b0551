# Session 22, device run B (913811d): where Hillis-Steele 2^20's algorithm time at P = 65,536
# goes outside its region kernel (Nsight Systems, or Nsight Compute's kernel list), and the
# region kernel of the hand-edited .cu variants at P = 1024 (base; fast loops without
# fk_spin; in a function with __restrict__ parameters, without and with fk_spin).
export LD_LIBRARY_PATH=/usr/local/cuda-13.0/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
export PATH=/usr/local/cuda-13.0/bin:$PATH
export FORKCC_CACHE_DIR=/tmp/cache
D=$PWD/.device-bin/s22a; C=$D/forkcc
t0=$(date +%s); at() { echo "== $1 at $(( $(date +%s) - t0 )) s" | tee -a $OUT/times.txt; }
HS="classroom-examples/prefix_hillis_steele.fork -D N=1048576"
for v in base nospin restrict restrict_spin; do nvcc -O3 -arch=sm_90 -o /tmp/hs_$v $D/hs_$v.cu > $OUT/nvcc-$v.txt 2>&1 & done
$C run $HS -p 65536 --backend gpu --stats > $OUT/hs-stats.txt 2>&1
$C run $HS -p 65536 --backend gpu --stats >> $OUT/hs-stats.txt 2>&1
wait; at "nvcc and stats"
which nsys ncu > $OUT/tools.txt 2>&1; ls /usr/local/cuda-13.0/bin >> $OUT/tools.txt
NSYS=$(which nsys || ls /usr/local/cuda*/bin/nsys /opt/nvidia/nsight-systems/*/bin/nsys 2>/dev/null | head -1)
if [ -n "$NSYS" ]; then
    $NSYS profile --trace=cuda --output /tmp/hs --force-overwrite true $C run $HS -p 65536 --backend gpu > $OUT/nsys.txt 2>&1
    $NSYS stats --report cuda_gpu_trace --report cuda_api_trace --format csv --output $OUT/hs-nsys /tmp/hs.nsys-rep >> $OUT/nsys.txt 2>&1
    at "nsys"
fi
ncu --cache-control none --clock-control none --metrics gpu__time_duration.sum --csv $C run $HS -p 65536 --backend gpu > $OUT/hs-ncu-all.csv 2>&1
at "ncu all kernels"
for v in base nospin restrict restrict_spin; do
    /tmp/hs_$v -p 1024 > $OUT/hs1024-$v.out 2>&1; tail -1 $OUT/hs1024-$v.out
    for r in 1 2 3; do
        ncu --kernel-name r0_hillis_steele_scan --launch-count 1 --cache-control none --clock-control none \
            --metrics gpu__time_duration.sum --csv /tmp/hs_$v -p 1024 2>/dev/null | grep gpu__time_duration | tail -1 >> $OUT/hs1024-$v-ncu.csv
    done
    echo "$v: $(awk -F'","' '{gsub(/[",]/,"",$NF); print $NF}' $OUT/hs1024-$v-ncu.csv | sort -n | tr '\n' ' ')"
done | tee $OUT/hs1024-variants.txt
at "variants"
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
