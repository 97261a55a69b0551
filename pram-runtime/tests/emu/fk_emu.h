// A CPU stand-in for the parts of CUDA the emitted standalone .cu uses, so that tests on a
// machine without a GPU can run the generated kernels, the runtime library and the host
// walk with g++. Each kernel launch runs its blocks one after another; the threads of a
// block-wide kernel are std::threads, with a barrier for __syncthreads and per-warp barriers
// for the warp intrinsics. The test rewrites `K<<<grid, block>>>(args)` as
// `fk_emu_launch(grid, block, K, args)` before compiling.
//
// This checks the logic of the generated code (splits, scans, loops, calls, printf records),
// not CUDA's memory model: real GPU runs are scripts/gpu-verify.sh's job.

#include <atomic>
#include <chrono>
#include <barrier>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <thread>
#include <vector>

#define __global__
#define __device__
#define __noinline__
#define FK_EMU 1
#define __host__
#define __launch_bounds__(n)
#define __shared__ static

// Block-wide runtime kernels run with 64 threads here (1024 on the GPU): the same code,
// fewer threads to synchronise on a CPU.
#define FK_SCAN_THREADS 64
// A block region runs on a block of that size, one thread per member (a test may raise it:
// the device schedule's members then share the threads of a region of synchronous kernels).
#ifndef FK_REGION_MAX
#define FK_REGION_MAX FK_SCAN_THREADS
#endif
#define FK_REGION_THREADS(n) FK_SCAN_THREADS
// The device schedule runs a region on its block for every group of two members or more,
// so that the corpus's small runs take that path (a test may ask for the GPU's number).
#ifndef FK_REGION_TASK_MIN
#define FK_REGION_TASK_MIN 2
#endif

struct fk_emu_dim {
    unsigned x;
};
static thread_local fk_emu_dim blockIdx, threadIdx;
static fk_emu_dim blockDim, gridDim;

// A block of FK_SCAN_THREADS persistent threads (created once), each running `job` per launch.
struct fk_emu_block {
    std::unique_ptr<std::barrier<>> all;
    std::vector<std::unique_ptr<std::barrier<>>> warps;
    std::vector<unsigned long long> slots;  // one exchange word per thread
    std::unique_ptr<std::barrier<>> start, done;
    std::function<void(unsigned)> job;
};
static fk_emu_block *fk_emu_current;

inline fk_emu_block &fk_emu_pool() {
    static fk_emu_block *blk = [] {
        auto *b = new fk_emu_block;
        b->all = std::make_unique<std::barrier<>>(FK_SCAN_THREADS);
        for (unsigned w = 0; w < FK_SCAN_THREADS / 32; w++)
            b->warps.push_back(std::make_unique<std::barrier<>>(32));
        b->slots.assign(FK_SCAN_THREADS, 0);
        b->start = std::make_unique<std::barrier<>>(FK_SCAN_THREADS + 1);
        b->done = std::make_unique<std::barrier<>>(FK_SCAN_THREADS + 1);
        for (unsigned t = 0; t < FK_SCAN_THREADS; t++)
            std::thread([b, t] {
                for (;;) {
                    b->start->arrive_and_wait();
                    b->job(t);
                    b->done->arrive_and_wait();
                }
            }).detach();
        fk_emu_current = b;
        return b;
    }();
    return *blk;
}

inline void __syncthreads() { fk_emu_current->all->arrive_and_wait(); }

inline int __syncthreads_count(int pred) {
    static std::atomic<int> sum{0};
    __syncthreads();
    if (threadIdx.x == 0) sum = 0;
    __syncthreads();
    if (pred) sum++;
    __syncthreads();
    int n = sum;
    __syncthreads();
    return n;
}

template <class T> T min(T a, T b) { return a < b ? a : b; }

// Every lane publishes `v`; returns the lane's warp base in the slots.
inline unsigned fk_emu_publish(unsigned long long v) {
    unsigned t = threadIdx.x, base = t & ~31u;
    fk_emu_current->slots[t] = v;
    fk_emu_current->warps[t / 32]->arrive_and_wait();
    return base;
}
inline void fk_emu_done() { fk_emu_current->warps[threadIdx.x / 32]->arrive_and_wait(); }

template <class T> T __shfl_sync(unsigned, T v, int src) {
    unsigned long long w = 0;
    memcpy(&w, &v, sizeof v);
    unsigned base = fk_emu_publish(w);
    unsigned long long r = fk_emu_current->slots[base + (src & 31)];
    fk_emu_done();
    T out;
    memcpy(&out, &r, sizeof out);
    return out;
}

template <class T> T __shfl_up_sync(unsigned, T v, unsigned d) {
    unsigned long long w = 0;
    memcpy(&w, &v, sizeof v);
    unsigned base = fk_emu_publish(w);
    unsigned lane = threadIdx.x & 31;
    unsigned long long r = lane >= d ? fk_emu_current->slots[base + lane - d] : w;
    fk_emu_done();
    T out;
    memcpy(&out, &r, sizeof out);
    return out;
}

template <class T> unsigned __match_any_sync(unsigned, T v) {
    unsigned long long w = 0;
    memcpy(&w, &v, sizeof v);
    unsigned base = fk_emu_publish(w);
    unsigned mask = 0;
    for (unsigned l = 0; l < 32; l++)
        if (fk_emu_current->slots[base + l] == w) mask |= 1u << l;
    fk_emu_done();
    return mask;
}

inline void __threadfence() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
// A pass of the device schedule's persistent kernel in which no processor could move: sleep
// briefly, so that 64 waiting threads do not starve the one whose processor they wait for
// (and the other tests on a small machine).
inline void fk_emu_yield() { std::this_thread::sleep_for(std::chrono::microseconds(20)); }

