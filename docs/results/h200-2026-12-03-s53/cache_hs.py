# Session 53: a runner thread remembers the last barrier generation it acquired (group id
# and value, fk_released): a later processor of the thread that waits at the same group for
# an older generation is released without polling or acquiring again (the generation only
# grows, and only the live instance of an id moves it: the waiting processor's instance).
# At P = 65,536 a runner lane holds four of the group's members, and each polled and acquired.
#   python3 cache_hs.py IN.cu OUT.cu     (before pass_hs.py or time_kernel.py)
import sys
s = open(sys.argv[1]).read()
def once(old, new):
    global s
    assert s.count(old) == 1, old
    s = s.replace(old, new)
once("""__device__ inline bool fk_released(FkProc *s) {""",
     """__device__ inline bool fk_released(FkProc *s, int &seen_group, unsigned &seen_gen) {""")
once("""    const unsigned *gen = &fk_d.sync[s->wait_group].gen;
    if (fk_load_volatile(gen) == s->wait_gen) return false;
    (void)fk_load_acquire(gen);
    s->waiting = 0;
    return true;""", """    if (s->wait_group == seen_group && (int)(seen_gen - s->wait_gen) > 0) {
        s->waiting = 0;
        return true;
    }
    const unsigned *gen = &fk_d.sync[s->wait_group].gen;
    if (fk_load_volatile(gen) == s->wait_gen) return false;
    seen_gen = fk_load_acquire(gen);
    seen_group = s->wait_group;
    s->waiting = 0;
    return true;""")
once("""            if (s.waiting && !fk_released(&s)) continue;""",
     """            if (s.waiting && !fk_released(&s, seen_group, seen_gen)) continue;""")
once("""    FkProc own;
    if (mine == 1) own = fk_d.procs[t];
""", """    FkProc own;
    if (mine == 1) own = fk_d.procs[t];
    int seen_group = -1;
    unsigned seen_gen = 0;
""")
open(sys.argv[2], "w").write(s)
