// Session 46, run D: does compute-sanitizer's synccheck accept a named barrier of every
// thread of the block (`barrier.sync.aligned 1, 384`) met by two sets of warps at one
// instruction reached from two call sites (as fk_run_wide_grid_task is, from fk_run_tasks and
// fk_runner_join)? Kernel 1: one __noinline__ function from two sites; kernel 2: the same
// barrier inlined at two sites (two instructions); kernel 3: one site (control); kernel 4: as
// 1, after the 8 "team" warps met at barrier 1 of 256 threads (barrier.red.popc), as
// fk_run_tasks's fk_team_count does before a wide region.
#include <cstdio>
#include <cstdlib>
__device__ __forceinline__ void bar(int n) {
    (void)__ballot_sync(0xffffffffu, 1);
    asm volatile("barrier.sync.aligned 1, %0;" ::"r"(n) : "memory");
}
__device__ __noinline__ void meet(int *x) {
    bar(blockDim.x);
    x[threadIdx.x] += 1;
    bar(blockDim.x);
}
__device__ __forceinline__ int count(int n, bool p) {
    int r;
    asm volatile("{ .reg .pred q; setp.ne.u32 q, %1, 0; barrier.red.popc.aligned.u32 %0, 1, %2, q; }"
                 : "=r"(r) : "r"((unsigned)p), "r"(n) : "memory");
    return r;
}
__global__ void k(int variant, int *x) {
    bool runner = threadIdx.x < 128;
    if (variant == 1 || variant == 4) {
        if (runner) {
            meet(x);
        } else {
            if (variant == 4) (void)count(256, threadIdx.x & 1);
            x[threadIdx.x] += 2;
            meet(x);
        }
    } else if (variant == 2) {
        if (runner) bar(blockDim.x);
        else bar(blockDim.x);
    } else {
        meet(x);
    }
}
int main(int argc, char **argv) {
    int v = atoi(argv[1]);
    int *x;
    cudaMalloc(&x, 384 * sizeof(int));
    cudaMemset(x, 0, 384 * sizeof(int));
    k<<<4, 384>>>(v, x);
    printf("variant %d: %s\n", v, cudaGetErrorString(cudaDeviceSynchronize()));
}
