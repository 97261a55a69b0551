# Session 35, device run R: racecheck-probe7.cu, a narrow team meeting at an mbarrier (mode
# 1) under racecheck on four configurations of probe2's pattern; then the cycles of a narrow
# barrier without the sanitizer, mbarrier against a named barrier (mode 0).
R=docs/results/h200-2026-11-30-s35
export PATH=/usr/local/cuda-13.0/bin:$PATH
nvcc -O2 -arch=sm_90 -o /tmp/probe7 $R/racecheck-probe7.cu > $OUT/nvcc-probe7.txt 2>&1 || cat $OUT/nvcc-probe7.txt
mkdir -p /tmp/p7
for c in "64 5 30 3" "64 200 30 3" "0 5 3 1" "64 50 30 1"; do
  set -- $c
  r=$(timeout 60 compute-sanitizer --tool racecheck /tmp/probe7 $1 $2 $3 $4 1 2>&1)
  echo "$r" > "/tmp/p7/$1-$2-$3-$4-1.log"
  echo "probe7 $c mode 1: $(echo "$r" | grep -o 'RACECHECK SUMMARY.*') $(echo "$r" | grep -o 'out.639. = .*')"
  r=$(timeout 60 compute-sanitizer --tool synccheck /tmp/probe7 $1 $2 $3 $4 1 2>&1)
  echo "probe7 $c mode 1 synccheck: $(echo "$r" | grep -o 'ERROR SUMMARY.*')"
done
for m in 0 1 0 1; do for w in 1 3; do /tmp/probe7 64 2000 30 $w $m; done; done
tar czf $OUT/x.tgz -C /tmp/p7 .
