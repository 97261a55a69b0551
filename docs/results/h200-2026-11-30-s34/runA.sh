# Session 34, device run A: fewer gang meetings in an owned loop (s34a). The standalone .cu
# of quicksort_balanced and quicksort.fork 10^6 at P = 4096, the persistent kernel's time,
# 9 rounds interleaved:
#   q0     session 33's final emission (s33f's forkcc);
#   q4     s34a's with the two changes undone by sed (4 gang meetings an iteration);
#   qn     s34a's with only the exit's pass undone (3 meetings, each team waits at the exit);
#   qa/ua  s34a's as emitted (3 meetings, a team with members still in passes the exit
#          count; ua unchecked);
#   f4/fa  quicksort.fork, as q4 and qa.
# Then the bench row of quicksort_balanced (checked, unchecked, the sequential leaf) and its
# critical path.
C=$PWD/.device-bin/s34a/forkcc; . scripts/results-lib.sh
D=.device-bin/s34a
undo_pass() { sed -e 's/, it61, 1);/, it61, 0);/' -e 's/, it78, 1);/, it78, 0);/' "$1"; }
undo_sync() { sed 's/(k26_quicksort, g61, own61, fk_team_sync/(k26_quicksort, g61, own61, fk_gang_sync/'; }
undo_pass $D/quicksort_balanced.cu > /tmp/qn.cu
undo_sync < /tmp/qn.cu > /tmp/q4.cu
undo_pass $D/quicksort.cu | undo_sync > /tmp/f4.cu
grep -c "fk_gang_sync, v_2" /tmp/q4.cu /tmp/f4.cu; grep -c "it61, 0)" /tmp/qn.cu /tmp/q4.cu /tmp/f4.cu
kernel_build q0 $D/q0-s33f.cu & kernel_build q4 /tmp/q4.cu &
kernel_build qn /tmp/qn.cu & kernel_build qa $D/quicksort_balanced.cu &
kernel_build ua $D/quicksort_balanced.cu -DFK_CHECKS=0 &
kernel_build f4 /tmp/f4.cu & kernel_build fa $D/quicksort.cu &
wait; at "built"
kernel_rounds 9 "-p 4096" q0 q4 qn qa ua f4 fa
at "rounds"
b a-qsb 80 quicksort_balanced --n 1000000 --procs 4096 --backends gpu-device,gpu-device-unchecked,seq --runs 5
qsb_path a
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
