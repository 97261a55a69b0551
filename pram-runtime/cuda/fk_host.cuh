// forkcc group-tree runtime library, host side of the standalone .cu (`forkcc build --emit
// cuda`); the GPU driver (pram_runtime::gpu) implements the same operations in Rust.
//
// The emitted `fk_run` is the lowered host program (transform::host_program): a `switch` on
// the program counter `fk_h.pc`, one case per instruction, each calling this API. As in
// `host_program::walk`, the current context is `fk_h.c` and what a construct keeps until its
// end is a frame on `fk_h.stack`, so deep recursion of host functions does not use the C++
// stack. The host keeps a mirror of the group stack (sizes and offsets it computed itself
// from the subgroup sizes it read back) so that it can size launches; everything else stays
// on the device. It reads back only subgroup sizes, the fork count, shared branch conditions
// and the loop-exit count.

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <string>
#include <vector>

// A place that can fault: `file:line:col`, the simulator's R-code, and the message as a printf
// format taking (const char *value, const char *object).
struct FkSite {
    const char *location;
    const char *code;
    const char *format;
};

struct FkProgram {
    const char *strings;
    unsigned long long strings_bytes;
    const unsigned long long *string_offsets;  // by string number (a printf record's format)
    const FkSite *sites;
    const char *const *objects;  // the objects fault messages name (fk_fault_v's `object`)
    unsigned long long shared_globals_bytes;
    unsigned long long private_globals_bytes;
    unsigned long long main_frame_bytes;
    int main_shared_frame;
    unsigned long long main_shared_bytes;
    unsigned long long stack_bytes;  // per-thread stack for recursive device functions (0: default)
    void (*run)();  // the host program, from main's entry for the context in fk_h.c
};

// Where the host is: the group, the activation's slot frame, and whether only the present
// member with the smallest $$ runs (seq; fk_member_index).
struct FkCtx {
    int g;
    fk_u64 slot_base;
    int seq;
};

// The host's mirror of one group: what it needs to size launches.
struct FkHostGroup {
    int size;
    fk_u64 members;
    fk_i64 at;
};

// Stack tops; a construct saves them on entry and restores them at its end.
struct FkTops {
    int groups;
    fk_u64 members, words, frames;
};

enum FkHostFrameKind { FK_HOST_SPLIT, FK_HOST_LOOP, FK_HOST_CALL, FK_HOST_SEQ, FK_HOST_START };

// What a split, loop, call, seq or start keeps until its end (host_program's frames).
struct FkHostFrame {
    int kind;
    FkCtx outer;  // the context it started in, restored at its end
    FkTops tops;  // the stack tops at its start
    int n;        // threads of `outer`
    fk_u64 words;  // split: the saved $; loop, call: the marks of the participants
    // split: subgroups first .. first + k - 1, the current one i, the arms (an `if` runs
    // arms[i], a fork arms[0] for each) and where the walk goes on after the restore
    int is_if, set_dollar, first, arms[2], end;
    long long k, i;
    std::vector<int> sizes;
    // loop: its header, where it exits, whether a participant runs the next iteration, its
    // fault site and iterations so far (the limits)
    int has_cond, test_first, forms_group, shared_frame, exit, running, site;
    fk_u64 iterations;
    FkVar cond;
    fk_u64 shared_bytes;
    // call: the callee's context, where the caller goes on, the result to copy back
    FkCtx inner;
    int back, has_result;
    FkVar ret, result;
};

struct FkHost {
    int procs;
    int priority;  // --crcw priority
    FkMachine m;  // the device pointers, as copied to fk_m
    std::vector<FkHostGroup> groups;
    FkTops top;
    fk_u64 members_cap, words_cap, groups_cap, frames_cap, slots_cap, counts_cap;
    char *frames;
    unsigned launches;
    const FkProgram *program;
    // The walk: context, next instruction, frames innermost last.
    FkCtx c;
    int pc;
    std::vector<FkHostFrame> stack;
    FkFaultKey *fault_key;  // device schedule: the faulting step's order key (device memory)
    // The limits (`--max-steps`, `--timeout`; docs/gpu-limits.md), also on the device in
    // fk_limits: iterations of one loop (0: none), seconds from the start (0: none).
    fk_u64 max_steps;
    double timeout;
    std::chrono::steady_clock::time_point start;
    FkWhy *why;  // device: why the fault is a limit or a conflict
    int calls;  // calls the walk is in
    // A recursion fault (R0008): the runtime stack that filled (0: more than FK_MAX_DEPTH
    // calls) and the calls, or the device schedule's frames and slot stack per processor.
    const char *deep_stack;
    int deep_calls;
    int device_frames;
    fk_u64 device_slot_bytes;
    FkCommon common;  // --crcw common: the write logs (writes 0: not checked)
};

static FkHost fk_h;

inline void fk_fatal(const char *what) {
    fflush(stdout);
    fprintf(stderr, "error: %s\n", what);
    exit(1);
}

inline void fk_cuda(cudaError_t e, const char *what) {
    if (e != cudaSuccess) {
        std::string m = std::string(what) + ": " + cudaGetErrorString(e);
        fk_fatal(m.c_str());
    }
}

inline void *fk_device_alloc(fk_u64 bytes, const char *what) {
    void *p = 0;
    cudaError_t e = cudaMalloc(&p, bytes ? bytes : 8);
    if (e != cudaSuccess) {
        char m[256];
        snprintf(m, sizeof m, "cannot allocate %llu bytes of GPU memory for %s: %s", bytes, what,
                 cudaGetErrorString(e));
        fk_fatal(m);
    }
    fk_cuda(cudaMemset(p, 0, bytes ? bytes : 8), what);
    return p;
}

// `n` zeroed elements for the array `field` points to, of the element type its ABI struct
// declares (fk_abi.cuh, from transform::emit_cuda::abi: the one declaration of each array's
// element size, which the driver's arena takes too).
template <class T> inline void fk_alloc_array(T *&field, fk_u64 n, const char *what) {
    field = (T *)fk_device_alloc(n * sizeof(T), what);
}

inline FkTops fk_tops() { return fk_h.top; }
inline void fk_pop(FkTops t) {
    fk_h.top = t;
    fk_h.groups.resize(t.groups);
}

inline unsigned fk_threads(FkCtx c) {
    int n = fk_h.groups[c.g].size;
    return c.seq ? (n > 0 ? 1u : 0u) : (unsigned)n;
}

// A new frame of `kind` for the current context.
inline FkHostFrame &fk_push_frame(int kind) {
    fk_h.stack.emplace_back();
    FkHostFrame &f = fk_h.stack.back();
    f.kind = kind;
    f.outer = fk_h.c;
    f.tops = fk_tops();
    f.n = (int)fk_threads(fk_h.c);
    return f;
}

