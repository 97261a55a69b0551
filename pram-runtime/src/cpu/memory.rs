//! The CPU executor's global memory. Storage lives in segments (physical addresses
//! `segment << 40 | offset`, laid out as the Plan's `Storage` says); a program's pointers are
//! *object pointers* `object id << 40 | offset in the object`, so an access outside the
//! object a pointer was derived from faults (as on the simulator) instead of reading a
//! neighbour. The scratch segment holds a thread's registers and device-call locals for one
//! kernel; it tracks which bytes were written in this kernel, so a read of a value that did
//! not survive a cut is caught.

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
const OFFSET_MASK: u64 = (1 << SHIFT) - 1;
/// Object ids with this bit are scratch objects of the running thread.
const SCRATCH_ID: u64 = 1 << 22;

fn is_shared(segment: usize) -> bool {
    matches!(segment as u64, SHARED_GLOBALS | SHARED_FRAMES | SHARED_HEAP)
}

/// A physical address: `segment << 40 | offset`.
pub fn phys(segment: u64, offset: u64) -> u64 {
    segment << SHIFT | offset
}

/// Why an access failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AccessError {
    /// Outside the object the pointer points into (or a dangling pointer).
    OutOfBounds,
    /// Through a null pointer (object 0).
    Null,
    /// Into a heap block after `free`/`shfree`.
    Freed,
    /// `free`/`shfree` of something that is not the start of a live heap block of its kind.
    BadFree,
    /// A scratch byte not written in this kernel.
    Undefined,
    /// CRCW common: this processor and `other` wrote different values into one cell in one
    /// synchronous step.
    Conflict { other: usize },
    /// In one synchronous launch, this processor and `other` touched one shared byte, at
    /// least one of them writing, in different statements (a read and a write, or two
    /// writes of different values): lockstep would order them, a kernel does not.
    Hazard { other: usize },
}

pub use fork_frontend::machine::Crcw;

/// The shared accesses of one synchronous launch.
struct Step {
    crcw: Crcw,
    /// Physical cell address → (writer, bytes), for the CRCW rule.
    cells: HashMap<u64, (usize, Vec<u8>)>,
    /// Physical byte → (writer, statement).
    written: HashMap<u64, (usize, u32)>,
    /// Physical byte → its reader, or None when several processors read it.
    read: HashMap<u64, Option<usize>>,
}

impl Step {
    /// Records `proc` reading bytes `r` of a shared segment.
    fn read(
        &mut self,
        proc: usize,
        segment: u64,
        r: &std::ops::Range<usize>,
    ) -> Result<(), AccessError> {
        for b in r.clone() {
            let byte = phys(segment, b as u64);
            if let Some(&(other, _)) = self.written.get(&byte) {
                if other != proc {
                    return Err(AccessError::Hazard { other });
                }
            }
            let reader = self.read.entry(byte).or_insert(Some(proc));
            if *reader != Some(proc) {
                *reader = None;
            }
        }
        Ok(())
    }

    /// Records `proc` writing bytes `r` in statement `site`; `same`: the bytes it writes are
    /// those the memory holds (another processor's write of the same value in another
    /// statement leaves the memory as lockstep would, in either order: an order-free loop's,
    /// `transform::rules::loops`).
    fn write(
        &mut self,
        proc: usize,
        site: u32,
        segment: u64,
        r: &std::ops::Range<usize>,
        same: bool,
    ) -> Result<(), AccessError> {
        for b in r.clone() {
            let byte = phys(segment, b as u64);
            match self.read.get(&byte) {
                Some(Some(reader)) if *reader == proc => {}
                // Read by several processors, one of them another one.
                Some(None) => return Err(AccessError::Hazard { other: usize::MAX }),
                Some(Some(other)) => return Err(AccessError::Hazard { other: *other }),
                None => {}
            }
            if let Some(&(other, other_site)) = self.written.get(&byte) {
                if other != proc && other_site != site && !same {
                    return Err(AccessError::Hazard { other });
                }
            }
            self.written.insert(byte, (proc, site));
        }
        Ok(())
    }
}

#[derive(Clone, Copy)]
struct Object {
    phys: u64,
    size: u64,
    /// A heap block given back by `free`/`shfree` (its memory is not reused).
    freed: bool,
}

