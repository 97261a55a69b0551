// forkcc CUDA ABI: generated from transform::emit_cuda::abi (the one declaration of
// the structures, constants and runtime kernel signatures that the runtime library,
// the emitted code and the GPU driver share). Do not edit: change abi.rs.

typedef unsigned long long fk_u64;
typedef long long fk_i64;

// FkVar::kind: a spilled private variable in the slot stack
#define FK_VAR_SLOT 0
// FkVar::kind: a private global
#define FK_VAR_PRIVATE_GLOBAL 1
// FkVar::kind: a shared global
#define FK_VAR_SHARED_GLOBAL 2
// FkVar::kind: a shared local in its group's shared frame
#define FK_VAR_SHARED_FRAME 3
// FkTraceRec::size of a record that is no group instance: an asynchronous region of
// the parent group (from `begin` to `end`), a barrier where its members met (at `begin`)
#define FK_REC_ASYNC -1
#define FK_REC_BARRIER -2
// fk_trace_async_at (device schedule): FK_AT_REGION * (1 + the asynchronous region an
// instruction lies in, `Plan::traced_asyncs`), plus FK_AT_OPENS where the region's own
// group runs it, plus FK_AT_BARRIER where it launches a kernel that ends at a `barrier`
#define FK_AT_REGION 4
#define FK_AT_OPENS 1
#define FK_AT_BARRIER 2
// A processor's status (FkMachine::status): active, or how it left a construct
#define FK_ACTIVE 0
#define FK_BREAK 1
#define FK_CONTINUE 2
#define FK_RETURN 3
// The most variables one `fk_call_copies` launch copies (FkCopies)
#define FK_COPIES_MAX 8
// fk_split_count's `kind`: an `if` (key 0: then, 1: else) or a `fork` (key: @)
#define FK_SPLIT_IF 0
#define FK_SPLIT_FORK 1
// A multiprefix operator (fk_combine)
#define FK_MP_ADD 0
#define FK_MP_MAX 1
#define FK_MP_MIN 2
#define FK_MP_AND 3
#define FK_MP_OR 4
// The object of a fault (FkFault::object) when it is none of the program's: a private
// (`malloc`) or shared (`shmalloc`) heap block, a variable the checks do not look up
#define FK_OBJECT_MALLOC -1
#define FK_OBJECT_SHMALLOC -2
#define FK_OBJECT_VARIABLE -3
// fk_free's `kind`: `free`, `shfree`, `shfree` in a synchronous region (the group's
// members free the block they allocated together, once)
#define FK_FREE_PRIVATE 0
#define FK_FREE_SHARED 1
#define FK_FREE_SHARED_ONCE 2
// Which limit a fault is (FkWhy::limit)
#define FK_LIMIT_STEPS 1
#define FK_LIMIT_TIME 2
// recursion: the call nests deeper than the run holds (R0008)
#define FK_LIMIT_DEPTH 3
// --crcw common: processors wrote different values into a cell (R0004)
#define FK_CONFLICT 4
// The most processors a run has (`__PROC_NR__` is an `int`): the CLI's and the `.cu`'s
// `-p` stop there. The limit and conflict words record FK_PROC_MAX - processor (never
// 0, which means none)
#define FK_PROC_MAX 2147483647
// --crcw common: writes logged per processor and step; later ones are not checked
#define FK_WRITES 8
// Bytes of a printf argument in a record (an `fk_i64` or a `double`); a `%s` string is
// its length in one, then its bytes padded to whole ones
#define FK_ARG_BYTES 8
// The device schedule's runtime limits (FkError::code)
#define FK_ERR_FRAMES 1
#define FK_ERR_FRAME_HEAP 2
// The device schedule's frames per processor (`device_depth`): FK_DEPTH_MANY up to
// FK_DEPTH_PROCS processors, FK_DEPTH_FEW above
#define FK_DEPTH_PROCS 65536
#define FK_DEPTH_MANY 64
#define FK_DEPTH_FEW 16
// The most (step, index) pairs of an order key (FkFaultKey)
#define FK_KEY_MAX 256
// Bytes of the device schedule's records (OPAQUE)
#define FK_PROC_BYTES 64
#define FK_RESULT_BYTES 16
#define FK_FRAME_BYTES 48
#define FK_SYNC_BYTES 256
#define FK_SLOT_BYTES 32
// Threads per block of the per-member runtime kernels
#define FK_BLOCK_THREADS 256
// Threads per block of the device schedule's persistent kernel (the program's
// `FK_DEVICE_THREADS`, `emit_cuda::schedule::device_threads`): the first `runners` (at
// most half) run processors, the others run the block's region tasks; 640 (96 registers
// a thread) so that a task has 608 threads beside one runner warp
#define FK_DEVICE_THREADS_TASKS 640
// The same in a program with a grid region: 384 (168 registers a thread, where 640 left
// 136 to 472 bytes of spills in the persistent kernel; docs/performance.md, session 39)
#define FK_DEVICE_THREADS_GRID 384
// The most runners in a program with a grid region: its team of 256 threads a block runs
// a group of every processor a member per thread up to 33,792 processors on 132 SMs
// (docs/device-schedule.md: with blocks of 640, Hillis–Steele 2^20 and list ranking at
// P = 65,536 took 22% and 18% less time than with 320 runners)
#define FK_DEVICE_RUNNERS_GRID 128
// A block region's kernel runs its group's members rounded up to whole warps of this
// many threads (FK_REGION_THREADS)
#define FK_WARP_THREADS 32
// The most threads per block of a grid region's cooperative launch (its members spread
// over every SM in whole warps, and every block has a member: its decisions are its
// members')
#define FK_GRID_THREADS 256
// The runtime's capacities, the same for the driver's arena and the `.cu`'s
// allocations (a program that outgrows one stops alike under both). Member lists and
// per-member words: FK_STACK_PER_PROC entries per processor and FK_STACK_EXTRA more
#define FK_STACK_PER_PROC 64
#define FK_STACK_EXTRA 4096
// Group descriptors (the device schedule: at least one per processor and frame)
#define FK_GROUPS_MIN 262144
// Subgroup counts and cursors (at least one per processor)
#define FK_COUNTS_MIN 65536
// Bytes of the host schedule's shared frames
#define FK_FRAMES_BYTES 16777216
// Bytes of spilled private slots: at least this, and FK_MAIN_ACTIVATIONS of main's
// frame (after the private globals) per processor
#define FK_SLOTS_BYTES_MIN 67108864
#define FK_MAIN_ACTIVATIONS 64
// Bytes of the device schedule's heap of shared frames
#define FK_FRAME_HEAP_BYTES 67108864
// FkThread::iters and FkFault::iters hold the kernel's top-level statement from this
// bit up and the iterations of loops inside it below (the order of a launch's faults)
#define FK_ITERS_STATEMENT_SHIFT 32
// Bytes of the heap (malloc, shmalloc; `--heap-mib`)
#ifndef FK_HEAP_BYTES
#define FK_HEAP_BYTES 67108864
#endif
// Bytes of printf records (`--printf-mib`)
#ifndef FK_OUT_BYTES
#define FK_OUT_BYTES 67108864
#endif
// Threads of the block-wide runtime kernels (split ranks, multiprefix): a multiple of
// 32, at most 1024
#ifndef FK_SCAN_THREADS
#define FK_SCAN_THREADS 1024
#endif
// The most members of a group that runs a block region (one thread per member under the
// host schedule; under the device schedule one thread per member when the region has an
// asynchronous kernel, else members t, t + 256, ... on one thread)
#ifndef FK_REGION_MAX
#define FK_REGION_MAX 1024
#endif
// The most members of a group for which the device schedule runs a block region whose
// kernels are all synchronous on one block of its persistent kernel (its threads take
// the members in turn); a larger group runs the region's instructions one by one, on
// the threads of all blocks (docs/device-schedule.md: one block beat all of them up to
// 4096 members on the H100)
#ifndef FK_REGION_TASK_MAX
#define FK_REGION_TASK_MAX 4096
#endif
// The fewest members of a group for which the device schedule runs a block region on
// one block of its persistent kernel (1: every group, a group of one only on an idle
// block; a larger value leaves smaller groups to run the region's instructions one by
// one, side by side with their siblings, docs/device-schedule.md)
#ifndef FK_REGION_TASK_MIN
#define FK_REGION_TASK_MIN 1
#endif
// 1: every decision of a grid region is its group's, at a grid barrier, as where a
// member is not active at the region's start (`fk_g_decide`), which no program the
// transform accepts reaches; the emulated tests run the path so
#ifndef FK_GRID_GROUP_DECISIONS
#define FK_GRID_GROUP_DECISIONS 0
#endif

