"""Run K's build: the final tree's stamped .cu (stamp_helpers.py) with quicksort's partition
loop written by hand in r1_quicksort, for a group whose members all entered the loop and fit
the team (one thread each): the private values in registers, the two mpadds block scans
(fk_block_scan), no checks and no loop-group bookkeeping. Its cycles go to the stamps' slot
10, its iterations to the count. An experiment, not a design: it bounds what a region run as
one piece of code could save. Usage: python3 hand_loop.py STAMPED.cu OUT.cu"""
import sys
s = open(sys.argv[1]).read()
s = s.replace("#define FK_PROF_START long long fk_last_ = clock64();",
              "#define FK_PROF_START fk_last_ = clock64();", 1)
i = s.index('FK_REGION_FN r1_quicksort(')
head = '    FkRegion r = fk_region(g, slot_base, launch);\n'
k = s.index(head, i) + len(head)
s = s[:k] + '    long long fk_last_ = 0;\n' + s[k:]
s = s.replace('fprintf(stderr, "prof %s iterations %llu:"',
              'fprintf(stderr, "prof %s iterations %llu (slot 10: the hand loop):"', 1)
old = "    it61 = 0;\n    test64:\n"
hand = '''    it61 = 0;
    if (fk_m.groups[g61].size == fk_m.groups[g].size && fk_m.groups[g61].size <= fk_team_size()) {
        long long h0_ = clock64();
        int G_ = fk_m.groups[g61].size, t_ = fk_team_tid();
        char *fr_ = fk_frame(g61, 9);
        int *x_ = *(int **)(fr_ + 0), n_ = *(int *)(fr_ + 8), pivot_ = *(int *)(fr_ + 12);
        int *nless_ = (int *)(fr_ + 16), *ngreater_ = (int *)(fr_ + 20);
        int *buf_ = *(int **)(fr_ + 32);
        int i_ = t_;
        unsigned long long iters_ = 0;
        for (;;) {
            bool in_ = t_ < G_ && i_ < n_;
            if (fk_team_count(in_) == 0) break;
            iters_++;
            int v_ = in_ ? x_[i_] : 0;
            int less_ = in_ && v_ < pivot_, greater_ = in_ && v_ > pivot_, tl_, tg_;
            int pl_ = fk_block_scan(less_, &tl_), pg_ = fk_block_scan(greater_, &tg_);
            int nl_ = *nless_, ng_ = *ngreater_;
            fk_team_sync();
            if (less_) buf_[nl_ + pl_] = v_;
            if (greater_) buf_[n_ - 1 - (ng_ + pg_)] = v_;
            if (t_ == 0) { *nless_ = nl_ + tl_; *ngreater_ = ng_ + tg_; }
            fk_team_sync();
            i_ += G_;
        }
        if (t_ < G_) *(int *)fk_slot(r.slot_base, 0, 4, fk_m.members[fk_m.groups[g61].members + t_]) = i_;
        if (t_ == 0) { atomicAdd(&fk_prof[FK_PROF_CLASS][10], (unsigned long long)(clock64() - h0_)); atomicAdd(&fk_prof_n[FK_PROF_CLASS], iters_); }
        fk_team_sync();
        goto pc71;
    }
    test64:
'''
assert s.count(old) == 1
s = s.replace(old, hand, 1)
open(sys.argv[2], 'w').write(s)
