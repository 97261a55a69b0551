"""Session 44's run A variants of an emitted device-schedule `.cu`: IN.cu -> OUT.cu with the
region task's path inlined into the persistent kernel (the block regions' functions, the task
and gang-join runners and the task loop `__forceinline__` instead of `__noinline__`).

ptxas keeps the global memory descriptor of a function that is not a kernel in ordinary
registers (`LDC.64 R46, c[0x0][0x208]` at its entry) and moves it into uniform registers
before each access (two `R2UR`), where a kernel reloads it with one `ULDC.64`: 330 `R2UR` in
the static code of split.fork's owned loop under the device schedule, none under the host
schedule's region kernel. The variant asks whether the kernel-inlined path, which ptxas
spills more (918 bytes of spill stores in fk_device_run against 426 over the functions),
runs the owned loops faster.

With `grid` (run B), the grid regions' path instead: the grid regions' functions, their task
runner and the task loop. With `nogang` (run D), nothing inlined: instead the gang's
meeting and sum after an owned loop's barriers and counts are left out (`team.ganged` no
longer tested), the bound of what an owned loop specialised to a team without a gang would
gain; correct only where no gang forms (P = 1 and 32 of the overhead suite).

Usage: python3 variants.py IN.cu OUT.cu [grid|nogang]"""
import sys

s = open(sys.argv[1]).read()
names = [
    "#define FK_REGION_FN __device__ __noinline__ void",
    "__device__ __noinline__ void fk_run_task(",
    "__device__ __noinline__ void fk_run_gang_join(",
    "__device__ __noinline__ void fk_run_tasks(",
]
if sys.argv[3:] == ["grid"]:
    names = [
        "#define FK_GRID_REGION_FN __device__ __noinline__ void",
        "__device__ __noinline__ void fk_run_grid_task(",
        "__device__ __noinline__ void fk_run_tasks(",
    ]
if sys.argv[3:] == ["nogang"]:
    for old, new in [
        ("    if (team.ganged) fk_gang_meet();\n", ""),
        ("    return team.ganged ? fk_gang_sum(n) : n;", "    return n;"),
    ]:
        assert s.count(old) == 1, old
        s = s.replace(old, new)
    names = []
for old in names:
    assert s.count(old) == 1, old
    s = s.replace(old, old.replace("__noinline__", "__forceinline__"))
open(sys.argv[2], "w").write(s)
