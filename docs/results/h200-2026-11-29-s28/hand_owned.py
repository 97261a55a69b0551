"""Experiment (session 28): quicksort_balanced's stamped partition loop (stamp_helpers.py) run in
'owned' mode where the loop group holds every member of the region's group and fits the team:
thread t keeps member t's kernel thread for the whole loop; each launch builds the thread from
it (status reloaded), calls the same K_regs bodies with the same checks, logging, --crcw common
checks and multiprefix helpers; the continue/loop-exit update on the thread's own member and its
condition's register copy. Same stamps, so the helpers' cycles compare one to one.
Usage: python3 hand_owned.py STAMPED.cu OUT.cu"""
import sys
s = open(sys.argv[1]).read()
old = "    it61 = 0;\n    test64:\n"
own = r'''    it61 = 0;
    if (fk_m.groups[g61].size == n61 && n61 <= fk_team_size() && !seq) {
        int t_o = fk_team_tid();
        bool mem_o = t_o < n61;
        FkThread o_o;
        int proc_o = -1;
        if (mem_o) {
            fk_thread(&o_o, g61, t_o, r.slot_base, r.launch, 1);
            fk_region_thread(&o_o, r, r.sub);
            proc_o = o_o.proc;
            if (fk_cached != proc_o) { fk_load(proc_o); fk_cached = proc_o; }
        }
#define OWN(K, ...) do { bool runs_ = mem_o && fk_m.status[proc_o] == FK_ACTIVE; r.own = FkOwnLog{proc_o, -1}; \
    if (runs_) { FkThread th_ = o_o; th_.sub = r.sub; th_.iters = 0; th_.seen = r.seen; K##_regs(&th_, __VA_ARGS__); r.seen = th_.seen; r.own.logged = th_.logged; } \
    fk_r_keep_member(&fk_own, g61, proc_o, runs_); r.sub++; fk_team_sync(); } while (0)
        for (;;) {
            FK_PROF_START;
            if (running61 <= 0 || fk_r_spin(&it61, 121, g61, r)) break;
            FK_PROF(0);
            OWN(k25_quicksort, i_23, v_24, t_taken22_49, t_not_taken23_50, t_mp_cell24_51, t_mp_val25_52);
            FK_PROF(1);
            { FkMpOwn m_ = fk_r_multiprefix_mine(g61, n61, r.slot_base, FK_MP_ADD, fk_own, proc_o, (fk_u64)t_mp_cell24_51, (int)t_mp_val25_52, fk_var(FK_VAR_SLOT, 0, 16, 8), fk_var(FK_VAR_SLOT, 0, 32, 4), 1, fk_var(FK_VAR_SLOT, 0, 36, 4)); if (m_.proc >= 0) t_mp_res26_53 = m_.value; }
            FK_PROF(2);
            OWN(k26_quicksort, v_24, t_taken22_49, t_not_taken23_50, t_mp_res26_53, t_taken27_54, t_mp_cell28_55, t_mp_val29_56);
            FK_PROF(3);
            fk_own_check(g61, r); fk_team_sync();
            FK_PROF(4);
            { FkMpOwn m_ = fk_r_multiprefix_mine(g61, n61, r.slot_base, FK_MP_ADD, fk_own, proc_o, (fk_u64)t_mp_cell28_55, (int)t_mp_val29_56, fk_var(FK_VAR_SLOT, 0, 16, 8), fk_var(FK_VAR_SLOT, 0, 40, 4), 1, fk_var(FK_VAR_SLOT, 0, 24, 4)); if (m_.proc >= 0) t_mp_res30_57 = m_.value; }
            FK_PROF(5);
            OWN(k27_quicksort, i_23, v_24, t_cond21_48, t_taken27_54, t_mp_res30_57);
            FK_PROF(6);
            fk_own_check(g61, r); fk_team_sync();
            FK_PROF(7);
            int st_o = mem_o ? fk_m.status[proc_o] : -1;
            if (st_o == FK_CONTINUE) { fk_m.status[proc_o] = FK_ACTIVE; st_o = FK_ACTIVE; }
            FK_PROF(8);
            bool stays_o = st_o == FK_ACTIVE && !fk_faulted();
            if (stays_o && !t_cond21_48) { fk_m.status[proc_o] = FK_BREAK; stays_o = false; }
            running61 = fk_team_count(stays_o);
            FK_PROF(9);
        }
        fk_cached = proc_o;
        fk_own.group = -1;
        goto pc71;
    }
    test64:
'''
assert s.count(old) == 1
s = s.replace("#define FK_PROF_START long long fk_last_ = clock64();", "#define FK_PROF_START fk_last_ = clock64();", 1)
i = s.index('FK_REGION_FN r1_quicksort(')
head = '    FkRegion r = fk_region(g, slot_base, launch);\n'
k = s.index(head, i) + len(head)
s = s[:k] + '    long long fk_last_ = 0;\n' + s[k:]
s = s.replace(old, own, 1)
open(sys.argv[2], 'w').write(s)
