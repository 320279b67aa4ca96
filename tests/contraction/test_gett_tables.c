/*
 * CPU tests of GETT planning (plan/contraction/gett.c): for random contractions the offset
 * tables reproduce, for every index of every mode, the element offset the descriptors give
 * (brute force over the whole index space); the eligibility rules; the GETT layout record;
 * the mode orders: every candidate order's tables and widths (brute force), the widths
 * predicted from strides against the tables', the traffic model's choice (never dearer than
 * the strides rule) and hand-made TCCG-style cases.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "contraction/ctr_lettered_problem.h"
#include "contraction/ctr_random.h"
#include "plan/contraction/gett.h"
#include "plan/contraction/gett_dtile.h"
#include "support/rng.h"

/* Offset of operand w for the mode indices idx (per mode-table entry), from its descriptor. */
static int64_t descriptor_offset(const cupermTensorDescriptor_t* d, const cuperm_ctr_problem_t* p, const int64_t* idx)
{
    int64_t off = 0, dense = 1;
    for (int i = 0; i < d->rank; ++i) {
        const int64_t stride = d->strides ? d->strides[i] : dense;
        dense *= d->extents[i];
        for (int m = 0; m < p->nmodes; ++m)
            if (p->modes[m].label == d->modes[i]) off += idx[m] * stride;
    }
    return off;
}

/* Linear index of group g for the mode indices idx, in the tables' order (first fastest). */
/* Whether mode m of group g is one of the skinny kernel's split modes in t (its digits lead M). */
static int split_mode(const cuperm_ctr_gett_tables_t* t, int g, int m)
{
    return g == CTR_GROUP_M && t->mSplit[0] >= 0 && (m == t->mSplit[0] || m == t->mSplit[1]);
}

/* Linear index of group g for the mode indices idx, in the tables' order (first fastest; with a
 * split, M's digits alpha_lo, beta_lo, alpha_hi, beta_hi first). */
static int64_t linear(const cuperm_ctr_problem_t* p, const cuperm_ctr_gett_tables_t* t, int g, const int64_t* idx)
{
    int64_t lin = 0;
    for (int i = t->count[g] - 1; i >= 0; --i)
        if (!split_mode(t, g, t->order[g][i])) lin = lin * p->modes[t->order[g][i]].extent + idx[t->order[g][i]];
    if (g == CTR_GROUP_M && t->mSplit[0] >= 0)
        for (int h = 1; h >= 0; --h)
            for (int j = 1; j >= 0; --j) {
                const int m = t->mSplit[j];
                const int64_t f = t->mSplitF[j];
                lin = h ? lin * (p->modes[m].extent / f) + idx[m] / f : lin * f + idx[m] % f;
            }
    return lin;
}

static int64_t table_at(const cuperm_ctr_gett_tables_t* t, int g, int w, int64_t i)
{
    return t->at[g][w] < 0 ? 0 : t->table[t->at[g][w] + i];
}

/* Every element of A, B, C and D: tables t against the descriptors (each group's order a
 * permutation of its modes, the linear indices a bijection). Returns the count. */
static int64_t check_tables(const ctr_random_case* c, const cuperm_ctr_problem_t* p, const cuperm_ctr_gett_tables_t* tp)
{
    const cuperm_ctr_gett_tables_t t = *tp;
    int seen[CTR_MAX_MODES] = {0};
    for (int g = 0; g < CTR_GROUPS; ++g)
        for (int i = 0; i < t.count[g]; ++i) {
            const int m = t.order[g][i];
            assert_true(m >= 0 && m < p->nmodes);
            assert_int_equal(p->modes[m].group, g);
            assert_int_equal(seen[m]++, 0);
        }
    for (int m = 0; m < p->nmodes; ++m) assert_int_equal(seen[m], 1);
    int64_t total = 1;
    for (int g = 0; g < CTR_GROUPS; ++g) {
        int64_t s = 1;
        for (int i = 0; i < t.count[g]; ++i) s *= p->modes[t.order[g][i]].extent;
        assert_int_equal(s, t.size[g]);
        assert_int_equal(s, p->groupSize[g]);
        total *= s;
    }
    int64_t idx[CTR_MAX_MODES] = {0};
    for (int64_t e = 0; e < total; ++e) {
        int64_t lin[CTR_GROUPS];
        for (int g = 0; g < CTR_GROUPS; ++g) {
            lin[g] = linear(p, &t, g, idx);
            assert_true(lin[g] >= 0 && lin[g] < t.size[g]);
        }
        const int64_t m = lin[CTR_GROUP_M], n = lin[CTR_GROUP_N], k = lin[CTR_GROUP_K], l = lin[CTR_GROUP_L];
        const int64_t a = table_at(&t, CTR_GROUP_M, CTR_A, m) + table_at(&t, CTR_GROUP_K, CTR_A, k) +
                          table_at(&t, CTR_GROUP_L, CTR_A, l);
        const int64_t b = table_at(&t, CTR_GROUP_K, CTR_B, k) + table_at(&t, CTR_GROUP_N, CTR_B, n) +
                          table_at(&t, CTR_GROUP_L, CTR_B, l);
        assert_int_equal(a, descriptor_offset(&c->desc[0], p, idx));
        assert_int_equal(b, descriptor_offset(&c->desc[1], p, idx));
        for (int w = CTR_C; w <= CTR_D; ++w) {
            const int64_t o = table_at(&t, CTR_GROUP_M, w, m) + table_at(&t, CTR_GROUP_N, w, n) +
                              table_at(&t, CTR_GROUP_L, w, l);
            assert_int_equal(o, descriptor_offset(&c->desc[w], p, idx));
        }
        for (int i = 0; i < p->nmodes; ++i) { /* odometer over every mode */
            if (++idx[i] < p->modes[i].extent) break;
            idx[i] = 0;
        }
    }
    return total;
}

typedef int64_t (*table_check_fn)(const ctr_random_case*, const cuperm_ctr_problem_t*,
                                  const cuperm_ctr_gett_tables_t*);

/* Builds p's tables, runs one check on them, frees them. */
static int64_t with_tables(const ctr_random_case* c, const cuperm_ctr_problem_t* p, table_check_fn check)
{
    cuperm_ctr_gett_tables_t t;
    assert_int_equal(cuperm_ctr_gett_tables_build(p, 0, &t), CUPERM_STATUS_SUCCESS);
    const int64_t result = check(c, p, &t);
    cuperm_ctr_gett_tables_free(&t);
    return result;
}

