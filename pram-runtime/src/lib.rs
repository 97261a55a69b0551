//! The runtimes that execute a `transform::plan::Plan`: `cpu`, the CPU Plan executor; `cuda`,
//! the CUDA group-tree runtime library and the assembly of CUDA sources; `gpu`, the GPU
//! driver (NVRTC + cudarc).

pub mod cpu;
pub mod cuda;
pub mod gpu;
