// forkcc group-tree runtime library, device side.
//
// Included in front of every emitted program, both by NVRTC (the GPU driver) and by nvcc (the
// standalone .cu of `forkcc build --emit cuda`). It uses no header, so NVRTC needs no include
// path, and no cooperative_groups (1.5 s NVRTC compile, docs/performance.md). Only the ABI
// comes before it: fk_abi.cuh, generated from transform::emit_cuda::abi (the structures the
// driver writes, the constants and the runtime kernels' signatures).
//
// State lives in GPU global memory, reached through the one `fk_m` descriptor:
// - per processor: `dollar` ($), `status` (active or how it left a construct);
// - per group instance: an `FkGroup` (parent, size, @, its members in $$ order, its shared
//   frame); groups form a stack that the host pushes and pops (sibling subgroups run one after
//   another, so group lifetimes nest);
// - the memory of the PRAM program: strings, shared globals, the slot stack of spilled
//   private variables, shared frames, the heap;
// - the printf record buffer and the fault word.
// Splits (by a condition or a fork index) are computed here: keys and subgroup sizes by
// `fk_split_count`, consecutive new ranks in $$ order by the scan of `fk_split_rank`. The host
// reads back only subgroup sizes (to size launches) and loop / branch flags.

// The memory and arithmetic checks (fk_checks.cuh, docs/gpu-faults.md): on unless the
// program was emitted with `--unchecked` or compiled with -DFK_CHECKS=0.
#ifndef FK_CHECKS
#define FK_CHECKS 1
#endif

// FkGroup, FkMachine (and every structure the driver writes): fk_abi.cuh.
//
// The descriptors (fk_m, fk_limits, fk_common, fk_t; fk_d and fk_slot_stacks under the device
// schedule) are in constant memory, which the drivers write by name before the first kernel
// (`abi::descriptors`). Every thread reads the same fields, which the constant cache serves,
// and the compiler keeps them in registers across a barrier or a store, which it could not
// do for a descriptor in global memory that any store might change.
__constant__ FkMachine fk_m;


// The object an access site in a loop found last time (fk_checks.cuh's `fk_at_seen`; `size`
// 0: none yet), the sites outside loops of one function or kernel body together (`fk_seen`),
// or the thread's last lasting object (`FkThread::seen`). A site in a loop mostly meets the
// same object again: `seq_quicksort`'s `x[i]` is the same array in every iteration; so do a
// body's other sites, and the calls of a function: `swap`'s `*p` and `*q` into the array
// being sorted, call after call. While a function runs, a static object's bounds cannot
// change, nor a shared frame's (its group outlives the call), nor a heap block's, whose
// memory is never reused; only a heap block's freed mark can, so it is read at every hit,
// except in a settled loop (FkThread::settled), which reads it once. A shared frame ends with
// its group, so only the others last for the thread.
struct FkSeen {
    const char *base;
    fk_u64 size;
    bool heap;
    bool untracked;  // p lay where the checks track no objects (FK_OBJ_UNKNOWN): fk_at passes
    bool lasting;    // a static object or a heap block: its bounds hold for the whole run
    bool fresh;      // a heap block whose freed mark was read in the settled loop running now
};

// A thread's first act under the device schedule: its entry of the checks' object before
// the last (fk_checks.cuh, where it is defined).
__device__ void fk_seen_before_clear();

// One PRAM processor as a kernel thread sees it.
struct FkThread {
    int proc;
    int rank;           // $$
    int size;           // groupsize()
    int group;
    fk_i64 dollar;      // $
    fk_i64 at;          // @
    fk_u64 slot_base;   // base of the current activation's slot frame
    unsigned launch;    // launch number (orders printf records)
    unsigned sub;       // segment of a block region's launch (0 outside regions)
    unsigned key;       // printf order key: $$ in synchronous, __PROC_NR__ in asynchronous code
    unsigned seq;       // printf records of this thread in this launch
    fk_u64 iters;       // how far the thread is in this step: the kernel's top-level statement
                        // (the high 32 bits; the emitted kernel sets it) and the iterations
                        // of loops inside it begun (fk_spin); in lockstep a later statement,
                        // and a later iteration of one, is a later step (fk_fault_precedes)
    int logged;         // --crcw common: the writes logged in this step, -1 when the step logs
                        // none (set by fk_log_begin, in the kernels that log: FK_W)
    bool conflicts_stop;  // the code that runs this kernel stops at a --crcw common conflict
                          // of its step, before a later step could begin the log again (an
                          // owned loop, fk_r_own_member), so fk_log_begin need not read the
                          // fault flag (an L2 round trip per kernel: docs/performance.md,
                          // session 29)
    bool settled;       // in an owned loop whose body frees no heap block (fk_r_own_member):
                        // no block can end before the loop does, but through a race of
                        // sibling groups (docs/language.md §5), so the checks read a block's
                        // freed mark once in the loop (FkSeen::fresh)
#ifdef FK_SCHEDULE_DEVICE
    int sp;             // the processor's frame height: its output order key (fk_schedule.cuh)
    int key_group;      // the group whose step (+ sub) orders the output: `group`, or inside a
                        // block region the region's group
    unsigned step;      // key_group's step where the thread was made (fk_s_thread) or its region
                        // began (fk_region): a group's step stays while its kernel or region
                        // runs, so a kernel that logs reads no global memory for its tag
                        // (fk_th_step)
#endif
    FkSeen seen;        // the last lasting object the checks looked up (FkSeen): a function's
                        // first access, as each call of `swap` makes, mostly meets it again
    char *frame;        // `group`'s own shared frame (FkGroup::frame, id `frame_id`), which
    int frame_id;       // fk_th_frame returns without a load: the kernels of a grid region
                        // reuse their member's FkThread, so its function's frame is found
                        // once per region (hand-edited Hillis–Steele 2^20 at P = 65,536: the
                        // region kernel 276 -> 258 us on the H200, docs/performance.md)
};

__host__ __device__ inline FkVar fk_var(int kind, int frame, fk_u64 offset, fk_u64 size) {
    FkVar v;
    v.kind = kind;
    v.frame_id = frame;
    v.offset = offset;
    v.size = size;
    return v;
}

// An object the memory checks know by address (fk_checks.cuh): a string literal, a shared
// global, a private global or a shared local; `object` indexes the descriptions the host
// prints.
struct FkObject {
    fk_u64 offset;      // in its region (strings, shared globals, private globals) or frame
    fk_u64 size;
    int object;
};

// The runtime limits (docs/gpu-limits.md): FK_LIMIT_*, FkLimits in fk_abi.cuh.
__constant__ FkLimits fk_limits;

// ---- faults ----

// The fault record: FkFault in fk_abi.cuh.

#ifdef FK_SCHEDULE_DEVICE
__device__ int fk_fault_key_order(const FkThread *th);
__device__ void fk_fault_key(const FkThread *th);
#endif

__device__ inline void fk_spin() {
#ifdef FK_EMU
    fk_emu_yield();
#else
    __nanosleep(32);
#endif
}

// Whether the fault of `th` (`why`) comes before the recorded one in the simulator's order:
// the earlier step (launch and segment; under the device schedule the step's output order
// key); in one step a fault during the step before a conflict found after it (a faulting
// write lands elsewhere and may look like one); then the lower processor, as the simulator
// names the first faulting processor of a step.
__device__ bool fk_fault_precedes(const FkThread *th, int why) {
    const FkFault *f = fk_m.fault;
#ifdef FK_SCHEDULE_DEVICE
    int order = fk_fault_key_order(th);
    if (order != 0) return order < 0;
#else
    if (th->launch != f->launch) return th->launch < f->launch;
    if (th->sub != f->sub) return th->sub < f->sub;
#endif
    bool conflict = why == FK_CONFLICT, recorded = fk_limits.why->limit == FK_CONFLICT;
    if (conflict != recorded) return recorded;
    if (th->iters != f->iters) return th->iters < f->iters;
    return th->proc < f->proc;
}

// The record keeps the first fault in the simulator's order (fk_fault_precedes): its site,
// processor ($$, @) and launch (the host drops the output of that launch and later ones, as
// the simulator stops at the faulting step), the values its message names, and `why` it is a
// limit or a conflict (fk_limits.why->limit, 0: neither). Under the device schedule the launch is
// replaced by the step's output order key (fk_schedule.cuh). Faults race for the record, so a
// lock serialises them. Returns whether this fault is now the recorded one.
// Cold code, compiled once: `__noinline__`, and the thread by value, since a call that took its
// address would keep every kernel's FkThread in local memory.
__device__ __noinline__ bool fk_fault_v(int site, FkThread th, fk_i64 value, int object,
                                        fk_i64 size, int why = 0) {
    FkFault *f = fk_m.fault;
    while (atomicCAS(&f->lock, 0, 1) != 0) fk_spin();
    __threadfence();
    bool first = *(volatile int *)&f->site == 0 || fk_fault_precedes(&th, why);
    if (first) {
        f->proc = th.proc;
        f->launch = th.launch;
        f->sub = th.sub;
        f->rank = th.rank;
        f->at = (int)th.at;
        f->value = value;
        f->object = object;
        f->size = (int)size;
        f->iters = th.iters;
        fk_limits.why->limit = why;
        fk_limits.why->proc = 0;
#ifdef FK_SCHEDULE_DEVICE
        fk_fault_key(&th);
#endif
        __threadfence();
        *(volatile int *)&f->site = site + 1;
    }
    __threadfence();
    atomicExch(&f->lock, 0);
    return first;
}

__device__ inline bool fk_fault(int site, const FkThread *th) {
    return fk_fault_v(site, *th, 0, 0, 0);
}

__device__ inline bool fk_faulted() { return *(volatile int *)&fk_m.fault->site != 0; }

// ---- limits: the step limit and the time limit (docs/gpu-limits.md) ----
// The GPU counts loop iterations: per processor for a loop inside a kernel, per group for a
// loop whose body is cut into kernels. Each iteration is at least one of the simulator's
// group steps, so a run stops no earlier than `forkcc sim --max-steps N` would. The time
// limit is measured on the GPU's own clock (%globaltimer) from `fk_start_clock`.


__device__ inline fk_u64 fk_now() {
#ifdef FK_EMU
    return fk_emu_now();
#else
    fk_u64 t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
#endif
}

// ---- timestamps (`--trace`, `--stats`; docs/tracing.md) ----
// One FkTraceRec per group instance, numbered in the order they form, when the driver sets
// fk_t; without it each site is one branch. The device schedule records every instance
// (fk_schedule.cuh); under both schedules, a block region records those it forms (fk_r_trace_*).

__constant__ FkTrace fk_t;

// A new record (fk_t set): instance `parent`'s subgroup, formed by the instruction at `pc`.
// Its number (at or past fk_t.cap: not kept).
__device__ unsigned fk_trace_record(unsigned i, int parent, int pc, int index, int size,
                                    fk_i64 at, unsigned event, fk_u64 begin, unsigned launch) {
    if (i < fk_t.cap) {
        FkTraceRec *r = &fk_t.recs[i];
        r->begin = begin;
        r->at = at;
        r->parent = parent;
        r->pc = pc;
        r->index = index;
        r->size = size;
        r->event = event;
        r->launch = launch;
    }
    return i;
}

// The time limit's start, on the GPU's clock: the host runs this one-thread kernel before the
// program's first kernel.
__device__ fk_u64 fk_start_ns;
extern "C" __global__ void fk_start_clock() { fk_start_ns = fk_now(); }

// The limit a loop passes after `it` iterations (FK_LIMIT_*), or 0.
__device__ int fk_limit_passed(fk_u64 it) {
    if (fk_limits.max_steps && it > fk_limits.max_steps) return FK_LIMIT_STEPS;
    if (fk_limits.timeout_ns && fk_now() - fk_start_ns > fk_limits.timeout_ns)
        return FK_LIMIT_TIME;
    return 0;
}

// Every processor stopped by the limit fault of `site` records itself: the lowest is
// reported, as the simulator names the first processor of the step (whichever processor
// passed the limit first).
__device__ void fk_limit_record(int site, int proc) {
    if (*(volatile int *)&fk_m.fault->site == site + 1)
        atomicMax(&fk_limits.why->proc, FK_PROC_MAX - proc);
}

// A fault at the loop's or call's `site` for limit `why` (none when 0). Cold, as fk_fault_v.
__device__ __noinline__ void fk_limit_fault(int why, int site, FkThread th) {
    if (!why) return;
    fk_fault_v(site, th, 0, 0, 0, why);
    fk_limit_record(site, th.proc);
}

// A loop has run `it` iterations (for `th`): a fault at the loop's `site` when a limit is
// passed. True when the run stops (this or another fault). Called every 1024th iteration:
// cold, as fk_fault_v.
__device__ __noinline__ bool fk_limit(fk_u64 it, int site, FkThread th) {
    fk_limit_fault(fk_limit_passed(it), site, th);
    if (!fk_faulted()) return false;
    if (*(volatile int *)&fk_limits.why->limit) fk_limit_record(site, th.proc);
    return true;
}

// Group g's $$ 0 member as the thread of launch (launch, sub) of the host schedule, for a
// fault of the whole group.
__device__ FkThread fk_first_member(int g, unsigned launch, unsigned sub) {
    FkThread th = {};
    th.proc = fk_m.members[fk_m.groups[g].members];
    th.launch = launch;
    th.sub = sub;
    return th;
}

// A limit the host schedule's host found on a loop of group g (one thread): the fault, with
// the output of launch `launch` on dropped. Then every loop ends (fk_member_stays).
extern "C" __global__ void fk_limit_hit(int g, int site, int why, unsigned launch) {
    fk_limit_fault(why, site, fk_first_member(g, launch, 0));
}

// An iteration of a loop inside a kernel; every 1024th tests the limits and whether another
// processor faulted. True: leave the loop (the run stops).
__device__ inline bool fk_spin(fk_u64 *it, int site, FkThread *th) {
    th->iters++;
    if ((++*it & 1023) != 0) return false;
    return fk_limit(*it, site, *th);
}

template <class T> __device__ T fk_div(T a, T b, int site, const FkThread *th) {
#if FK_CHECKS
    if (b == 0) { fk_fault(site, th); return 0; }
#endif
    return a / b;
}

template <class T> __device__ T fk_rem(T a, T b, int site, const FkThread *th) {
#if FK_CHECKS
    if (b == 0) { fk_fault(site, th); return 0; }
#endif
    return a % b;
}

__device__ int fk_ilog2(fk_i64 x, int site, const FkThread *th) {
    if (x <= 0) { fk_fault_v(site, *th, x, 0, 0); return 0; }
    return 63 - __clzll(x);
}

__device__ void fk_assert(int holds, int site, const FkThread *th) {
    if (!holds) fk_fault(site, th);
}

template <class T, class U> __device__ T fk_div_assign(T &place, U rhs, int site, const FkThread *th) {
    return place = (T)fk_div<U>((U)place, rhs, site, th);
}

template <class T, class U> __device__ T fk_rem_assign(T &place, U rhs, int site, const FkThread *th) {
    return place = (T)fk_rem<U>((U)place, rhs, site, th);
}

// `p += n` on a pointer, n in bytes.
template <class T> __device__ T *fk_ptr_step(T *&p, fk_i64 bytes) {
    return p = (T *)((char *)p + bytes);
}

// A declared local's zero (every executor starts locals at 0). memset, not a loop of byte
// stores: the compiler splits a local that a loop writes byte by byte into bytes, and then
// rebuilds an `int i` from four of them at each use (checked seq_quicksort's indexes, session
// 25); a memset of the whole local it keeps in one register.
__device__ __forceinline__ void fk_zero(void *p, fk_u64 n) { memset(p, 0, n); }

// ---- --crcw common: concurrent writes of different values (docs/gpu-limits.md) ----
// The transform cuts a kernel wherever one processor could read what another wrote, so the
// writes of different processors to one cell in a synchronous kernel are writes of one PRAM
// step. Each processor logs its writes to shared memory in the step (FK_W, emitted only when
// the run checks; FK_CHECKS 0 compiles the standalone .cu without it); after the step every
// processor finds its last value of each cell still there, or another processor wrote a
// different value: a fault. The host then names the processors as the simulator does.

// FK_WRITES (writes logged per processor and step), FkWrite, FkCommon: fk_abi.cuh.
__constant__ FkCommon fk_common;

