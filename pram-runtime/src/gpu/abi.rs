//! The CUDA ABI as the driver uses it: `transform::emit_cuda::abi`, the one declaration of the
//! structures, constants and runtime kernel signatures (the C side, `cuda/fk_abi.cuh`, is
//! generated from it and checks its layout), and what cudarc needs to pass them to a kernel.

pub use transform::emit_cuda::abi::*;

use cudarc::driver::{DeviceRepr, LaunchArgs, PushKernelArg};

/// A value of the ABI as a kernel parameter: cudarc's trait on a type of this crate (the
/// orphan rule keeps it off the ABI's own types).
#[repr(transparent)]
struct Param<T>(T);

// SAFETY: a `CType` is plain data without pointers into host memory, laid out as C declares
// it (the generated header `static_assert`s every size and offset).
unsafe impl<T: CType> DeviceRepr for Param<T> {}

/// Pushes a kernel's arguments onto a cudarc launch, in the order of its C parameters.
pub struct Launch<'a, 'b>(pub &'b mut LaunchArgs<'a>);

impl<'a> ArgSink<'a> for Launch<'a, '_> {
    fn arg<T: CType>(&mut self, value: &'a T) {
        // SAFETY: `Param<T>` is `repr(transparent)` over `T`, so the reference is one to a
        // `Param<T>` of the same lifetime.
        let param = unsafe { &*(value as *const T as *const Param<T>) };
        self.0.arg(param);
    }
}
