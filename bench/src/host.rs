//! What machine the numbers come from: CPU model, and GPU name and driver when present.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Host {
    pub cpu: String,
    pub cpus: usize,
    /// None without a GPU.
    pub gpu: Option<String>,
    /// The CUDA driver's version, as `major.minor`.
    pub cuda_driver: Option<String>,
}

fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|info| {
            info.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, model)| model.trim().to_string())
        })
        .unwrap_or_else(|| "unknown".into())
}

fn gpu() -> (Option<String>, Option<String>) {
    if !pram_runtime::gpu::available() {
        return (None, None);
    }
    let name = cudarc::driver::CudaContext::new(0)
        .and_then(|ctx| ctx.name())
        .ok();
    let mut version = 0;
    // SAFETY: `available` loaded the driver library; the call writes one int.
    let driver = unsafe { cudarc::driver::sys::cuDriverGetVersion(&mut version) };
    let driver = (driver == cudarc::driver::sys::CUresult::CUDA_SUCCESS)
        .then(|| format!("{}.{}", version / 1000, version % 1000 / 10));
    (name, driver)
}

impl Host {
    pub fn detect() -> Host {
        let (gpu, cuda_driver) = gpu();
        Host {
            cpu: cpu_model(),
            cpus: std::thread::available_parallelism().map_or(1, |n| n.get()),
            gpu,
            cuda_driver,
        }
    }
}