// The step a write belongs to: the launch and segment under the host schedule, the group
// instance and its step under the device schedule (fk_schedule.cuh).
#ifdef FK_SCHEDULE_DEVICE
__device__ fk_u64 fk_step_tag(const FkThread *th);
#else
__device__ fk_u64 fk_step_tag(const FkThread *th) { return ((fk_u64)th->launch << 32) | th->sub; }
#endif

// A kernel that logs starts the processor's log (kept as it is after a fault, for the report:
// a step that begins after one logs nothing). The count of its entries stays in the thread
// (th->logged) as well, so that a write does not read it back from memory. A fault raised
// while the step runs is no reason to stop its log: the conflicts the report names are of a
// step whose writers have all ended it (the check runs after the group's barrier), and this
// step's entries carry this step's tag.
__device__ void fk_log_begin(FkThread *th) {
    th->logged = -1;
    if (!fk_common.writes || (!th->conflicts_stop && fk_faulted())) return;
    th->logged = 0;
    fk_common.count[th->proc] = 0;
    fk_common.tag[th->proc] = fk_step_tag(th);
}

// The `size` bytes at `a` as the low bytes of a word (little-endian): one load where the cell
// is aligned to its size, as scalar cells are (a struct of 8 bytes may be aligned to 4).
__device__ fk_u64 fk_bits(const void *a, int size) {
    if (((fk_u64)a & (fk_u64)(size - 1)) == 0) {
        switch (size) {
        case 1: return *(const unsigned char *)a;
        case 2: return *(const unsigned short *)a;
        case 4: return *(const unsigned *)a;
        case 8: return *(const fk_u64 *)a;
        }
    }
    fk_u64 b = 0;
    for (int i = 0; i < size; i++) ((char *)&b)[i] = ((const char *)a)[i];
    return b;
}

// `cell op= v` (op '=': `cell = v`; '<', '>': the shifts), as C computes it.
template <int OP, class T, class V> __device__ inline T fk_op(const T &cell, V v) {
    if constexpr (OP == '=') return (T)v;
    else if constexpr (OP == '+') return (T)(cell + v);
    else if constexpr (OP == '-') return (T)(cell - v);
    else if constexpr (OP == '*') return (T)(cell * v);
    else if constexpr (OP == '/') return (T)(cell / v);
    else if constexpr (OP == '%') return (T)(cell % v);
    else if constexpr (OP == '&') return (T)(cell & v);
    else if constexpr (OP == '|') return (T)(cell | v);
    else if constexpr (OP == '^') return (T)(cell ^ v);
    else if constexpr (OP == '<') return (T)(cell << v);
    else return (T)(cell >> v);
}

__device__ inline bool fk_in(const char *a, FkRange r) { return a >= r.lo && a < r.hi; }

#ifdef FK_SCHEDULE_DEVICE
// A thread's first logged write of its step, also in shared memory (the persistent kernel's
// threads, one entry each): a region's check of the thread's own member (fk_own_check) reads
// it there instead of the log, which the thread's store took out of L1 (an L2 round trip
// before the cell's: docs/performance.md, session 29).
__shared__ FkWrite fk_write_first[FK_DEVICE_THREADS];
#endif

// `cell op= v`, logged when the cell is shared memory. The log holds the value this
// processor wrote: read back, the cell may already hold another writer's value.
template <int OP, class T, class V>
__device__ T &fk_w(T &cell, V v, int site, FkThread *th) {
    T value = fk_op<OP>(cell, v);
    cell = value;
    const char *a = (const char *)&cell;
    int n = th->logged;
    if (sizeof(T) > 8 || n < 0 || n >= FK_WRITES) return cell;
    bool shared = fk_in(a, fk_common.globals) || fk_in(a, fk_common.frames) || fk_in(a, fk_common.heap);
    if (!shared) return cell;
    FkWrite *w = fk_common.writes + (fk_u64)th->proc * FK_WRITES + n;
    w->addr = (fk_u64)a;
    w->bits = fk_bits(&value, sizeof(T));
    w->size = sizeof(T);
    w->site = site;
#ifdef FK_SCHEDULE_DEVICE
    if (n == 0 && threadIdx.x < FK_DEVICE_THREADS) fk_write_first[threadIdx.x] = *w;
#endif
    fk_common.count[th->proc] = th->logged = n + 1;
    return cell;
}

template <int OP, class T, class V> __device__ inline T &fk_apply(T &cell, V v) {
    return cell = fk_op<OP>(cell, v);
}

#if !FK_CHECKS
#define FK_W(OP, CELL, V, SITE) fk_apply<OP>(CELL, V)
#define FK_LOG_BEGIN()
#else
#define FK_W(OP, CELL, V, SITE) fk_w<OP>(CELL, V, SITE, th)
#define FK_LOG_BEGIN() fk_log_begin(th)
#endif

// The last write of processor `proc` (0: none) to `addr` among the `n` of its log.
__device__ const FkWrite *fk_last_write(int proc, fk_u64 addr, int n) {
    const FkWrite *w = fk_common.writes + (fk_u64)proc * FK_WRITES, *last = 0;
    for (int i = 0; i < n && i < FK_WRITES; i++)
        if (w[i].addr == addr) last = &w[i];
    return last;
}

// The first cell of processor p's `n` logged writes that does not hold its last value
// (0: none).
__device__ const FkWrite *fk_log_conflict(int p, int n) {
    const FkWrite *w = fk_common.writes + (fk_u64)p * FK_WRITES;
    for (int i = 0; i < n && i < FK_WRITES; i++) {
        if (fk_last_write(p, w[i].addr, n) != &w[i]) continue;
        if (fk_bits((const void *)w[i].addr, w[i].size) == w[i].bits) continue;
        return &w[i];
    }
    return 0;
}

// The fault of a conflict on w's cell in step `tag` (`th`: the processor, where its output
// is cut). Cold: not inlined, the thread by value (fk_fault_v).
__device__ __noinline__ void fk_common_conflict(const FkWrite *w, FkThread th, fk_u64 tag) {
    if (fk_fault_v(w->site, th, 0, 0, 0, FK_CONFLICT)) {
        fk_common.conflict->cell = w->addr;
        fk_common.conflict->tag = tag;
    }
}

// After the step `tag`: whether each cell the processor wrote holds its last value; the first
// that does not is the fault. Run per member after each logging step: not inlined, and the
// thread by value. Returns whether it found one.
__device__ __noinline__ bool fk_common_check(FkThread th, fk_u64 tag) {
    int p = th.proc;
    if (!fk_common.writes || fk_common.tag[p] != tag) return false;
    const FkWrite *w = fk_log_conflict(p, fk_common.count[p]);
    if (w) fk_common_conflict(w, th, tag);
    return w != nullptr;
}

// After a conflict, pass 0: the lowest processor that wrote the cell in the step; pass 1: the
// lowest whose value differs from that one's (the simulator's pair).
extern "C" __global__ void fk_common_writers(int pass) {
    int p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= fk_m.procs || fk_common.tag[p] != fk_common.conflict->tag) return;
    const FkWrite *w = fk_last_write(p, fk_common.conflict->cell, fk_common.count[p]);
    if (!w) return;
    if (pass == 1) {
        int q = FK_PROC_MAX - fk_common.writers->first;
        const FkWrite *first = fk_last_write(q, fk_common.conflict->cell, fk_common.count[q]);
        if (!first || first->bits == w->bits) return;
    }
    atomicMax(pass == 0 ? &fk_common.writers->first : &fk_common.writers->second, FK_PROC_MAX - p);
}

// ---- memory ----

// The shared frame `frame_id` of the group or its nearest ancestor that has one.
__device__ char *fk_frame(int group, int frame_id) {
    for (int g = group; g >= 0; g = fk_m.groups[g].parent)
        if (fk_m.groups[g].frame_id == frame_id) return (char *)fk_m.groups[g].frame;
    return 0;
}

// fk_frame for a kernel's thread: its group's own frame as the thread was built with it.
__device__ inline char *fk_th_frame(const FkThread *th, int frame_id) {
    return th->frame && th->frame_id == frame_id ? th->frame : fk_frame(th->group, frame_id);
}

// A processor's private global: offset `offset`, `size` bytes, in the global private frame at
// the bottom of `fk_m.slots` (coalesced: processor p's copy at offset * P + p * size).
__device__ char *fk_private_global(fk_u64 offset, fk_u64 size, int proc) {
    return fk_m.slots + offset * (fk_u64)fk_m.procs + (fk_u64)proc * size;
}

#ifdef FK_SCHEDULE_DEVICE
// Under the device schedule sibling subgroups run at the same time and may call different
// functions at the same depth, so frames of different layouts would overlap in the coalesced
// layout: each processor has a slot stack of its own (`slot_base` is its height there, a
// multiple of 8). The stacks are interleaved by 8-byte granules, granule k of processor p at
// (k * P + p) * 8, so members reading one variable at one height touch adjacent words (one
// transaction per warp where a stack per processor took 32). A variable that spans two
// granules (an array, a struct over 8 bytes) needs its bytes contiguous: it lives in the
// stacks' contiguous area, stride bytes per processor after the interleaved area (allocated
// only for a program that has one: `Emitted::slot_wide`).
__constant__ FkSlotStacks fk_slot_stacks;
__device__ char *fk_slot(fk_u64 base, fk_u64 offset, fk_u64 size, int proc) {
    fk_u64 procs = (fk_u64)fk_m.procs;
    if ((offset & 7) + size <= 8)
        return fk_slot_stacks.base + (base + (offset & ~7ull)) * procs + (fk_u64)proc * 8 +
               (offset & 7);
    return fk_slot_stacks.base + (procs + (fk_u64)proc) * fk_slot_stacks.stride + base + offset;
}
#else
// A processor's spilled slot: frame offset `offset`, `size` bytes (coalesced layout: the
// frames of one call depth hold the same function's layout for every processor, because the
// host runs sibling subgroups one after another).
__device__ char *fk_slot(fk_u64 base, fk_u64 offset, fk_u64 size, int proc) {
    return fk_m.slots + base + offset * (fk_u64)fk_m.procs + (fk_u64)proc * size;
}
#endif

__device__ char *fk_var_addr(FkVar v, int group, fk_u64 slot_base, int proc) {
    switch (v.kind) {
    case FK_VAR_SLOT: return fk_slot(slot_base, v.offset, v.size, proc);
    case FK_VAR_PRIVATE_GLOBAL: return fk_private_global(v.offset, v.size, proc);
    case FK_VAR_SHARED_GLOBAL: return fk_m.shared_globals + v.offset;
    default: return fk_frame(group, v.frame_id) + v.offset;
    }
}

__device__ fk_i64 fk_load_int(const char *a, fk_u64 size) {
    return size == 8 ? *(const fk_i64 *)a : (fk_i64)*(const int *)a;
}

// ---- multiprefix in asynchronous code: atomic fetch-and-op ----

__device__ int fk_atomic_mp(int *p, int v, int op) {
    switch (op) {
    case FK_MP_ADD: return atomicAdd(p, v);
    case FK_MP_MAX: return atomicMax(p, v);
    case FK_MP_MIN: return atomicMin(p, v);
    case FK_MP_AND: return atomicAnd(p, v);
    default: return atomicOr(p, v);
    }
}

// Memory-ordered accesses of the device schedule's barriers (GPU scope): cheaper than a
// __threadfence next to a plain access. The CPU stand-in (tests/emu) defines its own.
#ifndef FK_EMU
// The acquiring load and the acquire-release add of a 32- and a 64-bit word alike (T, its
// PTX type, its register constraint).
#define FK_ORDERED_ACCESSES(T, PTX, REG)                                                  \
    __device__ inline T fk_load_acquire(const T *a) {                                     \
        T v;                                                                              \
        asm volatile("ld.acquire.gpu.global." PTX " %0, [%1];" : "=" REG(v) : "l"(a) : "memory"); \
        return v;                                                                         \
    }                                                                                     \
    __device__ inline T fk_add_acq_rel(T *a, T v) {                                       \
        T old;                                                                            \
        asm volatile("atom.acq_rel.gpu.global.add." PTX " %0, [%1], %2;"                  \
                     : "=" REG(old)                                                       \
                     : "l"(a), REG(v)                                                     \
                     : "memory");                                                         \
        return old;                                                                       \
    }
FK_ORDERED_ACCESSES(unsigned, "u32", "r")
FK_ORDERED_ACCESSES(fk_u64, "u64", "l")
#undef FK_ORDERED_ACCESSES
__device__ inline void fk_add_release(unsigned *a, unsigned v) {
    asm volatile("red.release.gpu.global.add.u32 [%0], %1;" :: "l"(a), "r"(v) : "memory");
}
#endif

// The identity of a multiprefix operator (fk_combine): combining it changes nothing.
__device__ inline int fk_identity(int op) {
    switch (op) {
    case FK_MP_ADD: return 0;
    case FK_MP_MAX: return (int)0x80000000u;
    case FK_MP_MIN: return 0x7fffffff;
    case FK_MP_AND: return -1;
    default: return 0;
    }
}

__device__ int fk_combine(int a, int b, int op) {
    switch (op) {
    case FK_MP_ADD: return (int)((unsigned)a + (unsigned)b);
    case FK_MP_MAX: return a > b ? a : b;
    case FK_MP_MIN: return a < b ? a : b;
    case FK_MP_AND: return a & b;
    default: return a | b;
    }
}

// ---- printf records ----
// Record: 8 words of 4 bytes (total bytes, launch, sub, key, seq, format id, argument count,
// 0), then per argument 8 bytes (integer or double bits); a %s argument is its length (8
// bytes) and its bytes, padded to 8. The host sorts records by (launch, sub, key, seq) and
// formats them.

#define FK_STR_MAX 4096

__device__ fk_u64 fk_strlen(const signed char *s) {
    fk_u64 n = 0;
    if (s == 0) return 0;
    while (n < FK_STR_MAX && s[n] != 0) n++;
    return n;
}

// A printf argument in a record is one slot of FK_ARG_BYTES (fk_abi.cuh); a `%s` string is its
// length's slot, then its bytes padded to whole slots.
static_assert(sizeof(fk_i64) == FK_ARG_BYTES && sizeof(double) == FK_ARG_BYTES, "a printf argument fills its slot");
__host__ __device__ inline fk_u64 fk_arg_padded(fk_u64 n) { return (n + FK_ARG_BYTES - 1) / FK_ARG_BYTES * FK_ARG_BYTES; }

__device__ fk_u64 fk_arg_bytes(fk_i64) { return FK_ARG_BYTES; }
__device__ fk_u64 fk_arg_bytes(double) { return FK_ARG_BYTES; }
__device__ fk_u64 fk_arg_bytes(const signed char *s) { return FK_ARG_BYTES + fk_arg_padded(fk_strlen(s)); }

__device__ char *fk_put_arg(char *at, fk_i64 v) { *(fk_i64 *)at = v; return at + FK_ARG_BYTES; }
__device__ char *fk_put_arg(char *at, double v) { *(double *)at = v; return at + FK_ARG_BYTES; }
__device__ char *fk_put_arg(char *at, const signed char *s) {
    fk_u64 n = fk_strlen(s);
    *(fk_u64 *)at = n;
    for (fk_u64 i = 0; i < n; i++) at[FK_ARG_BYTES + i] = (char)s[i];
    return at + FK_ARG_BYTES + fk_arg_padded(n);
}

#ifdef FK_SCHEDULE_DEVICE
template <class... A> __device__ int fk_printf(FkThread *th, int format, A... args);
#else
template <class... A> __device__ int fk_printf(FkThread *th, int format, A... args) {
    fk_u64 bytes = sizeof(FkRecordHeader) + (fk_arg_bytes(args) + ... + 0ull);
    fk_u64 at = atomicAdd(fk_m.out_top, bytes);
    if (at + bytes > fk_m.out_bytes) return 0;  // the host reports the overflow
    FkRecordHeader *h = (FkRecordHeader *)(fk_m.out + at);
    h->bytes = (unsigned)bytes;
    h->launch = th->launch;
    h->sub = th->sub;
    h->key = th->key;
    h->seq = th->seq++;
    h->format = (unsigned)format;
    h->args = (unsigned)sizeof...(A);
    h->pairs = 0;
    char *p = (char *)(h + 1);
    ((p = fk_put_arg(p, args)), ...);
    return 0;
}
#endif

