// forkcc runtime library: the memory checks (docs/gpu-faults.md).
//
// Included after the program's object table (`fk_objects`, emitted by the transform) and
// before its kernels. With FK_CHECKS 0 every check compiles away and the heap is the plain
// bump allocator.
//
// Pointers stay plain 8-byte addresses (the C layout of structs and the memory every
// executor shares depend on it); the object a pointer points into is found from its address:
// - string literals, shared globals, and the private globals (one copy per processor): the
//   static table `fk_objects`, a binary search;
// - heap blocks: each block has a 16-byte header (requested size, kind, freed), and a shadow
//   map of the heap (one int per 16-byte granule: the granule of its block's header) finds
//   the header of any address in a block;
// - the shared locals in the shared frames of the thread's group and its ancestors: the frame
//   an address lies in is found by walking up the group tree, its locals in the table;
// - a thread's local memory and the spilled private slots: not looked up (their layout
//   depends on the call depth): accesses there are checked against null only (array indexes
//   with a known length are checked wherever the array lives).
// An access is checked against the object its *base* pointer points into: `p[i]` faults when
// p + i leaves p's object, also where it would land inside a neighbour. A faulting access goes
// to a scratch cell instead, so the thread touches no memory outside its objects and the CUDA
// context survives to report the fault.

// Where a pointer points.
#define FK_OBJ_FOUND 0
#define FK_OBJ_NULL 1
#define FK_OBJ_INVALID 2
#define FK_OBJ_UNKNOWN 3

// An object's bounds; `object` as in the fault record (>= 0 static, FK_OBJECT_* heap block).
struct FkBounds {
    const char *base;
    fk_u64 size;
    int object;
    bool freed;
    bool frame;  // a shared local: it ends with its group's frame
};

// No CUDA allocation lies in the first 64 KiB of the address space: a non-null pointer below
// that is an integer made into a pointer.
#define FK_LOW_ADDRESSES 65536ull

// The heap under the checks: the shadow map in the first fifth, the blocks after it.
__device__ inline fk_u64 fk_heap_shadow_bytes() { return (fk_m.heap_bytes / 5) & ~15ull; }
__device__ inline int *fk_heap_shadow() { return (int *)fk_m.heap; }
__device__ inline char *fk_heap_data() { return fk_m.heap + fk_heap_shadow_bytes(); }
__device__ inline fk_u64 fk_heap_data_bytes() { return fk_m.heap_bytes - fk_heap_shadow_bytes(); }

// A heap block's header: the requested size, the kind (1 malloc, 2 shmalloc), freed.
struct FkBlock {
    fk_u64 size;
    int kind;
    int freed;
};

// The static object of region `region` (entries first..last of fk_objects) at `rel` bytes
// into the region, whose entries are `scale` bytes apart per byte of offset (P for the
// private globals, which lie one copy per processor).
__device__ int fk_static_object(int first, int last, fk_u64 rel, fk_u64 scale) {
    int lo = first, hi = last;  // the answer is in [lo, hi)
    if (lo >= hi || rel < fk_objects[lo].offset * scale) return -1;
    while (hi - lo > 1) {
        int mid = (lo + hi) / 2;
        if (fk_objects[mid].offset * scale <= rel) lo = mid;
        else hi = mid;
    }
    const FkObject &o = fk_objects[lo];
    return rel < (o.offset + o.size) * scale ? lo : -1;
}

// The object of p in a shared frame of `group` or an ancestor; -1 if none has p.
__device__ int fk_frame_object(const char *p, int group, FkBounds *b) {
    for (int g = group; g >= 0; g = fk_m.groups[g].parent) {
        int f = fk_m.groups[g].frame_id;
        const char *frame = (const char *)fk_m.groups[g].frame;
        if (f < 0 || f >= FK_FRAMES || p < frame || p >= frame + fk_frame_bytes[f]) continue;
        int i = fk_static_object(fk_frame_first[f], fk_frame_first[f + 1], p - frame, 1);
        if (i >= 0) {
            b->base = frame + fk_objects[i].offset;
            b->frame = true;
        }
        return i;
    }
    return -2;
}