/* Mode indices (per mode-table entry) of linear index lin of group g (the tables' order). */
static void unlinear(const cuperm_ctr_problem_t* p, const cuperm_ctr_gett_tables_t* t, int g, int64_t lin, int64_t* idx)
{
    if (g == CTR_GROUP_M && t->mSplit[0] >= 0) {
        int64_t digit[2][2];
        for (int h = 0; h < 2; ++h)
            for (int j = 0; j < 2; ++j) {
                const int64_t f = t->mSplitF[j], e = h ? p->modes[t->mSplit[j]].extent / f : f;
                digit[h][j] = lin % e;
                lin /= e;
            }
        for (int j = 0; j < 2; ++j) idx[t->mSplit[j]] = digit[0][j] + t->mSplitF[j] * digit[1][j];
    }
    for (int i = 0; i < t->count[g]; ++i) {
        const int m = t->order[g][i];
        if (split_mode(t, g, m)) continue;
        idx[m] = lin % p->modes[m].extent;
        lin /= p->modes[m].extent;
    }
}

/*
 * The kernel's vector runs against the descriptors: operand w (descriptor d) read in runs of
 * `width` along group fast, for every index of its other group `other` and of L: each run
 * starting at a multiple of width holds consecutive elements (as far as the group goes) and
 * starts at a multiple of width. Brute force over every element.
 */
static void check_runs(const ctr_random_case* c, const cuperm_ctr_problem_t* p, const cuperm_ctr_gett_tables_t* t,
                       int w, int fast, int other, int width)
{
    const cupermTensorDescriptor_t* d = &c->desc[w];
    for (int64_t l = 0; l < t->size[CTR_GROUP_L]; ++l)
        for (int64_t o = 0; o < t->size[other]; ++o)
            for (int64_t i = 0; i < t->size[fast]; i += width) {
                int64_t idx[CTR_MAX_MODES] = {0};
                unlinear(p, t, CTR_GROUP_L, l, idx);
                unlinear(p, t, other, o, idx);
                unlinear(p, t, fast, i, idx);
                const int64_t first = descriptor_offset(d, p, idx);
                if (first % width) fail_msg("operand %d: run at %lld starts at offset %lld, not a multiple of %d", w,
                                            (long long)i, (long long)first, width);
                for (int64_t j = 1; j < width && i + j < t->size[fast]; ++j) {
                    unlinear(p, t, fast, i + j, idx);
                    if (descriptor_offset(d, p, idx) != first + j)
                        fail_msg("operand %d: run at %lld of width %d is not contiguous", w, (long long)i, width);
                }
            }
}

/* Every operand's plan width in tables t, checked by brute force; returns the widths' sum. */
static int check_table_vectors(const ctr_random_case* c, const cuperm_ctr_problem_t* p, const cuperm_ctr_gett_tables_t* tp)
{
    const cuperm_ctr_gett_tables_t t = *tp;
    enum { M = CTR_GROUP_M, N = CTR_GROUP_N, K = CTR_GROUP_K };
    for (int w = 0; w < CTR_OPERANDS; ++w) {
        const int v = t.vec[w];
        assert_true(v == 1 || v == 2 || v == 4 || v == 8);
    }
    check_runs(c, p, &t, CTR_A, t.aKFast ? K : M, t.aKFast ? M : K, t.vec[CTR_A]);
    check_runs(c, p, &t, CTR_B, t.bKFast ? K : N, t.bKFast ? N : K, t.vec[CTR_B]);
    check_runs(c, p, &t, CTR_C, t.dMFast ? M : N, t.dMFast ? N : M, t.vec[CTR_C]);
    check_runs(c, p, &t, CTR_D, t.dMFast ? M : N, t.dMFast ? N : M, t.vec[CTR_D]);
    int64_t most = 0;
    for (int w = 0; w < CTR_OPERANDS; ++w) {
        const int64_t o = cuperm_ctr_operand_max_offset(&p->op[w]);
        most = o > most ? o : most;
    }
    assert_int_equal(t.off32, most <= INT32_MAX);
    return t.vec[0] + t.vec[1] + t.vec[2] + t.vec[3];
}

static int64_t check_table_vectors_count(const ctr_random_case* c, const cuperm_ctr_problem_t* p,
                                         const cuperm_ctr_gett_tables_t* tp)
{
    return check_table_vectors(c, p, tp);
}

static void set_types(ctr_random_case* c, cupermDataType_t ab, cupermDataType_t cd)
{
    for (int w = 0; w < 4; ++w) {
        c->desc[w].type = w < 2 ? ab : cd;
        c->desc[w].op = CUPERM_OP_IDENTITY;
        c->desc[w].opParam = 0;
    }
}

static void test_tables_random(void** state)
{
    (void)state;
    rng_t r = {20240917};
    int64_t elements = 0, widths = 0;
    for (int i = 0; i < 400; ++i) {
        ctr_random_case c;
        ctr_random_options o = {6, 7, 1 << 14, i % 2, 0, 1, 20, 20};
        ctr_random_draw(&r, &o, &c);
        set_types(&c, i % 3 ? CUPERM_R_16F : CUPERM_R_16BF, i % 2 ? CUPERM_R_32F : (i % 3 ? CUPERM_R_16F : CUPERM_R_16BF));
        cuperm_ctr_problem_t p;
        if (cuperm_ctr_problem_init(&p, &c.desc[0], &c.desc[1], &c.desc[2], &c.desc[3], CUPERM_COMPUTE_DEFAULT)) {
            char text[900];
            ctr_random_print(&c, text, sizeof text);
            fail_msg("problem rejected: %s", text);
        }
        char why[128] = "";
        if (!cuperm_ctr_gett_eligible(&p, why, sizeof why)) fail_msg("not eligible: %s", why);
        elements += with_tables(&c, &p, check_tables);
        widths += (int)with_tables(&c, &p, check_table_vectors_count);
        /* The layout record matches the tables' orders and sizes. */
        cuperm_ctr_layout_t l;
        cuperm_ctr_gett_layout(&p, 1, &l); /* the D-tile kernel's orders where it takes p */
        assert_int_equal(l.kind, CTR_KIND_GETT);
        cuperm_ctr_dtile_t dt;
        assert_int_equal(l.dtile, cuperm_ctr_dtile_choose(&p, &dt));
        assert_int_equal(l.m, p.groupSize[CTR_GROUP_M]);
        assert_int_equal(l.n, p.groupSize[CTR_GROUP_N]);
        assert_int_equal(l.k, p.groupSize[CTR_GROUP_K]);
        assert_int_equal(l.batch, p.groupSize[CTR_GROUP_L]);
        assert_int_equal(l.calls, 1);
        assert_int_equal(l.workspaceBytes, 0);
        cuperm_ctr_gett_tables_t t;
        assert_int_equal(cuperm_ctr_gett_tables_build(&p, 1, &t), CUPERM_STATUS_SUCCESS);
        for (int g = 0; g < CTR_GROUPS; ++g) {
            assert_int_equal(l.count[g], t.count[g]);
            for (int j = 0; j < t.count[g]; ++j) assert_int_equal(l.order[g][j], t.order[g][j]);
        }
        cuperm_ctr_gett_tables_free(&t);
    }
    printf("    400 random problems, %lld index tuples checked, vector widths sum %lld (1600 = all scalar)\n",
           (long long)elements, (long long)widths);
    assert_true(widths > 1600); /* some vector paths among them */
}

