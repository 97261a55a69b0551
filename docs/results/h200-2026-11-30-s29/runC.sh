# Session 29, device run C: what is left of the checks and the --crcw common log in a small
# group's iteration, by hand edits of s29a's stamped quicksort_balanced (`base`, bb9bd46's
# code): `in` tries the thread's object before the last inline at the access site before
# the miss's call; `tag` stores the step tag without loading the group's step (a wrong tag:
# measures the load only); `all` both, and fk_log_begin without the fault flag's read.
C=/nonexistent; . scripts/results-lib.sh
A=$PWD/.device-bin/s29a; X=$PWD/.device-bin/s29c
nvcc -arch=sm_90 -o /tmp/base $A/new.o
for v in in tag all; do nvcc -arch=sm_90 -o /tmp/$v $X/$v.o; done
for i in 1 2; do for v in base in tag all; do
  t=$(date +%s%N); timeout 60 /tmp/$v -p 4096 > $OUT/$v-$i.out 2> $OUT/$v-$i.err; at "$v $i rc=$? ms=$(( ($(date +%s%N) - t) / 1000000 ))"; grep prof $OUT/$v-$i.err; tail -1 $OUT/$v-$i.out
done; done
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
