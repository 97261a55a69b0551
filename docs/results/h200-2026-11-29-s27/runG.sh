# Session 27, device run G: the final tree (s27g = abcc4f6: f781ce4's code and
# tests/semantics/region_registers.fork) on the semantics programs whose block regions keep
# private variables in registers and split, loop or multiprefix, and on the fault programs
# whose faults come from such regions: the first case of each on the five backends, without
# the sanitizer (run F ran it on the same code).
C=$PWD/.device-bin/s27g/forkcc; . scripts/results-lib.sh
FILES="tests/semantics/region_registers.fork tests/semantics/crcw_arbitrary.fork tests/semantics/do_while_continue.fork tests/semantics/loop_ids_fixed_at_entry.fork tests/semantics/malloc_private_heap.fork tests/semantics/mpadd_order.fork tests/semantics/mpmax_mpmin.fork tests/semantics/multiprefix_wide.fork tests/semantics/order_free_loop.fork tests/semantics/private_break.fork tests/semantics/private_continue.fork tests/semantics/private_return.fork tests/semantics/seq.fork tests/semantics/seqpoint_full_expression.fork tests/semantics/shared_local_per_group.fork tests/semantics/split_inherits_at_dollar.fork tests/semantics/split_renumbering.fork tests/semantics/syncadd.fork tests/semantics/fault_use_after_free.fork tests/semantics/fault_null_pointer.fork tests/semantics/fault_pointer_out_of_bounds.fork tests/semantics/fault_in_loop_after_hits.fork tests/semantics/fault_step_limit_in_kernel.fork tests/semantics/fault_sibling_race.fork " FIRST_ONLY=1 SANITIZE=0 timeout 230 bash scripts/gpu-verify.sh $C /tmp/v0 > $OUT/verify.log 2>&1
at "verify rc=$?"; report /tmp/v0 verify
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
