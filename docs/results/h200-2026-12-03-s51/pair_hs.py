# Session 51 experiment: Hillis-Steele's two loop kernels run for a thread's two members
# together (their batches of 16 interleaved: both members' loads, then both members' stores).
import sys
src = open(sys.argv[1]).read()
S = "((n_10 < ((int)((int)th->size))) ? ((int)n_10) : ((int)th->size))"
pair = r'''
#define FK_MIN(a, b) ((a) < (b) ? (a) : (b))
__device__ __forceinline__ bool k4_in(FkThread *th, int *a_8, int *b_9, int n_10, int d_11, int i_12) {
    return fk_stride_fits<int>(((int)((unsigned long long)(n_10) - 1ull)), FK_MIN(n_10, (int)th->size)) && i_12 <= n_10 - 1 && fk_small((long long)(((i_12) > (d_11) ? (i_12) : (d_11)))) && fk_small((long long)(n_10 - 1)) && fk_small((long long)(d_11)) && fk_small((long long)((((i_12) > (d_11) ? (i_12) : (d_11)) - d_11))) && fk_small((long long)((n_10 - 1) - d_11)) && fk_pointer_range_in(a_8, (long long)(((long long)(((i_12) > (d_11) ? (i_12) : (d_11)) - d_11))) * 4, (long long)(((long long)((n_10 - 1) - d_11))) * 4, 4, th, 1) && fk_pointer_range_in(a_8, (long long)(((long long)((i_12) > (d_11) ? (i_12) : (d_11)))) * 4, (long long)(n_10 - 1) * 4, 4, th, 1) && fk_small((long long)(i_12)) && fk_pointer_range_in(a_8, (long long)i_12 * 4, (long long)(n_10 - 1) * 4, 4, th, 1) && fk_pointer_range_in(b_9, (long long)i_12 * 4, (long long)(n_10 - 1) * 4, 4, th, 1);
}
__device__ void k4_hillis_steele_scan_pair(FkThread *ta, FkThread *tb) {
    int d_a = *(int *)fk_slot(ta->slot_base, 0, 4, ta->proc);
    int d_b = *(int *)fk_slot(tb->slot_base, 0, 4, tb->proc);
    char *fa = fk_th_frame(ta, 2), *fb = fk_th_frame(tb, 2);
    int *a_a = *(int **)(fa + 0), *b_a = *(int **)(fa + 8), n_a = *(int *)(fa + 16);
    int *a_b = *(int **)(fb + 0), *b_b = *(int **)(fb + 8), n_b = *(int *)(fb + 16);
    int i_a = ta->rank, i_b = tb->rank;
    ta->iters = 1ull << FK_ITERS_STATEMENT_SHIFT;
    tb->iters = 1ull << FK_ITERS_STATEMENT_SHIFT;
    int s_a = FK_MIN(n_a, (int)ta->size), s_b = FK_MIN(n_b, (int)tb->size);
    fk_u64 it_a = 0, it_b = 0;
    bool ok = k4_in(ta, a_a, b_a, n_a, d_a, i_a) && k4_in(tb, a_b, b_b, n_b, d_b, i_b);
    if (ok) {
        while (fk_ahead<int, 16>(i_a, n_a - 1, s_a) && fk_ahead<int, 16>(i_b, n_b - 1, s_b)) {
            int va[16], vb[16];
            #pragma unroll
            for (int j = 0; j < 16; j++) {
                int i = i_a + j * s_a;
                va[j] = i >= d_a ? a_a[i - d_a] + a_a[i] : a_a[i];
            }
            #pragma unroll
            for (int j = 0; j < 16; j++) {
                int i = i_b + j * s_b;
                vb[j] = i >= d_b ? a_b[i - d_b] + a_b[i] : a_b[i];
            }
            int j = 0;
            #pragma unroll
            for (; j < 16; j++) {
                if (fk_spin(&it_a, 10, ta)) break;
                b_a[i_a] = va[j];
                i_a += s_a;
            }
            if (j < 16) return;
            #pragma unroll
            for (j = 0; j < 16; j++) {
                if (fk_spin(&it_b, 10, tb)) break;
                b_b[i_b] = vb[j];
                i_b += s_b;
            }
            if (j < 16) return;
        }
        for (; i_a < n_a; i_a += s_a) { if (fk_spin(&it_a, 10, ta)) return; b_a[i_a] = i_a >= d_a ? a_a[i_a - d_a] + a_a[i_a] : a_a[i_a]; }
        for (; i_b < n_b; i_b += s_b) { if (fk_spin(&it_b, 10, tb)) return; b_b[i_b] = i_b >= d_b ? a_b[i_b - d_b] + a_b[i_b] : a_b[i_b]; }
        *(int *)fk_slot(ta->slot_base, 4, 4, ta->proc) = i_a;
        *(int *)fk_slot(tb->slot_base, 4, 4, tb->proc) = i_b;
    } else {
        k4_hillis_steele_scan_body(ta);
        if (!fk_faulted()) k4_hillis_steele_scan_body(tb);
    }
}
__device__ void k5_hillis_steele_scan_pair(FkThread *ta, FkThread *tb) {
    char *fa = fk_th_frame(ta, 2), *fb = fk_th_frame(tb, 2);
    int *a_a = *(int **)(fa + 0), *b_a = *(int **)(fa + 8), n_a = *(int *)(fa + 16);
    int *a_b = *(int **)(fb + 0), *b_b = *(int **)(fb + 8), n_b = *(int *)(fb + 16);
    int i_a = ta->rank, i_b = tb->rank;
    ta->iters = 1ull << FK_ITERS_STATEMENT_SHIFT;
    tb->iters = 1ull << FK_ITERS_STATEMENT_SHIFT;
    int s_a = FK_MIN(n_a, (int)ta->size), s_b = FK_MIN(n_b, (int)tb->size);
    fk_u64 it_a = 0, it_b = 0;
    bool ok = fk_stride_fits<int>(n_a - 1, s_a) && i_a <= n_a - 1 && fk_small(i_a) && fk_small(n_a - 1) && fk_pointer_range_in(b_a, (long long)i_a * 4, (long long)(n_a - 1) * 4, 4, ta, 1) && fk_pointer_range_in(a_a, (long long)i_a * 4, (long long)(n_a - 1) * 4, 4, ta, 1)
           && fk_stride_fits<int>(n_b - 1, s_b) && i_b <= n_b - 1 && fk_small(i_b) && fk_small(n_b - 1) && fk_pointer_range_in(b_b, (long long)i_b * 4, (long long)(n_b - 1) * 4, 4, tb, 1) && fk_pointer_range_in(a_b, (long long)i_b * 4, (long long)(n_b - 1) * 4, 4, tb, 1);
    if (ok) {
        while (fk_ahead<int, 16>(i_a, n_a - 1, s_a) && fk_ahead<int, 16>(i_b, n_b - 1, s_b)) {
            int va[16], vb[16];
            #pragma unroll
            for (int j = 0; j < 16; j++) va[j] = b_a[i_a + j * s_a];
            #pragma unroll
            for (int j = 0; j < 16; j++) vb[j] = b_b[i_b + j * s_b];
            int j = 0;
            #pragma unroll
            for (; j < 16; j++) {
                if (fk_spin(&it_a, 27, ta)) break;
                a_a[i_a] = va[j];
                i_a += s_a;
            }
            if (j < 16) return;
            #pragma unroll
            for (j = 0; j < 16; j++) {
                if (fk_spin(&it_b, 27, tb)) break;
                a_b[i_b] = vb[j];
                i_b += s_b;
            }
            if (j < 16) return;
        }
        for (; i_a < n_a; i_a += s_a) { if (fk_spin(&it_a, 27, ta)) return; a_a[i_a] = b_a[i_a]; }
        for (; i_b < n_b; i_b += s_b) { if (fk_spin(&it_b, 27, tb)) return; a_b[i_b] = b_b[i_b]; }
        *(int *)fk_slot(ta->slot_base, 4, 4, ta->proc) = i_a;
        *(int *)fk_slot(tb->slot_base, 4, 4, tb->proc) = i_b;
    } else {
        k5_hillis_steele_scan_body(ta);
        if (!fk_faulted()) k5_hillis_steele_scan_body(tb);
    }
}
#define FK_G_LAUNCH_PAIR(K, G, M)                                                        \
    do {                                                                                 \
        int n_ = fk_m.groups[G].size, t_ = fk_g_tid(), k_ = fk_g_threads();              \
        if (!(M).only && t_ + k_ < n_ && t_ + 2 * k_ >= n_) {                            \
            r.own.logged = FK_LOGGED_UNKNOWN;                                            \
            FkThread a_, b_;                                                             \
            bool ha_ = fk_thread(&a_, G, t_, r.slot_base, r.launch, 1);                  \
            bool hb_ = fk_thread(&b_, G, t_ + k_, r.slot_base, r.launch, 1);             \
            fk_region_thread(&a_, r, r.sub);                                             \
            fk_region_thread(&b_, r, r.sub);                                             \
            if (ha_ && hb_) {                                                            \
                a_.seen = b_.seen = r.seen;                                              \
                K##_pair(&a_, &b_);                                                      \
            } else {                                                                     \
                if (ha_) FK_R_SEEN(a_, K##_body(&a_));                                   \
                if (hb_) FK_R_SEEN(b_, K##_body(&b_));                                   \
            }                                                                            \
            r.sub++;                                                                     \
        } else FK_G_LAUNCH(K, G, M);                                                     \
    } while (0)
'''
anchor = "// ---- program: block regions (run by one block) ----"
assert anchor in src
src = src.replace(anchor, pair + "\n" + anchor, 1)
for k in ("k4_hillis_steele_scan", "k5_hillis_steele_scan"):
    old = "FK_G_LAUNCH(%s, g, m);" % k
    assert src.count(old) == 1
    src = src.replace(old, "FK_G_LAUNCH_PAIR(%s, g, m);" % k)
open(sys.argv[2], "w").write(src)