// The innermost frame, which must be of `kind` (transform::valid checks the program).
inline FkHostFrame &fk_frame(int kind) {
    if (fk_h.stack.empty() || fk_h.stack.back().kind != kind)
        fk_fatal("the host program's constructs are not nested (a forkcc bug)");
    return fk_h.stack.back();
}

// Ends the innermost construct: its context and stack tops again.
inline void fk_pop_frame() {
    FkHostFrame &f = fk_h.stack.back();
    fk_h.c = f.outer;
    fk_pop(f.tops);
    fk_h.stack.pop_back();
}

inline unsigned fk_next_launch() { return fk_h.launches++; }

inline void fk_after_launch(const char *name) {
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) {
        std::string m = std::string("launch of ") + name + " failed: " + cudaGetErrorString(e);
        fk_fatal(m.c_str());
    }
}

#define FK_BLOCKS(n) (((n) + FK_BLOCK_THREADS - 1) / FK_BLOCK_THREADS), FK_BLOCK_THREADS

// Run kernel K (one thread per member of the current group). Under --crcw priority a
// synchronous kernel runs its members serially in __PROC_NR__ order (FK_KERNEL).
#define FK_LAUNCH(K, SYNC)                                                                  \
    do {                                                                                    \
        FkCtx c_ = fk_h.c;                                                                  \
        unsigned n_ = fk_threads(c_);                                                       \
        if (n_ > 0) {                                                                       \
            int serial_ = fk_h.priority && (SYNC);                                          \
            if (serial_)                                                                    \
                K<<<1, 1>>>(c_.g, (int)n_, c_.slot_base, fk_next_launch(), 1);              \
            else                                                                            \
                K<<<FK_BLOCKS(n_)>>>(c_.g, (int)n_, c_.slot_base, fk_next_launch(), 0);     \
            fk_after_launch(#K);                                                            \
        }                                                                                   \
    } while (0)

inline int fk_finish();

// A runtime stack (`stack`, 0: none, the limit on nested calls) cannot hold a call: a fault of
// the innermost call (R0008), reported after the output before it; outside calls, an error.
inline void fk_full(const char *stack) {
    const FkHostFrame *call = 0;
    for (size_t i = fk_h.stack.size(); i-- > 0 && !call;)
        if (fk_h.stack[i].kind == FK_HOST_CALL) call = &fk_h.stack[i];
    if (!call) {
        std::string m = std::string("the runtime's ") + stack + " is full (groups nested too deeply)";
        fk_fatal(m.c_str());
    }
    fk_h.deep_stack = stack;
    fk_h.deep_calls = fk_h.calls;
    fk_limit_hit<<<1, 1>>>(call->outer.g, call->site, FK_LIMIT_DEPTH, fk_h.launches);
    fk_after_launch("fk_limit_hit");
    exit(fk_finish());
}

inline fk_u64 fk_alloc_words(fk_u64 n) {
    fk_u64 at = fk_h.top.words;
    if (at + n > fk_h.words_cap) fk_full("word stack");
    fk_h.top.words += n;
    return at;
}

inline fk_u64 fk_alloc_members(fk_u64 n) {
    fk_u64 at = fk_h.top.members;
    if (at + n > fk_h.members_cap) fk_full("member stack");
    fk_h.top.members += n;
    return at;
}

// Shared-frame bytes on the stack, not zeroed (a block region zeroes its own).
inline fk_u64 fk_reserve_frames(fk_u64 bytes) {
    fk_u64 at = (fk_h.top.frames + 7) & ~7ull;
    if (at + bytes > fk_h.frames_cap) fk_full("shared-frame stack");
    fk_h.top.frames = at + bytes;
    return (fk_u64)(fk_h.frames + at);
}

inline fk_u64 fk_alloc_frames(fk_u64 bytes) {
    fk_u64 at = fk_reserve_frames(bytes);
    if (bytes) fk_cuda(cudaMemsetAsync((void *)at, 0, bytes), "zeroing a shared frame");
    return at;
}

inline int fk_alloc_groups(int k) {
    int first = fk_h.top.groups;
    if ((fk_u64)first + k > fk_h.groups_cap) fk_full("group stack");
    fk_h.top.groups += k;
    fk_h.groups.resize(fk_h.top.groups);
    return first;
}

// A new group with given members, on the host's stack; the caller sets `*d` on the device.
inline int fk_new_group(int parent, int size, fk_u64 members, fk_i64 at, int frame_id,
                        fk_u64 frame_bytes, FkGroup *d) {
    int g = fk_alloc_groups(1);
    d->at = at;
    d->parent = parent;
    d->size = size;
    d->members = members;
    d->frame_id = frame_id;
    d->frame = fk_alloc_frames(frame_bytes);
    fk_h.groups[g].size = size;
    fk_h.groups[g].members = members;
    fk_h.groups[g].at = at;
    return g;
}

// A new group with given members, written to the device by a one-thread kernel.
inline int fk_push_group(int parent, int size, fk_u64 members, fk_i64 at, int frame_id,
                         fk_u64 frame_bytes) {
    FkGroup d;
    int g = fk_new_group(parent, size, members, at, frame_id, frame_bytes, &d);
    fk_set_group<<<1, 1>>>(g, d);
    fk_after_launch("fk_set_group");
    return g;
}

// ---- block regions ----

// A region kernel's block size (FK_REGION_MAX, the largest group it runs: fk_abi.cuh).
#ifndef FK_REGION_THREADS
#define FK_REGION_THREADS(n) (((n) + FK_WARP_THREADS - 1) / FK_WARP_THREADS * FK_WARP_THREADS)
#endif

// Whether the current group runs a block region as one kernel (--crcw priority runs members
// serially, which only the ordinary launches do).
inline bool fk_region_fits() {
    int n = fk_h.groups[fk_h.c.g].size;
    return !fk_h.priority && n > 0 && n <= FK_REGION_MAX;
}

// Run region kernel R for the current group, with the stack space it needs reserved
// (transform::plan::RegionNeeds; lists as long as the group).
#define FK_REGION(R, GROUPS, MEMBER_LISTS, WORD_LISTS, FRAME_BYTES)                         \
    do {                                                                                   \
        FkCtx c_ = fk_h.c;                                                                 \
        FkTops t_ = fk_tops();                                                             \
        int n_ = fk_h.groups[c_.g].size;                                                   \
        int g_ = fk_alloc_groups(GROUPS);                                                  \
        fk_u64 m_ = fk_alloc_members((fk_u64)(MEMBER_LISTS) * n_);                         \
        fk_u64 w_ = fk_alloc_words((fk_u64)(WORD_LISTS) * n_);                             \
        fk_u64 f_ = fk_reserve_frames(FRAME_BYTES);                                        \
        R<<<1, FK_REGION_THREADS(n_)>>>(c_.g, c_.seq, c_.slot_base, fk_next_launch(), g_, m_, \
                                        w_, f_);                                           \
        fk_after_launch(#R);                                                               \
        fk_pop(t_);                                                                        \
    } while (0)

// One read-back: `n` values (ints, ABI structs) from the device.
template <class T> inline void fk_read(T *dst, const T *src, fk_u64 n) {
    fk_cuda(cudaMemcpy(dst, src, n * sizeof(T), cudaMemcpyDeviceToHost), "reading back");
}

// ---- grid regions ----

// Runs grid region kernel R for the current group (transform::regions, RegionKind::Grid),
// with the stack space it needs reserved as for a block region: true when it ran (a grid
// region never declines, fk_g_begin, so nothing is read back), false when it did not and the
// host runs the region's instructions itself: --crcw priority serialises members, which only
// the instructions one by one do.
#ifdef FK_EMU
// The CPU stand-in runs it as one block of FK_SCAN_THREADS threads.
#define FK_GRID_LAUNCH(R, A) FK_GRID_LAUNCH_SHAPED(R, A, 1, FK_SCAN_THREADS)
#define FK_GRID_LAUNCH_SHAPED(R, A, BLOCKS, THREADS)                                          \
    R<<<BLOCKS, THREADS>>>(A.g, A.seq, A.slot_base, A.launch, A.groups, A.members, A.words,   \
                           A.frames)
#else
// The threads of each block of a grid region's cooperative launch for a group of n members
// (the driver's grid_threads): the members spread over every SM, a warp at least,
// FK_GRID_THREADS at most; and the blocks: as many as are resident at once (at least those of
// FK_GRID_THREADS threads, the occupancy of kernel `k`), at most one per `threads` members, so
// that every block has a member.
inline void fk_grid_shape(const void *k, int n, unsigned *blocks, unsigned *threads) {
    int per_sm = 0, sms = 0;
    fk_cuda(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k, FK_GRID_THREADS, 0),
            "a grid region's occupancy");
    fk_cuda(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0), "the GPU's SM count");
    fk_u64 s = (fk_u64)std::max(sms, 1), m = (fk_u64)n;
    fk_u64 t = ((m + s - 1) / s + 31) / 32 * 32;
    *threads = (unsigned)std::min<fk_u64>(std::max<fk_u64>(t, 32), FK_GRID_THREADS);
    fk_u64 resident = (fk_u64)std::max(per_sm, 1) * s;
    *blocks = (unsigned)std::min<fk_u64>(resident, (m + *threads - 1) / *threads);
}

