/*
 * CPU tests of contraction planning: validation and its messages, mode
 * classification, operator folding, the GEMM layout choice on known cases, and
 * random contractions whose chosen layout is executed step for step on the CPU
 * (ctr_cpu_exec) and compared with the definition (ctr_ref_contract).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <math.h>

#include "support/rng.h"
#include "contraction/ctr_cpu_exec.h"
#include "plan/contraction/gemm_bounds.h"
#include "plan/contraction/gett.h"
#include "plan/contraction/gett_cost.h"
#include "plan/contraction/layout.h"
#include "contraction/ctr_random.h"
#include "contraction/ctr_reference.h"

/* ---- a cost model without a device --------------------------------------------- */

typedef ctr_mock_prices mock_ctx; /* ctr_cpu_exec.h */

static cuperm_ctr_cost_model_t mock_model(mock_ctx* ctx)
{
    /* no k steps for batched GEMMs (test_batched_long_k_is_serial sets them) */
    cuperm_ctr_cost_model_t m = {ctr_mock_transpose_seconds, ctx, 2e12, {50e12, 50e12, 400e12, 800e12}, NULL,
                                 {0, 0, 0, 0}, 100, 0, 0};
    m.zeroRowSeconds = 0.65e-9; /* the sm_90 table's */
    return m;
}

/* ---- descriptors from einsum-like strings: one letter per mode ---------------- */

typedef struct {
    int32_t modes[4][16];
    int64_t extents[4][16];
    cupermTensorDescriptor_t d[4];
} spec;

/* "abc-bda-dc": D-A-B as in the TCCG list; C takes D's modes. ext[letter - 'a']. */
static void make_spec(spec* s, const char* dab, const int64_t* ext, cupermDataType_t ab,
                      cupermDataType_t cd)
{
    memset(s, 0, sizeof *s);
    const char* parts[3];
    parts[0] = dab;
    parts[1] = strchr(dab, '-') + 1;
    parts[2] = strchr(parts[1], '-') + 1;
    const int slot[3] = {3, 0, 1};
    for (int t = 0; t < 3; ++t) {
        int r = 0;
        for (const char* c = parts[t]; *c && *c != '-'; ++c, ++r) {
            s->modes[slot[t]][r] = *c;
            s->extents[slot[t]][r] = ext[*c - 'a'];
        }
        s->d[slot[t]].rank = r;
    }
    memcpy(s->modes[2], s->modes[3], sizeof s->modes[3]);
    memcpy(s->extents[2], s->extents[3], sizeof s->extents[3]);
    s->d[2].rank = s->d[3].rank;
    for (int t = 0; t < 4; ++t) {
        s->d[t].modes = s->modes[t];
        s->d[t].extents = s->extents[t];
        s->d[t].type = t < 2 ? ab : cd;
    }
}

static cupermStatus_t plan(const spec* s, cuperm_ctr_problem_t* p, cuperm_ctr_layout_t* l)
{
    mock_ctx ctx = {NULL};
    cuperm_ctr_cost_model_t m = mock_model(&ctx);
    cupermStatus_t st = cuperm_ctr_problem_init(p, &s->d[0], &s->d[1], &s->d[2], &s->d[3], CUPERM_COMPUTE_DEFAULT);
    if (st != CUPERM_STATUS_SUCCESS) return st;
    return cuperm_ctr_layout_choose(p, &m, l);
}

static const int64_t E[26] = {8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20,
                              21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33};

/* ---- layouts of known cases ------------------------------------------------------ */

static void test_plain_gemm_in_place(void** state)
{
    (void)state;
    spec s;
    cuperm_ctr_problem_t p;
    cuperm_ctr_layout_t l;
    make_spec(&s, "ab-ac-cb", E, CUPERM_R_32F, CUPERM_R_32F);
    assert_int_equal(plan(&s, &p, &l), CUPERM_STATUS_SUCCESS);
    assert_int_equal(l.in[CTR_A].path, CTR_IN_DIRECT);
    assert_int_equal(l.in[CTR_B].path, CTR_IN_DIRECT);
    assert_int_equal(l.out, CTR_OUT_DIRECT);
    assert_int_equal(l.swapped, 0);
    assert_int_equal(l.in[CTR_A].cublasOp, 'N');
    assert_int_equal(l.in[CTR_B].cublasOp, 'N');
    assert_int_equal(l.m, 8);
    assert_int_equal(l.n, 9);
    assert_int_equal(l.k, 10);
    assert_int_equal(l.batch, 1);
    assert_int_equal(l.workspaceBytes, 0);
}

static void test_stored_transposed_operands_use_flags(void** state)
{
    (void)state;
    spec s;
    cuperm_ctr_problem_t p;
    cuperm_ctr_layout_t l;
    make_spec(&s, "ab-ca-bc", E, CUPERM_R_64F, CUPERM_R_64F);
    assert_int_equal(plan(&s, &p, &l), CUPERM_STATUS_SUCCESS);
    assert_int_equal(l.in[CTR_A].path, CTR_IN_DIRECT);
    assert_int_equal(l.in[CTR_B].path, CTR_IN_DIRECT);
    assert_int_equal(l.out, CTR_OUT_DIRECT);
    assert_int_equal(l.in[CTR_A].cublasOp, 'T');
    assert_int_equal(l.in[CTR_B].cublasOp, 'T');
    assert_int_equal(l.in[CTR_A].ld, 10);
    assert_int_equal(l.in[CTR_B].ld, 9);
}

static void test_transposed_output_swaps_operands(void** state)
{
    (void)state;
    spec s;
    cuperm_ctr_problem_t p;
    cuperm_ctr_layout_t l;
    make_spec(&s, "ba-ac-cb", E, CUPERM_R_32F, CUPERM_R_32F);
    assert_int_equal(plan(&s, &p, &l), CUPERM_STATUS_SUCCESS);
    assert_int_equal(l.swapped, 1);
    assert_int_equal(l.out, CTR_OUT_DIRECT);
    assert_int_equal(l.in[CTR_A].path, CTR_IN_DIRECT);
    assert_int_equal(l.in[CTR_B].path, CTR_IN_DIRECT);
    assert_int_equal(l.m, 9); /* rows are b */
    assert_int_equal(l.n, 8);
}

static void test_batched_modes_use_strided_batches(void** state)
{
    (void)state;
    spec s;
    cuperm_ctr_problem_t p;
    cuperm_ctr_layout_t l;
    make_spec(&s, "abde-acde-cbde", E, CUPERM_R_32F, CUPERM_R_32F);
    assert_int_equal(plan(&s, &p, &l), CUPERM_STATUS_SUCCESS);
    assert_int_equal(l.workspaceBytes, 0);
    assert_int_equal(l.batch, 11 * 12);
    assert_int_equal(l.in[CTR_A].batchStride, 8 * 10);
    assert_int_equal(l.in[CTR_B].batchStride, 10 * 9);
    assert_int_equal(l.batchStrideD, 8 * 9);
}

static void test_multi_mode_groups_fold(void** state)
{
    (void)state;
    spec s;
    cuperm_ctr_problem_t p;
    cuperm_ctr_layout_t l;
    /* TCCG 9-like: D abcd, A ea, B ebcd: N = bcd contiguous in B and D. */
    make_spec(&s, "abcd-ea-ebcd", E, CUPERM_R_32F, CUPERM_R_32F);
    assert_int_equal(plan(&s, &p, &l), CUPERM_STATUS_SUCCESS);
    assert_int_equal(l.workspaceBytes, 0);
    assert_int_equal(l.n, 9 * 10 * 11);
    assert_int_equal(l.in[CTR_A].cublasOp, 'T');
}

static void test_only_misordered_operand_is_transposed(void** state)
{
    (void)state;
    spec s;
    cuperm_ctr_problem_t p;
    cuperm_ctr_layout_t l;
    /* TCCG 1: M = {a, b} is split by d in A. */
    make_spec(&s, "abc-bda-dc", E, CUPERM_R_32F, CUPERM_R_32F);
    assert_int_equal(plan(&s, &p, &l), CUPERM_STATUS_SUCCESS);
    assert_int_equal(l.in[CTR_A].path, CTR_IN_TRANSPOSE);
    assert_int_equal(l.in[CTR_B].path, CTR_IN_DIRECT);
    assert_int_equal(l.out, CTR_OUT_DIRECT);
    assert_int_equal(l.wsBytes[CTR_A], 8 * 9 * 11 * 4);
    assert_true(l.inputSeconds > 0);
}

static void test_free_modes_batch_instead_of_output_transpose(void** state)
{
    (void)state;
    spec s;
    cuperm_ctr_problem_t p;
    cuperm_ctr_layout_t l;
    /* TCCG 2: D = a b c with c free in A; batching c (B's batch stride 0) writes D in place. */
    make_spec(&s, "abc-dca-bd", E, CUPERM_R_32F, CUPERM_R_32F);
    assert_int_equal(plan(&s, &p, &l), CUPERM_STATUS_SUCCESS);
    assert_int_equal(l.workspaceBytes, 0);
    assert_int_equal(l.out, CTR_OUT_DIRECT);
    assert_int_equal(l.batch, 10);
    assert_int_equal(l.calls, 1);
    assert_int_equal(l.in[CTR_B].batchStride, 0);
}

