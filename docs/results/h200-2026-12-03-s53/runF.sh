# Session 53, device run F: run E again with fkh_grid_run launched once before the run (a
# function's first cooperative launch is slow) and the first handoff's stamps; and session
# 52's stamps (stamp2) of the plain `.cu` at 65,536 (the region inside the persistent kernel).
C=$PWD/.device-bin/s53t/forkcc
. scripts/results-lib.sh
cp classroom-examples/lcg.h /tmp/
E=.device-bin/exp53
for v in hs_device_t lr_t; do
    kernel_build $v $E/$v.cu &
    cu_build ${v}_handoff $E/${v}_handoff.cu &
done
cu_build hs_device_t_stamp2 $E/hs_device_t_stamp2.cu &
wait
at built
for p in 65536 16384; do
    kernel_rounds 9 "-p $p" hs_device_t hs_device_t_handoff lr_t lr_t_handoff
    for v in hs_device_t hs_device_t_handoff lr_t lr_t_handoff; do
        echo "p=$p $v: $(grep fkh "$OUT/$v-1.err" | tr '\n' ' ') $(md5sum < "$OUT/$v-1.out" | head -c 12) $(tail -1 "$OUT/$v-1.out")"
        grep -h "fkh stamps" "$OUT"/$v-*.err
    done
    mkdir -p "$OUT/p$p"; mv "$OUT"/*.out "$OUT"/*.err "$OUT/rounds.txt" "$OUT/p$p/"
done
for i in 1 2 3; do
    timeout 60 /tmp/hs_device_t_stamp2 -p 65536 > "$OUT/stamp2-$i.out" 2> "$OUT/stamp2-$i.err"
    echo "stamp2 $i rc=$? $(grep -E 'prof|stamp (barrier|region|release)0' "$OUT/stamp2-$i.err" | tr '\n' ' ')"
done
rm -f "$OUT"/stamp2-*.out
at done
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
