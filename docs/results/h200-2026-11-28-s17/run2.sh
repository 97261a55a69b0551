# Session 17, device run 2 (b = predicated arms, allocation pointers, returns every member
# takes; forkcc test skips simulator-only cases on the GPU): quicksort on both schedules,
# the verification of every program whose Plan changed, the quicksort bench, every
# classroom case on the device schedule.
export LD_LIBRARY_PATH=/usr/local/cuda-13.0/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
export PATH=/usr/local/cuda-13.0/bin:$PATH
export FORKCC_CACHE_DIR=/tmp/cache
B=$PWD/.device-bin/s17/forkcc-b
Q="classroom-examples/quicksort.fork -p 4096 -D N=1000000 --backend gpu --stats"
mkdir -p /tmp/r2/t; t0=$(date +%s); at() { echo "$1 at $(( $(date +%s) - t0 )) s"; }
nvidia-smi --query-gpu=name,driver_version --format=csv > /tmp/r2/gpu.txt 2>&1
( time timeout 110 $B run $Q --schedule device --trace /tmp/r2/qs-dev.json ) > /tmp/r2/qs-dev-stats.txt 2>&1
gzip /tmp/r2/qs-dev.json; at "qs device"; grep -A5 "^kernels\|^device time" /tmp/r2/qs-dev-stats.txt | cut -c1-160
( time timeout 60 $B run $Q --schedule host ) > /tmp/r2/qs-host-stats.txt 2>&1
at "qs host"; grep -A5 "^kernels\|^device time" /tmp/r2/qs-host-stats.txt | cut -c1-160; tail -3 /tmp/r2/qs-host-stats.txt
V="classroom-examples/quicksort.fork classroom-examples/pack.fork classroom-examples/odd_even_sort.fork classroom-examples/crcw_max.fork classroom-examples/merge.fork transform/tests/rules/rule3_predicated_arms.fork transform/tests/rules/fig4_if_on_processor_id.fork transform/tests/rules/rule4_cyclic_loop.fork transform/tests/rules/rule1_read_before_write.fork tests/semantics/output_order_split.fork tests/semantics/fault_sibling_race.fork tests/semantics/shmalloc.fork tests/semantics/crcw_priority.fork tests/semantics/sh_argument_exclusive_write.fork"
FILES="$V" SANITIZE=1 SANITIZE_TIMEOUT=45 timeout 220 bash scripts/gpu-verify.sh $B /tmp/r2/verify > /tmp/r2/verify.log 2>&1
at "verify"; grep -E "^cases|^case|ok|differ|DIFF|rc=" /tmp/r2/verify/summary.txt 2>/dev/null | grep -v "0 errors\|0 hazards" | head -40 || tail -30 /tmp/r2/verify/progress.txt
timeout 60 $B bench quicksort --n 1000000 --procs 4096 --runs 3 --backends gpu-device,seq --out /tmp/r2/qs-bench > /tmp/r2/qs-bench.txt 2>&1; at "qs bench"; grep -A4 '^program' /tmp/r2/qs-bench.txt | cut -c1-220
ls classroom-examples/*.fork | xargs -P 14 -I{} sh -c "timeout 60 $B test {} --backend gpu --schedule device > /tmp/r2/t/\$(basename {}).txt 2>&1; echo rc=\$? >> /tmp/r2/t/\$(basename {}).txt"
at "classroom"; grep -h -E "FAILED|passed|rc=" /tmp/r2/t/*.txt | paste - - | sort | uniq -c
tar czf $OUT/r2.tgz -C /tmp --exclude=cache r2
