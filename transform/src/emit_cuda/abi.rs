//! The CUDA ABI, declared once: the structures, constants and kernel signatures that the
//! runtime library (`pram-runtime/cuda/*.cuh`), the emitted code and the GPU driver
//! (`pram_runtime::gpu`) share. [`c_header`] writes them as C (`fk_abi.cuh`, put in front of
//! the library in every CUDA source), with a `static_assert` of every struct's size and every
//! field's offset as this crate lays it out, so the C compiler (NVRTC, nvcc, the g++ emulator)
//! rejects a C side that disagrees. The emitter and the driver use the names here: the driver
//! launches a runtime kernel with one of the argument structs of [`kernels`], whose fields
//! are pushed in the order of the C parameters.
//!
//! It lives in `transform` because the emitter (here) and the driver and library
//! (`pram-runtime`, above) both need it: the text flows up the crate order, never down.

use crate::plan::{Home, Plan};
use fork_frontend::hir::{MpOp, VarId};
use std::fmt::Write;
use std::marker::PhantomData;

/// Plain C data of the ABI: its C type name and its bytes on the device. Implemented for
/// the scalars, the structs and the opaque records below; a value of it may be copied to the
/// device as its bytes.
pub trait CType: Copy {
    const C: &'static str;
    /// Bytes of one on the device (an array of it takes this many per element).
    const BYTES: u64 = std::mem::size_of::<Self>() as u64;
}

impl CType for u8 {
    const C: &'static str = "char";
}
impl CType for i32 {
    const C: &'static str = "int";
}
impl CType for u32 {
    const C: &'static str = "unsigned";
}
impl CType for i64 {
    const C: &'static str = "fk_i64";
}
impl CType for u64 {
    const C: &'static str = "fk_u64";
}

/// A device address of an array of `T` (C: `T *`). The field's type is the one declaration
/// of the array's element type: the C header declares the field as `T *`, so the `.cu`
/// allocates it by `sizeof(T)` (`fk_alloc_array`), and the driver sizes and reads it by
/// `T::BYTES` through the field (`FkMachine::array_bytes(|m| &m.counts, n)`).
#[repr(transparent)]
pub struct Ptr<T>(u64, PhantomData<T>);

impl<T> Ptr<T> {
    pub const fn at(addr: u64) -> Ptr<T> {
        Ptr(addr, PhantomData)
    }
    pub const fn addr(self) -> u64 {
        self.0
    }
}

// By hand: derived, they would ask the same of `T`, which an opaque record is not.
impl<T> Clone for Ptr<T> {
    fn clone(&self) -> Ptr<T> {
        *self
    }
}
impl<T> Copy for Ptr<T> {}
impl<T> PartialEq for Ptr<T> {
    fn eq(&self, other: &Ptr<T>) -> bool {
        self.0 == other.0
    }
}
impl<T> Eq for Ptr<T> {}
impl<T> std::fmt::Debug for Ptr<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(f, "{:#x}", self.0)
    }
}

/// How a struct's field is declared in C: its (element) type's name, and whether the field
/// is a pointer to it or an array of `LEN` of it (0: neither).
pub trait CField {
    const C: &'static str;
    const POINTER: bool = false;
    const LEN: usize = 0;
}

impl<T: CType> CField for Ptr<T> {
    const C: &'static str = T::C;
    const POINTER: bool = true;
}

impl<T: CType, const N: usize> CField for [T; N] {
    const C: &'static str = T::C;
    const LEN: usize = N;
}

macro_rules! scalar_fields {
    ($($t:ty),*) => {$(
        impl CField for $t {
            const C: &'static str = <$t as CType>::C;
        }
    )*};
}
scalar_fields!(i32, u32, i64, u64);

/// A field's value from the little-endian bytes the device wrote (missing bytes read as 0).
pub trait FromLe: Sized {
    fn from_le(b: &[u8]) -> Self;
}

/// A field's little-endian bytes, as the device reads them.
pub trait ToLe {
    fn to_le(&self, out: &mut Vec<u8>);
}

macro_rules! from_le {
    ($($t:ty),*) => {$(
        impl FromLe for $t {
            fn from_le(b: &[u8]) -> $t {
                let n = std::mem::size_of::<$t>();
                b.get(..n)
                    .and_then(|w| w.try_into().ok())
                    .map_or(0, <$t>::from_le_bytes)
            }
        }
        impl ToLe for $t {
            fn to_le(&self, out: &mut Vec<u8>) {
                out.extend(self.to_le_bytes());
            }
        }
    )*};
}
from_le!(i32, u32, i64, u64);

impl<T: FromLe, const N: usize> FromLe for [T; N] {
    fn from_le(b: &[u8]) -> [T; N] {
        let n = std::mem::size_of::<T>();
        std::array::from_fn(|i| T::from_le(b.get(n * i..).unwrap_or(&[])))
    }
}

impl<T: ToLe, const N: usize> ToLe for [T; N] {
    fn to_le(&self, out: &mut Vec<u8>) {
        self.iter().for_each(|x| ToLe::to_le(x, out));
    }
}

impl<T> FromLe for Ptr<T> {
    fn from_le(b: &[u8]) -> Ptr<T> {
        Ptr::at(<u64 as FromLe>::from_le(b))
    }
}

impl<T> ToLe for Ptr<T> {
    fn to_le(&self, out: &mut Vec<u8>) {
        ToLe::to_le(&self.0, out);
    }
}

/// One field of a struct: its C type (of the element, for a pointer or an array), whether it
/// is a pointer (a [`Ptr`]), the array length (0: not an array), and where this crate lays it
/// out.
#[derive(Debug)]
pub struct Field {
    pub name: &'static str,
    pub c: &'static str,
    pub pointer: bool,
    pub len: usize,
    pub offset: usize,
    pub size: usize,
    pub doc: &'static [&'static str],
}

/// A struct of the ABI: what the header declares and asserts about it.
#[derive(Debug)]
pub struct Struct {
    pub name: &'static str,
    pub size: usize,
    pub doc: &'static [&'static str],
    pub fields: &'static [Field],
}

