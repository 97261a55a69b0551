// forkcc device-resident schedule (`--schedule device`), device side.
//
// One persistent launch runs the whole program. Every PRAM processor carries its own program
// point in the lowered host program (transform::host_program: a `pc` per processor, a stack
// of frames for the splits, loops, calls, `seq` and `start` it is inside), so sibling
// subgroups advance independently and at the same time. The emitted `fk_run_proc` is a
// switch over the host program's instructions; each instruction calls a helper below.
//
// Collective instructions (a kernel's end, a split, a loop's entry and exit test, a call, a
// shared branch, a multiprefix, a restore) are barriers of the current group: a counter and a
// generation per group instance in global memory. Each member writes its part into the
// group's scratch slice and arrives; the last to arrive runs the instruction's leader action
// (forms the subgroups, decides the branch, combines the multiprefix) and releases the
// others. Nothing waits by blocking: a processor that must wait records the generation it
// waits for, and its thread runs its other processors (processors are virtualised over the
// resident threads, Brent). The launch is cooperative, so all threads are resident and every
// waiting processor's group eventually completes.
//
// Memory of the schedule (fk_d):
// - FkProc per processor: pc, phase inside a collective instruction, group, $$, seq flag,
//   frame stack height, slot stack height, what it waits for;
// - FkFrame `depth` per processor: what a construct restores at its end;
// - group instance ids: leader * (depth + 1) + d, where leader is the group's lowest
//   processor (its $$ 0 member) and d the height of the leader's frame that owns the group
//   (0 for the root group). A
//   processor's frames are LIFO, so at most one live group has a given id. `fk_m.groups[id]`
//   holds the descriptor (parent, size, @, shared frame), `fk_d.sync[id]` the barrier;
// - scratch: two FkSlot arrays of one entry per processor. A group owns a slice; its
//   subgroups take disjoint parts of it (they partition its members), a call or loop group
//   all or part of it. Members write a collective's inputs into the first array at their $$;
//   the leader uses the second as working space and writes each member's results into the
//   member's own FkResult, where nothing else can overwrite them before it reads them;
// - shared frames of group instances: a bump heap, zeroed, never reused;
// - timestamps (`--trace`, `--stats`; off unless the driver sets fk_t): one FkTraceRec per
//   group instance, numbered in the order they form (0 is the root group): formed when the
//   leader action makes it (%globaltimer), ended when its last member leaves it (atomicMax).
//
// Output order: a printf record carries its order key, the path of (step of the parent when
// the group formed, subgroup index) from the root, then (step, $$ or __PROC_NR__). Sorting by
// key gives the canonical order of docs/language.md §7 (each subgroup as if it ran to
// completion before the next), however the subgroups interleaved in time.

#define FK_FRAME_SPLIT 1
#define FK_FRAME_LOOP 2
#define FK_FRAME_CALL 3
#define FK_FRAME_SEQ 4
#define FK_FRAME_START 5

#define FK_FLAG_PATH 1          // the frame formed a group: an element of the order key
#define FK_FLAG_DOLLAR 2        // a fork set $: `saved` holds the old one
#define FK_FLAG_PARTICIPANT 4   // loop: active at the loop's start
#define FK_FLAG_IN_LOOP 8       // loop: a member of the loop group
#define FK_FLAG_ACTIVE 16       // call: active at the call

// The runtime limits the schedule reports to the host (fk_d.error[0]): FK_ERR_*, fk_abi.cuh.

struct FkFrame {
    int kind;
    int group;           // the group before the frame
    int rank;            // $$ before the frame
    int seq;             // seq flag before the frame
    fk_u64 slot_base;    // slot stack height before the frame
    int back;            // split: the end pc; call: the Call's pc (the result copy)
    int flags;
    fk_i64 saved;        // fork with `$ = e`: the old $; loop: iterations so far
    unsigned step;       // order key element: the parent's step when the group formed
    unsigned index;      // ... and the subgroup index
};

struct FkProc {
    int pc;
    int phase;           // inside a collective instruction: where to go on
    int group;
    int rank;            // $$
    int seq;             // inside `seq`: 1 + the $$ of the member that runs kernels; else 0
    int sp;              // frames in use
    int waiting;         // waits for fk_d.sync[wait_group].gen to leave wait_gen
    int done;            // 1: left main; 2: stopped after draining a fault (fk_drains)
    fk_u64 slot_base;    // height of the current activation in its slot stack
    int wait_group;
    unsigned wait_gen;
    int next_task;       // the next region task its block runs (fk_post_region), or -1
    int handed;          // a long kernel handed to the block's kernel warp (fk_s_hand_over):
                         // 1 handed, 2 run; 0 otherwise
    fk_u64 pad[1];
};

// A collective's results for one processor, written by the leader.
struct FkResult {
    int rank;            // new $$
    int group;           // new group, or -1
    fk_i64 value;
};

// A collective's leader action: what the members' inputs are combined into (fk_leader).
#define FK_ACT_NONE 0         // a plain barrier
#define FK_ACT_FIRST 1        // value: the first flagged member's value, or -1
#define FK_ACT_ANY 2          // value: whether a member is flagged
#define FK_ACT_SPLIT 3        // subgroups by key (fk_form_groups)
#define FK_ACT_LOOP_ENTER 4   // FK_ACT_ANY, then the loop group
#define FK_ACT_CALL 5         // FK_ACT_FIRST, each member's flag, the callee's group
#define FK_ACT_START 6        // the root group of a `start`
#define FK_ACT_MULTIPREFIX 7  // the flagged members' operands combined per cell
#define FK_ACT_COMMON_CHECK 8 // --crcw common: the kernel's writes checked
#define FK_ACT_REGION 9       // a block region run by one block (fk_post_region; `d`: the
                              // inner groups it forms)
#define FK_ACT_GRID 10        // a grid region run by every block's team (fk_post_grid; `d`:
                              // the inner groups it forms, `op`: its pc)

struct FkAction {
    int kind;            // FK_ACT_*
    int d;               // split: the owning frame's height above the leader's current one
    int fork;            // split: keys are `fork` indexes (@ = the key), else 0/1
    int frame0, frame1;  // split, call, start: the shared frames of the new groups
    int op;              // multiprefix: the operator (fk_combine); grid region: its pc
    fk_u64 bytes0, bytes1;
};

struct FkSync {
    unsigned arrived;
    unsigned step;       // collectives completed: the step of the output order key
    fk_i64 value;        // a collective's result for every member (branch, running, first active)
    fk_u64 scratch;      // the group's slice in the scratch arrays
    fk_i64 aux;          // a collective's second result (the call group)
    FkAction action;     // the leader action a warp owes the group (large groups)
    unsigned trace;      // the group instance's number in fk_t (when tracing)
    int trace_pc;        // the pc of the collective whose leader action runs (when tracing)
    // --trace (fk_t.regions): when its last collective ended (or it formed), the record of
    // its asynchronous region and 1 + the region's number while one goes on
    // (fk_trace_release)
    fk_u64 released;
    unsigned async_rec;
    unsigned async_region;
    // --trace, barrier phases (fk_trace_stop): the least ($$, stop) of a member stopped at a
    // barrier in this launch, and how many members stopped
    fk_u64 first_barrier;
    unsigned stopped;
    // The generation, which every waiting member polls, in a cache line of its own: on the
    // arrival counter's line the polls would slow the arrivals and the leader's writes.
    unsigned pad[5];
    unsigned gen;        // barrier generation (only ever increases, also across reuse of the id)
    unsigned pad2[31];
};

struct FkSlot {
    fk_i64 value;
    fk_i64 aux;
    int proc;
    int result;          // leader's working space
    int result2;
    int flag;
};

// FkDevice, FkTrace, FkTraceRec, FkSlotStacks: fk_abi.cuh; fk_t: fk_device.cuh.
__constant__ FkDevice fk_d;


// The GPU driver allocates these with the sizes of fk_abi.cuh.
static_assert(sizeof(FkProc) == FK_PROC_BYTES, "FkProc layout");
static_assert(sizeof(FkFrame) == FK_FRAME_BYTES, "FkFrame layout");
static_assert(sizeof(FkSync) == FK_SYNC_BYTES, "FkSync layout");
static_assert(sizeof(FkSlot) == FK_SLOT_BYTES, "FkSlot layout");
static_assert(sizeof(FkResult) == FK_RESULT_BYTES, "FkResult layout");


// The emitted interpreter of one processor (generated from the host program).
__device__ void fk_run_proc(int p, FkProc *s);

// The emitted block regions (transform::emit_cuda::region), by the pc of their `region`
// instruction, as one block runs them (fk_run_task); and the most bytes of shared frames one
// of them forms (each block reserves them once).
__device__ void fk_run_region(int pc, int g, int seq, fk_u64 slot_base, int groups_top,
                              fk_u64 members_top, fk_u64 words_top, fk_u64 frames_top);
__device__ fk_u64 fk_region_frame_bytes();
// The emitted grid regions, by the pc of their `region` instruction, as every block's team
// runs them (fk_run_grid_task).
__device__ void fk_run_grid_region(int pc, int g, int seq, fk_u64 slot_base, int groups_top,
                                   fk_u64 members_top, fk_u64 words_top, fk_u64 frames_top);

// The grid region posted last (fk_post_grid): its number (`posted`, from 0 at each run's
// start, fk_device_init) and what it runs.
struct FkGridTask {
    unsigned posted;
    int pc, proc;
};
__device__ FkGridTask fk_grid_task;
#if FK_USES_GRID_REGIONS
// Whether this block's team runs a grid region now (fk_run_tasks sets it when it takes one;
// fk_runner_idle).
__shared__ int fk_team_on_grid;
#endif
// How long a runner warp naps between looks at fk_team_on_grid (ns, fk_runner_idle).
#ifndef FK_GRID_RUNNER_NAP
#define FK_GRID_RUNNER_NAP 256
#endif

__device__ inline unsigned fk_load_volatile(const unsigned *a) { return *(const volatile unsigned *)a; }

__device__ inline FkFrame *fk_frames(int p) { return fk_d.frames + (fk_u64)p * fk_d.depth; }

// Array 0 holds the members' inputs, array 1 is the leader's working space.
__device__ inline FkSlot *fk_scratch(int g, unsigned array, int rank) {
    return fk_d.scratch + (fk_u64)array * fk_m.procs + fk_d.sync[g].scratch + rank;
}

// The processor's input slot for a collective of its current group.
__device__ inline FkSlot *fk_my_slot(const FkProc *s) { return fk_scratch(s->group, 0, s->rank); }

__device__ void fk_error(int code, int p) {
    if (atomicCAS(&fk_d.error->code, 0, code) == 0) fk_d.error->proc = p;
}

// How many instructions a processor runs between two reads of the stop words (fk_run_proc).
#define FK_STOP_EVERY 16

// Both words are read before either is tested: with `||` the second load waited for the
// first, two trips to L2 in a row.
__device__ inline bool fk_stopped() {
    int site = *(volatile int *)&fk_m.fault->site, code = *(volatile int *)&fk_d.error->code;
    return (site | code) != 0;
}

__device__ FkFrame *fk_push(int p, FkProc *s, int kind, int flags) {
    if (s->sp >= fk_d.depth) {
        fk_error(FK_ERR_FRAMES, p);
        return 0;
    }
    FkFrame *f = fk_frames(p) + s->sp++;
    f->kind = kind;
    f->group = s->group;
    f->rank = s->rank;
    f->seq = s->seq;
    f->slot_base = s->slot_base;
    f->flags = flags;
    f->back = 0;
    f->saved = 0;
    f->step = 0;
    f->index = 0;
    return f;
}

