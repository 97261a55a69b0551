# Session 17, device run 1 (a = b44a40b: region tasks in turn over the blocks, fault order):
# quicksort stats + trace + bench, every classroom case on the device schedule, then the
# verification of the device-schedule programs with the sanitizer.
export LD_LIBRARY_PATH=/usr/local/cuda-13.0/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
export PATH=/usr/local/cuda-13.0/bin:$PATH
A=$PWD/.device-bin/s17/forkcc-a
Q="classroom-examples/quicksort.fork -p 4096 -D N=1000000 --backend gpu --schedule device --stats"
mkdir -p /tmp/r1/t; t0=$(date +%s); at() { echo "$1 at $(( $(date +%s) - t0 )) s"; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > $OUT/gpu.txt 2>&1
( time timeout 60 $A run $Q --trace /tmp/qs-a.json ) > /tmp/r1/qs-a-stats.txt 2>&1
gzip -c /tmp/qs-a.json > /tmp/r1/qs-a-trace.json.gz; at "a stats"; grep -A6 "^device time" /tmp/r1/qs-a-stats.txt; tail -4 /tmp/r1/qs-a-stats.txt
ls classroom-examples/*.fork | xargs -P 14 -I{} sh -c "timeout 100 $A test {} --backend gpu --schedule device > /tmp/r1/t/\$(basename {}).txt 2>&1; echo rc=\$? >> /tmp/r1/t/\$(basename {}).txt"
at "classroom"; grep -h -E "FAILED|passed|rc=" /tmp/r1/t/*.txt > /tmp/r1/classroom-device.txt; cat /tmp/r1/classroom-device.txt
timeout 70 $A bench quicksort --n 1000000 --procs 4096 --runs 3 --backends gpu-device,seq --out /tmp/r1/qs-bench > /tmp/r1/qs-bench.txt 2>&1; at "qs bench"; grep -A4 '^program' /tmp/r1/qs-bench.txt | cut -c1-220
FILES="classroom-examples/quicksort.fork classroom-examples/sieve.fork classroom-examples/odd_even_sort.fork classroom-examples/groups.fork classroom-examples/pack.fork tests/random/kernel_statement_fault_of_earliest_statement.fork" FIRST_ONLY=1 SANITIZE=1 SANITIZE_TIMEOUT=60 timeout 240 bash scripts/gpu-verify.sh $A /tmp/r1/verify > /tmp/r1/verify.log 2>&1
at "verify"; tail -25 /tmp/r1/verify/summary.txt 2>/dev/null || tail -30 /tmp/r1/verify/progress.txt
tar czf $OUT/r1.tgz -C /tmp r1
