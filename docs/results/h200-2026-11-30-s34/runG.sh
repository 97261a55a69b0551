# Session 34's prepared test for the next session (not run: no device time was left).
# narrow-barrier-ids.diff gives each narrow team width its own named barrier
# (FK_NARROW_BARRIER + log2(warps), widths rounded up to a power of two of warps), so that no
# barrier id is used with two thread counts; run F's racecheck hazards came after narrow
# phases that used barrier 1 with fewer threads than the full team (docs/device-schedule.md,
# "Known issue: racecheck"). Before the run, here:
#   git apply docs/results/h200-2026-11-30-s34/narrow-barrier-ids.diff
#   cargo build --release && mkdir -p .device-bin/s35a && cp target/release/forkcc .device-bin/s35a/
#   (and the emitted quicksort_balanced.cu -D N=1000000 beside it; s34e's too)
# Then this script: racecheck over the 11 examples that reported hazards (v2), and the
# standalone .cu of s34e against the diff's, 9 rounds interleaved.
C=$PWD/.device-bin/s35a/forkcc; . scripts/results-lib.sh
verify v2 240 1 1 classroom-examples/crcw_max.fork classroom-examples/farm_tasks.fork classroom-examples/groups.fork classroom-examples/list_ranking.fork classroom-examples/merge.fork classroom-examples/odd_even_sort.fork classroom-examples/pack.fork classroom-examples/prefix_blelloch.fork classroom-examples/quicksort.fork classroom-examples/quicksort_balanced.fork classroom-examples/reduce_fork.fork
mkdir -p $OUT/hazards
for f in $(grep -l "RACECHECK SUMMARY: [1-9]" /tmp/v2/logs/*.racecheck.log 2>/dev/null | head -4); do cp $f $OUT/hazards/; done
kernel_build qe .device-bin/s34e/quicksort_balanced.cu & kernel_build qf .device-bin/s35a/quicksort_balanced.cu &
wait; kernel_rounds 9 "-p 4096" qe qf
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