// Pops the top frame; the entry stays readable until the processor pushes again.
__device__ FkFrame *fk_pop(int p, FkProc *s) { return fk_frames(p) + --s->sp; }

__device__ FkFrame *fk_top(int p, FkProc *s) { return fk_frames(p) + s->sp - 1; }

__device__ char *fk_frame_alloc(fk_u64 bytes, int p) {
    if (bytes == 0) return 0;
    fk_u64 n = (bytes + 7) & ~7ull;
    fk_u64 at = atomicAdd(fk_d.frame_heap_top, n);
    if (at + n > fk_d.frame_heap_bytes) {
        fk_error(FK_ERR_FRAME_HEAP, p);
        return 0;
    }
    return fk_d.frame_heap + at;
}

// ---- timestamps ----

// A group instance forms now as a subgroup of `parent`, by the instruction at `pc`: its number.
__device__ unsigned fk_trace_form_at(int parent, int pc, int size, fk_i64 at) {
    if (!fk_t.recs) return 0;
    const FkSync *y = &fk_d.sync[parent];
    return fk_trace_record(atomicAdd(fk_t.count, 1u), (int)y->trace, pc, (int)at, size, at,
                           y->step, fk_now(), 0);
}

// The same in the leader action of the collective at fk_d.sync[parent].trace_pc.
__device__ unsigned fk_trace_form(int parent, int size, fk_i64 at) {
    return fk_t.recs ? fk_trace_form_at(parent, fk_d.sync[parent].trace_pc, size, at) : 0;
}

// An `if` split's subgroup: then (0) or else (1).
__device__ inline void fk_trace_index(int g, int index) {
    if (!fk_t.recs) return;
    unsigned i = fk_d.sync[g].trace;
    if (i < fk_t.cap) fk_t.recs[i].index = index;
}

// Instance number i ends now, unless a later member's leave ends it.
__device__ inline void fk_trace_end(unsigned i) {
    if (fk_t.recs && i < fk_t.cap) atomicMax(&fk_t.recs[i].end, fk_now());
}

// A member leaves group g now; the last one to leave ends it.
__device__ inline void fk_trace_leave(int g) {
    if (fk_t.recs) fk_trace_end(fk_d.sync[g].trace);
}

// Per instruction, what its collective's end means to the trace of asynchronous code (FK_AT_*,
// emitted from transform::plan::Plan::async_at).
__device__ int fk_trace_async_at(int pc);

// A new record of group y's time (FK_REC_ASYNC, FK_REC_BARRIER) from `begin` to `end`.
__device__ unsigned fk_trace_mark(const FkSync *y, int kind, int index, fk_i64 at, fk_u64 begin,
                                  fk_u64 end) {
    unsigned i = fk_trace_record(atomicAdd(fk_t.count, 1u), (int)y->trace, y->trace_pc, index,
                                 kind, at, 0, begin, 0);
    if (i < fk_t.cap) fk_t.recs[i].end = end;
    return i;
}

// --trace: group y of `size` members ends the collective at y->trace_pc now (its leader, once).
// An asynchronous region is the run of its group's collectives inside the region's
// instructions: the first, where the group itself runs it, opens a record (from the group's
// previous collective's end), each one after extends it, a collective outside ends the run.
// A kernel that ends at a `barrier` records it: one record per barrier a group's members
// meet at, not per member.
__device__ __noinline__ void fk_trace_release(FkSync *y, int size) {
    int at = fk_trace_async_at(y->trace_pc);
    unsigned region = (unsigned)(at / FK_AT_REGION);
    fk_u64 now = fk_now();
    if (region && y->async_region == region) {
        if (y->async_rec < fk_t.cap) fk_t.recs[y->async_rec].end = now;
    } else if (region && (at & FK_AT_OPENS)) {
        y->async_region = region;
        y->async_rec = fk_trace_mark(y, FK_REC_ASYNC, (int)region - 1, 0, y->released, now);
    } else {
        y->async_region = 0;
    }
    if (at & FK_AT_BARRIER) fk_trace_mark(y, FK_REC_BARRIER, 0, size, now, now);
    // Barrier phases: the members met where the first (in $$ order) stopped at a barrier
    // waits, as the simulator names the meeting; those stopped at a `start` or `seq` met too.
    if (y->first_barrier != ~0ull)
        fk_trace_mark(y, FK_REC_BARRIER, (int)(unsigned)y->first_barrier, y->stopped, now, now);
    y->first_barrier = ~0ull;
    y->stopped = 0;
    y->released = now;
}

// --trace, barrier phases: after its launch the processor stopped at stop `stop` (1, 2, ...;
// 0: it ran to the end), a `barrier` when `barrier`. Counted for the leader (fk_trace_release).
__device__ void fk_trace_stop(const FkProc *s, fk_i64 stop, bool barrier) {
    if (stop <= 0) return;
    FkSync *y = &fk_d.sync[s->group];
    atomicAdd(&y->stopped, 1u);
    if (barrier) atomicMin(&y->first_barrier, ((fk_u64)(unsigned)s->rank << 32) | (fk_u64)stop);
}

// ---- long kernels on the block's kernel warp ----
// A warp's lanes meet after every pass of the persistent kernel (fk_device_run), so a lane
// that runs a long kernel (one with a loop or a call in it: quicksort's leaf sorts about 250
// keys in 220 us, its copy loops take a small group's member 200 us) holds its warp's other
// 31 processors, the members of other groups, until the kernel ends: a small group's
// interpreter step took 40 to 300 us at the bottom of quicksort_balanced's recursion
// (docs/performance.md, session 31). Where a block has one runner warp (one processor a
// runner thread, P up to 32 a block), the warp after it is the block's kernel warp: runner
// lane l hands such a kernel to its lane l, which runs it while the runner warp goes on
// with its other lanes' processors. The emitter marks the long kernels
// (`emit_cuda::schedule`), and emits their bodies a second time in fk_run_long, which the
// kernel warp calls.
__shared__ bool fk_kernel_warp;  // this block has one (fk_device_run)

// The longest an idle lane of the kernel warp sleeps between two looks (ns). Its looks take
// turns with the lanes that run kernels: quicksort.fork 10^6 at P = 4096 took 828 ms with
// 2048, 796 with 8192, 789 with 32768; quicksort_balanced 168-169 ms with each (H200,
// docs/performance.md, session 32). A nap grows only while the lane finds nothing.
#ifndef FK_KERNEL_WARP_NAP
#define FK_KERNEL_WARP_NAP 8192
#endif
// The processor waits for its kernel warp's lane (waiting FK_WAITS_HANDED, fk_released).
#define FK_WAITS_HANDED 3
// A kernel's phase once handed over: the kernel ran, its end follows (fk_s_end_of_kernel).
#define FK_PHASE_HANDED 64

__device__ void fk_run_long(int p, FkProc *s);

// At a long kernel that processor p runs: true when it handed the kernel to the kernel warp
// and waits (the runner loop posts it after storing the state, fk_device_run); false where
// the block has no kernel warp (it runs the kernel itself).
__device__ inline bool fk_s_hand_over(int p, FkProc *s) {
    if (!fk_kernel_warp) return false;
    s->phase = FK_PHASE_HANDED;
    s->waiting = FK_WAITS_HANDED;
    s->wait_group = p;
    return true;
}

// Whether a waiting processor's barrier has released it. It polls with a plain load and
// acquires only once released: an acquiring load invalidates the SM's L1 cache, which the
// block's task warps, running a region meanwhile, depend on (every region ran 3.5 times
// slower while the runner warps polled with acquiring loads). Once released it reads the
// stop words (`stopping`, fk_stopped) before it acquires, so that both are one trip to L2
// (a turn's loads wait in a row: a pass over 65,536 members took about 5 us a member a
// runner lane, docs/performance.md, session 53). A stop that this read misses is one that
// came just after it: the processor's turn reads the words again (fk_run_proc).
__device__ inline bool fk_released(FkProc *s, bool *stopping) {
    if (s->waiting == FK_WAITS_HANDED) {
        // The kernel warp ran the processor's kernel (fk_run_kernel_warp): `wait_group` is
        // the processor.
        if (fk_load_volatile((const unsigned *)&fk_d.procs[s->wait_group].handed) != 2) return false;
        *stopping = fk_stopped();
        __threadfence();
        s->waiting = 0;
        return true;
    }
    const unsigned *gen = &fk_d.sync[s->wait_group].gen;
    if (fk_load_volatile(gen) == s->wait_gen) return false;
    *stopping = fk_stopped();
    (void)fk_load_acquire(gen);
    s->waiting = 0;
    return true;
}

// Whether the processor runs the current kernel: active, and in `seq` only the present
// member with the smallest $$.
__device__ inline bool fk_runs(int p, const FkProc *s) {
    return fk_m.status[p] == FK_ACTIVE && (!s->seq || s->rank == s->seq - 1);
}

__device__ inline void fk_s_thread(FkThread *th, int p, const FkProc *s, bool sync) {
    const FkGroup &g = fk_m.groups[s->group];
    th->proc = p;
    th->rank = s->rank;
    th->size = g.size;
    th->group = s->group;
    th->dollar = fk_m.dollar[p];
    th->at = g.at;
    th->slot_base = s->slot_base;
    th->launch = 0;
    th->sub = 0;
    th->key = sync ? (unsigned)s->rank : (unsigned)p;
    th->seq = 0;
    th->iters = 0;
    th->sp = s->sp;
    th->key_group = s->group;
    th->step = fk_d.sync[s->group].step;
    th->seen = FkSeen{};
    th->logged = -1;  // a kernel that logs sets it (fk_log_begin); FK_CHECKS 0 has none
    th->conflicts_stop = false;
    th->settled = false;
    th->frame = (char *)g.frame;
    th->frame_id = g.frame_id;
}

__device__ inline fk_i64 fk_s_read(FkVar v, int p, const FkProc *s) {
    return fk_load_int(fk_var_addr(v, s->group, s->slot_base, p), v.size);
}

// The id of the group instance led by `leader` whose owning frame is `d` above the leader's
// current frame height (the leader is waiting in the collective: its height is stable).
__device__ inline int fk_group_id(int leader, int d) {
    return leader * (fk_d.depth + 1) + fk_d.procs[leader].sp + d;
}

// A new group instance: its descriptor and barrier, its scratch slice.
__device__ void fk_new_group(int id, int leader, int parent, int size, fk_i64 at, int frame_id,
                             fk_u64 frame_bytes, fk_u64 scratch) {
    FkGroup *g = &fk_m.groups[id];
    g->at = at;
    g->parent = parent;
    g->size = size;
    g->members = 0;
    g->frame_id = frame_id;
    g->frame = (fk_u64)fk_frame_alloc(frame_bytes, leader);
    FkSync *y = &fk_d.sync[id];
    y->arrived = 0;
    y->step = fk_d.sync[parent].step + 1;  // the parent's step after this collective, +1
    y->value = 0;
    y->aux = 0;
    y->scratch = scratch;
    y->trace = fk_trace_form(parent, size, at);
    if (fk_t.regions) {
        y->released = fk_now();
        y->async_region = 0;
        y->first_barrier = ~0ull;
        y->stopped = 0;
    }
}

// ---- leader actions ----
// Written over a team (FkWarpTeam, FkSoloTeam): a large group's action is run by a whole warp,
// 32 members' inputs at a time (fk_device_run); a small group's by its last arriver alone.

// The first member (in $$ order) whose slot has `flag`: its value, or -1 when there is none.
template <class Team> __device__ fk_i64 fk_first_flagged(const Team &t, int g) {
    int n = fk_m.groups[g].size;
    const FkSlot *sl = fk_scratch(g, 0, 0);
    for (int base = 0; base < n; base += Team::size) {
        int r = base + t.lane;
        bool flag = r < n && sl[r].flag;
        unsigned m = t.ballot(flag);
        if (m) return t.shfl(flag ? sl[r].value : 0, __ffs(m) - 1);
    }
    return -1;
}