// Where p points, for a thread of `group` (whose shared frames it may point into).
__device__ int fk_object_of(const char *p, int group, FkBounds *b) {
    b->frame = false;
    if (p == 0) return FK_OBJ_NULL;
    if ((fk_u64)p < FK_LOW_ADDRESSES) return FK_OBJ_INVALID;
    int i = -1;
    if (p >= fk_m.strings && p < fk_m.strings + FK_STRINGS_BYTES) {
        i = fk_static_object(0, FK_OBJECTS_SHARED, p - fk_m.strings, 1);
        if (i >= 0) b->base = fk_m.strings + fk_objects[i].offset;
    } else if (p >= fk_m.shared_globals && p < fk_m.shared_globals + FK_SHARED_GLOBALS_BYTES) {
        i = fk_static_object(FK_OBJECTS_SHARED, FK_OBJECTS_PRIVATE, p - fk_m.shared_globals, 1);
        if (i >= 0) b->base = fk_m.shared_globals + fk_objects[i].offset;
    } else if (p >= fk_m.slots &&
               p < fk_m.slots + FK_PRIVATE_GLOBALS_BYTES * (fk_u64)fk_m.procs) {
        fk_u64 procs = (fk_u64)fk_m.procs;
        i = fk_static_object(FK_OBJECTS_PRIVATE, FK_OBJECT_COUNT, p - fk_m.slots, procs);
        if (i >= 0) {
            const FkObject &o = fk_objects[i];
            fk_u64 copy = ((fk_u64)(p - fk_m.slots) - o.offset * procs) / o.size;
            b->base = fk_m.slots + o.offset * procs + copy * o.size;
        }
    } else if (p >= fk_heap_data() && p < fk_heap_data() + fk_heap_data_bytes()) {
        int header = fk_heap_shadow()[(p - fk_heap_data()) / 16] - 1;
        if (header < 0) return FK_OBJ_INVALID;
        const FkBlock *h = (const FkBlock *)(fk_heap_data() + (fk_u64)header * 16);
        b->base = (const char *)(h + 1);
        b->size = h->size;
        b->object = h->kind == 2 ? FK_OBJECT_SHMALLOC : FK_OBJECT_MALLOC;
        b->freed = *(volatile const int *)&h->freed != 0;
        return FK_OBJ_FOUND;
    } else {
        i = fk_frame_object(p, group, b);
        if (i == -2) return FK_OBJ_UNKNOWN;
    }
    if (i < 0) return FK_OBJ_INVALID;  // padding between objects
    b->size = fk_objects[i].size;
    b->object = fk_objects[i].object;
    b->freed = false;
    return FK_OBJ_FOUND;
}

// Where a faulting access goes instead (never read back).
__device__ char fk_sink[4096] __attribute__((aligned(16)));

// Whether p, at the start of the object `b`, is rather one past the end of the object before
// it (`q = a + n; q[-1]`, valid C) and the access `offset` bytes from p lies inside that one.
// Cold (an access outside its object): not inlined, and the bounds by value (fk_fault_v).
__device__ __noinline__ bool fk_one_past(const void *p, fk_i64 offset, fk_u64 bytes, FkBounds b,
                                         int group) {
    const char *c = (const char *)p;
    FkBounds prev;
    if (c != b.base || offset >= 0 || fk_object_of(c - 1, group, &prev) != FK_OBJ_FOUND)
        return false;
    fk_i64 at = (c - prev.base) + offset;
    return !prev.freed && prev.base + prev.size == c && at >= 0 && (fk_u64)at + bytes <= prev.size;
}

// The address `offset` bytes from p for an access of `bytes` bytes, found by the lookup. The
// four sites from `site` on: out of bounds, null, invalid pointer, freed block. Cold: not
// inlined, and the thread by value (a call that took its address would keep the calling
// kernel's FkThread in local memory, as fk_fault_v says).
__device__ __noinline__ const char *fk_at(const char *p, fk_i64 offset, fk_u64 bytes, int site,
                                          FkThread th) {
#if FK_CHECKS
    FkBounds b;
    switch (fk_object_of(p, th.group, &b)) {
    case FK_OBJ_FOUND: {
        fk_i64 at = (p - b.base) + offset;
        if (b.freed) {
            fk_fault_v(site + 3, th, at, b.object, b.size);
            return fk_sink;
        }
        if ((at < 0 || (fk_u64)at + bytes > b.size) &&
            !fk_one_past(p, offset, bytes, b, th.group)) {
            fk_fault_v(site, th, at, b.object, b.size);
            return fk_sink;
        }
        break;
    }
    case FK_OBJ_NULL: fk_fault_v(site + 1, th, 0, 0, 0); return fk_sink;
    case FK_OBJ_INVALID: fk_fault_v(site + 2, th, 0, 0, 0); return fk_sink;
    default: break;
    }
#endif
    return p + offset;
}

