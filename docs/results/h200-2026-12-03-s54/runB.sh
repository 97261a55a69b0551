# Session 54, device run B: a grid region's members spread evenly over the teams (fk_g_shape,
# `s54g`) against a width of n / blocks in every block (`s54`): forkcc bench of Hillis-Steele
# 2^20, list ranking 2^18 and sieve 10^7 at processor counts that are not a multiple of the
# persistent kernel's blocks, device schedule; and session 53's handoff prototype again on
# s54g's `.cu` (its region on 264 blocks now one member a thread), timed by part and whole.
C=$PWD/.device-bin/s54g/forkcc
. scripts/results-lib.sh
cp classroom-examples/lcg.h /tmp/
E=.device-bin/exp54
for v in hsg_prof_blk hsg_ho_prof_blk hsg_ho lrg_ho; do cu_build $v $E/$v.cu & done
for v in hsg lrg; do kernel_build $v $E/$v.cu & done
wait
at built
prof_runs "65536" 3 hsg_prof_blk hsg_ho_prof_blk
for f in "$OUT"/hsg*blk*.out; do grep -h fkblk "$f" | sed "s|^|$(basename "$f") |"; done | tee "$OUT/blk.txt"
kernel_rounds 7 "-p 65536" hsg hsg_ho lrg lrg_ho
for v in hsg_ho lrg_ho; do grep -h "fkh" "$OUT"/$v-*.err | sort | uniq -c | sort -rn | head -12; done
for v in hsg hsg_ho lrg lrg_ho; do md5sum "$OUT/$v-1.out"; done
rm -f "$OUT"/*.out
for v in s54 s54g; do
    C=$PWD/.device-bin/$v/forkcc
    b hs-$v 90 prefix --program prefix_hillis_steele --n 1048576 --procs 1000 --procs 20000 --procs 65536 --backends gpu-device --runs 5
    b lr-$v 60 list_ranking --n 262144 --procs 1000 --procs 20000 --backends gpu-device --runs 5
    b sieve-$v 60 sieve --n 10000000 --procs 1000 --procs 10000 --backends gpu-device --runs 5
done
at done
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
