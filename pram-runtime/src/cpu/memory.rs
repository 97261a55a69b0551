//! The CPU executor's global memory: segments addressed as `segment << 40 | offset`, so that
//! a stray pointer faults instead of touching another region. The scratch segment holds a
//! thread's registers and device-call locals for one kernel; it tracks which bytes were
//! written in this kernel, so a read of a value that did not survive a cut is caught.

use std::collections::HashMap;

pub const STRINGS: u64 = 1;
pub const SHARED_GLOBALS: u64 = 2;
pub const SHARED_FRAMES: u64 = 3;
pub const SLOTS: u64 = 4;
pub const SHARED_HEAP: u64 = 5;
pub const PRIVATE_HEAP: u64 = 6;
pub const SCRATCH: u64 = 7;
const SEGMENTS: usize = 8;
const SHIFT: u32 = 40;

pub fn addr(segment: u64, offset: u64) -> u64 {
    segment << SHIFT | offset
}

/// Why an access failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AccessError {
    /// Outside every allocated byte (null, freed, past the end of a region).
    OutOfBounds,
    /// A scratch byte not written in this kernel.
    Undefined,
    /// CRCW common: this processor and `other` wrote different values into one cell in one
    /// synchronous step.
    Conflict { other: usize },
}

/// How concurrent writes of one cell in one synchronous kernel are resolved
/// (fork-dialect.md §5).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Crcw {
    /// All writers must write the same value.
    #[default]
    Common,
    /// One value wins: the lowest `__PROC_NR__` (as the reference simulator picks).
    Arbitrary,
    /// The highest `__PROC_NR__` wins.
    Priority,
}

/// The shared writes of one synchronous launch: cell address → (writer, bytes).
struct StepWrites {
    crcw: Crcw,
    writes: HashMap<u64, (usize, Vec<u8>)>,
}

#[derive(Default)]
pub struct Memory {
    segments: Vec<Vec<u8>>,
    /// Per scratch byte: written in the current kernel.
    scratch_defined: Vec<bool>,
    /// Set during a synchronous launch: its writes to shared memory.
    step: Option<StepWrites>,
}

impl Memory {
    pub fn new() -> Memory {
        Memory {
            segments: vec![Vec::new(); SEGMENTS],
            scratch_defined: Vec::new(),
            step: None,
        }
    }

    /// A synchronous launch begins: concurrent shared writes are resolved by `crcw`.
    pub fn begin_step(&mut self, crcw: Crcw) {
        self.step = Some(StepWrites {
            crcw,
            writes: HashMap::new(),
        });
    }

    pub fn end_step(&mut self) {
        self.step = None;
    }

    /// `write` by processor `proc`: in a synchronous launch, a shared cell written by two
    /// processors follows the CRCW rule whatever order the threads run in.
    pub fn write_by(&mut self, proc: usize, a: u64, data: &[u8]) -> Result<(), AccessError> {
        let shared = matches!(a >> SHIFT, SHARED_GLOBALS | SHARED_FRAMES | SHARED_HEAP);
        if let (true, Some(step)) = (shared, &mut self.step) {
            if let Some((other, old)) = step.writes.get(&a) {
                let (other, keep_old) = (*other, old.as_slice() != data);
                if other != proc {
                    match step.crcw {
                        Crcw::Common if keep_old => return Err(AccessError::Conflict { other }),
                        Crcw::Priority if other > proc => return Ok(()),
                        Crcw::Arbitrary if other < proc => return Ok(()),
                        _ => {}
                    }
                }
            }
            step.writes.insert(a, (proc, data.to_vec()));
        }
        self.write(a, data)
    }

    /// Current size of a segment.
    pub fn len(&self, segment: u64) -> u64 {
        self.segments[segment as usize].len() as u64
    }

    /// Grows (zero-filled) or shrinks a segment to `len` bytes.
    pub fn resize(&mut self, segment: u64, len: u64) {
        self.segments[segment as usize].resize(len as usize, 0);
        if segment == SCRATCH {
            self.scratch_defined.resize(len as usize, false);
        }
    }

    /// Appends `size` zero bytes aligned to `align`; returns their address. Scratch bytes
    /// start undefined.
    pub fn alloc(&mut self, segment: u64, size: u64, align: u64) -> u64 {
        let align = align.max(1);
        let offset = self.len(segment).div_ceil(align) * align;
        self.resize(segment, offset + size.max(1));
        if segment == SCRATCH {
            self.scratch_defined[offset as usize..].fill(false);
        }
        addr(segment, offset)
    }

    /// Forgets the scratch segment (a kernel thread ends).
    pub fn clear_scratch(&mut self) {
        self.segments[SCRATCH as usize].clear();
        self.scratch_defined.clear();
    }

    fn range(&self, a: u64, size: u64) -> Result<(usize, std::ops::Range<usize>), AccessError> {
        let segment = (a >> SHIFT) as usize;
        let offset = a & ((1 << SHIFT) - 1);
        let bytes = self.segments.get(segment).ok_or(AccessError::OutOfBounds)?;
        if segment == 0 || offset + size > bytes.len() as u64 {
            return Err(AccessError::OutOfBounds);
        }
        Ok((segment, offset as usize..(offset + size) as usize))
    }

    pub fn read(&self, a: u64, size: u64) -> Result<&[u8], AccessError> {
        let (segment, r) = self.range(a, size)?;
        if segment == SCRATCH as usize && !self.scratch_defined[r.clone()].iter().all(|d| *d) {
            return Err(AccessError::Undefined);
        }
        Ok(&self.segments[segment][r])
    }

    pub fn write(&mut self, a: u64, data: &[u8]) -> Result<(), AccessError> {
        let (segment, r) = self.range(a, data.len() as u64)?;
        if segment == SCRATCH as usize {
            self.scratch_defined[r.clone()].fill(true);
        }
        self.segments[segment][r].copy_from_slice(data);
        Ok(())
    }

    /// The NUL-terminated string at `a` (without the NUL).
    pub fn c_string(&self, a: u64) -> Result<Vec<u8>, AccessError> {
        let mut out = Vec::new();
        loop {
            let b = self.read(a + out.len() as u64, 1)?[0];
            if b == 0 {
                return Ok(out);
            }
            out.push(b);
        }
    }
}