template <class Team> __device__ fk_i64 fk_any_flagged(const Team &t, int g) {
    int n = fk_m.groups[g].size;
    const FkSlot *sl = fk_scratch(g, 0, 0);
    for (int base = 0; base < n; base += Team::size) {
        int r = base + t.lane;
        if (t.ballot(r < n && sl[r].flag)) return 1;
    }
    return 0;
}

// `fork`'s subgroups (keys are indexes, @ = the key) by one thread: an open-addressing table
// of the keys, n entries for at most n keys. Only where a key is above 1 (fk_form_groups
// forms keys 0 and 1 over the team, as an `if`'s): one thread took about 0.75 us a member,
// quicksort's top-level fork of 3,827 members 2.9 ms (docs/performance.md, session 32).
__device__ void fk_form_fork_groups(int g, const FkAction &a) {
    int n = fk_m.groups[g].size;
    FkSlot *sl = fk_scratch(g, 0, 0);
    FkSlot *tab = fk_scratch(g, 1, 0);
    for (int i = 0; i < n; i++) tab[i].value = -1;
    for (int r = 0; r < n; r++) {
        fk_i64 key = sl[r].value;
        if (key < 0) continue;
        int h = (int)(key % n);
        while (tab[h].value != -1 && tab[h].value != key) h = (h + 1) % n;
        if (tab[h].value == -1) {
            tab[h].value = key;
            tab[h].proc = sl[r].proc;
            tab[h].result = 0;
        }
        tab[h].result++;
    }
    fk_u64 offset = fk_d.sync[g].scratch;
    for (int h = 0; h < n; h++) {
        if (tab[h].value == -1) continue;
        int leader = tab[h].proc;
        int id = fk_group_id(leader, a.d);
        fk_new_group(id, leader, g, tab[h].result, tab[h].value, a.frame0, a.bytes0, offset);
        tab[h].result2 = id;
        offset += tab[h].result;
        tab[h].result = 0;
    }
    for (int r = 0; r < n; r++) {
        FkResult *m = &fk_d.results[sl[r].proc];
        fk_i64 key = sl[r].value;
        m->value = key;
        if (key < 0) {
            m->group = -1;
            continue;
        }
        int h = (int)(key % n);
        while (tab[h].value != key) h = (h + 1) % n;
        m->rank = tab[h].result++;
        m->group = tab[h].result2;
    }
}

// Forms the subgroups of group g from the members' keys (this collective's slots: key -1 for
// none): consecutive new ranks in $$ order per key, one group instance per key led by its
// first member. Subgroups take consecutive parts of g's scratch slice. `a.d`: how far above
// the leader's current frame height the owning frame will be (1: pushed after this
// collective; 0: already pushed, a loop's). `if` and loop groups have keys 0 and 1, ranked by
// ballots; so has a `fork` whose keys are 0 and 1 (its subgroups' @ their keys, all on
// frame0), and one with a larger key is formed again by one thread (fk_form_fork_groups,
// which writes every member's result over the ballots').
// Not inlined: a split and a loop entry both form groups (the team and the action by value,
// fk_fault_v); ptxas takes much longer on one large function than on its parts.
template <class Team> __device__ __noinline__ void fk_form_groups(Team t, int g, FkAction a) {
    bool beyond = false;  // a fork's key above 1
    int n = fk_m.groups[g].size;
    const FkSlot *sl = fk_scratch(g, 0, 0);
    int count[2] = {0, 0}, leader[2] = {-1, -1}, id[2] = {-1, -1};
    unsigned before = (1u << t.lane) - 1;
    constexpr int U = Team::unroll;
    for (int base0 = 0; base0 < n; base0 += U * Team::size) {
        // The slots of U batches are loaded together, so that their latencies overlap.
        fk_i64 keys[U];
        int procs[U];
#pragma unroll
        for (int u = 0; u < U; u++) {
            int r = base0 + u * Team::size + t.lane;
            keys[u] = r < n ? sl[r].value : -1;
            procs[u] = r < n ? sl[r].proc : -1;
        }
#pragma unroll
        for (int u = 0; u < U; u++) {
        int r = base0 + u * Team::size + t.lane;
        fk_i64 key = keys[u];
        int proc = procs[u];
        int rank = 0, group = -1;
        beyond |= key > 1;
        for (int k = 0; k < 2; k++) {
            unsigned m = t.ballot(key == k);
            if (!m) continue;
            if (leader[k] < 0) {
                leader[k] = t.shfl(proc, __ffs(m) - 1);
                id[k] = fk_group_id(leader[k], a.d);
            }
            if (key == k) {
                rank = count[k] + __popc(m & before);
                group = id[k];
            }
            count[k] += __popc(m);
        }
        if (r < n) {
            FkResult *res = &fk_d.results[proc];
            res->value = key;
            res->group = group;
            if (key >= 0) res->rank = rank;
        }
        }
    }
    if (a.fork && t.ballot(beyond)) {
        t.sync();  // the lanes' results before lane 0 writes them again
        if (t.lane == 0) fk_form_fork_groups(g, a);
        return;
    }
    if (t.lane == 0) {
        fk_i64 at = fk_m.groups[g].at;
        fk_u64 offset = fk_d.sync[g].scratch;
        for (int k = 0; k < 2; k++) {
            if (count[k] == 0) continue;
            bool second = k && !a.fork;
            fk_new_group(id[k], leader[k], g, count[k], a.fork ? k : at,
                         second ? a.frame1 : a.frame0, second ? a.bytes1 : a.bytes0, offset);
            offset += count[k];
            if (!a.fork) fk_trace_index(id[k], k);
        }
    }
}

// A call: the first active member (-1: none, the call is skipped), each member's flag, and
// the callee's group (the same members and ranks, a new shared frame).
template <class Team> __device__ void fk_form_call_group(const Team &t, int g, const FkAction &a) {
    FkSync *y = &fk_d.sync[g];
    fk_i64 first = fk_first_flagged(t, g);
    if (t.lane == 0) y->value = first;
    if (first < 0) return;
    int n = fk_m.groups[g].size;
    const FkSlot *sl = fk_scratch(g, 0, 0);
    // The slots of U batches are loaded together, so that their latencies overlap: loaded one
    // at a time (each store's address waits for its load) a call of a group of 65,536 members
    // took its warp 0.93 ms, 2,048 trips to L2 a lane (docs/performance.md, session 53). The
    // loop keeps only two words a batch, so its batches are four times fk_form_groups'.
    constexpr int U = 4 * Team::unroll;
    for (int base = 0; base < n; base += U * Team::size) {
        int procs[U], flags[U];
#pragma unroll
        for (int u = 0; u < U; u++) {
            int r = base + u * Team::size + t.lane;
            procs[u] = r < n ? sl[r].proc : -1;
            flags[u] = r < n ? sl[r].flag : 0;
        }
#pragma unroll
        for (int u = 0; u < U; u++)
            if (procs[u] >= 0) fk_d.results[procs[u]].value = flags[u];
    }
    if (t.lane == 0) {
        int leader = sl[0].proc;
        int id = fk_group_id(leader, 1);
        fk_new_group(id, leader, g, n, fk_m.groups[g].at, a.frame0, a.bytes0, y->scratch);
        y->aux = id;
    }
}

// A synchronous multiprefix: the flagged members' operands combined per cell in $$ order
// (which is __PROC_NR__ order in every group), each getting the exclusive prefix.
// Not inlined, as fk_form_groups.
template <class Team> __device__ __noinline__ void fk_combine_multiprefix(Team t, int g, int op) {
    int n = fk_m.groups[g].size;
    const FkSlot *sl = fk_scratch(g, 0, 0);
    // The usual case is one cell for the whole group (`mpadd(&count, 1)`): the team keeps that
    // cell's value in a register from batch to batch and scans each batch with shuffles, so no
    // batch waits for the previous one's store. A batch on several cells flushes it and takes
    // the cell-by-cell step.
    fk_u64 held = 0;
    int value = 0;
    constexpr int U = Team::unroll;
    for (int base0 = 0; base0 < n; base0 += U * Team::size) {
        // The slots of U batches are loaded together, so that their latencies overlap.
        FkSlot in[U];
#pragma unroll
        for (int u = 0; u < U; u++) {
            int r = base0 + u * Team::size + t.lane;
            in[u].flag = 0;
            if (r < n) in[u] = sl[r];
        }
#pragma unroll
        for (int u = 0; u < U; u++) {
        int r = base0 + u * Team::size + t.lane;
        bool flag = r < n && in[u].flag;
        fk_u64 cell = flag ? (fk_u64)in[u].aux : 0;
        int v = flag ? (int)in[u].value : 0;
        unsigned m = t.ballot(flag);
        int acc = 0;
        if (m) {
            fk_u64 first = t.shfl(cell, __ffs(m) - 1);
            if (!t.ballot(flag && cell != first)) {
                if (held != first) {
                    if (held && t.lane == 0) *(int *)held = value;
                    t.sync();
                    value = t.shfl(t.lane == 0 ? *(int *)first : 0, 0);
                    held = first;
                }
                int incl = flag ? v : fk_identity(op);
                for (unsigned d = 1; d < (unsigned)Team::size; d <<= 1) {
                    int below = t.shfl_up(incl, d);
                    if ((unsigned)t.lane >= d) incl = fk_combine(below, incl, op);
                }
                int before = t.shfl_up(incl, 1u);
                acc = t.lane == 0 ? value : fk_combine(value, before, op);
                value = fk_combine(value, t.shfl(incl, Team::size - 1), op);
            } else {
                if (held && t.lane == 0) *(int *)held = value;
                held = 0;
                t.sync();
                acc = fk_mp_lanes(t, flag, cell, v, op);
                t.sync();  // the next lanes on a cell read what this batch wrote
            }
        }
        if (r < n) {
            FkResult *res = &fk_d.results[in[u].proc];
            res->group = flag;
            if (flag) res->value = acc;
        }
        }
    }
    if (held && t.lane == 0) *(int *)held = value;
}

// --crcw common at a kernel's end. A group of up to FK_CHECK_LEADER_MAX members checks in the
// leader action, before the step is over; the members of a larger group check their own
// writes between the step's barrier and a second one (fk_s_end_of_kernel): one warp checking
// 65,536 members took 19 ms a step (docs/device-schedule.md), a second barrier costs a few µs.
#define FK_CHECK_LEADER_MAX 32

// The leader action: each member's writes of the step are checked (fk_common_check), the
// members spread over the team's lanes; of several faults the record keeps the lowest
// processor's. A fault's order key is the step's: the members of g share their frames' path,
// and each stored its frame height on arriving (fk_arrive), so member 0's state gives it.
template <class Team> __device__ void fk_s_common_check(const Team &t, int g) {
    if (!fk_common.writes) return;
    const FkSlot *sl = fk_scratch(g, 0, 0);
    FkProc s = fk_d.procs[sl[0].proc];
    s.group = g;
    FkThread th;
    fk_s_thread(&th, sl[0].proc, &s, true);
    fk_u64 tag = fk_step_tag(&th);
    for (int r = t.lane; r < fk_m.groups[g].size && !fk_faulted(); r += Team::size) {
        th.proc = sl[r].proc;
        fk_common_check(th, tag);
    }
}

