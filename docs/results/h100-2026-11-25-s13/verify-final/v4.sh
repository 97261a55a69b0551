# Session 13, final tree (uniform conditions): every classroom case and the programs the corpus run did not reach or that are new, on five backends, no sanitizer. BIN=x LIMIT=s bash .device-bin/s13/v4.sh
export LD_LIBRARY_PATH=/usr/local/cuda-13.0/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
export PATH=/usr/local/cuda-13.0/bin:$PATH
t0=$(date +%s)
[ -e /work/main ] || { mkdir -p /work && ln -s "$PWD" /work/main; }
bash .device-bin/s13/v.sh final $LIMIT 0 0 classroom-examples/*.fork tests/cpu_plan/{function_results,leaving_constructs,mixed_constructs,pointers_and_heap,sequence_points,start_under_private_condition,switch_breaks}.fork tests/random/{uniform_loop_in_function_called_under_and,compound_assignment_of_private_reads_before_call,order_free_loop_same_value_in_two_statements,async_assignment_of_call_place_before_call,sync_assignment_of_call_place_before_call}.fork tests/semantics/{assignment_place_before_value,order_free_loop}.fork
echo "all at $(( $(date +%s) - t0 )) s"
