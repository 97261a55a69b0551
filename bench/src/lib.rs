//! `forkcc bench`: runs the 2012 study's experiments (sieve, quicksort, matrix
//! multiplication; plus prefix sums and list ranking) on forkcc's GPU backend and the
//! reference simulator, against sequential Rust and hand-written CUDA baselines measured in
//! the same run; prints a table, writes JSON, CSV and SVG plots. Method: docs/benchmarks.md.

pub mod baselines;
pub mod hand_cuda;
pub mod host;
pub mod lcg;
pub mod plot;
pub mod report;
pub mod run;
pub mod stats;
pub mod suite;
