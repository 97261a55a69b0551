# Session 51: Hillis-Steele's grid region timed on block 0's team thread 0 (clock64), by
# part: each kernel (its own members' bodies), the team's count and the grid arrival of each
# barrier, the decisions, the step-limit spins; printed once at the region's end ("fkprof").
import re, sys
src = open(sys.argv[1]).read()
m = re.search(r"^FK_GRID_REGION_FN r0_hillis_steele_scan(_grid)?\(.*?^}\n", src, re.S | re.M)
fn = m.group(0)
helpers = r'''
__device__ unsigned long long fkp_acc[16];
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
f = f.replace("    fk_g_sync(fk_faulted());\n    fk_g_end(r);", "    fkp_sync();\n    fk_g_end(r);\n    if (FKP_ON) printf(\"fkprof total %llu k3 %llu k4 %llu k5 %llu k6 %llu count %llu arrive %llu syncs %llu decide %llu spin %llu\\n\", clock64() - fkp_t0, fkp_acc[3], fkp_acc[4], fkp_acc[5], fkp_acc[6], fkp_acc[8], fkp_acc[9], fkp_acc[10], fkp_acc[11], fkp_acc[12]);")
n = f.count("fk_g_decide(m, r.slot_base, fk_var(FK_VAR_SLOT, 0, 8, 4));")
f = f.replace("running10 = fk_g_decide(m, r.slot_base, fk_var(FK_VAR_SLOT, 0, 8, 4));", "FKP(11, running10 = fk_g_decide(m, r.slot_base, fk_var(FK_VAR_SLOT, 0, 8, 4)));")
f = f.replace("if (fk_g_spin(&it10, 37, g, r)) goto fk_g_out;", "{ bool s_; FKP(12, s_ = fk_g_spin(&it10, 37, g, r)); if (s_) goto fk_g_out; }")
f = f.replace("    const FkGridMember m = fk_g_member(g, r);", "    const FkGridMember m = fk_g_member(g, r);\n    long long fkp_t0 = clock64();")
assert "fkprof" in f and "FKP(12" in f and n == 2
src = src.replace(fn, helpers + f)
open(sys.argv[2], "w").write("#include <cstdio>\n" + src)
