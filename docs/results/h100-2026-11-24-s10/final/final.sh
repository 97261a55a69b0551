# Session 10, final tree: random programs + rule6, semantics + cpu_plan (first case each), the open device-schedule hang.
export LD_LIBRARY_PATH=/usr/local/cuda-13.0/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
F=$PWD/.device-bin/s10/forkcc-final; t0=$(date +%s)
H=tests/random/open/device_schedule_hang_seq_call_after_subgroup_call_in_start.fork
for p in 3 8; do
  $F sim $H -p $p > $OUT/hang-sim-$p.txt 2>&1; echo "hang sim -p $p rc=$?"
  for s in host device; do timeout 60 $F run $H -p $p --backend gpu --schedule $s --timeout 20 > $OUT/hang-$s-$p.txt 2>&1; echo "hang $s -p $p rc=$? $(cmp -s $OUT/hang-sim-$p.txt $OUT/hang-$s-$p.txt && echo same-as-sim || echo differs)"; done
done
BIN=final bash .device-bin/s10/v.sh s10b 200 0 0 tests/random/*.fork transform/tests/rules/rule6*.fork
BIN=final bash .device-bin/s10/v.sh s10c 260 0 1 tests/semantics/*.fork tests/cpu_plan/*.fork