// Once per collective, by one thread or warp: not inlined into every instruction that arrives
// at a barrier (the team and the action by value, fk_fault_v).
template <class Team> __device__ __noinline__ void fk_leader(Team t, int g, FkAction a) {
    FkSync *y = &fk_d.sync[g];
    switch (a.kind) {
    case FK_ACT_FIRST: {
        fk_i64 v = fk_first_flagged(t, g);
        if (t.lane == 0) y->value = v;
        break;
    }
    case FK_ACT_ANY: {
        fk_i64 v = fk_any_flagged(t, g);
        if (t.lane == 0) y->value = v;
        break;
    }
    case FK_ACT_SPLIT: fk_form_groups(t, g, a); break;
    case FK_ACT_LOOP_ENTER: {
        fk_i64 v = fk_any_flagged(t, g);
        if (t.lane == 0) y->value = v;
        fk_form_groups(t, g, a);
        break;
    }
    case FK_ACT_CALL: fk_form_call_group(t, g, a); break;
    case FK_ACT_START:
        if (t.lane == 0) {
            int id = fk_group_id(0, 1);
            fk_new_group(id, 0, g, fk_m.procs, 0, a.frame0, a.bytes0, y->scratch);
            y->aux = id;
        }
        break;
#if FK_USES_MULTIPREFIX  // the largest action: compiled only for programs that have one
    case FK_ACT_MULTIPREFIX: fk_combine_multiprefix(t, g, a.op); break;
#endif
    case FK_ACT_COMMON_CHECK: fk_s_common_check(t, g); break;
    default: break;
    }
}

// The end of a collective: the next step, and the waiting members go on.
__device__ void fk_release(FkSync *y, int size) {
    if (fk_t.regions) fk_trace_release(y, size);
    y->step++;
    y->arrived = 0;
    fk_add_release(&y->gen, 1u);
}

// Counts an arrival at a group's barrier; returns how many members arrived before. The lanes
// of a warp that arrive at one group together count with one atomic (a group of 65,536
// members is 2,048 atomics on its counter, not 65,536): the lanes meet (their inputs ordered
// before the first lane's release), the first lane adds them all, and each takes its index.
__device__ inline unsigned fk_arrival_index(unsigned *counter, int g) {
#ifdef FK_EMU
    (void)g;
    return fk_add_acq_rel(counter, 1u);
#else
    unsigned same = __match_any_sync(__activemask(), g);
    int lane = threadIdx.x & 31, first = __ffs(same) - 1;
    __syncwarp(same);
    unsigned before = 0;
    if (lane == first) before = fk_add_acq_rel(counter, (unsigned)__popc(same));
    before = __shfl_sync(same, before, first);
    __syncwarp(same);  // the first lane's acquire, for the lane that turns out last
    return before + (unsigned)__popc(same & ((1u << lane) - 1));
#endif
}

// Groups up to this size run their leader action in the last arriver's thread.
#define FK_SOLO_MAX 8

// The block a region task goes to: one whose team waits with an empty list (its bit in
// fk_d.idle, which the claim clears), else the next in turn (`fk_d.task_posts`), or with
// `idle_only` none (-1). A task
// posted to a busy block waits for the tasks before it, and those of the groups beside
// quicksort's critical path (their partition loops, each whole in one task) run for
// milliseconds (docs/device-schedule.md, "The task warps").
__device__ int fk_task_block(bool idle_only) {
    int words = (gridDim.x + 31) / 32;
    for (int w = 0; w < words; w++) {
        unsigned bits = *(volatile unsigned *)&fk_d.idle[w];
        while (bits) {
            int b = __ffs(bits) - 1;
            unsigned was = (unsigned)atomicAnd(&fk_d.idle[w], (int)~(1u << b));
            if (was & (1u << b)) return w * 32 + b;
            bits = was & ~(1u << b);
        }
    }
    return idle_only ? -1 : (int)(atomicAdd(fk_d.task_posts, 1u) % gridDim.x);
}

// The last member to arrive at a `region` posts it as a task: the task warps of one block
// run it and release the group. The posts go to idle blocks first, else to the blocks in
// turn (fk_task_block), so that sibling groups, whose last members often arrive in one
// block (quicksort's groups after a few levels of `fork` each have members in every
// block), run their regions side by side. The region's inner groups take the ids of the group's leader's free frames
// (fk_group_id), so they must fit above its frame height; a region that does not fit runs
// instruction by instruction. The group's `value` tells its members which (1: posted; 0: one
// by one, fk_s_region).
__device__ bool fk_region_fits(int g, int groups) {
    int leader = fk_scratch(g, 0, 0)->proc;
    return fk_d.procs[leader].sp + groups <= fk_d.depth;
}

// `solo`: the group has one member. It takes an idle block's team or none: it must not wait
// behind another group's task, nor make one wait, where its own thread can run the
// instructions one by one (fk_s_region; on a team its step costs about a third as much,
// session 42).
__device__ bool fk_post_region(int p, FkProc *s, int g, int groups, bool solo) {
    int block = fk_region_fits(g, groups) ? fk_task_block(solo) : -1;
    fk_d.sync[g].value = block >= 0;
    if (block < 0) return false;
    int *tasks = &fk_d.tasks[block];
    // The task warps may take the task at once: the state they read (its pc, group, slot
    // frame) and its link are in memory before the task is in the list.
    int head = *(volatile int *)tasks;
    for (;;) {
        s->next_task = head;
        fk_d.procs[p] = *s;
        __threadfence();
        int was = atomicCAS(tasks, head, p);
        if (was == head) return true;
        head = was;
    }
}

// The last member to arrive at a grid region (fk_s_region) posts it to every block's team:
// its group holds every processor, and all of them wait for it. The state the teams read (the
// poster's group, slot frame, frame height) is in memory before the post. As a block
// region's, the inner groups of its splits must fit above the leader's frame height
// (fk_region_fits); where they do not, the instructions run one by one.
__device__ bool fk_post_grid(int p, FkProc *s, int g, int groups, int pc) {
    bool fits = fk_region_fits(g, groups);
    fk_d.sync[g].value = fits;
    if (!fits) return false;
    fk_d.procs[p] = *s;
    fk_grid_task.pc = pc;
    fk_grid_task.proc = p;
    __threadfence();
    atomicAdd(&fk_grid_task.posted, 1u);
    return true;
}

// Arrives at group g's barrier. The last member runs the leader action `a` and releases the
// others, or, in a group larger than FK_SOLO_MAX, leaves the action to its warp (waiting = 2:
// fk_device_run's warp runs it after the pass) and waits like the others. Returns true when
// the processor must wait (its thread goes on with its other processors).
__device__ bool fk_arrive(int p, FkProc *s, int g, const FkAction &a) {
    FkSync *y = &fk_d.sync[g];
    // The generation is read before arriving (the release order of the arrival keeps it so),
    // and the arrival publishes this member's inputs and, for the last, acquires the others'.
    // Read with the group's size, in one trip to L2 (a group of one does not use it).
    unsigned gen = fk_load_volatile(&y->gen);
    int n = fk_m.groups[g].size;
    // A processor runs from a copy of its state (fk_device_run); the leader reads only its
    // frame height.
    fk_d.procs[p].sp = s->sp;
    // The instruction the leader action's new groups are formed by.
    if (fk_t.recs) y->trace_pc = s->pc;
    if (n == 1 && a.kind != FK_ACT_REGION) {
        // A group of one processor: no barrier, nobody to release (a region task's block
        // releases it, as any group's: below).
        if (a.kind != FK_ACT_NONE) fk_leader(FkSoloTeam{0}, g, a);
        if (fk_t.regions) fk_trace_release(y, 1);
        y->step++;
        return false;
    }
    bool last = fk_arrival_index(&y->arrived, g) == (unsigned)n - 1;
    bool owes = false;
    if (last && a.kind == FK_ACT_REGION) {
        // The block that runs the region releases the group (fk_run_task).
        if (!fk_post_region(p, s, g, a.d, n == 1)) {
            fk_release(y, n);
            return false;
        }
    } else if (last && a.kind == FK_ACT_GRID) {
        // Block 0's team releases the group (fk_run_grid_task).
        if (!fk_post_grid(p, s, g, a.d, a.op)) {
            fk_release(y, n);
            return false;
        }
    } else if (last && (a.kind == FK_ACT_NONE || n <= FK_SOLO_MAX)) {
        if (a.kind != FK_ACT_NONE) fk_leader(FkSoloTeam{0}, g, a);
        fk_release(y, n);
        return false;
    } else if (last) {
        y->action = a;
        owes = true;
    }
    s->waiting = owes ? 2 : 1;
    s->wait_group = g;
    s->wait_gen = gen;
    return true;
}

// The leader action a processor of the warp left (fk_arrive), run by the whole warp.
__device__ void fk_run_owed_action(const FkWarpTeam &t, int g) {
    FkSync *y = &fk_d.sync[g];
    __threadfence();
    FkAction a = y->action;
    fk_leader(t, g, a);
    __threadfence();
    t.sync();
    if (t.lane == 0) fk_release(y, fk_m.groups[g].size);
    t.sync();
}

__device__ inline bool fk_barrier(int p, FkProc *s, int g) {
    return fk_arrive(p, s, g, FkAction{FK_ACT_NONE});
}

// ---- instructions (each returns true when the processor waits) ----
// They are inlined into fk_run_proc's case per instruction. Not inlined (a call each) they
// took the address of the processor's state `s`, which then lived in local memory: the
// sieve's device schedule ran 7% slower on the H100 for half the compile time
// (docs/performance.md). The leader actions they reach stay calls.

// The step of a thread's output order key: its group's step, or inside a block region the
// region's group's step at the region's start plus the segments run since (fk_region_end
// moves the group's step past them).
__device__ inline unsigned fk_th_step(const FkThread *th) { return th->step + th->sub; }

// The step a write belongs to: its group instance and the group's step.
__device__ fk_u64 fk_step_tag(const FkThread *th) {
    return ((fk_u64)th->key_group << 32) | fk_th_step(th);
}

// A block region of group g (fk_device.cuh): its records' times are %globaltimer's, and its
// group's record is the parent of those it forms.
__device__ FkRegion fk_region(int g, fk_u64 slot_base, unsigned launch) {
    if (fk_t.regions && fk_team_tid() == 0) {
        fk_r_trace() = FkRegionTrace{0, fk_d.sync[g].trace};
        fk_r_async() = FkRegionAsync{0, ~0u, fk_now()};
    }
    return FkRegion{slot_base, launch, 0, g, fk_d.sync[g].step};
}

// A block region's member as a thread of segment `sub` (fk_device.cuh): its frame height,
// which it stored when it arrived at the region (fk_arrive), and the region's group.
__device__ void fk_region_thread(FkThread *th, const FkRegion &r, unsigned sub) {
    th->sub = sub;
    th->iters = 0;
    th->settled = r.settled;
    th->sp = fk_d.procs[th->proc].sp;
    th->key_group = r.group;
    th->step = r.step;
}

// The region's segments were steps of its group: the group's step goes on after them.
__device__ void fk_region_end(const FkRegion &r) {
    if (fk_team_tid() == 0) fk_d.sync[r.group].step += r.sub;
}

// --crcw common, a member of a group larger than FK_CHECK_LEADER_MAX after the step's barrier:
// its own writes of the step are checked. Every writer of the step has ended it, and none
// goes on before the group's second barrier. The release moved the group's step past the
// one checked, so the thread's `sub` counts one back (fk_th_step): the step's tag and, for a
// fault, its order key. Cold: not inlined, and the state by value (fk_drains).
__device__ __noinline__ void fk_s_check_own_writes(int p, FkProc s) {
    FkThread th;
    fk_s_thread(&th, p, &s, true);
    th.sub = ~0u;
    fk_common_check(th, fk_step_tag(&th));
}

