/*
 * CPU tests of the D-tile GETT kernel's plan (plan/contraction/gett_dtile.c): which problems it
 * takes, its tiles on TCCG cases worked out by hand, and on random problems the kernel's limits
 * and the tile's purpose: the first tile holds D's leading elements (in D's order) whole.
 */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>

#include <cmocka.h>

#include "contraction/ctr_lettered_problem.h"
#include "contraction/ctr_random.h"
#include "core/device_info.h"
#include "plan/contraction/gett_cost.h"
#include "plan/contraction/gett_dtile.h"
#include "plan/contraction/gett_dtile_cost.h"
#include "support/rng.h"


static void test_tccg_tiles(void** state)
{
    (void)state;
    ctr_made o;
    cuperm_ctr_dtile_t s;
    /* TCCG 31: D = a(M 24) b(N 16) c(N 16) d(M) e(M) f(N). D's first 256 elements or more: a, b
     * (384); then the smaller side grows: N by c (24 x 256 = 6144, padded 32 x 256). A block writes
     * 6144 contiguous elements of D. */
    assert_int_equal(ctr_make(&o, "dega", "gfbc", "abcdef", TCCG31_48_EXTENTS, CUPERM_R_16F), CUPERM_STATUS_SUCCESS);
    assert_true(cuperm_ctr_dtile_choose(&o.p, &s));
    assert_int_equal(s.tm, 24);
    assert_int_equal(s.tn, 256);
    assert_int_equal(s.kp, 32);
    assert_int_equal(s.by[CTR_GROUP_M], CTR_D);
    assert_int_equal(s.by[CTR_GROUP_N], CTR_D);
    assert_int_equal(s.by[CTR_GROUP_K], CTR_B); /* the larger panel */
    assert_true(s.whole[0] && s.whole[1]);
    /* D runs along M (a): Y = M (24 rows, 3 fragments: a warp grid of 1 x 8 warps of 4 x 2, so 32
     * panel rows), X = N (256): X's panel stays, M's tiles change and are gathered through a slot
     * table of 32 x 32 runs of one element. */
    int px, py;
    cuperm_ctr_dtile_panel_rows(256, 24, &px, &py);
    assert_int_equal(px, 256);
    assert_int_equal(py, 32);
    assert_true(cuperm_ctr_dtile_outer_x(256, 24));
    assert_int_equal(cuperm_ctr_dtile_slot_bytes(&s, 1), 32 * 32 * 8);
    /* TCCG 40: D = a(M) b(M) c(N) d(M) e(N) f(N): a x b = 384 along M, then N by c. */
    assert_int_equal(ctr_make(&o, "gdab", "efgc", "abcdef", TCCG31_48_EXTENTS, CUPERM_R_16BF), CUPERM_STATUS_SUCCESS);
    assert_true(cuperm_ctr_dtile_choose(&o.p, &s));
    assert_int_equal(s.tm, 384);
    assert_int_equal(s.tn, 16);
    assert_int_equal(s.by[CTR_GROUP_K], CTR_A);
    /* TCCG 32: D = a(N) b(M) c(N) d(M) e(M) f(N): a x b = 384, then the side whose next mode fits
     * whole: N by c (16 x 384; M by d, 24, would not fit whole). Whole modes on both sides. */
    assert_int_equal(ctr_make(&o, "degb", "gfac", "abcdef", TCCG31_48_EXTENTS, CUPERM_R_16F), CUPERM_STATUS_SUCCESS);
    assert_true(cuperm_ctr_dtile_choose(&o.p, &s));
    assert_int_equal(s.tm, 16);
    assert_int_equal(s.tn, 384);
    assert_true(s.whole[0] && s.whole[1]);
    /* TCCG 12 (ab-ac-cb, k = 5136): K too long for one panel. */
    assert_int_equal(ctr_make(&o, "ac", "cb", "ab", EXT(X('a') = 64, X('b') = 64, X('c') = 65), CUPERM_R_16F),
                     CUPERM_STATUS_SUCCESS);
    assert_false(cuperm_ctr_dtile_choose(&o.p, &s));
    /* fp32 (CUDA cores) is not this kernel's. */
    assert_int_equal(ctr_make(&o, "dega", "gfbc", "abcdef", TCCG31_48_EXTENTS, CUPERM_R_32F), CUPERM_STATUS_SUCCESS);
    assert_false(cuperm_ctr_dtile_choose(&o.p, &s));
    /* An operator on A: the table kernel's. */
    assert_int_equal(ctr_make(&o, "dega", "gfbc", "abcdef", TCCG31_48_EXTENTS, CUPERM_R_16F), CUPERM_STATUS_SUCCESS);
    o.l.d[0].op = CUPERM_OP_RELU;
    assert_int_equal(cuperm_ctr_problem_init(&o.p, &o.l.d[0], &o.l.d[1], &o.l.d[2], &o.l.d[2], CUPERM_COMPUTE_DEFAULT),
                     CUPERM_STATUS_SUCCESS);
    assert_false(cuperm_ctr_dtile_choose(&o.p, &s));
    /* Unmeasured plans take it only with CUPERM_GETT_DTILE=1 (read per plan). */
    setenv("CUPERM_GETT_DTILE", "0", 1);
    assert_false(cuperm_ctr_dtile_requested());
    unsetenv("CUPERM_GETT_DTILE");
    assert_false(cuperm_ctr_dtile_requested());
    setenv("CUPERM_GETT_DTILE", "1", 1);
    assert_true(cuperm_ctr_dtile_requested());
}

