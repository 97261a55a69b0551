//! The runtimes that execute a `transform::plan::Plan`: `cpu`, the CPU Plan executor.

pub mod cpu;