// Launch: the kernel's body ran for the processor (the emitted code calls it); the group's
// barrier ends the step (`check`: with the --crcw common check of the kernel's writes, a
// leader action or, in a larger group, each member's own between two barriers).
__device__ bool fk_s_end_of_kernel(int p, FkProc *s, int next, int check) {
    int g = s->group;
    bool own = check && fk_common.writes && fk_m.groups[g].size > FK_CHECK_LEADER_MAX;
    if (s->phase == 0 || s->phase == FK_PHASE_HANDED) {
        s->phase = 1;
        bool leader = check && !own;
        if (leader) fk_my_slot(s)->proc = p;
        if (fk_arrive(p, s, g, FkAction{leader ? FK_ACT_COMMON_CHECK : FK_ACT_NONE})) return true;
    }
    if (s->phase == 1 && own) {
        s->phase = 2;
        fk_s_check_own_writes(p, *s);
        if (fk_barrier(p, s, g)) return true;
    }
    s->phase = 0;
    s->pc = next;
    return false;
}

// Branch on a shared condition: the first active member's value.
__device__ bool fk_s_branch(int p, FkProc *s, FkVar cond, int next, int els, int end) {
    if (s->phase == 0) {
        FkSlot *m = fk_my_slot(s);
        m->flag = fk_runs(p, s);
        m->value = m->flag ? fk_s_read(cond, p, s) != 0 : 0;
        s->phase = 1;
        int g = s->group;
        if (fk_arrive(p, s, g, FkAction{FK_ACT_FIRST})) return true;
    }
    fk_i64 v = fk_d.sync[s->group].value;
    s->phase = 0;
    s->pc = v < 0 ? end : v ? next : els;
    return false;
}

// Split{if|fork}: the subgroups form; each member pushes a split frame and goes to its arm;
// a member in no subgroup waits at the restore (the parent's next barrier).
__device__ bool fk_s_split(int p, FkProc *s, int fork, FkVar key, FkVar count,
                                        int set_dollar, FkVar dollar, int frame0, fk_u64 bytes0,
                                        int frame1, fk_u64 bytes1, int arm0, int arm1, int end) {
    if (s->phase == 0) {
        FkSlot *m = fk_my_slot(s);
        fk_i64 k = -1;
        if (fk_runs(p, s)) {
            fk_i64 v = fk_s_read(key, p, s);
            if (!fork) k = v != 0 ? 0 : 1;
            else if (v >= 0 && v < fk_s_read(count, p, s)) k = v;
        }
        m->value = k;
        m->proc = p;
        s->phase = 1;
        int g = s->group;
        FkAction a{FK_ACT_SPLIT, 1, fork, frame0, frame1, 0, bytes0, bytes1};
        if (fk_arrive(p, s, g, a)) return true;
    }
    if (s->phase == 1) {
        int g = s->group;
        const FkResult &m = fk_d.results[p];
        if (m.group < 0) {
            // In no subgroup: straight to the restore.
            s->phase = 2;
            if (fk_barrier(p, s, g)) return true;
        } else {
            FkFrame *f = fk_push(p, s, FK_FRAME_SPLIT, FK_FLAG_PATH);
            if (!f) return true;
            f->back = end;
            f->step = fk_d.sync[g].step - 1;
            f->index = (unsigned)m.value;
            if (fork && set_dollar) {
                f->flags |= FK_FLAG_DOLLAR;
                f->saved = fk_m.dollar[p];
                fk_m.dollar[p] = fk_s_read(dollar, p, s);
            }
            s->group = m.group;
            s->rank = m.rank;
            s->phase = 0;
            s->pc = fork || m.value == 0 ? arm0 : arm1;
            return false;
        }
    }
    s->phase = 0;
    s->pc = end;
    return false;
}

// The end of a split arm: back to the parent group, which is restored by its barrier.
__device__ bool fk_s_subgroup_end(int p, FkProc *s) {
    if (s->phase == 0) {
        fk_trace_leave(s->group);
        FkFrame *f = fk_pop(p, s);
        if (f->flags & FK_FLAG_DOLLAR) fk_m.dollar[p] = f->saved;
        s->group = f->group;
        s->rank = f->rank;
        s->phase = 1;
        if (fk_barrier(p, s, s->group)) return true;
    }
    s->phase = 0;
    s->pc = fk_frames(p)[s->sp].back;
    return false;
}

// The participants are the members that run kernels (fk_runs): inside a `seq` only its one
// member, whose kernels compute the loop's condition (the others' copies of it are stale).
__device__ bool fk_s_loop_begin(int p, FkProc *s, int next) {
    int flags = fk_runs(p, s) ? FK_FLAG_PARTICIPANT : 0;
    if (!fk_push(p, s, FK_FRAME_LOOP, flags)) return true;
    s->pc = next;
    return false;
}

// Loop entry: the exit update of a test-first loop, then the loop group (the participants
// still active for a private condition; the whole group for a shared one).
__device__ bool fk_s_loop_enter(int p, FkProc *s, int test_first, int has_cond,
                                             FkVar cond, int forms_group, int frame, fk_u64 bytes,
                                             int next, int exit) {
    FkFrame *f = fk_top(p, s);
    int g = s->group;
    if (s->phase == 0) {
        bool part = f->flags & FK_FLAG_PARTICIPANT;
        if (test_first && has_cond && part && fk_m.status[p] == FK_ACTIVE &&
            fk_s_read(cond, p, s) == 0)
            fk_m.status[p] = FK_BREAK;
        bool running = part && fk_m.status[p] == FK_ACTIVE;
        FkSlot *m = fk_my_slot(s);
        m->value = forms_group ? (running ? 0 : -1) : 0;
        m->proc = p;
        m->flag = running;
        s->phase = 1;
        FkAction a{FK_ACT_LOOP_ENTER, 0, 0, frame, frame, 0, bytes, bytes};
        if (fk_arrive(p, s, g, a)) return true;
    }
    bool running = fk_d.sync[g].value != 0;
    s->phase = 0;
    const FkResult &m = fk_d.results[p];
    if (m.group >= 0) {
        f->flags |= FK_FLAG_IN_LOOP | FK_FLAG_PATH;
        f->step = fk_d.sync[g].step - 1;
        s->group = m.group;
        s->rank = m.rank;
        s->pc = running ? next : exit;
    } else {
        s->pc = exit;
    }
    return false;
}

// After the body: members that left by `continue` are active again.
__device__ void fk_s_loop_next(int p, FkProc *s, int next) {
    if (fk_top(p, s)->flags & FK_FLAG_PARTICIPANT) fk_status_from(p, FK_CONTINUE, FK_ACTIVE);
    s->pc = next;
}

// The loop-exit update and the all-exited test, in the loop group. Its $$ 0 member counts
// the iterations and tests the limits (fk_limit; `site` is the loop's).
__device__ bool fk_s_loop_latch(int p, FkProc *s, int has_cond, FkVar cond, int body,
                                             int next, int site) {
    int g = s->group;
    if (s->phase == 0) {
        FkFrame *f = fk_top(p, s);
        fk_u64 it = (fk_u64)++f->saved;
        if (s->rank == 0 &&
            ((fk_limits.max_steps && it > fk_limits.max_steps) || (it & 1023) == 0)) {
            FkThread th;
            fk_s_thread(&th, p, s, true);
            if (fk_limit(it, site, th)) return true;
        }
        bool part = f->flags & FK_FLAG_PARTICIPANT;
        if (has_cond && part && fk_m.status[p] == FK_ACTIVE && fk_s_read(cond, p, s) == 0)
            fk_m.status[p] = FK_BREAK;
        fk_my_slot(s)->flag = part && fk_m.status[p] == FK_ACTIVE;
        s->phase = 1;
        if (fk_arrive(p, s, g, FkAction{FK_ACT_ANY})) return true;
    }
    s->phase = 0;
    s->pc = fk_d.sync[g].value ? body : next;
    return false;
}

// The loop's end: members that left by `break` are active again; the enclosing group is
// restored by its barrier (members that never entered the loop wait there).
__device__ bool fk_s_loop_end(int p, FkProc *s, int next) {
    if (s->phase == 0) {
        FkFrame *f = fk_pop(p, s);
        if (f->flags & FK_FLAG_IN_LOOP) fk_trace_leave(s->group);
        if (f->flags & FK_FLAG_PARTICIPANT) fk_status_from(p, FK_BREAK, FK_ACTIVE);
        s->group = f->group;
        s->rank = f->rank;
        s->phase = 1;
        if (fk_barrier(p, s, s->group)) return true;
    }
    s->phase = 0;
    s->pc = next;
    return false;
}

// Whether a group of n members runs the grid region at pc `grid` (-1: a block region) on every
// block's team: a group of every processor of the run (so that no other group runs beside
// it, and every team is free to meet the grid barriers) with a member for every block (a
// block decides from its own members, fk_g_decide), unless `--trace` records the groups
// that regions form (a grid region's splits would record them on block 0 only; they run one
// by one then). `--stats` records none (a region holds no call).
__device__ inline bool fk_runs_grid(int grid, int n) {
    return grid >= 0 && n >= 2 && n >= (int)gridDim.x && n == fk_m.procs && !fk_t.regions;
}

// How a group of n members runs a region (fk_s_region's `shares_threads` and `grid`): on
// every block's team (2), on one block (1), or one by one (0), where its members meet at no
// barrier at the region.
__device__ inline int fk_region_task(int n, int shares_threads, int grid) {
    if (fk_runs_grid(grid, n)) return 2;
    return n >= FK_REGION_TASK_MIN && n <= (shares_threads ? FK_REGION_TASK_MAX : fk_team_size());
}

// A call, step 1: the callee's group (the same members and ranks, a new shared frame), unless
// no member is active. Returns 1 to go on with the arguments, 0 when the call is skipped
// (`s->pc` is the next instruction), -1 when the processor waits.
__device__ int fk_s_call_begin(int p, FkProc *s, int frame, fk_u64 bytes, int next) {
    int g = s->group;
    if (s->phase == 0) {
        FkSlot *m = fk_my_slot(s);
        m->flag = fk_runs(p, s);
        m->value = s->rank;
        m->proc = p;
        s->phase = 1;
        FkAction a{FK_ACT_CALL, 1, 0, frame, frame, 0, bytes, bytes};
        if (fk_arrive(p, s, g, a)) return -1;
    }
    if (fk_d.sync[g].value < 0) {
        s->phase = 0;
        s->pc = next;
        return 0;
    }
    return 1;
}

// Whether the processor was active at the call (it copies its arguments and takes the
// result), and whether it is the first active member (it writes the `sh` arguments).
__device__ inline bool fk_s_call_active(int p, const FkProc *) { return fk_d.results[p].value != 0; }
__device__ inline bool fk_s_call_first(int, const FkProc *s) {
    return fk_d.sync[s->group].value == s->rank;
}

// Copies a variable between two activations (arguments into parameters, the result back).
__device__ void fk_s_copy(int p, FkVar src, int src_group, fk_u64 src_base, FkVar dst,
                          int dst_group, fk_u64 dst_base) {
    const char *a = fk_var_addr(src, src_group, src_base, p);
    char *b = fk_var_addr(dst, dst_group, dst_base, p);
    for (fk_u64 i = 0; i < dst.size; i++) b[i] = a[i];
}

