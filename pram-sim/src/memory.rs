//! Byte-addressed memory made of objects (a variable, a heap block, a string literal). A
//! pointer is a fat pointer: object id in the high 32 bits (0 = null), signed byte offset in
//! the low 32 bits, so every access is checked against its object exactly, and an object that
//! was freed or whose scope ended is recognised.

use fork_frontend::hir::{FuncId, VarId};
use fork_frontend::source::Span;

/// Where an object came from, for messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    Var(VarId),
    /// `shmalloc` (shared) or `malloc` (private), at this call.
    Heap {
        span: Span,
    },
    Str,
    /// The value a call of this function returned, kept for its caller (`Machine::call`).
    Return(FuncId),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum State {
    Live,
    /// `free`/`shfree` released it.
    Freed,
    /// Its scope ended (a local of a returned call, a shared local of an ended group).
    Ended,
}

#[derive(Debug)]
pub struct Object {
    pub data: Vec<u8>,
    pub state: State,
    pub shared: bool,
    pub origin: Origin,
    /// The size while it was live (kept for messages after the data is dropped).
    pub size: u64,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MemError {
    Null,
    /// Not a pointer to any object.
    Invalid,
    OutOfBounds {
        obj: u32,
        offset: i64,
        size: u64,
    },
    Dead {
        obj: u32,
    },
    /// An allocation beyond `MAX_OBJECT` or `MAX_TOTAL`.
    TooLarge {
        size: u64,
    },
    /// More than `MAX_OBJECTS` allocations in one run.
    TooMany,
}

/// The largest object: byte offsets in a pointer are 32-bit.
pub const MAX_OBJECT: u64 = i32::MAX as u64;
/// The most memory a simulated program may hold at once.
pub const MAX_TOTAL: u64 = 8 << 30;
/// The most objects one run may create (ended ones are remembered, to report their use).
pub const MAX_OBJECTS: usize = 50_000_000;

#[inline]
pub fn make_ptr(obj: u32, offset: i64) -> u64 {
    ((obj as u64) << 32) | (offset.clamp(i32::MIN as i64, i32::MAX as i64) as i32 as u32 as u64)
}

#[inline]
pub fn object_of(p: u64) -> u32 {
    (p >> 32) as u32
}

#[inline]
pub fn offset_of(p: u64) -> i64 {
    p as u32 as i32 as i64
}

/// `p` moved by `delta` bytes (the result may point outside its object; accesses check).
#[inline]
pub fn ptr_add(p: u64, delta: i64) -> u64 {
    if p == 0 && delta == 0 {
        return 0;
    }
    make_ptr(object_of(p), offset_of(p).saturating_add(delta))
}

#[derive(Debug, Default)]
pub struct Memory {
    /// Index = object id - 1.
    objects: Vec<Object>,
    pub live_shared_bytes: u64,
    pub peak_shared_bytes: u64,
    live_bytes: u64,
}

impl Memory {
    /// A zero-filled object of `size` bytes; returns a pointer to its first byte.
    pub fn alloc(&mut self, size: u64, shared: bool, origin: Origin) -> Result<u64, MemError> {
        if size > MAX_OBJECT || self.live_bytes + size > MAX_TOTAL {
            return Err(MemError::TooLarge { size });
        }
        if self.objects.len() >= MAX_OBJECTS {
            return Err(MemError::TooMany);
        }
        self.live_bytes += size;
        self.objects.push(Object {
            data: vec![0; size as usize],
            state: State::Live,
            shared,
            origin,
            size,
        });
        if shared {
            self.live_shared_bytes += size;
            self.peak_shared_bytes = self.peak_shared_bytes.max(self.live_shared_bytes);
        }
        Ok(make_ptr(self.objects.len() as u32, 0))
    }

    pub fn object(&self, obj: u32) -> Option<&Object> {
        self.objects.get((obj as usize).wrapping_sub(1))
    }

    /// Ends the object `p` points into (scope end or free); its bytes are dropped.
    pub fn release(&mut self, p: u64, state: State) {
        if let Some(o) = self
            .objects
            .get_mut((object_of(p) as usize).wrapping_sub(1))
        {
            if o.state == State::Live {
                self.live_bytes -= o.size;
                if o.shared {
                    self.live_shared_bytes -= o.size;
                }
                o.state = state;
                o.data = Vec::new();
            }
        }
    }

