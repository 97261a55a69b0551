# Session 42, device run B (run A's verification ran out of its call's 600 s): every
# classroom example's first case with compute-sanitizer memcheck, racecheck and synccheck
# (v1); the first case of every program with a `-p 1` run line on every backend (v3).
C=$PWD/.device-bin/s42/forkcc; . scripts/results-lib.sh
verify v1 290 1 1 $(ls classroom-examples/*.fork | tr '\n' ' ')
verify v3 230 1 0 $(grep -l "run:.*-p 1\b" tests/semantics/*.fork tests/cpu_plan/*.fork classroom-examples/*.fork | grep -v "^classroom" | tr '\n' ' ')
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
