//! The structures the driver shares with the device library (`cuda/fk_device.cuh`), with the
//! same C layout; the tests check the sizes against the C side's.

use cudarc::driver::DeviceRepr;

/// `FkGroup`: one group instance on the device.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
pub struct FkGroup {
    pub at: i64,
    pub parent: i32,
    pub size: i32,
    pub members: u64,
    pub frame_id: i32,
    pub frame: u64,
}

/// `FkVar`: where a runtime kernel finds a variable.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
pub struct FkVar {
    /// 0 slot, 1 private global, 2 shared global, 3 shared frame.
    pub kind: i32,
    pub frame_id: i32,
    pub offset: u64,
    pub size: u64,
}

/// `FkMachine`: the device addresses of every region (set into `fk_m` by `fk_set_machine`).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
pub struct FkMachine {
    pub procs: i32,
    pub members: u64,
    pub groups: u64,
    pub dollar: u64,
    pub status: u64,
    pub words: u64,
    pub keys: u64,
    pub counts: u64,
    pub cursor: u64,
    pub flag: u64,
    pub strings: u64,
    pub shared_globals: u64,
    pub slots: u64,
    pub heap: u64,
    pub heap_bytes: u64,
    pub heap_top: u64,
    pub out: u64,
    pub out_bytes: u64,
    pub out_top: u64,
    pub fault: u64,
}

/// `FkLimits`: the step and time limits (set into `fk_limits` by `fk_set_limits`).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
pub struct FkLimits {
    /// Iterations of one loop; 0: none.
    pub max_steps: u64,
    /// 0: none.
    pub timeout_ns: u64,
    /// Set by the device.
    pub start_ns: u64,
    /// `int *`: `FK_LIMIT_*` when the fault is a limit.
    pub why: u64,
}

/// `FkCommon`: the `--crcw common` write logs (set into `fk_common` by `fk_set_common`).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
pub struct FkCommon {
    pub writes: u64,
    pub count: u64,
    pub tag: u64,
    /// Shared memory: globals, group frames, heap.
    pub lo: [u64; 3],
    pub hi: [u64; 3],
    pub conflict: u64,
    pub writers: u64,
}

/// `FkWrite`: one logged write.
#[derive(Debug, Clone, Copy, Default)]
pub struct FkWrite {
    pub addr: u64,
    pub bits: u64,
    pub size: i32,
    pub site: i32,
}

pub const FK_WRITE_BYTES: u64 = 24;
/// `FK_WRITES`: writes logged per processor and step.
pub const FK_WRITES: u64 = 8;

impl FkWrite {
    pub fn from_bytes(b: &[u8]) -> FkWrite {
        let u64_at = |i: usize| u64::from_le_bytes(b[i..i + 8].try_into().unwrap_or([0; 8]));
        let i32_at = |i: usize| i32::from_le_bytes(b[i..i + 4].try_into().unwrap_or([0; 4]));
        FkWrite {
            addr: u64_at(0),
            bits: u64_at(8),
            size: i32_at(16),
            site: i32_at(20),
        }
    }

    /// The value as the simulator shows it: signed, of the write's size.
    pub fn value(&self) -> i64 {
        let shift = 64 - 8 * self.size.clamp(1, 8) as u32;
        ((self.bits << shift) as i64) >> shift
    }
}

/// `FK_LIMIT_*`: which limit a fault is.
pub const FK_LIMIT_STEPS: i32 = 1;
pub const FK_LIMIT_TIME: i32 = 2;
pub const FK_LIMIT_DEPTH: i32 = 3;
/// `FK_CONFLICT`: the fault is a `--crcw common` conflict.
pub const FK_CONFLICT: i32 = 4;
/// `FK_PROC_MAX`: the limit word records `FK_PROC_MAX - processor`.
pub const FK_PROC_MAX: i32 = 0x7fffffff;

/// `FkDevice` (`cuda/fk_schedule.cuh`): the device schedule's state, set into `fk_d`.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
pub struct FkDevice {
    pub procs: u64,
    pub results: u64,
    pub frames: u64,
    pub sync: u64,
    pub scratch: u64,
    pub frame_heap: u64,
    pub frame_heap_bytes: u64,
    pub frame_heap_top: u64,
    pub depth: i32,
    pub entry: i32,
    pub slot_stack_bytes: u64,
    pub error: u64,
    pub fault_key: u64,
}

/// `FkSlotStacks`: each processor's slot stack under the device schedule.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
pub struct FkSlotStacks {
    pub base: u64,
    pub stride: u64,
}

/// `FkTrace` (`cuda/fk_schedule.cuh`): where the device schedule writes its timestamps, set
/// into `fk_t` only for `--trace` and `--stats` (`recs` 0: none).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
pub struct FkTrace {
    pub recs: u64,
    pub count: u64,
    pub cap: u32,
    pub pad: u32,
}

/// Bytes of an `FkTraceRec` (decoded by `timeline::decode_device`).
pub const FK_TRACE_REC_BYTES: u64 = 48;

