// racecheck-probe4.cu: racecheck-probe3.cu (run J: only variant 3, and only for one-warp
// teams, was clean) with two more variants, where the warps outside a narrow team do not wait
// at a named barrier while it runs: 4 they poll a shared word with atomics (the narrow team's
// thread 0 adds 1 to it at its end), 5 they poll a word in global memory; then the whole team
// meets at its barrier. One-warp teams meet at __syncwarp in both, as in 3.
// From probe3: racecheck-probe2.cu (run I: hazards with the barrier ids in registers)
// with four ways to meet at the team's barrier, VARIANT: 0 the id and count in registers (as
// probe2), 1 the id an immediate (a switch over the ids) and the count a register, 2 both
// immediates (a narrow team's count follows from its id), 3 as 0 but a one-warp team meets at
// __syncwarp. Run: ./probe3 RUNNERS K R WIDTHS VARIANT. From probe2: this mirrors the device schedule's
// narrow teams (fk_device.cuh's fk_team_narrow / fk_team_widen) more closely: a block of 640
// threads whose first RUNNERS threads are not in the team, a team that meets at named barriers
// whose id and count it reads from shared memory, R narrow phases of width cycling through
// WIDTHS warps, each passing K barriers of its own, after each a write by the team's thread 0
// that every team thread reads behind a team barrier. Run: ./probe2 RUNNERS K R WIDTHS SAMEID
// (SAMEID 1: every narrow team meets at barrier 1, session 34's code; 0: at 4 + log2(warps)).
#include <cstdio>
#include <cstdlib>
__shared__ int team_lanes, team_bar, team_first, word;
__shared__ unsigned gen_shared;
__device__ unsigned gen_global;
__device__ __forceinline__ void bsync(int id, int n) {
    __syncwarp();
    asm volatile("barrier.sync.aligned %0, %1;" ::"r"(id), "r"(n) : "memory");
}
__device__ __forceinline__ int tid() { return (int)threadIdx.x - team_first; }
#define IMM(ID) asm volatile("barrier.sync.aligned " #ID ", %0;" ::"r"(n) : "memory")
#define IMM2(ID, N) asm volatile("barrier.sync.aligned " #ID ", " #N ";" ::: "memory")
__device__ __forceinline__ void bsync_v(int variant, int id, int n) {
    __syncwarp();
    if (variant == 1) {
        switch (id) {
        case 1: IMM(1); break;
        case 4: IMM(4); break;
        case 5: IMM(5); break;
        default: IMM(6); break;
        }
    } else if (variant == 2) {
        switch (id) {
        case 1: IMM(1); break;
        case 4: IMM2(4, 32); break;
        case 5: IMM2(5, 64); break;
        default: IMM2(6, 128); break;
        }
    } else if (variant >= 3 && n == 32) {
        __syncwarp();
    } else {
        asm volatile("barrier.sync.aligned %0, %1;" ::"r"(id), "r"(n) : "memory");
    }
}
#define bsync(ID, N) bsync_v(variant, ID, N)
#define team_sync() bsync(team_bar, team_lanes)
__global__ void probe(int runners, int k, int rounds, int widths, int variant, int *out) {
    if (threadIdx.x == 0) team_first = runners, team_lanes = 640 - runners, team_bar = 1, gen_shared = 0;
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
        if (tid() == 0) team_lanes = lanes, team_bar = 4 + lg;
        bsync(bar, size);
        bool in = tid() < lanes;
        unsigned gen0 = variant == 4 ? atomicAdd(&gen_shared, 0) : *(volatile unsigned *)&gen_global;
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
        if (variant >= 4) {
            if (tid() == 0) {
                __threadfence();
                if (variant == 4) atomicAdd(&gen_shared, 1);
                else atomicAdd(&gen_global, 1);
            }
            if (!in) {
                if (variant == 4)
                    while (atomicAdd(&gen_shared, 0) == gen0) __nanosleep(100);
                else
                    while (*(volatile unsigned *)&gen_global == gen0) __nanosleep(100);
            }
        }
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
        widths = atoi(argv[4]), variant = atoi(argv[5]);
    int *out;
    cudaMalloc(&out, 640 * sizeof(int));
    probe<<<1, 640>>>(runners, k, rounds, widths, variant, out);
    int h[640];
    cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
    printf("runners %d k %d rounds %d widths %d variant %d: out[639] = %d (%s)\n", runners, k,
           rounds, widths, variant, h[639], cudaGetErrorString(cudaGetLastError()));
    return 0;
}