struct FkProc;
struct FkResult;
struct FkFrame;
struct FkSync;
struct FkSlot;

// One group instance on the device.
struct FkGroup {
    // @
    fk_i64 at;
    // index in the group stack, -1 for the outermost group
    int parent;
    // groupsize()
    int size;
    // index of its first member in `fk_m.members` ($$ order)
    fk_u64 members;
    // the SharedFrameId of its shared frame
    int frame_id;
    // address of its shared frame
    fk_u64 frame;
};
static_assert(sizeof(FkGroup) == 40, "FkGroup: the layout of transform::emit_cuda::abi");
#ifndef __CUDACC_RTC__
static_assert(__builtin_offsetof(FkGroup, at) == 0, "FkGroup::at: the layout of transform::emit_cuda::abi");
static_assert(__builtin_offsetof(FkGroup, parent) == 8, "FkGroup::parent: the layout of transform::emit_cuda::abi");
static_assert(__builtin_offsetof(FkGroup, size) == 12, "FkGroup::size: the layout of transform::emit_cuda::abi");
static_assert(__builtin_offsetof(FkGroup, members) == 16, "FkGroup::members: the layout of transform::emit_cuda::abi");
static_assert(__builtin_offsetof(FkGroup, frame_id) == 24, "FkGroup::frame_id: the layout of transform::emit_cuda::abi");
static_assert(__builtin_offsetof(FkGroup, frame) == 32, "FkGroup::frame: the layout of transform::emit_cuda::abi");
#endif

