# Session 52: stamps a device-schedule `.cu` (after time_kernel.py) with %globaltimer at the
# persistent kernel's start, at each grid region's post (fk_post_grid, the last member to
# arrive) and, on block 0's team thread 0, at each grid task's start, before and after its
# first grid barrier, after the region and after the release (fk_run_grid_task); printed on
# stderr after the kernel as `stamp NAME NS` from the kernel's start, to find where the
# algorithm's time outside its grid region goes (run B: 414 us of Hillis-Steele's function
# at P = 65,536 against 323 us of its region on the device schedule).
#   python3 stamp_hs.py IN.cu OUT.cu
import sys
s = open(sys.argv[1]).read()
def once(old, new):
    global s
    assert s.count(old) == 1, old
    s = s.replace(old, new)
gt = "fkt_now()"
decl = """__device__ unsigned long long fkt_stamp[64];
__device__ unsigned fkt_posts, fkt_tasks;
__device__ __forceinline__ unsigned long long fkt_now() {
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}
"""
once("extern \"C\" __global__ void fk_device_run(int runners);\n",
     "extern \"C\" __global__ void fk_device_run(int runners);\n" + decl)
once("extern \"C\" __global__ void __launch_bounds__(FK_DEVICE_THREADS, 1) fk_device_run(int runners) {\n",
     "extern \"C\" __global__ void __launch_bounds__(FK_DEVICE_THREADS, 1) fk_device_run(int runners) {\n"
     "    if (blockIdx.x == 0 && threadIdx.x == 0) fkt_stamp[0] = fkt_now();\n")
once("    atomicAdd(&fk_grid_task.posted, 1u);\n    return true;\n",
     "    atomicAdd(&fk_grid_task.posted, 1u);\n    { unsigned k = atomicAdd(&fkt_posts, 1u); if (k < 4) fkt_stamp[1 + k] = fkt_now(); }\n    return true;\n")
once("__device__ __noinline__ void fk_run_grid_task(char *frames) {\n    __threadfence();\n",
     "__device__ __noinline__ void fk_run_grid_task(char *frames) {\n    bool fkt_me = blockIdx.x == 0 && fk_team_tid() == 0;\n    unsigned fkt_k = fkt_me ? atomicAdd(&fkt_tasks, 1u) : 0;\n    if (fkt_me && fkt_k < 4) fkt_stamp[8 + 8 * fkt_k] = fkt_now();\n    __threadfence();\n")
once("    fk_g_sync(false);\n    fk_run_grid_region(",
     "    if (fkt_me && fkt_k < 4) fkt_stamp[9 + 8 * fkt_k] = fkt_now();\n    fk_g_sync(false);\n    if (fkt_me && fkt_k < 4) fkt_stamp[10 + 8 * fkt_k] = fkt_now();\n    fk_run_grid_region(")
once("    if (blockIdx.x == 0 && fk_team_tid() == 0) fk_release(y, n);\n}\n",
     "    if (fkt_me && fkt_k < 4) fkt_stamp[11 + 8 * fkt_k] = fkt_now();\n    if (blockIdx.x == 0 && fk_team_tid() == 0) fk_release(y, n);\n    if (fkt_me && fkt_k < 4) fkt_stamp[12 + 8 * fkt_k] = fkt_now();\n}\n")
once('    fk_cuda(cudaDeviceSynchronize(), "running the program");\n',
     '    fk_cuda(cudaDeviceSynchronize(), "running the program");\n'
     '    { unsigned long long st[64]; cudaMemcpyFromSymbol(st, fkt_stamp, sizeof st);\n'
     '      const char *nm[8] = {"task", "list", "barrier", "region", "release", "", "", ""};\n'
     '      for (int k = 0; k < 4; k++) if (st[1 + k]) fprintf(stderr, "stamp post%d %lld\\n", k, (long long)(st[1 + k] - st[0]));\n'
     '      for (int k = 0; k < 4; k++) for (int j = 0; j < 5; j++) if (st[8 + 8 * k + j]) fprintf(stderr, "stamp %s%d %lld\\n", nm[j], k, (long long)(st[8 + 8 * k + j] - st[0])); }\n')
open(sys.argv[2], "w").write(s)