// ---- kernels ----

// `*counter += 1` from many threads: the lanes of a warp that add to the same counter add
// together (one atomic per warp and counter instead of one per thread: with 2^20 members a
// single counter would serialise a million atomics). The CPU stand-in of the tests runs such
// kernels one thread after another, without warps.
__device__ void fk_count(int *counter) {
#ifdef FK_EMU
    atomicAdd(counter, 1);
#else
    unsigned same = __match_any_sync(__activemask(), (unsigned long long)counter);
    if ((threadIdx.x & 31) == (unsigned)(__ffs(same) - 1)) atomicAdd(counter, __popc(same));
#endif
}

// Member `t` of group `g` as a kernel thread (filled in either way); false when its
// processor is not active.
__device__ bool fk_thread(FkThread *th, int g, int t, fk_u64 slot_base, unsigned launch, bool sync) {
    FkGroup grp = fk_m.groups[g];
    int proc = fk_m.members[grp.members + t];
    th->proc = proc;
    bool active = fk_m.status[proc] == FK_ACTIVE;
    th->rank = t;
    th->size = grp.size;
    th->group = g;
    th->dollar = fk_m.dollar[proc];
    th->at = grp.at;
    th->slot_base = slot_base;
    th->launch = launch;
    th->sub = 0;
    th->key = sync ? (unsigned)t : (unsigned)proc;
    th->seq = 0;
    th->iters = 0;
    th->seen = FkSeen{};
    th->logged = -1;  // a kernel that logs sets it (fk_log_begin); FK_CHECKS 0 has none
    th->conflicts_stop = false;
    th->settled = false;
    th->frame = (char *)grp.frame;
    th->frame_id = grp.frame_id;
    return active;
}

// The member thread t of a launch over n members of g runs: t itself, except in `seq` (a
// launch of one thread, n == 1) the first active member in $$ order (docs/language.md §8: the
// present member with the smallest $$, also when $$ 0 has left a private loop). For a group
// of one member that is member 0 as well.
__device__ int fk_member_index(int g, int n, int t) {
    if (n != 1) return t;
    FkGroup grp = fk_m.groups[g];
    for (int i = 0; i < grp.size; i++)
        if (fk_m.status[fk_m.members[grp.members + i]] == FK_ACTIVE) return i;
    return 0;
}

#ifndef FK_SCHEDULE_DEVICE
// The host schedule's check after a logging kernel of launch `launch` over n members of g.
extern "C" __global__ void fk_common_check_launch(int g, int n, unsigned launch) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n) return;
    FkThread th = fk_first_member(g, launch, 0);
    th.proc = fk_m.members[fk_m.groups[g].members + fk_member_index(g, n, t)];
    fk_common_check(th, fk_step_tag(&th));
}

#endif

// The entry point of kernel K, whose code for one member is K_body: one thread per member of
// group g (n members run; n is 1 in `seq`). With `serial` (--crcw priority), one thread runs
// the members one after another in $$ order, which is __PROC_NR__ order, so that of
// concurrent writes of a cell the highest __PROC_NR__'s comes last and wins. (The transform
// cuts wherever a member could read another's write, so any order of members is valid.)
#define FK_KERNEL(K, SYNC)                                                                   \
    extern "C" __global__ void K(FK_PLAN_KERNEL_PARAMS) {                                 \
        FkThread th;                                                                         \
        fk_seen_before_clear();                                                              \
        if (serial) {                                                                        \
            if (blockIdx.x != 0 || threadIdx.x != 0) return;                                 \
            for (int t = 0; t < n; t++)                                                      \
                if (fk_thread(&th, g, fk_member_index(g, n, t), slot_base, launch, SYNC))    \
                    K##_body(&th);                                                           \
            return;                                                                          \
        }                                                                                    \
        int t = blockIdx.x * blockDim.x + threadIdx.x;                                       \
        if (t < n && fk_thread(&th, g, fk_member_index(g, n, t), slot_base, launch, SYNC))   \
            K##_body(&th);                                                                   \
    }

__device__ void fk_leave(FkThread *th, int status) { fk_m.status[th->proc] = status; }

// Each member index `t` of a launch over n members; FK_FOR_MEMBER also gives its processor.
#define FK_FOR_MEMBER_INDEX(n)                                   \
    int t = blockIdx.x * blockDim.x + threadIdx.x;               \
    if (t >= (n)) return;
#define FK_FOR_MEMBER(g, n)                                      \
    FK_FOR_MEMBER_INDEX(n)                                       \
    int proc = fk_m.members[fk_m.groups[g].members + t];

extern "C" __global__ void fk_set_group(int g, FkGroup desc) { fk_m.groups[g] = desc; }

// `start` (and the root group): members base..base+P-1 are the processors in order, $ = $$.
extern "C" __global__ void fk_start(int procs, fk_u64 base) {
    int p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= procs) return;
    fk_m.members[base + p] = p;
    fk_m.dollar[p] = p;
}

// ---- group operations of one block (the host schedule's kernels, and block regions in both
// schedules) ----

// The value of `v` for the first active member (in $$ order) in *value; false when no member
// is active. One thread: the first member is almost always active.
__device__ bool fk_first_active_value(int g, int n, fk_u64 slot_base, FkVar v, fk_i64 *value) {
    for (int t = 0; t < n; t++) {
        int proc = fk_m.members[fk_m.groups[g].members + t];
        if (fk_m.status[proc] != FK_ACTIVE) continue;
        *value = fk_load_int(fk_var_addr(v, g, slot_base, proc), v.size);
        return true;
    }
    return false;
}

#ifndef FK_SCHEDULE_DEVICE
// fk_first_active_value into `fk_m.read_back` (FkReadBack).
extern "C" __global__ void fk_read_first(int g, int n, fk_u64 slot_base, FkVar v) {
    fk_i64 x = 0;
    bool found = fk_first_active_value(g, n, slot_base, v, &x);
    fk_m.read_back->first = (int)x;
    fk_m.read_back->first_truth = found ? (x != 0) : -1;
}

// Split, step 1: each member's subgroup key (`kind` FK_SPLIT_IF: key 0 = then, 1 = else; fork,
// key = its @ in 0..k-1, else -1), subgroup sizes, and (fork with `$ = e`) the new `$`; the
// old `$` of every member is saved at `saved`.
extern "C" __global__ void fk_split_count(int g, int n, fk_u64 slot_base, int kind, FkVar key,
                                          int k, int set_dollar, FkVar dollar, fk_u64 saved) {
    FK_FOR_MEMBER(g, n)
    fk_m.words[saved + t] = fk_m.dollar[proc];
    int c = -1;
    if (fk_m.status[proc] == FK_ACTIVE) {
        fk_i64 v = fk_load_int(fk_var_addr(key, g, slot_base, proc), key.size);
        if (kind == FK_SPLIT_IF) c = v != 0 ? 0 : 1;
        else if (v >= 0 && v < k) c = (int)v;
        if (c >= 0 && set_dollar)
            fk_m.dollar[proc] = fk_load_int(fk_var_addr(dollar, g, slot_base, proc), dollar.size);
    }
    fk_m.keys[t] = c;
    if (c >= 0) fk_count(&fk_m.counts[c]);
}
#endif

// ---- the block's team ----
// The threads that run a block-wide helper together (a scan, a block region's constructs):
// under the host schedule the whole block; under the device schedule the warps of a block
// that run no processors (threads fk_team_first and up, fk_schedule.cuh's fk_device_run), so
// that a region task neither waits for the processors' passes nor stops them. Their barrier
// is a named one (1) of the team's threads; the processors' warps never meet it.
//
// The team as it stands, in registers (fk_team()): the helpers read it from shared memory
// at each call, after each barrier again; an owned loop's team is fixed from its entry to its
// end, so the loop reads it once (FkRegionMine::team). Session 43: barrier.fork at P = 1,
// 2.00 -> 1.82 us an iteration, 556 -> 474 warp instructions (docs/performance.md).
struct FkTeam {
    int tid;     // this thread's index in the team (fk_team_tid)
    int lanes;   // the team's threads (fk_team_size)
    bool warp;   // the team is one warp, which meets at __syncwarp (fk_team_is_warp)
    bool ganged; // the team runs an owned loop in a gang (fk_ganged)
};
#ifdef FK_SCHEDULE_DEVICE
__shared__ int fk_team_first;
// The team's threads from fk_team_first: the block's threads from there, or while a region
// task or an owned loop of a group of at most 32 members runs narrow (fk_team_narrow) its
// first warp.
__shared__ int fk_team_lanes;
__device__ inline int fk_team_tid() { return (int)threadIdx.x - fk_team_first; }
__device__ inline int fk_team_size() { return fk_team_lanes; }
// A team of one warp (a narrow team: the block's team has at least 320 threads) meets at
// __syncwarp, the block's team at named barrier 1 (fk_team_barrier).
__device__ inline bool fk_team_is_warp() { return fk_team_lanes == 32; }
// Each warp meets first (__syncwarp) and reaches the named barrier converged: the barriers are
// `.aligned` (every call site is reached by all the team's threads alike), so ptxas emits the
// warp-wide instruction. Without `.aligned`, after divergent code (the checks' fault paths)
// ptxas may run barrier.red lane by lane, which compute-sanitizer's synccheck reports as
// divergent threads at the barrier. fk_team_barrier's warps meet in a ballot instead: after
// the member runs of an owned loop (FK_R_OWN_LAUNCH_REGS), a warp met at __syncwarp still
// reached the barrier divergent for synccheck (docs/results/h200-2026-11-29-s28, runs F to
// I); a warp-wide vote converges it.
// Named barrier 1 of the block's team, `n` threads.
__device__ inline void fk_team_barrier(int n) {
#ifdef FK_EMU
    __syncwarp();
    fk_emu_named_sync(1, n);
#else
    (void)__ballot_sync(0xffffffffu, 1);
    asm volatile("barrier.sync.aligned 1, %0;" ::"r"(n) : "memory");
#endif
}
__device__ inline bool fk_ganged();
__device__ inline FkTeam fk_team() {
    return FkTeam{fk_team_tid(), fk_team_lanes, fk_team_is_warp(), fk_ganged()};
}
__device__ inline void fk_team_sync(const FkTeam &team) {
    if (team.warp)
        __syncwarp();
    else
        fk_team_barrier(team.lanes);
}
// How many of the team's threads pass `pred` (a barrier, as __syncthreads_count).
__device__ inline int fk_team_count(const FkTeam &team, bool pred) {
    __syncwarp();
    if (team.warp) return __popc(__ballot_sync(0xffffffffu, pred));
#ifdef FK_EMU
    return fk_emu_named_count(1, team.lanes, pred);
#else
    int n;
    asm volatile("{ .reg .pred p; setp.ne.u32 p, %1, 0; barrier.red.popc.aligned.u32 %0, 1, %2, p; }"
                 : "=r"(n)
                 : "r"((unsigned)pred), "r"(team.lanes)
                 : "memory");
    return n;
#endif
}
#else
__device__ inline int fk_team_tid() { return (int)threadIdx.x; }
__device__ inline int fk_team_size() { return (int)blockDim.x; }
__device__ inline FkTeam fk_team() { return FkTeam{fk_team_tid(), fk_team_size(), false, false}; }
__device__ inline void fk_team_sync(const FkTeam &) { __syncthreads(); }
__device__ inline int fk_team_count(const FkTeam &, bool pred) { return __syncthreads_count(pred); }
#endif
__device__ inline void fk_team_sync() { fk_team_sync(fk_team()); }
__device__ inline int fk_team_count(bool pred) { return fk_team_count(fk_team(), pred); }

// A team of lanes that runs a collective computation together: a warp (32 lanes, warp
// intrinsics), or one lane alone. Code written over a team runs in both: in a warp when the
// lanes are converged, by one thread inside divergent code (the device schedule's small
// groups).
struct FkWarpTeam {
    static constexpr int size = 32;
    static constexpr int unroll = 8;  // batches whose loads a loop over members issues together
    int lane;
    __device__ unsigned ballot(bool p) const { return __ballot_sync(0xffffffffu, p); }
    template <class T> __device__ T shfl(T v, int from) const { return __shfl_sync(0xffffffffu, v, from); }
    template <class T> __device__ T shfl_up(T v, unsigned d) const { return __shfl_up_sync(0xffffffffu, v, d); }
    template <class T> __device__ unsigned match(T v) const { return __match_any_sync(0xffffffffu, v); }
    __device__ void sync() const { __syncwarp(); }
};

struct FkSoloTeam {
    static constexpr int size = 1;
    static constexpr int unroll = 1;
    int lane;  // always 0
    __device__ unsigned ballot(bool p) const { return p ? 1u : 0u; }
    template <class T> __device__ T shfl(T v, int) const { return v; }
    template <class T> __device__ T shfl_up(T v, unsigned) const { return v; }
    template <class T> __device__ unsigned match(T) const { return 1u; }
    __device__ void sync() const {}
};

// The inclusive scan of x over a team's lanes under a multiprefix operator (fk_combine), every
// lane taking part.
template <class Team> __device__ int fk_lanes_scan(Team team, int x, int op) {
    for (int d = 1; d < Team::size; d <<= 1) {
        int y = team.shfl_up(x, d);
        if (team.lane >= d) x = fk_combine(y, x, op);
    }
    return x;
}

// Team-wide exclusive scan of one int per team thread (a multiple of 32 threads, at most 1024)
// under a multiprefix operator (fk_combine; the first thread gets its identity); returns the
// thread's prefix and the team's total in *total.
__device__ int fk_block_scan(int x, int *total, int op = FK_MP_ADD) {
    __shared__ int warp_sums[32];
    int lane = fk_team_tid() & 31, warp = fk_team_tid() >> 5;
    const int none = fk_identity(op);
    int incl = fk_lanes_scan(FkWarpTeam{lane}, x, op);
    int excl = __shfl_up_sync(0xffffffffu, incl, 1);
    if (lane == 0) excl = none;
    if (lane == 31) warp_sums[warp] = incl;
    fk_team_sync();
    const int warps = fk_team_size() / 32;
    if (warp == 0) {
        int s = lane < warps ? warp_sums[lane] : none;
        for (int d = 1; d < 32; d <<= 1) {
            int y = __shfl_up_sync(0xffffffffu, s, d);
            if (lane >= d) s = fk_combine(y, s, op);
        }
        warp_sums[lane] = s;
    }
    fk_team_sync();
    int before = warp == 0 ? none : warp_sums[warp - 1];
    *total = warp_sums[warps - 1];
    fk_team_sync();
    return fk_combine(before, excl, op);
}

// One chunk of a split into at most two subgroups, in the block: member `t` of the parent
// (member list at `from`) with key 0 or 1 (-1: neither) goes to its subgroup's list at
// `member_base + *at_key`, after the members of earlier chunks and of lower $$ with the same
// key (a block scan per key); *at0 and *at1 move past the chunk.
__device__ void fk_place_in_two(int key, int t, fk_u64 from, fk_u64 member_base, int *at0, int *at1) {
    int total0, total1;
    int before0 = fk_block_scan(key == 0, &total0);
    int before1 = fk_block_scan(key == 1, &total1);
    if (key == 0) fk_m.members[member_base + *at0 + before0] = fk_m.members[from + t];
    if (key == 1) fk_m.members[member_base + *at1 + before1] = fk_m.members[from + t];
    *at0 += total0;
    *at1 += total1;
}

