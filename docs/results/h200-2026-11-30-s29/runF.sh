# Session 29, device run F: stamps of s29d (`d`) against s29e/reg.o (`reg`: an owned loop's
# --crcw common check of a member with one logged write compares the cell with the write kept
# in registers, by hand).
C=/nonexistent; . scripts/results-lib.sh
nvcc -arch=sm_90 -o /tmp/d $PWD/.device-bin/s29d/new.o; nvcc -arch=sm_90 -o /tmp/reg $PWD/.device-bin/s29e/reg.o
for i in 1 2; do for v in d reg; do
  t=$(date +%s%N); timeout 60 /tmp/$v -p 4096 > $OUT/$v-$i.out 2> $OUT/$v-$i.err; at "$v $i rc=$? ms=$(( ($(date +%s%N) - t) / 1000000 ))"; grep prof $OUT/$v-$i.err; tail -1 $OUT/$v-$i.out
done; done
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
