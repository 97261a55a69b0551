// A CPU stand-in for the parts of CUDA the emitted standalone .cu uses, so that tests on a
// machine without a GPU can run the generated kernels, the runtime library and the host
// walk with g++. Each kernel launch runs its blocks one after another; the threads of a
// block-wide kernel are fibers (ucontext) on the launching thread, switched at
// __syncthreads, the warp intrinsics and the persistent kernel's yields. The test rewrites
// `K<<<grid, block>>>(args)` as `fk_emu_launch(grid, block, K, args)` before compiling.
//
// Fibers, not OS threads: a __syncthreads of 64 OS threads on a machine of 2 cores was 64
// futex waits and wakes, and the corpus's runs took most of the emulated test's time. A
// fiber switch costs little more than a function call, and a run is the same on every
// machine: the threads interleave in one fixed pseudo-random order (fk_emu_switch).
//
// The device schedule's persistent kernel may run on several blocks (FK_EMU_BLOCKS, 1 unless
// a test defines it): each block is an OS thread with its own fibers, its own `__shared__`
// variables (thread_local) and its own pseudo-random order, and the blocks meet only through
// global memory, its atomics and fences, as on the GPU (the grid barrier, region tasks posted
// to other blocks). Such a run's interleaving of blocks is the OS's, not a fixed one.
//
// This checks the logic of the generated code (splits, scans, loops, calls, printf records),
// not CUDA's memory model: real GPU runs are scripts/gpu-verify.sh's job.

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <sched.h>
#include <sys/mman.h>
#include <thread>
#include <ucontext.h>
#include <vector>

#define __global__
#define __device__
#define __constant__
#define __noinline__
#define __forceinline__ inline
#define FK_EMU 1
#define __host__
#define __launch_bounds__(...)
// A block's own (each block of a multi-block launch is an OS thread).
#define __shared__ static thread_local

// Block-wide runtime kernels run with 64 threads here (1024 on the GPU): the same code,
// fewer threads to synchronise on a CPU.
#define FK_SCAN_THREADS 64
// A block region runs on a block of that size, one thread per member (a test may raise it:
// the device schedule's members then share the threads of a region of synchronous kernels).
#ifndef FK_REGION_MAX
#define FK_REGION_MAX FK_SCAN_THREADS
#endif
#define FK_REGION_THREADS(n) FK_SCAN_THREADS
// The device schedule's persistent kernel runs as FK_EMU_BLOCKS blocks of a runner warp, the
// kernel warp and a team of 32 (fk_host_schedule.cuh); above 32 processors a block has no
// kernel warp (fk_device_run) and its team has 64 threads.
#define FK_EMU_DEVICE_THREADS 96
#ifndef FK_EMU_BLOCKS
#define FK_EMU_BLOCKS 1
#endif
// The most fibers a block-wide launch has.
#define FK_EMU_FIBERS FK_EMU_DEVICE_THREADS

struct fk_emu_dim {
    unsigned x;
};
// The running fiber's (one runs at a time; the switch sets them).
static thread_local fk_emu_dim blockIdx, threadIdx;
static fk_emu_dim blockDim, gridDim;

// A barrier of `n` fibers: the last to arrive starts the next generation.
struct fk_emu_barrier {
    unsigned arrived = 0, generation = 0;
};

// The fibers of a block-wide launch (FK_SCAN_THREADS, or FK_EMU_DEVICE_THREADS for the
// persistent kernel), each running `job` once.
struct fk_emu_block {
    struct fiber {
        ucontext_t context;
        bool done;
        // Waiting at a barrier until its generation passes `generation` (none: runnable).
        const fk_emu_barrier *barrier;
        unsigned generation;
        bool runnable() const { return !done && (!barrier || barrier->generation != generation); }
    };
    fiber fibers[FK_EMU_FIBERS];
    unsigned size = 0;  // fibers of the running launch
    ucontext_t launcher;
    unsigned current = 0, live = 0;
    bool running = false;  // inside a block-wide launch (a serial kernel has no fibers)
    fk_emu_barrier all, warps[FK_EMU_FIBERS / 32];
    // The named barriers by id (`barrier.sync id, n`: the device schedule's task warps,
    // fk_device.cuh's fk_team_barrier and fk_team_count), and the count a `barrier.red.popc`
    // returns.
    fk_emu_barrier named[4];
    int named_sum[4] = {}, named_count[4] = {};
    unsigned long long slots[FK_EMU_FIBERS];  // one exchange word per thread
    std::function<void(unsigned)> job;
};
static thread_local fk_emu_block *fk_emu_current;

