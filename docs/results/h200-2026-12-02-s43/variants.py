"""Run A's variants of barrier.fork's device-schedule `.cu` (hand edits, measured before the
change was made in the library):

    forkcc build --emit cuda --schedule device -D N=20000 bench/overhead/barrier.fork > bd.cu
    forkcc build --emit cuda --schedule host -D N=20000 bench/overhead/barrier.fork > bh.cu
    python3 variants.py bd.cu     # writes bd2.cu, bd3.cu, bd4.cu beside it

with forkcc of 7c949c3a. bd2: fk_r_body's FkSeen through a copy of its own; bd3: in and out by
value; bd4: bd3 and the owned loop's team read once at its entry (syncs only).
"""
import sys

src = open(sys.argv[1]).read()
stem = sys.argv[1][: -len(".cu")]
BODY = """__device__ __noinline__ int fk_r_body(FkThread th, FkSeen *seen) {
    th.seen = *seen;
    Body(&th);
    *seen = th.seen;
    return th.logged;
}
#define FK_R_BODY(K, TH, SEEN) fk_r_body<K##_body>(TH, &(SEEN))"""
assert src.count(BODY) == 1

bd2 = src.replace(BODY, BODY.replace(
    "#define FK_R_BODY(K, TH, SEEN) fk_r_body<K##_body>(TH, &(SEEN))",
    """template <void (*Body)(FkThread *)>
__device__ inline int fk_r_run_body(FkThread th, FkSeen &seen) {
    FkSeen s = seen;
    int logged = fk_r_body<Body>(th, &s);
    seen = s;
    return logged;
}
#define FK_R_BODY(K, TH, SEEN) fk_r_run_body<K##_body>(TH, SEEN)"""))

bd3 = src.replace("template <void (*Body)(FkThread *)>\n" + BODY, """struct FkBodyOut { FkSeen seen; int logged; };
template <void (*Body)(FkThread *)>
__device__ __noinline__ FkBodyOut fk_r_body(FkThread th) {
    Body(&th);
    return FkBodyOut{th.seen, th.logged};
}
template <void (*Body)(FkThread *)>
__device__ inline int fk_r_run_body(FkThread &th, FkSeen &seen) {
    th.seen = seen;
    FkBodyOut out = fk_r_body<Body>(th);
    seen = out.seen;
    return out.logged;
}
#define FK_R_BODY(K, TH, SEEN) fk_r_run_body<K##_body>(TH, SEEN)""")
assert bd3 != src

entry = "        narrow2 = fk_r_narrow_begin(g2);\n"
bd4 = bd3.replace(entry, entry + """        bool warp_ = fk_team_is_warp(), ganged_ = fk_ganged(); int lanes_ = fk_team_size();
        auto gsync_ = [&] { if (warp_) __syncwarp(); else fk_team_barrier(lanes_); if (ganged_) fk_gang_meet(); };
        auto tsync_ = [&] { if (warp_) __syncwarp(); else fk_team_barrier(lanes_); };
""")
a, b = bd4.index("FK_R_OWN_LAUNCH_REGS(k3_main, g2"), bd4.index("fk_r_narrow_end(narrow2")
bd4 = bd4[:a] + bd4[a:b].replace("fk_gang_sync,", "gsync_,").replace("fk_team_sync,", "tsync_,") + bd4[b:]

for name, text in (("bd2", bd2), ("bd3", bd3), ("bd4", bd4)):
    open(f"{stem[:-2]}{name}.cu" if stem.endswith("bd") else f"{stem}-{name}.cu", "w").write(text)