// Step 2, after the emitted argument copies: enter the callee's group and frame, and meet
// there, so that the `sh` arguments are written before the callee reads them. Where the
// callee starts with a region (`region_shares`, `region_grid`: fk_s_region's arguments; -1:
// it does not) that the group runs as a task, its members meet at the region first, which
// orders the copies as well: one pass over the members fewer (Hillis-Steele 2^20 at P =
// 65,536: 24 us of its 414, docs/performance.md, session 52). A call for which the
// processors' frames or slot stacks have no room is a recursion fault at the call's `site`,
// of the group's $$ 0 member (the others stop with the run).
__device__ bool fk_s_call_enter(int p, FkProc *s, fk_u64 caller_frame, fk_u64 callee_frame,
                                int call_pc, int entry, int site, int region_shares,
                                int region_grid) {
    int g = s->group;
    if (s->phase == 1) {
        int flags = FK_FLAG_PATH | (fk_d.results[p].value ? FK_FLAG_ACTIVE : 0);
        if (s->slot_base + caller_frame + callee_frame > fk_d.slot_stack_bytes ||
            s->sp >= fk_d.depth) {
            if (s->rank == 0) {
                FkThread th;
                fk_s_thread(&th, p, s, true);
                fk_limit_fault(FK_LIMIT_DEPTH, site, th);
            }
            return true;
        }
        FkFrame *f = fk_push(p, s, FK_FRAME_CALL, flags);
        if (!f) return true;
        f->back = call_pc;
        f->step = fk_d.sync[g].step - 1;
        s->group = (int)fk_d.sync[g].aux;
        s->slot_base += caller_frame;
        s->phase = 2;
        bool meets_at_region =
            region_shares >= 0 &&
            fk_region_task(fk_m.groups[s->group].size, region_shares, region_grid) != 0;
        if (!meets_at_region && fk_barrier(p, s, s->group)) return true;
    }
    s->phase = 0;
    s->pc = entry;
    return false;
}

// `Ret`: back at the Call (phase 3 copies the result), or the end of the processor's run.
__device__ void fk_s_ret(int p, FkProc *s) {
    // The callee's group, or at the end of main the root group.
    fk_trace_leave(s->group);
    if (s->sp == 0) {
        s->done = 1;
        return;
    }
    FkFrame *f = fk_pop(p, s);
    if ((f->flags & FK_FLAG_ACTIVE) && fk_m.status[p] == FK_RETURN) fk_m.status[p] = FK_ACTIVE;
    s->group = f->group;
    s->rank = f->rank;
    s->seq = f->seq;
    s->pc = f->back;
    s->phase = 3;
}

// Back at the Call: whether the processor takes the result (it was active at the call); the
// callee's slot stack height is still `s->slot_base` until fk_s_call_done.
__device__ bool fk_s_call_returned(int p, const FkProc *s) {
    return fk_frames(p)[s->sp].flags & FK_FLAG_ACTIVE;
}

__device__ void fk_s_call_done(int p, FkProc *s, int next) {
    s->slot_base = fk_frames(p)[s->sp].slot_base;
    s->phase = 0;
    s->pc = next;
}

// `seq`: one collective finds the present member with the smallest $$, the one that runs
// the body (`seq` is that $$ + 1 while inside).
__device__ bool fk_s_seq_begin(int p, FkProc *s, int next) {
    int g = s->group;
    if (s->phase == 0) {
        FkSlot *m = fk_my_slot(s);
        m->flag = fk_m.status[p] == FK_ACTIVE;
        m->value = s->rank;
        s->phase = 1;
        if (fk_arrive(p, s, g, FkAction{FK_ACT_FIRST})) return true;
    }
    FkFrame *f = fk_push(p, s, FK_FRAME_SEQ, 0);
    if (!f) return true;
    s->seq = (int)fk_d.sync[g].value + 1;
    // The member that runs the body times it as an instance of one processor (`--trace`),
    // after the release, so with its own pc (the others may have arrived at the group's next
    // collective and set trace_pc). A seq frame is no element of the order key, so its
    // `index` keeps the record's number.
    if (s->rank == s->seq - 1) f->index = fk_trace_form_at(g, s->pc, 1, fk_m.groups[g].at);
    s->phase = 0;
    s->pc = next;
    return false;
}

__device__ void fk_s_seq_end(int p, FkProc *s, int next) {
    const FkFrame *f = fk_pop(p, s);
    if (s->rank == s->seq - 1) fk_trace_end(f->index);
    s->seq = f->seq;
    s->pc = next;
}

// `start`: all processors form the root group of the synchronous region ($ = $$ =
// __PROC_NR__, @ = 0).
__device__ bool fk_s_start(int p, FkProc *s, int frame, fk_u64 bytes, int next) {
    int g = s->group;
    if (s->phase == 0) {
        s->phase = 1;
        FkAction a{FK_ACT_START, 1, 0, frame, frame, 0, bytes, bytes};
        if (fk_arrive(p, s, g, a)) return true;
    }
    FkFrame *f = fk_push(p, s, FK_FRAME_START, FK_FLAG_PATH);
    if (!f) return true;
    f->step = fk_d.sync[g].step - 1;
    s->group = (int)fk_d.sync[g].aux;
    s->rank = p;
    s->seq = 0;
    fk_m.dollar[p] = p;
    s->phase = 0;
    s->pc = next;
    return false;
}

__device__ void fk_s_start_end(int p, FkProc *s, int next) {
    fk_trace_leave(s->group);
    FkFrame *f = fk_pop(p, s);
    s->group = f->group;
    s->rank = f->rank;
    s->seq = f->seq;
    s->pc = next;
}

// `region`: a group of every processor runs a grid region (`grid`: its pc) on every block's
// team (fk_runs_grid; fk_post_grid, fk_run_grid_task), as the host schedule launches it
// over every SM: on one block, Hillis–Steele 2^20 at P = 1024 took 8.9 ms where the host
// schedule's grid region took 3.6 ms (docs/device-schedule.md). Otherwise a group of FK_REGION_TASK_MIN to FK_REGION_TASK_MAX
// members (a group of one only where a block's team is idle) runs the region's instructions
// on one block (fk_post_region, fk_run_task), then
// goes on at its `end`; one thread per member unless every kernel of the region is
// synchronous (`shares_threads`: members of an asynchronous kernel may wait for each
// other). Otherwise, or when the region's `groups` do not fit (fk_region_fits), the
// instructions run one by one from `next`.
__device__ bool fk_s_region(int p, FkProc *s, int groups, int shares_threads, int next,
                            int end, int grid) {
    int g = s->group;
    if (s->phase == 0) {
        int task = fk_region_task(fk_m.groups[g].size, shares_threads, grid);
        if (task == 0) {
            s->pc = next;
            return false;
        }
        fk_my_slot(s)->proc = p;
        s->phase = 1;
        FkAction a = task == 1 ? FkAction{FK_ACT_REGION, groups}
                               : FkAction{FK_ACT_GRID, groups, 0, 0, 0, grid};
        if (fk_arrive(p, s, g, a)) return true;
    }
    s->phase = 0;
    s->pc = fk_d.sync[g].value ? end : next;
    return false;
}

// A synchronous multiprefix: the participating members combined per cell in __PROC_NR__
// order ($$ order is __PROC_NR__ order in every group), each getting the exclusive prefix.
__device__ bool fk_s_multiprefix(int p, FkProc *s, int op, FkVar ptr, FkVar value,
                                              int has_result, FkVar result, int next) {
    int g = s->group;
    if (s->phase == 0) {
        FkSlot *m = fk_my_slot(s);
        m->flag = fk_runs(p, s);
        m->proc = p;
        if (m->flag) {
            m->aux = fk_s_read(ptr, p, s);
            m->value = fk_s_read(value, p, s);
        }
        s->phase = 1;
        if (fk_arrive(p, s, g, FkAction{FK_ACT_MULTIPREFIX, 0, 0, 0, 0, op})) return true;
    }
    const FkResult &m = fk_d.results[p];
    if (has_result && m.group) *(int *)fk_var_addr(result, g, s->slot_base, p) = (int)m.value;
    s->phase = 0;
    s->pc = next;
    return false;
}

// ---- output order keys ----

// The order key of the processor's current step: the path of the groups it is in, then
// (step, key). Writes at most `max` pairs; returns the number of pairs.
__device__ unsigned fk_order_key(int sp, unsigned step, int p, unsigned key, FkKeyPair *out,
                                 unsigned max) {
    unsigned n = 0;
    const FkFrame *f = fk_frames(p);
    for (int i = 0; i < sp; i++) {
        if (!(f[i].flags & FK_FLAG_PATH)) continue;
        if (n < max) {
            out[n].step = f[i].step;
            out[n].index = f[i].index;
        }
        n++;
    }
    if (n < max) {
        out[n].step = step;
        out[n].index = key;
    }
    return n + 1;
}

// A record: the header (FkRecordHeader), the key's (step, index) pairs, then the arguments
// as in the host schedule. fk_record writes the header and the key, once for every printf of
// the program (`__noinline__`; the thread's fields by value); the call site its arguments.
__device__ __noinline__ char *fk_record(int sp, unsigned step, int proc, unsigned order,
                                        unsigned seq, int format, unsigned args,
                                        fk_u64 arg_bytes) {
    FkKeyPair key[FK_KEY_MAX];
    unsigned pairs = fk_order_key(sp, step, proc, order, key, FK_KEY_MAX);
    if (pairs > FK_KEY_MAX) pairs = FK_KEY_MAX;
    fk_u64 bytes = sizeof(FkRecordHeader) + sizeof(FkKeyPair) * pairs + arg_bytes;
    fk_u64 at = atomicAdd(fk_m.out_top, bytes);
    if (at + bytes > fk_m.out_bytes) return 0;  // the host reports the overflow
    FkRecordHeader *h = (FkRecordHeader *)(fk_m.out + at);
    h->bytes = (unsigned)bytes;
    h->launch = 0;
    h->sub = 0;
    h->key = 0;
    h->seq = seq;
    h->format = (unsigned)format;
    h->args = args;
    h->pairs = pairs;
    FkKeyPair *k = (FkKeyPair *)(h + 1);
    for (unsigned i = 0; i < pairs; i++) k[i] = key[i];
    return (char *)(k + pairs);
}

template <class... A> __device__ int fk_printf(FkThread *th, int format, A... args) {
    char *p = fk_record(th->sp, fk_th_step(th), th->proc, th->key, th->seq++, format,
                        (unsigned)sizeof...(A), (fk_arg_bytes(args) + ... + 0ull));
    if (p) ((p = fk_put_arg(p, args)), ...);
    return 0;
}

// The faulting step's key with index 0: the host drops the records from that step on. The
// step's group instance and step number tell the group's other members to run the step
// (fk_drains).
__device__ void fk_fault_key(const FkThread *th) {
    unsigned step = fk_th_step(th);
    unsigned pairs = fk_order_key(th->sp, step, th->proc, 0, fk_d.fault_key->key, FK_KEY_MAX);
    fk_d.fault_key->pairs = pairs > FK_KEY_MAX ? FK_KEY_MAX : pairs;
    fk_m.fault->group = th->key_group;
    fk_m.fault->step = step;
}

// The order of the step of `th` against the recorded fault's step (both keys with index 0):
// negative, zero or positive, as the host sorts output records.
__device__ int fk_fault_key_order(const FkThread *th) {
    FkKeyPair key[FK_KEY_MAX];
    unsigned pairs = fk_order_key(th->sp, fk_th_step(th), th->proc, 0, key, FK_KEY_MAX);
    if (pairs > FK_KEY_MAX) pairs = FK_KEY_MAX;
    unsigned recorded = fk_d.fault_key->pairs;
    const FkKeyPair *r = fk_d.fault_key->key;
    for (unsigned i = 0; i < pairs && i < recorded; i++) {
        if (key[i].step != r[i].step) return key[i].step < r[i].step ? -1 : 1;
        if (key[i].index != r[i].index) return key[i].index < r[i].index ? -1 : 1;
    }
    return pairs == recorded ? 0 : pairs < recorded ? -1 : 1;
}

