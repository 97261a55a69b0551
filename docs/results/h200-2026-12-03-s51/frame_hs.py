# Session 51, prepared for the next device run: Hillis-Steele's grid region loads its
# function's shared frame values (`a`, `b`, `n`) once, where each loop kernel loaded them for
# each member (the part of the kernels before their loops that run D found left after the
# checks' lookups). k4 and k5 get a copy of their body that takes them as arguments
# (K_body_fr), which the region's launches pass (FK_G_LAUNCH_FR).
import re, sys
src = open(sys.argv[1]).read()
loads = """    char *fr_2 = fk_th_frame(th, 2);
"""
vals = """    int *a_8 = *(int **)(fr_2 + 0);
    int *b_9 = *(int **)(fr_2 + 8);
    int n_10 = *(int *)(fr_2 + 16);
"""
copies = ""
for k in ("k4", "k5"):
    m = re.search(r"^__device__ __forceinline__ void %s_hillis_steele_scan_regs\(FkThread \*th, (.*?)\) \{\n.*?^}\n" % k, src, re.S | re.M)
    regs = m.group(0)
    params = m.group(1)
    fr = regs.replace("%s_hillis_steele_scan_regs(FkThread *th, " % k, "%s_hillis_steele_scan_regs_fr(FkThread *th, int *a_8, int *b_9, int n_10, " % k, 1)
    assert loads in fr and vals in fr
    fr = fr.replace(loads, "", 1).replace(vals, "", 1)
    assert "fr_2" not in fr
    b = re.search(r"^__device__ void %s_hillis_steele_scan_body\(FkThread \*th\) \{\n.*?^}\n" % k, src, re.S | re.M).group(0)
    bf = b.replace("_body(FkThread *th) {", "_body_fr(FkThread *th, int *a_8, int *b_9, int n_10) {", 1)
    bf = bf.replace("_regs(th, ", "_regs_fr(th, a_8, b_9, n_10, ", 1)
    copies += fr + "\n" + bf + "\n"
macro = r'''
#define FK_G_LAUNCH_FR(K, G, M, A, B, N)                                                 \
    do {                                                                                 \
        if ((M).only) {                                                                  \
            r.own.logged = -1;                                                           \
            if ((M).has) {                                                               \
                FkThread th_ = (M).th;                                                   \
                fk_region_thread(&th_, r, r.sub);                                        \
                FK_R_SEEN(th_, K##_body_fr(&th_, A, B, N));                              \
                r.own = FkOwnLog{th_.proc, th_.logged};                                  \
            }                                                                            \
        } else {                                                                         \
            r.own.logged = FK_LOGGED_UNKNOWN;                                            \
            int n_ = fk_m.groups[G].size;                                                \
            for (int t_ = fk_g_tid(); t_ < n_; t_ += fk_g_threads()) {                   \
                FkThread th_;                                                            \
                if (fk_thread(&th_, G, t_, r.slot_base, r.launch, 1)) {                  \
                    fk_region_thread(&th_, r, r.sub);                                    \
                    FK_R_SEEN(th_, K##_body_fr(&th_, A, B, N));                          \
                }                                                                        \
            }                                                                            \
        }                                                                                \
        r.sub++;                                                                         \
    } while (0)
'''
anchor = "// ---- program: block regions (run by one block) ----"
src = src.replace(anchor, copies + macro + "\n" + anchor, 1)
m = re.search(r"^FK_GRID_REGION_FN r0_hillis_steele_scan(_grid)?\(.*?^}\n", src, re.S | re.M)
f = m.group(0)
g = f.replace("    const FkGridMember m = fk_g_member(g, r);\n", "    const FkGridMember m = fk_g_member(g, r);\n    char *fk_fr2 = fk_frame(g, 2);\n    int *fk_a = *(int **)(fk_fr2 + 0), *fk_b = *(int **)(fk_fr2 + 8), fk_n = *(int *)(fk_fr2 + 16);\n", 1)
for k in ("k4", "k5"):
    old = "FK_G_LAUNCH(%s_hillis_steele_scan, g, m);" % k
    assert g.count(old) == 1
    g = g.replace(old, "FK_G_LAUNCH_FR(%s_hillis_steele_scan, g, m, fk_a, fk_b, fk_n);" % k)
src = src.replace(f, g)
open(sys.argv[2], "w").write(src)
