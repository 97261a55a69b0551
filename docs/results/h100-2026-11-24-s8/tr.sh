# Session 8: seq instances in the GPU trace (both schedules) against the simulator's, and a memcheck of two .cu.
export LD_LIBRARY_PATH=/usr/local/cuda-13.0/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
export PATH=/usr/local/cuda-13.0/bin:$PATH
F=$PWD/.device-bin/ab/forkcc-$BIN
for f in classroom-examples/groups.fork classroom-examples/quicksort.fork tests/semantics/seq_in_async_code.fork; do
  args="-p 4"; [ $f = classroom-examples/quicksort.fork ] && args="-p 8 -D N=200"
  $F sim $f $args --trace /tmp/sim.json > /dev/null 2>&1
  echo "$f sim: $(grep -o '"construct":"seq"' /tmp/sim.json | wc -l) seq slices"
  for s in host device; do
    $F run $f $args --backend gpu --schedule $s --trace /tmp/$s.json > /tmp/$s.out 2>&1; rc=$?
    echo "$f gpu $s rc=$rc: $(grep -o '"construct":"seq"' /tmp/$s.json | wc -l) seq slices"
  done
done
cp /tmp/device.json $OUT/trace-seq_in_async_code-device.json
for f in groups quicksort; do
  $F build classroom-examples/$f.fork --emit cuda --schedule device -o /tmp/$f.cu && nvcc -O2 -arch=sm_90 -o /tmp/$f /tmp/$f.cu 2>&1 | tail -2
  compute-sanitizer --tool memcheck /tmp/$f -p 8 2>&1 | tail -2 | sed "s|^|$f device memcheck: |"
done