// After a fault, a member of the faulting step's group that has not run the step yet still
// runs it: the simulator names the step's lowest faulting processor, whichever ran first
// here. A member waiting at the step's own barrier has run it.
// Only after a fault: not inlined, and the state by value (a call that took its address would
// keep the processor's state in local memory).
__device__ __noinline__ bool fk_drains(FkProc s) {
    if (*(volatile int *)&fk_d.error->code != 0) return false;
    __threadfence();
    int g = *(volatile int *)&fk_m.fault->group;
    if (s.done || s.group != g) return false;
    unsigned step = fk_load_volatile(&fk_d.sync[g].step);
    if (step != *(volatile unsigned *)&fk_m.fault->step) return false;
    // A kernel handed to the kernel warp has not run yet, or has and the processor goes on
    // to the step's barrier.
    if (s.waiting == FK_WAITS_HANDED) return true;
    return !(s.waiting && fk_load_volatile(&fk_d.sync[g].gen) == s.wait_gen);
}

// Whether the processor stops here: the run stopped (a fault, a limit) and it does not drain.
__device__ inline bool fk_stops(const FkProc *s) { return fk_stopped() && !fk_drains(*s); }

// ---- the launch ----

// Sets up every processor at main's entry in the root group (id 0: processor 0, height 0;
// the host set its descriptor).
extern "C" __global__ void fk_device_init() {
    int p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= fk_m.procs) return;
    FkProc *s = &fk_d.procs[p];
    s->pc = fk_d.entry;
    s->phase = 0;
    s->group = 0;
    s->rank = p;
    s->seq = 0;
    s->sp = 0;
    s->waiting = 0;
    s->done = 0;
    s->slot_base = 0;
    s->next_task = -1;
    // One list per block: there are fewer blocks than processors.
    fk_d.tasks[p] = -1;
    if (p <= fk_m.procs / 32) fk_d.idle[p] = 0;
    fk_m.dollar[p] = p;
    if (p == 0) {
        fk_grid_task.posted = 0;
        FkSync *y = &fk_d.sync[0];
        y->arrived = 0;
        y->step = 0;
        y->scratch = 0;
        y->trace = 0;
        y->released = fk_now();
        y->async_region = 0;
        y->first_barrier = ~0ull;
        y->stopped = 0;
        if (fk_t.recs) {
            // The root group is instance 0; it ends when the last processor leaves main.
            fk_trace_record(0, -1, -1, 0, fk_m.procs, 0, 0, fk_now(), 0);
            *fk_t.count = 1;
        }
    }
}

// Runs the region task that processor p posted (fk_post_region) on the block's team: team
// thread t is member t of p's group (and t + fk_team_size(), ... for a larger group), with
// the group's member list and the region's stacks in the parts of fk_m.members and
// fk_m.words that belong to the group's scratch slice (FK_STACK_PER_PROC entries per member:
// sibling groups have disjoint slices), its inner groups at the leader's free ids, its shared
// frames in the block's `frames`. Then the group is released at the region's end.
// Not inlined: the regions are off the interpreter's path.
__device__ __noinline__ void fk_run_task(int p, char *frames) {
    FkProc s = fk_d.procs[p];
    int g = s.group;
    FkSync *y = &fk_d.sync[g];
    // Synchronises with every member's arrival: their state and inputs are visible here.
    (void)fk_load_acquire(&y->arrived);
    int n = fk_m.groups[g].size;
    fk_u64 list = y->scratch * FK_STACK_PER_PROC;
    for (int t = fk_team_tid(); t < n; t += fk_team_size())
        fk_m.members[list + t] = fk_scratch(g, 0, t)->proc;
    if (fk_team_tid() == 0) fk_m.groups[g].members = list;
    int groups_top = fk_group_id(fk_scratch(g, 0, 0)->proc, 1);
    fk_team_sync();
    // A small group's region on the team's first warp alone (fk_team_narrow).
    FkNarrow narrow = fk_team_narrow(n);
    if (narrow.state != FK_NARROW_OUT)
        fk_run_region(s.pc, g, s.seq != 0, s.slot_base, groups_top, list + n, list, (fk_u64)frames);
    fk_team_widen(narrow);
    __threadfence();
    fk_team_sync();
    if (fk_team_tid() == 0) fk_release(y, n);
}

// The grid region posted to the teams (fk_post_grid), run by every block's team: the
// threads that take members (fk_g_shape: every block has one, as the group has at least as
// many members as the kernel has blocks, fk_device_runners), the group's member list from
// its scratch slots, as fk_run_task builds a block region's, a grid barrier, the region;
// then block 0's team releases the group, whose members go on at the region's end (a grid
// region never declines, fk_g_begin; fk_g_end moved the group's step past its segments).
// Not inlined.
__device__ __noinline__ void fk_run_grid_task(char *frames) {
    __threadfence();
    int p = *(volatile int *)&fk_grid_task.proc, pc = *(volatile int *)&fk_grid_task.pc;
    FkProc s = fk_d.procs[p];
    int g = s.group;
    FkSync *y = &fk_d.sync[g];
    (void)fk_load_acquire(&y->arrived);
    int n = fk_m.groups[g].size;
    if (fk_team_tid() == 0) fk_g_shape(n);
    fk_team_sync();
    fk_u64 list = y->scratch * FK_STACK_PER_PROC;
    for (int t = fk_g_tid(); t < n; t += fk_g_threads())
        fk_m.members[list + t] = fk_scratch(g, 0, t)->proc;
    if (fk_g_tid() == 0) fk_m.groups[g].members = list;
    int groups_top = fk_group_id(fk_scratch(g, 0, 0)->proc, 1);
#ifdef FK_EMU_GRID_TASKS  // the emulated test's evidence that the path ran, and its shape
    if (fk_team_tid() == 0)
        fprintf(stderr, "fk-grid-task %d: block %d of %d, team %d: members %d to %d of %d, %d threads\n", pc,
                (int)blockIdx.x, (int)gridDim.x, fk_team_size(), fk_g_first, fk_g_first + fk_g_width, n, fk_g_span);
#endif
    fk_g_sync(false);
    fk_run_grid_region(pc, g, s.seq != 0, s.slot_base, groups_top, list + n, list, (fk_u64)frames);
    __threadfence();
    fk_team_sync();
    if (blockIdx.x == 0 && fk_team_tid() == 0) fk_release(y, n);
}

// A thread that found nothing to do lets the others run.
__device__ inline void fk_idle() {
#ifdef FK_EMU
    fk_emu_yield();
#else
    __nanosleep(64);
#endif
}

// Sets or clears the flag of this block's team running a grid region (fk_team_on_grid).
// Only in a program with a grid region (FK_USES_GRID_REGIONS), so that a program without one
// keeps the machine code it had: with the flag compiled in, a split step of the overhead
// suite ran 3% slower, though the flag's stores never run there (docs/performance.md,
// session 45).
__device__ inline void fk_team_mark_grid(int on) {
#if FK_USES_GRID_REGIONS
    atomicExch(&fk_team_on_grid, on);
#endif
}

#if FK_USES_GRID_REGIONS
// Whether this block's team runs a grid region now, for a whole warp (lane 0 looks). An
// atomic: no barrier orders the team's stores and the runner warps' looks, which
// compute-sanitizer's racecheck checks for plain shared-memory accesses.
__device__ inline bool fk_team_runs_grid() {
    int on = 0;
    if ((threadIdx.x & 31) == 0) on = atomicOr(&fk_team_on_grid, 0);
    return __shfl_sync(0xffffffffu, on, 0) != 0;
}
#endif

// A runner warp none of whose processors moved (converged). While its block's team runs a
// grid region none can move before that region ends: the group that runs it holds every
// processor of the run (fk_runs_grid). The warp then watches the team's flag in shared memory
// instead of passing over its processors' states, whose passes every 64 ns took issue slots
// from the team (Hillis-Steele 2^20 at P = 65,536 ran 12% faster without them,
// docs/performance.md, session 45).
__device__ inline void fk_runner_idle() {
#if FK_USES_GRID_REGIONS
    if (fk_team_runs_grid()) {
        do {
#ifdef FK_EMU
            fk_emu_yield();
#else
            __nanosleep(FK_GRID_RUNNER_NAP);
#endif
        } while (fk_team_runs_grid());
        return;
    }
#endif
    fk_idle();
}

// The block's kernel warp (fk_device_run): lane l runs the long kernels that runner lane l's
// processor hands over, one at a time, until every runner warp of the grid has ended (a
// processor that handed over a kernel waits for it, so none is left then). After a fault or
// a runtime limit the kernel does not run unless it drains the fault's step, but the
// processor is released all the same.
__device__ __noinline__ void fk_run_kernel_warp(int runner_warps) {
    int p = (int)(blockIdx.x * 32 + (threadIdx.x & 31));
    if (p >= fk_m.procs) return;
    FkProc *state = &fk_d.procs[p];
    // An idle lane sleeps longer the longer it has waited: the lanes of the warp that run
    // kernels take turns with those that poll, and polling every 64 ns took quicksort's
    // leaves twice as long as in the runner warps (docs/performance.md, session 31).
    unsigned nap = 64;
    for (;;) {
        if (fk_load_volatile((const unsigned *)&state->handed) == 1) {
            __threadfence();
            FkProc s = *state;
#ifdef FK_EMU_HANDED  // the emulated test's evidence that the path ran
            fprintf(stderr, "fk-handed %d %d\n", p, s.pc);
#endif
            // After a fault the kernel still runs where it is the faulting step's and has
            // not run (fk_drains; the processor waits for this lane, not at the barrier):
            // the simulator names the step's lowest faulting processor, and a higher lane
            // may have faulted first.
            if (!fk_stopped() || fk_drains(s)) fk_run_long(p, &s);
            __threadfence();
            *(volatile int *)&state->handed = 2;
            nap = 64;
            continue;
        }
        if (*(volatile int *)fk_d.runners_done == runner_warps) return;
#ifdef FK_EMU
        fk_emu_yield();
#else
        __nanosleep(nap);
        nap = nap < FK_KERNEL_WARP_NAP ? 2 * nap : FK_KERNEL_WARP_NAP;
#endif
    }
}

// ---- gangs (fk_device.cuh): forming one, joining one ----

// Run by the leader's team at an owned loop whose group of n members is larger than the
// team (block-uniform): claims idle blocks for the other teams the loop needs (their bits
// in fk_d.idle, as fk_task_block claims one), hands each a join and waits, at most
// FK_GANG_WAIT_NS, until they joined; then seals the gang. True where it formed: every
// team then owns at most FK_OWN_TEAM_MAX members. Where it did not (too few blocks idle or
// joined in time), the helpers that joined leave and the loop runs on the team alone.
__device__ __noinline__ bool fk_r_gang_form(const FkGangJoin &j, int n) {
    __shared__ int formed;
    if (fk_team_tid() == 0) {
        formed = 0;
        int per = min(fk_team_size(), FK_OWN_TEAM_MAX);
        int want = (n + per - 1) / per;
        if (want >= FK_GANG_MIN && want <= FK_GANG_MAX && gridDim.x <= FK_GANG_BLOCKS) {
            FkGangRec *rec = &fk_gangs[blockIdx.x];
            unsigned gen = rec->gen + 1;
            rec->gen = gen;
            rec->join = j;
            // The record's last gang has left it (fk_r_gang_leave).
            rec->arrived = 0;
            rec->token = 0;
            rec->teams = 0;
            rec->left = 0;
            __threadfence();
            atomicExch(&rec->state, (unsigned long long)gen << 32);
            int claimed = 0;
            int words = (gridDim.x + 31) / 32;
            for (int w = 0; w < words && claimed < want - 1; w++) {
                unsigned bits = *(volatile unsigned *)&fk_d.idle[w];
                while (bits && claimed < want - 1) {
                    int b = __ffs(bits) - 1;
                    bits &= ~(1u << b);
                    if (w * 32 + b == (int)blockIdx.x) continue;
                    unsigned was = (unsigned)atomicAnd(&fk_d.idle[w], (int)~(1u << b));
                    if (!(was & (1u << b))) continue;
                    atomicExch(&fk_gang_joins[w * 32 + b],
                               (unsigned long long)gen << 32 | (blockIdx.x + 1));
                    claimed++;
                }
            }
            // Too few: seal at once, and the claimed teams leave as they come.
            if (claimed == want - 1) {
                fk_u64 t0 = fk_now();
                while ((fk_load_volatile((const unsigned *)&rec->state) & 0x7fffffffu) <
                           (unsigned)claimed &&
                       fk_now() - t0 < FK_GANG_WAIT_NS)
                    fk_gang_wait();
            }
            unsigned long long was = atomicOr(&rec->state, FK_GANG_SEALED);
            int joined = (int)(was & 0x7fffffffull);
            int teams = joined + 1 < want ? 0 : joined + 1;
            rec->teams = teams;
            __threadfence();
            *(volatile unsigned *)&rec->ready = gen;
            // Those that joined a gang that did not form leave at once.
            if (teams == 0) fk_gang_wait_left(rec, joined);
            if (teams > 0) {
                fk_gang_enter(rec, teams, 0, n);
                formed = 1;
            }
#ifdef FK_EMU_GANGS  // the emulated test's evidence that the path ran
            fprintf(stderr, "fk-gang %d of %d members: %d teams\n", j.loop, n, teams);
#endif
        }
    }
    fk_team_sync();
    return formed != 0;
}