// A variable the runtime kernels read or write (condition slots, arguments, results).
struct FkVar {
    // FK_VAR_*
    int kind;
    // FK_VAR_SHARED_FRAME: the SharedFrameId
    int frame_id;
    fk_u64 offset;
    fk_u64 size;
};
static_assert(sizeof(FkVar) == 24, "FkVar: the layout of transform::emit_cuda::abi");
#ifndef __CUDACC_RTC__
static_assert(__builtin_offsetof(FkVar, kind) == 0, "FkVar::kind: the layout of transform::emit_cuda::abi");
static_assert(__builtin_offsetof(FkVar, frame_id) == 4, "FkVar::frame_id: the layout of transform::emit_cuda::abi");
static_assert(__builtin_offsetof(FkVar, offset) == 8, "FkVar::offset: the layout of transform::emit_cuda::abi");
static_assert(__builtin_offsetof(FkVar, size) == 16, "FkVar::size: the layout of transform::emit_cuda::abi");
#endif

// The variables a call's launch copies (`fk_call_copies`): pair i copies `src[i]` to
// `dst[i]`, for i < `count` (at most FK_COPIES_MAX; a call with more arguments launches
// again for the rest).
struct FkCopies {
    int count;
    int pad;
    FkVar src[8];
    FkVar dst[8];
};
static_assert(sizeof(FkCopies) == 392, "FkCopies: the layout of transform::emit_cuda::abi");
#ifndef __CUDACC_RTC__
static_assert(__builtin_offsetof(FkCopies, count) == 0, "FkCopies::count: the layout of transform::emit_cuda::abi");
static_assert(__builtin_offsetof(FkCopies, pad) == 4, "FkCopies::pad: the layout of transform::emit_cuda::abi");
static_assert(__builtin_offsetof(FkCopies, src) == 8, "FkCopies::src: the layout of transform::emit_cuda::abi");
static_assert(__builtin_offsetof(FkCopies, dst) == 200, "FkCopies::dst: the layout of transform::emit_cuda::abi");
#endif

// The first fault in the simulator's order (`fk_fault_v`), which the host reads back.
struct FkFault {
    // 1 + the fault site (0: none)
    int site;
    // the faulting processor
    int proc;
    // host schedule: the faulting step (launch, segment of a block region)
    unsigned launch;
    unsigned sub;
    // $$
    int rank;
    // @
    int at;
    // the value the site's message names
    fk_i64 value;
    // the object: FkObject::object (>= 0) or FK_OBJECT_*
    int object;
    // the heap block's size
    int size;
    // serialises the faults that race for the record (the host does not read it)
    int lock;
    // device schedule: the faulting step's group instance and step (fk_drains)
    int group;
    unsigned step;
    // how far the faulting thread had got in its step (`FkThread::iters`): the kernel's
    // top-level statement (the high 32 bits), then the iterations of loops inside it; a
    // fault further back comes first
    fk_u64 iters;
};
static_assert(sizeof(FkFault) == 64, "FkFault: the layout of transform::emit_cuda::abi");
#ifndef __CUDACC_RTC__
static_assert(__builtin_offsetof(FkFault, site) == 0, "FkFault::site: the layout of transform::emit_cuda::abi");
static_assert(__builtin_offsetof(FkFault, proc) == 4, "FkFault::proc: the layout of transform::emit_cuda::abi");
static_assert(__builtin_offsetof(FkFault, launch) == 8, "FkFault::launch: the layout of transform::emit_cuda::abi");
static_assert(__builtin_offsetof(FkFault, sub) == 12, "FkFault::sub: the layout of transform::emit_cuda::abi");
static_assert(__builtin_offsetof(FkFault, rank) == 16, "FkFault::rank: the layout of transform::emit_cuda::abi");
static_assert(__builtin_offsetof(FkFault, at) == 20, "FkFault::at: the layout of transform::emit_cuda::abi");
static_assert(__builtin_offsetof(FkFault, value) == 24, "FkFault::value: the layout of transform::emit_cuda::abi");
static_assert(__builtin_offsetof(FkFault, object) == 32, "FkFault::object: the layout of transform::emit_cuda::abi");
static_assert(__builtin_offsetof(FkFault, size) == 36, "FkFault::size: the layout of transform::emit_cuda::abi");
static_assert(__builtin_offsetof(FkFault, lock) == 40, "FkFault::lock: the layout of transform::emit_cuda::abi");
static_assert(__builtin_offsetof(FkFault, group) == 44, "FkFault::group: the layout of transform::emit_cuda::abi");
static_assert(__builtin_offsetof(FkFault, step) == 48, "FkFault::step: the layout of transform::emit_cuda::abi");
static_assert(__builtin_offsetof(FkFault, iters) == 56, "FkFault::iters: the layout of transform::emit_cuda::abi");
#endif

// Why the recorded fault is a limit or a conflict (FkLimits::why).
struct FkWhy {
    // FK_LIMIT_* or FK_CONFLICT; 0: neither
    int limit;
    // FK_PROC_MAX - the lowest processor still in the loop (0: none recorded)
    int proc;
};
static_assert(sizeof(FkWhy) == 8, "FkWhy: the layout of transform::emit_cuda::abi");
#ifndef __CUDACC_RTC__
static_assert(__builtin_offsetof(FkWhy, limit) == 0, "FkWhy::limit: the layout of transform::emit_cuda::abi");
static_assert(__builtin_offsetof(FkWhy, proc) == 4, "FkWhy::proc: the layout of transform::emit_cuda::abi");
#endif

