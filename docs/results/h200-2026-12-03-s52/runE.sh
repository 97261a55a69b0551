# Session 52, device run E: a call whose callee starts with a region that the group runs as
# a task no longer meets at the callee's entry (`s52b`: the members meet at the region,
# fk_s_call_enter); run D found that meeting a pass over the members of 24 us at P = 65,536.
# `forkcc bench` of `s52a` and `s52b` on the device schedule: Hillis-Steele 2^20 at P =
# 65,536 and 1024, list ranking 2^18 at 65,536, sieve 10^7 at 16,384; then the verification
# of `s52b`: every classroom example's first case and the semantics programs with calls
# (straight_call_sync, sync_recursion, seqpoint_call, async_call_from_sync) on every backend with
# compute-sanitizer (v1).
. scripts/results-lib.sh
for v in s52a s52b; do
    C=$PWD/.device-bin/$v/forkcc
    b hs-$v 60 prefix --program prefix_hillis_steele --n 1048576 --procs 65536 --procs 1024 --backends gpu-device --runs 5
    b lr-$v 30 list_ranking --n 262144 --procs 65536 --backends gpu-device --runs 5
    b sieve-$v 40 sieve --n 10000000 --procs 16384 --backends gpu-device --runs 5
done
C=$PWD/.device-bin/s52b/forkcc
S=tests/semantics
verify v1 330 1 1 classroom-examples/*.fork $S/straight_call_sync.fork $S/sync_recursion.fork \
    $S/seqpoint_call.fork $S/async_call_from_sync.fork
at done
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