/* The first tile's rows of A (TCCG 4 style, ext's d by a x 5 x 3) against a_lo's length aLo. */
static void check_skinny_first_tile(const cuperm_ctr_gett_tables_t* t, const int64_t* ext, int64_t aLo)
{
    const int64_t aStride = ext['d' - 'a'] * ext['e' - 'a'] * ext['c' - 'a']; /* A = deca */
    for (int64_t m = 0; m < 128; ++m) {
        const int64_t d = m % 8 + 8 * (m / (8 * aLo)), a = (m / 8) % aLo;
        assert_int_equal(t->table[t->at[CTR_GROUP_M][CTR_A] + m], d + a * aStride);
    }
}

/* The skinny kernel's split (TCCG 4 style: A's unit-stride mode d and D's a, both in M): the tables
 * lead M with d_lo, a_lo, d_hi, a_hi and check against the descriptors element by element; a_lo
 * is 16 long where 16 divides a (a tile then holds d 0..7 at a 0..15), else 8 (d 0..15 at a 0..7);
 * D takes its runs along a as vectors of 8 unless one of its other strides is not a multiple of 8;
 * A reads along M in runs of 8, and no split where D's unit-stride mode is A's or an extent is not a
 * multiple of 8. */
static void test_skinny_split(void** state)
{
    (void)state;
    int64_t ext[26] = {0};
    ext['a' - 'a'] = 16, ext['b' - 'a'] = 5, ext['c' - 'a'] = 3, ext['d' - 'a'] = 24, ext['e' - 'a'] = 9;
    ctr_made o;
    assert_int_equal(ctr_make(&o, "deca", "be", "abcd", ext, CUPERM_R_16F), CUPERM_STATUS_SUCCESS);
    int split[2], f[2];
    assert_true(cuperm_ctr_gett_skinny(&o.p));
    assert_true(cuperm_ctr_gett_skinny_split(&o.p, split, f));
    assert_int_equal(o.p.modes[split[0]].label, 'd');
    assert_int_equal(o.p.modes[split[1]].label, 'a');
    ctr_random_case c;
    memset(&c, 0, sizeof c);
    for (int w = 0; w < 4; ++w) c.desc[w] = o.l.d[w < 2 ? w : 2]; /* C = D */
    cuperm_ctr_gett_tables_t t;
    assert_int_equal(cuperm_ctr_gett_tables_build(&o.p, 0, &t), CUPERM_STATUS_SUCCESS);
    assert_int_equal(f[0], 8);
    assert_int_equal(f[1], 16);
    assert_int_equal(t.mSplitF[0], 8);
    assert_int_equal(t.mSplitF[1], 16);
    assert_int_equal(check_tables(&c, &o.p, &t), 16 * 5 * 3 * 24 * 9);
    check_table_vectors(&c, &o.p, &t);
    assert_int_equal(t.aKFast, 0);
    assert_int_equal(t.vec[CTR_A], 8);
    check_skinny_first_tile(&t, ext, 16);
    cuperm_ctr_gett_tables_free(&t);
    /* D's runs along a as vectors of 8 (its other strides 16, 80, 240), not once a row is padded */
    assert_int_equal(cuperm_ctr_gett_skinny_run_width(&o.p, CTR_D, split[1]), 8);
    const int64_t padded[4] = {1, 17, 17 * 5, 17 * 5 * 3};
    o.l.d[2].strides = padded;
    assert_int_equal(cuperm_ctr_problem_init(&o.p, &o.l.d[0], &o.l.d[1], &o.l.d[2], &o.l.d[2], CUPERM_COMPUTE_DEFAULT),
                     CUPERM_STATUS_SUCCESS);
    assert_true(cuperm_ctr_gett_skinny_split(&o.p, split, f));
    assert_int_equal(cuperm_ctr_gett_skinny_run_width(&o.p, CTR_D, split[1]), 1);
    assert_int_equal(ctr_make(&o, "deca", "be", "abcd", ext, CUPERM_R_16F), CUPERM_STATUS_SUCCESS);
    /* a of 24: a_lo of 8 */
    ext['a' - 'a'] = 24;
    assert_int_equal(ctr_make(&o, "deca", "be", "abcd", ext, CUPERM_R_16F), CUPERM_STATUS_SUCCESS);
    assert_true(cuperm_ctr_gett_skinny_split(&o.p, split, f));
    assert_int_equal(f[1], 8);
    for (int w = 0; w < 4; ++w) c.desc[w] = o.l.d[w < 2 ? w : 2];
    assert_int_equal(cuperm_ctr_gett_tables_build(&o.p, 0, &t), CUPERM_STATUS_SUCCESS);
    assert_int_equal(check_tables(&c, &o.p, &t), 24 * 5 * 3 * 24 * 9);
    check_skinny_first_tile(&t, ext, 8);
    cuperm_ctr_gett_tables_free(&t);
    ext['a' - 'a'] = 16;
    /* D's unit-stride mode is A's: no split */
    assert_int_equal(ctr_make(&o, "adec", "be", "abcd", ext, CUPERM_R_16F), CUPERM_STATUS_SUCCESS);
    assert_false(cuperm_ctr_gett_skinny_split(&o.p, split, f));
    /* an extent not a multiple of 8 */
    ext['a' - 'a'] = 12;
    assert_int_equal(ctr_make(&o, "deca", "be", "abcd", ext, CUPERM_R_16F), CUPERM_STATUS_SUCCESS);
    assert_false(cuperm_ctr_gett_skinny_split(&o.p, split, f));
    /* N above the skinny kernel's */
    ext['a' - 'a'] = 16, ext['b' - 'a'] = 33;
    assert_int_equal(ctr_make(&o, "deca", "be", "abcd", ext, CUPERM_R_16F), CUPERM_STATUS_SUCCESS);
    assert_false(cuperm_ctr_gett_skinny(&o.p));
}

