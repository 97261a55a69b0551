// forkcc group-tree runtime library, host side of the standalone .cu (`forkcc build --emit
// cuda`); the GPU driver (pram_runtime::gpu) implements the same operations in Rust.
//
// The host walks the control graph the emitted h_* functions spell out. It keeps a mirror of
// the group stack (sizes and offsets it computed itself from the subgroup sizes it read back)
// so that it can size launches; everything else stays on the device. It reads back only
// subgroup sizes, the fork count, shared branch conditions and the loop-exit count.

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

struct FkProgram {
    const char *strings;
    unsigned long long strings_bytes;
    const unsigned long long *string_offsets;  // by string number (a printf record's format)
    const char *const *sites;
    unsigned long long shared_globals_bytes;
    unsigned long long private_globals_bytes;
    unsigned long long main_frame_bytes;
    int main_shared_frame;
    unsigned long long main_shared_bytes;
    unsigned long long stack_bytes;  // per-thread stack for recursive device functions (0: default)
    void (*run)(struct FkCtx c);
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

inline FkTops fk_tops() { return fk_h.top; }
inline void fk_pop(FkTops t) {
    fk_h.top = t;
    fk_h.groups.resize(t.groups);
}

inline unsigned fk_threads(FkCtx c) {
    int n = fk_h.groups[c.g].size;
    return c.seq ? (n > 0 ? 1u : 0u) : (unsigned)n;
}

inline unsigned fk_next_launch() { return fk_h.launches++; }

inline void fk_after_launch(const char *name) {
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) {
        std::string m = std::string("launch of ") + name + " failed: " + cudaGetErrorString(e);
        fk_fatal(m.c_str());
    }
}

#define FK_BLOCKS(n) (((n) + 255) / 256), 256

