# Session 10: after the loop-participants fix (forkcc-fix): the former hang and the random + seq programs on every backend.
export LD_LIBRARY_PATH=/usr/local/cuda-13.0/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
F=$PWD/.device-bin/s10/forkcc-fix
H=tests/random/seq_call_after_subgroup_call_in_start.fork
for p in 3 8; do $F sim $H -p $p > $OUT/sim-$p.txt 2>&1; timeout 60 $F run $H -p $p --backend gpu --schedule device --timeout 20 > $OUT/dev-$p.txt 2>&1; echo "device -p $p rc=$? $(cmp -s $OUT/sim-$p.txt $OUT/dev-$p.txt && echo same-as-sim || echo differs)"; done
BIN=fix bash .device-bin/s10/v.sh s10d 400 0 0 tests/random/*.fork tests/semantics/seq*.fork tests/semantics/*loop*.fork
