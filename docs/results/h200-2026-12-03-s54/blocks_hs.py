# Session 54: on a `.cu` timed by session 51's prof2_hs.py, each block's team thread 0 also
# sums its own members' kernel time (k3 to k6), its team counts (its wait for the block's
# slowest thread) and its grid arrivals (its wait for the slowest block), and block 0's
# thread 0 prints, after the region's last barrier, the least, mean and most of each over the
# blocks (`fkblk` line): whether a schedule's region is slower in every block or waits for a
# few.
#   python3 blocks_hs.py IN_prof.cu OUT.cu
import sys
s = open(sys.argv[1]).read()
def once(old, new):
    global s
    assert s.count(old) == 1, old
    s = s.replace(old, new)
once("#define FKP(i, STMT) do { long long t0_ = clock64(); STMT; if (FKP_ON) fkp_acc[i] += clock64() - t0_; } while (0)",
     """__device__ unsigned long long fkp_blk[1024][3];
#define FKP(i, STMT) do { long long t0_ = clock64(); STMT; long long d_ = clock64() - t0_; if (FKP_ON) fkp_acc[i] += d_; \\
    if (fk_team_tid() == 0 && i >= 3 && i <= 6) fkp_blk[blockIdx.x][0] += d_; } while (0)
__device__ void fkp_blocks() {
    unsigned long long lo[4], hi[4], sum[4];
    int at[4];
    for (int k = 0; k < 4; k++) lo[k] = ~0ull, hi[k] = 0, sum[k] = 0, at[k] = 0;
    for (int b = 0; b < (int)gridDim.x; b++) {
        unsigned long long v[4];
        for (int k = 0; k < 3; k++) v[k] = *(volatile unsigned long long *)&fkp_blk[b][k];
        v[3] = v[0] + v[1];
        for (int k = 0; k < 4; k++) {
            if (v[k] < lo[k]) lo[k] = v[k];
            if (v[k] > hi[k]) hi[k] = v[k], at[k] = b;
            sum[k] += v[k];
        }
    }
    printf("fkblk blocks %u kernels %llu/%llu/%llu@%d count %llu/%llu/%llu@%d arrive %llu/%llu/%llu@%d kernels+count %llu/%llu/%llu@%d\\n",
           gridDim.x, lo[0], sum[0] / gridDim.x, hi[0], at[0], lo[1], sum[1] / gridDim.x, hi[1], at[1],
           lo[2], sum[2] / gridDim.x, hi[2], at[2], lo[3], sum[3] / gridDim.x, hi[3], at[3]);
}""")
once("    if (FKP_ON) { fkp_acc[8] += t1 - t0; fkp_acc[9] += t2 - t1; fkp_acc[10]++; }",
     "    if (FKP_ON) { fkp_acc[8] += t1 - t0; fkp_acc[9] += t2 - t1; fkp_acc[10]++; }\n"
     "    if (fk_team_tid() == 0) { fkp_blk[blockIdx.x][1] += t1 - t0; fkp_blk[blockIdx.x][2] += t2 - t1; }")
once("    if (FKP_ON) printf(\"fkprof total", "    if (FKP_ON) fkp_blocks();\n    if (FKP_ON) printf(\"fkprof total")
open(sys.argv[2], "w").write(s)