// Run kernel K (one thread per member of the context's group). Under --crcw priority a
// synchronous kernel runs its members serially in __PROC_NR__ order (FK_KERNEL).
#define FK_LAUNCH(K, c, SYNC)                                                           \
    do {                                                                                \
        unsigned n_ = fk_threads(c);                                                    \
        if (n_ > 0) {                                                                   \
            int serial_ = fk_h.priority && (SYNC);                                      \
            if (serial_)                                                                \
                K<<<1, 1>>>((c).g, (int)n_, (c).slot_base, fk_next_launch(), 1);         \
            else                                                                        \
                K<<<FK_BLOCKS(n_)>>>((c).g, (int)n_, (c).slot_base, fk_next_launch(), 0); \
            fk_after_launch(#K);                                                        \
        }                                                                               \
    } while (0)

inline fk_u64 fk_alloc_words(fk_u64 n) {
    fk_u64 at = fk_h.top.words;
    if (at + n > fk_h.words_cap) fk_fatal("the runtime's word stack is full (groups nested too deeply)");
    fk_h.top.words += n;
    return at;
}

inline fk_u64 fk_alloc_members(fk_u64 n) {
    fk_u64 at = fk_h.top.members;
    if (at + n > fk_h.members_cap) fk_fatal("the member stack is full (groups nested too deeply)");
    fk_h.top.members += n;
    return at;
}

// Shared-frame bytes on the stack, not zeroed (a block region zeroes its own).
inline fk_u64 fk_reserve_frames(fk_u64 bytes) {
    fk_u64 at = (fk_h.top.frames + 7) & ~7ull;
    if (at + bytes > fk_h.frames_cap) fk_fatal("the shared-frame stack is full (groups nested too deeply)");
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
    if ((fk_u64)first + k > fk_h.groups_cap) fk_fatal("the group stack is full (groups nested too deeply)");
    fk_h.top.groups += k;
    fk_h.groups.resize(fk_h.top.groups);
    return first;
}

// A new group with given members, written to the device by a one-thread kernel.
inline int fk_push_group(int parent, int size, fk_u64 members, fk_i64 at, int frame_id,
                         fk_u64 frame_bytes) {
    int g = fk_alloc_groups(1);
    FkGroup d;
    d.at = at;
    d.parent = parent;
    d.size = size;
    d.members = members;
    d.frame_id = frame_id;
    d.frame = fk_alloc_frames(frame_bytes);
    fk_set_group<<<1, 1>>>(g, d);
    fk_after_launch("fk_set_group");
    fk_h.groups[g].size = size;
    fk_h.groups[g].members = members;
    fk_h.groups[g].at = at;
    return g;
}

// ---- block regions ----

// The largest group a region kernel runs (one thread per member), and its block size.
#ifndef FK_REGION_MAX
#define FK_REGION_MAX 1024
#endif
#ifndef FK_REGION_THREADS
#define FK_REGION_THREADS(n) (((n) + 31) / 32 * 32)
#endif

// Whether the context's group runs a block region as one kernel (--crcw priority runs
// members serially, which only the ordinary launches do).
inline bool fk_region_fits(FkCtx c) {
    int n = fk_h.groups[c.g].size;
    return !fk_h.priority && n > 0 && n <= FK_REGION_MAX;
}

// Run region kernel R for the context's group, with the stack space it needs reserved
// (transform::plan::RegionNeeds; lists as long as the group).
#define FK_REGION(R, c, GROUPS, MEMBER_LISTS, WORD_LISTS, FRAME_BYTES)                      \
    do {                                                                                   \
        FkTops t_ = fk_tops();                                                             \
        int n_ = fk_h.groups[(c).g].size;                                                  \
        int g_ = fk_alloc_groups(GROUPS);                                                  \
        fk_u64 m_ = fk_alloc_members((fk_u64)(MEMBER_LISTS) * n_);                         \
        fk_u64 w_ = fk_alloc_words((fk_u64)(WORD_LISTS) * n_);                             \
        fk_u64 f_ = fk_reserve_frames(FRAME_BYTES);                                        \
        R<<<1, FK_REGION_THREADS(n_)>>>((c).g, (c).seq, (c).slot_base, fk_next_launch(), g_, m_, \
                                        w_, f_);                                           \
        fk_after_launch(#R);                                                               \
        fk_pop(t_);                                                                        \
    } while (0)

// One read-back: `n` ints from the device.
inline void fk_read(int *dst, const int *src, fk_u64 n) {
    fk_cuda(cudaMemcpy(dst, src, n * sizeof(int), cudaMemcpyDeviceToHost), "reading back");
}

// The value of `v` for the first active member: 1 (non-zero), 0, or -1 when none is active.
inline int fk_read_first_value(FkCtx c, FkVar v, int *value) {
    fk_read_first<<<1, 1>>>(c.g, (int)fk_threads(c), c.slot_base, v);
    fk_after_launch("fk_read_first");
    int flag[2];
    fk_read(flag, fk_h.m.flag, 2);
    *value = flag[0];
    return flag[1];
}

inline int fk_branch(FkCtx c, FkVar cond) {
    int value;
    return fk_read_first_value(c, cond, &value);
}

// ---- splits ----

struct FkSplit {
    FkCtx parent;
    FkTops tops;
    long long k;
    int first;
    std::vector<int> sizes;
    int set_dollar;
    fk_u64 saved;
};

inline FkSplit fk_split(FkCtx c, int kind, FkVar key, long long k, int set_dollar, FkVar dollar,
                        int frame0, fk_u64 bytes0, int frame1, fk_u64 bytes1) {
    FkSplit s;
    s.parent = c;
    s.tops = fk_tops();
    s.k = k;
    s.set_dollar = set_dollar;
    int n = (int)fk_threads(c);
    if ((fk_u64)k > fk_h.counts_cap) {
        char m[160];
        snprintf(m, sizeof m, "fork into %lld subgroups: at most %llu are supported", k, fk_h.counts_cap);
        fk_fatal(m);
    }
    s.saved = fk_alloc_words(n);
    if (n > 0)
        fk_split_count<<<FK_BLOCKS(n)>>>(c.g, n, c.slot_base, kind, key, (int)k, set_dollar,
                                          dollar, s.saved);
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
        fk_split_rank<<<1, FK_SCAN_THREADS>>>(c.g, n, (int)k, s.first, member_base, kind == 0,
                                              frame0, frame1, frames, stride);
        fk_after_launch("fk_split_rank");
    }
    fk_u64 off = 0;
    for (long long i = 0; i < k; i++) {
        fk_h.groups[s.first + i].size = s.sizes[i];
        fk_h.groups[s.first + i].members = member_base + off;
        fk_h.groups[s.first + i].at = kind == 0 ? fk_h.groups[c.g].at : i;
        off += s.sizes[i];
    }
    return s;
}

inline FkSplit fk_split_if(FkCtx c, FkVar cond, int frame_then, fk_u64 bytes_then, int frame_else,
                           fk_u64 bytes_else) {
    return fk_split(c, 0, cond, 2, 0, FkVar{}, frame_then, bytes_then, frame_else, bytes_else);
}

inline FkSplit fk_split_fork(FkCtx c, FkVar count, FkVar at, int set_dollar, FkVar dollar,
                             int frame, fk_u64 bytes) {
    int k = 0;
    if (fk_read_first_value(c, count, &k) < 0 || k < 0) k = 0;
    return fk_split(c, 1, at, k, set_dollar, dollar, frame, bytes, frame, bytes);
}

// Subgroup `i` as a context; false when it is empty.
inline bool fk_subgroup(FkSplit *s, long long i, FkCtx *out) {
    if (s->sizes[i] == 0) return false;
    out->g = s->first + (int)i;
    out->slot_base = s->parent.slot_base;
    out->seq = s->parent.seq;
    return true;
}

// Restore: the parent group again ($ back after a fork that set it).
inline void fk_split_end(FkSplit *s) {
    int n = (int)fk_threads(s->parent);
    if (s->set_dollar && n > 0) {
        fk_restore_dollar<<<FK_BLOCKS(n)>>>(s->parent.g, n, s->saved);
        fk_after_launch("fk_restore_dollar");
    }
    fk_pop(s->tops);
}

// ---- loops ----

struct FkLoop {
    FkCtx parent;
    FkTops tops;
    int n;
    fk_u64 marks;
    int running;
};

inline FkLoop fk_loop_begin(FkCtx c) {
    FkLoop l;
    l.parent = c;
    l.tops = fk_tops();
    l.n = (int)fk_threads(c);
    l.marks = fk_alloc_words(l.n);
    l.running = -1;
    if (l.n > 0) {
        fk_mark_active<<<FK_BLOCKS(l.n)>>>(c.g, l.n, l.marks);
        fk_after_launch("fk_mark_active");
    }
    return l;
}

// LoopExitUpdate + the all-exited test (one read-back).
inline void fk_loop_exit_update(FkLoop *l, FkCtx cond_ctx, int has_cond, FkVar cond) {
    fk_cuda(cudaMemsetAsync(fk_h.m.flag, 0, sizeof(int)), "loop flag");
    if (l->n > 0) {
        fk_loop_exit<<<FK_BLOCKS(l->n)>>>(l->parent.g, l->n, l->parent.slot_base, l->marks,
                                          has_cond, cond, cond_ctx.g);
        fk_after_launch("fk_loop_exit");
    }
    int active;
    fk_read(&active, fk_h.m.flag, 1);
    l->running = active > 0;
}

// The loop group: the participants still active (private condition), or the whole group.
inline FkCtx fk_loop_group(FkLoop *l, int forms_group, int frame, fk_u64 bytes) {
    FkCtx c = l->parent;
    if (forms_group) {
        if (l->n > 0) {
            fk_loop_keys<<<FK_BLOCKS(l->n)>>>(c.g, l->n, l->marks);
            fk_after_launch("fk_loop_keys");
        }
        int size = 0;
        fk_read(&size, fk_h.m.counts, 1);
        fk_u64 members = fk_alloc_members(size);
        fk_u64 frames = fk_alloc_frames(bytes);
        int g = fk_alloc_groups(1);
        fk_split_rank<<<1, FK_SCAN_THREADS>>>(c.g, l->n, 1, g, members, 1, frame, frame, frames, 0);
        fk_after_launch("fk_split_rank");
        fk_h.groups[g].size = size;
        fk_h.groups[g].members = members;
        fk_h.groups[g].at = fk_h.groups[c.g].at;
        c.g = g;
        l->running = size > 0;
    } else {
        FkHostGroup p = fk_h.groups[c.g];
        c.g = fk_push_group(c.g, p.size, p.members, p.at, frame, bytes);
        // Without an entry test, the loop runs if any participant is active.
        if (l->running < 0) fk_loop_exit_update(l, l->parent, 0, FkVar{});
    }
    return c;
}

inline int fk_loop_running(FkLoop *l) { return l->running > 0; }

inline void fk_loop_clear_continue(FkLoop *l) {
    if (l->n == 0) return;
    fk_marked_status<<<FK_BLOCKS(l->n)>>>(l->parent.g, l->n, l->marks, FK_CONTINUE, FK_ACTIVE);
    fk_after_launch("fk_marked_status");
}

inline void fk_loop_end(FkLoop *l) {
    if (l->n > 0) {
        fk_marked_status<<<FK_BLOCKS(l->n)>>>(l->parent.g, l->n, l->marks, FK_BREAK, FK_ACTIVE);
        fk_after_launch("fk_marked_status");
    }
    fk_pop(l->tops);
}

// ---- calls ----

struct FkCall {
    FkCtx caller, inner;
    FkTops tops;
    int n;
    fk_u64 marks;
};

inline FkCall fk_call_begin(FkCtx c, fk_u64 caller_frame_bytes, fk_u64 callee_frame_bytes,
                            int frame, fk_u64 frame_bytes) {
    FkCall k;
    k.caller = c;
    k.tops = fk_tops();
    k.n = (int)fk_threads(c);
    k.marks = fk_alloc_words(k.n);
    if (k.n > 0) {
        fk_mark_active<<<FK_BLOCKS(k.n)>>>(c.g, k.n, k.marks);
        fk_after_launch("fk_mark_active");
    }
    fk_u64 base = c.slot_base + caller_frame_bytes * (fk_u64)fk_h.procs;
    fk_u64 need = base + callee_frame_bytes * (fk_u64)fk_h.procs;
    if (need > fk_h.slots_cap) {
        char m[200];
        snprintf(m, sizeof m, "the call stack needs %llu bytes of spilled slots, more than the %llu reserved (recursion too deep?)",
                 need, fk_h.slots_cap);
        fk_fatal(m);
    }
    FkHostGroup p = fk_h.groups[c.g];
    k.inner.g = fk_push_group(c.g, p.size, p.members, p.at, frame, frame_bytes);
    k.inner.slot_base = base;
    k.inner.seq = c.seq;
    return k;
}

inline void fk_call_arg(FkCall *k, FkVar src, FkVar dst) {
    if (k->n == 0) return;
    fk_copy_var<<<FK_BLOCKS(k->n)>>>(k->caller.g, k->n, k->marks, src, k->caller.g,
                                      k->caller.slot_base, dst, k->inner.g, k->inner.slot_base);
    fk_after_launch("fk_copy_var");
}

inline void fk_call_end(FkCall *k, int has_ret, FkVar ret, FkVar result) {
    if (k->n > 0) {
        fk_marked_status<<<FK_BLOCKS(k->n)>>>(k->caller.g, k->n, k->marks, FK_RETURN, FK_ACTIVE);
        fk_after_launch("fk_marked_status");
        if (has_ret) {
            fk_copy_var<<<FK_BLOCKS(k->n)>>>(k->caller.g, k->n, k->marks, ret, k->inner.g,
                                              k->inner.slot_base, result, k->caller.g,
                                              k->caller.slot_base);
            fk_after_launch("fk_copy_var");
        }
    }
    fk_pop(k->tops);
}

// ---- start, multiprefix ----

// `start`: all P processors form a new root group ($ = $$ = __PROC_NR__, @ = 0).
inline FkCtx fk_start_group(FkCtx c, int frame, fk_u64 bytes) {
    fk_u64 members = fk_alloc_members(fk_h.procs);
    fk_start<<<FK_BLOCKS(fk_h.procs)>>>(fk_h.procs, members);
    fk_after_launch("fk_start");
    FkCtx r;
    r.seq = 0;
    r.g = fk_push_group(c.g, fk_h.procs, members, 0, frame, bytes);
    r.slot_base = c.slot_base;
    r.seq = 0;
    return r;
}

inline void fk_multiprefix_op(FkCtx c, int op, FkVar ptr, FkVar value, int has_result,
                              FkVar result) {
    int n = (int)fk_threads(c);
    if (n == 0) return;
    fk_multiprefix<<<1, FK_SCAN_THREADS>>>(c.g, n, c.slot_base, op, ptr, value, has_result, result);
    fk_after_launch("fk_multiprefix");
}

// ---- output ----

// C printf of one record (fork-dialect.md §2 conversions), appended to `out`.
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
        fk_i64 word;
        memcpy(&word, args, 8);
        int len = 0;
        switch (conv) {
        case 'd': case 'i':
            spec += "lld";
            len = snprintf(buf, sizeof buf, spec.c_str(), longs ? (long long)word : (long long)(int)word);
            args += 8;
            break;
        case 'u': case 'x': case 'X': case 'o':
            spec += "ll";
            spec += conv;
            len = snprintf(buf, sizeof buf, spec.c_str(),
                           longs ? (unsigned long long)word : (unsigned long long)(unsigned)word);
            args += 8;
            break;
        case 'c':
            spec += 'c';
            len = snprintf(buf, sizeof buf, spec.c_str(), (int)(unsigned char)word);
            args += 8;
            break;
        case 'f': case 'F': case 'e': case 'E': case 'g': case 'G': {
            double d;
            memcpy(&d, args, 8);
            spec += conv;
            len = snprintf(buf, sizeof buf, spec.c_str(), d);
            args += 8;
            break;
        }
        case 's': {
            std::string str(args + 8, (size_t)word);
            spec += 's';
            len = snprintf(buf, sizeof buf, spec.c_str(), str.c_str());
            args += 8 + ((word + 7) & ~7ll);
            break;
        }
        default:
            args += 8;
        }
        // The length, not strlen: `%c` of 0 prints a NUL byte.
        out->append(buf, (size_t)std::max(0, std::min(len, (int)sizeof buf - 1)));
    }
}