// %globaltimer: nanoseconds of a clock all threads share.
inline unsigned long long fk_emu_now() {
    return (unsigned long long)std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

inline int __any_sync(unsigned, int pred) {
    unsigned base = fk_emu_publish(pred != 0);
    int any = 0;
    for (unsigned l = 0; l < 32; l++) any |= fk_emu_current->slots[base + l] != 0;
    fk_emu_done();
    return any;
}

inline unsigned __ballot_sync(unsigned, int pred) {
    unsigned base = fk_emu_publish(pred != 0);
    unsigned mask = 0;
    for (unsigned l = 0; l < 32; l++) mask |= (fk_emu_current->slots[base + l] != 0) << l;
    fk_emu_done();
    return mask;
}

inline void __syncwarp() {
    fk_emu_publish(0);
    fk_emu_done();
}

inline int __ffs(unsigned x) { return __builtin_ffs((int)x); }
inline int __popc(unsigned x) { return __builtin_popcount(x); }
inline int __clz(unsigned x) { return x ? __builtin_clz(x) : 32; }
inline int __clzll(long long x) { return x ? __builtin_clzll((unsigned long long)x) : 64; }

inline unsigned fk_load_acquire(const unsigned *a) { return __atomic_load_n(a, __ATOMIC_ACQUIRE); }
inline unsigned fk_add_acq_rel(unsigned *a, unsigned v) { return __atomic_fetch_add(a, v, __ATOMIC_ACQ_REL); }
inline void fk_add_release(unsigned *a, unsigned v) { __atomic_fetch_add(a, v, __ATOMIC_RELEASE); }
template <class T> T atomicAdd(T *p, T v) { return __atomic_fetch_add(p, v, __ATOMIC_SEQ_CST); }
inline int atomicAnd(int *p, int v) { return __atomic_fetch_and(p, v, __ATOMIC_SEQ_CST); }
inline int atomicOr(int *p, int v) { return __atomic_fetch_or(p, v, __ATOMIC_SEQ_CST); }
inline int atomicExch(int *p, int v) { return __atomic_exchange_n(p, v, __ATOMIC_SEQ_CST); }
inline int atomicMax(int *p, int v) {
    int old = __atomic_load_n(p, __ATOMIC_SEQ_CST);
    while (old < v && !__atomic_compare_exchange_n(p, &old, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) {
    }
    return old;
}
inline unsigned long long atomicMax(unsigned long long *p, unsigned long long v) {
    unsigned long long old = __atomic_load_n(p, __ATOMIC_SEQ_CST);
    while (old < v && !__atomic_compare_exchange_n(p, &old, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) {
    }
    return old;
}
inline int atomicMin(int *p, int v) {
    int old = __atomic_load_n(p, __ATOMIC_SEQ_CST);
    while (old > v && !__atomic_compare_exchange_n(p, &old, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) {
    }
    return old;
}
inline int atomicCAS(int *p, int expected, int v) {
    __atomic_compare_exchange_n(p, &expected, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
    return expected;
}

// Kernels without barriers or warp intrinsics run their threads one after another (a valid
// order for them); the runtime's block-wide kernels (split ranks, multiprefix), launched with
// FK_SCAN_THREADS threads, get real threads.
template <class K, class... A> void fk_emu_launch(unsigned grid, unsigned block, K kernel, A... args) {
    blockDim.x = block;
    gridDim.x = grid;
    if (block != FK_SCAN_THREADS) {
        for (unsigned b = 0; b < grid; b++)
            for (unsigned t = 0; t < block; t++) {
                blockIdx.x = b;
                threadIdx.x = t;
                kernel(args...);
            }
        return;
    }
    for (unsigned b = 0; b < grid; b++) {
        fk_emu_block &blk = fk_emu_pool();
        blk.job = [=](unsigned t) {
            blockIdx.x = b;
            threadIdx.x = t;
            kernel(args...);
        };
        blk.start->arrive_and_wait();
        blk.done->arrive_and_wait();
    }
}

// ---- the runtime API, on host memory ----

typedef int cudaError_t;
enum { cudaSuccess = 0, cudaMemcpyHostToDevice = 1, cudaMemcpyDeviceToHost = 2, cudaLimitStackSize = 0 };
inline const char *cudaGetErrorString(cudaError_t) { return "emulated"; }
// Every allocation's bytes by its address (tests/emulated.rs compares the arrays of the
// `.cu`'s descriptors with the driver's arena).
inline std::map<const void *, unsigned long long> &fk_emu_allocations() {
    static std::map<const void *, unsigned long long> allocations;
    return allocations;
}
inline cudaError_t cudaMalloc(void **p, unsigned long long n) {
    *p = calloc(1, n);
    if (*p) fk_emu_allocations()[*p] = n;
    return *p ? cudaSuccess : 2;
}
inline cudaError_t cudaMemset(void *p, int v, unsigned long long n) { memset(p, v, n); return cudaSuccess; }
inline cudaError_t cudaMemsetAsync(void *p, int v, unsigned long long n) { return cudaMemset(p, v, n); }
inline cudaError_t cudaMemcpy(void *d, const void *s, unsigned long long n, int) { memcpy(d, s, n); return cudaSuccess; }
template <class T> cudaError_t cudaMemcpyToSymbol(T &sym, const void *s, unsigned long long n) {
    memcpy(&sym, s, n);
    return cudaSuccess;
}
inline cudaError_t cudaGetLastError() { return cudaSuccess; }
inline cudaError_t cudaDeviceSynchronize() { return cudaSuccess; }
inline cudaError_t cudaDeviceSetLimit(int, unsigned long long) { return cudaSuccess; }