    /// Checks an access of `size` bytes at `p`; returns (object index, byte offset).
    #[inline]
    pub fn locate(&self, p: u64, size: u64) -> Result<(usize, usize), MemError> {
        let obj = object_of(p);
        if obj == 0 {
            return Err(if p == 0 {
                MemError::Null
            } else {
                MemError::Invalid
            });
        }
        let idx = obj as usize - 1;
        let Some(o) = self.objects.get(idx) else {
            return Err(MemError::Invalid);
        };
        if o.state != State::Live {
            return Err(MemError::Dead { obj });
        }
        let offset = offset_of(p);
        if offset < 0 || offset as u64 + size > o.data.len() as u64 {
            return Err(MemError::OutOfBounds { obj, offset, size });
        }
        Ok((idx, offset as usize))
    }

    /// Reads `size` (1..=8) bytes at `p`, zero-extended.
    #[inline]
    pub fn load(&self, p: u64, size: u64) -> Result<u64, MemError> {
        let (idx, off) = self.locate(p, size)?;
        let data = &self.objects[idx].data[off..];
        Ok(match size {
            8 => {
                let mut b = [0u8; 8];
                b.copy_from_slice(&data[..8]);
                u64::from_le_bytes(b)
            }
            4 => {
                let mut b = [0u8; 4];
                b.copy_from_slice(&data[..4]);
                u32::from_le_bytes(b) as u64
            }
            1 => data[0] as u64,
            _ => {
                let mut b = [0u8; 8];
                b[..size as usize].copy_from_slice(&data[..size as usize]);
                u64::from_le_bytes(b)
            }
        })
    }

    /// Writes the low `size` (1..=8) bytes of `raw` at `p`.
    #[inline]
    pub fn store(&mut self, p: u64, size: u64, raw: u64) -> Result<(), MemError> {
        let (idx, off) = self.locate(p, size)?;
        let n = size as usize;
        self.objects[idx].data[off..off + n].copy_from_slice(&raw.to_le_bytes()[..n]);
        Ok(())
    }

    /// Copies `size` bytes from `src` to `dst` (struct and array assignment).
    pub fn copy(&mut self, dst: u64, src: u64, size: u64) -> Result<(), MemError> {
        let (si, so) = self.locate(src, size)?;
        let bytes = self.objects[si].data[so..so + size as usize].to_vec();
        let (di, doff) = self.locate(dst, size)?;
        self.objects[di].data[doff..doff + size as usize].copy_from_slice(&bytes);
        Ok(())
    }

    /// Zero-fills the whole object `p` points into (a re-executed declaration).
    pub fn clear(&mut self, p: u64) {
        if let Some(o) = self
            .objects
            .get_mut((object_of(p) as usize).wrapping_sub(1))
        {
            o.data.iter_mut().for_each(|b| *b = 0);
        }
    }

    /// Whether `p` points at a live object.
    pub fn is_live(&self, p: u64) -> bool {
        self.object(object_of(p))
            .is_some_and(|o| o.state == State::Live)
    }

    /// The NUL-terminated string at `p` (bounds-checked).
    pub fn c_string(&self, p: u64) -> Result<Vec<u8>, MemError> {
        let (idx, off) = self.locate(p, 1)?;
        let data = &self.objects[idx].data[off..];
        match data.iter().position(|&b| b == 0) {
            Some(end) => Ok(data[..end].to_vec()),
            None => Err(MemError::OutOfBounds {
                obj: object_of(p),
                offset: offset_of(p) + data.len() as i64,
                size: 1,
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accesses_are_checked_against_their_object() {
        let mut m = Memory::default();
        let a = m.alloc(8, true, Origin::Str).unwrap();
        assert!(m.alloc(MAX_OBJECT + 1, true, Origin::Str).is_err());
        m.store(ptr_add(a, 4), 4, 0xdead_beef).unwrap();
        assert_eq!(m.load(ptr_add(a, 4), 4), Ok(0xdead_beef));
        assert!(matches!(
            m.load(ptr_add(a, 6), 4),
            Err(MemError::OutOfBounds { offset: 6, .. })
        ));
        assert!(matches!(
            m.load(ptr_add(a, -1), 1),
            Err(MemError::OutOfBounds { offset: -1, .. })
        ));
        assert_eq!(m.load(0, 4), Err(MemError::Null));
        m.release(a, State::Freed);
        assert!(matches!(m.load(a, 4), Err(MemError::Dead { .. })));
        assert_eq!(m.live_shared_bytes, 0);
        assert_eq!(m.peak_shared_bytes, 8);
    }
}