/* A hand-made case: D[a,b,l] = sum_k A[k,a,l] B[b,k,l] with padded strides. */
static void test_tables_known(void** state)
{
    (void)state;
    const int32_t mA[3] = {'k', 'a', 'l'}, mB[3] = {'b', 'k', 'l'}, mD[3] = {'a', 'b', 'l'};
    const int64_t eA[3] = {5, 3, 2}, eB[3] = {4, 5, 2}, eD[3] = {3, 4, 2};
    const int64_t sA[3] = {1, 7, 30}, sB[3] = {1, 4, 20}, sD[3] = {4, 1, 12};
    cupermTensorDescriptor_t A = {3, mA, eA, sA, CUPERM_R_16F, CUPERM_OP_IDENTITY, 0};
    cupermTensorDescriptor_t B = {3, mB, eB, sB, CUPERM_R_16F, CUPERM_OP_IDENTITY, 0};
    cupermTensorDescriptor_t D = {3, mD, eD, sD, CUPERM_R_32F, CUPERM_OP_IDENTITY, 0};
    cuperm_ctr_problem_t p;
    assert_int_equal(cuperm_ctr_problem_init(&p, &A, &B, &D, &D, CUPERM_COMPUTE_DEFAULT), CUPERM_STATUS_SUCCESS);
    cuperm_ctr_gett_tables_t t;
    assert_int_equal(cuperm_ctr_gett_tables_build(&p, 0, &t), CUPERM_STATUS_SUCCESS);
    assert_true(t.aKFast);  /* k has A's stride 1 */
    assert_false(t.bKFast); /* b has B's stride 1 */
    const int64_t wantAm[3] = {0, 7, 14}, wantAk[5] = {0, 1, 2, 3, 4}, wantDn[4] = {0, 1, 2, 3};
    for (int i = 0; i < 3; ++i) assert_int_equal(t.table[t.at[CTR_GROUP_M][CTR_A] + i], wantAm[i]);
    for (int i = 0; i < 5; ++i) assert_int_equal(t.table[t.at[CTR_GROUP_K][CTR_A] + i], wantAk[i]);
    for (int i = 0; i < 4; ++i) assert_int_equal(t.table[t.at[CTR_GROUP_N][CTR_D] + i], wantDn[i]);
    assert_int_equal(t.table[t.at[CTR_GROUP_L][CTR_B] + 1], 20);
    assert_int_equal(t.at[CTR_GROUP_K][CTR_D], -1);
    cuperm_ctr_gett_tables_free(&t);
}

/* ---- mode orders ------------------------------------------------------------------ */

/* The candidates per group (M, N, K), the strides rule's operand or the other one. */
static const int candidates[CTR_GETT_ORDERED][2] = {{CTR_A, CTR_D}, {CTR_B, CTR_D}, {CTR_A, CTR_B}};

/* The group whose table operand w pairs with g's in the kernel (A: M with K, B: N with K,
 * C and D: M with N). */
static int paired_group(int g, int w)
{
    if (w == CTR_A) return g == CTR_GROUP_M ? CTR_GROUP_K : CTR_GROUP_M;
    if (w == CTR_B) return g == CTR_GROUP_N ? CTR_GROUP_K : CTR_GROUP_N;
    return g == CTR_GROUP_M ? CTR_GROUP_N : CTR_GROUP_M;
}

static int runsExact, runsChecked; /* check_tile_runs over a test: runs equal to the brute force's */

/* The tile runs of the traffic model against the footprint of the first block (its M x N tile,
 * all of K; tables t of orders by[], brute force): offsets 0 .. run - 1 of every operand all
 * lie in the footprint (the run is real; it may be shorter: the model drops the part of a mode
 * the tile holds partly). Returns how many operands' runs were exact. */
static int check_tile_runs(const ctr_random_case* c, const cuperm_ctr_problem_t* p, const int by[CTR_GETT_ORDERED],
                           const cuperm_ctr_gett_tables_t* t)
{
    int exact = 0;
    int64_t cover[CTR_MAX_MODES];
    cuperm_ctr_gett_tile_cover(p, by, cover);
    static const int64_t tileOf[CTR_GETT_ORDERED] = {CTR_GETT_BM, CTR_GETT_BN, INT64_MAX};
    int64_t lim[CTR_GETT_ORDERED];
    for (int g = 0; g < CTR_GETT_ORDERED; ++g) lim[g] = t->size[g] < tileOf[g] ? t->size[g] : tileOf[g];
    for (int w = 0; w < CTR_OPERANDS; ++w) {
        const int64_t span = cuperm_ctr_operand_max_offset(&p->op[w]) + 1;
        unsigned char* in = calloc((size_t)span, 1);
        assert_non_null(in);
        const int gm = w == CTR_B ? CTR_GROUP_K : CTR_GROUP_M, gn = w == CTR_A ? CTR_GROUP_K : CTR_GROUP_N;
        for (int64_t i = 0; i < lim[gm]; ++i)
            for (int64_t j = 0; j < lim[gn]; ++j) {
                const int64_t off = table_at(t, gm, w, i) + table_at(t, gn, w, j) + table_at(t, CTR_GROUP_L, w, 0);
                assert_true(off >= 0 && off < span);
                in[off] = 1;
            }
        int64_t brute = 0;
        while (brute < span && in[brute]) ++brute;
        const int64_t run = cuperm_ctr_gett_tile_run(p, cover, w);
        exact += run == brute;
        if (run > brute) {
            char text[512];
            ctr_random_print(c, text, sizeof text);
            fail_msg("%s: operand %d tile run %lld, first tile's footprint run %lld", text, w, (long long)run,
                     (long long)brute);
        }
        free(in);
    }
    return exact;
}