// The words the host schedule's host reads back to decide a branch or a loop's exit
// (FkMachine::read_back).
struct FkReadBack {
    // fk_read_first: the first active member's value
    int first;
    // fk_read_first: 1 when that value is non-zero, 0 when it is zero, -1 when no member
    // is active
    int first_truth;
    // fk_loop_exit: the participants still in the loop (the host zeroes it first)
    int staying;
};
static_assert(sizeof(FkReadBack) == 12, "FkReadBack: the layout of transform::emit_cuda::abi");
#ifndef __CUDACC_RTC__
static_assert(__builtin_offsetof(FkReadBack, first) == 0, "FkReadBack::first: the layout of transform::emit_cuda::abi");
static_assert(__builtin_offsetof(FkReadBack, first_truth) == 4, "FkReadBack::first_truth: the layout of transform::emit_cuda::abi");
static_assert(__builtin_offsetof(FkReadBack, staying) == 8, "FkReadBack::staying: the layout of transform::emit_cuda::abi");
#endif

// The device addresses of every region (`fk_m`).
struct FkMachine {
    int procs;
    // member lists (stack), processor ids in $$ order
    int *members;
    // group stack
    FkGroup *groups;
    // $ per processor
    fk_i64 *dollar;
    // FK_ACTIVE / FK_BREAK / FK_CONTINUE / FK_RETURN per processor
    int *status;
    // stack of per-member words: loop participation marks, saved $
    fk_i64 *words;
    // split: subgroup index per member of the split group (-1: none)
    int *keys;
    // split: members per subgroup
    int *counts;
    // split: next free position per subgroup
    int *cursor;
    // the words the host reads back
    FkReadBack *read_back;
    // string literals, each NUL-terminated
    char *strings;
    char *shared_globals;
    // private globals, then the frames of host calls
    char *slots;
    char *heap;
    fk_u64 heap_bytes;
    fk_u64 *heap_top;
    // printf records
    char *out;
    fk_u64 out_bytes;
    fk_u64 *out_top;
    // the first fault
    FkFault *fault;
};
static_assert(sizeof(FkMachine) == 160, "FkMachine: the layout of transform::emit_cuda::abi");
#ifndef __CUDACC_RTC__
static_assert(__builtin_offsetof(FkMachine, procs) == 0, "FkMachine::procs: the layout of transform::emit_cuda::abi");
static_assert(__builtin_offsetof(FkMachine, members) == 8, "FkMachine::members: the layout of transform::emit_cuda::abi");
static_assert(__builtin_offsetof(FkMachine, groups) == 16, "FkMachine::groups: the layout of transform::emit_cuda::abi");
static_assert(__builtin_offsetof(FkMachine, dollar) == 24, "FkMachine::dollar: the layout of transform::emit_cuda::abi");
static_assert(__builtin_offsetof(FkMachine, status) == 32, "FkMachine::status: the layout of transform::emit_cuda::abi");
static_assert(__builtin_offsetof(FkMachine, words) == 40, "FkMachine::words: the layout of transform::emit_cuda::abi");
static_assert(__builtin_offsetof(FkMachine, keys) == 48, "FkMachine::keys: the layout of transform::emit_cuda::abi");
static_assert(__builtin_offsetof(FkMachine, counts) == 56, "FkMachine::counts: the layout of transform::emit_cuda::abi");
static_assert(__builtin_offsetof(FkMachine, cursor) == 64, "FkMachine::cursor: the layout of transform::emit_cuda::abi");
static_assert(__builtin_offsetof(FkMachine, read_back) == 72, "FkMachine::read_back: the layout of transform::emit_cuda::abi");
static_assert(__builtin_offsetof(FkMachine, strings) == 80, "FkMachine::strings: the layout of transform::emit_cuda::abi");
static_assert(__builtin_offsetof(FkMachine, shared_globals) == 88, "FkMachine::shared_globals: the layout of transform::emit_cuda::abi");
static_assert(__builtin_offsetof(FkMachine, slots) == 96, "FkMachine::slots: the layout of transform::emit_cuda::abi");
static_assert(__builtin_offsetof(FkMachine, heap) == 104, "FkMachine::heap: the layout of transform::emit_cuda::abi");
static_assert(__builtin_offsetof(FkMachine, heap_bytes) == 112, "FkMachine::heap_bytes: the layout of transform::emit_cuda::abi");
static_assert(__builtin_offsetof(FkMachine, heap_top) == 120, "FkMachine::heap_top: the layout of transform::emit_cuda::abi");
static_assert(__builtin_offsetof(FkMachine, out) == 128, "FkMachine::out: the layout of transform::emit_cuda::abi");
static_assert(__builtin_offsetof(FkMachine, out_bytes) == 136, "FkMachine::out_bytes: the layout of transform::emit_cuda::abi");
static_assert(__builtin_offsetof(FkMachine, out_top) == 144, "FkMachine::out_top: the layout of transform::emit_cuda::abi");
static_assert(__builtin_offsetof(FkMachine, fault) == 152, "FkMachine::fault: the layout of transform::emit_cuda::abi");
#endif

