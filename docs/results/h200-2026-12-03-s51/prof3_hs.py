# Session 51, prepared for the next device run: on prof2_hs.py's output, the part of
# Hillis-Steele's loop kernels before their loops split into the shared frame's loads (to
# where `a`, `b` and `n` have arrived: an empty volatile asm that takes them, which the clock
# read after it cannot pass) and the checks (to where fk_in is known); printed as k4frame,
# k4checks, k5frame, k5checks after the rest.
#   python3 prof2_hs.py in.cu mid.cu && python3 prof3_hs.py mid.cu out.cu
import re, sys
src = open(sys.argv[1]).read()
src = src.replace("fkp_acc[24]", "fkp_acc[32]", 1)
fmt = "members %llu\\n\", "
assert src.count(fmt) == 1
src = src.replace(fmt, "members %llu k4frame %llu k4checks %llu k5frame %llu k5checks %llu\\n\", ")
src = src.replace("fkp_acc[16], fkp_acc[17]);", "fkp_acc[16], fkp_acc[17], fkp_acc[20], fkp_acc[21], fkp_acc[22], fkp_acc[23]);", 1)
for k, fin, frame, checks in (("k4", "fk_in10", 20, 21), ("k5", "fk_in27", 22, 23)):
    m = re.search(r"^__device__ __forceinline__ void %s_hillis_steele_scan_regs\(.*?^}\n" % k, src, re.S | re.M)
    body = m.group(0)
    vals = "    int n_10 = *(int *)(fr_2 + 16);\n"
    first = "    long long fkq1 = clock64();\n"
    total = "fkp_acc[17]++; }"
    assert vals in body and first in body and total in body
    b = body.replace(vals, vals + "    asm volatile(\"\" :: \"l\"(a_8), \"l\"(b_9), \"r\"(n_10));\n    long long fkqf = clock64();\n", 1)
    b = b.replace(first, "    asm volatile(\"\" :: \"r\"((int)%s));\n" % fin + first, 1)
    b = b.replace(total, "fkp_acc[17]++; fkp_acc[%d] += fkqf - fkq0; fkp_acc[%d] += fkq1 - fkqf; }" % (frame, checks), 1)
    src = src.replace(body, b)
open(sys.argv[2], "w").write(src)
