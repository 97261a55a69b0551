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

// SAFETY: plain `repr(C)` data with the layout of the C structs; no pointers into host memory.
unsafe impl DeviceRepr for FkGroup {}
// SAFETY: as above.
unsafe impl DeviceRepr for FkVar {}
// SAFETY: as above; the device addresses are into the driver's own allocation.
unsafe impl DeviceRepr for FkMachine {}

#[cfg(test)]
mod tests {
    use super::*;

    /// The sizes `cuda/fk_device.cuh` asserts with `static_assert`.
    #[test]
    fn layouts_match_the_device_library() {
        assert_eq!(std::mem::size_of::<FkGroup>(), 40);
        assert_eq!(std::mem::size_of::<FkVar>(), 24);
        assert_eq!(std::mem::size_of::<FkMachine>(), 160);
        let lib = crate::cuda::DEVICE_LIBRARY;
        assert!(lib.contains("sizeof(FkGroup) == 40"));
        assert!(lib.contains("sizeof(FkVar) == 24"));
        assert!(lib.contains("sizeof(FkMachine) == 160"));
    }
}
