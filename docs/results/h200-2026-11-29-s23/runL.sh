# Session 23, device run L: Hillis–Steele's `seq` check (kernel k2_main, one GPU thread, 2^20
# iterations of a loop that stores nothing) as emitted at 82cf241 (`#pragma unroll 8` on its
# ranged loop, hs_u8.cu) and hand-edited to unroll 16 and 32; Nsight Compute, P = 1024.
. scripts/results-lib.sh 2>/dev/null || true
D=.device-bin/s23e
for v in hs_u8 hs_u16 hs_u32; do
  nvcc -O3 -arch=sm_90 -o /tmp/$v $D/$v.cu 2> $OUT/$v-nvcc.txt
  /tmp/$v -p 1024 > $OUT/$v-out.txt 2>&1
  for i in 1 2; do
    timeout 60 ncu --kernel-name k2_main --metrics gpu__time_duration.sum --csv --cache-control none --clock-control none /tmp/$v -p 1024 > $OUT/$v-ncu$i.txt 2>&1
    echo "$v $i: $(grep gpu__time $OUT/$v-ncu$i.txt | awk -F'","' '{print $NF}' | tr -d '"' | tr '\n' ' ')"
  done
  cat $OUT/$v-out.txt
done
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
