# Session 26, device run F: a small group's iteration with the GPU otherwise idle. The stamped
# .cu of run D (`op`) at P = 2 (one group of two partitions all 10^6 keys: 500,000
# iterations) and P = 32; at P = 4096 again; and at P = 4096 with the idle passes sleeping
# 1000 ns instead of 64 (`oi`: fk_idle, the runner warps' and the teams' polling).
C=$PWD/.device-bin/s26b/forkcc; . scripts/results-lib.sh
D=$PWD/.device-bin/s26d
for v in op oi; do nvcc -arch=sm_90 -o /tmp/$v $D/$v.o; done
for run in "op 2" "op 32" "op 4096" "oi 4096" "op 4096" "oi 4096"; do set -- $run
  t=$(date +%s%N); timeout 60 /tmp/$1 -p $2 > $OUT/$1-$2.out 2> $OUT/$1-$2.err; at "$1 -p $2 rc=$? ms=$(( ($(date +%s%N) - t) / 1000000 ))"; grep prof $OUT/$1-$2.err
done
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
