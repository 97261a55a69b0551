# Session 17, device run 6 (d = main ea46c6f, the final tree's code): the programs whose
# CUDA changed after run 5, on all five backends.
export LD_LIBRARY_PATH=/usr/local/cuda-13.0/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
export PATH=/usr/local/cuda-13.0/bin:$PATH
D=$PWD/.device-bin/s17/forkcc-d
FILES="transform/tests/rules/rule3_predicated_arms.fork tests/random/predicated_condition_calls_lockstep_straight.fork" SANITIZE=0 timeout 120 bash scripts/gpu-verify.sh $D /tmp/verify > /tmp/verify.log 2>&1
cp /tmp/verify/summary.txt $OUT/verify-summary.txt 2>/dev/null || cp /tmp/verify/progress.txt $OUT/verify-progress.txt
nvidia-smi --query-gpu=name,driver_version --format=csv > $OUT/gpu.txt 2>&1