/* Orders by[]: tables right (brute force), the widths predicted from strides equal those the
 * tables give for every operand and group, the predicted paths and cost equal the tables'. */
static int64_t check_orders(const ctr_random_case* c, const cuperm_ctr_problem_t* p, const int by[CTR_GETT_ORDERED],
                            double* cost)
{
    cuperm_ctr_gett_tables_t t;
    assert_int_equal(cuperm_ctr_gett_tables_build_by(p, by, &t), CUPERM_STATUS_SUCCESS);
    const int64_t n = check_tables(c, p, &t);
    check_table_vectors(c, p, &t);
    for (int g = 0; g < CTR_GETT_ORDERED; ++g) {
        assert_int_equal(t.by[g], by[g]);
        for (int w = 0; w < CTR_OPERANDS; ++w) {
            if (!cuperm_ctr_gett_has_table(g, w)) continue;
            const int o = paired_group(g, w);
            const int want = cuperm_ctr_gett_run_width(t.table + t.at[g][w], t.size[g], t.table + t.at[o][w], t.size[o],
                                                       t.table + t.at[CTR_GROUP_L][w], t.size[CTR_GROUP_L]);
            const int got = cuperm_ctr_gett_order_width(p, w, g, t.order[g], t.count[g]);
            if (got != want) fail_msg("operand %d group %d: predicted width %d, tables give %d", w, g, got, want);
        }
    }
    cuperm_ctr_gett_paths_t q;
    cuperm_ctr_gett_paths_for(p, by, &q);
    assert_int_equal(q.aKFast, t.aKFast);
    assert_int_equal(q.bKFast, t.bKFast);
    assert_int_equal(q.dMFast, t.dMFast);
    for (int w = 0; w < CTR_OPERANDS; ++w) assert_int_equal(q.vec[w], t.vec[w]);
    *cost = cuperm_ctr_gett_order_cost(p, by, 0);
    runsExact += check_tile_runs(c, p, by, &t);
    runsChecked += CTR_OPERANDS;
    cuperm_ctr_gett_tables_free(&t);
    return n;
}

/*
 * Random problems, every candidate combination of orders (check_orders); the chosen orders
 * are the cheapest combination (so never dearer than the strides rule), with and without C's
 * reads, and the ones cuperm_ctr_gett_tables_build uses.
 */
static void test_orders_random(void** state)
{
    (void)state;
    rng_t r = {20250611};
    int64_t elements = 0;
    int changed[CTR_GETT_ORDERED] = {0}, cheaper = 0;
    const int cases = 300;
    for (int i = 0; i < cases; ++i) {
        ctr_random_case c;
        ctr_random_options o = {6, i % 3 ? 7 : 16, 1 << 13, i % 2, 0, 1, 20, 20};
        ctr_random_draw(&r, &o, &c);
        set_types(&c, i % 3 ? CUPERM_R_16F : CUPERM_R_16BF, i % 2 ? CUPERM_R_32F : (i % 3 ? CUPERM_R_16F : CUPERM_R_16BF));
        cuperm_ctr_problem_t p;
        assert_int_equal(cuperm_ctr_problem_init(&p, &c.desc[0], &c.desc[1], &c.desc[2], &c.desc[3],
                                                 CUPERM_COMPUTE_DEFAULT), CUPERM_STATUS_SUCCESS);
        double least = 0;
        for (int mask = 0; mask < 1 << CTR_GETT_ORDERED; ++mask) {
            int by[CTR_GETT_ORDERED];
            for (int g = 0; g < CTR_GETT_ORDERED; ++g) by[g] = candidates[g][mask >> g & 1];
            double cost;
            elements += check_orders(&c, &p, by, &cost);
            if (mask == 0 || cost < least) least = cost;
        }
        int rule[CTR_GETT_ORDERED], chosen[CTR_GETT_ORDERED];
        cuperm_ctr_gett_default_orders(&p, rule);
        const double ruleCost = cuperm_ctr_gett_order_cost(&p, rule, 0);
        for (int readC = 1; readC >= 0; --readC) {
            cuperm_ctr_gett_choose_orders(&p, readC, chosen);
            const double cost = cuperm_ctr_gett_order_cost(&p, chosen, readC);
            assert_true(cost <= cuperm_ctr_gett_order_cost(&p, rule, readC));
            for (int mask = 0; mask < 1 << CTR_GETT_ORDERED; ++mask) {
                int by[CTR_GETT_ORDERED];
                for (int g = 0; g < CTR_GETT_ORDERED; ++g) by[g] = candidates[g][mask >> g & 1];
                assert_true(cost <= cuperm_ctr_gett_order_cost(&p, by, readC));
            }
        }
        assert_true(cuperm_ctr_gett_order_cost(&p, chosen, 0) == least); /* readC = 0 last */
        cheaper += least < ruleCost;
        for (int g = 0; g < CTR_GETT_ORDERED; ++g) changed[g] += chosen[g] != rule[g];
        cuperm_ctr_gett_tables_t t;
        assert_int_equal(cuperm_ctr_gett_tables_build(&p, 1, &t), CUPERM_STATUS_SUCCESS);
        cuperm_ctr_dtile_t dt; /* the D-tile kernel's orders where it takes the problem, else the model's */
        const int* expected = cuperm_ctr_dtile_choose(&p, &dt) ? dt.by : chosen;
        for (int g = 0; g < CTR_GETT_ORDERED; ++g) assert_int_equal(t.by[g], expected[g]);
        cuperm_ctr_gett_tables_free(&t);
    }
    printf("    %d random problems x 8 orders, %lld index tuples checked; chosen orders differ from the strides rule "
           "in M %d, N %d, K %d times (%d cheaper)\n",
           cases, (long long)elements, changed[0], changed[1], changed[2], cheaper);
    assert_true(cheaper > 0 && changed[0] > 0 && changed[1] > 0); /* the model does change orders */
    printf("    tile runs: %d of %d equal to the first block's footprint run\n", runsExact, runsChecked);
    assert_true(2 * runsExact > runsChecked); /* mostly exact, not just a lower bound */
}

