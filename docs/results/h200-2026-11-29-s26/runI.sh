# Session 26, device run I: a region's subgroups and loop groups without shared locals carry
# their parent's frame (fk_r_inherit_frame, `ip`) against the stamped .cu as it was (`op`):
# P = 2 (one group of two, the GPU otherwise idle) and P = 4096, interleaved.
C=$PWD/.device-bin/s26b/forkcc; . scripts/results-lib.sh
D=$PWD/.device-bin/s26d
for v in op ip; do nvcc -arch=sm_90 -o /tmp/$v $D/$v.o; done
for run in "op 2" "ip 2" "op 4096" "ip 4096" "op 4096" "ip 4096" "op 4096" "ip 4096"; do set -- $run
  t=$(date +%s%N); timeout 60 /tmp/$1 -p $2 > $OUT/$1-$2.out 2> $OUT/$1-$2.err; at "$1 -p $2 rc=$? ms=$(( ($(date +%s%N) - t) / 1000000 ))"; grep prof $OUT/$1-$2.err
done
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
