# Session 53: a prototype of lever 1 (docs/performance.md): a grid region handed back to a
# launch of its own, which holds more threads than the persistent kernel's teams. The last
# member to arrive at a grid region records it (fk_grid_task) and raises `fkh_handoff`
# instead of posting it to the teams; every runner warp, team and kernel warp of the
# persistent kernel then returns (every processor waits for the region). The host launches
# `fkh_grid_run` (cooperative, FKH_THREADS a block, as many blocks as fit, no more than
# members), whose blocks are teams of their whole block and run the region
# (fk_run_grid_task, which releases the group), then launches the persistent kernel again,
# until it ends without a handoff. Prints `prof kernel_ms X` (the first launch to the last
# synchronize, as time_kernel.py does), `fkh handoffs N per_sm B blocks K` and the first
# handoff's stamps (%globaltimer: the post to the region's start, the region, its end to the
# persistent kernel's start again) on stderr. fkh_grid_run is launched once before the run.
#   python3 handoff_hs.py IN.cu OUT.cu        (an emitted device-schedule `.cu`; built as it is)
import sys
s = open(sys.argv[1]).read()
def once(old, new):
    global s
    assert s.count(old) == 1, old
    s = s.replace(old, new)
once("extern \"C\" __global__ void fk_device_run(int runners);\n",
     "extern \"C\" __global__ void fk_device_run(int runners);\n__device__ int fkh_handoff;\n"
     "__device__ unsigned long long fkh_at[8];\n"
     "__device__ __forceinline__ unsigned long long fkh_now() {\n"
     "    unsigned long long t;\n"
     "    asm volatile(\"mov.u64 %0, %%globaltimer;\" : \"=l\"(t));\n"
     "    return t;\n"
     "}\n")
once("""    fk_grid_task.proc = p;
    __threadfence();
    atomicAdd(&fk_grid_task.posted, 1u);
    return true;""", """    fk_grid_task.proc = p;
    __threadfence();
    fkh_at[0] = fkh_now();
    atomicExch(&fkh_handoff, 1);
    return true;""")
once("""                    ended = *(volatile int *)fk_d.runners_done == runner_warps;""",
     """                    ended = *(volatile int *)fk_d.runners_done == runner_warps ||
                            *(volatile int *)&fkh_handoff;""")
once("""        if (*(volatile int *)fk_d.runners_done == runner_warps) return;""",
     """        if (*(volatile int *)fk_d.runners_done == runner_warps || *(volatile int *)&fkh_handoff) return;""")
once("""        if (!__any_sync(0xffffffffu, moved)) fk_runner_idle();
    }
}
""", """        // Every processor waits for the grid region handed over.
        if (__any_sync(0xffffffffu, *(volatile int *)&fkh_handoff != 0)) return;
        if (!__any_sync(0xffffffffu, moved)) fk_runner_idle();
    }
}

#define FKH_THREADS 256
extern "C" __global__ void __launch_bounds__(FKH_THREADS, 2) fkh_grid_run(int warm) {
    if (warm) return;
    if (blockIdx.x == 0 && threadIdx.x == 0) fkh_at[1] = fkh_now();
    __shared__ char *frames;
    fk_seen_before_clear();
    if (threadIdx.x == 0) {
        fk_kernel_warp = false;
        fk_team_first = 0;
        fk_team_lanes = (int)blockDim.x;
        fk_team_on_grid = 1;
        fk_g_start();
        frames = fk_frame_alloc(fk_region_frame_bytes(), 0);
    }
    __syncthreads();
    fk_run_grid_task(frames);
    if (blockIdx.x == 0 && threadIdx.x == 0) fkh_at[2] = fkh_now();
}
""")
# The persistent kernel's first start after a handoff's region (stamp 3).
once("""extern "C" __global__ void __launch_bounds__(FK_DEVICE_THREADS, 1) fk_device_run(int runners) {
""", """extern "C" __global__ void __launch_bounds__(FK_DEVICE_THREADS, 1) fk_device_run(int runners) {
    if (blockIdx.x == 0 && threadIdx.x == 0 && fkh_at[2] && !fkh_at[3]) fkh_at[3] = fkh_now();
""")
launch = """    fk_cuda(cudaLaunchCooperativeKernel((void *)fk_device_run, (unsigned)blocks, FK_DEVICE_THREADS, args, 0, 0),
            "launching the persistent kernel");
#endif
    fk_cuda(cudaDeviceSynchronize(), "running the program");
"""
once(launch, """    int fkh_per_sm = 0, fkh_n = 0;
    fk_cuda(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&fkh_per_sm, fkh_grid_run, FKH_THREADS, 0), "fkh occupancy");
    unsigned fkh_blocks = (unsigned)std::min<fk_u64>((fk_u64)fkh_per_sm * sms, P);
    // A function's first cooperative launch takes the driver 0.1 to 0.3 ms (the host
    // schedule warms its grid regions up so, fk_g_warm_up): once before the run.
    int fkh_warm = 1, fkh_cold = 0;
    void *fkh_args[1] = {&fkh_warm}, *fkh_args0[1] = {&fkh_cold};
    fk_cuda(cudaLaunchCooperativeKernel((void *)fkh_grid_run, fkh_blocks, FKH_THREADS, fkh_args, 0, 0), "fkh warm-up");
    fk_cuda(cudaDeviceSynchronize(), "fkh warm-up");
    auto fkh_t0 = std::chrono::steady_clock::now();
    for (;;) {
        fk_cuda(cudaLaunchCooperativeKernel((void *)fk_device_run, (unsigned)blocks, FK_DEVICE_THREADS, args, 0, 0),
                "launching the persistent kernel");
        fk_cuda(cudaDeviceSynchronize(), "running the program (fkh)");
        int h = 0;
        fk_cuda(cudaMemcpyFromSymbol(&h, fkh_handoff, sizeof h), "fkh read");
        if (!h) break;
        h = 0;
        fk_cuda(cudaMemcpyToSymbol(fkh_handoff, &h, sizeof h), "fkh clear");
        fk_cuda(cudaLaunchCooperativeKernel((void *)fkh_grid_run, fkh_blocks, FKH_THREADS, fkh_args0, 0, 0),
                "fkh launch");
        fkh_n++;
    }
    fprintf(stderr, "prof kernel_ms %.3f\\n", std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - fkh_t0).count());
    fprintf(stderr, "fkh handoffs %d per_sm %d blocks %u\\n", fkh_n, fkh_per_sm, fkh_blocks);
    unsigned long long fkh_st[8];
    fk_cuda(cudaMemcpyFromSymbol(fkh_st, fkh_at, sizeof fkh_st), "fkh stamps");
    if (fkh_n) fprintf(stderr, "fkh stamps post->region %.1f us, region %.1f us, region end->relaunch %.1f us\\n",
                       (fkh_st[1] - fkh_st[0]) / 1e3, (fkh_st[2] - fkh_st[1]) / 1e3, (fkh_st[3] - fkh_st[2]) / 1e3);
#endif
""")
open(sys.argv[2], "w").write("#include <chrono>\n" + s)