// A team handed a join (fk_run_tasks): it joins the gang if the gang still takes it (the
// leader has not sealed it, nor formed a newer one), and if the gang formed runs the loop
// in the region function (fk_r_join_loop) on its slice of the members. A join that came
// too late does nothing.
__device__ __noinline__ void fk_run_gang_join(unsigned long long join) {
    if (fk_team_tid() == 0) {
        fk_gang.rec = nullptr;
        unsigned gen = (unsigned)(join >> 32);
        FkGangRec *rec = &fk_gangs[(int)(join & 0xffffffffu) - 1];
        unsigned long long s = *(volatile unsigned long long *)&rec->state;
        int index = 0;
        while ((unsigned)(s >> 32) == gen && !(s & FK_GANG_SEALED)) {
            unsigned long long was = atomicCAS(&rec->state, s, s + 1);
            if (was == s) {
                index = (int)(s & 0x7fffffffull) + 1;
                break;
            }
            s = was;
        }
        if (index > 0) {
            while (fk_load_volatile(&rec->ready) != gen) fk_gang_wait();
            __threadfence();
            int teams = *(volatile int *)&rec->teams;
            if (teams == 0) fk_gang_left(rec);
            if (teams > 0) {
                fk_gang_enter(rec, teams, index, fk_m.groups[rec->join.lg].size);
                fk_gang.join = rec->join;
            }
        }
    }
    fk_team_sync();
    if (!fk_ganged()) return;
    const FkGangJoin &j = fk_gang.join;
    fk_run_region(j.pc, j.g, j.seq, j.slot_base, j.groups_top, j.members_top, j.words_top,
                  j.frames_top);
    fk_team_sync();
    if (fk_team_tid() == 0) fk_gang.rec = nullptr;
    fk_team_sync();
}

// `taken` for a grid region and a gang's join (fk_run_tasks).
#define FK_GRID_TAKEN (-2)
#define FK_GANG_TAKEN (-3)

// The block's task warps (its team, fk_team_first and up): they take the region tasks posted
// to the block (fk_post_region) and run them one after another, each on the whole team,
// while the runner warps go on with their other processors; they end when every runner warp
// of the grid, `runner_warps` in all, has ended (a posting processor waits for its task, so
// none is left then). After a fault or a runtime limit the tasks do not run: the run ends.
__device__ __noinline__ void fk_run_tasks(int runner_warps, char *frames) {
    __shared__ int taken;
    // The grid regions this team has run (fk_grid_task).
    unsigned grids = 0;
    // Thread 0: whether the block's bit in fk_d.idle is set (fk_task_block).
    bool idle = false;
    int *idle_word = &fk_d.idle[blockIdx.x / 32];
    int idle_bit = (int)(1u << (blockIdx.x % 32));
    // Thread 0: a join taken (fk_gang_joins), which runs before the block's task list.
    __shared__ unsigned long long join;
    if (fk_team_tid() == 0) fk_gang.rec = nullptr;
    for (;;) {
        // The team's first warp polls, converged (its lanes must not reach the barrier while
        // one of them spins: compute-sanitizer's synccheck reports that as divergence).
        if (fk_team_tid() < 32) {
            int list;
            for (;;) {
                int ended = 0;
                list = -1;
                if (fk_team_tid() == 0) {
                    ended = *(volatile int *)fk_d.runners_done == runner_warps;
                    // A load first: the lists are in global memory, and an exchange of an
                    // empty one every pass of every block would be an L2 atomic each time.
                    int *mine = &fk_d.tasks[blockIdx.x];
                    unsigned long long *joins = &fk_gang_joins[blockIdx.x];
                    join = 0;
                    if (blockIdx.x < FK_GANG_BLOCKS && *(volatile unsigned long long *)joins)
                        join = atomicExch(joins, 0ull), list = FK_GANG_TAKEN;
                    else if (*(volatile int *)mine >= 0) list = atomicExch(mine, -1);
                    else if (fk_load_volatile(&fk_grid_task.posted) != grids)
                        list = FK_GRID_TAKEN, fk_team_mark_grid(1);
                    else if (!idle) idle = (atomicOr(idle_word, idle_bit), true);
                    // A task came, by a claim or in turn: the block is busy until it is
                    // idle again (a claim has cleared the bit already).
                    if (idle && list != -1) idle = (atomicAnd(idle_word, ~idle_bit), false);
                }
                list = __shfl_sync(0xffffffffu, list, 0);
                if (list >= 0 || list == FK_GRID_TAKEN || list == FK_GANG_TAKEN ||
                    __shfl_sync(0xffffffffu, ended, 0))
                    break;
                fk_idle();
            }
            // The posters' states (fk_post_region), for every team thread after the barrier.
            __threadfence();
            if (fk_team_tid() == 0) taken = list;
            __syncwarp();
        }
        fk_team_sync();
        int task = taken;
        // Also: every team thread has read `taken` before thread 0 writes it again.
        bool stop = fk_team_count(fk_stopped()) != 0;
        if (task == FK_GANG_TAKEN) {
            // A gang's helper runs whatever has stopped: the gang's teams wait for it.
            fk_run_gang_join(join);
            continue;
        }
        if (task == FK_GRID_TAKEN) {
            // A fault stops the region at its first barrier, where every block meets.
            fk_run_grid_task(frames);
            grids++;
            if (fk_team_tid() == 0) fk_team_mark_grid(0);
            continue;
        }
        if (task < 0) return;
        while (task >= 0) {
            // Read first: once released, the poster may post its next task.
            int next = fk_d.procs[task].next_task;
            if (!stop) fk_run_task(task, frames);
            task = next;
        }
    }
}

// The persistent kernel: the first `runners` threads of each block (at most half, whole
// warps; the launcher spreads the processors over every SM, fk_device_runners) run
// processors, thread t of them (t numbered across the blocks, T of them) processors t,
// t + T, ... until all are done (or a fault or a runtime limit stops the run). The others
// are the block's team (fk_team_first): they run the region tasks posted to the block
// (fk_run_tasks), so a task gets the team's threads however few processors the block
// runs, and the runner warps neither wait for a task nor delay one. The lanes of a warp meet
// after every pass (the votes): a waiting lane spinning on its own would keep the warp from
// the lane whose processor the others wait for, as divergent paths of a warp take turns. At
// the meeting the warp runs the leader actions its lanes owe (fk_arrive): a lane that owes
// one ends its pass there, and its next pass starts at its next processor.
extern "C" __global__ void __launch_bounds__(FK_DEVICE_THREADS, 1) fk_device_run(int runners) {
    __shared__ char *frames;  // the shared frames of the regions this block runs
    fk_seen_before_clear();
    if (threadIdx.x == 0) {
        fk_kernel_warp = runners == 32 && fk_m.procs <= (int)gridDim.x * 32;
        fk_team_first = runners + (fk_kernel_warp ? 32 : 0);
        fk_team_lanes = (int)blockDim.x - fk_team_first;
#if FK_USES_GRID_REGIONS
        fk_team_on_grid = 0;
        fk_g_start();
#endif
        frames = fk_frame_alloc(fk_region_frame_bytes(), blockIdx.x * runners);
    }
    __syncthreads();
    if ((int)threadIdx.x >= runners + (fk_kernel_warp ? 32 : 0)) {
        fk_run_tasks(gridDim.x * (runners / 32), frames);
        return;
    }
    if ((int)threadIdx.x >= runners) {
        fk_run_kernel_warp(gridDim.x * (runners / 32));
        return;
    }
    int t = blockIdx.x * runners + threadIdx.x;
    int T = gridDim.x * runners;
    FkWarpTeam team{(int)(threadIdx.x & 31)};
    // This thread's processors.
    int mine = t < fk_m.procs ? (fk_m.procs - 1 - t) / T + 1 : 0;
    int from = 0;
    // A thread with one processor keeps its state in registers between passes (others read
    // only its frame height, which fk_arrive stores); with several it loads each one's.
    FkProc own;
    if (mine == 1) own = fk_d.procs[t];
    for (;;) {
        bool live = false, moved = false;
        int owed = -1;
        for (int i = 0; i < mine; i++) {
            int k = from + i < mine ? from + i : from + i - mine;
            int p = t + k * T;
            FkProc *state = &fk_d.procs[p];
            // The processor runs from a copy in registers; only its thread writes it back.
            FkProc s = mine == 1 ? own : *state;
            if (s.done) continue;
            live = true;
            // After a fault a processor runs only to drain (fk_drains), and once: then it is
            // done (2), whatever it reached.
            bool stopping;
            if (!s.waiting) stopping = fk_stopped();
            else if (!fk_released(&s, &stopping)) continue;
            if (stopping && !fk_drains(s)) continue;
            moved = true;
            fk_run_proc(p, &s);
            // A processor that handed its kernel over drains once that kernel has run.
            if (stopping && s.waiting != FK_WAITS_HANDED) s.done = 2;
            if (s.waiting == 2) {
                s.waiting = 1;
                owed = s.wait_group;
            }
            *state = s;
            own = s;
            if (s.waiting == FK_WAITS_HANDED) {
                // Posted after the state it runs from.
                __threadfence();
                *(volatile int *)&state->handed = 1;
            }
            if (owed >= 0) {
                from = k + 1 < mine ? k + 1 : 0;
                break;
            }
        }
        team.sync();
        for (unsigned owing = __ballot_sync(0xffffffffu, owed >= 0); owing; owing &= owing - 1)
            fk_run_owed_action(team, __shfl_sync(0xffffffffu, owed, __ffs(owing) - 1));
        // After a fault the warp passes on while one of its processors drains.
        bool stop = fk_stopped(), drain = false;
        for (int i = 0; stop && !drain && i < mine; i++)
            drain = fk_drains(mine == 1 ? own : fk_d.procs[t + i * T]);
        bool done = !__any_sync(0xffffffffu, live) ||
                    (__any_sync(0xffffffffu, stop) && !__any_sync(0xffffffffu, drain));
        if (done) {
            if (team.lane == 0) atomicAdd(fk_d.runners_done, 1);
            return;
        }
        if (!__any_sync(0xffffffffu, moved)) fk_runner_idle();
    }
}