struct FkRecord {
    unsigned launch, sub, key, seq;
    fk_u64 offset;
};

// Formats the printf records in the order of fork-dialect.md §7: by launch and segment of a
// block region, then by $$ (synchronous) or __PROC_NR__ (asynchronous), then each thread's
// records in program order. Records from (launch, sub) `cut` on are dropped (a fault stopped
// the program there).
inline std::string fk_output(std::vector<char> &buf, unsigned cut_launch, unsigned cut_sub) {
    std::vector<FkRecord> recs;
    for (fk_u64 at = 0; at + 32 <= buf.size();) {
        unsigned h[8];
        memcpy(h, buf.data() + at, 32);
        if (h[0] < 32) break;
        FkRecord r = {h[1], h[2], h[3], h[4], at};
        if (r.launch < cut_launch || (r.launch == cut_launch && r.sub < cut_sub)) recs.push_back(r);
        at += h[0];
    }
    std::stable_sort(recs.begin(), recs.end(), [](const FkRecord &a, const FkRecord &b) {
        if (a.launch != b.launch) return a.launch < b.launch;
        if (a.sub != b.sub) return a.sub < b.sub;
        if (a.key != b.key) return a.key < b.key;
        return a.seq < b.seq;
    });
    std::string out;
    for (const FkRecord &r : recs) {
        unsigned h[8];
        memcpy(h, buf.data() + r.offset, 32);
        const char *format = fk_h.program->strings + fk_h.program->string_offsets[h[5]];
        fk_format(format, buf.data() + r.offset + 32, h[6], &out);
    }
    return out;
}

