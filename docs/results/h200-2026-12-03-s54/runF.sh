# Session 54, device run F: matmul 2048 at P = N^2 on the device schedule's standalone `.cu`
# of s54f (8ecc8895), the persistent kernel's time (time_kernel.py): 640 runners a block (no
# region tasks) against 320 (-DFK_DEVICE_RUNNERS=320, the rule before 8ecc8895), each with and
# without the `seq` checksum loop (`_noseq`), and 640 with idle runner warps napping 1,024 ns
# instead of 64 (`_nap`): run E's whole program took 235.4 ms against run C's 167.2 ms.
C=$PWD/.device-bin/s54f/forkcc
. scripts/results-lib.sh
cp classroom-examples/lcg.h /tmp/
E=.device-bin/exp54
kernel_build mm640 $E/mm.cu & kernel_build mm320 $E/mm.cu -DFK_DEVICE_RUNNERS=320 &
kernel_build mm640_noseq $E/mm_noseq.cu & kernel_build mm320_noseq $E/mm_noseq.cu -DFK_DEVICE_RUNNERS=320 &
kernel_build mm640_nap $E/mm_nap.cu &
wait
at built
kernel_rounds 3 "-p 4194304" mm640 mm320 mm640_noseq mm320_noseq mm640_nap
grep -h "checksum" "$OUT"/mm640-1.out "$OUT"/mm320-1.out "$OUT"/mm640_nap-1.out
rm -f "$OUT"/*.out
at done
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
