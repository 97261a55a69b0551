// racecheck-probe7.cu: the narrow teams' pattern of racecheck-probe2.cu (runs I to O: every
// named-barrier scheme for a narrow team of several warps drew false hazards) with the narrow
// team meeting at an mbarrier in shared memory (every thread arrives, then waits for the
// phase), the other warps waiting at the team's named barrier 1 as in fk_device.cuh. Also
// prints the cycles of K narrow barriers, mbarrier (MODE 1) against bar.sync 4 + log2(warps)
// (MODE 0), for the team's cost. Run: ./probe7 RUNNERS K R WIDTHS MODE.
#include <cstdio>
#include <cstdlib>
__shared__ int team_lanes, team_first, word, narrow;
__shared__ unsigned long long mbar;
__shared__ long long cycles;
__device__ __forceinline__ void bsync(int id, int n) {
    __syncwarp();
    asm volatile("barrier.sync.aligned %0, %1;" ::"r"(id), "r"(n) : "memory");
}
__device__ __forceinline__ unsigned mbar_addr() { return (unsigned)__cvta_generic_to_shared(&mbar); }
__device__ __forceinline__ void mbar_sync() {
    __syncwarp();
    unsigned long long state;
    asm volatile("mbarrier.arrive.shared::cta.b64 %0, [%1];" : "=l"(state) : "r"(mbar_addr()) : "memory");
    unsigned done = 0;
    while (!done)
        asm volatile("{ .reg .pred p; mbarrier.try_wait.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                     : "=r"(done) : "r"(mbar_addr()), "l"(state) : "memory");
}
__device__ __forceinline__ int tid() { return (int)threadIdx.x - team_first; }
__global__ void probe(int runners, int k, int rounds, int widths, int mode, int *out) {
    if (threadIdx.x == 0) team_first = runners, team_lanes = 640 - runners, narrow = 0, cycles = 0;
    __syncthreads();
    if ((int)threadIdx.x < runners) return;
    int sum = 0, size = 640 - runners;
    for (int r = 0; r < rounds; r++) {
        int lg = widths == 1 ? 0 : r % 3, lanes = 32 << lg;
        bsync(1, size);
        if (tid() == 0) {
            team_lanes = lanes, narrow = 1;
            if (mode == 1)
                asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(mbar_addr()), "r"(lanes) : "memory");
        }
        bsync(1, size);
        if (tid() < lanes) {
            long long t = clock64();
            for (int i = 0; i < k; i++) {
                if (tid() == 0) word = i;
                if (mode == 1) mbar_sync(); else bsync(4 + lg, lanes);
                sum += word + team_lanes;
                if (mode == 1) mbar_sync(); else bsync(4 + lg, lanes);
            }
            if (tid() == 0) cycles += clock64() - t;
            // widen: the narrow team meets, thread 0 restores the size
            if (mode == 1) mbar_sync(); else bsync(4 + lg, lanes);
            if (tid() == 0) team_lanes = size, narrow = 0;
        }
        bsync(1, size);
        if (tid() == 0) word = 1000 + r;
        bsync(1, size);
        sum += word + team_lanes;
    }
    out[threadIdx.x] = sum;
    if (threadIdx.x == 639) out[640] = (int)(cycles / (2LL * k * rounds > 0 ? 2LL * k * rounds : 1));
}
int main(int argc, char **argv) {
    int runners = atoi(argv[1]), k = atoi(argv[2]), rounds = atoi(argv[3]),
        widths = atoi(argv[4]), mode = atoi(argv[5]);
    int *out;
    cudaMalloc(&out, 641 * sizeof(int));
    probe<<<1, 640>>>(runners, k, rounds, widths, mode, out);
    int h[641];
    cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
    printf("runners %d k %d rounds %d widths %d mode %d: out[639] = %d, cycles a narrow barrier %d (%s)\n",
           runners, k, rounds, widths, mode, h[639], h[640], cudaGetErrorString(cudaGetLastError()));
    return 0;
}
