# Session 52, prepared for the next device run: a heap block's freed mark read with a
# GPU-scope relaxed load (`ld.relaxed.gpu.global`, which SASS shows as LD.E.STRONG.GPU)
# instead of the volatile load (LD.E.STRONG.SYS, system scope) in fk_seen_holds, which every
# check of an object found before (fk_at_seen, fk_seen_other, fk_pointer_range_in) makes.
# Compare the persistent kernel's time (kernel_build, kernel_rounds) or prof4 of the patched
# `.cu` against the plain one.
#   python3 relaxed_hs.py IN.cu OUT.cu
import sys
s = open(sys.argv[1]).read()
old = "             *(volatile const int *)&((const FkBlock *)seen.base - 1)->freed);"
new = "             fk_freed_relaxed(&((const FkBlock *)seen.base - 1)->freed));"
assert s.count(old) == 1, "fk_seen_holds's read of the mark"
helper = """__device__ __forceinline__ int fk_freed_relaxed(const int *a) {
    int v;
    asm volatile("ld.relaxed.gpu.global.s32 %0, [%1];" : "=r"(v) : "l"(a) : "memory");
    return v;
}
"""
anchor = "// Whether that access lies in the object seen and the object is not freed"
assert s.count(anchor) == 1
s = s.replace(anchor, helper + anchor).replace(old, new)
open(sys.argv[2], "w").write(s)
