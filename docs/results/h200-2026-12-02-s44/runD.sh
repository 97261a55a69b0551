# Session 44, device run D: the final tree (s44b, 3d2d3f07). Every classroom example's first
# case on every backend with compute-sanitizer (v1); quicksort_balanced 10^6 at P = 4096 on
# both schedules and sequential Rust; and the bound of an owned loop specialised to a team
# without a gang (variants.py nogang: sd4 from sd3, su4 from su3, split.fork with N = 20000,
# checked and --unchecked, emitted by s44b), the persistent kernel's time at P = 1 and 32
# (kernel_rounds, 5 rounds interleaved).
C=$PWD/.device-bin/s44b/forkcc; . scripts/results-lib.sh
X=.device-bin/s44x
(for v in sd3 sd4 su3 su4; do kernel_build $v $X/$v.cu & done; wait) &
verify v1 280 1 1 $(ls classroom-examples/*.fork | tr '\n' ' ')
wait; at built
kernel_rounds 5 "-p 1" sd3 sd4 su3 su4 | tee $OUT/kernel-p1.txt; mv $OUT/rounds.txt $OUT/rounds-p1.txt
kernel_rounds 5 "-p 32" sd3 sd4 su3 su4 | tee $OUT/kernel-p32.txt; mv $OUT/rounds.txt $OUT/rounds-p32.txt
at timed
b qsb 120 quicksort_balanced --n 1000000 --procs 4096 --backends gpu,gpu-device,seq --runs 5
at done
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