#define FK_GRID_LAUNCH(R, A)                                                                  \
    do {                                                                                     \
        unsigned b_ = 0, t_ = 0;                                                             \
        fk_grid_shape((const void *)R, fk_h.groups[A.g].size, &b_, &t_);                     \
        FK_GRID_LAUNCH_SHAPED(R, A, b_, t_);                                                 \
    } while (0)
#define FK_GRID_LAUNCH_SHAPED(R, A, BLOCKS, THREADS)                                          \
    do {                                                                                     \
        void *args_[8] = {&A.g, &A.seq, &A.slot_base, &A.launch, &A.groups, &A.members,       \
                          &A.words, &A.frames};                                              \
        fk_cuda(cudaLaunchCooperativeKernel((const void *)R, BLOCKS, THREADS, args_, 0, 0),  \
                "launching a grid region");                                                  \
    } while (0)
#endif
// Grid region R launched with g = -1, which returns at once (fk_g_warm_up): `fk_run` does so
// for each before the program, since the driver's first cooperative launch of a function
// takes 0.1 to 0.3 ms of host time and later ones a few µs.
#define FK_GRID_WARM_UP(R)                                                                   \
    do {                                                                                     \
        FkRegionArgs a_ = {};                                                                \
        a_.g = -1;                                                                           \
        FK_GRID_LAUNCH_SHAPED(R, a_, 1, 32);                                                 \
        fk_after_launch(#R);                                                                 \
    } while (0)
// A region kernel's arguments, as the host reserved them.
struct FkRegionArgs {
    int g, seq;
    fk_u64 slot_base;
    unsigned launch;
    int groups;
    fk_u64 members, words, frames;
};
#define FK_GRID_REGION(R, GROUPS, MEMBER_LISTS, WORD_LISTS, FRAME_BYTES)                      \
    fk_grid_region_ran(#R, GROUPS, MEMBER_LISTS, WORD_LISTS, FRAME_BYTES,                    \
                       [](FkRegionArgs a_) { FK_GRID_LAUNCH(R, a_); })
template <class Launch>
inline bool fk_grid_region_ran(const char *name, int groups, fk_u64 member_lists, fk_u64 word_lists,
                               fk_u64 frame_bytes, Launch launch) {
    FkCtx c = fk_h.c;
    int n = fk_h.groups[c.g].size;
    if (fk_h.priority || n <= 0) return false;
    FkTops t = fk_tops();
    FkRegionArgs a;
    a.g = c.g;
    a.seq = c.seq;
    a.slot_base = c.slot_base;
    a.groups = fk_alloc_groups(groups);
    a.members = fk_alloc_members(member_lists * n);
    a.words = fk_alloc_words(word_lists * n);
    a.frames = fk_reserve_frames(frame_bytes);
    a.launch = fk_next_launch();
    launch(a);
    fk_after_launch(name);
    fk_pop(t);
    return true;
}

// The value of `v` for the first active member: 1 (non-zero), 0, or -1 when none is active.
inline int fk_read_first_value(FkCtx c, FkVar v, int *value) {
    fk_read_first<<<1, 1>>>(c.g, (int)fk_threads(c), c.slot_base, v);
    fk_after_launch("fk_read_first");
    FkReadBack r;
    fk_read(&r, fk_h.m.read_back, 1);
    *value = r.first;
    return r.first_truth;
}

// A branch on a shared condition: on for true, `els` for false, `end` when none is active.
inline void fk_branch(FkVar cond, int els, int end) {
    int value;
    int taken = fk_read_first_value(fk_h.c, cond, &value);
    if (taken < 0) fk_h.pc = end;
    else if (taken == 0) fk_h.pc = els;
}

// ---- splits ----

// The next non-empty subgroup becomes the current group and its arm runs next; after the
// last, the restore: the parent group again ($ back after a fork that set it), `end` next.
inline void fk_next_subgroup() {
    FkHostFrame &s = fk_frame(FK_HOST_SPLIT);
    while (++s.i < s.k) {
        if (s.sizes[s.i] == 0) continue;
        fk_h.c = s.outer;
        fk_h.c.g = s.first + (int)s.i;
        fk_h.pc = s.arms[s.is_if ? s.i : 0];
        return;
    }
    if (s.set_dollar && s.n > 0) {
        fk_restore_dollar<<<FK_BLOCKS(s.n)>>>(s.outer.g, s.n, s.words);
        fk_after_launch("fk_restore_dollar");
    }
    fk_h.pc = s.end;
    fk_pop_frame();
}

// Forms the `k` subgroups (by `key`) and enters the first non-empty one.
inline void fk_split(int is_if, FkVar key, long long k, int set_dollar, FkVar dollar, int frame0,
                     fk_u64 bytes0, int frame1, fk_u64 bytes1, int arm0, int arm1, int end) {
    if ((fk_u64)k > fk_h.counts_cap) {
        char m[160];
        snprintf(m, sizeof m, "fork into %lld subgroups: at most %llu are supported", k, fk_h.counts_cap);
        fk_fatal(m);
    }
    FkHostFrame &s = fk_push_frame(FK_HOST_SPLIT);
    FkCtx c = s.outer;
    int kind = is_if ? FK_SPLIT_IF : FK_SPLIT_FORK;
    s.is_if = is_if;
    s.k = k;
    s.i = -1;
    s.set_dollar = set_dollar;
    s.arms[0] = arm0;
    s.arms[1] = arm1;
    s.end = end;
    s.words = fk_alloc_words(s.n);
    if (s.n > 0)
        fk_split_count<<<FK_BLOCKS(s.n)>>>(c.g, s.n, c.slot_base, kind, key, (int)k, set_dollar,
                                            dollar, s.words);
    fk_after_launch("fk_split_count");
    s.sizes.assign(k, 0);
    if (k > 0) fk_read(s.sizes.data(), fk_h.m.counts, k);
    fk_u64 total = 0;
    for (long long i = 0; i < k; i++) total += s.sizes[i];
    fk_u64 member_base = fk_alloc_members(total);
    fk_u64 stride = (std::max(bytes0, bytes1) + 7) & ~7ull;
    fk_u64 frames = fk_alloc_frames(stride * k);
    s.first = fk_alloc_groups((int)k);
    if (k > 0) {
        fk_split_rank<<<1, FK_SCAN_THREADS>>>(c.g, s.n, (int)k, s.first, member_base, is_if,
                                              frame0, frame1, frames, stride);
        fk_after_launch("fk_split_rank");
    }
    fk_u64 off = 0;
    for (long long i = 0; i < k; i++) {
        fk_h.groups[s.first + i].size = s.sizes[i];
        fk_h.groups[s.first + i].members = member_base + off;
        fk_h.groups[s.first + i].at = is_if ? fk_h.groups[c.g].at : i;
        off += s.sizes[i];
    }
    fk_next_subgroup();
}

inline void fk_split_if(FkVar cond, int frame_then, fk_u64 bytes_then, int frame_else,
                        fk_u64 bytes_else, int arm_then, int arm_else, int end) {
    fk_split(1, cond, 2, 0, FkVar{}, frame_then, bytes_then, frame_else, bytes_else, arm_then,
             arm_else, end);
}

inline void fk_split_fork(FkVar count, FkVar at, int set_dollar, FkVar dollar, int frame,
                          fk_u64 bytes, int arm, int end) {
    int k = 0;
    if (fk_read_first_value(fk_h.c, count, &k) < 0 || k < 0) k = 0;
    fk_split(0, at, k, set_dollar, dollar, frame, bytes, frame, bytes, arm, arm, end);
}

// ---- loops ----

// Marks the participants (the active members).
inline void fk_loop_begin(int has_cond, FkVar cond, int test_first, int forms_group, int frame,
                          fk_u64 bytes, int exit, int site) {
    FkHostFrame &l = fk_push_frame(FK_HOST_LOOP);
    l.site = site;
    l.iterations = 0;
    l.has_cond = has_cond;
    l.cond = cond;
    l.test_first = test_first;
    l.forms_group = forms_group;
    l.shared_frame = frame;
    l.shared_bytes = bytes;
    l.exit = exit;
    l.running = -1;
    l.words = fk_alloc_words(l.n);
    if (l.n > 0) {
        fk_mark_active<<<FK_BLOCKS(l.n)>>>(l.outer.g, l.n, l.words);
        fk_after_launch("fk_mark_active");
    }
}

// LoopExitUpdate (the condition read in `cond_ctx`, none: only the count) + the all-exited
// test (one read-back).
inline void fk_loop_exit_update(FkHostFrame *l, FkCtx cond_ctx, int has_cond) {
    fk_cuda(cudaMemsetAsync(fk_h.m.read_back, 0, sizeof(FkReadBack)), "the loop's count");
    if (l->n > 0) {
        fk_loop_exit<<<FK_BLOCKS(l->n)>>>(l->outer.g, l->n, l->outer.slot_base, l->words,
                                          has_cond, l->cond, cond_ctx.g);
        fk_after_launch("fk_loop_exit");
    }
    FkReadBack r;
    fk_read(&r, fk_h.m.read_back, 1);
    l->running = r.staying > 0;
}

// The entry test (when the loop tests first) and the loop group: the participants still
// active (private condition), or the whole group; on to the loop end when none runs.
inline void fk_loop_enter() {
    FkHostFrame &l = fk_frame(FK_HOST_LOOP);
    FkCtx c = l.outer;
    if (l.test_first) fk_loop_exit_update(&l, c, l.has_cond);
    if (l.forms_group) {
        if (l.n > 0) {
            fk_loop_keys<<<FK_BLOCKS(l.n)>>>(c.g, l.n, l.words);
            fk_after_launch("fk_loop_keys");
        }
        int size = 0;
        fk_read(&size, fk_h.m.counts, 1);
        fk_u64 members = fk_alloc_members(size);
        fk_u64 frames = fk_alloc_frames(l.shared_bytes);
        int g = fk_alloc_groups(1);
        fk_split_rank<<<1, FK_SCAN_THREADS>>>(c.g, l.n, 1, g, members, 1, l.shared_frame,
                                              l.shared_frame, frames, 0);
        fk_after_launch("fk_split_rank");
        fk_h.groups[g].size = size;
        fk_h.groups[g].members = members;
        fk_h.groups[g].at = fk_h.groups[c.g].at;
        c.g = g;
        l.running = size > 0;
    } else {
        FkHostGroup p = fk_h.groups[c.g];
        c.g = fk_push_group(c.g, p.size, p.members, p.at, l.shared_frame, l.shared_bytes);
        // Without an entry test, the loop runs if any participant is active.
        if (l.running < 0) fk_loop_exit_update(&l, l.outer, 0);
    }
    fk_h.c = c;
    if (l.running <= 0) fk_h.pc = l.exit;
}

// After the body: members that left by `continue` are active again.
inline void fk_loop_next() {
    FkHostFrame &l = fk_frame(FK_HOST_LOOP);
    if (l.n == 0) return;
    fk_marked_status<<<FK_BLOCKS(l.n)>>>(l.outer.g, l.n, l.words, FK_CONTINUE, FK_ACTIVE);
    fk_after_launch("fk_marked_status");
}

// The limit (FK_LIMIT_*) a loop passes after `it` iterations, or 0.
inline int fk_host_limit(fk_u64 it) {
    if (fk_h.max_steps && it > fk_h.max_steps) return FK_LIMIT_STEPS;
    std::chrono::duration<double> t = std::chrono::steady_clock::now() - fk_h.start;
    if (fk_h.timeout > 0 && t.count() > fk_h.timeout) return FK_LIMIT_TIME;
    return 0;
}

// The exit update in the loop group; back to `body` while a participant runs. A passed limit
// is a fault of the loop group, after which the loop ends.
inline void fk_loop_latch(int body) {
    FkHostFrame &l = fk_frame(FK_HOST_LOOP);
    if (int why = fk_host_limit(++l.iterations)) {
        fk_limit_hit<<<1, 1>>>(fk_h.c.g, l.site, why, fk_h.launches);
        fk_after_launch("fk_limit_hit");
    }
    fk_loop_exit_update(&l, fk_h.c, l.has_cond);
    if (l.running > 0) fk_h.pc = body;
}

// Members that left by `break` are active again; the enclosing group is restored.
inline void fk_loop_end() {
    FkHostFrame &l = fk_frame(FK_HOST_LOOP);
    if (l.n > 0) {
        fk_marked_status<<<FK_BLOCKS(l.n)>>>(l.outer.g, l.n, l.words, FK_BREAK, FK_ACTIVE);
        fk_after_launch("fk_marked_status");
    }
    fk_pop_frame();
}

// ---- calls ----

// An argument of a call: the caller's `src` into the callee's `dst`.
struct FkArg {
    FkVar src, dst;
};

// A call's entry (`set` >= 0: the callee's group `set`, descriptor `desc`) or its result:
// one fk_call_copies launch per FK_COPIES_MAX variables (Machine::call_copies in the driver).
inline void fk_call_copies_of(const FkHostFrame &k, int set, FkGroup desc, FkCtx src, FkCtx dst,
                              const FkArg *args, size_t count) {
    size_t done = 0;
    do {
        FkCopies vars = {};
        while (done < count && vars.count < (int)FK_COPIES_MAX) {
            vars.src[vars.count] = args[done].src;
            vars.dst[vars.count++] = args[done++].dst;
        }
        // At the entry a thread is launched even for no members: it sets the descriptor.
        int threads = set >= 0 ? std::max(k.n, 1) : k.n;
        if (threads > 0) {
            fk_call_copies<<<FK_BLOCKS(threads)>>>(k.outer.g, k.n, k.words, set >= 0, set, desc,
                                                    src.g, src.slot_base, dst.g, dst.slot_base,
                                                    vars);
            fk_after_launch("fk_call_copies");
        }
        set = -1;
    } while (done < count);
}

// Enters a host function for the current group: a new slot frame and shared frame, the
// arguments copied; `entry` runs next, and its `fk_ret` comes back to the instruction after
// the call.
inline void fk_call(fk_u64 caller_frame_bytes, fk_u64 callee_frame_bytes, int frame,
                    fk_u64 frame_bytes, int entry, int site, std::initializer_list<FkArg> args) {
    FkHostFrame &k = fk_push_frame(FK_HOST_CALL);
    FkCtx c = k.outer;
    k.back = fk_h.pc;
    k.has_result = 0;
    k.site = site;
    fk_h.calls++;
    if (fk_h.calls > FK_DEFAULT_MAX_DEPTH) fk_full(0);
    k.words = fk_alloc_words(k.n);
    fk_u64 base = c.slot_base + caller_frame_bytes * (fk_u64)fk_h.procs;
    fk_u64 need = base + callee_frame_bytes * (fk_u64)fk_h.procs;
    if (need > fk_h.slots_cap) fk_full("call stack of spilled slots");
    FkHostGroup p = fk_h.groups[c.g];
    FkGroup desc;
    k.inner.g = fk_new_group(c.g, p.size, p.members, p.at, frame, frame_bytes, &desc);
    k.inner.slot_base = base;
    k.inner.seq = c.seq;
    fk_call_copies_of(k, k.inner.g, desc, c, k.inner, args.begin(), args.size());
    fk_h.c = k.inner;
    fk_h.pc = entry;
}

// The call's result: the callee's `ret` into the caller's `result` at the return.
inline void fk_call_result(FkVar ret, FkVar result) {
    FkHostFrame &k = fk_frame(FK_HOST_CALL);
    k.has_result = 1;
    k.ret = ret;
    k.result = result;
}

// A function's end: back to the caller (return statuses cleared, the result copied, frames
// popped), or false at the end of main.
inline bool fk_ret() {
    if (fk_h.stack.empty()) return false;
    FkHostFrame &k = fk_frame(FK_HOST_CALL);
    if (k.n > 0) {
        fk_marked_status<<<FK_BLOCKS(k.n)>>>(k.outer.g, k.n, k.words, FK_RETURN, FK_ACTIVE);
        fk_after_launch("fk_marked_status");
        if (k.has_result) {
            FkArg result = {k.ret, k.result};
            fk_call_copies_of(k, -1, FkGroup{}, k.inner, k.outer, &result, 1);
        }
    }
    fk_h.pc = k.back;
    fk_pop_frame();
    fk_h.calls--;
    return true;
}

// ---- seq, start, multiprefix ----

// `seq`: only the member with $$ == 0 runs.
inline void fk_seq_begin() {
    fk_push_frame(FK_HOST_SEQ);
    fk_h.c.seq = 1;
}

inline void fk_seq_end() {
    fk_frame(FK_HOST_SEQ);
    fk_pop_frame();
}

// `start`: all P processors form a new root group ($ = $$ = __PROC_NR__, @ = 0).
inline void fk_start_begin(int frame, fk_u64 bytes) {
    FkHostFrame &s = fk_push_frame(FK_HOST_START);
    fk_u64 members = fk_alloc_members(fk_h.procs);
    fk_start<<<FK_BLOCKS(fk_h.procs)>>>(fk_h.procs, members);
    fk_after_launch("fk_start");
    fk_h.c.g = fk_push_group(s.outer.g, fk_h.procs, members, 0, frame, bytes);
    fk_h.c.seq = 0;
}

inline void fk_start_end() {
    fk_frame(FK_HOST_START);
    fk_pop_frame();
}

inline void fk_multiprefix_op(int op, FkVar ptr, FkVar value, int has_result, FkVar result) {
    FkCtx c = fk_h.c;
    int n = (int)fk_threads(c);
    if (n == 0) return;
    fk_multiprefix<<<1, FK_SCAN_THREADS>>>(c.g, n, c.slot_base, op, ptr, value, has_result, result);
    fk_after_launch("fk_multiprefix");
}

// ---- output ----

// C printf of one record (docs/language.md §2 conversions), appended to `out`.
inline void fk_format(const char *fmt, const char *args, unsigned nargs, std::string *out) {
    char buf[8192];
    unsigned used = 0;
    for (const char *p = fmt; *p; p++) {
        if (*p != '%') {
            out->push_back(*p);
            continue;
        }
        const char *start = p++;
        while (*p && strchr("-+ 0#", *p)) p++;
        while (*p >= '0' && *p <= '9') p++;
        if (*p == '.') {
            p++;
            while (*p >= '0' && *p <= '9') p++;
        }
        int longs = 0;
        while (*p == 'l') { p++; longs++; }
        char conv = *p;
        if (conv == '%') {
            out->push_back('%');
            continue;
        }
        if (conv == 0 || used >= nargs) {
            out->append(start, p - start + (conv != 0));
            if (conv == 0) break;
            continue;
        }
        used++;
        // The spec without its length modifier, then the right C type.
        std::string spec(start, p - start - longs);
        // Each argument is one slot (a `%s` string: its length, then its padded bytes).
        fk_i64 word;
        memcpy(&word, args, sizeof word);
        const char *slot = args;
        args += FK_ARG_BYTES;
        int len = 0;
        switch (conv) {
        case 'd': case 'i':
            spec += "lld";
            len = snprintf(buf, sizeof buf, spec.c_str(), longs ? (long long)word : (long long)(int)word);
            break;
        case 'u': case 'x': case 'X': case 'o':
            spec += "ll";
            spec += conv;
            len = snprintf(buf, sizeof buf, spec.c_str(),
                           longs ? (unsigned long long)word : (unsigned long long)(unsigned)word);
            break;
        case 'c':
            spec += 'c';
            len = snprintf(buf, sizeof buf, spec.c_str(), (int)(unsigned char)word);
            break;
        case 'f': case 'F': case 'e': case 'E': case 'g': case 'G': {
            double d;
            memcpy(&d, slot, sizeof d);
            spec += conv;
            len = snprintf(buf, sizeof buf, spec.c_str(), d);
            break;
        }
        case 's': {
            std::string str(args, (size_t)word);
            spec += 's';
            len = snprintf(buf, sizeof buf, spec.c_str(), str.c_str());
            args += fk_arg_padded((fk_u64)word);
            break;
        }
        default:
            break;
        }
        // The length, not strlen: `%c` of 0 prints a NUL byte.
        out->append(buf, (size_t)std::max(0, std::min(len, (int)sizeof buf - 1)));
    }
}

// A key's (step, index) words, in the order records sort by.
inline std::vector<unsigned> fk_key_words(const FkKeyPair *pairs, unsigned n) {
    std::vector<unsigned> words;
    for (unsigned i = 0; i < n; i++) {
        words.push_back(pairs[i].step);
        words.push_back(pairs[i].index);
    }
    return words;
}

// A printf record and what orders it (docs/language.md §7): its step (host schedule: launch
// and segment of a block region; device schedule: the order key's (step, index) words), then
// its key ($$ or __PROC_NR__; 0 under the device schedule) and each thread's program order.
struct FkRecord {
    std::vector<unsigned> order;
    unsigned format, args;
    fk_u64 offset;  // of the arguments
};

// Formats the printf records in that order. Records from step `cut` on (the faulting step;
// null: none) are dropped.
inline std::string fk_output(std::vector<char> &buf, const std::vector<unsigned> *cut) {
    std::vector<FkRecord> recs;
    for (fk_u64 at = 0; at + sizeof(FkRecordHeader) <= buf.size();) {
        FkRecordHeader h;
        memcpy(&h, buf.data() + at, sizeof h);
        if (h.bytes < sizeof h) break;
        FkRecord r;
        r.format = h.format;
        r.args = h.args;
        r.offset = at + sizeof h;
#ifdef FK_SCHEDULE_DEVICE
        std::vector<FkKeyPair> pairs(h.pairs);
        memcpy(pairs.data(), buf.data() + r.offset, sizeof(FkKeyPair) * h.pairs);
        r.order = fk_key_words(pairs.data(), h.pairs);
        r.offset += sizeof(FkKeyPair) * h.pairs;
#else
        r.order = {h.launch, h.sub};
#endif
        if (!cut || r.order < *cut) {
            r.order.push_back(h.key);
            r.order.push_back(h.seq);
            recs.push_back(r);
        }
        at += h.bytes;
    }
    std::stable_sort(recs.begin(), recs.end(),
                     [](const FkRecord &a, const FkRecord &b) { return a.order < b.order; });
    std::string out;
    for (const FkRecord &r : recs) {
        const char *format = fk_h.program->strings + fk_h.program->string_offsets[r.format];
        fk_format(format, buf.data() + r.offset, r.args, &out);
    }
    return out;
}

#ifdef FK_SCHEDULE_DEVICE
inline std::vector<unsigned> fk_fault_cut();  // fk_host_schedule.cuh
inline int fk_schedule_depth(fk_u64 procs);
#endif

// The object a fault names (its twin for the GPU driver: pram_runtime::gpu::object_name).
inline std::string fk_object_name(int object, long long size) {
    char text[96];
    switch (object) {
    case FK_OBJECT_MALLOC:
    case FK_OBJECT_SHMALLOC:
        snprintf(text, sizeof text, "a %s heap block of %lld bytes", object == FK_OBJECT_SHMALLOC ? "shared" : "private", size);
        return text;
    case FK_OBJECT_VARIABLE: return "a variable";
    default: return object >= 0 ? fk_h.program->objects[object] : "an unknown object";
    }
}

// A fault as the simulator's short report (`forkcc sim --message-format short`) prints it,
// without the PRAM step, which the GPU does not count.
inline void fk_report_fault(const FkFault &fault) {
    const FkSite &site = fk_h.program->sites[fault.site - 1];
    std::string object = fk_object_name(fault.object, fault.size);
    fprintf(stderr, "%s: error[%s]: ", site.location, site.code);
    fprintf(stderr, site.format, std::to_string(fault.value).c_str(), object.c_str());
    fprintf(stderr, ", by processor %d ($$ = %d, @ = %d)\n", fault.proc, fault.rank, fault.at);
}

// A site's message without values, and where it is (`the loop at f.fork:3:5`), for the
// limits' reports.
inline std::string fk_site_text(const FkSite &site) {
    char text[256];
    snprintf(text, sizeof text, site.format, "", "");
    return std::string(text) + " at " + site.location;
}

// --crcw common: the check of the writes of the kernel just launched for the current group.
inline void fk_check_common() {
    unsigned n = fk_threads(fk_h.c);
    if (!fk_h.common.writes || n == 0) return;
    fk_common_check_launch<<<FK_BLOCKS(n)>>>(fk_h.c.g, (int)n, fk_h.launches - 1);
    fk_after_launch("fk_common_check_launch");
}

// The logged write of processor `proc` to `addr` (size 0: none).
inline FkWrite fk_logged_write(int proc, fk_u64 addr) {
    FkWrite w[FK_WRITES], last;
    int n = 0;
    memset(&last, 0, sizeof last);
    fk_read(&n, fk_h.common.count + proc, 1);
    fk_cuda(cudaMemcpy(w, fk_h.common.writes + (fk_u64)proc * FK_WRITES, sizeof w, cudaMemcpyDeviceToHost), "reading a write log");
    for (int i = 0; i < n && i < FK_WRITES; i++)
        if (w[i].addr == addr) last = w[i];
    return last;
}

// A logged value as the simulator shows it: signed, of the write's size.
inline long long fk_write_value(const FkWrite &w) {
    int shift = 64 - 8 * w.size;
    return (long long)(w.bits << shift) >> shift;
}

// A --crcw common conflict: the simulator's pair (the lowest writer of the cell, the lowest
// whose value differs) and where the second wrote. False when the logs do not hold the pair.
inline bool fk_report_conflict() {
    for (int pass = 0; pass < 2; pass++) {
        fk_common_writers<<<FK_BLOCKS(fk_h.procs)>>>(pass);
        fk_after_launch("fk_common_writers");
    }
    FkWriters writers;
    FkConflict conflict;
    fk_read(&writers, fk_h.common.writers, 1);
    fk_read(&conflict, fk_h.common.conflict, 1);
    if (!writers.first || !writers.second) return false;
    int a = FK_PROC_MAX - writers.first, b = FK_PROC_MAX - writers.second;
    FkWrite wa = fk_logged_write(a, conflict.cell), wb = fk_logged_write(b, conflict.cell);
    fprintf(stderr, "%s: error[R0004]: concurrent write conflict (CRCW common): processors %d and %d wrote %lld and %lld into one cell in one step, by processor %d\n",
            fk_h.program->sites[wb.site].location, a, b, fk_write_value(wa), fk_write_value(wb), a);
    return true;
}

// Prints the output; reports a fault or an overflow. Returns the exit status.
inline int fk_finish() {
    fk_cuda(cudaDeviceSynchronize(), "running the kernels");
    fk_u64 top = 0;
    fk_read(&top, fk_h.m.out_top, 1);
    fk_u64 bytes = std::min(top, fk_h.m.out_bytes);
    std::vector<char> buf(bytes);
    if (bytes) fk_cuda(cudaMemcpy(buf.data(), fk_h.m.out, bytes, cudaMemcpyDeviceToHost), "reading the output");
    FkFault fault;
    fk_cuda(cudaMemcpy(&fault, fk_h.m.fault, sizeof fault, cudaMemcpyDeviceToHost), "reading the fault");
#ifdef FK_SCHEDULE_DEVICE
    std::vector<unsigned> cut = fault.site != 0 ? fk_fault_cut() : std::vector<unsigned>();
#else
    std::vector<unsigned> cut = {fault.launch, fault.sub};
#endif
    std::string out = fk_output(buf, fault.site != 0 ? &cut : 0);
    fwrite(out.data(), 1, out.size(), stdout);
    fflush(stdout);
    // Missing records come first: the output before a fault would not be whole (the driver's
    // GpuError::OutputOverflow says the same).
    if (top > fk_h.m.out_bytes) {
        fprintf(stderr, "error: the output (%llu bytes of printf records) overflowed the %llu-byte buffer, "
                "so the output misses lines; raise it with -DFK_OUT_BYTES=N%s\n",
                top, fk_h.m.out_bytes,
                fault.site != 0 ? "; the run also stopped at a fault or a limit, which a run with a larger buffer reports" : "");
        return 1;
    }
    if (fault.site != 0) {
        std::string text = fk_site_text(fk_h.program->sites[fault.site - 1]);
        const char *site = text.c_str();
        FkWhy why;
        fk_cuda(cudaMemcpy(&why, fk_h.why, sizeof why, cudaMemcpyDeviceToHost), "reading the fault");
        int proc = why.proc ? FK_PROC_MAX - why.proc : fault.proc;
        if (why.limit == FK_LIMIT_STEPS)
            fprintf(stderr, "error[R0006]: %s ran more than %llu iterations (the step limit, `--max-steps`) on processor %d\n",
                    site, fk_h.max_steps, proc);
        else if (why.limit == FK_LIMIT_TIME)
            fprintf(stderr, "error[R0006]: %s was still running when the time limit of %g s ran out (`--timeout N`; `--timeout 0` for a long run) on processor %d\n",
                    site, fk_h.timeout, proc);
        else if (why.limit == FK_LIMIT_DEPTH && fk_h.device_frames)
            fprintf(stderr, "error[R0008]: %s nests deeper than the device schedule holds (%d frames and a %llu-byte slot stack per processor; `--schedule host` holds more) on processor %d\n",
                    site, fk_h.device_frames, fk_h.device_slot_bytes, proc);
        else if (why.limit == FK_LIMIT_DEPTH && fk_h.deep_stack)
            fprintf(stderr, "error[R0008]: %s, %d calls deep, found the runtime's %s full (check the recursion's base case) on processor %d\n",
                    site, fk_h.deep_calls, fk_h.deep_stack, proc);
        else if (why.limit == FK_LIMIT_DEPTH)
            fprintf(stderr, "error[R0008]: %s nests more than %d calls (the recursion limit; check the recursion's base case) on processor %d\n",
                    site, FK_DEFAULT_MAX_DEPTH, proc);
        else if (why.limit != FK_CONFLICT || !fk_report_conflict())
            fk_report_fault(fault);
        return 1;
    }
    return 0;
}

// ---- main ----

// The `bytes` bytes from `lo`.
inline FkRange fk_range(char *lo, fk_u64 bytes) {
    FkRange r;
    r.lo = lo;
    r.hi = lo + bytes;
    return r;
}

inline int fk_main(int argc, char **argv, const FkProgram *program) {
    long procs = 1;
    // --crcw common (the default): concurrent writes are checked (an unchecked build logs none)
    [[maybe_unused]] int common = 1;
    fk_h.priority = 0;
    fk_h.max_steps = FK_DEFAULT_MAX_STEPS;
    fk_h.timeout = FK_DEFAULT_TIMEOUT;
    for (int i = 1; i < argc; i++) {
        const char *v = 0;
        if (strcmp(argv[i], "--max-steps") == 0 && i + 1 < argc) {
            char *end;
            fk_h.max_steps = strtoull(argv[++i], &end, 10);
            if (*end || fk_h.max_steps == 0) {
                fprintf(stderr, "error: `--max-steps %s`: give a number of loop iterations from 1 up\n", argv[i]);
                return 2;
            }
            continue;
        }
        if (strcmp(argv[i], "--timeout") == 0 && i + 1 < argc) {
            char *end;
            fk_h.timeout = strtod(argv[++i], &end);
            if (*end || !(fk_h.timeout >= 0)) {
                fprintf(stderr, "error: `--timeout %s`: give seconds (0: no time limit)\n", argv[i]);
                return 2;
            }
            continue;
        }
        if (strcmp(argv[i], "--crcw") == 0 && i + 1 < argc) {
            const char *m = argv[++i];
            common = strcmp(m, "common") == 0;
            if (strcmp(m, "priority") == 0) {
#ifdef FK_SCHEDULE_DEVICE
                fprintf(stderr, "error: `--crcw priority` needs the host schedule (`forkcc build --schedule host`): the device schedule runs the members of a step in no fixed order\n");
                return 2;
#endif
                fk_h.priority = 1;
            }
            else if (strcmp(m, "common") != 0 && strcmp(m, "arbitrary") != 0) {
                fprintf(stderr, "error: `--crcw %s`: use common, arbitrary or priority\n", m);
                return 2;
            }
            continue;
        }
        if (strcmp(argv[i], "-p") == 0 && i + 1 < argc) v = argv[++i];
        else if (strncmp(argv[i], "-p", 2) == 0) v = argv[i] + 2;
        else {
            fprintf(stderr, "error: unknown argument `%s`; usage: %s -p P [--crcw common|arbitrary|priority] [--max-steps N] [--timeout SECONDS]\n",
                    argv[i], argv[0]);
            return 2;
        }
        char *end;
        procs = strtol(v, &end, 10);
        if (*end || procs < 1 || procs > FK_PROC_MAX) {
            fprintf(stderr, "error: `-p %s`: P must be a number from 1 to %d\n", v, FK_PROC_MAX);
            return 2;
        }
    }
    fk_u64 P = (fk_u64)procs;
    FkHost &h = fk_h;
    h.program = program;
    h.procs = (int)procs;
    h.members_cap = FK_STACK_PER_PROC * P + FK_STACK_EXTRA;
    h.words_cap = FK_STACK_PER_PROC * P + FK_STACK_EXTRA;
    h.groups_cap = FK_GROUPS_MIN;
#ifdef FK_SCHEDULE_DEVICE
    // Group instance ids of the device schedule: processor * (depth + 1) + frame height.
    h.groups_cap = std::max<fk_u64>(h.groups_cap, P * (fk_schedule_depth(P) + 1));
#endif
    h.frames_cap = FK_FRAMES_BYTES;
    h.counts_cap = std::max<fk_u64>(P, FK_COUNTS_MIN);
    h.slots_cap = std::max<fk_u64>(FK_SLOTS_BYTES_MIN, (program->private_globals_bytes + FK_MAIN_ACTIVATIONS * program->main_frame_bytes) * P);
    if (program->stack_bytes)
        fk_cuda(cudaDeviceSetLimit(cudaLimitStackSize, program->stack_bytes), "setting the stack size");
    FkMachine &m = h.m;
    m.procs = h.procs;
    fk_alloc_array(m.members, h.members_cap, "group member lists");
    fk_alloc_array(m.groups, h.groups_cap, "group descriptors");
    fk_alloc_array(m.dollar, P, "$ per processor");
    fk_alloc_array(m.status, P, "processor status");
    fk_alloc_array(m.words, h.words_cap, "loop marks and saved $");
    fk_alloc_array(m.keys, P, "split keys");
    fk_alloc_array(m.counts, h.counts_cap, "subgroup sizes");
    fk_alloc_array(m.cursor, h.counts_cap, "subgroup cursors");
    fk_alloc_array(m.read_back, 1, "the read-back words");
    fk_alloc_array(m.strings, program->strings_bytes, "string literals");
    fk_cuda(cudaMemcpy(m.strings, program->strings, program->strings_bytes, cudaMemcpyHostToDevice), "strings");
    fk_alloc_array(m.shared_globals, program->shared_globals_bytes, "shared globals");
    fk_alloc_array(m.slots, h.slots_cap, "spilled private slots");
    m.heap_bytes = FK_HEAP_BYTES;
    fk_alloc_array(m.heap, m.heap_bytes, "the heap");
    fk_alloc_array(m.heap_top, 1, "the heap");
    m.out_bytes = FK_OUT_BYTES;
    fk_alloc_array(m.out, m.out_bytes, "printf records");
    fk_alloc_array(m.out_top, 1, "printf records");
    fk_alloc_array(m.fault, 1, "the fault record");
    fk_alloc_array(h.frames, h.frames_cap, "shared frames");
    fk_cuda(cudaMemcpyToSymbol(fk_m, &m, sizeof m), "the machine descriptor");
    fk_alloc_array(h.why, 1, "the limit word");
    FkLimits limits;
    limits.max_steps = h.max_steps;
    limits.timeout_ns = (fk_u64)(h.timeout * 1e9);
    limits.why = h.why;
    fk_cuda(cudaMemcpyToSymbol(fk_limits, &limits, sizeof limits), "the limits");
    fk_start_clock<<<1, 1>>>();
    fk_after_launch("fk_start_clock");
    h.start = std::chrono::steady_clock::now();
    memset(&h.common, 0, sizeof h.common);
#if FK_CHECKS
    if (common) {
        FkCommon &c = h.common;
        fk_alloc_array(c.writes, P * FK_WRITES, "the write logs (--crcw common)");
        fk_alloc_array(c.count, P, "the write logs (--crcw common)");
        fk_alloc_array(c.tag, P, "the write logs (--crcw common)");
        c.globals = fk_range(m.shared_globals, program->shared_globals_bytes);
        c.frames = fk_range(h.frames, h.frames_cap);
        c.heap = fk_range(m.heap, m.heap_bytes);
        fk_alloc_array(c.conflict, 1, "the conflict word");
        fk_alloc_array(c.writers, 1, "the conflict pair");
        fk_cuda(cudaMemcpyToSymbol(fk_common, &c, sizeof c), "the write logs");
    }
#endif
    h.top.groups = 0;
    h.top.members = 0;
    h.top.words = 0;
    h.top.frames = 0;
    h.launches = 0;
    // The root group: all P processors, $ = $$ = __PROC_NR__, @ = 0.
    fk_u64 members = fk_alloc_members(P);
    fk_start<<<FK_BLOCKS(h.procs)>>>(h.procs, members);
    fk_after_launch("fk_start");
    h.c.g = fk_push_group(-1, h.procs, members, 0, program->main_shared_frame, program->main_shared_bytes);
    h.c.slot_base = program->private_globals_bytes * P;
    h.c.seq = 0;
    program->run();
    return fk_finish();
}