// Each fiber's stack: as large as an OS thread's (deep recursion of device functions runs
// there), reserved once and touched only as deep as a run goes.
constexpr size_t FK_EMU_STACK = 8u << 20;

inline fk_emu_block &fk_emu_pool() {
    static thread_local fk_emu_block *blk = [] {
        auto *b = new fk_emu_block;
        fk_emu_current = b;
        return b;
    }();
    return *blk;
}

inline char *fk_emu_stack(unsigned t) {
    static thread_local char *stacks = [] {
        void *m = mmap(nullptr, FK_EMU_STACK * FK_EMU_FIBERS, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (m == MAP_FAILED) abort();
        return (char *)m;
    }();
    return stacks + FK_EMU_STACK * t;
}

// Runs another fiber that has not finished, chosen pseudo-randomly (a fixed sequence, so a
// run repeats exactly, but not round robin, so that the threads meet the runtime's
// counters and locks in many orders); the caller resumes when its turn comes again. With no
// other fiber left, the caller runs on.
inline void fk_emu_switch() {
    if (!fk_emu_current || !fk_emu_current->running) return;
    fk_emu_block &b = *fk_emu_current;
    static thread_local unsigned long long state = 0x9e3779b97f4a7c15ull;
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    unsigned from = b.current, to = (unsigned)(state % b.size), tried = 0;
    while ((!b.fibers[to].runnable() || to == from) && ++tried < b.size)
        to = (to + 1) % b.size;
    if (!b.fibers[to].runnable() || to == from) {
        // Every other fiber of the block waits: another block (an OS thread) has to move.
        if (gridDim.x > 1) sched_yield();
        return;
    }
    b.current = to;
    threadIdx.x = to;
    swapcontext(&b.fibers[from].context, &b.fibers[to].context);
}

inline void fk_emu_wait(fk_emu_barrier &bar, unsigned n) {
    unsigned generation = bar.generation;
    if (++bar.arrived == n) {
        bar.arrived = 0;
        bar.generation++;
        return;
    }
    auto &self = fk_emu_current->fibers[fk_emu_current->current];
    self.barrier = &bar;
    self.generation = generation;
    while (bar.generation == generation) fk_emu_switch();
    self.barrier = nullptr;
}

inline void fk_emu_fiber_main() {
    fk_emu_block &b = *fk_emu_current;
    unsigned t = b.current;
    b.job(t);
    b.fibers[t].done = true;
    b.live--;
    // Returning goes to the launcher (uc_link), which runs the next live fiber.
}

inline void __syncthreads() { fk_emu_wait(fk_emu_current->all, fk_emu_current->size); }

inline int __syncthreads_count(int pred) {
    static thread_local int sum = 0;
    __syncthreads();
    if (threadIdx.x == 0) sum = 0;
    __syncthreads();
    if (pred) sum++;
    __syncthreads();
    int n = sum;
    __syncthreads();
    return n;
}

// Named barrier `id` of `n` threads (1: the team's; 2 and 3: the end of a narrow loop or
// region task), and its popc reduction: the last to arrive publishes the count, which every
// waiter reads before any of them can arrive at the next one.
inline void fk_emu_named_sync(unsigned id, int n) {
    fk_emu_wait(fk_emu_current->named[id], (unsigned)n);
}
inline int fk_emu_named_count(unsigned id, int n, int pred) {
    fk_emu_block &b = *fk_emu_current;
    b.named_sum[id] += pred != 0;
    if (b.named[id].arrived + 1 == (unsigned)n) {
        b.named_count[id] = b.named_sum[id];
        b.named_sum[id] = 0;
    }
    fk_emu_wait(b.named[id], (unsigned)n);
    return b.named_count[id];
}

template <class T> T min(T a, T b) { return a < b ? a : b; }

// Every lane publishes `v`; returns the lane's warp base in the slots.
inline unsigned fk_emu_publish(unsigned long long v) {
    unsigned t = threadIdx.x, base = t & ~31u;
    fk_emu_current->slots[t] = v;
    fk_emu_wait(fk_emu_current->warps[t / 32], 32);
    return base;
}
inline void fk_emu_done() { fk_emu_wait(fk_emu_current->warps[threadIdx.x / 32], 32); }

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
// A pass of the device schedule's persistent kernel in which no processor could move, or a
// spin on a lock: the other fibers run.
inline void fk_emu_yield() { fk_emu_switch(); }

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

template <class T> T fk_load_acquire(const T *a) { return __atomic_load_n(a, __ATOMIC_ACQUIRE); }
template <class T> T fk_add_acq_rel(T *a, T v) { return __atomic_fetch_add(a, v, __ATOMIC_ACQ_REL); }
inline void fk_add_release(unsigned *a, unsigned v) { __atomic_fetch_add(a, v, __ATOMIC_RELEASE); }
template <class T> T atomicAdd(T *p, T v) { return __atomic_fetch_add(p, v, __ATOMIC_SEQ_CST); }
inline int atomicAnd(int *p, int v) { return __atomic_fetch_and(p, v, __ATOMIC_SEQ_CST); }
inline int atomicOr(int *p, int v) { return __atomic_fetch_or(p, v, __ATOMIC_SEQ_CST); }
inline unsigned atomicOr(unsigned *p, unsigned v) { return __atomic_fetch_or(p, v, __ATOMIC_SEQ_CST); }
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
inline unsigned long long atomicMin(unsigned long long *p, unsigned long long v) {
    unsigned long long old = __atomic_load_n(p, __ATOMIC_SEQ_CST);
    while (old > v && !__atomic_compare_exchange_n(p, &old, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) {
    }
    return old;
}
inline int atomicCAS(int *p, int expected, int v) {
    __atomic_compare_exchange_n(p, &expected, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
    return expected;
}
inline unsigned long long atomicCAS(unsigned long long *p, unsigned long long expected,
                                    unsigned long long v) {
    __atomic_compare_exchange_n(p, &expected, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
    return expected;
}
inline unsigned long long atomicExch(unsigned long long *p, unsigned long long v) {
    return __atomic_exchange_n(p, v, __ATOMIC_SEQ_CST);
}
inline unsigned long long atomicOr(unsigned long long *p, unsigned long long v) {
    return __atomic_fetch_or(p, v, __ATOMIC_SEQ_CST);
}

// Kernels without barriers or warp intrinsics run their threads one after another (a valid
// order for them); the runtime's block-wide kernels (split ranks, multiprefix), launched with
// FK_SCAN_THREADS threads, and the device schedule's persistent kernel get real threads.
// Block b of a block-wide launch: its fibers on the calling OS thread, until all finish.
template <class K, class... A> void fk_emu_run_block(unsigned b, unsigned block, K kernel, A... args) {
    fk_emu_block &blk = fk_emu_pool();
    blockIdx.x = b;
    blk.job = [=](unsigned) { kernel(args...); };
    blk.size = block;
    for (unsigned t = 0; t < block; t++) {
        auto &f = blk.fibers[t];
        f.done = false;
        f.barrier = nullptr;
        getcontext(&f.context);
        f.context.uc_stack.ss_sp = fk_emu_stack(t);
        f.context.uc_stack.ss_size = FK_EMU_STACK;
        f.context.uc_link = &blk.launcher;
        makecontext(&f.context, fk_emu_fiber_main, 0);
    }
    blk.live = block;
    blk.running = true;
    // Each return here is a fiber that finished: the next live one goes on.
    for (unsigned t = 0; blk.live > 0; t = (t + 1) % block) {
        if (blk.fibers[t].done) continue;
        blk.current = t;
        threadIdx.x = t;
        swapcontext(&blk.launcher, &blk.fibers[t].context);
    }
    blk.running = false;
}

template <class K, class... A> void fk_emu_launch(unsigned grid, unsigned block, K kernel, A... args) {
    blockDim.x = block;
    gridDim.x = grid;
    if (block != FK_SCAN_THREADS && block != FK_EMU_DEVICE_THREADS) {
        for (unsigned b = 0; b < grid; b++)
            for (unsigned t = 0; t < block; t++) {
                blockIdx.x = b;
                threadIdx.x = t;
                kernel(args...);
            }
        return;
    }
    if (block == FK_EMU_DEVICE_THREADS && grid > 1) {
        // The persistent kernel's blocks wait for each other: each runs on an OS thread.
        std::vector<std::thread> blocks;
        for (unsigned b = 0; b < grid; b++)
            blocks.emplace_back([=] { fk_emu_run_block(b, block, kernel, args...); });
        for (auto &t : blocks) t.join();
        return;
    }
    for (unsigned b = 0; b < grid; b++) fk_emu_run_block(b, block, kernel, args...);
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