static void test_interleaved_free_modes_use_pointer_batches(void** state)
{
    (void)state;
    spec s;
    cuperm_ctr_problem_t p;
    cuperm_ctr_layout_t l;
    int64_t ext[26];
    for (int i = 0; i < 26; ++i) ext[i] = 16;
    ext[0] = ext[3] = ext[6] = 24;
    /* TCCG 32: D's free modes alternate between A and B; no single strided batch fits. */
    make_spec(&s, "abcdef-degb-gfac", ext, CUPERM_R_32F, CUPERM_R_32F);
    assert_int_equal(plan(&s, &p, &l), CUPERM_STATUS_SUCCESS);
    assert_int_equal(l.out, CTR_OUT_DIRECT);
    assert_true(l.calls > 1);
    assert_int_equal(l.wsBytes[3], 3 * sizeof(void*) * (size_t)(l.calls * l.batch));
    char buf[512];
    cuperm_ctr_layout_describe(&p, &l, buf, sizeof buf);
    assert_non_null(strstr(buf, "cuBLAS writes D"));
}

/* Looped modes whose entries are not CTR_PTR_ALIGN-byte aligned cannot be one pointer-array
 * batch: the plan makes one cuBLAS call per looped index, each costing at least the host's time
 * of a call. In f16, 135-element strides are 270 bytes: 675 such calls must not win over one GEMM
 * (random contraction 13 of cuperm-bench, 5.6 ms against 1.0 ms on the H100). */
static void test_unaligned_loops_cost_a_call_each(void** state)
{
    (void)state;
    spec s;
    cuperm_ctr_problem_t p;
    cuperm_ctr_layout_t l;
    int64_t ext[26];
    for (int i = 0; i < 26; ++i) ext[i] = 1;
    const int64_t e[7] = {135, 2, 6, 135, 5, 135, 135};
    memcpy(ext, e, sizeof e);
    make_spec(&s, "dcbafe-abcg-gfde", ext, CUPERM_R_16F, CUPERM_R_16F);
    assert_int_equal(plan(&s, &p, &l), CUPERM_STATUS_SUCCESS);
    assert_true(l.calls == 1 || cuperm_ctr_layout_pointers_aligned(&p, &l));
    mock_ctx ctx = {NULL};
    cuperm_ctr_cost_model_t m = mock_model(&ctx);
    cuperm_ctr_gemm_shape_t one = {135, 1620, 135, 1, 1, 0, 0, 0, 'T', 'T', CUPERM_R_16F, CUPERM_R_16F,
                                   CUPERM_COMPUTE_32F};
    cuperm_ctr_gemm_shape_t loop = one;
    loop.calls = 675;
    assert_true(cuperm_ctr_gemm_seconds(&m, &one) < CTR_GEMM_CALL_SECONDS);
    assert_true(cuperm_ctr_gemm_seconds(&m, &loop) >= 675 * CTR_GEMM_CALL_SECONDS);
    /* The same strides in f32 are 540 bytes, in f64 1080: aligned only from 16 bytes per 4 elements. */
    make_spec(&s, "dcbafe-abcg-gfde", ext, CUPERM_R_64F, CUPERM_R_64F);
    assert_int_equal(plan(&s, &p, &l), CUPERM_STATUS_SUCCESS);
    assert_true(l.calls == 1 || cuperm_ctr_layout_pointers_aligned(&p, &l));
}

/* A batch's thread blocks each walk all of k (gemm_cost.c): with k steps priced, a batch of 8
 * deep 4 x 4 GEMMs costs a wave of k steps, one such GEMM alone does not, and a model without
 * them (0) keeps the roofline. */
static void test_batched_long_k_is_serial(void** state)
{
    (void)state;
    mock_ctx ctx = {NULL};
    cuperm_ctr_cost_model_t m = mock_model(&ctx);
    cuperm_ctr_gemm_shape_t one = {4, 4, 524288, 1, 1, 0, 0, 0, 'N', 'N', CUPERM_R_16F, CUPERM_R_16F,
                                   CUPERM_COMPUTE_32F};
    cuperm_ctr_gemm_shape_t batch = one;
    batch.batch = 8;
    const double roofline = cuperm_ctr_gemm_seconds(&m, &batch);
    m.batchKSeconds[CTR_RATE_FP16] = 2e-9;
    assert_true(cuperm_ctr_gemm_seconds(&m, &one) < 524288 * 2e-9);
    assert_true(cuperm_ctr_gemm_seconds(&m, &batch) >= 524288 * 2e-9);
    assert_true(roofline < 524288 * 2e-9);
    batch.batch = 8 * 100 + 1; /* one wave more than the model's 100 SMs hold (16 x 16 tiles: one a GEMM) */
    assert_true(cuperm_ctr_gemm_seconds(&m, &batch) >= 9 * 524288 * 2e-9);
}

static void test_describe_names_the_decomposition(void** state)
{
    (void)state;
    spec s;
    cuperm_ctr_problem_t p;
    cuperm_ctr_layout_t l;
    make_spec(&s, "abc-bda-dc", E, CUPERM_R_32F, CUPERM_R_32F);
    assert_int_equal(plan(&s, &p, &l), CUPERM_STATUS_SUCCESS);
    char buf[512];
    cuperm_ctr_layout_describe(&p, &l, buf, sizeof buf);
    assert_non_null(strstr(buf, "m=72 n=10 k=11"));
    assert_non_null(strstr(buf, "A transposed"));
    assert_non_null(strstr(buf, "cuBLAS writes D"));
}

/* ---- operators ------------------------------------------------------------------ */

static void test_negations_fold_into_scalars(void** state)
{
    (void)state;
    spec s;
    cuperm_ctr_problem_t p;
    cuperm_ctr_layout_t l;
    make_spec(&s, "ab-ac-cb", E, CUPERM_R_32F, CUPERM_R_32F);
    s.d[0].op = CUPERM_OP_NEGATE;
    s.d[2].op = CUPERM_OP_NEGATE;
    s.d[3].op = CUPERM_OP_NEGATE;
    assert_int_equal(plan(&s, &p, &l), CUPERM_STATUS_SUCCESS);
    assert_true(l.ops.alphaSign == 1.0);
    assert_true(l.ops.betaSign == 1.0);
    assert_int_equal(l.workspaceBytes, 0);
    assert_int_equal(l.out, CTR_OUT_DIRECT);
    assert_int_equal(l.inplaceOpD, 0);
}

static void test_conj_folds_into_cublas_c_flag(void** state)
{
    (void)state;
    spec s;
    cuperm_ctr_problem_t p;
    cuperm_ctr_layout_t l;
    make_spec(&s, "ab-ca-cb", E, CUPERM_C_32F, CUPERM_C_32F);
    s.d[0].op = CUPERM_OP_CONJ;
    assert_int_equal(plan(&s, &p, &l), CUPERM_STATUS_SUCCESS);
    assert_int_equal(l.in[CTR_A].path, CTR_IN_DIRECT);
    assert_int_equal(l.in[CTR_A].cublasOp, 'C');
}

static void test_nonlinear_operators_get_kernels(void** state)
{
    (void)state;
    spec s;
    cuperm_ctr_problem_t p;
    cuperm_ctr_layout_t l;
    make_spec(&s, "ab-ac-cb", E, CUPERM_R_32F, CUPERM_R_32F);
    s.d[1].op = CUPERM_OP_RELU;
    s.d[3].op = CUPERM_OP_TANH;
    assert_int_equal(plan(&s, &p, &l), CUPERM_STATUS_SUCCESS);
    assert_int_equal(l.in[CTR_A].path, CTR_IN_DIRECT);
    assert_int_equal(l.in[CTR_B].path, CTR_IN_ELEMENTWISE);
    assert_int_equal(l.out, CTR_OUT_DIRECT);
    assert_int_equal(l.inplaceOpD, 1);
    s.d[2].op = CUPERM_OP_SIGMOID;
    assert_int_equal(plan(&s, &p, &l), CUPERM_STATUS_SUCCESS);
    assert_int_equal(l.out, CTR_OUT_EPILOGUE);
    assert_int_equal(l.inplaceOpD, 0);
}

/* ---- validation ------------------------------------------------------------------ */

static void expect_failure(const spec* s, cupermComputeType_t compute, cupermStatus_t want,
                           const char* fragment)
{
    cuperm_ctr_problem_t p;
    cupermStatus_t got = cuperm_ctr_problem_init(&p, &s->d[0], &s->d[1], &s->d[2], &s->d[3], compute);
    assert_int_equal(got, want);
    const char* msg = cupermGetLastErrorMessage();
    if (!strstr(msg, fragment)) fail_msg("message \"%s\" lacks \"%s\"", msg, fragment);
}

static void test_mode_in_one_operand_is_rejected(void** state)
{
    (void)state;
    spec s;
    make_spec(&s, "ab-acz-cb", E, CUPERM_R_32F, CUPERM_R_32F);
    expect_failure(&s, CUPERM_COMPUTE_DEFAULT, CUPERM_STATUS_INVALID_VALUE, "mode 122 appears only in A");
    make_spec(&s, "abz-ac-cb", E, CUPERM_R_32F, CUPERM_R_32F);
    expect_failure(&s, CUPERM_COMPUTE_DEFAULT, CUPERM_STATUS_INVALID_VALUE, "appears only in D");
}