/// Sizes of the device schedule's per-processor, per-frame and per-group records, which the
/// driver allocates (`static_assert`ed in `cuda/fk_schedule.cuh`).
pub const FK_PROC_BYTES: u64 = 64;
pub const FK_RESULT_BYTES: u64 = 16;
pub const FK_FRAME_BYTES: u64 = 48;
pub const FK_SYNC_BYTES: u64 = 256;
pub const FK_SLOT_BYTES: u64 = 32;
/// `FK_FAULT_WORDS`: the ints of the fault record (cuda/fk_device.cuh, `FkMachine::fault`).
pub const FK_FAULT_WORDS: u64 = 16;
/// `FK_KEY_MAX`: the most (step, index) pairs of an order key.
pub const FK_KEY_MAX: u64 = 256;
/// `FK_ERR_*`: the runtime limits the device schedule reports.
pub const FK_ERR_FRAMES: i32 = 1;
pub const FK_ERR_FRAME_HEAP: i32 = 2;

// SAFETY: plain `repr(C)` data with the layout of the C structs; no pointers into host memory.
unsafe impl DeviceRepr for FkGroup {}
// SAFETY: as above.
unsafe impl DeviceRepr for FkVar {}
// SAFETY: as above; the device addresses are into the driver's own allocation.
unsafe impl DeviceRepr for FkMachine {}
// SAFETY: as above.
unsafe impl DeviceRepr for FkDevice {}
// SAFETY: as above.
unsafe impl DeviceRepr for FkLimits {}
// SAFETY: as above.
unsafe impl DeviceRepr for FkCommon {}
// SAFETY: as above.
unsafe impl DeviceRepr for FkSlotStacks {}
// SAFETY: as above; the device addresses are into the driver's own allocation.
unsafe impl DeviceRepr for FkTrace {}

#[cfg(test)]
mod tests {
    use super::*;

    /// The sizes `cuda/fk_device.cuh` asserts with `static_assert`.
    #[test]
    fn layouts_match_the_device_library() {
        assert_eq!(std::mem::size_of::<FkGroup>(), 40);
        assert_eq!(std::mem::size_of::<FkVar>(), 24);
        assert_eq!(std::mem::size_of::<FkMachine>(), 160);
        assert_eq!(std::mem::size_of::<FkLimits>(), 32);
        let lib = crate::cuda::DEVICE_LIBRARY;
        assert!(lib.contains("sizeof(FkLimits) == 32"));
        assert_eq!(std::mem::size_of::<FkCommon>(), 88);
        assert!(lib.contains("sizeof(FkCommon) == 88"));
        assert!(lib.contains(&format!("sizeof(FkWrite) == {FK_WRITE_BYTES}")));
        assert!(lib.contains(&format!("#define FK_WRITES {FK_WRITES} ")));
        assert!(lib.contains(&format!("#define FK_CONFLICT {FK_CONFLICT} ")));
        assert!(lib.contains(&format!("#define FK_LIMIT_STEPS {FK_LIMIT_STEPS}\n")));
        assert!(lib.contains(&format!("#define FK_LIMIT_TIME {FK_LIMIT_TIME}\n")));
        assert!(lib.contains(&format!("#define FK_LIMIT_DEPTH {FK_LIMIT_DEPTH} ")));
        assert!(lib.contains(&format!("#define FK_PROC_MAX {FK_PROC_MAX:#x}\n")));
        assert!(lib.contains("sizeof(FkGroup) == 40"));
        assert!(lib.contains("sizeof(FkVar) == 24"));
        assert!(lib.contains("sizeof(FkMachine) == 160"));
    }

    #[test]
    fn layouts_match_the_device_schedule() {
        assert_eq!(std::mem::size_of::<FkDevice>(), 96);
        assert_eq!(std::mem::size_of::<FkSlotStacks>(), 16);
        assert_eq!(std::mem::size_of::<FkTrace>(), 24);
        let lib = crate::cuda::SCHEDULE_LIBRARY;
        for (name, bytes) in [
            ("FkProc", FK_PROC_BYTES),
            ("FkResult", FK_RESULT_BYTES),
            ("FkFrame", FK_FRAME_BYTES),
            ("FkSync", FK_SYNC_BYTES),
            ("FkSlot", FK_SLOT_BYTES),
            ("FkDevice", 96),
            ("FkSlotStacks", 16),
            ("FkTrace", 24),
            ("FkTraceRec", FK_TRACE_REC_BYTES),
        ] {
            assert!(
                lib.contains(&format!("sizeof({name}) == {bytes}")),
                "{name}"
            );
        }
        assert!(lib.contains(&format!("#define FK_KEY_MAX {FK_KEY_MAX}")));
        let device = crate::cuda::DEVICE_LIBRARY;
        assert!(device.contains(&format!("#define FK_FAULT_WORDS {FK_FAULT_WORDS}")));
        assert!(lib.contains(&format!("#define FK_ERR_FRAMES {FK_ERR_FRAMES} ")));
        assert!(lib.contains(&format!("#define FK_ERR_FRAME_HEAP {FK_ERR_FRAME_HEAP} ")));
    }
}
