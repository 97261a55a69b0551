# Session 28, device run E: the owned loops as emitted (s28d = the working tree after
# 5b662a4: fk_seen_before, FK_R_OWN_LAUNCH_REGS, fk_r_own_*). Stamps of quicksort_balanced's
# partition loop (`dp`: stamp_helpers.py + stamp_owned.py, both loops stamped) against HEAD
# 2094b0a's (`np`, s28a); quicksort_balanced 10^6 at P = 4096 with s27f (f781ce4) and s28d
# with the sequential leaf; every classroom example's first case and the semantics and
# cpu_plan programs with owned loops (all their cases) on the five backends, the classroom
# examples with compute-sanitizer.
C=/nonexistent; . scripts/results-lib.sh
nvcc -arch=sm_90 -o /tmp/np $PWD/.device-bin/s28a/np.o
nvcc -arch=sm_90 -o /tmp/dp $PWD/.device-bin/s28d/dp.o
for i in 1 2; do for v in np dp; do
  t=$(date +%s%N); timeout 60 /tmp/$v -p 4096 > $OUT/$v-$i.out 2> $OUT/$v-$i.err; at "$v $i rc=$? ms=$(( ($(date +%s%N) - t) / 1000000 ))"; grep prof $OUT/$v-$i.err; tail -1 $OUT/$v-$i.out
done; done
C=$PWD/.device-bin/s27f/forkcc
b old-qsb 100 quicksort_balanced --n 1000000 --procs 4096 --backends gpu-device --runs 5
C=$PWD/.device-bin/s28d/forkcc
b new-qsb 120 quicksort_balanced --n 1000000 --procs 4096 --backends gpu-device,seq --runs 5
OWNED="do_while_continue fault_crcw_common_beside_order_free_loop fault_in_loop_after_hits fault_two_objects_by_turns loop_ids_fixed_at_entry malloc_private_heap order_free_loop private_break private_continue region_registers seqpoint_full_expression"
FILES="$(for f in $OWNED; do echo -n "tests/semantics/$f.fork "; done)tests/cpu_plan/mixed_constructs.fork" SANITIZE=0 timeout 150 bash scripts/gpu-verify.sh $C /tmp/v1 > $OUT/owned.log 2>&1
at "owned rc=$?"; report /tmp/v1 owned
FILES="$(ls classroom-examples/*.fork | tr '\n' ' ') tests/semantics/pointer_one_past_end.fork tests/semantics/mpadd_order.fork tests/semantics/multiprefix_wide.fork tests/semantics/mpmax_mpmin.fork" FIRST_ONLY=1 SANITIZE=1 SANITIZE_TIMEOUT=25 timeout 300 bash scripts/gpu-verify.sh $C /tmp/v0 > $OUT/verify.log 2>&1
at "verify rc=$?"; report /tmp/v0 verify; grep -E "^cases|memcheck|racecheck|synccheck" /tmp/v0/summary.txt | awk '{print $2, $3, $4}' | sort | uniq -c | sort -rn | head
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
