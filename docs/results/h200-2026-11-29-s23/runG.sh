# Session 23, device run G: one launch for a call's entry (fk_call_copies) and grid regions of
# a group of every processor on every block's team under the device schedule. Every classroom
# example's first case on the five backends; every case of the programs with calls and of the
# grid_region_* programs; Hillis–Steele 2^20 and sieve 10^7 rows on both schedules; the seq
# check of Hillis–Steele under Nsight Compute, as emitted (hs.cu) and hand-edited to load 8
# iterations ahead (hs_seqahead.cu).
C=$PWD/.device-bin/s23a/forkcc; . scripts/results-lib.sh
FILES="$(ls classroom-examples/*.fork | tr '\n' ' ')" FIRST_ONLY=1 SANITIZE=0 timeout 150 bash scripts/gpu-verify.sh $C /tmp/v0 > /tmp/v0.log 2>&1
at "classroom verify rc=$?"; report /tmp/v0 classroom
S=tests/semantics
FILES="$S/async_call_from_sync.fork $S/async_call_in_expression.fork $S/fault_recursion_depth.fork $S/private_return.fork $S/private_return_in_loop.fork $S/seqpoint_call.fork $S/sh_argument_exclusive_write.fork $S/straight_call_sync.fork $S/sync_recursion.fork $(ls $S/grid_region_*.fork | tr '\n' ' ')" SANITIZE=0 timeout 100 bash scripts/gpu-verify.sh $C /tmp/v1 > /tmp/v1.log 2>&1
at "calls verify rc=$?"; report /tmp/v1 calls
b prefix 70 prefix --program prefix_hillis_steele --n 1048576 --procs 65536 --procs 1024 --backends gpu,gpu-device,cuda-hand --runs 5
b sieve 60 sieve --n 10000000 --procs 1024 --procs 16384 --backends gpu,gpu-device,seq --runs 5
D=.device-bin/s23a
for v in hs hs_seqahead; do
  nvcc -O3 -arch=sm_90 -o /tmp/$v $D/$v.cu 2> $OUT/$v-nvcc.txt
  /tmp/$v -p 1024 > $OUT/$v-out.txt 2>&1
  timeout 60 ncu --kernel-name k2_main --metrics gpu__time_duration.sum --csv --cache-control none --clock-control none /tmp/$v -p 1024 > $OUT/$v-ncu.txt 2>&1
  at "$v rc=$?"; grep gpu__time $OUT/$v-ncu.txt | tail -2; cat $OUT/$v-out.txt
done
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