// Prints the output; reports a fault or an overflow. Returns the exit status.
inline int fk_finish() {
    fk_cuda(cudaDeviceSynchronize(), "running the kernels");
    fk_u64 top = 0;
    fk_cuda(cudaMemcpy(&top, fk_h.m.out_top, 8, cudaMemcpyDeviceToHost), "reading the output");
    fk_u64 bytes = std::min(top, fk_h.m.out_bytes);
    std::vector<char> buf(bytes);
    if (bytes) fk_cuda(cudaMemcpy(buf.data(), fk_h.m.out, bytes, cudaMemcpyDeviceToHost), "reading the output");
    int fault[4];
    fk_read(fault, fk_h.m.fault, 4);
    std::string out = fault[0] != 0 ? fk_output(buf, (unsigned)fault[2], (unsigned)fault[3])
                                    : fk_output(buf, ~0u, ~0u);
    fwrite(out.data(), 1, out.size(), stdout);
    fflush(stdout);
    if (fault[0] != 0) {
        fprintf(stderr, "error: %s on processor %d\n", fk_h.program->sites[fault[0] - 1], fault[1]);
        return 1;
    }
    if (top > fk_h.m.out_bytes) {
        fprintf(stderr, "error: the output (%llu bytes of printf records) overflowed the %llu-byte buffer\n",
                top, fk_h.m.out_bytes);
        return 1;
    }
    return 0;
}

