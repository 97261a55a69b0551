# Session 54, device run A: Hillis-Steele 2^20's grid region timed by part on equal threads:
# the host schedule's region kernel, the device schedule's region inside the persistent
# kernel and on a launch of its own (session 53's handoff_hs.py), each with session 51's
# prof2_hs.py and blocks_hs.py (each block's kernels, team counts and grid arrivals).
C=$PWD/.device-bin/s54/forkcc
. scripts/results-lib.sh
cp classroom-examples/lcg.h /tmp/
E=.device-bin/exp54
for v in hs_host_prof_blk hs_device_prof_blk hs_device_ho_prof_blk; do
    cu_build $v $E/$v.cu &
done
wait
at built
prof_runs "65536 16384" 3 hs_host_prof_blk hs_device_prof_blk hs_device_ho_prof_blk
for f in "$OUT"/*.out; do grep -h fkblk "$f" | sed "s|^|$(basename "$f") |"; done | tee "$OUT/blk.txt"
at done
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
