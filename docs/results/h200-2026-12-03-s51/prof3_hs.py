# Session 51, prepared for the next device run: prof2_hs.py's timing, with the part of
# Hillis-Steele's loop kernels before their loops split into the shared frame's loads (to
# where `a`, `b` and `n` have arrived: an empty volatile asm that takes them, which the clock
# reads after it cannot pass) and the checks (to where fk_in is known); printed as k4frame,
# k4checks, k5frame, k5checks after the rest.
import re, sys
src = open(sys.argv[1]).read()
m = re.search(r"^FK_GRID_REGION_FN r0_hillis_steele_scan(_grid)?\(.*?^}\n", src, re.S | re.M)
fn = m.group(0)
helpers = r'''
__device__ unsigned long long fkp_acc[32];
#define FKP_ON (blockIdx.x == 0 && fk_g_tid() == 0)
#define FKP(i, STMT) do { long long t0_ = clock64(); STMT; if (FKP_ON) fkp_acc[i] += clock64() - t0_; } while (0)
__device__ bool fkp_sync() {
    long long t0 = clock64();
    bool c = fk_team_count(fk_faulted()) != 0;
    long long t1 = clock64();
    bool s = fk_g_arrive(c) != 0;
    long long t2 = clock64();
    if (FKP_ON) { fkp_acc[8] += t1 - t0; fkp_acc[9] += t2 - t1; fkp_acc[10]++; }
    return s;
}
'''
f = fn
for i, k in ((3, "k3"), (4, "k4"), (5, "k5"), (6, "k6")):
    mm = re.search(r"(FK_G_LAUNCH(_PAIR)?)\(%s_hillis_steele_scan, g, m\);" % k, f)
    f = f.replace(mm.group(0), "FKP(%d, %s(%s_hillis_steele_scan, g, m));" % (i, mm.group(1), k))
f = f.replace("if (fk_g_sync(fk_faulted()))", "if (fkp_sync())")
f = f.replace("    fk_g_sync(fk_faulted());\n    fk_g_end(r);", "    fkp_sync();\n    fk_g_end(r);\n    if (FKP_ON) printf(\"fkprof total %llu k3 %llu k4 %llu k5 %llu k6 %llu count %llu arrive %llu syncs %llu decide %llu spin %llu k4pre %llu k4loop %llu k5pre %llu k5loop %llu members %llu k4frame %llu k4checks %llu k5frame %llu k5checks %llu\\n\", clock64() - fkp_t0, fkp_acc[3], fkp_acc[4], fkp_acc[5], fkp_acc[6], fkp_acc[8], fkp_acc[9], fkp_acc[10], fkp_acc[11], fkp_acc[12], fkp_acc[13], fkp_acc[14], fkp_acc[15], fkp_acc[16], fkp_acc[17], fkp_acc[20], fkp_acc[21], fkp_acc[22], fkp_acc[23]);")
f = f.replace("running10 = fk_g_decide(m, r.slot_base, fk_var(FK_VAR_SLOT, 0, 8, 4));", "FKP(11, running10 = fk_g_decide(m, r.slot_base, fk_var(FK_VAR_SLOT, 0, 8, 4)));")
f = f.replace("if (fk_g_spin(&it10, 37, g, r)) goto fk_g_out;", "{ bool s_; FKP(12, s_ = fk_g_spin(&it10, 37, g, r)); if (s_) goto fk_g_out; }")
f = f.replace("    const FkGridMember m = fk_g_member(g, r);", "    const FkGridMember m = fk_g_member(g, r);\n    long long fkp_t0 = clock64();")
src = src.replace(fn, f)
first = re.search(r"^// k0_main ", src, re.M).start()
src = src[:first] + helpers + src[first:]
for k, pre, loop, fin, fa, ch in (("k4", 13, 14, "fk_in10", 20, 21), ("k5", 15, 16, "fk_in27", 22, 23)):
    m = re.search(r"^__device__ __forceinline__ void %s_hillis_steele_scan_regs\(.*?^}\n" % k, src, re.S | re.M)
    body = m.group(0)
    b = body.replace(") {\n", ") {\n    long long fkq0 = clock64();\n", 1)
    vals = "    int n_10 = *(int *)(fr_2 + 16);\n"
    assert vals in b
    b = b.replace(vals, vals + "    asm volatile(\"\" :: \"l\"(a_8), \"l\"(b_9), \"r\"(n_10));\n    long long fkqf = clock64();\n", 1)
    b = b.replace("    if (%s) {" % fin, "    asm volatile(\"\" :: \"r\"((int)%s));\n    long long fkq1 = clock64();\n    if (%s) {" % (fin, fin), 1)
    last = "    *(int *)fk_slot(th->slot_base, 4, 4, th->proc) = i_12;\n}\n"
    assert b.endswith(last)
    b = b[:-len(last)] + "    if (FKP_ON) { fkp_acc[%d] += fkq1 - fkq0; fkp_acc[%d] += clock64() - fkq1; fkp_acc[17]++; fkp_acc[%d] += fkqf - fkq0; fkp_acc[%d] += fkq1 - fkqf; }\n" % (pre, loop, fa, ch) + last
    src = src.replace(body, b)
open(sys.argv[2], "w").write("#include <cstdio>\n" + src)
