# Session 35, device run Q: run P's barrier step at P = 32 on the device schedule (3.42 us)
# against session 34's run E (2.94 us with s34d): s34e and s35b in one call, to tell the code
# from the call.
C=$PWD/.device-bin/s35b/forkcc; . scripts/results-lib.sh
for v in s34e s35b s34e s35b; do
    C=$PWD/.device-bin/$v/forkcc
    b q-$v 60 overhead --program barrier --program split --procs 32 --backends gpu-device --runs 5
    grep -A6 "cost per step" $OUT/q-$v.txt | tail -3
    mv $OUT/q-$v.txt $OUT/q-$v-$(date +%s).txt; rm -rf $OUT/q-$v
done
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
