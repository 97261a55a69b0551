// racecheck-probe.cu's simple cases were clean (run H). This one mirrors the device schedule's
// narrow teams (fk_device.cuh's fk_team_narrow / fk_team_widen) more closely: a block of 640
// threads whose first RUNNERS threads are not in the team, a team that meets at named barriers
// whose id and count it reads from shared memory, R narrow phases of width cycling through
// WIDTHS warps, each passing K barriers of its own, after each a write by the team's thread 0
// that every team thread reads behind a team barrier. Run: ./probe2 RUNNERS K R WIDTHS SAMEID
// (SAMEID 1: every narrow team meets at barrier 1, session 34's code; 0: at 4 + log2(warps)).
#include <cstdio>
#include <cstdlib>
__shared__ int team_lanes, team_bar, team_first, word;
__device__ __forceinline__ void bsync(int id, int n) {
    __syncwarp();
    asm volatile("barrier.sync.aligned %0, %1;" ::"r"(id), "r"(n) : "memory");
}
__device__ __forceinline__ int tid() { return (int)threadIdx.x - team_first; }
__device__ __forceinline__ void team_sync() { bsync(team_bar, team_lanes); }
__global__ void probe(int runners, int k, int rounds, int widths, int same_id, int *out) {
    if (threadIdx.x == 0) team_first = runners, team_lanes = 640 - runners, team_bar = 1;
    __syncthreads();
    if ((int)threadIdx.x < runners) return;  // the runner warps do other work
    int sum = 0;
    for (int r = 0; r < rounds; r++) {
        int warps = widths == 1 ? 1 : 1 << (r % 3);
        int lanes = 32 * warps, lg = r % 3;
        if (widths == 1) lg = 0;
        // narrow
        int size = team_lanes, bar = team_bar;
        team_sync();
        if (tid() == 0) team_lanes = lanes, team_bar = same_id ? 1 : 4 + lg;
        bsync(bar, size);
        bool in = tid() < lanes;
        if (in)
            for (int i = 0; i < k; i++) {
                if (tid() == 0) word = i;
                team_sync();
                sum += word;
                team_sync();
            }
        // widen
        if (in) team_sync();
        if (tid() == 0) team_lanes = size, team_bar = bar;
        bsync(bar, size);
        // the full team: a write by thread 0, a barrier, every thread reads
        team_sync();
        if (tid() == 0) word = 1000 + r;
        team_sync();
        sum += word;
        team_sync();
    }
    out[threadIdx.x] = sum;
}
int main(int argc, char **argv) {
    int runners = atoi(argv[1]), k = atoi(argv[2]), rounds = atoi(argv[3]),
        widths = atoi(argv[4]), same_id = atoi(argv[5]);
    int *out;
    cudaMalloc(&out, 640 * sizeof(int));
    probe<<<1, 640>>>(runners, k, rounds, widths, same_id, out);
    int h[640];
    cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
    printf("runners %d k %d rounds %d widths %d same_id %d: out[639] = %d (%s)\n", runners, k,
           rounds, widths, same_id, h[639], cudaGetErrorString(cudaGetLastError()));
    return 0;
}