// The step and time limits (`fk_limits`; the time limit counts from `fk_start_clock`).
struct FkLimits {
    // iterations of one loop; 0: none
    fk_u64 max_steps;
    // 0: none
    fk_u64 timeout_ns;
    FkWhy *why;
};
static_assert(sizeof(FkLimits) == 24, "FkLimits: the layout of transform::emit_cuda::abi");
#ifndef __CUDACC_RTC__
static_assert(__builtin_offsetof(FkLimits, max_steps) == 0, "FkLimits::max_steps: the layout of transform::emit_cuda::abi");
static_assert(__builtin_offsetof(FkLimits, timeout_ns) == 8, "FkLimits::timeout_ns: the layout of transform::emit_cuda::abi");
static_assert(__builtin_offsetof(FkLimits, why) == 16, "FkLimits::why: the layout of transform::emit_cuda::abi");
#endif

// A printf record's header (`fk_printf`), followed by the arguments; under the device
// schedule the order key's (step, index) pairs come between them.
struct FkRecordHeader {
    // the record's bytes, header included
    unsigned bytes;
    // host schedule: the step (launch, segment of a block region), the member's key ($$
    // or __PROC_NR__); 0 under the device schedule
    unsigned launch;
    unsigned sub;
    unsigned key;
    // the thread's records in program order
    unsigned seq;
    // the format's string id
    unsigned format;
    // arguments
    unsigned args;
    // device schedule: the order key's pairs; 0 under the host schedule
    unsigned pairs;
};
static_assert(sizeof(FkRecordHeader) == 32, "FkRecordHeader: the layout of transform::emit_cuda::abi");
#ifndef __CUDACC_RTC__
static_assert(__builtin_offsetof(FkRecordHeader, bytes) == 0, "FkRecordHeader::bytes: the layout of transform::emit_cuda::abi");
static_assert(__builtin_offsetof(FkRecordHeader, launch) == 4, "FkRecordHeader::launch: the layout of transform::emit_cuda::abi");
static_assert(__builtin_offsetof(FkRecordHeader, sub) == 8, "FkRecordHeader::sub: the layout of transform::emit_cuda::abi");
static_assert(__builtin_offsetof(FkRecordHeader, key) == 12, "FkRecordHeader::key: the layout of transform::emit_cuda::abi");
static_assert(__builtin_offsetof(FkRecordHeader, seq) == 16, "FkRecordHeader::seq: the layout of transform::emit_cuda::abi");
static_assert(__builtin_offsetof(FkRecordHeader, format) == 20, "FkRecordHeader::format: the layout of transform::emit_cuda::abi");
static_assert(__builtin_offsetof(FkRecordHeader, args) == 24, "FkRecordHeader::args: the layout of transform::emit_cuda::abi");
static_assert(__builtin_offsetof(FkRecordHeader, pairs) == 28, "FkRecordHeader::pairs: the layout of transform::emit_cuda::abi");
#endif

// One write logged for the `--crcw common` check.
struct FkWrite {
    fk_u64 addr;
    fk_u64 bits;
    int size;
    int site;
};
static_assert(sizeof(FkWrite) == 24, "FkWrite: the layout of transform::emit_cuda::abi");
#ifndef __CUDACC_RTC__
static_assert(__builtin_offsetof(FkWrite, addr) == 0, "FkWrite::addr: the layout of transform::emit_cuda::abi");
static_assert(__builtin_offsetof(FkWrite, bits) == 8, "FkWrite::bits: the layout of transform::emit_cuda::abi");
static_assert(__builtin_offsetof(FkWrite, size) == 16, "FkWrite::size: the layout of transform::emit_cuda::abi");
static_assert(__builtin_offsetof(FkWrite, site) == 20, "FkWrite::site: the layout of transform::emit_cuda::abi");
#endif

// The cell of a `--crcw common` conflict (FkCommon::conflict).
struct FkConflict {
    fk_u64 cell;
    // its step's tag (fk_step_tag)
    fk_u64 tag;
};
static_assert(sizeof(FkConflict) == 16, "FkConflict: the layout of transform::emit_cuda::abi");
#ifndef __CUDACC_RTC__
static_assert(__builtin_offsetof(FkConflict, cell) == 0, "FkConflict::cell: the layout of transform::emit_cuda::abi");
static_assert(__builtin_offsetof(FkConflict, tag) == 8, "FkConflict::tag: the layout of transform::emit_cuda::abi");
#endif

// A range of shared memory, [lo, hi) (FkCommon).
struct FkRange {
    char *lo;
    char *hi;
};
static_assert(sizeof(FkRange) == 16, "FkRange: the layout of transform::emit_cuda::abi");
#ifndef __CUDACC_RTC__
static_assert(__builtin_offsetof(FkRange, lo) == 0, "FkRange::lo: the layout of transform::emit_cuda::abi");
static_assert(__builtin_offsetof(FkRange, hi) == 8, "FkRange::hi: the layout of transform::emit_cuda::abi");
#endif

// After a conflict, the pair of processors `fk_common_writers` finds, each as
// FK_PROC_MAX - processor (atomicMax; 0: none found) (FkCommon::writers).
struct FkWriters {
    // pass 0: the lowest processor that wrote the cell in the step
    int first;
    // pass 1: the lowest whose value differs from the first's
    int second;
};
static_assert(sizeof(FkWriters) == 8, "FkWriters: the layout of transform::emit_cuda::abi");
#ifndef __CUDACC_RTC__
static_assert(__builtin_offsetof(FkWriters, first) == 0, "FkWriters::first: the layout of transform::emit_cuda::abi");
static_assert(__builtin_offsetof(FkWriters, second) == 4, "FkWriters::second: the layout of transform::emit_cuda::abi");
#endif