// Whether the access of `bytes` bytes at `offset` from p lies in the bounds of the object seen,
// from a pointer into it. `&`, not `&&`: a one-thread loop pays for every branch, and the
// short-circuits' branches (with their convergence barriers) were a tenth of the checked
// seq_quicksort's instructions (docs/performance.md).
__device__ __forceinline__ bool fk_seen_bounds(const FkSeen &seen, const void *p, fk_i64 offset,
                                               fk_u64 bytes) {
    fk_u64 rel = (fk_u64)((const char *)p - seen.base), at = rel + (fk_u64)offset;
    return (rel < seen.size) & (at < seen.size) & (bytes <= seen.size - at);
}

// Whether that access lies in the object seen and the object is not freed (or, `fresh`, was
// not when the settled loop running now read it): then fk_at would find that object and pass.
__device__ __forceinline__ bool fk_seen_holds(const FkSeen &seen, const void *p, fk_i64 offset,
                                              fk_u64 bytes) {
    return fk_seen_bounds(seen, p, offset, bytes) &&
           !(seen.heap && !seen.fresh &&
             *(volatile const int *)&((const FkBlock *)seen.base - 1)->freed);
}

// The object p points into, for a site's FkSeen (size 0 where there is none to keep). Cold:
// returned by value, so the caller's FkSeen stays in registers.
__device__ __noinline__ FkSeen fk_seen_of(const void *p, int group) {
    FkBounds b;
    switch (fk_object_of((const char *)p, group, &b)) {
    case FK_OBJ_FOUND:
        if (b.freed) break;
        return FkSeen{b.base, b.size, b.object == FK_OBJECT_MALLOC || b.object == FK_OBJECT_SHMALLOC,
                      false, !b.frame};
    case FK_OBJ_UNKNOWN: return FkSeen{0, 0, false, true, false};
    default: break;
    }
    return FkSeen{0, 0, false, false, false};
}

// A thread's lasting object before its last one (FkThread::seen), one entry per thread, not
// kept in registers (kept in FkThread and FkRegion instead, a second object made ptxas spill
// more in quicksort's region and the whole program 15% slower: docs/performance.md, session
// 28). Code that goes back and forth between two objects finds the other here instead of
// looking its pointer up: quicksort's partition loop reads `x` in one kernel and writes `buf`
// in the next. An entry is checked like FkThread::seen at every use (bounds, and a heap
// block's freed mark unless fresh).
// - Under the device schedule, in shared memory: the persistent kernel's threads last the
//   whole run (its blocks and the globals' kernel clear theirs first, fk_seen_before_clear),
//   and an entry is a load of a few dozen cycles, where one in global memory, which the
//   store before it had taken out of L1, was a trip to L2 (docs/performance.md, session 29).
// - Under the host schedule, whose kernels come and go, in global memory: an entry per thread
//   of a launch (every launch of the runtime is one-dimensional, so (block, thread) numbers
//   them; a thread past the entries keeps none).
#ifdef FK_SCHEDULE_DEVICE
#define FK_SEEN_BEFORE_ENTRIES 1024
__shared__ FkSeen fk_seen_before[FK_SEEN_BEFORE_ENTRIES];
__device__ inline FkSeen *fk_seen_before_entry() { return &fk_seen_before[threadIdx.x]; }
__device__ void fk_seen_before_clear() {
#if FK_CHECKS
    fk_seen_before[threadIdx.x] = FkSeen{};
#endif
}
#else
#define FK_SEEN_BEFORE_ENTRIES (1 << 17)
__device__ FkSeen fk_seen_before[FK_SEEN_BEFORE_ENTRIES];
__device__ inline FkSeen *fk_seen_before_entry() {
    fk_u64 t = (fk_u64)blockIdx.x * blockDim.x + threadIdx.x;
    return t < FK_SEEN_BEFORE_ENTRIES ? &fk_seen_before[t] : nullptr;
}
__device__ void fk_seen_before_clear() {}
#endif

