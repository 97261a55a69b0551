import re,sys
src=open('h0.cu').read()
def w(name, s):
    assert s != src or name=='h0', name
    open(name+'.cu','w').write(s)
def unchecked(s): return s.replace('#define FK_CHECKS 1','#define FK_CHECKS 0')
def restrict(s):
    for f in ['u_swap','u_seq_quicksort']:
        s=s.replace(f+'(FkThread *th,', f+'(FkThread *__restrict__ th,')
    return s
def swap_seen(s):
    s=s.replace('void u_swap(FkThread *th, int *p_6', 'void u_swap(FkThread *th, FkSeen &fk_seen, int *p_6')
    s=s.replace('''int *q_7) {
    FkSeen fk_seen = {};''','int *q_7) {')
    s=s.replace('u_swap(th, (&x','u_swap(th, fk_seen, (&x')
    s=s.replace('u_swap(th, p_6, q_7);','{ FkSeen fk_s = {}; u_swap(th, fk_s, p_6, q_7); }')
    return s
def no_iters(s):
    s=s.replace('''__device__ inline bool fk_spin(fk_u64 *it, int site, FkThread *th) {
    th->iters++;''','''__device__ inline bool fk_spin(fk_u64 *it, int site, FkThread *th) {''')
    return s
def flags(s):
    s=s.replace('''    bool heap;
    bool untracked;  // p lay where the checks track no objects (FK_OBJ_UNKNOWN): fk_at passes
    bool lasting;    // a static object or a heap block: its bounds hold for the whole run
};''','''    unsigned flags;
};
#define FK_SEEN_HEAP 1u
#define FK_SEEN_UNTRACKED 2u
#define FK_SEEN_LASTING 4u''')
    s=s.replace('!(seen.heap &&','!((seen.flags & FK_SEEN_HEAP) &&')
    s=s.replace('''return FkSeen{b.base, b.size, b.object == FK_OBJECT_MALLOC || b.object == FK_OBJECT_SHMALLOC,
                      false, !b.frame};''','''return FkSeen{b.base, b.size, (b.object == FK_OBJECT_MALLOC || b.object == FK_OBJECT_SHMALLOC ? FK_SEEN_HEAP : 0u) | (!b.frame ? FK_SEEN_LASTING : 0u)};''')
    s=s.replace('return FkSeen{0, 0, false, true, false};','return FkSeen{0, 0, FK_SEEN_UNTRACKED};')
    s=s.replace('return FkSeen{0, 0, false, false, false};','return FkSeen{0, 0, 0u};')
    s=s.replace('if (seen.lasting) th->seen = seen;','if (seen.flags & FK_SEEN_LASTING) th->seen = seen;')
    s=s.replace('if (!seen.untracked &&','if (!(seen.flags & FK_SEEN_UNTRACKED) &&')
    s=s.replace('if (seen.heap || !fk_seen_holds','if ((seen.flags & FK_SEEN_HEAP) || !fk_seen_holds')
    s=s.replace('!seen.heap && fk_seen_holds','!(seen.flags & FK_SEEN_HEAP) && fk_seen_holds')
    assert 'seen.heap' not in s and '.lasting' not in s and '.untracked' not in s, [l for l in s.split('\n') if 'seen.heap' in l or '.lasting' in l or '.untracked' in l]
    return s
def swap_unchecked(s):
    return re.sub(r'\*fk_at_seen\((p_6|q_7), 0, \d+, th, fk_seen\)', r'*\1', s)
w('h0',src)
w('hU',unchecked(src))
w('hR',restrict(src))
w('hS',swap_seen(src))
w('hI',no_iters(src))
w('hF',flags(src))
w('hRS',restrict(swap_seen(src)))
w('hA',swap_unchecked(src))
w('hRSIF',flags(no_iters(restrict(swap_seen(src)))))
w('hUI',no_iters(unchecked(src)))
