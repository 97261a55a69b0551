//! Hand-written CUDA baselines (`hand_cuda.cu`, embedded in the binary): matmul and
//! Hillis–Steele prefix sums, compiled and loaded as the Fork programs are
//! (`pram_runtime::gpu::load`: NVRTC for the GPU's architecture, through the compile cache),
//! launched through cudarc. Each run has two times: the whole run, by a host timer from the
//! first launch to the stream's synchronisation (input generation included, as in the Fork
//! programs), and the algorithm's, by CUDA events around its kernels (as the Fork program's
//! `algorithm` time leaves out `main`'s input and checks). The result is copied back
//! afterwards, untimed, and printed as the Fork program prints it, so the answer is checked
//! like every backend's.

use crate::baselines;
use cudarc::driver::{
    CudaContext, CudaEvent, CudaFunction, CudaModule, CudaSlice, CudaStream, LaunchConfig,
};
use cudarc::driver::{DriverError, PushKernelArg};
use std::sync::Arc;
use std::time::Instant;

/// The CUDA source of the baselines.
pub const SOURCE: &str = include_str!("hand_cuda.cu");

const BLOCK: u32 = 256;

/// The compiled baselines on GPU 0.
pub struct HandCuda {
    stream: Arc<CudaStream>,
    module: Arc<CudaModule>,
}

fn driver(what: &'static str) -> impl Fn(DriverError) -> String {
    move |e| format!("CUDA: {what}: {e:?}")
}

/// One timed run.
pub struct Timed {
    /// Seconds of the whole run: input generation and algorithm.
    pub seconds: f64,
    /// Seconds of the algorithm's kernels alone (CUDA events).
    pub algorithm: f64,
    /// What the Fork program prints for the result.
    pub output: String,
}

/// CUDA events that time the algorithm's kernels on the stream.
struct AlgorithmEvents {
    start: CudaEvent,
    end: CudaEvent,
}

impl HandCuda {
    /// Compiles the source and loads it; the caller checks
    /// `pram_runtime::gpu::available()` first (cudarc panics without the libraries).
    pub fn new() -> Result<HandCuda, String> {
        let ctx = CudaContext::new(0).map_err(driver("opening GPU 0"))?;
        let loaded = pram_runtime::gpu::load(&ctx, SOURCE, false).map_err(|e| e.to_string())?;
        Ok(HandCuda {
            stream: ctx.default_stream(),
            module: loaded.module,
        })
    }

    fn function(&self, name: &str) -> Result<CudaFunction, String> {
        self.module
            .load_function(name)
            .map_err(|e| format!("CUDA: kernel `{name}`: {e:?}"))
    }

    fn alloc(&self, len: usize) -> Result<CudaSlice<i32>, String> {
        self.stream
            .alloc_zeros::<i32>(len)
            .map_err(driver("allocating"))
    }

    fn config(procs: u64) -> Result<LaunchConfig, String> {
        let blocks = u32::try_from(procs.div_ceil(BLOCK as u64))
            .map_err(|_| format!("{procs} processors need too many thread blocks"))?;
        Ok(LaunchConfig {
            grid_dim: (blocks.max(1), 1, 1),
            block_dim: (BLOCK, 1, 1),
            shared_mem_bytes: 0,
        })
    }

    fn event(&self) -> Result<CudaEvent, String> {
        self.stream
            .record_event(Some(cudarc::driver::sys::CUevent_flags::CU_EVENT_DEFAULT))
            .map_err(driver("recording an event"))
    }

    /// Synchronises: the whole run's seconds since `start`, and the algorithm's.
    fn finish(&self, start: Instant, algorithm: AlgorithmEvents) -> Result<(f64, f64), String> {
        self.stream.synchronize().map_err(driver("synchronising"))?;
        let seconds = start.elapsed().as_secs_f64();
        let ms = (algorithm.start)
            .elapsed_ms(&algorithm.end)
            .map_err(driver("reading the events"))?;
        Ok((seconds, f64::from(ms) / 1e3))
    }

