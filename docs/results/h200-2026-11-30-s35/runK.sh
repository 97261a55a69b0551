# Session 35: racecheck-probe4.cu, variants 3 to 5 of the ways a narrow team and the warps
# outside it meet, each under racecheck on four configurations of probe2's pattern.
R=docs/results/h200-2026-11-30-s35
export PATH=/usr/local/cuda-13.0/bin:$PATH
nvcc -O2 -arch=sm_90 -o /tmp/probe4 $R/racecheck-probe4.cu > $OUT/nvcc-probe4.txt 2>&1 || cat $OUT/nvcc-probe4.txt
mkdir -p /tmp/p3
for v in 3 4 5; do for c in "64 5 30 3" "64 200 30 3" "0 5 3 1" "64 50 30 1"; do
  set -- $c
  r=$(timeout 60 compute-sanitizer --tool racecheck /tmp/probe4 $1 $2 $3 $4 $v 2>&1)
  echo "$r" > "/tmp/p3/$1-$2-$3-$4-$v.log"
  echo "probe4 $c variant $v: $(echo "$r" | grep -o 'RACECHECK SUMMARY.*') $(echo "$r" | grep -o 'out.639. = .*')"
done; done
tar czf $OUT/x.tgz -C /tmp/p3 .
