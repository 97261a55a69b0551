//! The PRAM machine's settings that every executor takes the same way (the simulator, the
//! CPU Plan executor; the GPU backends from the CLI's flags): declared here, below them all,
//! so that no executor keeps a copy.

/// How concurrent writes of one cell in one step are resolved (docs/language.md §5).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Crcw {
    /// All writers must write the same value; otherwise a fault.
    #[default]
    Common,
    /// One value wins: the writer with the lowest `__PROC_NR__` (the simulator's and the
    /// CPU Plan executor's pick).
    Arbitrary,
    /// The writer with the highest `__PROC_NR__` wins.
    Priority,
}
