"""Run G's build: stamp_helpers.py's stamps, and inside each of the partition loop's three
launches (FK_R_LAUNCH in r1_quicksort) stamps of team thread 0 (member 0) after the member
count, after fk_thread (the member's group, processor, status, `$`), after fk_region_thread,
after the body's call and after the team's barrier: cycles per launch, summed over the three.
Usage: python3 stamp_launch.py STAMPED.cu OUT.cu"""
import sys
s = open(sys.argv[1]).read()
macro = '''
__device__ unsigned long long fk_prof_l[8];
#define FK_PL(k) do { if (fk_team_tid() == 0) { long long n2_ = clock64(); atomicAdd(&fk_prof_l[k], (unsigned long long)(n2_ - l_)); l_ = n2_; } } while (0)
#define FK_R_LAUNCH_PROF(K, SYNC, G, SEQ)                                            \\
    do {                                                                             \\
        long long l_ = clock64();                                                    \\
        int n_ = fk_r_threads(G, SEQ);                                               \\
        r.own.logged = n_ > fk_team_size() ? FK_LOGGED_UNKNOWN : -1;                 \\
        FK_PL(0);                                                                    \\
        for (int t_ = fk_team_tid(); t_ < n_; t_ += fk_team_size()) {                \\
            FkThread th_;                                                            \\
            bool on_ = fk_thread(&th_, G, fk_member_index(G, n_, t_), r.slot_base, r.launch, SYNC); \\
            FK_PL(1);                                                                \\
            if (on_) {                                                               \\
                fk_region_thread(&th_, r, r.sub);                                    \\
                FK_PL(2);                                                            \\
                int logged_ = FK_R_BODY(K, th_, r.seen);                             \\
                FK_PL(3);                                                            \\
                if (r.own.logged != FK_LOGGED_UNKNOWN)                               \\
                    r.own = FkOwnLog{th_.proc, logged_};                             \\
            }                                                                        \\
        }                                                                            \\
        r.sub++;                                                                     \\
        fk_team_sync();                                                              \\
        FK_PL(4);                                                                    \\
    } while (0)
'''
start = s.index('FK_REGION_FN r1_quicksort(')
end = s.index('\n}\n', start)
body = s[start:end]
loop = body[body.index('test64:'):body.index('goto test64;')]
body = body.replace(loop, loop.replace('FK_R_LAUNCH(', 'FK_R_LAUNCH_PROF('))
s = s[:start] + macro + body + s[end:]
old = '      for (int w = 0; w < 2; w++)'
new = ('      { unsigned long long l[8]; cudaMemcpyFromSymbol(l, fk_prof_l, sizeof l); fprintf(stderr, "launch stages (cycles, all iterations):");'
       ' for (int k = 0; k < 5; k++) fprintf(stderr, " %llu", l[k]); fprintf(stderr, "\\n"); }\n' + old)
s = s.replace(old, new, 1)
open(sys.argv[2], 'w').write(s)
