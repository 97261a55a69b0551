# Session 54, device run G: the final tree (s54fin, caf21c27: 8c230f4b's, run D's s54f without
# 8ecc8895), the programs its commits touch on every backend with compute-sanitizer: the first
# case of sieve, Hillis-Steele, list ranking (grid regions, fk_g_shape), matmul, quicksort and
# quicksort_balanced (loops unrolled by 32), and every case of grid_region_fault (P = 70 over
# 3 blocks).
C=$PWD/.device-bin/s54fin/forkcc
. scripts/results-lib.sh
cp classroom-examples/lcg.h /tmp/
X=classroom-examples
verify v3 200 1 1 $X/sieve.fork $X/prefix_hillis_steele.fork $X/list_ranking.fork $X/matmul.fork \
    $X/quicksort.fork $X/quicksort_balanced.fork
verify v4 100 0 1 tests/semantics/grid_region_fault.fork
at done
tar czf /tmp/x.tgz -C $OUT . && rm -rf $OUT/* && mv /tmp/x.tgz $OUT/
