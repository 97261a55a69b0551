# Session 52, device run A: session 51's prepared experiments on HEAD's (aae743c6) device-
# schedule Hillis-Steele (N = 2^20, the seq check cut): hs_fr (docs/results/h200-2026-12-03-s51/
# frame_hs.py: the grid region loads the shared frame values a, b, n once and passes them to
# its two loop kernels) against hs_device, the persistent kernel's time; and the loop kernels'
# part before their loops split into the frame's loads and the checks (prof2_hs.py then
# prof3_hs.py: hs_device_prof4, hs_host_prof4).
C=$PWD/.device-bin/s52/forkcc
. scripts/results-lib.sh
cp classroom-examples/lcg.h /tmp/
E=.device-bin/exp52
kernel_build hs_device $E/hs_device.cu & kernel_build hs_fr $E/hs_fr.cu &
for v in hs_device_prof4 hs_host_prof4; do
    cu_build $v $E/$v.cu &
done
wait
at built
kernel_rounds 9 "-p 65536" hs_device hs_fr
mv "$OUT/rounds.txt" "$OUT/rounds-65536.txt"
echo "p=65536 outputs differ: $(diff "$OUT/hs_device-1.out" "$OUT/hs_fr-1.out" | wc -l) lines"; cat "$OUT/hs_fr-1.out"
kernel_rounds 5 "-p 16384" hs_device hs_fr
mv "$OUT/rounds.txt" "$OUT/rounds-16384.txt"
echo "p=16384 outputs differ: $(diff "$OUT/hs_device-1.out" "$OUT/hs_fr-1.out" | wc -l) lines"; cat "$OUT/hs_fr-1.out"
kernel_rounds 5 "-p 1024" hs_device hs_fr
mv "$OUT/rounds.txt" "$OUT/rounds-1024.txt"
echo "p=1024 outputs differ: $(diff "$OUT/hs_device-1.out" "$OUT/hs_fr-1.out" | wc -l) lines"; cat "$OUT/hs_fr-1.out"
at rounds
prof_runs "65536 16384" 3 hs_device_prof4 hs_host_prof4
at done
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
