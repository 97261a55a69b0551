# Session 32, device run J: the final code's (s32j, 309daa9) trace of quicksort_balanced 10^6
# at P = 4096, its critical path and that path split by part of a level (qsb_path).
C=$PWD/.device-bin/s32j/forkcc; . scripts/results-lib.sh
qsb_path j
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