/* A problem from mode strings, column-major, 16-bit A/B/C/D; extents by letter. */
typedef ctr_made made;
static void make(made* o, const char* a, const char* b, const char* d, const int64_t* ext)
{
    assert_int_equal(ctr_make(o, a, b, d, ext, CUPERM_R_16F), CUPERM_STATUS_SUCCESS);
}

/* The orders the plan chooses (readC = 0), their paths, and the strides rule's. */
static void chosen_paths(const made* o, int by[CTR_GETT_ORDERED], cuperm_ctr_gett_paths_t* q, int rule[CTR_GETT_ORDERED])
{
    cuperm_ctr_gett_choose_orders(&o->p, 0, by);
    cuperm_ctr_gett_paths_for(&o->p, by, q);
    cuperm_ctr_gett_default_orders(&o->p, rule);
    char text[64];
    cuperm_ctr_gett_orders_describe(by, text, sizeof text);
    printf("    %s: A %s x%d, B %s x%d, D along %s x%d; cost %.3g (strides rule %.3g)\n", text,
           q->aKFast ? "k-major" : "m-major", q->vec[CTR_A], q->bKFast ? "k-major" : "n-major", q->vec[CTR_B],
           q->dMFast ? "M" : "N", q->vec[CTR_D], cuperm_ctr_gett_order_cost(&o->p, by, 0),
           cuperm_ctr_gett_order_cost(&o->p, rule, 0));
}


static void test_orders_known(void** state)
{
    (void)state;
    made o;
    int by[CTR_GETT_ORDERED], rule[CTR_GETT_ORDERED];
    cuperm_ctr_gett_paths_t q;

    /* TCCG 31: D = abcdef, A = dega, B = gfbc. D's unit-stride mode a is A's slowest: the
     * strides rule writes D element by element; M by D writes runs of 8 and gathers A (small:
     * k = 24) element by element. */
    make(&o, "dega", "gfbc", "abcdef", EXT(X('a') = 24, X('b') = 16, X('c') = 16, X('d') = 24, X('e') = 16, X('f') = 16, X('g') = 24));
    chosen_paths(&o, by, &q, rule);
    assert_int_equal(rule[CTR_GROUP_M], CTR_A);
    assert_int_equal(by[CTR_GROUP_M], CTR_D);
    assert_int_equal(q.dMFast, 1);
    assert_int_equal(q.vec[CTR_D], 8);
    assert_true(cuperm_ctr_gett_order_cost(&o.p, by, 0) < cuperm_ctr_gett_order_cost(&o.p, rule, 0));
    /* The same with D's unit-stride mode in N (TCCG 32: B = gfac). N by D costs B nothing (B is
     * k-major). D's next mode b (stride 24) is in M: M by A leaves b outside the tile, so D's
     * runs stop after a's 48 bytes and half their sectors wait for another tile; M by D takes
     * b whole into the tile (D's tile runs 24 x 16 x 5) and gathers the small A element by
     * element. Measured on the H100: 0.29 -> 0.42 of a GEMM (bench/results/gett-h100/v3-orders). */
    make(&o, "degb", "gfac", "abcdef", EXT(X('a') = 24, X('b') = 16, X('c') = 16, X('d') = 24, X('e') = 16, X('f') = 16, X('g') = 24));
    chosen_paths(&o, by, &q, rule);
    assert_int_equal(by[CTR_GROUP_N], CTR_D);
    assert_int_equal(by[CTR_GROUP_M], CTR_D);
    assert_int_equal(q.dMFast, 0);
    assert_true(q.vec[CTR_A] == 1 && q.vec[CTR_B] == 8 && q.vec[CTR_D] == 8);
    {
        int64_t cover[CTR_MAX_MODES];
        cuperm_ctr_gett_tile_cover(&o.p, by, cover);
        assert_int_equal(cuperm_ctr_gett_tile_run(&o.p, cover, CTR_D), 24 * 16 * 5);
        cuperm_ctr_gett_tile_cover(&o.p, rule, cover); /* the strides rule: N by B = f, a, c: 8 of a */
        assert_int_equal(cuperm_ctr_gett_tile_run(&o.p, cover, CTR_D), 8);
    }

    /* B k-major, A m-major (unit stride in M): K by B (B's fastest K mode j first). */
    make(&o, "mkj", "jnk", "mn", EXT(X('m') = 256, X('n') = 256, X('k') = 16, X('j') = 32));
    chosen_paths(&o, by, &q, rule);
    assert_int_equal(by[CTR_GROUP_K], CTR_B);
    assert_true(!q.aKFast && q.vec[CTR_A] == 8 && q.bKFast && q.vec[CTR_B] == 8);
    /* A's smallest stride is a K stride but offers no runs (extent 3): the strides rule orders K
     * by A and gathers B element by element; the model orders K by B. */
    make(&o, "kmj", "jnk", "mn", EXT(X('m') = 256, X('n') = 256, X('k') = 3, X('j') = 32));
    chosen_paths(&o, by, &q, rule);
    assert_int_equal(rule[CTR_GROUP_K], CTR_A);
    assert_int_equal(by[CTR_GROUP_K], CTR_B);
    assert_true(q.bKFast && q.vec[CTR_B] == 8);
    /* Both k-major with different fastest K modes: one of them must be gathered; the model keeps
     * runs for the one that moves more (A re-read by ceil(n / 128) N tiles, B by ceil(m / 128)). */
    make(&o, "kmj", "jkn", "mn", EXT(X('m') = 64, X('n') = 1024, X('k') = 64, X('j') = 64));
    chosen_paths(&o, by, &q, rule);
    assert_int_equal(rule[CTR_GROUP_K], CTR_A);
    assert_int_equal(by[CTR_GROUP_K], CTR_B);
    assert_true(q.bKFast && q.vec[CTR_B] == 8 && q.vec[CTR_A] == 1);
    make(&o, "kmj", "jkn", "mn", EXT(X('m') = 1024, X('n') = 64, X('k') = 64, X('j') = 64));
    chosen_paths(&o, by, &q, rule);
    assert_int_equal(by[CTR_GROUP_K], CTR_A);
    assert_true(q.aKFast && q.vec[CTR_A] == 8 && q.vec[CTR_B] == 1);

    /* TCCG 1: D = abc, A = bda, n = 24: A (m x k, read once: one N tile) is 13 times D's size,
     * so its runs are worth more than D's; the orders stay. */
    make(&o, "bda", "dc", "abc", EXT(X('a') = 312, X('b') = 312, X('c') = 24, X('d') = 312));
    chosen_paths(&o, by, &q, rule);
    for (int g = 0; g < CTR_GETT_ORDERED; ++g) assert_int_equal(by[g], rule[g]);

    /* One mode per group: one candidate each, the strides rule's name. */
    make(&o, "mk", "kn", "mn", EXT(X('m') = 64, X('n') = 64, X('k') = 64));
    chosen_paths(&o, by, &q, rule);
    for (int g = 0; g < CTR_GETT_ORDERED; ++g) assert_int_equal(by[g], rule[g]);
    char text[64];
    cuperm_ctr_gett_orders_describe(by, text, sizeof text);
    assert_string_equal(text, "M by A, N by B, K by B");
}