// fk_seen_other's miss, once (not inlined at each site), where neither the site's object
// (fk_at_seen's) nor the one before the last held: the thread's last lasting object `last`
// (FkThread::seen) if the access lies in it, else the lookup's, whose freed mark the lookup
// has just read (a freed block has no bounds). Where the object found lasts, `last` becomes
// the one before it. Everything by value: the site's FkSeen and the kernel's FkThread stay
// in registers.
__device__ __noinline__ FkSeen fk_seen_miss(const void *p, fk_i64 offset, fk_u64 bytes,
                                            FkSeen last, int group) {
    if (fk_seen_holds(last, p, offset, bytes)) return last;
    FkSeen found = fk_seen_of(p, group);
    FkSeen *entry = fk_seen_before_entry();
    if (entry && found.lasting && last.lasting) *entry = last;
    return found;
}

// Where the thread's last lasting object (FkThread::seen) does not hold an access: the one
// before it, inline (code that goes back and forth between two objects finds the other one
// here, without the miss's call; the two then change places), else fk_seen_miss. Used by
// fk_at_seen and by the ranged checks before a loop (fk_pointer_range_in), whose lookups
// were a sixth of Hillis-Steele's loop kernels' time at P = 65,536 (its rounds check `a`,
// then `b`, then `a`: docs/performance.md, session 51).
__device__ __forceinline__ FkSeen fk_seen_other(const void *p, fk_i64 offset, fk_u64 bytes,
                                                FkThread *th) {
    FkSeen *before = fk_seen_before_entry();
    if (before && fk_seen_holds(*before, p, offset, bytes)) {
        FkSeen seen = *before;
        if (th->seen.lasting) *before = th->seen;
        return seen;
    }
    return fk_seen_miss(p, offset, bytes, th->seen, th->group);
}

// The exit of a settled owned loop (emitted there): the objects the thread keeps are no
// longer fresh, so a block freed after the loop is found freed.
__device__ inline void fk_seen_unsettle(FkSeen *seen) {
#if FK_CHECKS
    seen->fresh = false;
    if (FkSeen *entry = fk_seen_before_entry()) entry->fresh = false;
#else
    (void)seen;
#endif
}

// fk_at for an access site with the object it or its body found last time (`seen`, a local
// of the function, which starts as `th->seen`): a hit costs a subtraction, three comparisons
// and one branch (two for a heap block, whose freed word it reads, but once in a settled
// loop) instead of the lookup.
template <class T>
__device__ __forceinline__ T *fk_at_seen(T *p, fk_i64 offset, int site, FkThread *th,
                                         FkSeen &seen) {
#if FK_CHECKS
    if (__builtin_expect(!fk_seen_bounds(seen, p, offset, sizeof(T)) | (seen.heap & !seen.fresh),
                         0)) {
        // What the thread found here holds now (a heap block's freed mark read, or the miss's
        // object); in a settled loop it holds until the loop ends.
        if (fk_seen_holds(seen, p, offset, sizeof(T))) {
            seen.fresh = th->settled;
            th->seen.fresh |= th->settled & (th->seen.base == seen.base);
        } else {
            // The object before the last (a small group's iteration of quicksort's partition
            // loop 15,700 -> 13,700 cycles, docs/performance.md, session 29), else the lookup.
            seen = fk_seen_other(p, offset, sizeof(T), th);
            seen.fresh = th->settled;
            if (seen.lasting) th->seen = seen;
            // Outside the bounds of the object found: fk_at checks and reports (or finds
            // `q = a + n; q[-1]` valid).
            if (!seen.untracked && !fk_seen_bounds(seen, p, offset, sizeof(T)))
                return (T *)fk_at((const char *)p, offset, sizeof(T), site, *th);
        }
    }
#else
    (void)site, (void)th, (void)seen;
#endif
    return (T *)((char *)p + offset);
}

