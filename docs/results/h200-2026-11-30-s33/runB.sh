# Session 33, device run B: gangs (s33b: an owned loop of a group larger than the team runs
# on several blocks' teams). quicksort_balanced 10^6 at P = 4096 (checked, unchecked, the
# sequential leaf) and its critical path; quicksort.fork; then every case of the classroom
# examples with an owned loop through the device schedule's .cu built with
# -DFK_OWN_TEAM_MAX=2, so that groups of 3 or more members form gangs on the GPU.
C=$PWD/.device-bin/s33b/forkcc; . scripts/results-lib.sh
b b-qsb 80 quicksort_balanced --n 1000000 --procs 4096 --backends gpu-device,gpu-device-unchecked,seq --runs 5
qsb_path b
b b-qs 80 quicksort --program quicksort --n 1000000 --procs 4096 --backends gpu-device --runs 3
CUD_FLAGS=-DFK_OWN_TEAM_MAX=2 verify g2 200 0 0 $(for f in quicksort_balanced quicksort odd_even_sort prefix_blelloch list_ranking pack merge sieve; do echo classroom-examples/$f.fork; done)
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
