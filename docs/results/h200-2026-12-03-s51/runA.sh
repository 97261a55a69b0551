# Session 51, device run A: the GPU verification session 50 owed for its tree (50b03a3f, `s50`):
# every classroom example's first case, tests/semantics/loads_ahead.fork and
# tests/semantics/fault_loads_ahead_tested.fork on every backend with compute-sanitizer (v1),
# then every case of fault_loads_ahead_tested.fork without it (v2).
. scripts/results-lib.sh
C=$PWD/.device-bin/s50/forkcc
verify v1 360 1 1 classroom-examples/*.fork tests/semantics/loads_ahead.fork tests/semantics/fault_loads_ahead_tested.fork
verify v2 120 0 0 tests/semantics/fault_loads_ahead_tested.fork
at done
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
