# Session 50, device run C: run B's quicksort_balanced row for t4b ran into its cap of 50 s
# (s49's took 42 s, most of it NVRTC): again with 150 s, then quicksort_balanced's first
# case on every backend (v1, no sanitizer).
. scripts/results-lib.sh
C=$PWD/.device-bin/t4b/forkcc
b qsb-t4b 150 quicksort --program quicksort_balanced --n 1000000 --procs 4096 --backends gpu-device --runs 5
verify v1 150 1 0 classroom-examples/quicksort_balanced.fork
at done
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
