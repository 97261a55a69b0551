"""Prints the persistent kernel's time (launch to cudaDeviceSynchronize) of an emitted
device-schedule `.cu` on stderr as `prof kernel_ms X`: the standalone binary has no timing
of its own, and the process's time is mostly CUDA's start.
Usage: python3 time_kernel.py IN.cu OUT.cu"""
import sys
s = open(sys.argv[1]).read()
launch = "    fk_cuda(cudaLaunchCooperativeKernel((void *)fk_device_run,"
sync = '    fk_cuda(cudaDeviceSynchronize(), "running the program");\n'
assert s.count(launch) == 1 and s.count(sync) == 1
s = s.replace(launch, "    auto fk_prof_t0 = std::chrono::steady_clock::now();\n" + launch)
s = s.replace(sync, sync + '#ifndef FK_EMU\n    fprintf(stderr, "prof kernel_ms %.3f\\n", std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - fk_prof_t0).count());\n#endif\n')
open(sys.argv[2], "w").write("#include <chrono>\n" + s)