static void test_extent_mismatch_is_rejected(void** state)
{
    (void)state;
    spec s;
    make_spec(&s, "ab-ac-cb", E, CUPERM_R_32F, CUPERM_R_32F);
    s.extents[1][0] = 3; /* c in B */
    expect_failure(&s, CUPERM_COMPUTE_DEFAULT, CUPERM_STATUS_INVALID_VALUE, "mode 99 has extent 10 in A but 3 in B");
    make_spec(&s, "ab-ac-cb", E, CUPERM_R_32F, CUPERM_R_32F);
    s.extents[2][1] = 4;
    expect_failure(&s, CUPERM_COMPUTE_DEFAULT, CUPERM_STATUS_INVALID_VALUE, "C.extents[1]");
    make_spec(&s, "ab-ac-cb", E, CUPERM_R_32F, CUPERM_R_32F);
    s.extents[0][0] = 0;
    expect_failure(&s, CUPERM_COMPUTE_DEFAULT, CUPERM_STATUS_INVALID_VALUE, "A.extents[0] is 0");
}

static void test_mode_list_errors_are_rejected(void** state)
{
    (void)state;
    spec s;
    make_spec(&s, "ab-aa-ab", E, CUPERM_R_32F, CUPERM_R_32F);
    expect_failure(&s, CUPERM_COMPUTE_DEFAULT, CUPERM_STATUS_NOT_SUPPORTED, "mode 97 appears twice in A");
    make_spec(&s, "ab-ac-cb", E, CUPERM_R_32F, CUPERM_R_32F);
    s.modes[2][0] = 'b';
    s.modes[2][1] = 'a';
    expect_failure(&s, CUPERM_COMPUTE_DEFAULT, CUPERM_STATUS_INVALID_VALUE, "C.modes[0] = 98 differs from D.modes[0] = 97");
    make_spec(&s, "ab-ac-cb", E, CUPERM_R_32F, CUPERM_R_32F);
    s.d[0].rank = CUPERM_MAX_RANK + 1;
    expect_failure(&s, CUPERM_COMPUTE_DEFAULT, CUPERM_STATUS_INVALID_VALUE, "A.rank is 33");
    make_spec(&s, "ab-ac-cb", E, CUPERM_R_32F, CUPERM_R_32F);
    s.d[1].modes = NULL;
    expect_failure(&s, CUPERM_COMPUTE_DEFAULT, CUPERM_STATUS_INVALID_VALUE, "B.modes and B.extents must not be NULL");
    cuperm_ctr_problem_t p;
    assert_int_equal(cuperm_ctr_problem_init(&p, &s.d[0], NULL, &s.d[2], &s.d[3], CUPERM_COMPUTE_DEFAULT),
                     CUPERM_STATUS_INVALID_VALUE);
    assert_non_null(strstr(cupermGetLastErrorMessage(), "descriptor B is NULL"));
}

static void test_overlapping_d_is_rejected(void** state)
{
    (void)state;
    spec s;
    make_spec(&s, "ab-ac-cb", E, CUPERM_R_32F, CUPERM_R_32F);
    int64_t strides[2] = {1, 4}; /* extent 8 along a overlaps the next column */
    s.d[3].strides = strides;
    expect_failure(&s, CUPERM_COMPUTE_DEFAULT, CUPERM_STATUS_INVALID_VALUE, "elements of D overlap");
}

static void test_type_rules(void** state)
{
    (void)state;
    spec s;
    make_spec(&s, "ab-ac-cb", E, CUPERM_R_32F, CUPERM_R_32F);
    s.d[1].type = CUPERM_R_64F;
    expect_failure(&s, CUPERM_COMPUTE_DEFAULT, CUPERM_STATUS_NOT_SUPPORTED, "A.type R_32F differs from B.type R_64F");
    make_spec(&s, "ab-ac-cb", E, CUPERM_R_64F, CUPERM_R_64F);
    expect_failure(&s, CUPERM_COMPUTE_32F_FAST_TF32, CUPERM_STATUS_NOT_SUPPORTED,
                   "compute type 32F_FAST_TF32 is not supported for A/B type R_64F");
    make_spec(&s, "ab-ac-cb", E, CUPERM_R_16F, CUPERM_R_64F);
    expect_failure(&s, CUPERM_COMPUTE_DEFAULT, CUPERM_STATUS_NOT_SUPPORTED, "type pair A/B R_16F, C/D R_64F");
    make_spec(&s, "ab-ac-cb", E, CUPERM_R_32I, CUPERM_R_32I);
    expect_failure(&s, CUPERM_COMPUTE_DEFAULT, CUPERM_STATUS_NOT_SUPPORTED, "A.type R_32I is not supported");
    make_spec(&s, "ab-ac-cb", E, CUPERM_C_64F, CUPERM_C_64F);
    s.d[1].op = CUPERM_OP_RELU;
    expect_failure(&s, CUPERM_COMPUTE_DEFAULT, CUPERM_STATUS_NOT_SUPPORTED, "B.op relu is not supported for complex");
    make_spec(&s, "ab-ac-cb", E, CUPERM_R_32F, CUPERM_R_32F);
    s.d[3].op = (cupermOperator_t)77;
    expect_failure(&s, CUPERM_COMPUTE_DEFAULT, CUPERM_STATUS_INVALID_VALUE, "D.op is 77");
    make_spec(&s, "ab-ac-cb", E, CUPERM_R_16BF, CUPERM_R_32F);
    cuperm_ctr_problem_t p;
    assert_int_equal(cuperm_ctr_problem_init(&p, &s.d[0], &s.d[1], &s.d[2], &s.d[3], CUPERM_COMPUTE_DEFAULT),
                     CUPERM_STATUS_SUCCESS);
    assert_int_equal(p.compute, CUPERM_COMPUTE_32F);
}

static void test_classification_and_unit_modes(void** state)
{
    (void)state;
    spec s;
    int64_t ext[26];
    for (int i = 0; i < 26; ++i) ext[i] = 4;
    ext['u' - 'a'] = 1;
    make_spec(&s, "aul-ckl-bck", ext, CUPERM_R_32F, CUPERM_R_32F);
    /* D a,u,l; A c,k,l; B b,c,k: a only in D -> rejected even though ... */
    cuperm_ctr_problem_t p;
    assert_int_equal(cuperm_ctr_problem_init(&p, &s.d[0], &s.d[1], &s.d[2], &s.d[3], CUPERM_COMPUTE_DEFAULT),
                     CUPERM_STATUS_INVALID_VALUE);
    make_spec(&s, "aul-ackul-ckl", ext, CUPERM_R_32F, CUPERM_R_32F);
    assert_int_equal(cuperm_ctr_problem_init(&p, &s.d[0], &s.d[1], &s.d[2], &s.d[3], CUPERM_COMPUTE_DEFAULT),
                     CUPERM_STATUS_SUCCESS);
    assert_int_equal(p.nmodes, 4); /* u dropped */
    assert_int_equal(p.groupCount[CTR_GROUP_M], 1);
    assert_int_equal(p.groupCount[CTR_GROUP_N], 0);
    assert_int_equal(p.groupCount[CTR_GROUP_K], 2);
    assert_int_equal(p.groupCount[CTR_GROUP_L], 1);
    assert_true(cuperm_ctr_problem_flops(&p) == 2.0 * 4 * 16 * 4);
}

/* ---- random contractions through the CPU executor --------------------------------- */

static void fill(rng_t* r, ctr_cplx* x, int64_t n, int complexType, int positive)
{
    for (int64_t i = 0; i < n; ++i) {
        double re = rng_unit(r), im = complexType ? rng_unit(r) : 0.0;
        if (positive) re = fabs(re) + 0.01;
        x[i] = re + I * im;
    }
}

static cupermOperator_t random_op(rng_t* r, int complexType, int forD)
{
    static const cupermOperator_t cplxOps[] = {CUPERM_OP_IDENTITY, CUPERM_OP_NEGATE, CUPERM_OP_CONJ};
    if (rng_range(r, 0, 2) > 0) return CUPERM_OP_IDENTITY;
    if (complexType) return cplxOps[rng_range(r, 0, 2)];
    cupermOperator_t op;
    do op = (cupermOperator_t)rng_range(r, 0, CUPERM_OP_CONJ);
    while (forD && (op == CUPERM_OP_SQRT || op == CUPERM_OP_EXP));
    return op;
}

static double rel_error(const ctr_cplx* got, const ctr_cplx* want, const cupermTensorDescriptor_t* D)
{
    double num = 0, den = 0;
    int64_t idx[CUPERM_MAX_RANK] = {0};
    for (;;) {
        int64_t off = 0;
        for (int i = 0; i < D->rank; ++i) off += idx[i] * D->strides[i];
        if (isnan(creal(got[off])) || isnan(cimag(got[off]))) return INFINITY;
        num += pow(cabs(got[off] - want[off]), 2);
        den += pow(cabs(want[off]), 2);
        int i = 0;
        while (i < D->rank && ++idx[i] == D->extents[i]) idx[i++] = 0;
        if (i == D->rank) break;
    }
    return den > 0 ? sqrt(num / den) : sqrt(num);
}

