//! The transform: a checked program (`fork_frontend::hir`) becomes a `plan::Plan` — kernels,
//! the host control graph of each host function, and the storage layout
//! (transformation-rules.md, architecture.md).

pub mod plan;
