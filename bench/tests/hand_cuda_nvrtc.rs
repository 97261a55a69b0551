//! The hand-written CUDA baselines compile with NVRTC. Without NVRTC the test is reported as
//! ignored (`[needs NVRTC]`), except under `CI=true`, where it runs and fails.

use libtest_mimic::{Arguments, Failed, Trial};
use pram_runtime::cuda::nvrtc;

fn main() {
    let ci = std::env::var("CI").is_ok_and(|v| v == "true");
    let trial = Trial::test("the_source_compiles_with_nvrtc", || {
        nvrtc::compile_ptx(bench::hand_cuda::SOURCE)
            .map(drop)
            .map_err(|e| Failed::from(e.to_string()))
    })
    .with_kind("needs NVRTC")
    .with_ignored_flag(!nvrtc::nvrtc_present() && !ci);
    libtest_mimic::run(&Arguments::from_args(), vec![trial]).exit()
}
