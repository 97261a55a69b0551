# Session 43, device run D: the binary of 35e1d46a (s43). The first case of every
# tests/semantics and tests/cpu_plan program with a `-p 1` run line, on every backend (v3).
C=$PWD/.device-bin/s43/forkcc; . scripts/results-lib.sh
verify v3 300 1 0 $(grep -l "run:.*-p 1\b" tests/semantics/*.fork tests/cpu_plan/*.fork classroom-examples/*.fork | grep -v "^classroom" | tr '\n' ' ')
at done
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