    fn read(&self, slice: &CudaSlice<i32>) -> Result<Vec<i32>, String> {
        self.stream
            .clone_dtoh(slice)
            .map_err(driver("copying to the host"))
    }

    /// matmul.fork's algorithm on `procs` threads.
    pub fn matmul(&self, n: i32, procs: u64) -> Result<Timed, String> {
        let len = n as usize * n as usize;
        let (mut a, mut b, mut c) = (self.alloc(len)?, self.alloc(len)?, self.alloc(len)?);
        let (input, multiply) = (self.function("matmul_input")?, self.function("matmul")?);
        let cfg = Self::config(procs)?;
        let procs = procs as i64;
        let start = Instant::now();
        // SAFETY: the argument lists match the kernels' signatures in hand_cuda.cu, and every
        // buffer holds n*n ints, the range the kernels index.
        unsafe {
            self.stream
                .launch_builder(&input)
                .arg(&mut a)
                .arg(&mut b)
                .arg(&n)
                .arg(&procs)
                .launch(cfg)
                .map_err(driver("launching matmul_input"))?;
        }
        let begin = self.event()?;
        // SAFETY: as above.
        unsafe {
            self.stream
                .launch_builder(&multiply)
                .arg(&a)
                .arg(&b)
                .arg(&mut c)
                .arg(&n)
                .arg(&procs)
                .launch(cfg)
                .map_err(driver("launching matmul"))?;
        }
        let end = self.event()?;
        let (seconds, algorithm) = self.finish(start, AlgorithmEvents { start: begin, end })?;
        let c = self.read(&c)?;
        Ok(Timed {
            seconds,
            algorithm,
            output: baselines::matmul_answer(n, &c).for_procs(procs as u64),
        })
    }

    /// prefix_hillis_steele.fork's algorithm on `procs` threads, two launches per round: the
    /// round into `tmp`, the copy back into `x`.
    pub fn prefix_inclusive(&self, n: i32, procs: u64) -> Result<Timed, String> {
        let len = n as usize;
        let (mut input, mut x, mut tmp) = (self.alloc(len)?, self.alloc(len)?, self.alloc(len)?);
        let (fill, round, copy) = (
            self.function("prefix_input")?,
            self.function("prefix_round")?,
            self.function("prefix_copy")?,
        );
        let cfg = Self::config(procs)?;
        let procs = procs as i64;
        let start = Instant::now();
        // SAFETY: as in `matmul`: matching signatures, buffers of n ints.
        unsafe {
            self.stream
                .launch_builder(&fill)
                .arg(&mut input)
                .arg(&mut x)
                .arg(&n)
                .arg(&procs)
                .launch(cfg)
                .map_err(driver("launching prefix_input"))?;
        }
        let begin = self.event()?;
        // SAFETY: as above.
        unsafe {
            let mut d = 1i32;
            while d < n {
                self.stream
                    .launch_builder(&round)
                    .arg(&x)
                    .arg(&mut tmp)
                    .arg(&n)
                    .arg(&d)
                    .arg(&procs)
                    .launch(cfg)
                    .map_err(driver("launching prefix_round"))?;
                self.stream
                    .launch_builder(&copy)
                    .arg(&mut x)
                    .arg(&tmp)
                    .arg(&n)
                    .arg(&procs)
                    .launch(cfg)
                    .map_err(driver("launching prefix_copy"))?;
                d = d.saturating_mul(2);
            }
        }
        let end = self.event()?;
        let (seconds, algorithm) = self.finish(start, AlgorithmEvents { start: begin, end })?;
        let (input, x) = (self.read(&input)?, self.read(&x)?);
        Ok(Timed {
            seconds,
            algorithm,
            output: baselines::prefix_inclusive_answer(n, &input, &x).for_procs(procs as u64),
        })
    }
}