static void test_random_layouts_compute_the_contraction(void** state)
{
    (void)state;
    rng_t r = {20261121};
    rng_t costs = {7};
    int paths[3][3] = {{0}}, swapped = 0, outPaths[3] = {0}, looped = 0, freeBatched = 0;
    for (int it = 0; it < 400; ++it) {
        ctr_random_options o = {8, 4, 4096, (int)rng_range(&r, 0, 1)};
        ctr_random_case c;
        ctr_random_draw(&r, &o, &c);
        const int complexType = rng_range(&r, 0, 1);
        for (int t = 0; t < 4; ++t) {
            c.desc[t].type = complexType ? CUPERM_C_64F : CUPERM_R_64F;
            c.desc[t].op = random_op(&r, complexType, t == 3);
            c.desc[t].opParam = 0.1 + rng_unit(&r) * 0.05;
        }
        cuperm_ctr_problem_t p;
        cuperm_ctr_layout_t l;
        assert_int_equal(cuperm_ctr_problem_init(&p, &c.desc[0], &c.desc[1], &c.desc[2], &c.desc[3],
                                          CUPERM_COMPUTE_DEFAULT),
                         CUPERM_STATUS_SUCCESS);
        mock_ctx ctx = {(it & 1) ? &costs : NULL};
        cuperm_ctr_cost_model_t m = mock_model(&ctx);
        assert_int_equal(cuperm_ctr_layout_choose(&p, &m, &l), CUPERM_STATUS_SUCCESS);
        paths[0][l.in[0].path]++;
        paths[1][l.in[1].path]++;
        outPaths[l.out]++;
        swapped += l.swapped;
        looped += l.calls > 1;
        for (int i = 0; i < p.nmodes; ++i)
            freeBatched += l.role[i] == CTR_GROUP_L && p.modes[i].group != CTR_GROUP_L;

        int64_t span[4];
        ctr_cplx* buf[4];
        for (int t = 0; t < 4; ++t) {
            span[t] = ctr_ref_span(&c.desc[t]);
            buf[t] = calloc((size_t)span[t], sizeof(ctr_cplx));
            fill(&r, buf[t], span[t], complexType, c.desc[t].op == CUPERM_OP_SQRT);
        }
        ctr_cplx* want = calloc((size_t)span[3], sizeof(ctr_cplx));
        const int aliasCD = o.cAliasD && rng_range(&r, 0, 1);
        if (aliasCD) memcpy(buf[3], buf[2], (size_t)span[2] * sizeof(ctr_cplx));
        ctr_cplx alpha = rng_unit(&r) + (complexType ? I * rng_unit(&r) : 0);
        ctr_cplx beta = rng_range(&r, 0, 3) == 0 ? 0 : rng_unit(&r) + (complexType ? I * rng_unit(&r) : 0);
        ctr_ref_contract(&c.desc[0], &c.desc[1], &c.desc[2], &c.desc[3], buf[0], buf[1], buf[2], alpha,
                         beta, want, NULL);
        ctr_cpu_execute(&p, &l, buf[0], buf[1], aliasCD ? buf[3] : buf[2], buf[3], alpha, beta);
        const double err = rel_error(buf[3], want, &c.desc[3]);
        if (!(err < 1e-12)) {
            char text[1024], how[512];
            ctr_random_print(&c, text, sizeof text);
            cuperm_ctr_layout_describe(&p, &l, how, sizeof how);
            fail_msg("case %d: error %g\n  %s\n  %s", it, err, text, how);
        }
        for (int t = 0; t < 4; ++t) free(buf[t]);
        free(want);
    }
    /* The random prices must have driven the planner down every path. */
    for (int x = 0; x < 2; ++x)
        for (int path = 0; path < 3; ++path) assert_true(paths[x][path] > 0);
    for (int path = 0; path < 3; ++path) assert_true(outPaths[path] > 0);
    assert_true(swapped > 0);
    assert_true(looped > 0);
    assert_true(freeBatched > 0);
}

/* ---- how wide cuBLAS's vectors may be (gemm_bounds.h) ------------------------------ */

/* Checks one GEMM operand read or written in place against its tensor: cuBLAS may use any vector
 * width w (a power of two of at least one element, at most 16 bytes) that divides every stride
 * it is given; a width passes the operand's end unless the tensor's last byte ends a w-aligned
 * vector. vectorBytes must be 16 when no allowed width passes the end, else the widest width
 * that does not. Returns whether the operand is ragged. */
static int check_operand_bounds(const cupermTensorDescriptor_t* d, const cuperm_ctr_problem_t* p,
                                const cuperm_ctr_layout_t* l, int64_t ld, int64_t batchStride, const int64_t* outer,
                                unsigned vectorBytes, const char* what)
{
    const int64_t elem = (int64_t)cupermDataTypeSize(d->type);
    int64_t end = 1; /* elements from the operand's first to past its last */
    for (int i = 0; i < d->rank; ++i) end += (d->extents[i] - 1) * d->strides[i];
    const int64_t endBytes = end * elem;
    unsigned widestOk = 0, passes = 0;
    for (int64_t w = elem; w <= 16; w *= 2) {
        int allowed = (ld * elem) % w == 0 && (l->batch == 1 || batchStride == 0 || (batchStride * elem) % w == 0);
        for (int i = 0; i < l->count[CTR_ROLE_O] && l->calls > 1; ++i)
            if (p->modes[l->order[CTR_ROLE_O][i]].extent > 1 && outer[i]) allowed &= (outer[i] * elem) % w == 0;
        if (endBytes % w == 0) widestOk = (unsigned)w;
        else if (allowed) passes = 1;
    }
    const unsigned want = passes ? widestOk : 16;
    if (vectorBytes != want) fail_msg("%s: vectorBytes %u, want %u (end %lld bytes, ld %lld)", what, vectorBytes, want,
                                      (long long)endBytes, (long long)ld);
    return passes;
}

/* Random half and single contractions (random prices drive every path): each operand cuBLAS reads
 * or writes in place gets the vector bound its tensor's footprint allows. */
static void test_gemm_bounds_match_footprints(void** state)
{
    (void)state;
    rng_t r = {20261124};
    rng_t costs = {11};
    int ragged = 0, checked = 0;
    for (int it = 0; it < 600; ++it) {
        ctr_random_options o = {6, 5, 4096, (int)rng_range(&r, 0, 1)};
        ctr_random_case c;
        ctr_random_draw(&r, &o, &c);
        const int half = rng_range(&r, 0, 2) > 0;
        for (int t = 0; t < 4; ++t) c.desc[t].type = half ? CUPERM_R_16F : CUPERM_R_32F;
        cuperm_ctr_problem_t p;
        cuperm_ctr_layout_t l;
        assert_int_equal(cuperm_ctr_problem_init(&p, &c.desc[0], &c.desc[1], &c.desc[2], &c.desc[3],
                                                 CUPERM_COMPUTE_DEFAULT), CUPERM_STATUS_SUCCESS);
        mock_ctx ctx = {(it & 1) ? &costs : NULL};
        cuperm_ctr_cost_model_t m = mock_model(&ctx);
        assert_int_equal(cuperm_ctr_layout_choose(&p, &m, &l), CUPERM_STATUS_SUCCESS);
        cuperm_ctr_gemm_bounds_t b;
        cuperm_ctr_gemm_bounds(&p, &l, &b);
        int any = 0;
        for (int x = 0; x < 2; ++x) {
            const int slot = (x == CTR_A) == !l.swapped ? CTR_GEMM_FIRST : CTR_GEMM_SECOND;
            const cuperm_ctr_input_layout_t* in = &l.in[x];
            if (in->path != CTR_IN_DIRECT) {
                assert_int_equal(b.vectorBytes[slot], 16); /* dense in the workspace */
                continue;
            }
            any |= check_operand_bounds(&c.desc[x], &p, &l, in->ld, in->batchStride, in->outerStride,
                                        b.vectorBytes[slot], x == CTR_A ? "A" : "B");
            ++checked;
        }
        if (l.out == CTR_OUT_DIRECT) {
            any |= check_operand_bounds(&c.desc[3], &p, &l, l.ldD, l.batchStrideD, l.outerStrideD,
                                        b.vectorBytes[CTR_GEMM_OUT], "D");
            ++checked;
        } else {
            assert_int_equal(b.vectorBytes[CTR_GEMM_OUT], 16);
        }
        assert_int_equal(b.ragged, any);
        ragged += any;
    }
    assert_true(checked > 600);
    assert_true(ragged > 20); /* the case the rule is for occurs */
}

/* The case compute-sanitizer caught (test_ctr_gpu, f16): B is 1 x 9 halves, leading dimension 2,
 * 17 halves in all; cuBLAS's 4-byte vectors read the 18th. */
