# Session 52: a pass over stamp_hs.py's output that also stamps, with %globaltimer from the
# kernel's start, every group instance of more than 1024 members that forms (fk_new_group:
# `stamp group<K> NS size S id I`), every release of such a group (fk_release: `stamp
# release<K> NS size S`), and the first and last arrival of each instruction's collective
# (fk_arrive, sampled on processors p % 32 == 0: `stamp arrive pc<PC> FIRST LAST`).
#   python3 stamp_hs.py IN.cu MID.cu && python3 stamp2_hs.py MID.cu OUT.cu
import sys
s = open(sys.argv[1]).read()
def once(old, new):
    global s
    assert s.count(old) == 1, old
    s = s.replace(old, new)
once("__device__ unsigned fkt_posts, fkt_tasks;\n",
     "__device__ unsigned fkt_posts, fkt_tasks, fkt_groups, fkt_releases;\n"
     "__device__ unsigned long long fkt_group[16][3], fkt_release[16][2], fkt_arrive[128][2];\n")
once("    FkGroup *g = &fk_m.groups[id];\n    g->at = at;\n",
     "    if (size > 1024) { unsigned k = atomicAdd(&fkt_groups, 1u); if (k < 16) { fkt_group[k][0] = fkt_now(); fkt_group[k][1] = size; fkt_group[k][2] = id; } }\n"
     "    FkGroup *g = &fk_m.groups[id];\n    g->at = at;\n")
once("__device__ void fk_release(FkSync *y, int size) {\n",
     "__device__ void fk_release(FkSync *y, int size) {\n"
     "    if (size > 1024) { unsigned k = atomicAdd(&fkt_releases, 1u); if (k < 16) { fkt_release[k][0] = fkt_now(); fkt_release[k][1] = size; } }\n")
once("    fk_d.procs[p].sp = s->sp;\n    // The instruction the leader",
     "    if (p % 32 == 0 && s->pc >= 0 && s->pc < 128) { unsigned long long t = fkt_now(); atomicMin(&fkt_arrive[s->pc][0], t); atomicMax(&fkt_arrive[s->pc][1], t); }\n"
     "    fk_d.procs[p].sp = s->sp;\n    // The instruction the leader")
once("    auto fk_prof_t0 = std::chrono::steady_clock::now();\n",
     "    { static unsigned long long a[128][2]; for (auto &e : a) { e[0] = ~0ull; e[1] = 0; } cudaMemcpyToSymbol(fkt_arrive, a, sizeof a); }\n"
     "    auto fk_prof_t0 = std::chrono::steady_clock::now();\n")
once("      const char *nm[8]",
     "      { unsigned long long gr[16][3], rl[16][2], ar[128][2]; cudaMemcpyFromSymbol(gr, fkt_group, sizeof gr); cudaMemcpyFromSymbol(rl, fkt_release, sizeof rl); cudaMemcpyFromSymbol(ar, fkt_arrive, sizeof ar);\n"
     "        for (int k = 0; k < 16; k++) if (gr[k][0]) fprintf(stderr, \"stamp group%d %lld size %llu id %llu\\n\", k, (long long)(gr[k][0] - st[0]), gr[k][1], gr[k][2]);\n"
     "        for (int k = 0; k < 16; k++) if (rl[k][0]) fprintf(stderr, \"stamp release%d %lld size %llu\\n\", k, (long long)(rl[k][0] - st[0]), rl[k][1]);\n"
     "        for (int k = 0; k < 128; k++) if (ar[k][1]) fprintf(stderr, \"stamp arrive pc%d %lld %lld\\n\", k, (long long)(ar[k][0] - st[0]), (long long)(ar[k][1] - st[0])); }\n"
     "      const char *nm[8]")
open(sys.argv[2], "w").write(s)