// The `--crcw common` write logs (`fk_common`).
struct FkCommon {
    // FK_WRITES per processor (0: the run does not check)
    FkWrite *writes;
    // per processor: its writes in its last checked step
    int *count;
    // per processor: that step (fk_step_tag)
    fk_u64 *tag;
    // shared memory, the writes that are logged: the shared globals
    FkRange globals;
    // the group frames (the device schedule: its frame heap)
    FkRange frames;
    // the heap
    FkRange heap;
    FkConflict *conflict;
    // the two processors to name
    FkWriters *writers;
};
static_assert(sizeof(FkCommon) == 88, "FkCommon: the layout of transform::emit_cuda::abi");
#ifndef __CUDACC_RTC__
static_assert(__builtin_offsetof(FkCommon, writes) == 0, "FkCommon::writes: the layout of transform::emit_cuda::abi");
static_assert(__builtin_offsetof(FkCommon, count) == 8, "FkCommon::count: the layout of transform::emit_cuda::abi");
static_assert(__builtin_offsetof(FkCommon, tag) == 16, "FkCommon::tag: the layout of transform::emit_cuda::abi");
static_assert(__builtin_offsetof(FkCommon, globals) == 24, "FkCommon::globals: the layout of transform::emit_cuda::abi");
static_assert(__builtin_offsetof(FkCommon, frames) == 40, "FkCommon::frames: the layout of transform::emit_cuda::abi");
static_assert(__builtin_offsetof(FkCommon, heap) == 56, "FkCommon::heap: the layout of transform::emit_cuda::abi");
static_assert(__builtin_offsetof(FkCommon, conflict) == 72, "FkCommon::conflict: the layout of transform::emit_cuda::abi");
static_assert(__builtin_offsetof(FkCommon, writers) == 80, "FkCommon::writers: the layout of transform::emit_cuda::abi");
#endif

// The device schedule: each processor's slot stack (`fk_slot_stacks`).
struct FkSlotStacks {
    char *base;
    // bytes per processor
    fk_u64 stride;
};
static_assert(sizeof(FkSlotStacks) == 16, "FkSlotStacks: the layout of transform::emit_cuda::abi");
#ifndef __CUDACC_RTC__
static_assert(__builtin_offsetof(FkSlotStacks, base) == 0, "FkSlotStacks::base: the layout of transform::emit_cuda::abi");
static_assert(__builtin_offsetof(FkSlotStacks, stride) == 8, "FkSlotStacks::stride: the layout of transform::emit_cuda::abi");
#endif

// The device schedule's runtime limit (FkDevice::error).
struct FkError {
    // FK_ERR_*; 0: none
    int code;
    // the processor
    int proc;
};
static_assert(sizeof(FkError) == 8, "FkError: the layout of transform::emit_cuda::abi");
#ifndef __CUDACC_RTC__
static_assert(__builtin_offsetof(FkError, code) == 0, "FkError::code: the layout of transform::emit_cuda::abi");
static_assert(__builtin_offsetof(FkError, proc) == 4, "FkError::proc: the layout of transform::emit_cuda::abi");
#endif

// One pair of an order key under the device schedule (docs/language.md §7): a group
// instance's step and the index there (a subgroup's, or the member's key last). Records
// carry their key's pairs after the header (FkRecordHeader::pairs).
struct FkKeyPair {
    unsigned step;
    unsigned index;
};
static_assert(sizeof(FkKeyPair) == 8, "FkKeyPair: the layout of transform::emit_cuda::abi");
#ifndef __CUDACC_RTC__
static_assert(__builtin_offsetof(FkKeyPair, step) == 0, "FkKeyPair::step: the layout of transform::emit_cuda::abi");
static_assert(__builtin_offsetof(FkKeyPair, index) == 4, "FkKeyPair::index: the layout of transform::emit_cuda::abi");
#endif

// The faulting step's order key under the device schedule (FkDevice::fault_key).
struct FkFaultKey {
    unsigned pairs;
    FkKeyPair key[256];
};
static_assert(sizeof(FkFaultKey) == 2052, "FkFaultKey: the layout of transform::emit_cuda::abi");
#ifndef __CUDACC_RTC__
static_assert(__builtin_offsetof(FkFaultKey, pairs) == 0, "FkFaultKey::pairs: the layout of transform::emit_cuda::abi");
static_assert(__builtin_offsetof(FkFaultKey, key) == 4, "FkFaultKey::key: the layout of transform::emit_cuda::abi");
#endif

