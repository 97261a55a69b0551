# Session 23, device run I: what the kernels of Hillis–Steele's grid region (host schedule,
# P = 65,536) pay before their loops. The emitted .cu of run G's code (hs_base.cu, -D
# N=1048576) and two hand edits: the function's shared frame found once per region, in the
# member's FkThread (hs_v1.cu), and the frame's `a`, `b`, `n` read there too (hs_v2.cu). The
# region kernel under Nsight Compute, 3 runs each.
. scripts/results-lib.sh 2>/dev/null || true
D=.device-bin/s23c
for v in hs_base hs_v1 hs_v2; do
  nvcc -O3 -arch=sm_90 -o /tmp/$v $D/$v.cu 2> $OUT/$v-nvcc.txt
  /tmp/$v -p 65536 > $OUT/$v-out.txt 2>&1
  for i in 1 2 3; do
    timeout 60 ncu --kernel-name r0_hillis_steele_scan --metrics gpu__time_duration.sum --csv --cache-control none --clock-control none /tmp/$v -p 65536 > $OUT/$v-ncu$i.txt 2>&1
    echo "$v $i: $(grep gpu__time $OUT/$v-ncu$i.txt | awk -F'","' '{print $NF}' | tr -d '"' | tr '\n' ' ')"
  done
  cat $OUT/$v-out.txt
done
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