// Whether `bytes` bytes at `offset` lie in an object of `object_bytes`: fk_elem's test, the
// ranged checks' (fk_offsets_in), and the one a loop that loads ahead makes before it loads
// an element they do not cover (transform::emit_cuda::device).
__device__ __forceinline__ bool fk_elem_in(fk_i64 offset, fk_i64 bytes, fk_i64 object_bytes) {
    return offset >= 0 && offset + bytes <= object_bytes;
}

// An element of an array variable (`a[i]`, `m[i][j]`): `offset` bytes from the variable's
// first element, checked against the whole variable as the simulator checks (so `m[0][5]` of
// an `int m[4][4]` is `m[1][1]`); else a fault, and the thread touches the sink instead. One
// comparison, no object lookup: the object is known statically.
template <class T>
__device__ T &fk_elem(T *first, fk_i64 offset, fk_i64 object_bytes, int object, int site,
                      const FkThread *th) {
#if FK_CHECKS
    if (!fk_elem_in(offset, (fk_i64)sizeof(T), object_bytes)) {
        fk_fault_v(site, *th, offset, object, 0);
        return *(T *)fk_sink;
    }
#endif
    return *(T *)((char *)first + offset);
}

// A ranged loop's checks, made once before it (transform::emit_cuda::ranged): its index
// runs from its value at entry to `last` by `stride` without wrapping; each part of an
// index that depends on it is under 2^30 in magnitude at both ends (so none wraps in
// between); an access's offsets at both ends lie in its object: an array variable of
// `object_bytes`, or the object a pointer points into, which must last the loop (not a heap
// block, which the loop might free). Then every iteration's access does, and the loop runs
// a copy of its body without those checks.
template <class T> __device__ __forceinline__ bool fk_stride_fits(T last, T stride) {
    const T max = (T)(~0ull >> (65 - 8 * sizeof(T)));
    return stride > 0 && last <= max - stride;
}

// Whether the iterations at k, k + s, ..., k + (N - 1) s of a ranged loop whose index stays
// at most `last` all run (s > 0, fk_stride_fits): a loop that loads ahead
// (transform::emit_cuda::device) then loads their N values before their N stores. The gap
// last - k is exact in 64 bits, so nothing wraps.
template <class T, int N> __device__ __forceinline__ bool fk_ahead(T k, T last, T s) {
    return k <= last && (fk_u64)s <= ((fk_u64)last - (fk_u64)k) / (fk_u64)(N - 1);
}

__device__ __forceinline__ bool fk_small(fk_i64 x) { return x > -(1ll << 30) && x < (1ll << 30); }
__device__ __forceinline__ bool fk_offsets_in(fk_i64 at_entry, fk_i64 at_end, fk_i64 bytes,
                                              fk_i64 object_bytes) {
    return fk_elem_in(at_entry, bytes, object_bytes) && fk_elem_in(at_end, bytes, object_bytes);
}
// The accesses of a ranged loop through one pointer, each at offsets `at_entry` and `at_end`
// (its offsets at the index's two ends) of `bytes` bytes.
struct FkAccessRange {
    fk_i64 at_entry, at_end;
    fk_u64 bytes;
};
// Whether all of them lie in the object p points into, found once for them all (the emitter
// gathers a loop's accesses by pointer: Hillis-Steele's `a[i - d] + a[i]` and `b[i]` make two
// calls, not four). A heap block qualifies only where `heap` says that the kernel frees no
// block (`Effects::frees`): then its freed mark, read here, holds until the kernel ends, as
// in a settled loop (docs/gpu-faults.md), since a sibling group that frees the block races
// with this one. Otherwise the loop might free the block it runs over.
template <int N>
__device__ bool fk_pointer_range_in(const void *p, const FkAccessRange (&accesses)[N],
                                    FkThread *th, bool heap) {
#if FK_CHECKS
    // The thread's last lasting object first (a `seq_quicksort` call's loop, like its `swap`s,
    // is in the array the calls before looked up), then the one before it. A heap block's
    // freed mark is read once, where the object is found (fk_seen_other reads it of what it
    // returns): each read is a trip to L2 that the next check waits for, and three for each
    // access were nearly all of Hillis-Steele's checks before its loops (docs/performance.md,
    // session 52).
    FkSeen seen = th->seen;
    if (!fk_seen_holds(seen, p, 0, 0)) {
        seen = fk_seen_other(p, 0, 0, th);
        if (seen.lasting) th->seen = seen;
    }
    bool in = seen.size != 0 && (heap || !seen.heap);
#pragma unroll
    for (int k = 0; k < N; k++) {
        const FkAccessRange &a = accesses[k];
        in &= fk_seen_bounds(seen, p, a.at_entry, a.bytes) &
              fk_seen_bounds(seen, p, a.at_end, a.bytes);
    }
    return in;
#else
    return (void)p, (void)accesses, (void)th, (void)heap, true;
#endif
}

