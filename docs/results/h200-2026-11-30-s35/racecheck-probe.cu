// How compute-sanitizer's racecheck orders shared-memory accesses across named barriers when
// some warps of a team pass more barriers than others (the device schedule's narrow teams,
// docs/device-schedule.md, "Known issue: racecheck"). One block of 4 warps, the team, which
// meets at `barrier.sync 1, 128`. Mode m decides what happens before thread W writes a shared
// word, the team meets, and every thread reads it. Run: ./probe MODE K W under racecheck.
#include <cstdio>
#include <cstdlib>
__device__ __forceinline__ void bsync(int id, int n) {
    asm volatile("barrier.sync.aligned %0, %1;" ::"r"(id), "r"(n) : "memory");
}
__device__ __forceinline__ int bred(int id, int n, int pred) {
    int r;
    asm volatile("{ .reg .pred p; setp.ne.u32 p, %1, 0; barrier.red.popc.aligned.u32 %0, %2, %3, p; }"
                 : "=r"(r) : "r"(pred), "r"(id), "r"(n) : "memory");
    return r;
}
__global__ void probe(int mode, int k, int writer, int *out) {
    __shared__ int word;
    int warp = threadIdx.x / 32;
    bsync(1, 128);
    switch (mode) {
    case 1:  // warp 0 alone passes k barriers of its own (a narrow team of one warp)
        if (warp == 0) for (int i = 0; i < k; i++) bsync(4, 32);
        break;
    case 2:  // as 1, and the other warps pass k of theirs
        if (warp == 0) for (int i = 0; i < k; i++) bsync(4, 32);
        else for (int i = 0; i < k; i++) bsync(5, 96);
        break;
    case 3:  // warp 0 alone passes k __syncwarp
        if (warp == 0) for (int i = 0; i < k; i++) __syncwarp();
        break;
    case 4:  // warp 0 alone passes k barrier.red of its own
        if (warp == 0) for (int i = 0; i < k; i++) out[200] += bred(4, 32, i & 1);
        break;
    case 5:  // warps 0 and 1 pass k barriers of 64 threads
        if (warp < 2) for (int i = 0; i < k; i++) bsync(4, 64);
        break;
    case 6:  // as 1, then a __syncthreads of the whole block
        if (warp == 0) for (int i = 0; i < k; i++) bsync(4, 32);
        __syncthreads();
        break;
    default:
        break;
    }
    bsync(1, 128);
    if ((int)threadIdx.x == writer) word = 42;
    bsync(1, 128);
    out[threadIdx.x] = word;
    bsync(1, 128);
}
int main(int argc, char **argv) {
    int mode = atoi(argv[1]), k = atoi(argv[2]), writer = atoi(argv[3]);
    int *out;
    cudaMalloc(&out, 256 * sizeof(int));
    cudaMemset(out, 0, 256 * sizeof(int));
    probe<<<1, 128>>>(mode, k, writer, out);
    int h[128];
    cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
    printf("mode %d k %d writer %d: out[127] = %d (%s)\n", mode, k, writer, h[127],
           cudaGetErrorString(cudaGetLastError()));
    return 0;
}