// The device schedule's state (`fk_d`).
struct FkDevice {
    FkProc *procs;
    // procs
    FkResult *results;
    // procs * depth
    FkFrame *frames;
    // procs * (depth + 1), as fk_m.groups
    FkSync *sync;
    // 2 * procs
    FkSlot *scratch;
    char *frame_heap;
    fk_u64 frame_heap_bytes;
    fk_u64 *frame_heap_top;
    int depth;
    // main's first instruction
    int entry;
    // per processor
    fk_u64 slot_stack_bytes;
    // the first runtime limit a processor met
    FkError *error;
    FkFaultKey *fault_key;
    // procs (at least the persistent kernel's blocks): per block, the region tasks
    // posted to it, a list of the posters linked through `next_task`, -1 when empty
    int *tasks;
    // the posts so far: where no block is idle, the next task goes to block
    // `task_posts % blocks`
    unsigned *task_posts;
    // procs / 32 + 1 words: bit b of word w is set while block 32 w + b's team waits
    // with an empty task list; a poster claims such a block by clearing its bit
    int *idle;
    // the runner warps that have ended
    int *runners_done;
};
static_assert(sizeof(FkDevice) == 128, "FkDevice: the layout of transform::emit_cuda::abi");
#ifndef __CUDACC_RTC__
static_assert(__builtin_offsetof(FkDevice, procs) == 0, "FkDevice::procs: the layout of transform::emit_cuda::abi");
static_assert(__builtin_offsetof(FkDevice, results) == 8, "FkDevice::results: the layout of transform::emit_cuda::abi");
static_assert(__builtin_offsetof(FkDevice, frames) == 16, "FkDevice::frames: the layout of transform::emit_cuda::abi");
static_assert(__builtin_offsetof(FkDevice, sync) == 24, "FkDevice::sync: the layout of transform::emit_cuda::abi");
static_assert(__builtin_offsetof(FkDevice, scratch) == 32, "FkDevice::scratch: the layout of transform::emit_cuda::abi");
static_assert(__builtin_offsetof(FkDevice, frame_heap) == 40, "FkDevice::frame_heap: the layout of transform::emit_cuda::abi");
static_assert(__builtin_offsetof(FkDevice, frame_heap_bytes) == 48, "FkDevice::frame_heap_bytes: the layout of transform::emit_cuda::abi");
static_assert(__builtin_offsetof(FkDevice, frame_heap_top) == 56, "FkDevice::frame_heap_top: the layout of transform::emit_cuda::abi");
static_assert(__builtin_offsetof(FkDevice, depth) == 64, "FkDevice::depth: the layout of transform::emit_cuda::abi");
static_assert(__builtin_offsetof(FkDevice, entry) == 68, "FkDevice::entry: the layout of transform::emit_cuda::abi");
static_assert(__builtin_offsetof(FkDevice, slot_stack_bytes) == 72, "FkDevice::slot_stack_bytes: the layout of transform::emit_cuda::abi");
static_assert(__builtin_offsetof(FkDevice, error) == 80, "FkDevice::error: the layout of transform::emit_cuda::abi");
static_assert(__builtin_offsetof(FkDevice, fault_key) == 88, "FkDevice::fault_key: the layout of transform::emit_cuda::abi");
static_assert(__builtin_offsetof(FkDevice, tasks) == 96, "FkDevice::tasks: the layout of transform::emit_cuda::abi");
static_assert(__builtin_offsetof(FkDevice, task_posts) == 104, "FkDevice::task_posts: the layout of transform::emit_cuda::abi");
static_assert(__builtin_offsetof(FkDevice, idle) == 112, "FkDevice::idle: the layout of transform::emit_cuda::abi");
static_assert(__builtin_offsetof(FkDevice, runners_done) == 120, "FkDevice::runners_done: the layout of transform::emit_cuda::abi");
#endif

// A group instance's timestamps (`gpu::timeline` decodes them): every instance under
// the device schedule, those a block region forms under the host schedule. Under the
// device schedule with `FkTrace::regions`, also a group's asynchronous regions and
// barriers (`size` FK_REC_ASYNC, FK_REC_BARRIER).
struct FkTraceRec {
    // %globaltimer when the leader action formed it (in a host-schedule region: the
    // nanoseconds since the region kernel's start)
    fk_u64 begin;
    // ... when its last member left it
    fk_u64 end;
    // @
    fk_i64 at;
    // the parent instance's number (-1 for the root)
    int parent;
    // the instruction that formed it (-1 for the root)
    int pc;
    // split: the subgroup index (then 0, else 1; fork: @); an asynchronous region:
    // its number in `Plan::traced_asyncs`
    int index;
    // the group's size; or FK_REC_ASYNC, FK_REC_BARRIER: not a group instance, but a
    // stretch or a point of the `parent`'s time, `pc` the collective that ended it
    // (a barrier: `at` members met there)
    int size;
    // the parent's step at the forming collective (siblings share it); in a block
    // region, the number of the collective's first record
    unsigned event;
    // formed in a block region: 1 + the region's launch number (`FkRegion::launch`, by
    // which the host schedule's driver finds the region kernel of a record); else 0
    unsigned launch;
};
static_assert(sizeof(FkTraceRec) == 48, "FkTraceRec: the layout of transform::emit_cuda::abi");
#ifndef __CUDACC_RTC__
static_assert(__builtin_offsetof(FkTraceRec, begin) == 0, "FkTraceRec::begin: the layout of transform::emit_cuda::abi");
static_assert(__builtin_offsetof(FkTraceRec, end) == 8, "FkTraceRec::end: the layout of transform::emit_cuda::abi");
static_assert(__builtin_offsetof(FkTraceRec, at) == 16, "FkTraceRec::at: the layout of transform::emit_cuda::abi");
static_assert(__builtin_offsetof(FkTraceRec, parent) == 24, "FkTraceRec::parent: the layout of transform::emit_cuda::abi");
static_assert(__builtin_offsetof(FkTraceRec, pc) == 28, "FkTraceRec::pc: the layout of transform::emit_cuda::abi");
static_assert(__builtin_offsetof(FkTraceRec, index) == 32, "FkTraceRec::index: the layout of transform::emit_cuda::abi");
static_assert(__builtin_offsetof(FkTraceRec, size) == 36, "FkTraceRec::size: the layout of transform::emit_cuda::abi");
static_assert(__builtin_offsetof(FkTraceRec, event) == 40, "FkTraceRec::event: the layout of transform::emit_cuda::abi");
static_assert(__builtin_offsetof(FkTraceRec, launch) == 44, "FkTraceRec::launch: the layout of transform::emit_cuda::abi");
#endif

