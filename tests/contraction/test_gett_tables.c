/*
 * CPU tests of GETT planning (plan/contraction/gett.c): for random contractions the offset
 * tables reproduce, for every index of every mode, the element offset the descriptors give
 * (brute force over the whole index space); the eligibility rules; the GETT layout record.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "contraction/ctr_random.h"
#include "plan/contraction/gett.h"
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
static int64_t linear(const cuperm_ctr_problem_t* p, const cuperm_ctr_gett_tables_t* t, int g, const int64_t* idx)
{
    int64_t lin = 0;
    for (int i = t->count[g] - 1; i >= 0; --i) lin = lin * p->modes[t->order[g][i]].extent + idx[t->order[g][i]];
    return lin;
}

static int64_t table_at(const cuperm_ctr_gett_tables_t* t, int g, int w, int64_t i)
{
    return t->at[g][w] < 0 ? 0 : t->table[t->at[g][w] + i];
}

/* Every element of A, B, C and D: the tables against the descriptors. Returns the count. */
static int64_t check_case(const ctr_random_case* c, const cuperm_ctr_problem_t* p)
{
    cuperm_ctr_gett_tables_t t;
    assert_int_equal(cuperm_ctr_gett_tables_build(p, &t), CUPERM_STATUS_SUCCESS);
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
    cuperm_ctr_gett_tables_free(&t);
    return total;
}

/* Mode indices (per mode-table entry) of linear index lin of group g (the tables' order). */
static void unlinear(const cuperm_ctr_problem_t* p, const cuperm_ctr_gett_tables_t* t, int g, int64_t lin, int64_t* idx)
{
    for (int i = 0; i < t->count[g]; ++i) {
        const int m = t->order[g][i];
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

/* Every operand's plan width, checked by brute force; returns the widths' sum (coverage). */
static int check_vectors(const ctr_random_case* c, const cuperm_ctr_problem_t* p)
{
    cuperm_ctr_gett_tables_t t;
    assert_int_equal(cuperm_ctr_gett_tables_build(p, &t), CUPERM_STATUS_SUCCESS);
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
    const int sum = t.vec[0] + t.vec[1] + t.vec[2] + t.vec[3];
    cuperm_ctr_gett_tables_free(&t);
    return sum;
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
        elements += check_case(&c, &p);
        widths += check_vectors(&c, &p);
        /* The layout record matches the tables' orders and sizes. */
        cuperm_ctr_layout_t l;
        cuperm_ctr_gett_layout(&p, &l);
        assert_int_equal(l.kind, CTR_KIND_GETT);
        assert_int_equal(l.m, p.groupSize[CTR_GROUP_M]);
        assert_int_equal(l.n, p.groupSize[CTR_GROUP_N]);
        assert_int_equal(l.k, p.groupSize[CTR_GROUP_K]);
        assert_int_equal(l.batch, p.groupSize[CTR_GROUP_L]);
        assert_int_equal(l.calls, 1);
        assert_int_equal(l.workspaceBytes, 0);
    }
    printf("    400 random problems, %lld index tuples checked, vector widths sum %lld (1600 = all scalar)\n",
           (long long)elements, (long long)widths);
    assert_true(widths > 1600); /* some vector paths among them */
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
    assert_int_equal(cuperm_ctr_gett_tables_build(&p, &t), CUPERM_STATUS_SUCCESS);
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
        assert_int_equal(cuperm_ctr_gett_tables_build(&p, &t), CUPERM_STATUS_SUCCESS);
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
    B.op = CUPERM_OP_RELU;
    assert_int_equal(cuperm_ctr_problem_init(&p, &A, &B, &D, &D, CUPERM_COMPUTE_32F), 0);
    assert_false(cuperm_ctr_gett_eligible(&p, why, sizeof why));
    assert_non_null(strstr(why, "operator"));
    B.op = CUPERM_OP_IDENTITY;
    A.type = B.type = CUPERM_R_16BF;
    D.type = CUPERM_R_32F;
    assert_int_equal(cuperm_ctr_problem_init(&p, &A, &B, &D, &D, CUPERM_COMPUTE_DEFAULT), 0);
    assert_true(cuperm_ctr_gett_eligible(&p, why, sizeof why));
    A.type = B.type = D.type = CUPERM_R_32F;
    assert_int_equal(cuperm_ctr_problem_init(&p, &A, &B, &D, &D, CUPERM_COMPUTE_DEFAULT), 0);
    assert_false(cuperm_ctr_gett_eligible(&p, why, sizeof why));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tables_known),
        cmocka_unit_test(test_tables_random),
        cmocka_unit_test(test_vector_widths),
        cmocka_unit_test(test_eligible),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