pub struct Memory {
    segments: Vec<Vec<u8>>,
    /// Per scratch byte: written in the current kernel.
    scratch_defined: Vec<bool>,
    /// Set during a synchronous launch: its accesses to shared memory.
    step: Option<Step>,
    /// Object ids from 1 (0 is the null pointer's).
    objects: Vec<Object>,
    /// Objects with a fixed place (variables), by (physical address, size).
    places: HashMap<(u64, u64), u64>,
    scratch_objects: Vec<Object>,
}

impl Memory {
    pub fn new() -> Memory {
        Memory {
            segments: vec![Vec::new(); SEGMENTS],
            scratch_defined: Vec::new(),
            step: None,
            objects: vec![Object {
                phys: 0,
                size: 0,
                freed: false,
            }],
            places: HashMap::new(),
            scratch_objects: Vec::new(),
        }
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

    /// Appends `size` zero bytes aligned to `align` to a segment; returns their physical
    /// address. Scratch bytes start undefined.
    pub fn reserve(&mut self, segment: u64, size: u64, align: u64) -> u64 {
        let align = align.max(1);
        let offset = self.len(segment).div_ceil(align) * align;
        self.resize(segment, offset + size.max(1));
        if segment == SCRATCH {
            self.scratch_defined[offset as usize..].fill(false);
        }
        phys(segment, offset)
    }

    /// A new object of `size` bytes in a segment (heap block, register); its pointer.
    pub fn alloc(&mut self, segment: u64, size: u64, align: u64) -> u64 {
        let object = Object {
            phys: self.reserve(segment, size, align),
            size,
            freed: false,
        };
        if segment == SCRATCH {
            self.scratch_objects.push(object);
            (SCRATCH_ID | (self.scratch_objects.len() as u64 - 1)) << SHIFT
        } else {
            self.objects.push(object);
            (self.objects.len() as u64 - 1) << SHIFT
        }
    }

    /// The pointer to the object at a fixed place (a variable's storage).
    pub fn place(&mut self, phys: u64, size: u64) -> u64 {
        let objects = &mut self.objects;
        let id = *self.places.entry((phys, size)).or_insert_with(|| {
            objects.push(Object {
                phys,
                size,
                freed: false,
            });
            objects.len() as u64 - 1
        });
        id << SHIFT
    }

    /// `free` (`shared` false) or `shfree` of the block at `p` (null: nothing). A group's
    /// members `shfree` the block they allocated together, so a second `shfree` of a block is
    /// not an error; a second `free` is.
    pub fn free(&mut self, p: u64, shared: bool) -> Result<(), AccessError> {
        if p == 0 {
            return Ok(());
        }
        let heap = if shared { SHARED_HEAP } else { PRIVATE_HEAP };
        let id = p >> SHIFT;
        let object = self
            .objects
            .get_mut(id as usize)
            .filter(|o| id & SCRATCH_ID == 0 && o.phys >> SHIFT == heap && p & OFFSET_MASK == 0)
            .ok_or(AccessError::BadFree)?;
        if object.freed && !shared {
            return Err(AccessError::Freed);
        }
        object.freed = true;
        Ok(())
    }

    /// Forgets the scratch segment and its objects (a kernel thread ends).
    pub fn clear_scratch(&mut self) {
        self.segments[SCRATCH as usize].clear();
        self.scratch_defined.clear();
        self.scratch_objects.clear();
    }

    /// The physical bytes `size` bytes at pointer `p` cover.
    fn resolve(&self, p: u64, size: u64) -> Result<(usize, std::ops::Range<usize>), AccessError> {
        let id = p >> SHIFT;
        let offset = p & OFFSET_MASK;
        if id == 0 {
            return Err(AccessError::Null);
        }
        let object = if id & SCRATCH_ID != 0 {
            self.scratch_objects.get((id & !SCRATCH_ID) as usize)
        } else {
            self.objects.get(id as usize)
        };
        let object = object.ok_or(AccessError::OutOfBounds)?;
        if object.freed {
            return Err(AccessError::Freed);
        }
        if offset + size > object.size {
            return Err(AccessError::OutOfBounds);
        }
        let segment = (object.phys >> SHIFT) as usize;
        let start = (object.phys & OFFSET_MASK) + offset;
        let bytes = self.segments.get(segment).ok_or(AccessError::OutOfBounds)?;
        if start + size > bytes.len() as u64 {
            return Err(AccessError::OutOfBounds);
        }
        Ok((segment, start as usize..(start + size) as usize))
    }

    /// Processor `proc` loads `size` bytes at pointer `p` (recorded in a synchronous launch).
    pub fn read_by(&mut self, proc: usize, p: u64, size: u64) -> Result<&[u8], AccessError> {
        let (segment, r) = self.resolve(p, size)?;
        if let (true, Some(step)) = (is_shared(segment), &mut self.step) {
            step.read(proc, segment as u64, &r)?;
        }
        self.read(p, size)
    }

    pub fn read(&self, p: u64, size: u64) -> Result<&[u8], AccessError> {
        let (segment, r) = self.resolve(p, size)?;
        if segment == SCRATCH as usize && !self.scratch_defined[r.clone()].iter().all(|d| *d) {
            return Err(AccessError::Undefined);
        }
        Ok(&self.segments[segment][r])
    }

    /// Stores at a physical address (initialisation by the host).
    pub fn write_phys(&mut self, a: u64, data: &[u8]) {
        let segment = (a >> SHIFT) as usize;
        let start = (a & OFFSET_MASK) as usize;
        self.segments[segment][start..start + data.len()].copy_from_slice(data);
    }

    /// A synchronous launch begins: concurrent shared writes are resolved by `crcw`, and
    /// accesses that lockstep would order are reported.
    pub fn begin_step(&mut self, crcw: Crcw) {
        self.step = Some(Step {
            crcw,
            cells: HashMap::new(),
            written: HashMap::new(),
            read: HashMap::new(),
        });
    }

    pub fn end_step(&mut self) {
        self.step = None;
    }

    /// Processor `proc` stores `data` at pointer `p` in statement `site`. In a synchronous
    /// launch a shared cell written by two processors in one statement follows the CRCW rule
    /// whatever order the threads run in.
    pub fn write_by(
        &mut self,
        proc: usize,
        site: u32,
        p: u64,
        data: &[u8],
    ) -> Result<(), AccessError> {
        let (segment, r) = self.resolve(p, data.len() as u64)?;
        if let (true, Some(step)) = (is_shared(segment), &mut self.step) {
            let same = self.segments[segment][r.clone()] == *data;
            step.write(proc, site, segment as u64, &r, same)?;
            let cell = phys(segment as u64, r.start as u64);
            if let Some((other, old)) = step.cells.get(&cell) {
                let (other, differs) = (*other, old.as_slice() != data);
                if other != proc {
                    match step.crcw {
                        Crcw::Common if differs => return Err(AccessError::Conflict { other }),
                        Crcw::Priority if other > proc => return Ok(()),
                        Crcw::Arbitrary if other < proc => return Ok(()),
                        _ => {}
                    }
                }
            }
            step.cells.insert(cell, (proc, data.to_vec()));
        }
        if segment == SCRATCH as usize {
            self.scratch_defined[r.clone()].fill(true);
        }
        self.segments[segment][r].copy_from_slice(data);
        Ok(())
    }

    /// The store of an atomic update (`mpadd`, `syncadd` and the others inside a kernel):
    /// ordered with the cell's other updates as a hardware atomic is, so it is left out of a
    /// synchronous launch's check of accesses that lockstep would order (the transform puts
    /// such updates into a synchronous kernel only where nothing else there touches the
    /// cell: `transform::rules::loops`, `order_free`).
    pub fn write_atomic(&mut self, p: u64, data: &[u8]) -> Result<(), AccessError> {
        let (segment, r) = self.resolve(p, data.len() as u64)?;
        if segment == SCRATCH as usize {
            self.scratch_defined[r.clone()].fill(true);
        }
        self.segments[segment][r].copy_from_slice(data);
        Ok(())
    }

    /// The NUL-terminated string at `p` (without the NUL).
    pub fn c_string(&self, p: u64) -> Result<Vec<u8>, AccessError> {
        let mut out = Vec::new();
        loop {
            let b = self.read(p + out.len() as u64, 1)?[0];
            if b == 0 {
                return Ok(out);
            }
            out.push(b);
        }
    }
}