/* Widths on hand-made cases: dense column-major GEMMs, odd extents, padding, misalignment. */
static void test_vector_widths(void** state)
{
    (void)state;
    const int32_t mA[2] = {'m', 'k'}, mB[2] = {'k', 'n'}, mD[2] = {'m', 'n'};
    struct {
        int64_t m, n, k, ldA; /* extents, A's second stride (0: dense) */
        int aKFast, vecA, bKFast, vecB, dMFast, vecD;
    } cases[] = {
        {64, 40, 48, 0, 0, 8, 1, 8, 1, 8},  /* everything divisible by 8 */
        {63, 40, 48, 0, 0, 1, 1, 8, 1, 1},  /* m odd: A's k stride 63, D's n stride 63 */
        {66, 40, 48, 0, 0, 2, 1, 8, 1, 2},  /* m = 2 mod 4 */
        {60, 40, 48, 0, 0, 4, 1, 8, 1, 4},  /* m = 4 mod 8 */
        {63, 40, 48, 64, 0, 8, 1, 8, 1, 1}, /* A padded to 64: runs of 8 along m (the last one short) */
        {64, 41, 43, 0, 0, 8, 1, 1, 1, 8},  /* k odd: B's n stride 43, no runs either way: k-major by stride */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        const int64_t eA[2] = {cases[i].m, cases[i].k}, eB[2] = {cases[i].k, cases[i].n}, eD[2] = {cases[i].m, cases[i].n};
        const int64_t sA[2] = {1, cases[i].ldA ? cases[i].ldA : cases[i].m};
        cupermTensorDescriptor_t A = {2, mA, eA, sA, CUPERM_R_16F, CUPERM_OP_IDENTITY, 0};
        cupermTensorDescriptor_t B = {2, mB, eB, NULL, CUPERM_R_16F, CUPERM_OP_IDENTITY, 0};
        cupermTensorDescriptor_t D = {2, mD, eD, NULL, CUPERM_R_32F, CUPERM_OP_IDENTITY, 0};
        cuperm_ctr_problem_t p;
        assert_int_equal(cuperm_ctr_problem_init(&p, &A, &B, &D, &D, CUPERM_COMPUTE_DEFAULT), 0);
        cuperm_ctr_gett_tables_t t;
        assert_int_equal(cuperm_ctr_gett_tables_build(&p, 0, &t), CUPERM_STATUS_SUCCESS);
        printf("    case %zu: A %d x%d, B %d x%d, D %d x%d\n", i, t.aKFast, t.vec[CTR_A], t.bKFast, t.vec[CTR_B],
               t.dMFast, t.vec[CTR_D]);
        assert_int_equal(t.aKFast, cases[i].aKFast);
        assert_int_equal(t.vec[CTR_A], cases[i].vecA);
        assert_int_equal(t.bKFast, cases[i].bKFast);
        assert_int_equal(t.vec[CTR_B], cases[i].vecB);
        assert_int_equal(t.dMFast, cases[i].dMFast);
        assert_int_equal(t.vec[CTR_D], cases[i].vecD);
        assert_int_equal(t.vec[CTR_C], cases[i].vecD); /* C is D here */
        assert_true(t.off32);
        cuperm_ctr_gett_tables_free(&t);
    }
    /* The width function itself. */
    const int64_t run8[16] = {0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23};
    const int64_t zero[1] = {0}, eights[2] = {0, 8}, fours[2] = {0, 4}, odd[2] = {0, 3};
    assert_int_equal(cuperm_ctr_gett_run_width(run8, 16, eights, 2, zero, 1), 8);
    assert_int_equal(cuperm_ctr_gett_run_width(run8, 16, fours, 2, zero, 1), 4);
    assert_int_equal(cuperm_ctr_gett_run_width(run8, 16, eights, 2, odd, 2), 1);
    assert_int_equal(cuperm_ctr_gett_run_width(run8, 12, eights, 2, zero, 1), 8); /* a short last run */
    assert_int_equal(cuperm_ctr_gett_run_width(run8 + 2, 8, zero, 1, zero, 1), 2); /* starts at 2 */
    const int64_t bcast[4] = {0, 0, 0, 0};
    assert_int_equal(cuperm_ctr_gett_run_width(bcast, 4, zero, 1, zero, 1), 1); /* stride 0 */
    assert_int_equal(cuperm_ctr_gett_run_width(bcast, 1, zero, 1, zero, 1), 8); /* one element */
}

/* The run-width rule, written the plain way (each width checked over every table): the
 * one-pass library function must agree with it on random offset tables. */
static int divides_all(const int64_t* t, int64_t n, int w)
{
    for (int64_t i = 0; i < n; ++i)
        if (t[i] % w) return 0;
    return 1;
}

static int run_width_reference(const int64_t* fast, int64_t n, const int64_t* other, int64_t nOther,
                               const int64_t* l, int64_t nL)
{
    for (int w = 8; w > 1; w /= 2) {
        int ok = divides_all(other, nOther, w) && divides_all(l, nL, w);
        for (int64_t i = 0; ok && i < n; i += w) {
            if (fast[i] % w) ok = 0;
            for (int64_t j = 1; ok && j < w && i + j < n; ++j)
                if (fast[i + j] != fast[i] + j) ok = 0;
        }
        if (ok) return w;
    }
    return 1;
}