#ifndef FK_SCHEDULE_DEVICE
// Split, step 2 (one block of FK_SCAN_THREADS): subgroup offsets (a scan of the sizes), the
// descriptors of the k subgroups at groups[first..first+k), and the member lists: member `t`
// with key c goes to position offset[c] + (members before it with key c), so new ranks are
// consecutive and ordered by the parent's $$. Chunks of the parent run in $$ order; in a
// chunk, warps take their turn and a warp's lanes with the same key are ranked by
// __match_any_sync. Resets the sizes for the next split.
extern "C" __global__ void fk_split_rank(int g, int n, int k, int first, fk_u64 member_base,
                                         int inherit_at, int frame0, int frame1,
                                         fk_u64 frame_base, fk_u64 frame_stride) {
    __shared__ int carry;
    if (fk_team_tid() == 0) carry = 0;
    fk_team_sync();
    FkGroup parent = fk_m.groups[g];
    for (int c0 = 0; c0 < k; c0 += FK_SCAN_THREADS) {
        int c = c0 + fk_team_tid();
        int size = c < k ? fk_m.counts[c] : 0;
        int total;
        int off = carry + fk_block_scan(size, &total);
        if (c < k) {
            fk_m.cursor[c] = off;
            FkGroup d;
            d.at = inherit_at ? parent.at : c;
            d.parent = g;
            d.size = size;
            d.members = member_base + off;
            d.frame_id = (inherit_at && c == 1) ? frame1 : frame0;
            d.frame = frame_base + (fk_u64)c * frame_stride;
            fk_m.groups[first + c] = d;
            fk_m.counts[c] = 0;
        }
        fk_team_sync();
        if (fk_team_tid() == 0) carry += total;
        fk_team_sync();
    }
    if (k <= 2) {
        // An `if` split or a loop group: a block scan per subgroup and chunk (a few barriers
        // per chunk instead of every warp taking its turn).
        int at0 = fk_m.cursor[0], at1 = k == 2 ? fk_m.cursor[1] : 0;
        for (int c0 = 0; c0 < n; c0 += FK_SCAN_THREADS) {
            int t = c0 + fk_team_tid();
            fk_place_in_two(t < n ? fk_m.keys[t] : -1, t, parent.members, member_base, &at0, &at1);
        }
        return;
    }
    int lane = fk_team_tid() & 31, warp = fk_team_tid() >> 5;
    for (int c0 = 0; c0 < n; c0 += FK_SCAN_THREADS) {
        int t = c0 + fk_team_tid();
        int key = t < n ? fk_m.keys[t] : -1;
        unsigned same = __match_any_sync(0xffffffffu, key);
        int leader = __ffs(same) - 1;
        int before = __popc(same & ((1u << lane) - 1));
        for (int w = 0; w < FK_SCAN_THREADS / 32; w++) {
            if (w == warp) {
                int base = 0;
                if (key >= 0 && lane == leader) {
                    base = fk_m.cursor[key];
                    fk_m.cursor[key] = base + __popc(same);
                }
                base = __shfl_sync(0xffffffffu, base, leader);
                if (key >= 0)
                    fk_m.members[member_base + base + before] =
                        fk_m.members[parent.members + t];
            }
            fk_team_sync();
        }
    }
}

// After a fork with `$ = e`: every member of the parent gets its saved `$` back.
extern "C" __global__ void fk_restore_dollar(int g, int n, fk_u64 saved) {
    FK_FOR_MEMBER(g, n)
    fk_m.dollar[proc] = fk_m.words[saved + t];
}

#endif

// The per-member steps of marks and loop exits, shared by the runtime's kernels (one thread
// per member) and by block regions (fk_r_*).

// Whether member t of g is active.
__device__ bool fk_member_active(int g, int t) {
    return fk_m.status[fk_m.members[fk_m.groups[g].members + t]] == FK_ACTIVE;
}

// Marks member t of `g` when it is active (a loop's participants, a call's callers).
__device__ void fk_mark_member(int g, int t, fk_u64 marks) {
    fk_m.words[marks + t] = fk_member_active(g, t);
}

// Processor `proc`, if its status is `from`, gets status `to` (members back from `continue`
// or `break`: fk_marked_member_status, fk_r_own_continue).
__device__ inline void fk_status_from(int proc, int from, int to) {
    if (fk_m.status[proc] == from) fk_m.status[proc] = to;
}

// A marked member t of `g` with status `from` gets status `to`.
__device__ void fk_marked_member_status(int g, int t, fk_u64 marks, int from, int to) {
    if (fk_m.words[marks + t]) fk_status_from(fk_m.members[fk_m.groups[g].members + t], from, to);
}

// The loop-exit rule of one member (fk_member_stays, fk_r_own_loop_exit): a member `in` the
// loop (marked and active) whose condition does not hold (`holds()`, read only then) leaves
// (FK_BREAK); after a fault every loop ends (the run goes to its end, where the host reports
// it). Returns whether it stays.
// `faults` false: the fault flag is not read this time (fk_r_own_loop_exit).
template <class Holds>
__device__ inline bool fk_stays(int proc, bool in, Holds holds, bool faults = true) {
    if (!in || (faults && fk_faulted())) return false;
    if (!holds()) {
        fk_m.status[proc] = FK_BREAK;
        return false;
    }
    return true;
}

// Loop-exit update (the study's Updategroup) of member t of the group `g` that encloses the
// loop: a marked active participant whose condition (in `cond_group`) is 0 leaves
// (FK_BREAK). Returns whether it is a participant still active.
__device__ bool fk_member_stays(int g, int t, fk_u64 slot_base, fk_u64 marks, int has_cond,
                                FkVar cond, int cond_group) {
    int proc = fk_m.members[fk_m.groups[g].members + t];
    return fk_stays(proc, fk_m.words[marks + t] && fk_m.status[proc] == FK_ACTIVE, [&] {
        return !has_cond ||
               fk_load_int(fk_var_addr(cond, cond_group, slot_base, proc), cond.size) != 0;
    });
}

#ifndef FK_SCHEDULE_DEVICE
extern "C" __global__ void fk_mark_active(int g, int n, fk_u64 marks) {
    FK_FOR_MEMBER_INDEX(n)
    fk_mark_member(g, t, marks);
}

extern "C" __global__ void fk_marked_status(int g, int n, fk_u64 marks, int from, int to) {
    FK_FOR_MEMBER_INDEX(n)
    fk_marked_member_status(g, t, marks, from, to);
}

// Counts the participants still active into `fk_m.read_back->staying` (the all-exited test,
// lastexit), which the host zeroes.
extern "C" __global__ void fk_loop_exit(int g, int n, fk_u64 slot_base, fk_u64 marks, int has_cond,
                                        FkVar cond, int cond_group) {
    FK_FOR_MEMBER_INDEX(n)
    if (fk_member_stays(g, t, slot_base, marks, has_cond, cond, cond_group))
        fk_count(&fk_m.read_back->staying);
}

// Loop entry with a private condition: the active participants form the loop group `child`
// (keys for fk_split_rank with one subgroup).
extern "C" __global__ void fk_loop_keys(int g, int n, fk_u64 marks) {
    FK_FOR_MEMBER(g, n)
    int in = fk_m.words[marks + t] && fk_m.status[proc] == FK_ACTIVE;
    fk_m.keys[t] = in ? 0 : -1;
    if (in) fk_count(&fk_m.counts[0]);
}

// A call's entry, or its result, in one launch. At the entry (`set` >= 0, `mark`) thread 0
// sets the callee group's descriptor and every member marks whether it is active, as
// fk_mark_active; then every marked member copies each of `vars` from `src_group`'s frames
// to `dst_group`'s. A shared destination is written once, by the first marked member (thread
// 0 finds it, from the statuses where the marks are being written), as the group writes a
// shared argument once; only thread 0 reads the descriptor it set.
__device__ bool fk_call_marked(int g, int t, fk_u64 marks, int mark) {
    return mark ? fk_member_active(g, t) : fk_m.words[marks + t] != 0;
}

__device__ void fk_call_copy(const FkCopies &vars, bool shared, int proc, int src_group,
                             fk_u64 src_base, int dst_group, fk_u64 dst_base) {
    for (int i = 0; i < vars.count; i++) {
        FkVar dst = vars.dst[i];
        if ((dst.kind == FK_VAR_SHARED_GLOBAL || dst.kind == FK_VAR_SHARED_FRAME) != shared)
            continue;
        const char *s = fk_var_addr(vars.src[i], src_group, src_base, proc);
        char *d = fk_var_addr(dst, dst_group, dst_base, proc);
        for (fk_u64 b = 0; b < vars.src[i].size; b++) d[b] = s[b];
    }
}

extern "C" __global__ void fk_call_copies(int g, int n, fk_u64 marks, int mark, int set,
                                          FkGroup desc, int src_group, fk_u64 src_base,
                                          int dst_group, fk_u64 dst_base, FkCopies vars) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t == 0 && set >= 0) fk_m.groups[set] = desc;
    if (t < n) {
        bool marked = fk_call_marked(g, t, marks, mark);
        if (mark) fk_m.words[marks + t] = marked;
        int proc = fk_m.members[fk_m.groups[g].members + t];
        if (marked) fk_call_copy(vars, false, proc, src_group, src_base, dst_group, dst_base);
    }
    if (t != 0) return;
    int first = 0;
    while (first < n && !fk_call_marked(g, first, marks, mark)) first++;
    if (first == n) return;
    int proc = fk_m.members[fk_m.groups[g].members + first];
    fk_call_copy(vars, true, proc, src_group, src_base, dst_group, dst_base);
}
#endif

// One multiprefix step of a team: each lane with `active` adds `v` to the int at `cell`; the
// lanes in lane order, which is the members' __PROC_NR__ order. Lanes on one cell are found by
// `match` and combined by the cell's first lane. Returns the lane's exclusive prefix (the
// cell's value before it). Where the active lanes all name one cell (quicksort's
// `mpadd(&nless, 1)`), a scan of the team in log2(size) steps instead of a step per lane
// (each of quicksort's two per iteration: 3,500 -> 2,950 cycles, docs/performance.md, session
// 26); the operators are associative and commutative, so both give the same values.
// Inlined: a block region runs it once per multiprefix in its loops, and as a call it cost
// the host schedule's sieve (three multiprefix operations per iteration of its count loop)
// 2.2x on the H100. Under the device schedule it is reached from fk_combine_multiprefix and
// the regions' fk_r_multiprefix, both calls, so it is compiled twice.
template <class Team>
__device__ int fk_mp_lanes(Team team, bool active, fk_u64 cell, int v, int op) {
    unsigned same = team.match(active ? cell : ~0ull);
    int first = __ffs(same) - 1;
    int old = 0;
    if (active && team.lane == first) old = *(int *)cell;
    old = team.shfl(old, first);
    unsigned named = team.ballot(active);
    if (team.ballot(active && same != named) == 0) {
        int incl = fk_lanes_scan(team, active ? v : fk_identity(op), op);
        int before = team.shfl_up(incl, 1);
        if (team.lane == 0) before = fk_identity(op);
        if (active && team.lane == 31 - __clz(named)) *(int *)cell = fk_combine(old, incl, op);
        return fk_combine(old, before, op);
    }
    int acc = old;
    for (int l = 0; l < Team::size; l++) {
        int vl = team.shfl(v, l);
        if (l < team.lane && ((same >> l) & 1)) acc = fk_combine(acc, vl, op);
    }
    int last = 31 - __clz(same);
    if (active && team.lane == last) *(int *)cell = fk_combine(acc, v, op);
    return acc;
}

// ---- multiprefix of one block, and block regions (both schedules) ----

// A chunk of a block's multiprefix whose active members (`active`) all name one cell: a
// scan of the team under `op`. Every active member reads the cell before the scan's
// barriers and writes its new value, the same for all of them, after them. False, with no
// member's step taken, when the active members name several cells.
__device__ bool fk_mp_one_cell(bool active, fk_u64 cell, int v, int op, int *acc) {
    __shared__ fk_u64 one;
    if (active) one = cell;  // any active member's
    fk_team_sync();
    if (fk_team_count(active && cell != one) != 0) return false;
    int old = active ? *(int *)cell : 0, total;
    int before = fk_block_scan(active ? v : fk_identity(op), &total, op);
    *acc = fk_combine(old, before, op);
    if (active) *(int *)cell = fk_combine(old, total, op);
    return true;
}

// What a thread of fk_multiprefix_block took last: its member's processor (-1: none, or
// not active) and result.
struct FkMpOwn {
    int proc;
    int value;
};

// One chunk of a multiprefix: the team's threads in the chunk's `warps` hold its members in
// $$ order, each `active` one its cell and value; *acc gets an active one's prefix. Ends
// with the team's barrier.
__device__ void fk_mp_chunk(int warps, bool active, fk_u64 cell, int v, int op, int *acc) {
    if (warps > 1 && fk_mp_one_cell(active, cell, v, op, acc)) {
        fk_team_sync();
        return;
    }
    int warp = fk_team_tid() >> 5;
    FkWarpTeam team{(int)(fk_team_tid() & 31)};
    for (int w = 0; w < warps; w++) {
        if (w == warp) *acc = fk_mp_lanes(team, active, cell, v, op);
        fk_team_sync();
    }
}

// Synchronous multiprefix (docs/language.md §6), by one block of threads: the active
// members in $$ order (which is __PROC_NR__ order in every group) combine their values per
// cell; each gets the exclusive prefix. Chunks take their turn. In a chunk of more than one
// warp whose active members name one cell (quicksort's `mpadd(&nless, 1)`) the team scans
// (fk_mp_one_cell: five barriers); otherwise its warps take their turn, a barrier each (a
// chunk of 4096 members on the device schedule's team of 608 threads was 19 turns).
__device__ FkMpOwn fk_multiprefix_block(int g, int n, fk_u64 slot_base, int op, FkVar ptr,
                                        FkVar value, int has_result, FkVar result) {
    FkMpOwn own{-1, 0};
    int warp = fk_team_tid() >> 5;
    for (int c0 = 0; c0 < n; c0 += fk_team_size()) {
        int t = c0 + fk_team_tid();
        int proc = -1;
        if (t < n) {
            proc = fk_m.members[fk_m.groups[g].members + t];
            if (fk_m.status[proc] != FK_ACTIVE) proc = -1;
        }
        fk_u64 cell = 0;
        int v = 0;
        if (proc >= 0) {
            cell = *(const fk_u64 *)fk_var_addr(ptr, g, slot_base, proc);
            v = (int)fk_load_int(fk_var_addr(value, g, slot_base, proc), value.size);
        }
        // Only the warps that hold members of this chunk take a turn.
        int warps = (min(n - c0, fk_team_size()) + 31) / 32;
        int acc = 0;
        fk_mp_chunk(warps, proc >= 0, cell, v, op, &acc);
        if (warp >= warps) continue;  // no member in this chunk
        own = FkMpOwn{proc, acc};
        if (proc >= 0 && has_result) *(int *)fk_var_addr(result, g, slot_base, proc) = acc;
    }
    return own;
}

#ifndef FK_SCHEDULE_DEVICE
extern "C" __global__ void fk_multiprefix(int g, int n, fk_u64 slot_base, int op, FkVar ptr,
                                          FkVar value, int has_result, FkVar result) {
    fk_multiprefix_block(g, n, slot_base, op, ptr, value, has_result, result);
}
#endif

// ---- block regions ----
// A block region (transform::regions) runs a piece of a host control graph on one block's
// team (fk_team_tid): team thread t is member t of the current group (members t,
// t + fk_team_size(), ... when the group is larger than the team, which only a region of
// synchronous kernels allows), and every construct ends with the team's barrier
// (fk_team_sync), which also makes its global-memory writes visible to the whole team. Every
// team thread executes the same sequence of helpers (the group state they read is the same
// for all), so the barriers match. The caller reserves the stack space the region's nested
// groups take (`RegionNeeds`) and passes the tops; the emitted code hands each construct its
// part. The host schedule launches a region as a kernel; the device schedule runs it on the
// task warps of one block of its persistent kernel (fk_schedule.cuh, fk_run_tasks).

// What the member a thread ran in a region's kernel logged for the `--crcw common` check
// (FkThread::logged, -1: nothing), so that the check after the kernel reads neither the step's
// tag nor the count from memory; `logged` FK_LOGGED_UNKNOWN where the thread ran several
// members (a group larger than the team).
struct FkOwnLog {
    int proc, logged;
};
#define FK_LOGGED_UNKNOWN (-2)