static void test_gemm_bounds_known_case(void** state)
{
    (void)state;
    int32_t mA[] = {'x', 'm', 'k', 'l'}, mB[] = {'x', 'k', 'l'}, mD[] = {'m'};
    int64_t eA[] = {1, 4, 3, 3}, eB[] = {1, 3, 3}, eD[] = {4};
    int64_t sA[] = {1, 1, 4, 12}, sB[] = {1, 2, 6}, sD[] = {1};
    cupermTensorDescriptor_t A = {4, mA, eA, sA, CUPERM_R_16F, CUPERM_OP_IDENTITY, 0};
    cupermTensorDescriptor_t B = {3, mB, eB, sB, CUPERM_R_16F, CUPERM_OP_IDENTITY, 0};
    cupermTensorDescriptor_t D = {1, mD, eD, sD, CUPERM_R_16F, CUPERM_OP_IDENTITY, 0};
    cuperm_ctr_problem_t p;
    cuperm_ctr_layout_t l;
    assert_int_equal(cuperm_ctr_problem_init(&p, &A, &B, &D, &D, CUPERM_COMPUTE_DEFAULT), CUPERM_STATUS_SUCCESS);
    mock_ctx ctx = {NULL};
    cuperm_ctr_cost_model_t m = mock_model(&ctx);
    assert_int_equal(cuperm_ctr_layout_choose(&p, &m, &l), CUPERM_STATUS_SUCCESS);
    cuperm_ctr_gemm_bounds_t b;
    cuperm_ctr_gemm_bounds(&p, &l, &b);
    assert_int_equal(l.in[CTR_B].path, CTR_IN_DIRECT);
    assert_int_equal(l.in[CTR_B].ld, 2);
    assert_int_equal(b.vectorBytes[l.swapped ? CTR_GEMM_FIRST : CTR_GEMM_SECOND], 2);
    assert_true(b.ragged);
}

/* ---- model planning's GETT price (gett_cost.h) ----------------------------------------- */

static const cuperm_tuning_t* tuning_of(int ccMajor)
{
    const cuperm_device_info_t dev = {0, ccMajor, 0, 132, 50 << 20, 48 << 10, 3.35e12};
    return cuperm_tuning_for(&dev);
}

/* D[m,n] = A[m,k] B[k,n] of type t: the price against the formula, the K steps it counts, and the
 * edges of what it covers (one wave; measured families; measured architectures). */
static double gett_price_ops(int64_t m, int64_t n, int64_t k, cupermDataType_t t, const cuperm_tuning_t* tuning,
                             const cupermOperator_t ops[3])
{
    int32_t mA[] = {'m', 'k'}, mB[] = {'k', 'n'}, mD[] = {'m', 'n'};
    int64_t eA[] = {m, k}, eB[] = {k, n}, eD[] = {m, n};
    cupermTensorDescriptor_t A = {2, mA, eA, NULL, t, ops[0], 0.5};
    cupermTensorDescriptor_t B = {2, mB, eB, NULL, t, ops[1], 0.5};
    cupermTensorDescriptor_t D = {2, mD, eD, NULL, t, ops[2], 0.5};
    cuperm_ctr_problem_t p;
    assert_int_equal(cuperm_ctr_problem_init(&p, &A, &B, &D, &D, CUPERM_COMPUTE_DEFAULT), CUPERM_STATUS_SUCCESS);
    assert_true(cuperm_ctr_gett_eligible(&p, NULL, 0));
    return cuperm_ctr_gett_seconds(&p, tuning, 132);
}

static double gett_price(int64_t m, int64_t n, int64_t k, cupermDataType_t t, const cuperm_tuning_t* tuning)
{
    static const cupermOperator_t none[3] = {CUPERM_OP_IDENTITY, CUPERM_OP_IDENTITY, CUPERM_OP_IDENTITY};
    return gett_price_ops(m, n, k, t, tuning, none);
}

/* Operators (A, B, D): the family's fixed operator time once, a tile pass per step of K for each
 * input operand with one (cheap: abs, relu, leaky_relu; costly: the rest), nothing for negations
 * (folded into the scalars); unmeasured operator prices leave the plan unpriced. */
static void test_gett_operator_price(void** state)
{
    (void)state;
    const cuperm_tuning_t* h100 = tuning_of(9);
    const cuperm_gett_tuning_t* tc = &h100->gett[CUPERM_GETT_TENSOR_CORES];
    const double plain = gett_price(100, 60, 70, CUPERM_R_16F, h100); /* 3 steps of K */
    const cupermOperator_t negations[3] = {CUPERM_OP_NEGATE, CUPERM_OP_IDENTITY, CUPERM_OP_NEGATE};
    const cupermOperator_t outOnly[3] = {CUPERM_OP_IDENTITY, CUPERM_OP_IDENTITY, CUPERM_OP_TANH};
    const cupermOperator_t relu[3] = {CUPERM_OP_RELU, CUPERM_OP_IDENTITY, CUPERM_OP_IDENTITY};
    const cupermOperator_t both[3] = {CUPERM_OP_LEAKY_RELU, CUPERM_OP_SIGMOID, CUPERM_OP_ELU};
    assert_float_equal(gett_price_ops(100, 60, 70, CUPERM_R_16F, h100, negations), plain, 1e-15);
    assert_float_equal(gett_price_ops(100, 60, 70, CUPERM_R_16F, h100, outOnly), plain + tc->opSeconds0, 1e-15);
    assert_float_equal(gett_price_ops(100, 60, 70, CUPERM_R_16F, h100, relu),
                       plain + tc->opSeconds0 + 3 * tc->opStepSeconds[0], 1e-15);
    assert_float_equal(gett_price_ops(100, 60, 70, CUPERM_R_16F, h100, both),
                       plain + tc->opSeconds0 + 3 * (tc->opStepSeconds[0] + tc->opStepSeconds[1]), 1e-15);
    assert_true(tc->opSeconds0 > 0 && tc->opStepSeconds[1] > tc->opStepSeconds[0]);
    /* fp64 with operators: not measured. */
    assert_true(isfinite(gett_price(100, 60, 70, CUPERM_R_64F, h100)));
    assert_false(isfinite(gett_price_ops(100, 60, 70, CUPERM_R_64F, h100, outOnly)));
}

static void test_gett_price(void** state)
{
    (void)state;
    const cuperm_tuning_t* h100 = tuning_of(9);
    const cuperm_gett_tuning_t* tc = &h100->gett[CUPERM_GETT_TENSOR_CORES];
    const cuperm_gett_tuning_t* f32 = &h100->gett[CUPERM_GETT_FP32];
    /* 100 x 60 x 70 halves: one block, ceil(70 / 32) = 3 steps, 2 * (7000 + 4200 + 6000) bytes. */
    assert_float_equal(gett_price(100, 60, 70, CUPERM_R_16F, h100),
                       tc->seconds0 + 3 * tc->stepSeconds + 2.0 * 17200 * tc->byteSeconds, 1e-12);
    assert_float_equal(gett_price(100, 60, 70, CUPERM_R_32F, h100),
                       f32->seconds0 + 5 * f32->stepSeconds + 4.0 * 17200 * f32->byteSeconds, 1e-12);
    /* Each step of K adds one step's time. */
    assert_float_equal(gett_price(100, 60, 96 + 32, CUPERM_R_16F, h100) - gett_price(100, 60, 96, CUPERM_R_16F, h100),
                       tc->stepSeconds + 2.0 * 32 * 160 * tc->byteSeconds, 1e-12);
    /* One wave is 132 x 2 blocks of 128 x 128 (tensor cores), 132 x 4 of 64 x 64 (fp32). */
    assert_true(isfinite(gett_price(128 * 12, 128 * 22, 16, CUPERM_R_16F, h100)));
    assert_false(isfinite(gett_price(128 * 12, 128 * 22 + 1, 16, CUPERM_R_16F, h100)));
    assert_true(isfinite(gett_price(64 * 24, 64 * 22, 16, CUPERM_R_32F, h100)));
    assert_false(isfinite(gett_price(64 * 24, 64 * 23, 16, CUPERM_R_32F, h100)));
    const cuperm_gett_tuning_t* f64 = &h100->gett[CUPERM_GETT_FP64];
    assert_float_equal(gett_price(100, 60, 70, CUPERM_R_64F, h100),
                       f64->seconds0 + 5 * f64->stepSeconds + 8.0 * 17200 * f64->byteSeconds, 1e-12);
    assert_true(isfinite(gett_price(64 * 18, 64 * 22, 16, CUPERM_R_64F, h100)));   /* 3 blocks an SM */
    assert_false(isfinite(gett_price(64 * 18, 64 * 22 + 1, 16, CUPERM_R_64F, h100)));
    /* No family was measured on other architectures. */
    assert_false(isfinite(gett_price(100, 60, 70, CUPERM_R_16F, tuning_of(8))));
    assert_false(isfinite(gett_price(100, 60, 70, CUPERM_R_16F, tuning_of(12))));
    /* GETT is preferred only below TTGT's price by the margin. */
    const double g = gett_price(100, 60, 70, CUPERM_R_16F, h100);
    assert_true(cuperm_ctr_gett_preferred(g, g * h100->gett_margin * 1.01, h100));
    assert_false(cuperm_ctr_gett_preferred(g, g * h100->gett_margin * 0.99, h100));
    assert_false(cuperm_ctr_gett_preferred(INFINITY, INFINITY, h100));
    /* TTGT's side: a single cuBLAS call costs at least its host time; transposes add; looped
     * calls are priced per looped index (even as one pointer-array batch: gett_cost.h). */
    cuperm_ctr_layout_t l;
    memset(&l, 0, sizeof l);
    l.calls = 1;
    l.gemmSeconds = 2e-6;
    l.inputSeconds = 3e-6;
    assert_float_equal(cuperm_ctr_ttgt_issued_seconds(&l), 3e-6 + CTR_GEMM_CALL_SECONDS, 1e-15);
    l.gemmSeconds = 20e-6;
    assert_float_equal(cuperm_ctr_ttgt_issued_seconds(&l), 23e-6, 1e-15);
    l.calls = 4;
    l.gemmSeconds = 4 * CTR_GEMM_CALL_SECONDS;
    assert_float_equal(cuperm_ctr_ttgt_issued_seconds(&l), 3e-6 + 4 * CTR_GEMM_CALL_SECONDS, 1e-15);
}