// ---- main ----

inline int fk_main(int argc, char **argv, const FkProgram *program) {
    long procs = 1;
    fk_h.priority = 0;
    for (int i = 1; i < argc; i++) {
        const char *v = 0;
        if (strcmp(argv[i], "--crcw") == 0 && i + 1 < argc) {
            const char *m = argv[++i];
            if (strcmp(m, "priority") == 0) fk_h.priority = 1;
            else if (strcmp(m, "common") != 0 && strcmp(m, "arbitrary") != 0) {
                fprintf(stderr, "error: `--crcw %s`: use common, arbitrary or priority\n", m);
                return 2;
            }
            continue;
        }
        if (strcmp(argv[i], "-p") == 0 && i + 1 < argc) v = argv[++i];
        else if (strncmp(argv[i], "-p", 2) == 0) v = argv[i] + 2;
        else {
            fprintf(stderr, "error: unknown argument `%s`; usage: %s -p P [--crcw common|arbitrary|priority]\n",
                    argv[i], argv[0]);
            return 2;
        }
        char *end;
        procs = strtol(v, &end, 10);
        if (*end || procs < 1 || procs > (1 << 20)) {
            fprintf(stderr, "error: `-p %s`: P must be a number from 1 to 1048576\n", v);
            return 2;
        }
    }
    fk_u64 P = (fk_u64)procs;
    FkHost &h = fk_h;
    h.program = program;
    h.procs = (int)procs;
    h.members_cap = 64 * P + 4096;
    h.words_cap = 64 * P + 4096;
    h.groups_cap = 1 << 18;
    h.frames_cap = 16 << 20;
    h.counts_cap = std::max<fk_u64>(P, 1 << 16);
    h.slots_cap = std::max<fk_u64>(64ull << 20, (program->private_globals_bytes + 64 * program->main_frame_bytes) * P);
    if (program->stack_bytes)
        fk_cuda(cudaDeviceSetLimit(cudaLimitStackSize, program->stack_bytes), "setting the stack size");
    FkMachine &m = h.m;
    m.procs = h.procs;
    m.members = (int *)fk_device_alloc(h.members_cap * 4, "group member lists");
    m.groups = (FkGroup *)fk_device_alloc(h.groups_cap * sizeof(FkGroup), "group descriptors");
    m.dollar = (fk_i64 *)fk_device_alloc(P * 8, "$ per processor");
    m.status = (int *)fk_device_alloc(P * 4, "processor status");
    m.words = (fk_i64 *)fk_device_alloc(h.words_cap * 8, "loop marks and saved $");
    m.keys = (int *)fk_device_alloc(P * 4, "split keys");
    m.counts = (int *)fk_device_alloc(h.counts_cap * 4, "subgroup sizes");
    m.cursor = (int *)fk_device_alloc(h.counts_cap * 4, "subgroup cursors");
    m.flag = (int *)fk_device_alloc(16, "flags");
    m.strings = (char *)fk_device_alloc(program->strings_bytes, "string literals");
    fk_cuda(cudaMemcpy(m.strings, program->strings, program->strings_bytes, cudaMemcpyHostToDevice), "strings");
    m.shared_globals = (char *)fk_device_alloc(program->shared_globals_bytes, "shared globals");
    m.slots = (char *)fk_device_alloc(h.slots_cap, "spilled private slots");
    m.heap_bytes = 64 << 20;
    m.heap = (char *)fk_device_alloc(m.heap_bytes, "the heap");
    m.heap_top = (fk_u64 *)fk_device_alloc(8, "the heap");
    m.out_bytes = 64 << 20;
    m.out = (char *)fk_device_alloc(m.out_bytes, "printf records");
    m.out_top = (fk_u64 *)fk_device_alloc(8, "printf records");
    m.fault = (int *)fk_device_alloc(16, "the fault words");
    h.frames = (char *)fk_device_alloc(h.frames_cap, "shared frames");
    fk_cuda(cudaMemcpyToSymbol(fk_m, &m, sizeof m), "the machine descriptor");
    h.top.groups = 0;
    h.top.members = 0;
    h.top.words = 0;
    h.top.frames = 0;
    h.launches = 0;
    // The root group: all P processors, $ = $$ = __PROC_NR__, @ = 0.
    fk_u64 members = fk_alloc_members(P);
    fk_start<<<FK_BLOCKS(h.procs)>>>(h.procs, members);
    fk_after_launch("fk_start");
    FkCtx root;
    root.g = fk_push_group(-1, h.procs, members, 0, program->main_shared_frame, program->main_shared_bytes);
    root.slot_base = program->private_globals_bytes * P;
    root.seq = 0;
    program->run(root);
    return fk_finish();
}