// Each declaration below is written once: the macros make the Rust item and the table the
// C header is written from.
macro_rules! c_structs {
    ($( $(#[doc = $doc:literal])* struct $name:ident {
        $( $(#[doc = $fdoc:literal])* $field:ident : $rty:ty ),* $(,)?
    } )*) => {
        $(
            $(#[doc = $doc])*
            #[repr(C)]
            #[derive(Debug, Clone, Copy, PartialEq, Eq)]
            pub struct $name { $( $(#[doc = $fdoc])* pub $field: $rty, )* }
            impl Default for $name {
                /// All zeros (the arrays are longer than `Default` covers).
                fn default() -> $name {
                    $name::from_bytes(&[])
                }
            }
            impl CType for $name {
                const C: &'static str = stringify!($name);
            }
            impl CField for $name {
                const C: &'static str = stringify!($name);
            }
            // A struct may be a field of another.
            impl FromLe for $name {
                fn from_le(b: &[u8]) -> $name {
                    $name::from_bytes(b)
                }
            }
            impl ToLe for $name {
                fn to_le(&self, out: &mut Vec<u8>) {
                    out.extend(self.to_bytes());
                }
            }
            impl $name {
                /// Bytes of it on the device.
                pub const BYTES: u64 = <$name as CType>::BYTES;

                /// Bytes of `n` elements of the array that `field` points to (`|m| &m.counts`):
                /// its element type's, as the field declares it.
                pub fn array_bytes<T: CType>(_field: fn(&$name) -> &Ptr<T>, n: u64) -> u64 {
                    n * T::BYTES
                }

                /// The struct from the bytes the device wrote.
                pub fn from_bytes(b: &[u8]) -> $name {
                    $name { $( $field: <$rty as FromLe>::from_le(
                        b.get(std::mem::offset_of!($name, $field)..).unwrap_or(&[]),
                    ), )* }
                }
                /// Its bytes as the device lays it out (padding zero).
                pub fn to_bytes(&self) -> Vec<u8> {
                    let mut b = vec![0u8; std::mem::size_of::<$name>()];
                    $(
                        let mut f = Vec::new();
                        ToLe::to_le(&self.$field, &mut f);
                        let at = std::mem::offset_of!($name, $field);
                        b[at..at + f.len()].copy_from_slice(&f);
                    )*
                    b
                }
            }
        )*
        /// Every struct, in the order C declares them.
        pub const STRUCTS: &[Struct] = &[$(Struct {
            name: stringify!($name),
            size: std::mem::size_of::<$name>(),
            doc: &[$($doc),*],
            fields: &[$(Field {
                name: stringify!($field),
                c: <$rty as CField>::C,
                pointer: <$rty as CField>::POINTER,
                len: <$rty as CField>::LEN,
                offset: std::mem::offset_of!($name, $field),
                size: std::mem::size_of::<$rty>(),
                doc: &[$($fdoc),*],
            }),*],
        }),*];
    };
}

macro_rules! c_consts {
    ($(#[doc = $tdoc:literal])* $table:ident;
     $( $(#[doc = $doc:literal])* $name:ident : $ty:ty = $value:expr; )*) => {
        $( $(#[doc = $doc])* pub const $name: $ty = $value; )*
        $(#[doc = $tdoc])*
        pub const $table: &[(&str, i64, &[&str])] = &[$((stringify!($name), $name as i64, &[$($doc),*])),*];
    };
}

macro_rules! c_kernels {
    (@name) => { None };
    (@name $cname:literal) => { Some($cname) };
    ($( $(#[doc = $doc:literal])* $ty:ident $(= $cname:literal)? ( $($arg:ident : $aty:ty),* $(,)? ); )*) => {
        $(
            $(#[doc = $doc])*
            #[derive(Debug, Clone, Copy)]
            pub struct $ty { $(pub $arg: $aty,)* }
            impl Params for $ty {
                const PARAMS: &'static [(&'static str, &'static str)] =
                    &[$((stringify!($arg), <$aty as CType>::C)),*];
                fn push<'a, S: ArgSink<'a>>(&'a self, _sink: &mut S) {
                    $( _sink.arg(&self.$arg); )*
                }
            }
            $( impl Kernel for $ty { const NAME: &'static str = $cname; } )?
        )*
        /// Every kernel signature: its C name (None: the emitted program names it), its
        /// parameters, its doc.
        pub const KERNELS: &[(Option<&str>, &[(&str, &str)], &[&str])] =
            &[$(( c_kernels!(@name $($cname)?), <$ty as Params>::PARAMS, &[$($doc),*] )),*];
    };
}

/// A kernel's argument list: its C parameters (name, C type), and its values in their order.
pub trait Params {
    const PARAMS: &'static [(&'static str, &'static str)];
    fn push<'a, S: ArgSink<'a>>(&'a self, sink: &mut S);
}

/// A kernel of the runtime library, with its C name.
pub trait Kernel: Params {
    const NAME: &'static str;
}

/// Where a kernel's arguments go (the driver's launch).
pub trait ArgSink<'a> {
    fn arg<T: CType>(&mut self, value: &'a T);
}

c_structs! {
    /// One group instance on the device.
    struct FkGroup {
        /// @
        at: i64,
        /// index in the group stack, -1 for the outermost group
        parent: i32,
        /// groupsize()
        size: i32,
        /// index of its first member in `fk_m.members` ($$ order)
        members: u64,
        /// the SharedFrameId of its shared frame
        frame_id: i32,
        /// address of its shared frame
        frame: u64,
    }

    /// A variable the runtime kernels read or write (condition slots, arguments, results).
    struct FkVar {
        /// FK_VAR_*
        kind: i32,
        /// FK_VAR_SHARED_FRAME: the SharedFrameId
        frame_id: i32,
        offset: u64,
        size: u64,
    }

    /// The variables a call's launch copies (`fk_call_copies`): pair i copies `src[i]` to
    /// `dst[i]`, for i < `count` (at most FK_COPIES_MAX; a call with more arguments launches
    /// again for the rest).
    struct FkCopies {
        count: i32,
        pad: i32,
        src: [FkVar; FK_COPIES_MAX as usize],
        dst: [FkVar; FK_COPIES_MAX as usize],
    }

    /// The first fault in the simulator's order (`fk_fault_v`), which the host reads back.
    struct FkFault {
        /// 1 + the fault site (0: none)
        site: i32,
        /// the faulting processor
        proc: i32,
        /// host schedule: the faulting step (launch, segment of a block region)
        launch: u32,
        sub: u32,
        /// $$
        rank: i32,
        /// @
        at: i32,
        /// the value the site's message names
        value: i64,
        /// the object: FkObject::object (>= 0) or FK_OBJECT_*
        object: i32,
        /// the heap block's size
        size: i32,
        /// serialises the faults that race for the record (the host does not read it)
        lock: i32,
        /// device schedule: the faulting step's group instance and step (fk_drains)
        group: i32,
        step: u32,
        /// how far the faulting thread had got in its step (`FkThread::iters`): the kernel's
        /// top-level statement (the high 32 bits), then the iterations of loops inside it; a
        /// fault further back comes first
        iters: u64,
    }

    /// Why the recorded fault is a limit or a conflict (FkLimits::why).
    struct FkWhy {
        /// FK_LIMIT_* or FK_CONFLICT; 0: neither
        limit: i32,
        /// FK_PROC_MAX - the lowest processor still in the loop (0: none recorded)
        proc: i32,
    }

    /// The words the host schedule's host reads back to decide a branch or a loop's exit
    /// (FkMachine::read_back).
    struct FkReadBack {
        /// fk_read_first: the first active member's value
        first: i32,
        /// fk_read_first: 1 when that value is non-zero, 0 when it is zero, -1 when no member
        /// is active
        first_truth: i32,
        /// fk_loop_exit: the participants still in the loop (the host zeroes it first)
        staying: i32,
    }

    /// The device addresses of every region (`fk_m`).
    struct FkMachine {
        procs: i32,
        /// member lists (stack), processor ids in $$ order
        members: Ptr<i32>,
        /// group stack
        groups: Ptr<FkGroup>,
        /// $ per processor
        dollar: Ptr<i64>,
        /// FK_ACTIVE / FK_BREAK / FK_CONTINUE / FK_RETURN per processor
        status: Ptr<i32>,
        /// stack of per-member words: loop participation marks, saved $
        words: Ptr<i64>,
        /// split: subgroup index per member of the split group (-1: none)
        keys: Ptr<i32>,
        /// split: members per subgroup
        counts: Ptr<i32>,
        /// split: next free position per subgroup
        cursor: Ptr<i32>,
        /// the words the host reads back
        read_back: Ptr<FkReadBack>,
        /// string literals, each NUL-terminated
        strings: Ptr<u8>,
        shared_globals: Ptr<u8>,
        /// private globals, then the frames of host calls
        slots: Ptr<u8>,
        heap: Ptr<u8>,
        heap_bytes: u64,
        heap_top: Ptr<u64>,
        /// printf records
        out: Ptr<u8>,
        out_bytes: u64,
        out_top: Ptr<u64>,
        /// the first fault
        fault: Ptr<FkFault>,
    }

    /// The step and time limits (`fk_limits`; the time limit counts from `fk_start_clock`).
    struct FkLimits {
        /// iterations of one loop; 0: none
        max_steps: u64,
        /// 0: none
        timeout_ns: u64,
        why: Ptr<FkWhy>,
    }

    /// A printf record's header (`fk_printf`), followed by the arguments; under the device
    /// schedule the order key's (step, index) pairs come between them.
    struct FkRecordHeader {
        /// the record's bytes, header included
        bytes: u32,
        /// host schedule: the step (launch, segment of a block region), the member's key ($$
        /// or __PROC_NR__); 0 under the device schedule
        launch: u32,
        sub: u32,
        key: u32,
        /// the thread's records in program order
        seq: u32,
        /// the format's string id
        format: u32,
        /// arguments
        args: u32,
        /// device schedule: the order key's pairs; 0 under the host schedule
        pairs: u32,
    }

    /// One write logged for the `--crcw common` check.
    struct FkWrite {
        addr: u64,
        bits: u64,
        size: i32,
        site: i32,
    }

    /// The cell of a `--crcw common` conflict (FkCommon::conflict).
    struct FkConflict {
        cell: u64,
        /// its step's tag (fk_step_tag)
        tag: u64,
    }

    /// A range of shared memory, [lo, hi) (FkCommon).
    struct FkRange {
        lo: Ptr<u8>,
        hi: Ptr<u8>,
    }

    /// After a conflict, the pair of processors `fk_common_writers` finds, each as
    /// FK_PROC_MAX - processor (atomicMax; 0: none found) (FkCommon::writers).
    struct FkWriters {
        /// pass 0: the lowest processor that wrote the cell in the step
        first: i32,
        /// pass 1: the lowest whose value differs from the first's
        second: i32,
    }

    /// The `--crcw common` write logs (`fk_common`).
    struct FkCommon {
        /// FK_WRITES per processor (0: the run does not check)
        writes: Ptr<FkWrite>,
        /// per processor: its writes in its last checked step
        count: Ptr<i32>,
        /// per processor: that step (fk_step_tag)
        tag: Ptr<u64>,
        /// shared memory, the writes that are logged: the shared globals
        globals: FkRange,
        /// the group frames (the device schedule: its frame heap)
        frames: FkRange,
        /// the heap
        heap: FkRange,
        conflict: Ptr<FkConflict>,
        /// the two processors to name
        writers: Ptr<FkWriters>,
    }

    /// The device schedule: each processor's slot stack (`fk_slot_stacks`).
    struct FkSlotStacks {
        base: Ptr<u8>,
        /// bytes per processor
        stride: u64,
    }

    /// The device schedule's runtime limit (FkDevice::error).
    struct FkError {
        /// FK_ERR_*; 0: none
        code: i32,
        /// the processor
        proc: i32,
    }

    /// One pair of an order key under the device schedule (docs/language.md §7): a group
    /// instance's step and the index there (a subgroup's, or the member's key last). Records
    /// carry their key's pairs after the header (FkRecordHeader::pairs).
    struct FkKeyPair {
        step: u32,
        index: u32,
    }

    /// The faulting step's order key under the device schedule (FkDevice::fault_key).
    struct FkFaultKey {
        pairs: u32,
        key: [FkKeyPair; FK_KEY_MAX as usize],
    }

    /// The device schedule's state (`fk_d`).
    struct FkDevice {
        procs: Ptr<FkProc>,
        /// procs
        results: Ptr<FkResult>,
        /// procs * depth
        frames: Ptr<FkFrame>,
        /// procs * (depth + 1), as fk_m.groups
        sync: Ptr<FkSync>,
        /// 2 * procs
        scratch: Ptr<FkSlot>,
        frame_heap: Ptr<u8>,
        frame_heap_bytes: u64,
        frame_heap_top: Ptr<u64>,
        depth: i32,
        /// main's first instruction
        entry: i32,
        /// per processor
        slot_stack_bytes: u64,
        /// the first runtime limit a processor met
        error: Ptr<FkError>,
        fault_key: Ptr<FkFaultKey>,
        /// procs (at least the persistent kernel's blocks): per block, the region tasks
        /// posted to it, a list of the posters linked through `next_task`, -1 when empty
        tasks: Ptr<i32>,
        /// the posts so far: where no block is idle, the next task goes to block
        /// `task_posts % blocks`
        task_posts: Ptr<u32>,
        /// procs / 32 + 1 words: bit b of word w is set while block 32 w + b's team waits
        /// with an empty task list; a poster claims such a block by clearing its bit
        idle: Ptr<i32>,
        /// the runner warps that have ended
        runners_done: Ptr<i32>,
    }

    /// A group instance's timestamps (`gpu::timeline` decodes them): every instance under
    /// the device schedule, those a block region forms under the host schedule. Under the
    /// device schedule with `FkTrace::regions`, also a group's asynchronous regions and
    /// barriers (`size` FK_REC_ASYNC, FK_REC_BARRIER).
    struct FkTraceRec {
        /// %globaltimer when the leader action formed it (in a host-schedule region: the
        /// nanoseconds since the region kernel's start)
        begin: u64,
        /// ... when its last member left it
        end: u64,
        /// @
        at: i64,
        /// the parent instance's number (-1 for the root)
        parent: i32,
        /// the instruction that formed it (-1 for the root)
        pc: i32,
        /// split: the subgroup index (then 0, else 1; fork: @); an asynchronous region:
        /// its number in `Plan::traced_asyncs`
        index: i32,
        /// the group's size; or FK_REC_ASYNC, FK_REC_BARRIER: not a group instance, but a
        /// stretch or a point of the `parent`'s time, `pc` the collective that ended it
        /// (a barrier: `at` members met there)
        size: i32,
        /// the parent's step at the forming collective (siblings share it); in a block
        /// region, the number of the collective's first record
        event: u32,
        /// formed in a block region: 1 + the region's launch number (`FkRegion::launch`, by
        /// which the host schedule's driver finds the region kernel of a record); else 0
        launch: u32,
    }

    /// Where the GPU writes its timestamps, set into `fk_t` only for `--trace` and `--stats`
    /// (`recs` 0: none).
    struct FkTrace {
        /// null: no timestamps (the default)
        recs: Ptr<FkTraceRec>,
        /// instances formed (also those beyond cap, which are not recorded)
        count: Ptr<u32>,
        cap: u32,
        /// 1: also the groups and `seq`s that block regions form, and (device schedule)
        /// asynchronous regions and barriers (`--trace`); 0: only the groups outside
        /// regions, which hold every call (`--stats`' time per function)
        regions: u32,
    }
}

macro_rules! c_opaque {
    ($( $name:ident = $bytes:ident; )*) => {
        $(
            /// Defined in `fk_schedule.cuh` (OPAQUE).
            #[derive(Debug, Clone, Copy)]
            pub enum $name {}
            impl CType for $name {
                const C: &'static str = stringify!($name);
                const BYTES: u64 = $bytes;
            }
        )*
        /// The device schedule's records that the driver allocates but never reads field by
        /// field: defined in `fk_schedule.cuh`, whose `static_assert`s check the sizes named
        /// here.
        pub const OPAQUE: &[(&str, &str)] = &[$((stringify!($name), stringify!($bytes))),*];
    };
}

c_opaque! {
    FkProc = FK_PROC_BYTES;
    FkResult = FK_RESULT_BYTES;
    FkFrame = FK_FRAME_BYTES;
    FkSync = FK_SYNC_BYTES;
    FkSlot = FK_SLOT_BYTES;
}

c_consts! {
    /// Every constant, in the order C defines them: name, value, doc.
    CONSTS;

    /// FkVar::kind: a spilled private variable in the slot stack
    FK_VAR_SLOT: i32 = 0;
    /// FkVar::kind: a private global
    FK_VAR_PRIVATE_GLOBAL: i32 = 1;
    /// FkVar::kind: a shared global
    FK_VAR_SHARED_GLOBAL: i32 = 2;
    /// FkVar::kind: a shared local in its group's shared frame
    FK_VAR_SHARED_FRAME: i32 = 3;

    /// FkTraceRec::size of a record that is no group instance: an asynchronous region of
    /// the parent group (from `begin` to `end`), a barrier where its members met (at `begin`)
    FK_REC_ASYNC: i32 = -1;
    FK_REC_BARRIER: i32 = -2;
    /// fk_trace_async_at (device schedule): FK_AT_REGION * (1 + the asynchronous region an
    /// instruction lies in, `Plan::traced_asyncs`), plus FK_AT_OPENS where the region's own
    /// group runs it, plus FK_AT_BARRIER where it launches a kernel that ends at a `barrier`
    FK_AT_REGION: i32 = 4;
    FK_AT_OPENS: i32 = 1;
    FK_AT_BARRIER: i32 = 2;

    /// A processor's status (FkMachine::status): active, or how it left a construct
    FK_ACTIVE: i32 = 0;
    FK_BREAK: i32 = 1;
    FK_CONTINUE: i32 = 2;
    FK_RETURN: i32 = 3;

    /// The most variables one `fk_call_copies` launch copies (FkCopies)
    FK_COPIES_MAX: u64 = 8;

    /// fk_split_count's `kind`: an `if` (key 0: then, 1: else) or a `fork` (key: @)
    FK_SPLIT_IF: i32 = 0;
    FK_SPLIT_FORK: i32 = 1;

    /// A multiprefix operator (fk_combine)
    FK_MP_ADD: i32 = 0;
    FK_MP_MAX: i32 = 1;
    FK_MP_MIN: i32 = 2;
    FK_MP_AND: i32 = 3;
    FK_MP_OR: i32 = 4;

    /// The object of a fault (FkFault::object) when it is none of the program's: a private
    /// (`malloc`) or shared (`shmalloc`) heap block, a variable the checks do not look up
    FK_OBJECT_MALLOC: i32 = -1;
    FK_OBJECT_SHMALLOC: i32 = -2;
    FK_OBJECT_VARIABLE: i32 = -3;
    /// fk_free's `kind`: `free`, `shfree`, `shfree` in a synchronous region (the group's
    /// members free the block they allocated together, once)
    FK_FREE_PRIVATE: i32 = 0;
    FK_FREE_SHARED: i32 = 1;
    FK_FREE_SHARED_ONCE: i32 = 2;

    /// Which limit a fault is (FkWhy::limit)
    FK_LIMIT_STEPS: i32 = 1;
    FK_LIMIT_TIME: i32 = 2;
    /// recursion: the call nests deeper than the run holds (R0008)
    FK_LIMIT_DEPTH: i32 = 3;
    /// --crcw common: processors wrote different values into a cell (R0004)
    FK_CONFLICT: i32 = 4;
    /// The most processors a run has (`__PROC_NR__` is an `int`): the CLI's and the `.cu`'s
    /// `-p` stop there. The limit and conflict words record FK_PROC_MAX - processor (never
    /// 0, which means none)
    FK_PROC_MAX: i32 = i32::MAX;
    /// --crcw common: writes logged per processor and step; later ones are not checked
    FK_WRITES: u64 = 8;

    /// Bytes of a printf argument in a record (an `fk_i64` or a `double`); a `%s` string is
    /// its length in one, then its bytes padded to whole ones
    FK_ARG_BYTES: u64 = 8;

    /// The device schedule's runtime limits (FkError::code)
    FK_ERR_FRAMES: i32 = 1;
    FK_ERR_FRAME_HEAP: i32 = 2;
    /// The device schedule's frames per processor (`device_depth`): FK_DEPTH_MANY up to
    /// FK_DEPTH_PROCS processors, FK_DEPTH_FEW above
    FK_DEPTH_PROCS: u64 = 1 << 16;
    FK_DEPTH_MANY: u32 = 64;
    FK_DEPTH_FEW: u32 = 16;
    /// The most (step, index) pairs of an order key (FkFaultKey)
    FK_KEY_MAX: u64 = 256;
    /// Bytes of the device schedule's records (OPAQUE)
    FK_PROC_BYTES: u64 = 64;
    FK_RESULT_BYTES: u64 = 16;
    FK_FRAME_BYTES: u64 = 48;
    FK_SYNC_BYTES: u64 = 256;
    FK_SLOT_BYTES: u64 = 32;

    /// Threads per block of the per-member runtime kernels
    FK_BLOCK_THREADS: u32 = 256;
    /// Threads per block of the device schedule's persistent kernel (the program's
    /// `FK_DEVICE_THREADS`, `emit_cuda::schedule::device_threads`): the first `runners` (at
    /// most half) run processors, the others run the block's region tasks; 640 (96 registers
    /// a thread) so that a task has 608 threads beside one runner warp
    FK_DEVICE_THREADS_TASKS: u32 = 640;
    /// The same in a program with a grid region: 384 (168 registers a thread, where 640 left
    /// 136 to 472 bytes of spills in the persistent kernel; docs/performance.md, session 39)
    FK_DEVICE_THREADS_GRID: u32 = 384;
    /// The most runners in a program with a grid region: its team of 256 threads a block runs
    /// a group of every processor a member per thread up to 33,792 processors on 132 SMs
    /// (docs/device-schedule.md: with blocks of 640, Hillis–Steele 2^20 and list ranking at
    /// P = 65,536 took 22% and 18% less time than with 320 runners)
    FK_DEVICE_RUNNERS_GRID: u32 = 128;
    /// A block region's kernel runs its group's members rounded up to whole warps of this
    /// many threads (FK_REGION_THREADS)
    FK_WARP_THREADS: u32 = 32;
    /// The most threads per block of a grid region's cooperative launch (its members spread
    /// over every SM in whole warps, and every block has a member: its decisions are its
    /// members')
    FK_GRID_THREADS: u32 = 256;

    /// The runtime's capacities, the same for the driver's arena and the `.cu`'s
    /// allocations (a program that outgrows one stops alike under both). Member lists and
    /// per-member words: FK_STACK_PER_PROC entries per processor and FK_STACK_EXTRA more
    FK_STACK_PER_PROC: u64 = 64;
    FK_STACK_EXTRA: u64 = 4096;
    /// Group descriptors (the device schedule: at least one per processor and frame)
    FK_GROUPS_MIN: u64 = 1 << 18;
    /// Subgroup counts and cursors (at least one per processor)
    FK_COUNTS_MIN: u64 = 1 << 16;
    /// Bytes of the host schedule's shared frames
    FK_FRAMES_BYTES: u64 = 16 << 20;
    /// Bytes of spilled private slots: at least this, and FK_MAIN_ACTIVATIONS of main's
    /// frame (after the private globals) per processor
    FK_SLOTS_BYTES_MIN: u64 = 64 << 20;
    FK_MAIN_ACTIVATIONS: u64 = 64;
    /// Bytes of the device schedule's heap of shared frames
    FK_FRAME_HEAP_BYTES: u64 = 64 << 20;
    /// FkThread::iters and FkFault::iters hold the kernel's top-level statement from this
    /// bit up and the iterations of loops inside it below (the order of a launch's faults)
    FK_ITERS_STATEMENT_SHIFT: u32 = 32;
}

c_consts! {
    /// The numbers a build of the `.cu` may set (`-DNAME=N`; the driver: `gpu::Memory`) and
    /// the CPU stand-in of the tests (`tests/emu/fk_emu.h`) lowers: the header defines them
    /// where they are not defined yet.
    DEFAULTS;

    /// Bytes of the heap (malloc, shmalloc; `--heap-mib`)
    FK_HEAP_BYTES: u64 = 64 << 20;
    /// Bytes of printf records (`--printf-mib`)
    FK_OUT_BYTES: u64 = 64 << 20;

    /// Threads of the block-wide runtime kernels (split ranks, multiprefix): a multiple of
    /// 32, at most 1024
    FK_SCAN_THREADS: u32 = 1024;
    /// The most members of a group that runs a block region (one thread per member under the
    /// host schedule; under the device schedule one thread per member when the region has an
    /// asynchronous kernel, else members t, t + 256, ... on one thread)
    FK_REGION_MAX: u32 = crate::regions::MAX_MEMBERS;
    /// The most members of a group for which the device schedule runs a block region whose
    /// kernels are all synchronous on one block of its persistent kernel (its threads take
    /// the members in turn); a larger group runs the region's instructions one by one, on
    /// the threads of all blocks (docs/device-schedule.md: one block beat all of them up to
    /// 4096 members on the H100)
    FK_REGION_TASK_MAX: u32 = 4 * crate::regions::MAX_MEMBERS;
    /// The fewest members of a group for which the device schedule runs a block region on
    /// one block of its persistent kernel (1: every group, a group of one only on an idle
    /// block; a larger value leaves smaller groups to run the region's instructions one by
    /// one, side by side with their siblings, docs/device-schedule.md)
    FK_REGION_TASK_MIN: u32 = 1;
    /// 1: every decision of a grid region is its group's, at a grid barrier, as where a
    /// member is not active at the region's start (`fk_g_decide`), which no program the
    /// transform accepts reaches; the emulated tests run the path so
    FK_GRID_GROUP_DECISIONS: u32 = 0;
}

/// The runtime kernels' signatures; the driver fills these by name.
pub mod kernels {
    use super::*;

    c_kernels! {
        /// Starts the time limit's clock.
        StartClock = "fk_start_clock"();
        /// The first member of group `g` records the limit fault `why` at `site`.
        LimitHit = "fk_limit_hit"(g: i32, site: i32, why: i32, launch: u32);
        /// `--crcw common`: checks the writes of launch `launch`.
        CommonCheckLaunch = "fk_common_check_launch"(g: i32, n: i32, launch: u32);
        /// `--crcw common`: finds the processors of a conflict.
        CommonWriters = "fk_common_writers"(pass: i32);
        /// Sets group `g`'s descriptor.
        SetGroup = "fk_set_group"(g: i32, desc: FkGroup);
        /// `start`: the root group's members.
        Start = "fk_start"(procs: i32, base: u64);
        /// The first active member's value of `v` into `fk_m.flag`.
        ReadFirst = "fk_read_first"(g: i32, n: i32, slot_base: u64, v: FkVar);
        /// A split's keys and subgroup sizes.
        SplitCount = "fk_split_count"(
            g: i32, n: i32, slot_base: u64, kind: i32, key: FkVar, k: i32,
            set_dollar: i32, dollar: FkVar, saved: u64,
        );
        /// A split's subgroups: consecutive ranks in $$ order (one block).
        SplitRank = "fk_split_rank"(
            g: i32, n: i32, k: i32, first: i32, member_base: u64, inherit_at: i32,
            frame0: i32, frame1: i32, frame_base: u64, frame_stride: u64,
        );
        /// Restores the members' $ saved by a fork.
        RestoreDollar = "fk_restore_dollar"(g: i32, n: i32, saved: u64);
        /// Marks the active members (a loop's participants).
        MarkActive = "fk_mark_active"(g: i32, n: i32, marks: u64);
        /// The marked members with status `from` get status `to`.
        MarkedStatus = "fk_marked_status"(g: i32, n: i32, marks: u64, from: i32, to: i32);
        /// A loop's exit test: the members that leave, and whether any stays.
        LoopExit = "fk_loop_exit"(
            g: i32, n: i32, slot_base: u64, marks: u64, has_cond: i32, cond: FkVar,
            cond_group: i32,
        );
        /// The loop group's keys.
        LoopKeys = "fk_loop_keys"(g: i32, n: i32, marks: u64);
        /// A call's entry or its result: sets group `set`'s descriptor (`set` >= 0) and marks
        /// the active members (`mark`), then the marked members copy `vars` (arguments, or
        /// the result).
        CallCopies = "fk_call_copies"(
            g: i32, n: i32, marks: u64, mark: i32, set: i32, desc: FkGroup, src_group: i32,
            src_base: u64, dst_group: i32, dst_base: u64, vars: FkCopies,
        );
        /// A multiprefix of the group's members (one block).
        Multiprefix = "fk_multiprefix"(
            g: i32, n: i32, slot_base: u64, op: i32, ptr: FkVar, value: FkVar,
            has_result: i32, result: FkVar,
        );
        /// Device schedule: every processor's state.
        DeviceInit = "fk_device_init"();
        /// Device schedule: the persistent kernel; `runners` threads of each block run
        /// processors (`device_runners`).
        DeviceRun = "fk_device_run"(runners: i32);
        /// A Plan kernel (`FK_KERNEL`; its name is the kernel's).
        PlanKernel(g: i32, n: i32, slot_base: u64, launch: u32, serial: i32);
        /// A block region or a grid region (`emit_cuda::region`; its name is the region's;
        /// a grid region's is a cooperative launch, and returns at once where `g` < 0: the
        /// drivers' warm-up launch, `fk_g_warm_up`).
        RegionKernel(
            g: i32, seq: i32, slot_base: u64, launch: u32, groups_top: i32, members_top: u64,
            words_top: u64, frames_top: u64,
        );
    }
}

/// A descriptor: a structure in the device's constant memory (`__constant__`) that the
/// drivers write by name before the program's first kernel and no kernel changes
/// (fk_device.cuh says why it is constant memory).
pub struct Descriptor<T> {
    pub symbol: &'static str,
    ty: PhantomData<fn() -> T>,
}

impl<T> Descriptor<T> {
    const fn named(symbol: &'static str) -> Descriptor<T> {
        Descriptor {
            symbol,
            ty: PhantomData,
        }
    }
}

/// The descriptors, by their C names.
pub mod descriptors {
    use super::*;

    /// Where every region of the machine is.
    pub const MACHINE: Descriptor<FkMachine> = Descriptor::named("fk_m");
    /// The step and time limits.
    pub const LIMITS: Descriptor<FkLimits> = Descriptor::named("fk_limits");
    /// `--crcw common`'s write logs (left zero when the run does not check).
    pub const COMMON: Descriptor<FkCommon> = Descriptor::named("fk_common");
    /// The timestamps (left zero without `--trace` or `--stats`).
    pub const TRACE: Descriptor<FkTrace> = Descriptor::named("fk_t");
    /// The device schedule's state.
    pub const DEVICE: Descriptor<FkDevice> = Descriptor::named("fk_d");
    /// The device schedule's slot stacks.
    pub const SLOT_STACKS: Descriptor<FkSlotStacks> = Descriptor::named("fk_slot_stacks");
}

/// The runtime kernels both schedules' drivers load.
pub const MACHINE_KERNELS: &[&str] = &[
    kernels::StartClock::NAME,
    kernels::LimitHit::NAME,
    kernels::CommonWriters::NAME,
    kernels::SetGroup::NAME,
    kernels::Start::NAME,
];

/// The runtime kernels only the host schedule has (`fk_device.cuh` leaves them out of a
/// device-schedule source, which then compiles faster).
pub const HOST_KERNELS: &[&str] = &[
    kernels::CommonCheckLaunch::NAME,
    kernels::ReadFirst::NAME,
    kernels::SplitCount::NAME,
    kernels::SplitRank::NAME,
    kernels::RestoreDollar::NAME,
    kernels::MarkActive::NAME,
    kernels::MarkedStatus::NAME,
    kernels::LoopExit::NAME,
    kernels::LoopKeys::NAME,
    kernels::CallCopies::NAME,
    kernels::Multiprefix::NAME,
];

/// The runtime kernels only the device schedule has (`fk_schedule.cuh`).
pub const SCHEDULE_KERNELS: &[&str] = &[kernels::DeviceInit::NAME, kernels::DeviceRun::NAME];

impl FkVar {
    /// Where a runtime kernel finds `var`; None when it lives in a register.
    pub fn of(plan: &Plan, var: VarId) -> Option<FkVar> {
        let (kind, frame_id, offset) = match plan.storage.home(var)? {
            Home::Slot { offset } => (FK_VAR_SLOT, 0, offset),
            Home::PrivateGlobal { offset } => (FK_VAR_PRIVATE_GLOBAL, 0, offset),
            Home::Shared { offset } => (FK_VAR_SHARED_GLOBAL, 0, offset),
            Home::SharedFrame { frame, offset } => (FK_VAR_SHARED_FRAME, frame.0 as i32, offset),
        };
        Some(FkVar {
            kind,
            frame_id,
            offset,
            size: plan.program.var(var).ty.size(&plan.program.structs),
        })
    }

    /// The C expression of it, `fk_var(FK_VAR_SLOT, 0, 16, 4)`, for the emitted code.
    pub fn c_expr(&self) -> String {
        format!(
            "fk_var({}, {}, {}, {})",
            c_name("FK_VAR_", self.kind.into()),
            self.frame_id,
            self.offset,
            self.size
        )
    }
}

impl FkKeyPair {
    /// The (step, index) words of `pairs`, in the order records sort by.
    pub fn words(pairs: &[FkKeyPair]) -> Vec<u32> {
        pairs.iter().flat_map(|p| [p.step, p.index]).collect()
    }
}

impl FkWrite {
    /// The value as the simulator shows it: signed, of the write's size.
    pub fn value(&self) -> i64 {
        let shift = 64 - 8 * self.size.clamp(1, 8) as u32;
        ((self.bits << shift) as i64) >> shift
    }
}

/// The runtime's code of a multiprefix operator.
pub fn mp_code(op: MpOp) -> i32 {
    match op {
        MpOp::Add => FK_MP_ADD,
        MpOp::Max => FK_MP_MAX,
        MpOp::Min => FK_MP_MIN,
        MpOp::And => FK_MP_AND,
        MpOp::Or => FK_MP_OR,
    }
}

/// The C name of a multiprefix operator's code, for the emitted code.
pub fn mp_name(op: MpOp) -> String {
    c_name("FK_MP_", mp_code(op).into())
}

/// The name of the constant of `value` among those whose names start with `prefix` (the
/// emitted code names the ABI's numbers); the number itself if none has it.
pub fn c_name(prefix: &str, value: i64) -> String {
    CONSTS
        .iter()
        .find(|(name, v, _)| name.starts_with(prefix) && *v == value)
        .map_or_else(|| value.to_string(), |(name, _, _)| name.to_string())
}

/// The device schedule's frames per processor (nested splits, loops, calls, `seq`, `start`):
/// deep enough for the recursion of the classroom programs, fewer for very many processors
/// (the schedule keeps about 150 bytes per processor and frame). The `.cu` has it as
/// `fk_schedule_depth`, [`DEVICE_DEPTH_C`].
pub fn device_depth(procs: u64) -> u32 {
    if procs > FK_DEPTH_PROCS {
        FK_DEPTH_FEW
    } else {
        FK_DEPTH_MANY
    }
}

/// [`device_depth`] as a C expression of `procs`.
pub const DEVICE_DEPTH_C: &str = "procs > FK_DEPTH_PROCS ? FK_DEPTH_FEW : FK_DEPTH_MANY";

/// The emitted kernel that applies the global initialisers; every program has it, and the
/// host (the driver, the `.cu`) launches it before anything else.
pub const GLOBALS_KERNEL: &str = "k_globals";

/// A kernel's C parameter list, `int g, int n, ...`.
pub fn c_params<P: Params>() -> String {
    param_list(P::PARAMS)
}

fn param_list(params: &[(&str, &str)]) -> String {
    let list: Vec<String> = params.iter().map(|(n, c)| format!("{c} {n}")).collect();
    list.join(", ")
}

fn comment(out: &mut String, indent: &str, doc: &[&str]) {
    for line in doc {
        let _ = writeln!(out, "{indent}//{line}");
    }
}

/// The C declarations of everything above: `pram-runtime/cuda/fk_abi.cuh`, which
/// `pram_runtime::cuda` puts first in every CUDA source.
pub fn c_header() -> String {
    let mut out = String::from(
        "// forkcc CUDA ABI: generated from transform::emit_cuda::abi (the one declaration of\n\
         // the structures, constants and runtime kernel signatures that the runtime library,\n\
         // the emitted code and the GPU driver share). Do not edit: change abi.rs.\n\n\
         typedef unsigned long long fk_u64;\n\
         typedef long long fk_i64;\n\n",
    );
    for (name, value, doc) in CONSTS {
        comment(&mut out, "", doc);
        let _ = writeln!(out, "#define {name} {value}");
    }
    for (name, value, doc) in DEFAULTS {
        comment(&mut out, "", doc);
        let _ = writeln!(out, "#ifndef {name}\n#define {name} {value}\n#endif");
    }
    out.push('\n');
    for (name, _) in OPAQUE {
        let _ = writeln!(out, "struct {name};");
    }
    for s in STRUCTS {
        out.push('\n');
        comment(&mut out, "", s.doc);
        let _ = writeln!(out, "struct {} {{", s.name);
        for f in s.fields {
            comment(&mut out, "    ", f.doc);
            let array = if f.len > 0 {
                format!("[{}]", f.len)
            } else {
                String::new()
            };
            let star = if f.pointer { " *" } else { " " };
            let _ = writeln!(out, "    {}{star}{}{array};", f.c, f.name);
        }
        let _ = writeln!(out, "}};");
        let _ = writeln!(
            out,
            "static_assert(sizeof({0}) == {1}, \"{0}: the layout of transform::emit_cuda::abi\");",
            s.name, s.size
        );
        // NVRTC 13.0 knows no `offsetof` (13.5 does); nvcc compiles the same header, so the
        // field offsets are still checked wherever a standalone program is built.
        out.push_str("#ifndef __CUDACC_RTC__\n");
        for f in s.fields {
            let _ = writeln!(
                out,
                "static_assert(__builtin_offsetof({0}, {1}) == {2}, \"{0}::{1}: the layout of transform::emit_cuda::abi\");",
                s.name, f.name, f.offset
            );
        }
        out.push_str("#endif\n");
    }
    out.push('\n');
    for (name, params, doc) in kernels::KERNELS {
        let Some(name) = name else { continue };
        comment(&mut out, "", doc);
        let _ = writeln!(
            out,
            "extern \"C\" __global__ void {name}({});",
            param_list(params)
        );
    }
    out.push_str("// The parameters of every Plan kernel (FK_KERNEL).\n");
    let _ = writeln!(
        out,
        "#define FK_PLAN_KERNEL_PARAMS {}",
        c_params::<kernels::PlanKernel>()
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The size of a C type of a field, as a 64-bit CUDA target lays it out.
    fn c_size(f: &Field) -> usize {
        match f.c {
            _ if f.pointer => 8,
            "int" | "unsigned" => 4,
            "fk_u64" | "fk_i64" => 8,
            other => {
                STRUCTS
                    .iter()
                    .find(|s| s.name == other)
                    .unwrap_or_else(|| panic!("a C type the ABI does not know: {other}"))
                    .size
            }
        }
    }

    /// Every field's Rust type is as large as its C type, so the `static_assert`s of the
    /// header say the same layout for C as for Rust.
    #[test]
    fn fields_have_the_size_of_their_c_type() {
        for s in STRUCTS {
            for f in s.fields {
                assert_eq!(c_size(f) * f.len.max(1), f.size, "{}::{}", s.name, f.name);
            }
        }
    }

    /// The sizes the library's code and the driver's arena were written for.
    #[test]
    fn struct_sizes() {
        let sizes: Vec<(&str, usize)> = STRUCTS.iter().map(|s| (s.name, s.size)).collect();
        assert_eq!(
            sizes,
            [
                ("FkGroup", 40),
                ("FkVar", 24),
                ("FkCopies", 392),
                ("FkFault", 64),
                ("FkWhy", 8),
                ("FkReadBack", 12),
                ("FkMachine", 160),
                ("FkLimits", 24),
                ("FkRecordHeader", 32),
                ("FkWrite", 24),
                ("FkConflict", 16),
                ("FkRange", 16),
                ("FkWriters", 8),
                ("FkCommon", 88),
                ("FkSlotStacks", 16),
                ("FkError", 8),
                ("FkKeyPair", 8),
                ("FkFaultKey", 2052),
                ("FkDevice", 128),
                ("FkTraceRec", 48),
                ("FkTrace", 24),
            ]
        );
    }

    /// Fields are read where C puts them: (addr, bits, size, site) as the device logs a
    /// write, little-endian.
    #[test]
    fn structs_read_themselves_from_device_bytes() {
        let bytes: Vec<u8> = [
            &7u64.to_le_bytes()[..],
            &(-2i64 as u64).to_le_bytes(),
            &4i32.to_le_bytes(),
            &9i32.to_le_bytes(),
        ]
        .concat();
        let w = FkWrite::from_bytes(&bytes);
        assert_eq!((w.addr, w.size, w.site, w.value()), (7, 4, 9, -2));
        assert_eq!(w.to_bytes(), bytes);
        assert_eq!(FkWrite::from_bytes(&bytes[..10]).size, 0);
    }

    #[test]
    fn kernel_parameters_are_pushed_in_their_c_order() {
        struct Names(Vec<&'static str>);
        impl<'a> ArgSink<'a> for Names {
            fn arg<T: CType>(&mut self, _: &'a T) {
                self.0.push(T::C);
            }
        }
        let k = kernels::CallCopies {
            g: 0,
            n: 0,
            marks: 0,
            mark: 0,
            set: -1,
            desc: FkGroup::default(),
            src_group: 0,
            src_base: 0,
            dst_group: 0,
            dst_base: 0,
            vars: FkCopies::default(),
        };
        let mut names = Names(Vec::new());
        k.push(&mut names);
        let params: Vec<&str> = kernels::CallCopies::PARAMS.iter().map(|p| p.1).collect();
        assert_eq!(names.0, params);
        assert_eq!(
            c_params::<kernels::CallCopies>(),
            "int g, int n, fk_u64 marks, int mark, int set, FkGroup desc, int src_group, \
             fk_u64 src_base, int dst_group, fk_u64 dst_base, FkCopies vars"
        );
    }
}