/* CUPERM_PLAN_MEASURE's candidates: distinct, cheapest first, led by the model's choice, and
 * every one of them computes the contraction. */
/* Random real operands for descriptors d (buf, span: each one's elements) and the reference D of
 * D = A B + 0.5 C, which the caller frees with buf. */
static ctr_cplx* reference_of(rng_t* r, const cupermTensorDescriptor_t* d, int64_t* span, ctr_cplx** buf)
{
    for (int t = 0; t < 4; ++t) {
        span[t] = ctr_ref_span(&d[t]);
        buf[t] = calloc((size_t)span[t], sizeof(ctr_cplx));
        fill(r, buf[t], span[t], 0, 0);
    }
    ctr_cplx* want = calloc((size_t)span[3], sizeof(ctr_cplx));
    ctr_ref_contract(&d[0], &d[1], &d[2], &d[3], buf[0], buf[1], buf[2], 1.0, 0.5, want, NULL);
    return want;
}

static void test_ranked_layouts_are_distinct_sorted_and_correct(void** state)
{
    (void)state;
    rng_t r = {5};
    int several = 0;
    for (int it = 0; it < 80; ++it) {
        ctr_random_options o = {6, 4, 2048, 0};
        ctr_random_case c;
        ctr_random_draw(&r, &o, &c);
        for (int t = 0; t < 4; ++t) c.desc[t].type = CUPERM_R_64F;
        cuperm_ctr_problem_t p;
        assert_int_equal(cuperm_ctr_problem_init(&p, &c.desc[0], &c.desc[1], &c.desc[2], &c.desc[3],
                                          CUPERM_COMPUTE_DEFAULT), CUPERM_STATUS_SUCCESS);
        mock_ctx ctx = {NULL};
        cuperm_ctr_cost_model_t m = mock_model(&ctx);
        cuperm_ctr_layout_t best[8], chosen;
        const int n = cuperm_ctr_layout_rank(&p, &m, best, 8);
        assert_true(n >= 1 && n <= 8);
        assert_int_equal(cuperm_ctr_layout_choose(&p, &m, &chosen), CUPERM_STATUS_SUCCESS);
        char d[8][640], dc[640];
        cuperm_ctr_layout_describe(&p, &chosen, dc, sizeof dc);
        several += n > 1;
        int64_t span[4];
        ctr_cplx* buf[4];
        ctr_cplx* want = reference_of(&r, c.desc, span, buf);
        for (int i = 0; i < n; ++i) {
            cuperm_ctr_layout_describe(&p, &best[i], d[i], sizeof d[i]);
            const double cost = best[i].inputSeconds + best[i].outputSeconds + best[i].gemmSeconds;
            if (i > 0) {
                const double prev = best[i - 1].inputSeconds + best[i - 1].outputSeconds + best[i - 1].gemmSeconds;
                assert_true(cost >= prev * 0.999);
            }
            for (int j = 0; j < i; ++j)
                if (!strcmp(d[i], d[j])) fail_msg("case %d: layouts %d and %d are the same: %s", it, j, i, d[i]);
            memset(buf[3], 0xff, (size_t)span[3] * sizeof(ctr_cplx));
            ctr_cpu_execute(&p, &best[i], buf[0], buf[1], buf[2], buf[3], 1.0, 0.5);
            const double err = rel_error(buf[3], want, &c.desc[3]);
            if (!(err < 1e-12)) fail_msg("case %d, layout %d: error %g\n  %s", it, i, err, d[i]);
        }
        assert_string_equal(d[0], dc);
        for (int t = 0; t < 4; ++t) free(buf[t]);
        free(want);
    }
    assert_true(several > 40);
}

/* f16 contractions of odd extents: where a ranked layout keeps every matrix in the workspace (no
 * loops), its GEMM's m, n and k are rounded up to 16 bytes (cuBLAS's fast kernels need them), the
 * slices hold the padded matrices, K's padding is the zero region, and the layout still computes the
 * contraction with every unwritten workspace element NaN (ctr_cpu_exec). Elsewhere nothing is padded. */
static void test_padded_gemms(void** state)
{
    (void)state;
    static const int64_t odd[26] = {7, 13, 9, 11, 5, 3, 17, 19, 23, 29, 31, 37, 41,
                                    43, 47, 53, 59, 61, 67, 71, 73, 79, 83, 89, 97, 101};
    static const char* const specs[] = {"abc-bda-dc", "abcd-aebf-dfce", "abcd-ea-ebcd", "ab-acd-dbc", "abc-adec-ebd",
                                        "abcd-aecf-bfde", "abc-acd-db"};
    int padded = 0, zeroed = 0, slices = 0;
    rng_t r = {11};
    rng_t costs = {3};
    for (size_t si = 0; si < sizeof specs / sizeof specs[0]; ++si)
        for (int pricing = 0; pricing < 2; ++pricing) {
            spec s;
            make_spec(&s, specs[si], odd, CUPERM_R_16F, CUPERM_R_16F);
            int64_t strides[4][16]; /* dense, spelled out for rel_error */
            for (int t = 0; t < 4; ++t) {
                int64_t dense = 1;
                for (int i = 0; i < s.d[t].rank; ++i, dense *= s.d[t].extents[i - 1]) strides[t][i] = dense;
                s.d[t].strides = strides[t];
            }
            cuperm_ctr_problem_t p;
            assert_int_equal(cuperm_ctr_problem_init(&p, &s.d[0], &s.d[1], &s.d[2], &s.d[3], CUPERM_COMPUTE_DEFAULT),
                             CUPERM_STATUS_SUCCESS);
            mock_ctx ctx = {pricing ? &costs : NULL}; /* random prices take other paths */
            cuperm_ctr_cost_model_t m = mock_model(&ctx);
            cuperm_ctr_layout_t best[8];
            const int n = cuperm_ctr_layout_rank(&p, &m, best, 8);
            int64_t span[4];
            ctr_cplx* buf[4];
            ctr_cplx* want = reference_of(&r, s.d, span, buf);
            for (int i = 0; i < n; ++i) {
                const cuperm_ctr_layout_t* l = &best[i];
                char d[640];
                cuperm_ctr_layout_describe(&p, l, d, sizeof d);
                const int rows = l->swapped ? CTR_GROUP_N : CTR_GROUP_M, cols = l->swapped ? CTR_GROUP_M : CTR_GROUP_N;
                const int all = l->in[CTR_A].path && l->in[CTR_B].path && l->out && l->calls == 1;
                const int64_t dims[3][2] = {{l->m, l->size[rows]}, {l->n, l->size[cols]}, {l->k, l->size[CTR_GROUP_K]}};
                for (int g = 0; g < 3; ++g) {
                    const int64_t want8 = (dims[g][1] + 7) / 8 * 8;
                    if (dims[g][0] != (all ? want8 : dims[g][1]))
                        fail_msg("%s: GEMM extent %lld for %lld (every matrix in the workspace: %d)\n  %s", specs[si],
                                 (long long)dims[g][0], (long long)dims[g][1], all, d);
                }
                if (all) padded += l->m != l->size[rows] || l->n != l->size[cols] || l->k != l->size[CTR_GROUP_K];
                for (int x = 0; x < 2; ++x) {
                    int64_t z[4];
                    const int hasZero = cuperm_ctr_layout_zero_region(l, &p, x, z);
                    assert_int_equal(hasZero, all && l->k != l->size[CTR_GROUP_K]);
                    zeroed += hasZero;
                    /* how: the cheaper of a 2-D memset and zeroing the whole slice, or the one forced */
                    cuperm_ctr_zero_t how, forced[2];
                    const cuperm_ctr_zero_kind_t kind = cuperm_ctr_layout_zero(l, &p, x, &m, &how);
                    assert_int_equal(kind != CTR_ZERO_NONE, hasZero);
                    for (int f = 0; f < 2 && hasZero; ++f) {
                        cuperm_ctr_cost_model_t mf = m;
                        mf.zeroKind = f ? CTR_ZERO_SLICE : CTR_ZERO_MEMSET2D;
                        assert_int_equal(cuperm_ctr_layout_zero(l, &p, x, &mf, &forced[f]), mf.zeroKind);
                        assert_memory_equal(forced[f].region, z, sizeof z);
                    }
                    if (hasZero) {
                        assert_float_equal(how.seconds, fmin(forced[0].seconds, forced[1].seconds), 0);
                        /* K fast: a few bytes at the end of every column, too many rows for a 2-D memset */
                        if (l->in[x].fast == CTR_GROUP_K && z[3] >= 1000) assert_int_equal(kind, CTR_ZERO_SLICE);
                        slices += kind == CTR_ZERO_SLICE;
                    }
                    if (l->in[x].path == CTR_IN_DIRECT) continue;
                    const cuperm_ctr_input_layout_t* in = &l->in[x];
                    const int64_t fast = in->fast == CTR_GROUP_K ? l->k : in->fast == rows ? l->m : l->n;
                    const int64_t slow = in->slow == CTR_GROUP_K ? l->k : in->slow == rows ? l->m : l->n;
                    assert_int_equal(in->ld, fast);
                    const int64_t entries = cuperm_ctr_operand_volume(&p.op[x]) / (l->size[in->fast] * l->size[in->slow]);
                    assert_int_equal(l->wsBytes[x], (size_t)(fast * slow * entries * 2));
                    if (hasZero) /* inside the slice */
                        assert_true((z[0] + (z[3] - 1) * z[1] + z[2]) * 2 <= (int64_t)l->wsBytes[x]);
                }
                memset(buf[3], 0xff, (size_t)span[3] * sizeof(ctr_cplx));
                ctr_cpu_execute(&p, l, buf[0], buf[1], buf[2], buf[3], 1.0, 0.5);
                const double err = rel_error(buf[3], want, &s.d[3]);
                if (!(err < 1e-12)) fail_msg("%s, layout %d: error %g\n  %s", specs[si], i, err, d);
            }
            for (int t = 0; t < 4; ++t) free(buf[t]);
            free(want);
            /* CUPERM_CTR_DENSE_WORKSPACE=1 (denseWorkspace): never padded, for A/B runs */
            m.denseWorkspace = 1;
            const int nd = cuperm_ctr_layout_rank(&p, &m, best, 8);
            for (int i = 0; i < nd; ++i) {
                assert_int_equal(best[i].k, best[i].size[CTR_GROUP_K]);
                assert_int_equal(best[i].m * best[i].n, best[i].size[CTR_GROUP_M] * best[i].size[CTR_GROUP_N]);
            }
        }
    assert_true(padded >= 5 && zeroed >= 5); /* the rule is exercised, not only passed */
    assert_true(slices >= 1 && slices < zeroed); /* both ways of zeroing chosen */
}

