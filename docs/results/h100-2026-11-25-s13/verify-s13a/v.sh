# Session 12: one gpu-verify pass. Usage: BIN=m2 bash .device-bin/s13/v.sh NAME LIMIT SANITIZE FIRST_ONLY FILES...
export LD_LIBRARY_PATH=/usr/local/cuda-13.0/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
export PATH=/usr/local/cuda-13.0/bin:$PATH
name=$1 limit=$2 san=$3 first=$4; shift 4
F=$PWD/.device-bin/s13/forkcc-$BIN; W=/tmp/verify-$name; t0=$(date +%s)
FILES="$*" FIRST_ONLY=$first JOBS=16 SANITIZE=$san timeout $limit scripts/gpu-verify.sh $F $W > $OUT/verify-$name.log 2>&1
echo "verify $name rc=$? at $(( $(date +%s) - t0 )) s"
cp $W/summary.txt $OUT/summary-$name.txt; cp $W/progress.txt $OUT/progress-$name.txt 2>/dev/null
grep -c ' ok  *ok  *ok  *ok  *ok' $W/summary.txt | sed 's/^/all five agree: /'
grep -v '^pass' $W/summary.txt | grep -v ' ok  *ok  *ok  *ok  *ok' | tail -40 | cut -c1-160
(cd /tmp && tar czf $OUT/logs-$name.tgz verify-$name/logs verify-$name/summary.txt verify-$name/*.txt 2>/dev/null)
