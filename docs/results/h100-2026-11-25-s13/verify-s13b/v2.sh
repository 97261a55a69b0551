# Session 13: every classroom case on the five backends, with compute-sanitizer. BIN=x LIMIT=s bash .device-bin/s13/v2.sh
export LD_LIBRARY_PATH=/usr/local/cuda-13.0/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
export PATH=/usr/local/cuda-13.0/bin:$PATH
t0=$(date +%s)
[ -e /work/main ] || { mkdir -p /work && ln -s "$PWD" /work/main; }
bash .device-bin/s13/v.sh $NAME $LIMIT 1 0 classroom-examples/*.fork
echo "all at $(( $(date +%s) - t0 )) s"