#if FK_CHECKS
// Sets the shadow map's entries [from, to) to `v`, four at a time where they are 16-byte
// aligned (the map starts at the heap's aligned base): one at a time, the `seq` that
// allocates quicksort's 2 MB buffer spent 1 ms here on one GPU thread (docs/performance.md,
// session 34).
__device__ void fk_shadow_fill(fk_u64 from, fk_u64 to, int v) {
    struct alignas(16) Four { int v[4]; };
    int *shadow = fk_heap_shadow();
    fk_u64 g = from;
    for (; g < to && (g & 3) != 0; g++) shadow[g] = v;
    const Four four{{v, v, v, v}};
#pragma unroll 4
    for (; g + 4 <= to; g += 4) *(Four *)(shadow + g) = four;
    for (; g < to; g++) shadow[g] = v;
}
#endif

// shmalloc (`shared`) / malloc: a bump allocator. Under the checks each block has a header
// and is entered in the shadow map; sites: the heap is full, a negative size.
__device__ void *fk_alloc(fk_i64 n, int shared, int site, const FkThread *th) {
#if FK_CHECKS
    if (n < 0) { fk_fault_v(site + 1, *th, n, 0, 0); return 0; }
    fk_u64 bytes = sizeof(FkBlock) + (((fk_u64)n + 15) & ~15ull);
    fk_u64 at = atomicAdd(fk_m.heap_top, bytes);
    if (at + bytes > fk_heap_data_bytes()) { fk_fault_v(site, *th, n, 0, 0); return 0; }
    FkBlock *h = (FkBlock *)(fk_heap_data() + at);
    h->size = (fk_u64)n;
    h->kind = shared ? 2 : 1;
    h->freed = 0;
    fk_shadow_fill(at / 16, (at + bytes) / 16, (int)(at / 16) + 1);
    return h + 1;
#else
    fk_u64 bytes = ((fk_u64)(n < 0 ? 0 : n) + 7) & ~7ull;
    fk_u64 at = atomicAdd(fk_m.heap_top, bytes == 0 ? 8 : bytes);
    if (at + bytes > fk_m.heap_bytes) { fk_fault_v(site, *th, n, 0, 0); return 0; }
    return fk_m.heap + at;
#endif
}

// free / shfree (`kind`: FK_FREE_*; in a synchronous region the members of a group free the
// block they allocated together, once): the block is marked freed (its memory is not
// reused, so a later access is reported). The four sites from `site` on: already freed, a
// pointer into a block, not a heap block of the right kind, an invalid pointer. Without the
// checks a no-op.
__device__ void fk_free(const void *p, int kind, int site, const FkThread *th) {
#if FK_CHECKS
    if (p == 0) return;
    FkBounds b;
    switch (fk_object_of((const char *)p, th->group, &b)) {
    case FK_OBJ_FOUND: break;
    case FK_OBJ_UNKNOWN: fk_fault_v(site + 2, *th, 0, FK_OBJECT_VARIABLE, 0); return;
    default: fk_fault(site + 3, th); return;
    }
    if (b.object != (kind == FK_FREE_PRIVATE ? FK_OBJECT_MALLOC : FK_OBJECT_SHMALLOC)) {
        fk_fault_v(site + 2, *th, 0, b.object, b.size);
        return;
    }
    if ((const char *)p != b.base) {
        fk_fault_v(site + 1, *th, (const char *)p - b.base, b.object, b.size);
        return;
    }
    FkBlock *h = (FkBlock *)b.base - 1;
    if (atomicExch(&h->freed, 1) != 0 && kind != FK_FREE_SHARED_ONCE)
        fk_fault_v(site, *th, 0, b.object, b.size);
#endif
}
