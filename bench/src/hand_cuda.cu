// Hand-written CUDA baselines for forkcc bench: the algorithms of matmul.fork and
// prefix_hillis_steele.fork, written directly as kernels (one thread per PRAM processor,
// the same round-robin distribution of work), with the input built on the device from the
// same LCG as classroom-examples/lcg.h.

__device__ unsigned lcg_step(unsigned x) { return x * 1103515245u + 12345u; }

__device__ int rnd(int i, int seed, int m)
{
    unsigned x = lcg_step((unsigned)i * 2654435761u + (unsigned)seed);
    x = lcg_step(x ^ (x >> 15));
    return (int)((x >> 16) % (unsigned)m);
}

// This thread's PRAM processor number; threads past the last processor return at once.
__device__ long long proc_id() { return (long long)blockIdx.x * blockDim.x + threadIdx.x; }

extern "C" __global__ void matmul_input(int *a, int *b, int n, long long procs)
{
    long long nn = (long long)n * n, p = proc_id();
    if (p >= procs)
        return;
    for (long long e = p; e < nn; e += procs) {
        a[e] = rnd((int)e, 5, 10);
        b[e] = rnd((int)e, 6, 10);
    }
}

// Entry e = i*n + j of C is the dot product of row i of A and column j of B.
extern "C" __global__ void matmul(const int *a, const int *b, int *c, int n, long long procs)
{
    long long nn = (long long)n * n, p = proc_id();
    if (p >= procs)
        return;
    for (long long e = p; e < nn; e += procs) {
        int i = (int)(e / n), j = (int)(e % n), s = 0;
        for (int k = 0; k < n; k++)
            s += a[(long long)i * n + k] * b[(long long)k * n + j];
        c[e] = s;
    }
}

extern "C" __global__ void prefix_input(int *in, int *x, int n, long long procs)
{
    long long p = proc_id();
    if (p >= procs)
        return;
    for (long long i = p; i < n; i += procs) {
        in[i] = rnd((int)i, 1, 100);
        x[i] = in[i];
    }
}

// One Hillis-Steele round as prefix_hillis_steele.fork does it: every element i >= d adds the
// element d places to its left, reading `a` and writing `b`; then (prefix_copy) `b` is copied
// back into `a`. Swapping the two arrays instead would skip the copy (3 accesses per element
// and round instead of 5), which the Fork program does not do: the same work on both sides.
extern "C" __global__ void prefix_round(const int *a, int *b, int n, int d, long long procs)
{
    long long p = proc_id();
    if (p >= procs)
        return;
    for (long long i = p; i < n; i += procs)
        b[i] = i >= d ? a[i - d] + a[i] : a[i];
}

extern "C" __global__ void prefix_copy(int *a, const int *b, int n, long long procs)
{
    long long p = proc_id();
    if (p >= procs)
        return;
    for (long long i = p; i < n; i += procs)
        a[i] = b[i];
}
