// Session 22 experiment: bench/src/hand_cuda.cu's Hillis-Steele kernels, timed with events
// over the 20 rounds (N = 2^20, P threads), with and without __restrict__.
#include <cstdio>
#include <vector>
#include <algorithm>
__device__ unsigned lcg_step(unsigned x) { return x * 1103515245u + 12345u; }
__device__ int rnd(int i, int seed, int m) {
    unsigned x = lcg_step((unsigned)i * 2654435761u + (unsigned)seed);
    x = lcg_step(x ^ (x >> 15));
    return (int)((x >> 16) % (unsigned)m);
}
__device__ long long proc_id() { return (long long)blockIdx.x * blockDim.x + threadIdx.x; }
__global__ void prefix_input(int *in, int *x, int n, long long procs) {
    long long p = proc_id(); if (p >= procs) return;
    for (long long i = p; i < n; i += procs) { in[i] = rnd((int)i, 1, 100); x[i] = in[i]; }
}
__global__ void prefix_round(const int *a, int *b, int n, int d, long long procs) {
    long long p = proc_id(); if (p >= procs) return;
    for (long long i = p; i < n; i += procs) b[i] = i >= d ? a[i - d] + a[i] : a[i];
}
__global__ void prefix_copy(int *a, const int *b, int n, long long procs) {
    long long p = proc_id(); if (p >= procs) return;
    for (long long i = p; i < n; i += procs) a[i] = b[i];
}
__global__ void prefix_round_r(const int *__restrict__ a, int *__restrict__ b, int n, int d, long long procs) {
    long long p = proc_id(); if (p >= procs) return;
    for (long long i = p; i < n; i += procs) b[i] = i >= d ? a[i - d] + a[i] : a[i];
}
__global__ void prefix_copy_r(int *__restrict__ a, const int *__restrict__ b, int n, long long procs) {
    long long p = proc_id(); if (p >= procs) return;
    for (long long i = p; i < n; i += procs) a[i] = b[i];
}
int main(int argc, char **argv) {
    int n = 1 << 20; long long P = argc > 1 ? atoll(argv[1]) : 65536;
    int *in, *x, *t; cudaMalloc(&in, n * 4); cudaMalloc(&x, n * 4); cudaMalloc(&t, n * 4);
    int bs = 256, blocks = (int)((P + bs - 1) / bs);
    cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
    for (int r = 0; r < 2; r++) {
        std::vector<float> ms;
        for (int run = 0; run < 7; run++) {
            prefix_input<<<blocks, bs>>>(in, x, n, P);
            cudaEventRecord(e0);
            for (int d = 1; d < n; d *= 2) {
                if (r) { prefix_round_r<<<blocks, bs>>>(x, t, n, d, P); prefix_copy_r<<<blocks, bs>>>(x, t, n, P); }
                else { prefix_round<<<blocks, bs>>>(x, t, n, d, P); prefix_copy<<<blocks, bs>>>(x, t, n, P); }
            }
            cudaEventRecord(e1); cudaEventSynchronize(e1);
            float m; cudaEventElapsedTime(&m, e0, e1); ms.push_back(m * 1000);
        }
        std::sort(ms.begin(), ms.end());
        int last; cudaMemcpy(&last, x + n - 1, 4, cudaMemcpyDeviceToHost);
        printf("%s P=%lld: median %.1f us (min %.1f) x[n-1]=%d\n", r ? "restrict" : "plain", P, ms[3], ms[0], last);
    }
}
