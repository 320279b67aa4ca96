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
    int64_t elements = 0;
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
    printf("    400 random problems, %lld index tuples checked\n", (long long)elements);
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
        cmocka_unit_test(test_eligible),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
