# Session 43, device run A: hand-edited variants of bench/overhead/barrier.fork's device `.cu`
# (N = 20000, emitted at 7c949c3a; variants.py makes them; carried in .device-bin/s43x/) at
# P = 1: bd as emitted; bd2 with the checks' FkSeen handed to fk_r_body through a copy of its
# own (so the region's FkRegion does not escape to the out-of-line call); bd3 with it handed in
# and back by value; bd4 as bd3 with the owned loop's team (warp or not, its size, ganged or
# not) read once at the loop's entry. The persistent kernel's time (kernel_rounds, 5 rounds),
# and the host schedule's `.cu` (bh) region kernel under ncu. Per iteration: warp
# instructions by opcode of bd and bd4 (ncu source counters; on-path rows as hot_lines.py of
# session 42).
C=$PWD/.device-bin/s42/forkcc; . scripts/results-lib.sh
X=.device-bin/s43x
for v in bd bd2 bd3 bd4; do kernel_build $v $X/$v.cu & done
nvcc -O2 -arch=sm_90 -o /tmp/bh $X/bh.cu > $OUT/nvcc-bh.txt 2>&1 &
for v in bd bd4; do nvcc -O2 -arch=sm_90 -lineinfo -o /tmp/$v-li $X/$v.cu > $OUT/nvcc-$v-li.txt 2>&1 & done
wait; at built
kernel_rounds 5 "-p 1" bd bd2 bd3 bd4 | tee $OUT/kernel-times.txt
at timed
for i in 1 2 3; do timeout 60 ncu --clock-control none --kernel-name regex:r0_ --metrics gpu__time_duration.sum /tmp/bh -p 1 2>&1 | grep -E "gpu__time_duration|barriers"; done | tee $OUT/bh-times.txt
at "host timed"
for v in bd bd4; do
    timeout 100 ncu --clock-control none --kernel-name regex:fk_device_run --section SourceCounters -o /tmp/$v -f /tmp/$v-li -p 1 > $OUT/ncu-$v.log 2>&1
    ncu -i /tmp/$v.ncu-rep --page source --csv --print-source sass > /tmp/$v-sass.csv 2>&1
    python3 - /tmp/$v-sass.csv 20000 <<'PY' | tee $OUT/$v-opcodes.txt
import collections, csv, re, sys
path, iters = sys.argv[1], int(sys.argv[2])
per, hdr = collections.Counter(), None
for row in csv.reader(open(path)):
    if row and row[0] == "Address":
        hdr = row
    elif hdr and len(row) >= len(hdr) and row[0].startswith("0x"):
        c = int(row[hdr.index("Instructions Executed")]); k = round(c / iters)
        if k >= 1 and abs(c - k * iters) <= 3 * k:
            per[re.sub(r"^@!?U?P\w+\s+", "", row[1].strip()).split()[0]] += c / iters
print(path, "on-path warp instructions an iteration:", round(sum(per.values())))
for op, n in per.most_common(30): print(f"  {op:30s} {n:7.1f}")
PY
done
at done
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