/* The shared fastest run (cuperm_ctr_transpose_shared_run_bytes): the input's fastest dimension
 * as the output's, and the dimensions after it that stay contiguous on both sides. */
static void test_shared_run_bytes(void** state)
{
    (void)state;
    /* 47 x 5 x 2 x 47 f16, output keeps dim 0 first, then dims 1 and 2 (fused: 470 elements), then a
     * padded stride: 940 bytes */
    cuperm_ctr_transpose_t t = {4, {47, 5, 2, 47}, {0, 1, 2, 3}, {1, 47, 235, 470}, {1, 47, 235, 472}, CUPERM_R_16F};
    assert_float_equal(cuperm_ctr_transpose_shared_run_bytes(&t), 940.0, 0);
    t.perm[1] = 2; /* output dims 0, 2, 1, 3: only dim 0 runs on both sides (94 bytes) */
    t.perm[2] = 1;
    t.outStrides[1] = 47;
    t.outStrides[2] = 94;
    assert_float_equal(cuperm_ctr_transpose_shared_run_bytes(&t), 94.0, 0);
    t.perm[0] = 1; /* the output's fastest is another dimension: no shared run */
    t.perm[1] = 0;
    t.outStrides[0] = 1;
    t.outStrides[1] = 5;
    assert_float_equal(cuperm_ctr_transpose_shared_run_bytes(&t), 0.0, 0);
    cuperm_ctr_transpose_t g = {2, {7, 9}, {0, 1}, {2, 14}, {1, 7}, CUPERM_R_32F}; /* input not unit-stride */
    assert_float_equal(cuperm_ctr_transpose_shared_run_bytes(&g), 0.0, 0);
    g.inStrides[0] = 1;
    g.inStrides[1] = 8; /* a gap after dim 0 on the input side: 28 bytes */
    assert_float_equal(cuperm_ctr_transpose_shared_run_bytes(&g), 28.0, 0);
}

/* A model that records every transpose it is asked to price (the fields a price depends on). */
typedef struct {
    int count;
    cuperm_ctr_transpose_t seen[512];
} counting_model;

static int same_transpose(const cuperm_ctr_transpose_t* a, const cuperm_ctr_transpose_t* b)
{
    const size_t n = (size_t)a->rank;
    return a->rank == b->rank && a->type == b->type && !memcmp(a->extents, b->extents, n * sizeof(int64_t)) &&
           !memcmp(a->perm, b->perm, n * sizeof(int)) && !memcmp(a->inStrides, b->inStrides, n * sizeof(int64_t)) &&
           !memcmp(a->outStrides, b->outStrides, n * sizeof(int64_t));
}

static double counting_seconds(void* ctx, const cuperm_ctr_transpose_t* t)
{
    counting_model* m = ctx;
    for (int i = 0; i < m->count; ++i)
        if (same_transpose(&m->seen[i], t)) fail_msg("a search priced the same transpose twice");
    assert_true(m->count < 512);
    m->seen[m->count++] = *t;
    mock_ctx mock = {NULL};
    return ctr_mock_transpose_seconds(&mock, t);
}

/* The layout search prices each distinct transpose once (its memo), and still finds a layout. */
static void test_search_prices_each_transpose_once(void** state)
{
    (void)state;
    rng_t r = {11};
    static counting_model counter;
    int priced = 0;
    for (int it = 0; it < 60; ++it) {
        ctr_random_options o = {6, 6, 1e6, 0};
        ctr_random_case c;
        ctr_random_draw(&r, &o, &c);
        cuperm_ctr_problem_t p;
        assert_int_equal(cuperm_ctr_problem_init(&p, &c.desc[0], &c.desc[1], &c.desc[2], &c.desc[3],
                                                 CUPERM_COMPUTE_DEFAULT), CUPERM_STATUS_SUCCESS);
        counter.count = 0;
        cuperm_ctr_cost_model_t m = {counting_seconds, &counter, 2e12, {50e12, 50e12, 400e12, 800e12}, NULL,
                                     {0, 0, 0, 0}, 100, 0, 0};
        cuperm_ctr_layout_t best[8];
        assert_true(cuperm_ctr_layout_rank(&p, &m, best, 8) >= 1);
        priced += counter.count;
    }
    assert_true(priced > 60); /* the searches did price transposes */
}

/* The prices a ranked layout carries are the model's prices of the transposes its plan runs
 * (cuperm_ctr_layout_input_transpose / _output_transpose, what exec/contraction/build.c plans):
 * the search makes a candidate's transposes only when it prices them, and must make these. With
 * operators now and then (an input's operator transpose, C / D epilogues), types real and complex. */
static void test_ranked_prices_are_the_planned_transposes(void** state)
{
    (void)state;
    static const cupermOperator_t ops[4] = {CUPERM_OP_RELU, CUPERM_OP_CONJ, CUPERM_OP_NEGATE, CUPERM_OP_TANH};
    rng_t r = {17};
    int checkedIn = 0, checkedOut = 0;
    for (int it = 0; it < 120; ++it) {
        ctr_random_options o = {6, 12, 1e8, it % 3 == 0};
        ctr_random_case c;
        ctr_random_draw(&r, &o, &c);
        const cupermDataType_t type = it % 2 ? CUPERM_C_32F : CUPERM_R_32F;
        for (int t = 0; t < 4; ++t) {
            c.desc[t].type = type;
            const cupermOperator_t op = ops[rng_next(&r) % 4];
            c.desc[t].op = rng_next(&r) % 3 == 0 && (type == CUPERM_C_32F) == (op == CUPERM_OP_CONJ) ? op : CUPERM_OP_IDENTITY;
        }
        cuperm_ctr_problem_t p;
        assert_int_equal(cuperm_ctr_problem_init(&p, &c.desc[0], &c.desc[1], &c.desc[2], &c.desc[3],
                                                 CUPERM_COMPUTE_DEFAULT), CUPERM_STATUS_SUCCESS);
        mock_ctx ctx = {NULL};
        cuperm_ctr_cost_model_t m = mock_model(&ctx);
        cuperm_ctr_layout_t best[8];
        const int n = cuperm_ctr_layout_rank(&p, &m, best, 8);
        assert_true(n >= 1);
        for (int i = 0; i < n; ++i) {
            const cuperm_ctr_layout_t* l = &best[i];
            double inputs = 0.0;
            for (int w = CTR_A; w <= CTR_B; ++w) {
                if (l->in[w].path == CTR_IN_DIRECT) continue;
                cuperm_ctr_transpose_t t;
                cuperm_ctr_layout_input_transpose(&p, l, w, &t);
                inputs += ctr_mock_transpose_seconds(&ctx, &t);
                ++checkedIn;
            }
            if (inputs != l->inputSeconds)
                fail_msg("case %d, layout %d: inputs priced %a, their transposes %a", it, i, l->inputSeconds, inputs);
            if (l->out != CTR_OUT_DIRECT) {
                cuperm_ctr_transpose_t t;
                cuperm_ctr_layout_output_transpose(&p, l, &t);
                const double out = ctr_mock_transpose_seconds(&ctx, &t);
                if (out != l->outputSeconds)
                    fail_msg("case %d, layout %d: output priced %a, its transpose %a", it, i, l->outputSeconds, out);
                ++checkedOut;
            }
        }
    }
    assert_true(checkedIn > 100 && checkedOut > 100); /* both kinds of transpose were compared */
}