// Where the GPU writes its timestamps, set into `fk_t` only for `--trace` and `--stats`
// (`recs` 0: none).
struct FkTrace {
    // null: no timestamps (the default)
    FkTraceRec *recs;
    // instances formed (also those beyond cap, which are not recorded)
    unsigned *count;
    unsigned cap;
    // 1: also the groups and `seq`s that block regions form, and (device schedule)
    // asynchronous regions and barriers (`--trace`); 0: only the groups outside
    // regions, which hold every call (`--stats`' time per function)
    unsigned regions;
};
static_assert(sizeof(FkTrace) == 24, "FkTrace: the layout of transform::emit_cuda::abi");
#ifndef __CUDACC_RTC__
static_assert(__builtin_offsetof(FkTrace, recs) == 0, "FkTrace::recs: the layout of transform::emit_cuda::abi");
static_assert(__builtin_offsetof(FkTrace, count) == 8, "FkTrace::count: the layout of transform::emit_cuda::abi");
static_assert(__builtin_offsetof(FkTrace, cap) == 16, "FkTrace::cap: the layout of transform::emit_cuda::abi");
static_assert(__builtin_offsetof(FkTrace, regions) == 20, "FkTrace::regions: the layout of transform::emit_cuda::abi");
#endif

// Starts the time limit's clock.
extern "C" __global__ void fk_start_clock();
// The first member of group `g` records the limit fault `why` at `site`.
extern "C" __global__ void fk_limit_hit(int g, int site, int why, unsigned launch);
// `--crcw common`: checks the writes of launch `launch`.
extern "C" __global__ void fk_common_check_launch(int g, int n, unsigned launch);
// `--crcw common`: finds the processors of a conflict.
extern "C" __global__ void fk_common_writers(int pass);
// Sets group `g`'s descriptor.
extern "C" __global__ void fk_set_group(int g, FkGroup desc);
// `start`: the root group's members.
extern "C" __global__ void fk_start(int procs, fk_u64 base);
// The first active member's value of `v` into `fk_m.flag`.
extern "C" __global__ void fk_read_first(int g, int n, fk_u64 slot_base, FkVar v);
// A split's keys and subgroup sizes.
extern "C" __global__ void fk_split_count(int g, int n, fk_u64 slot_base, int kind, FkVar key, int k, int set_dollar, FkVar dollar, fk_u64 saved);
// A split's subgroups: consecutive ranks in $$ order (one block).
extern "C" __global__ void fk_split_rank(int g, int n, int k, int first, fk_u64 member_base, int inherit_at, int frame0, int frame1, fk_u64 frame_base, fk_u64 frame_stride);
// Restores the members' $ saved by a fork.
extern "C" __global__ void fk_restore_dollar(int g, int n, fk_u64 saved);
// Marks the active members (a loop's participants).
extern "C" __global__ void fk_mark_active(int g, int n, fk_u64 marks);
// The marked members with status `from` get status `to`.
extern "C" __global__ void fk_marked_status(int g, int n, fk_u64 marks, int from, int to);
// A loop's exit test: the members that leave, and whether any stays.
extern "C" __global__ void fk_loop_exit(int g, int n, fk_u64 slot_base, fk_u64 marks, int has_cond, FkVar cond, int cond_group);
// The loop group's keys.
extern "C" __global__ void fk_loop_keys(int g, int n, fk_u64 marks);
// A call's entry or its result: sets group `set`'s descriptor (`set` >= 0) and marks
// the active members (`mark`), then the marked members copy `vars` (arguments, or
// the result).
extern "C" __global__ void fk_call_copies(int g, int n, fk_u64 marks, int mark, int set, FkGroup desc, int src_group, fk_u64 src_base, int dst_group, fk_u64 dst_base, FkCopies vars);
// A multiprefix of the group's members (one block).
extern "C" __global__ void fk_multiprefix(int g, int n, fk_u64 slot_base, int op, FkVar ptr, FkVar value, int has_result, FkVar result);
// Device schedule: every processor's state.
extern "C" __global__ void fk_device_init();
// Device schedule: the persistent kernel; `runners` threads of each block run
// processors (`device_runners`).
extern "C" __global__ void fk_device_run(int runners);
// The parameters of every Plan kernel (FK_KERNEL).
#define FK_PLAN_KERNEL_PARAMS int g, int n, fk_u64 slot_base, unsigned launch, int serial