// Where a region is: its slot frame, its launch number and the segments run so far (a
// segment is one Plan kernel's run; (launch, sub) orders printf records and faults; under
// the device schedule (the region's group's step + sub, $$) does, fk_order_key).
struct FkRegion {
    fk_u64 slot_base;
    unsigned launch;
    unsigned sub;
#ifdef FK_SCHEDULE_DEVICE
    int group;          // the region's group, whose step its segments continue
    unsigned step;      // that step at the region's start (FkThread::step)
#endif
    FkOwnLog own;       // this thread's, of the region's last kernel (FK_R_LAUNCH, FK_G_LAUNCH)
    FkSeen seen;        // the last lasting object this thread's members found (FkThread::seen),
                        // handed from one kernel of the region to the next: a lasting object's
                        // bounds hold for every processor, so a member's first access in a
                        // kernel mostly finds it there instead of looking its pointer up
    bool uneven;        // a grid region's: a member of its group was not active at its start
                        // (fk_g_begin), so a block may have none (fk_g_decide)
    bool settled;       // inside a loop of the region whose body frees no heap block: its
                        // kernels' threads are settled (FkThread::settled; the emitter sets
                        // it at the loop's entry and clears it at its end, fk_seen_unsettle)
};

// A region's timestamp state (fk_t set): thread 0's, in shared memory, so that no register
// of the region's hot path holds it (a block runs one region at a time).
struct FkRegionTrace {
    // What the region's times count from: the device schedule's 0 (its records are
    // %globaltimer), the host schedule's region kernel start (its driver places that at the
    // event it records before the launch).
    fk_u64 clock;
    // The record of the region's group instance; the host schedule's ~0u: the instance
    // its driver's walk is in.
    unsigned group;
};
__device__ inline FkRegionTrace &fk_r_trace() {
    __shared__ FkRegionTrace t;
    return t;
}

// --trace: the asynchronous region running in a block region (fk_r_trace_async), thread 0's:
// 1 + its number (0: none), its record, and when the last traced instruction ended.
struct FkRegionAsync {
    unsigned region;
    unsigned rec;
    fk_u64 last;
};
__device__ inline FkRegionAsync &fk_r_async() {
    __shared__ FkRegionAsync a;
    return a;
}

#ifdef FK_SCHEDULE_DEVICE
#define FK_REGION_FN __device__ __noinline__ void
__device__ FkRegion fk_region(int g, fk_u64 slot_base, unsigned launch);
// A Plan kernel's body in a region, through a call: inlined into the regions as well as into
// the interpreter, the bodies made ptxas spill in fk_run_proc (quicksort: 692 bytes of spill
// stores against 8; ptxas 13.0, sm_90). The thread by value (fk_fault_v), and what it gives
// back (the checks' object, FkRegion::seen, and what it logged, FkThread::logged) by value:
// a pointer into the region's FkRegion kept the whole of it in local memory, whose fields
// the region's owned loops write at every launch (session 43: 30 local stores an iteration
// of barrier.fork's, docs/performance.md).
struct FkBodyOut {
    FkSeen seen;
    int logged;
};
template <void (*Body)(FkThread *)>
__device__ __noinline__ FkBodyOut fk_r_body(FkThread th) {
    Body(&th);
    return FkBodyOut{th.seen, th.logged};
}
template <void (*Body)(FkThread *)>
__device__ inline int fk_r_run_body(FkThread &th, FkSeen &seen) {
    th.seen = seen;
    FkBodyOut out = fk_r_body<Body>(th);
    seen = out.seen;
    return out.logged;
}
#define FK_R_BODY(K, TH, SEEN) fk_r_run_body<K##_body>(TH, SEEN)
// A region's member as a thread of segment `sub`, and the region's end (fk_schedule.cuh).
__device__ void fk_region_thread(FkThread *th, const FkRegion &r, unsigned sub);
__device__ void fk_region_end(const FkRegion &r);
#else
// (Over two lines: the library's own kernels are the lines that start a definition so.)
#define FK_REGION_FN extern "C" __global__ \
    void __launch_bounds__(FK_REGION_MAX)
