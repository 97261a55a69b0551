# Session 51, device run F: the verification of this session's tree (`s51a`: a ranged
# loop's checks find the object the thread found before its last one, fk_seen_other):
# every classroom example's first case and the semantics programs of the checks' objects
# (the new fault_free_after_objects_by_turns.fork, fault_two_objects_by_turns.fork,
# fault_free_before_ranged_loop.fork, fault_free_after_settled_loop.fork) on every backend
# with compute-sanitizer (v1); every case of the new program without it (v2); then
# quicksort_balanced 10^6 at P = 4096 on the device schedule (`s51a`; its NVRTC compile
# takes most of the cap).
. scripts/results-lib.sh
C=$PWD/.device-bin/s51a/forkcc
verify v1 300 1 1 classroom-examples/*.fork tests/semantics/fault_free_after_objects_by_turns.fork \
    tests/semantics/fault_two_objects_by_turns.fork tests/semantics/fault_free_before_ranged_loop.fork \
    tests/semantics/fault_free_after_settled_loop.fork
verify v2 60 0 0 tests/semantics/fault_free_after_objects_by_turns.fork
b qsb-s51a 90 quicksort --program quicksort_balanced --n 1000000 --procs 4096 --backends gpu-device --runs 5
at done
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
