# Session 23, device run H: how the device schedule's grid regions depend on the team's
# threads. A binary of run G's code with the driver's count of runner threads per block taken
# from FK_EXP_RUNNERS (not committed; the team is the other 640 - runners threads of each
# block). Hillis–Steele 2^20 at P = 65,536 and sieve 10^7 at P = 16,384 on the device
# schedule with 32, 128 and the default 320 runners; quicksort 10^6 at P = 4096 (default 32
# runners) with 32 only for reference is not run (unchanged).
C=$PWD/.device-bin/s23b/forkcc; . scripts/results-lib.sh
for r in 32 128 320; do
  FK_EXP_RUNNERS=$r b prefix-r$r 50 prefix --program prefix_hillis_steele --n 1048576 --procs 65536 --backends gpu-device --runs 5
  FK_EXP_RUNNERS=$r b sieve-r$r 50 sieve --n 10000000 --procs 16384 --backends gpu-device --runs 5
done
FK_EXP_RUNNERS=32 b overhead-r32 60 overhead --program grid_barrier --procs 65536 --backends gpu-device --runs 5
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