static const cuperm_tuning_t* tuning_of(int ccMajor)
{
    const cuperm_device_info_t dev = {0, ccMajor, 0, 132, 50 << 20, 48 << 10, 3.35e12};
    return cuperm_tuning_for(&dev);
}

/* One block's work worked out by hand (TCCG 31 on 132 SMs), the time model's scale, and model
 * planning's choice against TTGT layouts priced above and below it. */
static void test_work_and_model_choice(void** state)
{
    (void)state;
    ctr_made o;
    cuperm_ctr_dtile_t s;
    cuperm_ctr_dtile_work_t w;
    assert_int_equal(ctr_make(&o, "dega", "gfbc", "abcdef", TCCG31_48_EXTENTS, CUPERM_R_16F), CUPERM_STATUS_SUCCESS);
    assert_true(cuperm_ctr_dtile_choose(&o.p, &s)); /* 24 x 256 (test_tccg_tiles) */
    cuperm_ctr_dtile_work(&o.p, &s, 132, &w);
    /* 9216 / 24 x 4096 / 256 = 6144 items over 264 blocks: 24 each (23.3). */
    assert_float_equal(w.items, 24, 0);
    /* A tile is 6144 contiguous elements of D (a, b, c whole): 2 sector bytes an output; D runs
     * of 8 along a (24), so staged 16-byte pieces: 6144 / 8 per item over 256 threads. */
    assert_float_equal(w.dBytes, 24.0 * 6144 * 2, 0);
    assert_float_equal(w.dStores, 24.0 * 6144 / 8 / 256, 1e-12);
    /* Panels: B's (256 n x 24 k: g, f contiguous in B = gfbc, a run of 24 elements, 48 bytes
     * in 2 sectors) stays; A's (24 m x 24 k: a and g strided in A = dega, a sector an element)
     * changes every item: 24 loads of A's panel; the block's 24 items of 384 inner (M) tiles span
     * at most two outer ones, so two of B's. */
    const double aPanel = 24.0 * 24 * 32, bPanel = 256.0 * 24 * (64.0 / 24 * 1);
    assert_float_equal(w.panelBytes, 24 * aPanel + 2 * bPanel, 1e-6);
    const cuperm_tuning_t* h100 = tuning_of(9);
    const double d = cuperm_ctr_dtile_seconds(&o.p, &s, h100, 132);
    assert_true(d > 10e-6 && d < 1e-3);
    assert_false(isfinite(cuperm_ctr_dtile_seconds(&o.p, &s, tuning_of(8), 108))); /* not measured there */
    /* Every run of TCCG 31 takes the packed path (tiles from the registers, C with D's strides): it
     * is priced by D's bytes and A's and B's twice (panel images) at its share of a copy's rate. */
    const double pk = cuperm_ctr_dtile_packed_seconds(&o.p, &s, h100, 3.35e12);
    const double bytes = 9216.0 * 4096 * 2 + 2 * 2 * (9216.0 * 24 + 24.0 * 4096);
    assert_float_equal(pk, h100->dtile.packedSeconds0 + bytes / (3.35e12 * h100->copy_efficiency * h100->dtile.packedEfficiency),
                       1e-12);
    assert_true(pk < d); /* the gathering kernel's price is higher */
    assert_false(isfinite(cuperm_ctr_dtile_packed_seconds(&o.p, &s, tuning_of(8), 2.0e12)));
    /* The choice: the kernel where TTGT's layout is priced above it (by the margin), never else. */
    cuperm_ctr_layout_t l;
    memset(&l, 0, sizeof l);
    l.calls = 1;
    l.gemmSeconds = 2 * pk * h100->dtile.packedMargin;
    double seconds;
    assert_int_equal(cuperm_ctr_gett_model_choice(&o.p, &l, h100, 132, 3.35e12, &seconds), CTR_GETT_DTILE);
    assert_float_equal(seconds, pk, 0);
    l.gemmSeconds = 0.9 * pk * h100->dtile.packedMargin;
    assert_int_equal(cuperm_ctr_gett_model_choice(&o.p, &l, h100, 132, 3.35e12, &seconds), CTR_GETT_NONE);
    assert_float_equal(seconds, l.gemmSeconds, 0);
    /* C with other strides: runs with beta != 0 would take the gathering kernel, which is priced. */
    {
        ctr_made oc;
        assert_int_equal(ctr_make(&oc, "dega", "gfbc", "abcdef", TCCG31_48_EXTENTS, CUPERM_R_16F), CUPERM_STATUS_SUCCESS);
        int64_t st[6] = {1};
        for (int i = 1; i < 6; ++i) st[i] = st[i - 1] * oc.l.extents[2][i - 1] + (i == 1); /* padded after a */
        cupermTensorDescriptor_t c = oc.l.d[2];
        c.strides = st;
        assert_int_equal(cuperm_ctr_problem_init(&oc.p, &oc.l.d[0], &oc.l.d[1], &c, &oc.l.d[2], CUPERM_COMPUTE_DEFAULT),
                         CUPERM_STATUS_SUCCESS);
        assert_true(cuperm_ctr_dtile_choose(&oc.p, &s));
        assert_false(isfinite(cuperm_ctr_dtile_packed_seconds(&oc.p, &s, h100, 3.35e12)));
        l.gemmSeconds = 2 * d * h100->dtile.margin;
        assert_int_equal(cuperm_ctr_gett_model_choice(&oc.p, &l, h100, 132, 3.35e12, &seconds), CTR_GETT_DTILE);
        assert_float_equal(seconds, d, 0);
        l.gemmSeconds = 0.9 * d * h100->dtile.margin;
        assert_int_equal(cuperm_ctr_gett_model_choice(&oc.p, &l, h100, 132, 3.35e12, &seconds), CTR_GETT_NONE);
    }
    /* A looped layout (hundreds of GEMMs: TCCG 33's kind) is priced as issued at a host floor per
     * looped index, milliseconds here; the kernel competes with its device time, and loses. */
    l.calls = 384;
    l.gemmSeconds = 0.9 * pk * h100->dtile.packedMargin;
    assert_true(cuperm_ctr_ttgt_issued_seconds(&l) > 10 * d);
    assert_int_equal(cuperm_ctr_gett_model_choice(&o.p, &l, h100, 132, 3.35e12, &seconds), CTR_GETT_NONE);
    l.calls = 1;
    l.gemmSeconds = 100 * d;
    assert_int_equal(cuperm_ctr_gett_model_choice(&o.p, &l, tuning_of(8), 108, 2.0e12, &seconds), CTR_GETT_NONE);
    /* TCCG 6 (abcde-efbad-cf): the tile (432 x 13) cuts b; A's panel gathers an element a sector
     * from a 113 MB operand: its modelled time per output is far above TCCG 31's. */
    const double perOutput31 = d / (9216.0 * 4096);
    assert_int_equal(ctr_make(&o, "efbad", "cf", "abcde",
                          EXT(X('a') = 48, X('b') = 32, X('c') = 24, X('d') = 32, X('e') = 48, X('f') = 32), CUPERM_R_16F),
                     CUPERM_STATUS_SUCCESS);
    assert_true(cuperm_ctr_dtile_choose(&o.p, &s));
    assert_true(cuperm_ctr_dtile_seconds(&o.p, &s, h100, 132) / (48.0 * 32 * 24 * 32 * 48) > 3 * perOutput31);
}