/* The transposes' floors (no transpose priced below T0 + bytes / rate) only spare the search
 * prices: the rankings, best-first lists of 1 and of 8, are the ones full prices give, and over
 * the cases fewer transposes are priced. Floors equal to the mock's prices (the tightest a model
 * may give) and below them. */
static void test_transpose_floors_prune_only(void** state)
{
    (void)state;
    static counting_model counter;
    static const double floors[2][2] = {{5e-6, 2e12}, {4e-6, 2.5e12}}; /* mock: 5 us + bytes / 2e12 */
    int without = 0, with = 0;
    for (int f = 0; f < 2; ++f) {
        rng_t r = {13};
        for (int it = 0; it < 60; ++it) {
            ctr_random_options o = {6, 40, 1e9, it % 2}; /* volumes where bytes, not T0, set prices */
            ctr_random_case c;
            ctr_random_draw(&r, &o, &c);
            cuperm_ctr_problem_t p;
            assert_int_equal(cuperm_ctr_problem_init(&p, &c.desc[0], &c.desc[1], &c.desc[2], &c.desc[3],
                                                     CUPERM_COMPUTE_DEFAULT), CUPERM_STATUS_SUCCESS);
            for (int max = 1; max <= 8; max += 7) {
                cuperm_ctr_cost_model_t plain = {counting_seconds, &counter, 2e12, {50e12, 50e12, 400e12, 800e12},
                                                 NULL, {0, 10e-9, 0, 2e-9}, 132, 0, 0};
                cuperm_ctr_cost_model_t floored = plain;
                floored.transposeFloorT0 = floors[f][0];
                floored.transposeFloorRate = floors[f][1];
                cuperm_ctr_layout_t a[8], b[8];
                memset(a, 0, sizeof a);
                memset(b, 0, sizeof b);
                counter.count = 0;
                const int na = cuperm_ctr_layout_rank(&p, &plain, a, max);
                without += counter.count;
                counter.count = 0;
                const int nb = cuperm_ctr_layout_rank(&p, &floored, b, max);
                with += counter.count;
                if (na != nb) fail_msg("floors changed the ranking's length (case %d, max %d): %d -> %d", it, max, na, nb);
                for (int i = 0; i < na; ++i)
                    if (memcmp(&a[i], &b[i], sizeof a[i])) fail_msg("floors changed layout %d (case %d, max %d)", i, it, max);
            }
        }
    }
    print_message("transposes priced: %d without floors, %d with\n", without, with);
    assert_true(with < without);
}

/* A caller's scratch, reused search after search (a handle's spare), gives the layouts and
 * prices the search gives with its own memory: nothing of one search leaks into the next. */
static void test_search_scratch_reuse(void** state)
{
    (void)state;
    rng_t r = {12};
    void* scratch = malloc(cuperm_ctr_search_scratch_bytes());
    assert_non_null(scratch);
    memset(scratch, 0xa5, cuperm_ctr_search_scratch_bytes()); /* garbage, as a recycled block holds */
    mock_ctx ctx = {NULL};
    for (int it = 0; it < 80; ++it) {
        ctr_random_options o = {6, 6, 1e6, it % 2};
        ctr_random_case c;
        ctr_random_draw(&r, &o, &c);
        cuperm_ctr_problem_t p;
        assert_int_equal(cuperm_ctr_problem_init(&p, &c.desc[0], &c.desc[1], &c.desc[2], &c.desc[3],
                                                 CUPERM_COMPUTE_DEFAULT), CUPERM_STATUS_SUCCESS);
        cuperm_ctr_cost_model_t own = mock_model(&ctx), reused = own;
        reused.scratch = scratch;
        cuperm_ctr_layout_t a[8], b[8];
        memset(a, 0, sizeof a);
        memset(b, 0, sizeof b);
        const int na = cuperm_ctr_layout_rank(&p, &own, a, 8), nb = cuperm_ctr_layout_rank(&p, &reused, b, 8);
        assert_int_equal(na, nb);
        assert_true(na >= 1);
        for (int i = 0; i < na; ++i) assert_memory_equal(&a[i], &b[i], sizeof a[i]);
    }
    free(scratch);
}

/* The GEMM model's layout factor: features as documented, fitted types only, clamped. */
static void test_gemm_factor(void** state)
{
    (void)state;
    cuperm_ctr_gemm_shape_t g = {312, 24, 312, 296, 1, 0, 1, 0, 'T', 'T', CUPERM_R_16F, CUPERM_R_16F, CUPERM_COMPUTE_32F};
    double x[CTR_GEMM_FEATURES];
    cuperm_ctr_gemm_features(&g, x);
    const double want[CTR_GEMM_FEATURES] = {1, 1, 1, 1, 0, log2(128.0 / 24), 0, 0, log2(128.0 / 24), 0,
                                            log2(128.0 / 24), log2(296.0), 1, 0, 0,
                                            log2(296.0) * log2(128.0 / 24), 20 - log2(312.0 * 24), 0, 0};
    for (int i = 0; i < CTR_GEMM_FEATURES; ++i) assert_true(fabs(x[i] - want[i]) < 1e-12);
    /* misaligned: the flag, and it x octaves of GFLOP above one (none below one) */
    g.misaligned = 1;
    cuperm_ctr_gemm_features(&g, x);
    assert_true(x[17] == 1 && fabs(x[18] - log2(2e-9 * 312 * 24 * 312 * 296)) < 1e-12);
    const double gflop = 2e-9 * 312 * 24 * 312 * 296;
    assert_true(gflop > 1);
    g.k = 1;
    cuperm_ctr_gemm_features(&g, x);
    assert_true(x[17] == 1 && x[18] == 0);
    g.k = 312;
    g.misaligned = 0;
    g.pointers = 1;
    cuperm_ctr_gemm_features(&g, x);
    assert_true(x[11] == 0 && x[12] == 0 && x[13] == 1 && fabs(x[14] - log2(296.0)) < 1e-12);
    const double f16 = cuperm_ctr_gemm_factor(&g);
    assert_true(f16 >= exp(-0.7) - 1e-12 && f16 <= exp(2.3) + 1e-12);
    /* Types the sweep does not cover keep the roofline base. */
    const cupermDataType_t unfitted[3] = {CUPERM_R_64F, CUPERM_C_32F, CUPERM_C_64F};
    for (int i = 0; i < 3; ++i) {
        g.abType = g.cdType = unfitted[i];
        g.compute = unfitted[i] == CUPERM_C_32F ? CUPERM_COMPUTE_32F : CUPERM_COMPUTE_64F;
        assert_true(cuperm_ctr_gemm_factor(&g) == 1.0);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plain_gemm_in_place),
        cmocka_unit_test(test_stored_transposed_operands_use_flags),
        cmocka_unit_test(test_transposed_output_swaps_operands),
        cmocka_unit_test(test_batched_modes_use_strided_batches),
        cmocka_unit_test(test_multi_mode_groups_fold),
        cmocka_unit_test(test_only_misordered_operand_is_transposed),
        cmocka_unit_test(test_free_modes_batch_instead_of_output_transpose),
        cmocka_unit_test(test_interleaved_free_modes_use_pointer_batches),
        cmocka_unit_test(test_unaligned_loops_cost_a_call_each),
        cmocka_unit_test(test_batched_long_k_is_serial),
        cmocka_unit_test(test_describe_names_the_decomposition),
        cmocka_unit_test(test_negations_fold_into_scalars),
        cmocka_unit_test(test_conj_folds_into_cublas_c_flag),
        cmocka_unit_test(test_nonlinear_operators_get_kernels),
        cmocka_unit_test(test_mode_in_one_operand_is_rejected),
        cmocka_unit_test(test_extent_mismatch_is_rejected),
        cmocka_unit_test(test_mode_list_errors_are_rejected),
        cmocka_unit_test(test_overlapping_d_is_rejected),
        cmocka_unit_test(test_type_rules),
        cmocka_unit_test(test_classification_and_unit_modes),
        cmocka_unit_test(test_random_layouts_compute_the_contraction),
        cmocka_unit_test(test_ranked_layouts_are_distinct_sorted_and_correct),
        cmocka_unit_test(test_search_prices_each_transpose_once),
        cmocka_unit_test(test_ranked_prices_are_the_planned_transposes),
        cmocka_unit_test(test_gemm_bounds_match_footprints),
        cmocka_unit_test(test_gemm_bounds_known_case),
        cmocka_unit_test(test_gett_price),
        cmocka_unit_test(test_gett_operator_price),
        cmocka_unit_test(test_transpose_floors_prune_only),
        cmocka_unit_test(test_search_scratch_reuse),
        cmocka_unit_test(test_gemm_factor),
        cmocka_unit_test(test_padded_gemms),
        cmocka_unit_test(test_shared_run_bytes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