static void test_run_width_random(void** state)
{
    (void)state;
    rng_t r = {99};
    int64_t fast[64], other[8], l[8];
    int seen[9] = {0};
    for (int trial = 0; trial < 20000; ++trial) {
        /* fast: an offset table of up to three modes, strides chosen to make runs likely */
        const int64_t e0 = rng_range(&r, 1, 12), e1 = rng_range(&r, 1, 5);
        static const int64_t kStride0[] = {1, 1, 1, 2, 0, 3};
        const int64_t s0 = kStride0[rng_range(&r, 0, 5)], s1 = e0 * s0 + rng_range(&r, 0, 2) * 4;
        const int64_t base = rng_range(&r, 0, 3) * 2;
        const int64_t n = e0 * e1 < 64 ? e0 * e1 : 64;
        for (int64_t i = 0; i < n; ++i) fast[i] = base + (i % e0) * s0 + (i / e0) * s1;
        const int64_t no = rng_range(&r, 1, 8), nl = rng_range(&r, 0, 7);
        static const int64_t kMult[] = {8, 16, 4, 2, 1, 3, 24};
        for (int64_t i = 0; i < no; ++i) other[i] = rng_range(&r, 0, 4) * kMult[rng_range(&r, 0, 6)];
        for (int64_t i = 0; i < nl; ++i) l[i] = rng_range(&r, 0, 4) * kMult[rng_range(&r, 0, 6)];
        const int want = run_width_reference(fast, n, other, no, l, nl);
        const int got = cuperm_ctr_gett_run_width(fast, n, other, no, l, nl);
        if (got != want)
            fail_msg("trial %d: run width %d, want %d (fast %lld entries: e0 %lld s0 %lld e1 %lld s1 %lld base %lld)",
                     trial, got, want, (long long)n, (long long)e0, (long long)s0, (long long)e1, (long long)s1,
                     (long long)base);
        ++seen[want];
    }
    /* every answer occurs, so the comparison covers each */
    assert_true(seen[1] && seen[2] && seen[4] && seen[8]);
}

static void test_eligible(void** state)
{
    (void)state;
    const int32_t mA[2] = {'a', 'k'}, mB[2] = {'k', 'b'}, mD[2] = {'a', 'b'};
    const int64_t e[2] = {8, 8};
    cupermTensorDescriptor_t A = {2, mA, e, NULL, CUPERM_R_16F, CUPERM_OP_IDENTITY, 0};
    cupermTensorDescriptor_t B = {2, mB, e, NULL, CUPERM_R_16F, CUPERM_OP_IDENTITY, 0};
    cupermTensorDescriptor_t D = {2, mD, e, NULL, CUPERM_R_16F, CUPERM_OP_IDENTITY, 0};
    cuperm_ctr_problem_t p;
    char why[128];
    assert_int_equal(cuperm_ctr_problem_init(&p, &A, &B, &D, &D, CUPERM_COMPUTE_DEFAULT), 0);
    assert_true(cuperm_ctr_gett_eligible(&p, why, sizeof why));
    assert_int_equal(cuperm_ctr_problem_init(&p, &A, &B, &D, &D, CUPERM_COMPUTE_16F), 0);
    assert_false(cuperm_ctr_gett_eligible(&p, why, sizeof why)); /* fp16 accumulation */
    A.op = CUPERM_OP_NEGATE; /* folds into alpha */
    D.op = CUPERM_OP_NEGATE;
    assert_int_equal(cuperm_ctr_problem_init(&p, &A, &B, &D, &D, CUPERM_COMPUTE_32F), 0);
    assert_true(cuperm_ctr_gett_eligible(&p, why, sizeof why));
    assert_false(cuperm_ctr_gett_has_operators(&p));
    B.op = CUPERM_OP_RELU; /* the table kernels apply every operator */
    assert_int_equal(cuperm_ctr_problem_init(&p, &A, &B, &D, &D, CUPERM_COMPUTE_32F), 0);
    assert_true(cuperm_ctr_gett_eligible(&p, why, sizeof why));
    assert_true(cuperm_ctr_gett_has_operators(&p));
    B.op = CUPERM_OP_IDENTITY;
    A.type = B.type = CUPERM_R_16BF;
    D.type = CUPERM_R_32F;
    assert_int_equal(cuperm_ctr_problem_init(&p, &A, &B, &D, &D, CUPERM_COMPUTE_DEFAULT), 0);
    assert_true(cuperm_ctr_gett_eligible(&p, why, sizeof why));
    assert_false(cuperm_ctr_gett_cuda_cores(&p));
    /* fp32 and fp64: the CUDA-core kernel, strict arithmetic only */
    A.type = B.type = D.type = CUPERM_R_32F;
    assert_int_equal(cuperm_ctr_problem_init(&p, &A, &B, &D, &D, CUPERM_COMPUTE_DEFAULT), 0);
    assert_true(cuperm_ctr_gett_eligible(&p, why, sizeof why));
    assert_true(cuperm_ctr_gett_cuda_cores(&p));
    assert_int_equal(cuperm_ctr_problem_init(&p, &A, &B, &D, &D, CUPERM_COMPUTE_32F_FAST_TF32), 0);
    assert_false(cuperm_ctr_gett_eligible(&p, why, sizeof why));
    assert_non_null(strstr(why, "strict 32F"));
    A.type = B.type = D.type = CUPERM_R_64F;
    assert_int_equal(cuperm_ctr_problem_init(&p, &A, &B, &D, &D, CUPERM_COMPUTE_DEFAULT), 0);
    assert_true(cuperm_ctr_gett_eligible(&p, why, sizeof why));
    assert_true(cuperm_ctr_gett_cuda_cores(&p));
    A.type = B.type = D.type = CUPERM_C_32F;
    assert_int_equal(cuperm_ctr_problem_init(&p, &A, &B, &D, &D, CUPERM_COMPUTE_DEFAULT), 0);
    assert_false(cuperm_ctr_gett_eligible(&p, why, sizeof why)); /* complex types stay on TTGT */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tables_known),
        cmocka_unit_test(test_skinny_split),
        cmocka_unit_test(test_tables_random),
        cmocka_unit_test(test_vector_widths),
        cmocka_unit_test(test_run_width_random),
        cmocka_unit_test(test_orders_random),
        cmocka_unit_test(test_orders_known),
        cmocka_unit_test(test_eligible),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