__device__ inline FkRegion fk_region(int, fk_u64 slot_base, unsigned launch) {
    if (fk_t.regions && fk_team_tid() == 0) {
        fk_r_trace() = FkRegionTrace{fk_now(), ~0u};
        fk_r_async() = FkRegionAsync{0, ~0u, 0};
    }
    return FkRegion{slot_base, launch, 0};
}
#define FK_R_BODY(K, TH, SEEN) \
    ((TH).seen = (SEEN), K##_body(&(TH)), (SEEN) = (TH).seen, (TH).logged)
__device__ inline void fk_region_thread(FkThread *th, const FkRegion &r, unsigned sub) {
    th->sub = sub;
    th->iters = 0;
    th->settled = r.settled;
}
// The host numbers launches itself.
__device__ inline void fk_region_end(const FkRegion &) {}
#endif

__device__ int fk_r_threads(int g, int seq) {
    int n = fk_m.groups[g].size;
    return seq ? (n > 0 ? 1 : 0) : n;
}

// Timestamps in a region (fk_t set; otherwise one branch per site): thread 0 records the
// group instances the region forms as they are recorded outside regions: formed by the
// instruction at `pc` inside the instance whose record is *parent, ended when the block
// leaves them (every member has: a region's constructs end with fk_team_sync). The record
// numbers are in shared memory, thread 0's (~0u: not recorded).

// Groups first, ..., first + k - 1 formed now (those with members): their numbers into
// rec[]. Subgroups of one split are numbered together and share the first one's as `event`.
__device__ void fk_r_trace_groups(const FkRegion &r, const unsigned *parent, int pc, int first,
                                  int k, unsigned *rec) {
    if (!fk_t.regions || fk_team_tid() != 0) return;
    int formed = 0;
    for (int c = 0; c < k; c++) formed += fk_m.groups[first + c].size > 0;
    unsigned i = atomicAdd(fk_t.count, (unsigned)formed), event = i;
    fk_u64 now = fk_now() - fk_r_trace().clock;
    for (int c = 0; c < k; c++) {
        const FkGroup &d = fk_m.groups[first + c];
        rec[c] = d.size > 0 ? fk_trace_record(i++, (int)*parent, pc, c, d.size, d.at, event, now,
                                              r.launch + 1)
                            : ~0u;
    }
}

// A `seq` at `pc` in group g: an instance of one processor, when a member is active (the
// one that runs it), as the simulator traces it.
__device__ void fk_r_trace_seq(const FkRegion &r, const unsigned *parent, int pc, int g,
                               unsigned *rec) {
    if (!fk_t.regions || fk_team_tid() != 0) return;
    const FkGroup &d = fk_m.groups[g];
    *rec = ~0u;
    for (int t = 0; t < d.size; t++) {
        if (fk_m.status[fk_m.members[d.members + t]] != FK_ACTIVE) continue;
        unsigned i = atomicAdd(fk_t.count, 1u);
        *rec = fk_trace_record(i, (int)*parent, pc, 0, 1, d.at, i, fk_now() - fk_r_trace().clock,
                               r.launch + 1);
        return;
    }
}

// The instance of record *rec (fk_r_trace_groups, fk_r_trace_seq) ends now.
__device__ inline void fk_r_trace_end(const unsigned *rec) {
    if (fk_t.regions && fk_team_tid() == 0 && *rec < fk_t.cap)
        fk_t.recs[*rec].end = fk_now() - fk_r_trace().clock;
}

// --trace: the block ran the kernel launched at `pc` for the group instance of record *parent
// (`size` members); `at` says what that means (FK_AT_*, transform::plan::Plan::async_at), as
// fk_trace_release does outside regions: the group's asynchronous region opens or goes on,
// a kernel that ends at a `barrier` is a meeting.
__device__ void fk_r_trace_async(const FkRegion &r, const unsigned *parent, int pc, int at,
                                 int size) {
    if (!fk_t.regions || fk_team_tid() != 0) return;
    FkRegionAsync &a = fk_r_async();
    fk_u64 now = fk_now() - fk_r_trace().clock;
    unsigned region = (unsigned)(at / FK_AT_REGION);
    unsigned count = (region && a.region != region && (at & FK_AT_OPENS)) + ((at & FK_AT_BARRIER) != 0);
    unsigned i = count ? atomicAdd(fk_t.count, count) : 0;
    if (region && a.region == region) {
        if (a.rec < fk_t.cap) fk_t.recs[a.rec].end = now;
    } else if (region && (at & FK_AT_OPENS)) {
        a.region = region;
        a.rec = fk_trace_record(i++, (int)*parent, pc, (int)region - 1, FK_REC_ASYNC, 0, 0, a.last,
                                r.launch + 1);
        if (a.rec < fk_t.cap) fk_t.recs[a.rec].end = now;
    } else {
        a.region = 0;
    }
    if (at & FK_AT_BARRIER) {
        unsigned b = fk_trace_record(i, (int)*parent, pc, 0, FK_REC_BARRIER, size, 0, now, r.launch + 1);
        if (b < fk_t.cap) fk_t.recs[b].end = now;
    }
    a.last = now;
}

// --trace, barrier phases: after the block ran the kernel launched at `pc` for group g (of
// record *parent), the members stopped where their `phase` says (-k: at stop k, a `barrier`
// where bit k - 1 of `barriers` is set): as fk_trace_release does outside regions, one
// record where a member waits at a barrier, with the members that stopped and the stop of
// the first in $$ order. Block-uniform (every thread calls it).
__device__ void fk_r_trace_stops(const FkRegion &r, const unsigned *parent, int pc, int g, int seq,
                                 FkVar phase, fk_u64 barriers) {
    if (!fk_t.regions) return;
    __shared__ unsigned stopped;
    __shared__ fk_u64 first;
    if (fk_team_tid() == 0) {
        stopped = 0;
        first = ~0ull;
    }
    fk_team_sync();
    int n = fk_r_threads(g, seq);
    for (int t = fk_team_tid(); t < n; t += fk_team_size()) {
        int m = fk_member_index(g, n, t);
        int proc = fk_m.members[fk_m.groups[g].members + m];
        if (fk_m.status[proc] != FK_ACTIVE) continue;
        fk_i64 stop = -fk_load_int(fk_var_addr(phase, g, r.slot_base, proc), phase.size);
        if (stop <= 0) continue;
        atomicAdd(&stopped, 1u);
        if (stop <= 64 && ((barriers >> (stop - 1)) & 1))
            atomicMin(&first, ((fk_u64)(unsigned)m << 32) | (fk_u64)stop);
    }
    fk_team_sync();
    if (fk_team_tid() == 0 && first != ~0ull) {
        fk_u64 now = fk_now() - fk_r_trace().clock;
        unsigned b = fk_trace_record(atomicAdd(fk_t.count, 1u), (int)*parent, pc,
                                     (int)(unsigned)first, FK_REC_BARRIER, stopped, 0, now,
                                     r.launch + 1);
        if (b < fk_t.cap) fk_t.recs[b].end = now;
    }
    fk_team_sync();
}

// --trace: the block ran an instruction of asynchronous region `at` / FK_AT_REGION (0: none)
// other than a launch: outside the running region, the region has ended.
__device__ inline void fk_r_trace_async_at(int at) {
    if (!fk_t.regions || fk_team_tid() != 0) return;
    FkRegionAsync &a = fk_r_async();
    if (a.region != (unsigned)(at / FK_AT_REGION)) a.region = 0;
    a.last = fk_now() - fk_r_trace().clock;
}

// One Plan kernel K in a region: its members run K_body, then the team waits.
#define FK_R_LAUNCH(K, SYNC, G, SEQ)                                                  \
    do {                                                                             \
        int n_ = fk_r_threads(G, SEQ);                                               \
        r.own.logged = n_ > fk_team_size() ? FK_LOGGED_UNKNOWN : -1;                 \
        for (int t_ = fk_team_tid(); t_ < n_; t_ += fk_team_size()) {                \
            FkThread th_;                                                            \
            if (fk_thread(&th_, G, fk_member_index(G, n_, t_), r.slot_base, r.launch, \
                          SYNC)) {                                                   \
                fk_region_thread(&th_, r, r.sub);                                    \
                int logged_ = FK_R_BODY(K, th_, r.seen);                             \
                if (r.own.logged != FK_LOGGED_UNKNOWN)                               \
                    r.own = FkOwnLog{th_.proc, logged_};                             \
            }                                                                        \
        }                                                                            \
        r.sub++;                                                                     \
        fk_team_sync();                                                              \
    } while (0)

// A Plan kernel's code for one member in a region (CALL: K##_body or K##_regs on TH), with
// the checks' last lasting object handed in from the region's thread and back
// (FkRegion::seen).
#define FK_R_SEEN(TH, CALL) ((TH).seen = r.seen, CALL, r.seen = (TH).seen)

// FK_R_LAUNCH for a kernel K whose private slots (the arguments) the region keeps in
// registers, K_regs's references: the region declares them, a thread's copies of one
// member's (`fk_cached`, -1: none), and `fk_load(p)`, which loads p's. Slots stay current
// (K_regs stores what it assigns), so the helpers and FK_R_LAUNCH read memory; a thread's
// copies stay valid while no other thread runs its member: through a launch only if the
// thread meets the member there again (`kept_`, as its member t, whether it runs or not),
// and through a multiprefix only if the thread took the member's result (fk_r_own_result).
// A member's loads then happen once per region instead of once per kernel: quicksort's
// partition loop reads `i` in each of its three kernels.
//
// Where the group's members are no more than the team and it is not `seq`, thread t runs
// member t and remembers it (`fk_own`, FkRegionOwn): a multiprefix of the same group after
// the launch takes the threads' own copies (fk_r_multiprefix_mine).
#define FK_R_LAUNCH_REGS(K, SYNC, G, SEQ, ...)                                          \
    do {                                                                               \
        int n_ = fk_r_threads(G, SEQ);                                                 \
        int kept_ = -1;                                                                \
        bool mine_ = n_ <= fk_team_size() && !(SEQ);                                   \
        int own_proc_ = -1;                                                            \
        bool own_runs_ = false;                                                        \
        r.own.logged = n_ > fk_team_size() ? FK_LOGGED_UNKNOWN : -1;                   \
        for (int t_ = fk_team_tid(); t_ < n_; t_ += fk_team_size()) {                  \
            FkThread th_;                                                              \
            bool runs_ = fk_thread(&th_, G, fk_member_index(G, n_, t_), r.slot_base,   \
                                   r.launch, SYNC);                                    \
            own_proc_ = th_.proc;                                                      \
            own_runs_ = mine_ && runs_;                                                \
            if (th_.proc == fk_cached) kept_ = fk_cached;                              \
            if (runs_) {                                                               \
                if (th_.proc != fk_cached) {                                           \
                    fk_cached = kept_ = th_.proc;                                      \
                    fk_load(fk_cached);                                                \
                }                                                                      \
                fk_region_thread(&th_, r, r.sub);                                      \
                FK_R_SEEN(th_, K##_regs(&th_, __VA_ARGS__));                           \
                if (r.own.logged != FK_LOGGED_UNKNOWN) r.own = FkOwnLog{th_.proc, th_.logged}; \
            }                                                                          \
        }                                                                              \
        fk_cached = kept_;                                                             \
        fk_r_keep_member(&fk_own, mine_ ? (G) : -1, own_proc_, own_runs_);             \
        r.sub++;                                                                       \
        fk_team_sync();                                                                \
    } while (0)

// A region thread's member as of its last launch of group `group` (-1: none;
// FK_R_LAUNCH_REGS sets it alike in every thread, so a test of it is block-uniform): its
// processor, and whether it ran. The emitted code forgets it (`group` -1) where the region
// forms groups, whose descriptors may take the same places. (Keeping the whole kernel thread
// here, to skip fk_thread's loads, made ptxas spill more in quicksort's region and its
// launches no faster: session 27, docs/performance.md.)
struct FkRegionOwn {
    int group;
    int proc;
    bool runs;
};

// FK_R_LAUNCH_REGS's record, through a pointer: a region without a multiprefix never reads
// it, and NVRTC warns of a local that is only assigned (#550).
__device__ inline void fk_r_keep_member(FkRegionOwn *own, int group, int proc, bool runs) {
    *own = FkRegionOwn{group, proc, runs};
}

// ---- gangs: an owned loop of a group larger than the team, on several blocks' teams ----
// Under the device schedule one block's team runs a region task. A loop group larger than
// the team could not run owned: the team took its members in chunks, one after another, at
// about 10 us a chunk per iteration of quicksort's partition loop (docs/performance.md,
// session 32), while the other blocks' teams waited idle. Now the team that reaches such an
// owned loop (the gang's *leader*) claims idle blocks (fk_d.idle, as a region task's poster
// does) and hands each a *join* (fk_r_gang_form, fk_schedule.cuh); each joined team (a
// *helper*) enters the same region function at the loop (fk_r_join_loop) and owns a slice
// of the members, in $$ order: team i has members [first, first + count). What the team's
// barrier did for the loop becomes the gang's (fk_gang_sync): each team's first thread
// arrives at a counter in global memory and waits for every team's arrival; a multiprefix,
// the loop's exit count, its `--crcw common` check and fk_r_spin's stop combine the teams'
// parts there (fk_gang_sum, fk_gang_multiprefix), so that every decision is the gang's and
// every team runs the same helpers. The helpers leave at the loop's end (fk_r_gang_end);
// the leader goes on with the region. Where too few blocks are idle, or too few join in
// time (FK_GANG_WAIT_NS), the loop runs as before, on the leader's team in chunks.

// The most members a team owns in an owned loop: at most its threads. The emulated tests
// lower it, so that small groups form gangs.
#ifndef FK_OWN_TEAM_MAX
#define FK_OWN_TEAM_MAX 1024
#endif
#ifdef FK_SCHEDULE_DEVICE
// The most teams of a gang, and the fewest a loop must need to form one.
#ifndef FK_GANG_MAX
#define FK_GANG_MAX 8
#endif
#ifndef FK_GANG_MIN
#define FK_GANG_MIN 2
#endif
// How long a leader waits for the blocks it claimed to join: a claimed team may still be
// finishing a task posted to it in turn, and a gang does not wait for that.
#ifndef FK_GANG_WAIT_NS
#ifdef FK_EMU
#define FK_GANG_WAIT_NS 200000000ull
#else
#define FK_GANG_WAIT_NS 20000ull
#endif
#endif
// Blocks that may lead a gang (one record each).
#define FK_GANG_BLOCKS 1024

// What a helper needs to enter the region at the loop: fk_run_region's arguments, the
// loop's label (the pc of its LoopBegin), the region's segments before the loop
// (FkRegion::sub, which the members' step tags count) and the loop's group.
struct FkGangJoin {
    int pc, loop, g, seq;
    fk_u64 slot_base;
    int groups_top, lg;
    fk_u64 members_top, words_top, frames_top;
    unsigned sub;
};

// A team's part of a gang collective, in the set of parts of the gang's barrier count modulo
// FK_GANG_PART_SETS (fk_gang_post).
struct FkGangPart {
    fk_u64 cell;  // a multiprefix: the cell its active members name
    int kind;     // a multiprefix: 0 no active member, 1 one cell, 2 several cells
    int value;    // a sum's value; a multiprefix's total under its operator
    int old;      // a multiprefix of one cell: the cell before it
};

#define FK_GANG_PART_SETS 3

// A leader block's gang (fk_gangs[block]), in global memory.
struct FkGangRec {
    // generation << 32 | FK_GANG_SEALED | the helpers that joined: a helper joins by a
    // compare-and-swap while its generation is the record's and it is not sealed
    unsigned long long state;
    FkGangJoin join;
    unsigned gen;       // the leader's last generation (only the leader writes it)
    int teams;          // set at the seal: the gang's teams, 0 where it did not form
    unsigned ready;     // the generation whose `teams` is set
    unsigned arrived;   // the gang barrier's arrivals since the seal
    unsigned token;     // a multiprefix of several cells: whose turn (fk_gang_multiprefix)
    // The helpers that joined and are done with the record, the last thing each does with
    // it: the leader waits for all of them before the record may take another gang, so
    // that no helper still reading a barrier's parts or waiting on `arrived` sees the next
    // gang's.
    unsigned left;
    FkGangPart parts[FK_GANG_PART_SETS][FK_GANG_MAX];
};
#define FK_GANG_SEALED 0x80000000ull
__device__ FkGangRec fk_gangs[FK_GANG_BLOCKS];
// Per block: the join handed to its team, generation << 32 | leader block + 1 (0: none).
__device__ unsigned long long fk_gang_joins[FK_GANG_BLOCKS];

// The block team's gang, while it runs an owned loop in one (rec null: none).
struct FkGang {
    FkGangRec *rec;
    int teams, index, first, count;
    unsigned barriers;  // the gang barriers passed (thread 0's count)
    unsigned turns;     // the multiprefixes of several cells taken in turn
    FkGangJoin join;    // a helper's
};
__shared__ FkGang fk_gang;

__device__ inline bool fk_ganged() { return fk_gang.rec != nullptr; }

// Thread 0 of team `index` of a gang of `teams` on `rec`, whose loop group has n members:
// the team's slice of them, ⌈n / teams⌉ each in $$ order, and its counts from 0.
__device__ inline void fk_gang_enter(FkGangRec *rec, int teams, int index, int n) {
    int share = (n + teams - 1) / teams;
    fk_gang.rec = rec;
    fk_gang.teams = teams;
    fk_gang.index = index;
    fk_gang.first = min(index * share, n);
    fk_gang.count = min(share, n - fk_gang.first);
    fk_gang.barriers = 0;
    fk_gang.turns = 0;
}

// Thread 0 of a team waiting on global memory: it spins, as fk_g_arrive's does (the team's
// other threads wait at its barrier).
__device__ inline void fk_gang_wait() {
#ifdef FK_EMU
    fk_emu_yield();
#elif defined(FK_GANG_NAP)
    __nanosleep(FK_GANG_NAP);
#endif
}

// The first half of the gang's barrier (fk_gang_arrive), by the team's thread 0: publishes
// the team's part and arrives. Returns the barrier's count. A team that goes on without
// waiting (fk_r_own_loop_exit's `passes`) waits for this barrier's arrivals at its next
// one, whose count includes them.
__device__ inline unsigned fk_gang_post(const FkGangPart &part) {
    FkGangRec *g = fk_gang.rec;
    unsigned b = ++fk_gang.barriers;
    // Three sets suffice: a team posts barrier b + 3 only after it waited at b + 1 or
    // b + 2 (no two exit counts follow each other without a meeting between them, and
    // only an exit count lets a team pass), which every team posts only after reading
    // barrier b's parts. (Two did while every team waited at every barrier: a team that
    // passed barrier b + 1 posted b + 2 into the set another team was still reading.)
    g->parts[b % FK_GANG_PART_SETS][fk_gang.index] = part;
    // A release and an acquire, not two fences (as the interpreter's barriers): the team's
    // writes, which its barrier ordered before this thread's, and the part.
    fk_add_release(&g->arrived, 1u);
    return b;
}

// The gang's barrier, by the team's thread 0 (the team has met before; it meets after):
// publishes the team's part for the other teams to read after it. Returns the set of parts
// this barrier published (fk_gang_part).
__device__ __noinline__ int fk_gang_arrive(const FkGangPart &part) {
    unsigned b = fk_gang_post(part);
    unsigned all = b * (unsigned)fk_gang.teams;
    while (*(volatile unsigned *)&fk_gang.rec->arrived < all) fk_gang_wait();
    (void)fk_load_acquire(&fk_gang.rec->arrived);
    return (int)(b % FK_GANG_PART_SETS);
}

__device__ inline FkGangPart fk_gang_part(int set, int team) {
    volatile FkGangPart *p = &fk_gang.rec->parts[set][team];
    return FkGangPart{p->cell, p->kind, p->value, p->old};
}

// The gang's part of fk_gang_sync and fk_gang_count. Out of line, as the other helpers
// only a gang runs: inlined into the region functions, they made ptxas spill more there,
// and a small group's owned loop slower (docs/performance.md, session 33).
__device__ __noinline__ void fk_gang_meet() {
    // Thread 0's release (fk_gang_arrive) orders the team's writes, which the barrier
    // ordered before it, as fk_g_arrive's fences do.
    if (fk_team_tid() == 0) (void)fk_gang_arrive(FkGangPart{});
    fk_team_sync();
}
__device__ __noinline__ int fk_gang_sum(int n) {
    __shared__ int sum;
    if (fk_team_tid() == 0) {
        int set = fk_gang_arrive(FkGangPart{0, 0, n, 0});
        int s = 0;
        for (int i = 0; i < fk_gang.teams; i++) s += fk_gang_part(set, i).value;
        sum = s;
    }
    fk_team_sync();
    n = sum;
    // Every thread has read `sum` before thread 0 writes it again.
    fk_team_sync();
    return n;
}

// The team's barrier, and the gang's where the team is in one. Every team's writes before
// it are visible to every team after it.
__device__ inline void fk_gang_sync(const FkTeam &team) {
    fk_team_sync(team);
    if (team.ganged) fk_gang_meet();
}

// How many of the gang's threads pass `pred` (fk_team_count across its teams).
__device__ inline int fk_gang_count(const FkTeam &team, bool pred) {
    int n = fk_team_count(team, pred);
    return team.ganged ? fk_gang_sum(n) : n;
}

// A multiprefix of the gang's members (in $$ order: team by team): the team's threads hold
// their members, each `active` one its cell and value; *acc gets an active one's prefix.
// Where every team's active members name one cell, each team scans its own and combines
// the totals of the teams before it; otherwise the teams take their turn (fk_mp_chunk,
// the team's multiprefix on the cells themselves), in team order. The gang meets at the
// end, so that no team reads or writes the cells while another may still write them.
__device__ __noinline__ void fk_gang_multiprefix(int warps, bool active, fk_u64 cell, int v,
                                                 int op, int *acc, bool meets) {
    __shared__ fk_u64 one;
    __shared__ int several, old_s, base_s, write_s;
    if (active) one = cell;  // any active member's
    int any = fk_team_count(active);
    int multi = fk_team_count(active && cell != one);
    int total = fk_identity(op);
    int before = fk_block_scan(active ? v : fk_identity(op), &total, op);
    if (fk_team_tid() == 0) {
        FkGangPart part{any ? one : 0, any ? (multi ? 2 : 1) : 0, total, 0};
        // Before the barrier: no team writes the cell until every team has passed it.
        if (part.kind == 1) part.old = *(volatile int *)one;
        int set = fk_gang_arrive(part);
        fk_u64 c = 0;
        int last = -1, base = fk_identity(op), old = 0, s = 0;
        for (int i = 0; i < fk_gang.teams; i++) {
            FkGangPart q = fk_gang_part(set, i);
            if (q.kind == 2 || (q.kind == 1 && c != 0 && q.cell != c)) s = 1;
            if (q.kind != 1) continue;
            if (c == 0) old = q.old, c = q.cell;
            last = i;
            if (i < fk_gang.index) base = fk_combine(base, q.value, op);
        }
        several = s;
        old_s = fk_combine(old, base, op);
        // The last team with members writes the cell: the total of every team's.
        int grand = base;
        for (int i = fk_gang.index; s == 0 && i < fk_gang.teams; i++) {
            FkGangPart q = fk_gang_part(set, i);
            if (q.kind == 1) grand = fk_combine(grand, q.value, op);
        }
        write_s = s == 0 && last == fk_gang.index;
        base_s = fk_combine(old, grand, op);
    }
    fk_team_sync();
    if (!several) {
        *acc = fk_combine(old_s, before, op);
        if (write_s && fk_team_tid() == 0) *(int *)one = base_s;
    } else {
        // In turn: team i's multiprefix after team i - 1's wrote the cells.
        if (fk_team_tid() == 0) {
            unsigned turn = fk_gang.turns++ * (unsigned)fk_gang.teams + (unsigned)fk_gang.index;
            while (*(volatile unsigned *)&fk_gang.rec->token != turn) fk_gang_wait();
            __threadfence();
        }
        fk_team_sync();
        fk_mp_chunk(warps, active, cell, v, op, acc);
        __threadfence();
        fk_team_sync();
        if (fk_team_tid() == 0) atomicAdd(&fk_gang.rec->token, 1u);
    }
    // `meets` false: the gang meets before another team touches the cell (the emitter's
    // multiprefix_meets).
    if (meets || several) fk_gang_sync(fk_team());
    else fk_team_sync();
}

// Forms a gang for the owned loop `j.loop` of a group of n members (fk_schedule.cuh).
__device__ __noinline__ bool fk_r_gang_form(const FkGangJoin &j, int n);
// A helper team entering the region: the loop it joins (-1: none, the region's start).
__device__ inline int fk_r_join_loop() { return fk_ganged() ? fk_gang.join.loop : -1; }
__device__ inline const FkGangJoin &fk_r_join() { return fk_gang.join; }
// A helper is done with its gang's record (FkGangRec::left).
__device__ inline void fk_gang_left(FkGangRec *rec) {
    __threadfence();
    atomicAdd(&rec->left, 1u);
}

// The leader waits until its `helpers` have left the record.
__device__ inline void fk_gang_wait_left(FkGangRec *rec, int helpers) {
    while (*(volatile unsigned *)&rec->left < (unsigned)helpers) fk_gang_wait();
}

// At an owned loop's end (fk_r_gang_end): a helper leaves the region (FK_GANG_HELPER), the
// leader's gang ends and its threads forget the members whose copies they keep (-1 for
// `fk_cached`, FK_R_LAUNCH_REGS): a thread that owned none in the gang may keep the copies
// of a member a helper owned, from before the loop.
#define FK_GANG_HELPER (-2)
__device__ __noinline__ int fk_r_gang_leave() {
    bool helper = fk_gang.index != 0;
    fk_team_sync();
    if (fk_team_tid() == 0) {
        if (helper) fk_gang_left(fk_gang.rec);
        else fk_gang_wait_left(fk_gang.rec, fk_gang.teams - 1);
        if (!helper) fk_gang.rec = nullptr;
    }
    fk_team_sync();
    return helper ? FK_GANG_HELPER : -1;
}
// `fk_cached` after an owned loop: as it was where no gang ran it.
__device__ inline int fk_r_gang_end(int cached) { return fk_ganged() ? fk_r_gang_leave() : cached; }
// The leader's arguments for fk_r_gang_form, in the region function, where it may form one
// (every member entered the loop, outside `seq`, as fk_r_owns_loop asks).
#define FK_R_GANG(PC, LOOP, LG, N, SEQ)                                                  \
    (!(SEQ) && fk_m.groups[LG].size == (N) &&                                            \
     fk_r_gang_form(FkGangJoin{PC, LOOP, g, seq, slot_base, groups_top, LG, members_top, \
                               words_top, frames_top, r.sub},                            \
                    N))
#else
// The host schedule runs a block region on one block, whose threads hold every member.
__device__ inline bool fk_ganged() { return false; }
__device__ inline void fk_gang_sync(const FkTeam &team) { fk_team_sync(team); }
__device__ inline int fk_gang_count(const FkTeam &team, bool pred) { return fk_team_count(team, pred); }
__device__ inline int fk_r_join_loop() { return -1; }
struct FkGangJoin {
    unsigned sub;
    int lg;
};
__device__ inline FkGangJoin fk_r_join() { return FkGangJoin{0, 0}; }
#define FK_GANG_HELPER (-2)
__device__ inline int fk_r_gang_end(int cached) { return cached; }
#define FK_R_GANG(PC, LOOP, LG, N, SEQ) false
#endif
__device__ inline void fk_gang_sync() { fk_gang_sync(fk_team()); }
__device__ inline int fk_gang_count(bool pred) { return fk_gang_count(fk_team(), pred); }

// The members a team owns in an owned loop of group lg: all of them (no gang), or its slice.
__device__ inline int fk_own_first() {
#ifdef FK_SCHEDULE_DEVICE
    if (fk_ganged()) return fk_gang.first;
#endif
    return 0;
}
__device__ inline int fk_own_count(int lg) {
#ifdef FK_SCHEDULE_DEVICE
    if (fk_ganged()) return fk_gang.count;
#endif
    return fk_m.groups[lg].size;
}

// ---- a region's loop whose members each have a thread (an owned loop) ----
// Where every member of a region's group g entered a loop whose body holds only synchronous
// kernels that keep their slots in registers and multiprefixes (the emitter decides that),
// and the loop group lg fits the team outside `seq`, thread t runs member t of lg, which is
// member t of g, for the whole loop: the member's kernel thread is resolved once
// (fk_r_own_member), not at every launch, and the `continue` and loop-exit updates are the
// thread's own (fk_r_own_continue, fk_r_own_loop_exit). The members' copies, fk_own and
// r.own are kept as FK_R_LAUNCH_REGS keeps them, so the multiprefix and the `--crcw common`
// check after a launch are the generic ones. Quicksort's partition loop: a small group's
// iteration about 20% fewer cycles (docs/performance.md, session 28). Block-uniform.
__device__ inline bool fk_r_owns_loop(int lg, int n, int seq) {
    return !seq && fk_m.groups[lg].size == n && n <= min(fk_team_size(), FK_OWN_TEAM_MAX);
}

// The member a thread runs through an owned loop (`member` false: none), and the loop's team
// (fk_r_narrow_begin).
struct FkRegionMine {
    FkThread th;
    bool member;
    FkTeam team;
};

// Without a branch: a thread without a member takes member 0's, then none. (Made so while
// looking for synccheck's divergent warp at the owned loop's first barrier; that needed
// fk_team_sync's ballot, and this form is the one measured and verified, session 28.)
// `settled`: the loop's body frees no heap block (FkThread::settled).
__device__ FkRegionMine fk_r_own_member(int lg, const FkRegion &r, bool settled) {
    FkRegionMine m;
    m.member = fk_team_tid() < fk_own_count(lg);
    fk_thread(&m.th, lg, m.member ? fk_own_first() + fk_team_tid() : 0, r.slot_base, r.launch, 1);
    fk_region_thread(&m.th, r, r.sub);
    m.th.proc = m.member ? m.th.proc : -1;
    m.th.settled = settled;
    // A fault before the loop may be a conflict whose log must stay (fk_log_begin).
    m.th.conflicts_stop = !fk_faulted();
    return m;
}

// A narrow team: where a region task's group, or an owned loop's, has at most 32 members
// (and runs on no gang), the team is its first warp, which holds the members, until the task
// or loop ends; the other warps skip it and wait at its end (fk_team_widen). Before, every
// warp of the team ran each of the region's helpers and met at each of its barriers, for a
// group of 2 members as for 576, and the idle warps' instructions took the issue slots of the
// warp that had members (docs/performance.md, session 34). A narrow team meets at
// __syncwarp. Session 34 also narrowed larger groups to their first ⌈n / 32⌉ warps, meeting
// at a named barrier of their own; compute-sanitizer's racecheck then reported hazards
// between accesses that a later barrier of the whole team orders, whatever the barriers' ids
// and counts, and none where the narrow team was one warp meeting at __syncwarp (small
// kernels show both: docs/results/h200-2026-11-30-s35, racecheck-probe*.cu). Teams of several
// warps at an mbarrier were clean but slower than the whole team (docs/performance.md,
// session 35).
#define FK_NARROW_NONE 0
#define FK_NARROW_IN 1
#define FK_NARROW_OUT 2
struct FkNarrow {
    int state;  // FK_NARROW_*: not narrowed, or this thread inside or outside
    int size;   // the team's size before
};
__device__ inline FkNarrow fk_team_narrow(int n) {
    int size = fk_team_size();
#ifdef FK_SCHEDULE_DEVICE
    if (fk_ganged() || n > 32 || size <= 32) return FkNarrow{FK_NARROW_NONE, size};
    // Every thread has read the team's size before it changes, and sees the new one after.
    fk_team_sync();
    if (fk_team_tid() == 0) fk_team_lanes = 32;
    fk_team_barrier(size);
    return FkNarrow{fk_team_tid() < 32 ? FK_NARROW_IN : FK_NARROW_OUT, size};
#else
    (void)n;
    return FkNarrow{FK_NARROW_NONE, size};
#endif
}

// The team as it was before fk_team_narrow, its threads met. The narrow warp meets first: its
// threads may still read the team's size after their last barrier (fk_r_marked_status's loop
// over the members ends a region without one) when thread 0 restores it.
__device__ inline void fk_team_widen(const FkNarrow &narrow) {
#ifdef FK_SCHEDULE_DEVICE
    if (narrow.state == FK_NARROW_NONE) return;
    if (narrow.state == FK_NARROW_IN) __syncwarp();
    if (fk_team_tid() == 0) fk_team_lanes = narrow.size;
    fk_team_barrier(narrow.size);
#else
    (void)narrow;
#endif
}

// An owned loop of group lg on a narrow team where it can (fk_team_narrow); the team the loop
// runs on, to its end, into m.team.
__device__ inline FkNarrow fk_r_narrow_begin(int lg, FkRegionMine &m) {
    FkNarrow narrow = fk_team_narrow(fk_m.groups[lg].size);
    m.team = fk_team();
    return narrow;
}

// The end of an owned loop: a narrow loop's team as it was. Every thread takes the region's
// segment count (FkRegion::sub, which the loop's launches moved on) from thread 0 and forgets
// its member (`own`), which the threads outside did not run: a test of FkRegionOwn must come
// out alike in every thread.
__device__ inline void fk_r_narrow_end(const FkNarrow &narrow, FkRegion &r, FkRegionOwn &own) {
    if (narrow.state == FK_NARROW_NONE) return;
    __shared__ unsigned sub;
    if (fk_team_tid() == 0) sub = r.sub;
    fk_team_widen(narrow);
    r.sub = sub;
    own.group = -1;
}

// FK_R_LAUNCH_REGS in an owned loop (lg: its group, M: the thread's FkRegionMine), ended by
// SYNC of the loop's team: fk_gang_sync, or fk_team_sync where the emitter found that no
// other team of a gang needs this launch's barrier (emit_cuda::region, `launch_meets_gang`).
#define FK_R_OWN_LAUNCH_REGS(K, LG, M, SYNC, ...)                                       \
    do {                                                                               \
        bool runs_ = (M).member && fk_m.status[(M).th.proc] == FK_ACTIVE;              \
        r.own = FkOwnLog{(M).th.proc, -1};                                             \
        if (runs_) {                                                                   \
            if (fk_cached != (M).th.proc) {                                            \
                fk_cached = (M).th.proc;                                               \
                fk_load(fk_cached);                                                    \
            }                                                                          \
            FkThread th_ = (M).th;                                                     \
            th_.sub = r.sub;                                                           \
            FK_R_SEEN(th_, K##_regs(&th_, __VA_ARGS__));                               \
            r.own.logged = th_.logged;                                                 \
        }                                                                              \
        fk_r_keep_member(&fk_own, (LG), (M).th.proc, runs_);                           \
        r.sub++;                                                                       \
        SYNC((M).team);                                                                \
    } while (0)

// `continue` in an owned loop: the thread's member, if it left the body so and entered the
// loop (fk_r_marked_status), takes part in the latch. Every member of a loop that forms its
// group entered it (no `marks`); a loop that keeps the enclosing group's members
// (fk_r_same_group) runs on no gang, so the thread's member is member m.team.tid of that
// group, marked in `marks` if it entered.
#define FK_ALL_MARKED (~(fk_u64)0)
__device__ inline void fk_r_own_continue(const FkRegionMine &m, fk_u64 marks = FK_ALL_MARKED) {
    if (m.member && (marks == FK_ALL_MARKED || fk_m.words[marks + m.team.tid]))
        fk_status_from(m.th.proc, FK_CONTINUE, FK_ACTIVE);
}

// The loop-exit update of an owned loop (fk_r_loop_exit, fk_member_stays): `stays` is the
// member's condition (its copy: the emitter makes only loops whose condition the region
// keeps in registers owned); returns the members still in. The fault flag is read in every
// 64th iteration (`it`, fk_r_spin's count), not in each (an L2 round trip, docs/performance.md,
// session 29): after a fault the loop runs at most 63 more iterations, whose output the host
// drops (it comes after the fault) and whose faults come after the first; one at a conflict
// has already ended it (fk_r_common_check).
//
// `passes` (the emitter's exit_passes: what the gang runs between this count and its next
// meeting touches nothing that another team may still touch before this count): in a gang,
// a team with members still in goes on without waiting for the others, since the loop goes
// on (it returns its own count); a team with none waits for the gang's count.
__device__ inline int fk_r_own_loop_exit(const FkRegionMine &m, bool stays, fk_u64 it,
                                         bool passes) {
    bool in = m.member && fk_m.status[m.th.proc] == FK_ACTIVE;
    int n = fk_team_count(m.team, fk_stays(m.th.proc, in, [&] { return stays; }, (it & 63) == 0));
    if (!m.team.ganged) return n;
#ifdef FK_SCHEDULE_DEVICE
    if (passes && n > 0) {
        // The count's barrier ordered the team's writes before thread 0's release.
        if (m.team.tid == 0) (void)fk_gang_post(FkGangPart{0, 0, n, 0});
        return n;
    }
    return fk_gang_sum(n);
#else
    (void)passes;
    return n;
#endif
}

// fk_r_multiprefix where the group's last launch kept its members (fk_own.group == g):
// each thread's member is its own, whose cell and value are the thread's copies
// (FK_R_LAUNCH_REGS) where they are that member's (`cached`), else its slots. The result is
// stored to its slot and returned as fk_multiprefix_block's. `meets`: in a gang, whether
// the gang meets after it (fk_gang_multiprefix).
__device__ FkMpOwn fk_r_multiprefix_mine(int g, int n, fk_u64 slot_base, int op,
                                         const FkRegionOwn &own, int cached, fk_u64 cell,
                                         int v, FkVar ptr, FkVar value, int has_result,
                                         FkVar result, int meets) {
    int proc = own.proc;
    // The kernel may have ended the member's part (a `break` or `return` in it).
    bool active = own.runs && fk_m.status[proc] == FK_ACTIVE;
    if (active && cached != proc) {
        cell = *(const fk_u64 *)fk_var_addr(ptr, g, slot_base, proc);
        v = (int)fk_load_int(fk_var_addr(value, g, slot_base, proc), value.size);
    }
    FkMpOwn mine{active ? proc : -1, 0};
#ifdef FK_SCHEDULE_DEVICE
    if (fk_ganged())
        fk_gang_multiprefix((fk_gang.count + 31) / 32, active, cell, v, op, &mine.value, meets);
    else
#endif
        fk_mp_chunk((n + 31) / 32, active, cell, v, op, &mine.value);
    if (active && has_result) *(int *)fk_var_addr(result, g, slot_base, proc) = mine.value;
    fk_team_sync();
    return mine;
}

// A shared branch: 1 or 0 for the condition of the first active member, -1 when none is
// active (fk_read_first).
__device__ int fk_r_branch(int g, int n, fk_u64 slot_base, FkVar v) {
    __shared__ int taken;
    if (fk_team_tid() == 0) {
        fk_i64 x = 0;
        taken = fk_first_active_value(g, n, slot_base, v, &x) ? (x != 0) : -1;
    }
    fk_team_sync();
    int b = taken;
    fk_team_sync();
    return b;
}

__device__ void fk_r_zero(char *p, fk_u64 bytes) {
    for (fk_u64 i = fk_team_tid(); i < bytes; i += fk_team_size()) p[i] = 0;
}

// The subgroup key of member t of g: an `if` split (`marks` == ~0): 0 then, 1 else; a loop
// group: 0 for a marked active participant. -1: no subgroup.
__device__ int fk_r_key(int g, int t, int n, fk_u64 slot_base, FkVar cond, fk_u64 marks) {
    if (t >= n) return -1;
    int proc = fk_m.members[fk_m.groups[g].members + t];
    if (fk_m.status[proc] != FK_ACTIVE) return -1;
    if (marks != ~0ull) return fk_m.words[marks + t] ? 0 : -1;
    return fk_load_int(fk_var_addr(cond, g, slot_base, proc), cond.size) != 0 ? 0 : 1;
}

// A region's subgroup or loop group whose own shared frame is empty (no shared locals, so no
// code asks for it) names its parent's frame as its own: a kernel's thread then finds the
// frame its code uses in the thread (fk_th_frame) instead of walking the group tree: two
// dependent loads per kernel and member, about 250 cycles in quicksort's loop
// (docs/performance.md, session 26). A lookup by frame id (fk_frame, fk_frame_object) finds
// the parent's frame a step earlier.
__device__ inline void fk_r_inherit_frame(FkGroup *d, const FkGroup &parent) {
    d->frame_id = parent.frame_id;
    d->frame = parent.frame;
}

// Splits g into k (1 or 2) subgroups at groups[first..first+k): sizes, then member lists at
// `member_base` in the parent's $$ order (a block scan per chunk of members), descriptors
// (`@` inherited) and zeroed frames `stride` bytes apart. Subgroups without shared locals
// (`stride` 0) carry the parent's frame instead (fk_r_inherit_frame).
__device__ void fk_r_split(int g, int n, fk_u64 slot_base, FkVar cond, fk_u64 marks, int k,
                           int first, fk_u64 member_base, int frame0, int frame1, char *frames,
                           fk_u64 stride) {
    int size0 = 0, size1 = 0;
    for (int c0 = 0; c0 < n; c0 += fk_team_size()) {
        int key = fk_r_key(g, c0 + fk_team_tid(), n, slot_base, cond, marks);
        size0 += fk_team_count(key == 0);
        size1 += fk_team_count(key == 1);
    }
    int carry0 = 0, carry1 = size0;
    FkGroup parent = fk_m.groups[g];
    for (int c0 = 0; c0 < n; c0 += fk_team_size()) {
        int t = c0 + fk_team_tid();
        int key = fk_r_key(g, t, n, slot_base, cond, marks);
        fk_place_in_two(key, t, parent.members, member_base, &carry0, &carry1);
    }
    if (fk_team_tid() < k) {
        int c = fk_team_tid();
        FkGroup d;
        d.at = parent.at;
        d.parent = g;
        d.size = c == 0 ? size0 : size1;
        d.members = member_base + (c == 0 ? 0 : size0);
        if (stride == 0) {
            fk_r_inherit_frame(&d, parent);
        } else {
            d.frame_id = c == 0 ? frame0 : frame1;
            d.frame = (fk_u64)(frames + c * stride);
        }
        fk_m.groups[first + c] = d;
    }
    fk_r_zero(frames, k * stride);
    fk_team_sync();
}

// A loop group that keeps the members of g: a new descriptor with the loop's frame (g's when
// the loop has no shared locals, fk_r_inherit_frame).
__device__ void fk_r_same_group(int g, int loop_g, int frame_id, char *frame, fk_u64 bytes) {
    if (fk_team_tid() == 0) {
        FkGroup d = fk_m.groups[g];
        d.parent = g;
        if (bytes != 0) {  // else d keeps g's frame (fk_r_inherit_frame)
            d.frame_id = frame_id;
            d.frame = (fk_u64)frame;
        }
        fk_m.groups[loop_g] = d;
    }
    fk_r_zero(frame, bytes);
    fk_team_sync();
}

__device__ void fk_r_mark_active(int g, int n, fk_u64 marks) {
    for (int t = fk_team_tid(); t < n; t += fk_team_size()) fk_mark_member(g, t, marks);
    fk_team_sync();
}

__device__ void fk_r_marked_status(int g, int n, fk_u64 marks, int from, int to) {
    for (int t = fk_team_tid(); t < n; t += fk_team_size()) fk_marked_member_status(g, t, marks, from, to);
    fk_team_sync();
}

// The loop-exit update (fk_loop_exit) in the block: returns the participants still active.
__device__ int fk_r_loop_exit(int g, int n, fk_u64 slot_base, fk_u64 marks, int has_cond,
                              FkVar cond, int cond_group) {
    int running = 0;
    for (int c0 = 0; c0 < n; c0 += fk_team_size()) {
        int t = c0 + fk_team_tid();
        bool stays = t < n && fk_member_stays(g, t, slot_base, marks, has_cond, cond, cond_group);
        running += fk_team_count(stays);
    }
    return running;
}

// An iteration of a block region's loop (group g is the loop group): thread 0 tests the
// limits for g's $$ 0 member (fk_limit) when a test is due. True in every thread when the
// run stops.
__device__ bool fk_r_spin(fk_u64 *it, int site, int g, const FkRegion &r) {
    ++*it;
    if (!(fk_limits.max_steps && *it > fk_limits.max_steps) && (*it & 1023) != 0) return false;
    __shared__ int stop;
    // In a gang the leader's team tests, and the gang learns its answer (fk_gang_count).
    if (fk_team_tid() == 0) {
        stop = 0;
        if (fk_own_first() == 0) {
            FkThread th = fk_first_member(g, r.launch, r.sub);
            fk_region_thread(&th, r, r.sub);
            stop = fk_limit(*it, site, th);
        }
    }
    fk_team_sync();
    int s = stop;
    return fk_gang_count(fk_team_tid() == 0 && s) != 0;
}

// --crcw common: the check after a region's logging kernel (its segment was r.sub - 1). A
// thread that ran one member checks that member's writes, whose count it kept (r.own): two
// dependent loads (the entry, the cell) for a member that wrote once.
__device__ bool fk_own_check(int g, const FkRegion &r) {
    if (r.own.logged <= 0 || !fk_common.writes) return false;
#ifdef FK_SCHEDULE_DEVICE
    // One write: its copy (fk_write_first; this thread ran the member, FK_R_LAUNCH_REGS).
    const FkWrite &first = fk_write_first[threadIdx.x];
    if (r.own.logged == 1 && fk_bits((const void *)first.addr, first.size) == first.bits)
        return false;
#endif
    const FkWrite *w = fk_log_conflict(r.own.proc, r.own.logged);
    if (!w) return false;
    FkThread th = fk_first_member(g, r.launch, r.sub - 1);
    th.proc = r.own.proc;
    fk_region_thread(&th, r, r.sub - 1);
    fk_common_conflict(w, th, fk_step_tag(&th));
    return true;
}

// Returns whether a member found a conflict (block-uniform): an owned loop stops there
// (FkThread::conflicts_stop), and passes its team.
__device__ bool fk_r_common_check(int g, int seq, const FkRegion &r, const FkTeam &team = fk_team()) {
    bool found = false;
    if (r.own.logged != FK_LOGGED_UNKNOWN) {
        found = fk_own_check(g, r);
    } else {
        int n = fk_r_threads(g, seq);
        for (int t = fk_team_tid(); t < n; t += fk_team_size()) {
            FkThread th = fk_first_member(g, r.launch, r.sub - 1);
            th.proc = fk_m.members[fk_m.groups[g].members + fk_member_index(g, n, t)];
            fk_region_thread(&th, r, r.sub - 1);
            found |= fk_common_check(th, fk_step_tag(&th));
        }
    }
    return fk_gang_count(team, found) != 0;
}

__device__ FkMpOwn fk_r_multiprefix(int g, int n, fk_u64 slot_base, int op, FkVar ptr,
                                    FkVar value, int has_result, FkVar result) {
    FkMpOwn own = fk_multiprefix_block(g, n, slot_base, op, ptr, value, has_result, result);
    fk_team_sync();
    return own;
}

// After a multiprefix whose result is a slot the region keeps in registers
// (FK_R_LAUNCH_REGS): the thread's copy is the result where it took its own member's; else
// another thread wrote that member's, and the copies are no longer its.
template <typename T>
__device__ inline void fk_r_own_result(FkMpOwn own, int *cached, T *copy) {
    if (own.proc == *cached) *copy = (T)own.value;
    else *cached = -1;
}

// ---- grid regions ----
// A grid region (transform::regions, RegionKind::Grid) is one cooperative launch over every
// SM: thread t runs members t, t + T, ... of the region's group through its kernels, shared
// branches and loops. Every member runs them alike (no member leaves a kernel early, no loop
// forms a group) and every decision is uniform, so each block takes it from its own
// members' values; a grid barrier separates two kernels only where a kernel's shared writes
// meet the other's shared accesses (the emitted code tracks what ran since the last one).
//
// Faults: every grid barrier returns the OR of the arriving threads' stops (each its view of
// fk_faulted), the same for every block, and after one that says stop every block leaves
// without another. A block whose member faulted may decide on a stale value and take
// another path than the others (the threads of a block decide together, so a block never
// splits), but its next arrival, at whichever barrier, says stop, and no barrier completes
// without it: a loop iteration's fk_g_spin meets a barrier every 1024 iterations, and the
// region ends with one. Kernels run on after a fault meanwhile; a later fault orders after
// the first and is dropped.

//
// Under the device schedule a grid region is a task of every block's team (fk_schedule.cuh,
// fk_run_grid_task) for a group of every processor of the run, which no other group then
// runs beside: the threads are the teams' (a block's barrier is its team's), and the same
// code runs.
#ifdef FK_SCHEDULE_DEVICE
#define FK_GRID_REGION_FN __device__ __noinline__ void
// The region's segments were steps of the group (fk_g_end).
__device__ inline void fk_g_end(const FkRegion &r) {
    if (blockIdx.x == 0 && fk_team_tid() == 0) fk_region_end(r);
}
__device__ inline bool fk_g_warm_up(int) { return false; }
#else
// At least 2 blocks per SM: without it ptxas gave sieve's region 64 registers and 212 bytes
// of spill loads per thread, with it 97 and none (Hillis-Steele's 128 either way, spilling
// 72 bytes against 136).
// (Over two lines: the library's own kernels are the lines that start a definition so.)
#define FK_GRID_REGION_FN extern "C" __global__ \
    void __launch_bounds__(FK_GRID_THREADS, 2)
// The host numbers launches itself.
__device__ inline void fk_g_end(const FkRegion &) {}
// A launch with g < 0 returns at once: each driver launches every grid region so once before
// the run, since the driver's first cooperative launch of a function takes 0.1 to 0.3 ms of
// host time (later ones a few µs), which the GPU would otherwise wait for inside the run.
__device__ inline bool fk_g_warm_up(int g) { return g < 0; }
#endif

// A decision is each block's own members' value (fk_g_decide), so every block must have one.
// The host schedule launches no more blocks than that (fk_grid_shape). The device schedule's
// persistent kernel has its blocks, each with a team of fk_team_size() threads: the first
// fk_g_width of each team take members fk_g_first on, fk_g_span threads in all (the stride
// to a thread's next member; fk_run_grid_task sets them, fk_g_shape; the others only meet
// the barriers).
#ifdef FK_SCHEDULE_DEVICE
__shared__ int fk_g_width, fk_g_first, fk_g_span;
__device__ inline int fk_g_threads() { return fk_g_span; }
__device__ inline int fk_g_tid() {
    int j = fk_team_tid();
    return j < fk_g_width ? fk_g_first + j : 0x7fffffff;
}
// The shape of a grid region of n members, by the team's thread 0. Where the teams hold
// more threads than n, each thread takes one member at most: the first n % blocks blocks one
// more than the others. A width of n / blocks in every block left n % blocks members to
// block 0's first threads, which ran two while every other ran one, and every barrier
// waited for them (P = 1000 runs 32 blocks: 8 members left over; docs/performance.md,
// session 54).
__device__ inline void fk_g_shape(int n) {
    int blocks = (int)gridDim.x, b = (int)blockIdx.x, share = n / blocks, extra = n % blocks;
    if (share >= fk_team_size()) {
        fk_g_width = fk_team_size();
        fk_g_first = b * fk_team_size();
        fk_g_span = blocks * fk_team_size();
    } else {
        fk_g_width = share + (b < extra);
        fk_g_first = b * share + min(b, extra);
        fk_g_span = n;
    }
}
#else
__device__ inline int fk_g_tid() { return (int)(blockIdx.x * blockDim.x + threadIdx.x); }
__device__ inline int fk_g_threads() { return (int)(gridDim.x * blockDim.x); }
#endif

// A barrier of every thread of the launch (the launch is cooperative, so every block is
// resident): each block's team thread 0 adds its arrival to the barrier's word in global
// memory, with the bits it arrives with counted above bit 32, and polls the word until it
// counts every block. One atomic and one poll on its path: the block's barrier count is its
// own (fk_g_generation), and the bits come with the arrivals. Three words in turn: the last
// block to arrive at barrier b clears the word of b + 2, which every block has read at b - 1
// and none adds to before the last block arrives at b + 1.
struct FkGridSync {
    fk_u64 arrived[3];    // arrivals (bits 0-31), with FK_G_STOP (32-47), with FK_G_UNEVEN (48-63)
    unsigned generation;  // barriers passed: where a launch's blocks start (fk_g_start)
    unsigned sub;         // fk_g_after_block0
};
__device__ FkGridSync fk_grid_sync_state;
// The barriers this block's team has passed, kept by its thread 0.
__shared__ unsigned fk_g_generation;
// Where a launch starts, by one thread of each block: before its first grid barrier, which
// none passes before all arrive.
__device__ inline void fk_g_start() {
    fk_g_generation = *(volatile unsigned *)&fk_grid_sync_state.generation;
}

// What threads arrive at a grid barrier with: the run stops, a member is not active.
#define FK_G_STOP 1u
#define FK_G_UNEVEN 2u

// A grid barrier that the block arrives at with `bits` (FK_G_*, its threads' together);
// returns every block's together.
__device__ unsigned fk_g_arrive(unsigned bits) {
#ifdef FK_EMU
    // The CPU stand-in's host schedule runs a grid region as one block.
    if (gridDim.x == 1) return bits;
#endif
    __shared__ unsigned result;
    if (fk_team_tid() == 0) {
        FkGridSync &s = fk_grid_sync_state;
        unsigned b = fk_g_generation;
        fk_u64 *word = &s.arrived[b % 3];
        fk_u64 add = 1ull | (bits & FK_G_STOP ? 1ull << 32 : 0) | (bits & FK_G_UNEVEN ? 1ull << 48 : 0);
        // The release orders the team's writes, which its barrier ordered before this thread's.
        fk_u64 v = fk_add_acq_rel(word, add) + add;
        if ((unsigned)v == gridDim.x) {
            s.arrived[(b + 2) % 3] = 0;
            s.generation = b + 1;
        } else {
            while ((unsigned)(v = *(volatile fk_u64 *)word) != gridDim.x) {
#ifdef FK_EMU
                fk_emu_yield();
#endif
            }
            (void)fk_load_acquire(word);
        }
        fk_g_generation = b + 1;
        result = ((v >> 32) & 0xffffu ? FK_G_STOP : 0u) | (v >> 48 ? FK_G_UNEVEN : 0u);
    }
    fk_team_sync();
    return result;
}

// Returns whether any thread arrived with `stop`.
__device__ bool fk_g_sync(bool stop) { return fk_g_arrive(fk_team_count(stop) != 0) != 0; }

// The region's start: true when the run has stopped (the region then ends at once). Never
// declines, so the host reads nothing back after a grid region (a round trip after every
// region, inside the timing of the function around it) and under the device schedule the
// group's members go on at its end. Every member is active here: a grid region holds a cyclic loop, which needs
// every member present (transform::rules::uniform), and the transform's rules form none
// after a member may have left. Should a rule change break that, members that are not active
// run none of its kernels (fk_thread), and `r.uneven` makes its decisions the group's
// (fk_g_decide), so the region still runs as the instructions one by one would (the emulated
// tests run that path with FK_GRID_GROUP_DECISIONS).
__device__ bool fk_g_begin(int g, FkRegion &r) {
#ifndef FK_SCHEDULE_DEVICE
    // A launch of its own; the persistent kernel's blocks start in fk_device_run.
    if (fk_team_tid() == 0) fk_g_start();
#endif
    FkGroup grp = fk_m.groups[g];
    bool inactive = false;
    for (int t = fk_g_tid(); t < grp.size; t += fk_g_threads())
        inactive |= fk_m.status[fk_m.members[grp.members + t]] != FK_ACTIVE;
    unsigned bits = (fk_team_count(fk_faulted()) ? FK_G_STOP : 0u) |
                    (fk_team_count(inactive) ? FK_G_UNEVEN : 0u);
    bits = fk_g_arrive(bits);
    r.uneven = FK_GRID_GROUP_DECISIONS || (bits & FK_G_UNEVEN) != 0;
    return (bits & FK_G_STOP) != 0;
}

// A thread's first member of a grid region's group (member fk_g_tid), built once: the
// members, their `$$`, `$` and status stay as they are inside the region. `only`: it is the
// thread's only member.
struct FkGridMember {
    FkThread th;
    int group;
    bool has, only, uneven;
};
__device__ FkGridMember fk_g_member(int g, const FkRegion &r) {
    FkGridMember m = {};
    int n = fk_m.groups[g].size;
    m.group = g;
    m.has = fk_g_tid() < n && fk_thread(&m.th, g, fk_g_tid(), r.slot_base, r.launch, 1);
    m.only = fk_g_threads() >= n;
    m.uneven = r.uneven;
    return m;
}

// A uniform decision, the same in every thread: whether `v` of the active members is
// non-zero (every active member has the same value; with none active, false). Where every
// member is active, each block has its own (fk_grid_shape gives every block a member) and
// decides alone; else a block may have none, and the decision is the group's, over every
// thread's members, at a grid barrier.
__device__ bool fk_g_decide(const FkGridMember &m, fk_u64 slot_base, FkVar v) {
    if (!m.uneven) {
        bool x = m.has && fk_load_int(fk_var_addr(v, m.group, slot_base, m.th.proc), v.size) != 0;
        return fk_team_count(x) != 0;
    }
    const FkGroup grp = fk_m.groups[m.group];
    bool x = false;
    for (int t = fk_g_tid(); t < grp.size; t += fk_g_threads()) {
        int proc = fk_m.members[grp.members + t];
        x |= fk_m.status[proc] == FK_ACTIVE &&
             fk_load_int(fk_var_addr(v, m.group, slot_base, proc), v.size) != 0;
    }
    return fk_g_sync(x);
}

// An iteration of a grid region's loop: every 1024th (and each past the step limit) thread
// 0 tests the limits for g's $$ 0 member, then a barrier tells every thread whether the run
// stops.
__device__ bool fk_g_spin(fk_u64 *it, int site, int g, const FkRegion &r) {
    ++*it;
    if (!(fk_limits.max_steps && *it > fk_limits.max_steps) && (*it & 1023) != 0) return false;
    if (fk_g_tid() == 0) {
        FkThread th = fk_first_member(g, r.launch, r.sub);
        fk_region_thread(&th, r, r.sub);
        fk_limit(*it, site, th);
    }
    return fk_g_sync(fk_faulted());
}

// --crcw common, after a barrier: each thread checks its members' writes of the segment just
// run (r.sub - 1), as fk_r_common_check.
__device__ void fk_g_common_check(int g, const FkRegion &r) {
    if (r.own.logged != FK_LOGGED_UNKNOWN) {
        fk_own_check(g, r);
        return;
    }
    FkGroup grp = fk_m.groups[g];
    for (int t = fk_g_tid(); t < grp.size; t += fk_g_threads()) {
        FkThread th = fk_first_member(g, r.launch, r.sub - 1);
        th.proc = fk_m.members[grp.members + t];
        fk_region_thread(&th, r, r.sub - 1);
        fk_common_check(th, fk_step_tag(&th));
    }
}

// After a split that block 0 ran as a block region would: a grid barrier, and every block
// counts the segments block 0 ran. True when the run stops.
__device__ bool fk_g_after_block0(FkRegion &r) {
    if (blockIdx.x == 0 && fk_team_tid() == 0) fk_grid_sync_state.sub = r.sub;
    bool stop = fk_g_sync(fk_faulted());
    r.sub = *(volatile unsigned *)&fk_grid_sync_state.sub;
    return stop;
}

// One Plan kernel K in a grid region: each thread runs its members (a thread with one member
// from its FkGridMember M). No barrier: the emitted code places them.
#define FK_G_LAUNCH(K, G, M)                                                             \
    do {                                                                                 \
        if ((M).only) {                                                                  \
            r.own.logged = -1;                                                           \
            if ((M).has) {                                                               \
                FkThread th_ = (M).th;                                                   \
                fk_region_thread(&th_, r, r.sub);                                        \
                FK_R_SEEN(th_, K##_body(&th_));                                          \
                r.own = FkOwnLog{th_.proc, th_.logged};                                  \
            }                                                                            \
        } else {                                                                         \
            r.own.logged = FK_LOGGED_UNKNOWN;                                            \
            int n_ = fk_m.groups[G].size;                                                \
            for (int t_ = fk_g_tid(); t_ < n_; t_ += fk_g_threads()) {                   \
                FkThread th_;                                                            \
                if (fk_thread(&th_, G, t_, r.slot_base, r.launch, 1)) {                  \
                    fk_region_thread(&th_, r, r.sub);                                    \
                    FK_R_SEEN(th_, K##_body(&th_));                                      \
                }                                                                        \
            }                                                                            \
        }                                                                                \
        r.sub++;                                                                         \
    } while (0)