/* D's first `count` elements in D's order (modes by D's strides) lie in the first tile. */
static void check_leading(const cuperm_ctr_problem_t* p, const cuperm_ctr_dtile_t* s, int64_t count, const char* repro)
{
    int order[CTR_MAX_MODES];
    const int n = cuperm_ctr_dtile_d_order(p, order);
    for (int64_t x = 0; x < count; ++x) {
        int64_t rest = x, lin[2] = {0, 0}, scale[2] = {1, 1};
        for (int j = 0; j < n; ++j) {
            const cuperm_ctr_mode_t* m = &p->modes[order[j]];
            const int64_t c = rest % m->extent;
            rest /= m->extent;
            if (m->group == CTR_GROUP_M || m->group == CTR_GROUP_N) {
                lin[m->group] += c * scale[m->group]; /* tables' order: M and N by D's strides */
                scale[m->group] *= m->extent;
            } else if (c) {
                fail_msg("%s: D's element %lld of the first %lld has a batch index", repro, (long long)x, (long long)count);
            }
        }
        if (lin[0] >= s->tm || lin[1] >= s->tn)
            fail_msg("%s: D's element %lld (m %lld, n %lld) is outside the first %d x %d tile", repro, (long long)x,
                     (long long)lin[0], (long long)lin[1], s->tm, s->tn);
    }
}

