// The grid barrier alone: session 46's fk_g_arrive (a generation, stop words, fences) against
// session 47's (one word per barrier counting arrivals and their bits, one atomic and one
// poll), each after the block's count (__syncthreads_count) as fk_g_sync meets, on one
// cooperative launch of a block per SM. nvcc -O2 -arch=sm_90 grid_barrier.cu -o gb && ./gb
#include <cstdio>
#include <cstdlib>
typedef unsigned long long u64;

struct Old { unsigned arrived, generation, stop[2]; };
struct New { u64 arrived[3]; unsigned generation; };
__device__ Old old_s;
__device__ New new_s;

__device__ unsigned old_arrive(unsigned bits) {
    __shared__ unsigned result;
    if (threadIdx.x == 0) {
        Old &s = old_s;
        unsigned gen = *(volatile unsigned *)&s.generation;
        unsigned slot = gen & 1;
        if (bits) atomicOr(&s.stop[slot], bits);
        __threadfence();
        if (atomicAdd(&s.arrived, 1u) == gridDim.x - 1) {
            s.arrived = 0;
            s.stop[slot ^ 1] = 0;
            __threadfence();
            atomicAdd(&s.generation, 1u);
        } else {
            while (*(volatile unsigned *)&s.generation == gen) {}
        }
        __threadfence();
        result = *(volatile unsigned *)&s.stop[slot];
    }
    __syncthreads();
    return result;
}

__device__ inline u64 add_acq_rel(u64 *a, u64 v) {
    u64 old;
    asm volatile("atom.acq_rel.gpu.global.add.u64 %0, [%1], %2;" : "=l"(old) : "l"(a), "l"(v) : "memory");
    return old;
}
__device__ inline u64 load_acquire(const u64 *a) {
    u64 v;
    asm volatile("ld.acquire.gpu.global.u64 %0, [%1];" : "=l"(v) : "l"(a) : "memory");
    return v;
}
__shared__ unsigned new_gen;
__device__ unsigned new_arrive(unsigned bits) {
    __shared__ unsigned result;
    if (threadIdx.x == 0) {
        New &s = new_s;
        unsigned b = new_gen;
        u64 *word = &s.arrived[b % 3];
        u64 add = 1ull | (bits & 1 ? 1ull << 32 : 0) | (bits & 2 ? 1ull << 48 : 0);
        u64 v = add_acq_rel(word, add) + add;
        if ((unsigned)v == gridDim.x) {
            s.arrived[(b + 2) % 3] = 0;
            s.generation = b + 1;
        } else {
            while ((unsigned)(v = *(volatile u64 *)word) != gridDim.x) {}
            (void)load_acquire(word);
        }
        new_gen = b + 1;
        result = ((v >> 32) & 0xffffu ? 1u : 0u) | (v >> 48 ? 2u : 0u);
    }
    __syncthreads();
    return result;
}

// n barriers; every 1000th, block 1 arrives with a stop bit, which every block must see.
__global__ void run(int which, int n, int *bad) {
    if (which == 1 && threadIdx.x == 0) new_gen = *(volatile unsigned *)&new_s.generation;
    for (int i = 0; i < n; i++) {
        bool stop = blockIdx.x == 1 && threadIdx.x == 5 && i % 1000 == 999;
        unsigned bits = __syncthreads_count(stop) ? 1u : 0u;
        unsigned r = which == 0 ? old_arrive(bits) : new_arrive(bits);
        if (threadIdx.x == 0 && (r & 1) != (i % 1000 == 999 ? 1u : 0u)) atomicAdd(bad, 1);
    }
}

int main() {
    int sms;
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
    int *bad;
    cudaMalloc(&bad, sizeof(int));
    cudaEvent_t a, b;
    cudaEventCreate(&a);
    cudaEventCreate(&b);
    for (int threads : {384, 512}) {
        for (int round = 0; round < 3; round++) {
            for (int which = 0; which < 2; which++) {
                int n = 20000;
                cudaMemset(bad, 0, sizeof(int));
                void *args[] = {&which, &n, &bad};
                cudaEventRecord(a);
                cudaError_t e = cudaLaunchCooperativeKernel((void *)run, sms, threads, args, 0, 0);
                cudaEventRecord(b);
                cudaEventSynchronize(b);
                float ms;
                cudaEventElapsedTime(&ms, a, b);
                int h;
                cudaMemcpy(&h, bad, sizeof(int), cudaMemcpyDeviceToHost);
                printf("blocks %d threads %d %s: %.3f us a barrier (%s, %d wrong)\n", sms, threads,
                       which ? "new" : "old", ms * 1000.0f / n, cudaGetErrorString(e), h);
            }
        }
    }
    return 0;
}
