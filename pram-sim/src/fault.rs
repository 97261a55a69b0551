//! Runtime faults: the R0xxx codes and the `Fault` report live in the front end
//! (`fork_frontend::fault`), so that every executor (this simulator, the GPU driver, the
//! standalone `.cu`) reports a fault with the same code and the same rendering.

pub use fork_frontend::fault::*;