static void test_random_tiles(void** state)
{
    (void)state;
    rng_t r = {20261125};
    int taken = 0, cases = 600;
    for (int i = 0; i < cases; ++i) {
        ctr_random_case c;
        const ctr_random_options o = {6, 40, 1 << 22, i % 2, 2, 1, 0, 20};
        ctr_random_draw(&r, &o, &c);
        for (int w = 0; w < 4; ++w) c.desc[w].type = w < 2 ? CUPERM_R_16F : (i % 3 ? CUPERM_R_16F : CUPERM_R_32F);
        cuperm_ctr_problem_t p;
        assert_int_equal(cuperm_ctr_problem_init(&p, &c.desc[0], &c.desc[1], &c.desc[2], &c.desc[3],
                                                 CUPERM_COMPUTE_DEFAULT), CUPERM_STATUS_SUCCESS);
        char repro[512];
        ctr_random_print(&c, repro, sizeof repro);
        cuperm_ctr_dtile_t s;
        if (!cuperm_ctr_dtile_choose(&p, &s)) { /* K too long, or a tile below 64 outputs */
            assert_true(p.groupSize[CTR_GROUP_K] > CTR_DTILE_KMAX ||
                        p.groupSize[CTR_GROUP_M] * p.groupSize[CTR_GROUP_N] < 64 || p.groupCount[CTR_GROUP_L] > 0);
            continue;
        }
        ++taken;
        assert_true(p.groupSize[CTR_GROUP_K] <= CTR_DTILE_KMAX);
        assert_true(s.kp % 16 == 0 && s.kp >= p.groupSize[CTR_GROUP_K] && s.kp - p.groupSize[CTR_GROUP_K] < 16);
        assert_true(s.tm >= 1 && s.tn >= 1 && s.tm <= p.groupSize[CTR_GROUP_M] && s.tn <= p.groupSize[CTR_GROUP_N]);
        /* the kernel's limits, with either side along D's fastest direction: its warp grid (8
         * fragments a warp, 8 warps) and its panels */
        for (int dMFast = 0; dMFast <= 1; ++dMFast) {
            const int tx = dMFast ? s.tn : s.tm, ty = dMFast ? s.tm : s.tn;
            int wx, wy;
            const int ny = cuperm_ctr_dtile_ny(tx, ty, &wx, &wy);
            assert_true(ny >= 2 && ny <= CTR_DTILE_WARP_FRAGMENTS && wx * wy <= CTR_DTILE_WARPS);
            assert_true(wy * ny * 8 >= ty && wx * (CTR_DTILE_WARP_FRAGMENTS / ny) * 16 >= tx);
            int px, py; /* the panels hold every working warp's fragments */
            cuperm_ctr_dtile_panel_rows(tx, ty, &px, &py);
            assert_int_equal(px, wx * (CTR_DTILE_WARP_FRAGMENTS / ny) * 16);
            assert_int_equal(py, wy * ny * 8);
            const int slots = cuperm_ctr_dtile_slot_bytes(&s, dMFast);
            assert_true(slots <= CTR_DTILE_SLOT_BYTES);
            assert_true(cuperm_ctr_dtile_smem_bytes(&s, dMFast) - slots - CTR_DTILE_STAGE_BYTES <= CTR_DTILE_PANEL_BYTES);
        }
        /* a side of whole modes divides its group: every tile is full, its offsets the first's
         * plus its first row's (the slot table's premise) */
        if (s.whole[0]) assert_int_equal(p.groupSize[CTR_GROUP_M] % s.tm, 0);
        if (s.whole[1]) assert_int_equal(p.groupSize[CTR_GROUP_N] % s.tn, 0);
        /* D's leading modes (before a batch mode) whole up to CTR_DTILE_RUN elements: always fit. */
        int order[CTR_MAX_MODES];
        const int n = cuperm_ctr_dtile_d_order(&p, order);
        int64_t lead = 1;
        for (int j = 0; j < n && p.modes[order[j]].group != CTR_GROUP_L && lead * p.modes[order[j]].extent < CTR_DTILE_RUN;
             ++j)
            lead *= p.modes[order[j]].extent;
        check_leading(&p, &s, lead, repro);
    }
    printf("    %d random problems, %d taken by the D-tile kernel\n", cases, taken);
    assert_true(taken > cases / 10);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tccg_tiles),
        cmocka_unit_test(test_random_tiles),
        cmocka_unit_test(test_work_and_model_choice),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
