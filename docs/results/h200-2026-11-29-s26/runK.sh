# Session 26, device run K: what the partition loop costs written by hand (hand_loop.py over
# the final tree's stamped .cu: `hp`; for a group whose members all entered and fit the team,
# one thread each, the private values in registers, the mpadds block scans, no checks),
# against the final tree (`np`). P = 4096 twice and P = 2 once. The program prints whether its
# result is sorted, and its sum.
C=$PWD/.device-bin/s26e/forkcc; . scripts/results-lib.sh
D=$PWD/.device-bin/s26d
for v in np hp; do nvcc -arch=sm_90 -o /tmp/$v $D/$v.o; done
for run in "np 4096" "hp 4096" "np 4096" "hp 4096" "hp 2"; do set -- $run
  t=$(date +%s%N); timeout 60 /tmp/$1 -p $2 > $OUT/$1-$2.out 2> $OUT/$1-$2.err; at "$1 -p $2 rc=$? ms=$(( ($(date +%s%N) - t) / 1000000 ))"; cat $OUT/$1-$2.out; grep prof $OUT/$1-$2.err
done
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
