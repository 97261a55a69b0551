# Session 52, device run D: Hillis-Steele's device schedule around its grid region
# (hs_device_a_stamp2: stamp_hs.py, then stamp2_hs.py: the large groups' forming and
# releases, each collective's first and last arrival), 3 runs at P = 65,536, 2 at 16,384.
C=$PWD/.device-bin/s52a/forkcc
. scripts/results-lib.sh
cp classroom-examples/lcg.h /tmp/
cu_build stamp2 .device-bin/exp52/hs_device_a_stamp2.cu
at built
for p in 65536 65536 65536 16384 16384; do
    timeout 60 /tmp/stamp2 -p $p > "$OUT/out.txt" 2> "$OUT/err.txt"
    echo "p=$p rc=$? $(grep -c 'x\[0\] = 0' "$OUT/out.txt")"; cat "$OUT/err.txt"
done | tee "$OUT/stamps2.txt"
rm -f "$OUT/out.txt" "$OUT/err.txt"
at done
