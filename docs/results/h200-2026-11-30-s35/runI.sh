# Session 35: racecheck-probe2.cu (the narrow teams' pattern, closer to fk_device.cuh) over a
# matrix of its parameters, and farm_tasks' device-schedule .cu (s35a, -lineinfo) under
# racecheck with every hazard reported (threads, address, line).
C=$PWD/.device-bin/s35a/forkcc; . scripts/results-lib.sh
R=docs/results/h200-2026-11-30-s35
nvcc -O2 -arch=sm_90 -o /tmp/probe2 $R/racecheck-probe2.cu > $OUT/nvcc-probe2.txt 2>&1 || cat $OUT/nvcc-probe2.txt
mkdir -p $OUT/probe2
for c in "0 5 3 1 0" "64 5 3 1 0" "64 200 3 1 0" "64 5 30 1 0" "64 5 30 3 0" "64 200 30 3 0" "0 200 30 3 0" "64 5 30 3 1" "64 200 30 1 1" "0 5 3 3 1"; do
  set -- $c
  r=$(timeout 60 compute-sanitizer --tool racecheck /tmp/probe2 $1 $2 $3 $4 $5 2>&1)
  echo "$r" > "$OUT/probe2/$1-$2-$3-$4-$5.log"
  echo "probe2 $c: $(echo "$r" | grep -o 'RACECHECK SUMMARY.*')"
done
at probes
$C build classroom-examples/farm_tasks.fork -D TASKS=200 --emit cuda --schedule device -o /tmp/farm.cu
nvcc -O2 -arch=sm_90 -lineinfo -o /tmp/farm /tmp/farm.cu > $OUT/nvcc-farm.txt 2>&1
at farm-built
timeout 120 compute-sanitizer --tool racecheck --racecheck-report hazard --print-limit 40 /tmp/farm -p 8 > $OUT/farm-hazards.log 2>&1
at "farm racecheck rc=$?"
grep -c "Error\|Warning" $OUT/farm-hazards.log; grep -m12 -A4 "Error\|Warning" $OUT/farm-hazards.log | cut -c1-200
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
