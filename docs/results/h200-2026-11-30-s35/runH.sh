# Session 35: how racecheck orders accesses when warps pass different numbers of barriers
# (racecheck-probe.cu), after run G showed that separate barrier ids for narrow teams did not
# clear the hazards.
cd docs/results/h200-2026-11-30-s35
nvcc -O2 -arch=sm_90 -o /tmp/probe racecheck-probe.cu > $OUT/nvcc.txt 2>&1 || { cat $OUT/nvcc.txt; exit 1; }
for c in "0 0 0" "1 0 0" "1 1 0" "1 5 0" "1 5 32" "1 5 100" "2 5 0" "2 5 32" "2 3 0" "3 5 0" "4 5 0" "5 5 0" "5 5 32" "5 5 100" "6 5 0" "6 5 32"; do
  set -- $c
  r=$(compute-sanitizer --tool racecheck /tmp/probe $1 $2 $3 2>&1)
  echo "$r" > "$OUT/probe-$1-$2-$3.log"
  echo "mode $1 k $2 writer $3: $(echo "$r" | grep -o 'RACECHECK SUMMARY.*')"
done
nvidia-smi -L; compute-sanitizer --version | tail -1
