# Session 53: times the parts of a runner thread's turns at its processors on block 0's
# thread 0 (clock64): the state's load; the release test and the stop words' read
# (fk_released, fk_stopped); the instruction run (fk_run_proc) and inside it the last
# arrival's part before its count (the generation's and the group size's loads) and the count
# (fk_arrive). Each load is waited for by a comparison that uses it. Printed on stderr after
# the kernel as `pass I pc0 PC1 pc1 PC2 load C released C run C gen C count C at NS`, one
# line a turn that ran (at most 512), NS the %globaltimer from the kernel's start; and the
# sums of every turn's parts by its first pc: `passsum pc PC turns N load C ...`. To find
# where a pass over the members around Hillis-Steele's grid region goes (session 52: about
# 5 us a member a lane at P = 65,536).
#   python3 pass_hs.py IN.cu OUT.cu      (then time_kernel.py, as kernel_build does)
import sys
s = open(sys.argv[1]).read()
def once(old, new):
    global s
    assert s.count(old) == 1, old
    s = s.replace(old, new)
decl = """__device__ long long fkq_rec[512][8], fkq_sum[256][6];
__device__ long long fkq_arr[2];
__device__ volatile int fkq_sink;
__device__ __forceinline__ long long fkq_gt() {
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return (long long)t;
}
#define FKQ_ME (blockIdx.x == 0 && threadIdx.x == 0)
"""
once("extern \"C\" __global__ void fk_device_run(int runners);\n",
     "extern \"C\" __global__ void fk_device_run(int runners);\n" + decl)
once("""__device__ bool fk_arrive(int p, FkProc *s, int g, const FkAction &a) {
    FkSync *y = &fk_d.sync[g];
""", """__device__ bool fk_arrive(int p, FkProc *s, int g, const FkAction &a) {
    FkSync *y = &fk_d.sync[g];
    long long fkq0 = clock64();
""")
# `gen`: from the arrival's start to its count (the generation's and the size's loads).
once("""    bool last = fk_arrival_index(&y->arrived, g) == (unsigned)n - 1;
""", """    if (FKQ_ME && gen == 0xdeadbeefu) fkq_sink = 1;
    long long fkq1 = clock64();
    bool last = fk_arrival_index(&y->arrived, g) == (unsigned)n - 1;
    if (FKQ_ME && last) fkq_sink = 2;
    if (FKQ_ME) { fkq_arr[0] = fkq1 - fkq0; fkq_arr[1] = clock64() - fkq1; }
""")
once("""            FkProc s = mine == 1 ? own : *state;
            if (s.done) continue;
            live = true;
""", """            long long fkq0 = clock64();
            FkProc s = mine == 1 ? own : *state;
            if (FKQ_ME && s.pc == -77) fkq_sink = 3;
            long long fkq1 = clock64();
            if (s.done) continue;
            live = true;
            int fkq_pc = s.pc;
""")
# After the release test and the stop words' read (their lines differ between the versions).
once("""            if (stopping && !fk_drains(s)) continue;
""", """            if (stopping && !fk_drains(s)) continue;
            long long fkq2 = clock64();
            if (FKQ_ME) fkq_arr[0] = fkq_arr[1] = -1;
""")
once("""            fk_run_proc(p, &s);
""", """            fk_run_proc(p, &s);
            if (FKQ_ME && fkq_pc >= 0 && fkq_pc < 256) {
                long long *u = fkq_sum[fkq_pc], fkq3 = clock64();
                u[0]++; u[1] += fkq1 - fkq0; u[2] += fkq2 - fkq1; u[3] += fkq3 - fkq2;
                if (fkq_arr[0] >= 0) { u[4] += fkq_arr[0]; u[5] += fkq_arr[1]; }
            }
            if (FKQ_ME && fkq_n < 512) {
                long long fkq3 = clock64();
                long long *r = fkq_rec[fkq_n++];
                r[0] = fkq_pc; r[1] = s.pc; r[2] = fkq1 - fkq0; r[3] = fkq2 - fkq1;
                r[4] = fkq3 - fkq2; r[5] = fkq_arr[0]; r[6] = fkq_arr[1]; r[7] = fkq_gt() - fkq_start;
            }
""")
once("""    FkProc own;
    if (mine == 1) own = fk_d.procs[t];
""", """    FkProc own;
    if (mine == 1) own = fk_d.procs[t];
    int fkq_n = 0;
    long long fkq_start = fkq_gt();
""")
once('    fk_cuda(cudaDeviceSynchronize(), "running the program");\n',
     '    fk_cuda(cudaDeviceSynchronize(), "running the program");\n'
     '    { static long long q[512][8]; cudaMemcpyFromSymbol(q, fkq_rec, sizeof q);\n'
     '      for (int i = 0; i < 512; i++) if (q[i][7]) fprintf(stderr, "pass %d pc0 %lld pc1 %lld load %lld released %lld run %lld gen %lld count %lld at %lld\\n",\n'
     '          i, q[i][0], q[i][1], q[i][2], q[i][3], q[i][4], q[i][5], q[i][6], q[i][7]);\n'
     '      static long long u[256][6]; cudaMemcpyFromSymbol(u, fkq_sum, sizeof u);\n'
     '      for (int i = 0; i < 256; i++) if (u[i][0]) fprintf(stderr, "passsum pc %d turns %lld load %lld released %lld run %lld arrival %lld count %lld\\n",\n'
     '          i, u[i][0], u[i][1], u[i][2], u[i][3], u[i][4], u[i][5]); }\n')
open(sys.argv[2], "w").write(s)
