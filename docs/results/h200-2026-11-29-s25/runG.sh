# Session 25, device run G: the programs of the other targets before (a = f3ec219) and after
# (b = 637f4c0) this session's runtime changes, in one call: Hillis–Steele 2^20 at
# P = 65,536 against the hand-written kernels, sieve 10^7 at P = 16,384 (host schedule).
for V in a b; do
  C=$PWD/.device-bin/s25g/forkcc-$V; . scripts/results-lib.sh
  b $V-prefix 35 prefix --program prefix_hillis_steele --n 1048576 --procs 65536 --backends gpu,cuda-hand --runs 5
  b $V-sieve 35 sieve --n 10000000 --procs 16384 --backends gpu --runs 5
done
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
