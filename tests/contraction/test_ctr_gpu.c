/*
 * GPU tests of contractions: random contractions of every type, mode class,
 * operator and layout against the CPU reference (double accumulation), with D
 * poisoned before each run and its padding checked untouched; error paths of
 * cupermContract; plan info and the decision cache.
 */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <cuda_runtime_api.h>
#include <math.h>

#include "support/gpu_skip.h"
#include "support/poison.h"
#include "support/reference.h"
#include "support/rng.h"
#include "contraction/ctr_random.h"
#include "contraction/ctr_reference.h"

#define CHECK_CUDA(x) assert_int_equal((x), cudaSuccess)

static cupermHandle_t handle;

typedef struct {
    cupermDataType_t ab, cd;
    cupermComputeType_t compute;
    double tolerance; /* relative error bound, ||got - want|| / ||want|| */
    const char* name;
} type_case;

static const type_case types[] = {
    {CUPERM_R_32F, CUPERM_R_32F, CUPERM_COMPUTE_DEFAULT, 1e-5, "32F"},
    {CUPERM_R_64F, CUPERM_R_64F, CUPERM_COMPUTE_DEFAULT, 1e-12, "64F"},
    {CUPERM_C_32F, CUPERM_C_32F, CUPERM_COMPUTE_DEFAULT, 1e-5, "C32F"},
    {CUPERM_C_64F, CUPERM_C_64F, CUPERM_COMPUTE_DEFAULT, 1e-12, "C64F"},
    {CUPERM_R_16F, CUPERM_R_16F, CUPERM_COMPUTE_DEFAULT, 5e-3, "16F->16F"},
    {CUPERM_R_16F, CUPERM_R_32F, CUPERM_COMPUTE_DEFAULT, 2e-3, "16F->32F"},
    {CUPERM_R_16BF, CUPERM_R_16BF, CUPERM_COMPUTE_DEFAULT, 3e-2, "16BF->16BF"},
    {CUPERM_R_16BF, CUPERM_R_32F, CUPERM_COMPUTE_DEFAULT, 2e-2, "16BF->32F"},
    {CUPERM_R_32F, CUPERM_R_32F, CUPERM_COMPUTE_32F_FAST_TF32, 3e-3, "32F tf32"},
    {CUPERM_C_32F, CUPERM_C_32F, CUPERM_COMPUTE_32F_FAST_TF32, 3e-3, "C32F tf32"},
    {CUPERM_R_32F, CUPERM_R_32F, CUPERM_COMPUTE_32F_FAST_16BF, 3e-2, "32F fast-16bf"},
    {CUPERM_R_16F, CUPERM_R_16F, CUPERM_COMPUTE_16F, 2e-2, "16F compute-16F"},
};

/* forD: no sqrt or exp on the result; halfResult: no exp on the inputs either (sums
 * of exponentials overflow fp16). */
static cupermOperator_t random_op(rng_t* r, cupermDataType_t t, int forD, int halfResult)
{
    static const cupermOperator_t cplxOps[] = {CUPERM_OP_IDENTITY, CUPERM_OP_NEGATE, CUPERM_OP_CONJ};
    if (rng_range(r, 0, 2) > 0) return CUPERM_OP_IDENTITY;
    if (dtype_is_complex(t)) return cplxOps[rng_range(r, 0, 2)];
    cupermOperator_t op;
    do op = (cupermOperator_t)rng_range(r, 0, CUPERM_OP_CONJ);
    while ((forD && (op == CUPERM_OP_SQRT || op == CUPERM_OP_EXP)) || (halfResult && op == CUPERM_OP_EXP));
    return op;
}

/* The scalar of a D type (float, double, complex float, complex double) from {re, im}. */
static void make_scalar(cupermDataType_t cd, ctr_cplx v, unsigned char out[16])
{
    const double re = creal(v), im = cimag(v);
    if (cd == CUPERM_R_64F) memcpy(out, &re, 8);
    else if (cd == CUPERM_C_64F) { memcpy(out, &re, 8); memcpy(out + 8, &im, 8); }
    else if (cd == CUPERM_C_32F) { const float f[2] = {(float)re, (float)im}; memcpy(out, f, 8); }
    else { const float f = (float)re; memcpy(out, &f, 4); }
}

/* Host tensor: typed bytes plus the same values as complex doubles. */
typedef struct {
    int64_t span;
    size_t elem;
    unsigned char* bytes;
    ctr_cplx* values;
} host_tensor;

static void host_alloc(host_tensor* t, const cupermTensorDescriptor_t* d)
{
    t->span = ctr_ref_span(d);
    t->elem = cupermDataTypeSize(d->type);
    t->bytes = malloc((size_t)t->span * t->elem);
    t->values = calloc((size_t)t->span, sizeof(ctr_cplx));
}

static void host_fill(rng_t* r, host_tensor* t, cupermDataType_t type, int positive)
{
    rng_fill(r, type, t->span, t->bytes);
    for (int64_t i = 0; i < t->span; ++i) {
        double v[2];
        ref_load(type, t->bytes + i * t->elem, v);
        if (positive) {
            v[0] = fabs(v[0]) + 0.01;
            ref_store(type, t->bytes + i * t->elem, v);
            ref_load(type, t->bytes + i * t->elem, v);
        }
        t->values[i] = v[0] + I * v[1];
    }
}

static void host_free(host_tensor* t)
{
    free(t->bytes);
    free(t->values);
}

/* Runs one random contraction; returns its relative error (INFINITY on NaN or a write outside D). */
/* How often each execution path ran, printed per type. */
typedef struct {
    int transposed[3], pointerBatched, strideBatched, kernels;
    int ragged, raggedOnLt; /* plans with ragged GEMM operands (gemm_bounds.h), on a narrowed cuBLASLt algorithm */
    int gett;               /* GETT plans */
    int padded;             /* TTGT plans whose GEMM extents are padded in the workspace (layout.c: pad_gemm) */
} path_counts;

/* Over every run_type call: compute-sanitizer's memcheck on this program is what shows that the
 * narrowed algorithms keep cuBLAS's reads inside the operands; these counts show they ran. */
static path_counts allPaths;

/* The plan mode and algorithm run_case plans with (test_random_measured and test_random_algos
 * switch them). */
static cupermPlanMode_t planMode = CUPERM_PLAN_MODEL;
static cupermContractionAlgo_t planAlgo = CUPERM_ALGO_DEFAULT;

static double run_problem(rng_t* r, const type_case* tc, ctr_random_case* cp, int cAliasD, int caseNo, char* what,
                          size_t whatSize, path_counts* paths);

static double run_case(rng_t* r, const type_case* tc, const ctr_random_options* o, int caseNo,
                       char* what, size_t whatSize, path_counts* paths)
{
    ctr_random_case c;
    ctr_random_draw(r, o, &c);
    for (int t = 0; t < 4; ++t) {
        c.desc[t].type = t < 2 ? tc->ab : tc->cd;
        c.desc[t].op = random_op(r, c.desc[t].type, t == 3, tc->cd == CUPERM_R_16F && t < 2);
        c.desc[t].opParam = 0.05 + 0.2 * fabs(rng_unit(r));
        /* GETT runs no operators but negations (folded into alpha and beta). */
        if (planAlgo == CUPERM_ALGO_GETT && c.desc[t].op != CUPERM_OP_NEGATE) c.desc[t].op = CUPERM_OP_IDENTITY;
    }
    return run_problem(r, tc, &c, o->cAliasD, caseNo, what, whatSize, paths);
}

/* Plans and runs one problem (types and operators set) against the reference; returns its relative
 * error (INFINITY on NaN or a write outside D). cAliasD: C has D's strides, so C may be D. */
static double run_problem(rng_t* r, const type_case* tc, ctr_random_case* cp, int cAliasD, int caseNo, char* what,
                          size_t whatSize, path_counts* paths)
{
    ctr_random_case c = *cp;
    for (int t = 0; t < 4; ++t) { /* the copy's descriptors point into the copy */
        c.desc[t].modes = c.modes[t];
        c.desc[t].extents = c.extents[t];
        c.desc[t].strides = c.strides[t];
    }
    cupermContractionPlan_t plan;
    cupermStatus_t st = cupermPlanContractionAlgo(handle, &plan, &c.desc[0], &c.desc[1], &c.desc[2], &c.desc[3],
                                                  tc->compute, planMode, planAlgo);
    if (st != CUPERM_STATUS_SUCCESS) fail_msg("plan failed: %s", cupermGetLastErrorMessage());
    cupermContractionInfo_t info;
    assert_int_equal(cupermContractionPlanGetInfo(plan, &info), CUPERM_STATUS_SUCCESS);
    /* A GETT plan is the only one of its problem: never measured. */
    const int measured = planMode == CUPERM_PLAN_MEASURE && planAlgo != CUPERM_ALGO_GETT;
    assert_int_equal(info.measured, measured);
    assert_true(measured ? info.measuredSeconds > 0 : info.measuredSeconds == 0);
    if (planAlgo == CUPERM_ALGO_TTGT) assert_int_equal(info.kind, CUPERM_CONTRACTION_TTGT);
    if (planAlgo == CUPERM_ALGO_GETT) assert_int_equal(info.kind, CUPERM_CONTRACTION_GETT);
    assert_int_equal(info.kind,
                     strncmp(info.description, "GETT", 4) == 0 ? CUPERM_CONTRACTION_GETT : CUPERM_CONTRACTION_TTGT);
    paths->transposed[0] += info.transposedA;
    paths->transposed[1] += info.transposedB;
    paths->transposed[2] += info.transposedD;
    paths->pointerBatched += info.calls > 1;
    paths->strideBatched += info.calls == 1 && info.batch > 1;
    paths->kernels += info.elementwiseKernels > 0;
    paths->gett += info.kind == CUPERM_CONTRACTION_GETT;
    paths->padded += strstr(info.description, "padded from") != NULL;
    if (strstr(info.description, "ragged operands")) {
        ++paths->ragged;
        paths->raggedOnLt += strstr(info.description, "on cuBLASLt, an algorithm chosen at planning") != NULL;
    }

    host_tensor h[4];
    for (int t = 0; t < 4; ++t) {
        host_alloc(&h[t], &c.desc[t]);
        host_fill(r, &h[t], c.desc[t].type, c.desc[t].op == CUPERM_OP_SQRT);
    }
    const int aliasCD = cAliasD && rng_range(r, 0, 1);
    const int betaZero = rng_range(r, 0, 3) == 0;
    const int cplx = dtype_is_complex(tc->cd);
    ctr_cplx alpha = rng_unit(r) + (cplx ? I * rng_unit(r) : 0);
    ctr_cplx beta = betaZero ? 0 : rng_unit(r) + (cplx ? I * rng_unit(r) : 0);
    /* beta == 0 must never read C: make C all NaN then. */
    if (betaZero) memset(h[2].bytes, POISON_BYTE, (size_t)h[2].span * h[2].elem);
    if (aliasCD) {
        memcpy(h[3].bytes, h[2].bytes, (size_t)h[3].span * h[3].elem);
        memcpy(h[3].values, h[2].values, (size_t)h[3].span * sizeof(ctr_cplx));
    } else {
        memset(h[3].bytes, POISON_BYTE, (size_t)h[3].span * h[3].elem);
    }
    ctr_cplx* want = calloc((size_t)h[3].span, sizeof(ctr_cplx));
    ctr_ref_contract(&c.desc[0], &c.desc[1], &c.desc[2], &c.desc[3], h[0].values, h[1].values,
                     aliasCD ? h[3].values : h[2].values, alpha, beta, want, NULL);

    void* dev[4];
    for (int t = 0; t < 4; ++t) {
        CHECK_CUDA(cudaMalloc(&dev[t], (size_t)h[t].span * h[t].elem));
        CHECK_CUDA(cudaMemcpy(dev[t], h[t].bytes, (size_t)h[t].span * h[t].elem, cudaMemcpyHostToDevice));
    }
    size_t wsBytes = 0;
    assert_int_equal(cupermContractionGetWorkspaceSize(plan, &wsBytes), CUPERM_STATUS_SUCCESS);
    void* ws = NULL;
    const int ownWorkspace = caseNo % 2;
    if (ownWorkspace) { /* NaN in every 16- and 32-bit float: what a plan does not write must not matter */
        CHECK_CUDA(cudaMalloc(&ws, wsBytes));
        CHECK_CUDA(cudaMemset(ws, 0xff, wsBytes));
    }
    unsigned char a[16], b[16];
    make_scalar(tc->cd, alpha, a);
    make_scalar(tc->cd, beta, b);
    st = cupermContract(plan, a, dev[0], dev[1], b, aliasCD ? dev[3] : dev[2], dev[3], ws, wsBytes, 0);
    if (st != CUPERM_STATUS_SUCCESS) fail_msg("contract failed: %s", cupermGetLastErrorMessage());
    CHECK_CUDA(cudaDeviceSynchronize());
    unsigned char* got = malloc((size_t)h[3].span * h[3].elem);
    CHECK_CUDA(cudaMemcpy(got, dev[3], (size_t)h[3].span * h[3].elem, cudaMemcpyDeviceToHost));

    unsigned char* mask = poison_element_mask(c.desc[3].rank, c.desc[3].extents, c.desc[3].strides, h[3].span);
    double num = 0, den = 0;
    int64_t where;
    if (poison_changed_outside(h[3].bytes, got, (size_t)h[3].span * h[3].elem, 0, h[3].elem, mask, h[3].span, &where))
        num = INFINITY; /* padding: must be untouched */
    for (int64_t i = 0; i < h[3].span; ++i) {
        const unsigned char* g = got + i * h[3].elem;
        if (!mask[i]) continue;
        double v[2];
        ref_load(tc->cd, g, v);
        if (isnan(v[0]) || isnan(v[1])) num = INFINITY;
        num += pow(cabs(v[0] + I * v[1] - want[i]), 2);
        den += pow(cabs(want[i]), 2);
    }
    const double err = den > 0 ? sqrt(num / den) : sqrt(num);
    char text[900];
    ctr_random_print(&c, text, sizeof text);
    snprintf(what, whatSize, "%s alias=%d beta0=%d ws=%d\n    %s\n    %s", text, aliasCD, betaZero,
             ownWorkspace, info.description, "");
    free(mask);
    free(got);
    free(want);
    if (ws) cudaFree(ws);
    for (int t = 0; t < 4; ++t) {
        cudaFree(dev[t]);
        host_free(&h[t]);
    }
    assert_int_equal(cupermContractionPlanDestroy(plan), CUPERM_STATUS_SUCCESS);
    return err;
}

/* Runs count random cases of one type; prints every failure and returns how many failed
 * (the other types still run, so one report shows all of them). */
static int run_type(const type_case* tc, int count, const ctr_random_options* o, uint64_t seed)
{
    rng_t r = {seed};
    double worst = 0;
    int failures = 0;
    path_counts paths;
    memset(&paths, 0, sizeof paths);
    for (int i = 0; i < count; ++i) {
        char what[2048];
        const double err = run_case(&r, tc, o, i, what, sizeof what, &paths);
        if (!(err <= tc->tolerance)) {
            printf("FAILED: %s case %d: relative error %g > %g\n    %s\n", tc->name, i, err, tc->tolerance, what);
            ++failures;
        }
        if (err > worst || isnan(err)) worst = err;
    }
    printf("    %-16s %3d cases (extents <= %lld), worst relative error %.3g (bound %.0e), %d failed; transposed "
           "A/B/D %d/%d/%d, strided batch %d, pointer batch %d, operator kernels %d\n", tc->name, count,
           (long long)o->maxExtent, worst, tc->tolerance, failures, paths.transposed[0], paths.transposed[1],
           paths.transposed[2], paths.strideBatched, paths.pointerBatched, paths.kernels);
    if (paths.ragged) printf("    %-16s %d plans with ragged GEMM operands, %d on a narrowed cuBLASLt algorithm\n", tc->name,
                             paths.ragged, paths.raggedOnLt);
    if (paths.gett) printf("    %-16s %d GETT plans\n", tc->name, paths.gett);
    allPaths.gett += paths.gett;
    allPaths.ragged += paths.ragged;
    allPaths.raggedOnLt += paths.raggedOnLt;
    return failures;
}

/* A fixed problem: A, B and D dense from mode strings, C shaped (and strided) as D. */
static void lettered_case(const char* a, const char* b, const char* d, const int64_t* ext, const type_case* tc,
                          ctr_random_case* c)
{
    ctr_lettered l;
    ctr_lettered_init(&l, a, b, d, ext, tc->ab);
    memset(c, 0, sizeof *c);
    static const int from[4] = {0, 1, 2, 2}; /* A, B, C = D, D */
    for (int t = 0; t < 4; ++t) {
        const cupermTensorDescriptor_t* s = &l.d[from[t]];
        int64_t dense = 1;
        for (int i = 0; i < s->rank; ++i) {
            c->modes[t][i] = s->modes[i];
            c->extents[t][i] = s->extents[i];
            c->strides[t][i] = dense;
            dense *= s->extents[i];
        }
        c->desc[t] = (cupermTensorDescriptor_t){s->rank, c->modes[t], c->extents[t], c->strides[t],
                                                t < 2 ? tc->ab : tc->cd, CUPERM_OP_IDENTITY, 0};
    }
}

/* 16-bit contractions of odd extents whose every operand interleaves its modes (A aebf, B ecfd,
 * D acbd: none can be read or written by cuBLAS in place without loops), so that TTGT plans keep every
 * matrix in the workspace: their GEMMs run padded to 16-byte extents (m, n, k rounded up, K's padding
 * zeroed), and must compute the same contraction, with and without beta, C == D or not, the workspace
 * NaN on odd runs. Every way of zeroing (CUPERM_CTR_ZERO, read by cupermCreate) runs each shape.
 * (Odd shapes that some operand could be read in place take padding only where the model's price
 * says so: on the H200 the first version of this test's shapes did not.) */
static void test_padded_gemms(void** state)
{
    (void)state;
    static const int64_t ext[3][6] = {{37, 29, 31, 23, 19, 17}, {43, 13, 29, 19, 11, 23}, {21, 19, 27, 25, 13, 15}};
    static const char* const zeroKinds[] = {NULL, "memset2d", "slice"}; /* NULL: the priced choice */
    int failures = 0, padded = 0, n = 0;
    rng_t r = {77};
    const cupermContractionAlgo_t algo = planAlgo;
    const cupermHandle_t shared = handle;
    planAlgo = CUPERM_ALGO_TTGT;
    for (size_t z = 0; z < sizeof zeroKinds / sizeof zeroKinds[0]; ++z) {
        if (zeroKinds[z]) setenv("CUPERM_CTR_ZERO", zeroKinds[z], 1);
        else unsetenv("CUPERM_CTR_ZERO");
        assert_int_equal(cupermCreate(&handle), CUPERM_STATUS_SUCCESS);
        unsetenv("CUPERM_CTR_ZERO");
        for (size_t t = 4; t < 8; ++t) /* 16F and 16BF inputs, 16- and 32-bit results */
            for (size_t i = 0; i < sizeof ext / sizeof ext[0]; ++i)
                for (int rep = 0; rep < 2; ++rep, ++n) {
                    ctr_random_case c;
                    lettered_case("aebf", "ecfd", "acbd", ext[i], &types[t], &c);
                    path_counts paths;
                    memset(&paths, 0, sizeof paths);
                    char what[2048] = "";
                    const double err = run_problem(&r, &types[t], &c, 1, n, what, sizeof what, &paths);
                    padded += paths.padded;
                    const char* plan = strchr(what, '\n');
                    if (n == 0 && plan) printf("    padded GEMMs, first plan:%s\n", plan + 1);
                    if (!(err <= types[t].tolerance)) {
                        printf("FAILED: %s padded case %zu (zeroing %s): relative error %g > %g\n    %s\n",
                               types[t].name, i, zeroKinds[z] ? zeroKinds[z] : "priced", err, types[t].tolerance, what);
                        ++failures;
                    }
                }
        assert_int_equal(cupermDestroy(handle), CUPERM_STATUS_SUCCESS);
    }
    handle = shared;
    planAlgo = algo;
    printf("    padded GEMMs: %d of %d plans padded (every way of zeroing K's padding), %d failed\n", padded, n,
           failures);
    assert_int_equal(failures, 0);
    assert_int_equal(padded, n); /* the path is what the test is for */
}

static void test_random_small(void** state)
{
    (void)state;
    int failures = 0;
    for (size_t t = 0; t < sizeof types / sizeof types[0]; ++t) {
        ctr_random_options o = {8, 4, 1 << 16, (int)(t % 2)};
        failures += run_type(&types[t], 60, &o, 1000 + t);
    }
    assert_int_equal(failures, 0);
    /* Small odd shapes make ragged operands (the 16-bit ones caught cuBLAS reading past them). */
    assert_true(allPaths.ragged > 0);
    assert_int_equal(allPaths.raggedOnLt, allPaths.ragged);
    /* Model plans of small contractions take GETT where its model says so (gett_cost.h). */
    assert_true(allPaths.gett > 0);
}

static void test_random_gemm_sized(void** state)
{
    (void)state;
    int failures = 0;
    for (size_t t = 0; t < sizeof types / sizeof types[0]; ++t) {
        if (types[t].compute == CUPERM_COMPUTE_16F) continue; /* fp16 sums of 10^4+ terms: no bound */
        ctr_random_options o = {6, 40, 1 << 23, (int)((t + 1) % 2)};
        failures += run_type(&types[t], 8, &o, 5000 + t);
    }
    assert_int_equal(failures, 0);
}

/* Measured plans compute the same contraction: whichever candidate won must be right. */
static void test_random_measured(void** state)
{
    (void)state;
    int failures = 0;
    planMode = CUPERM_PLAN_MEASURE;
    for (size_t t = 0; t < sizeof types / sizeof types[0]; ++t) {
        ctr_random_options o = {8, 4, 1 << 16, (int)(t % 2)};
        failures += run_type(&types[t], 12, &o, 9000 + t);
    }
    planMode = CUPERM_PLAN_MODEL;
    assert_int_equal(failures, 0);
}

/* Plans restricted to one kind (cupermPlanContractionAlgo) are that kind and compute the same
 * contraction: TTGT for every type (model and measured), GETT for the types it runs. */
static void test_random_algos(void** state)
{
    (void)state;
    int failures = 0;
    planAlgo = CUPERM_ALGO_TTGT;
    for (int m = 0; m < 2; ++m) {
        planMode = m ? CUPERM_PLAN_MEASURE : CUPERM_PLAN_MODEL;
        for (size_t t = 0; t < sizeof types / sizeof types[0]; ++t) {
            ctr_random_options o = {8, 4, 1 << 16, (int)(t % 2)};
            failures += run_type(&types[t], 6, &o, 12000 + 100 * (uint64_t)m + t);
        }
    }
    planAlgo = CUPERM_ALGO_GETT;
    for (int m = 0; m < 2; ++m) {
        planMode = m ? CUPERM_PLAN_MEASURE : CUPERM_PLAN_MODEL;
        for (size_t t = 0; t < sizeof types / sizeof types[0]; ++t) {
            const type_case* tc = &types[t];
            if ((tc->ab != CUPERM_R_16F && tc->ab != CUPERM_R_16BF) || tc->compute != CUPERM_COMPUTE_DEFAULT) continue;
            ctr_random_options o = {8, 5, 1 << 16, (int)(t % 2)};
            failures += run_type(tc, 12, &o, 13000 + 100 * (uint64_t)m + t);
        }
    }
    planAlgo = CUPERM_ALGO_DEFAULT;
    planMode = CUPERM_PLAN_MODEL;
    assert_int_equal(failures, 0);
}

/* ---- errors -------------------------------------------------------------------- */

static void expect(cupermStatus_t got, cupermStatus_t want, const char* fragment)
{
    assert_int_equal(got, want);
    const char* msg = cupermGetLastErrorMessage();
    if (!strstr(msg, fragment)) fail_msg("message \"%s\" lacks \"%s\"", msg, fragment);
}

static void test_errors(void** state)
{
    (void)state;
    const int32_t mA[2] = {'a', 'c'}, mB[2] = {'c', 'b'}, mD[2] = {'a', 'b'}, mBad[2] = {'c', 'z'};
    const int64_t e[2] = {16, 16};
    cupermTensorDescriptor_t A = {2, mA, e, NULL, CUPERM_R_32F, CUPERM_OP_IDENTITY, 0};
    cupermTensorDescriptor_t B = {2, mB, e, NULL, CUPERM_R_32F, CUPERM_OP_IDENTITY, 0};
    cupermTensorDescriptor_t D = {2, mD, e, NULL, CUPERM_R_32F, CUPERM_OP_IDENTITY, 0};
    cupermTensorDescriptor_t bad = {2, mBad, e, NULL, CUPERM_R_32F, CUPERM_OP_IDENTITY, 0};
    cupermContractionPlan_t plan;
    expect(cupermPlanContraction(handle, &plan, &A, &bad, &D, &D, CUPERM_COMPUTE_DEFAULT, CUPERM_PLAN_MODEL),
           CUPERM_STATUS_INVALID_VALUE, "appears only in");
    expect(cupermPlanContraction(NULL, &plan, &A, &B, &D, &D, CUPERM_COMPUTE_DEFAULT, CUPERM_PLAN_MODEL),
           CUPERM_STATUS_INVALID_VALUE, "handle is NULL");
    expect(cupermPlanContraction(handle, &plan, &A, &B, &D, &D, CUPERM_COMPUTE_DEFAULT, (cupermPlanMode_t)9),
           CUPERM_STATUS_INVALID_VALUE, "mode 9");
    expect(cupermPlanContractionAlgo(handle, &plan, &A, &B, &D, &D, CUPERM_COMPUTE_DEFAULT, CUPERM_PLAN_MODEL,
                                     (cupermContractionAlgo_t)7),
           CUPERM_STATUS_INVALID_VALUE, "algo 7");
    expect(cupermPlanContractionAlgo(handle, &plan, &A, &B, &D, &D, CUPERM_COMPUTE_32F_FAST_TF32, CUPERM_PLAN_MODEL,
                                     CUPERM_ALGO_GETT),
           CUPERM_STATUS_NOT_SUPPORTED, "not strict 32F");
    assert_null(plan);
    /* A TTGT plan: it has a workspace to be too small (model plans of this size are GETT, which has none). */
    assert_int_equal(cupermPlanContractionAlgo(handle, &plan, &A, &B, &D, &D, CUPERM_COMPUTE_DEFAULT,
                                               CUPERM_PLAN_MODEL, CUPERM_ALGO_TTGT),
                     CUPERM_STATUS_SUCCESS);
    float* buf;
    CHECK_CUDA(cudaMalloc((void**)&buf, 4 * 256 * sizeof(float)));
    float one = 1, zero = 0;
    float *a = buf, *b = buf + 256, *d = buf + 512;
    expect(cupermContract(plan, &one, a, b, &zero, d, a + 8, NULL, 0, 0), CUPERM_STATUS_INVALID_VALUE,
           "D overlaps A");
    expect(cupermContract(plan, &one, a, b, &zero, d, b + 255, NULL, 0, 0), CUPERM_STATUS_INVALID_VALUE,
           "D overlaps B");
    expect(cupermContract(plan, &one, a, b, &one, d + 4, d, NULL, 0, 0), CUPERM_STATUS_INVALID_VALUE,
           "C overlaps D without being D");
    expect(cupermContract(plan, &one, a, b, &one, NULL, d, NULL, 0, 0), CUPERM_STATUS_INVALID_VALUE,
           "C is NULL but beta is not zero");
    expect(cupermContract(plan, &one, a, b, &zero, d, d, buf, 16, 0), CUPERM_STATUS_INVALID_VALUE,
           "workspaceBytes is 16");
    expect(cupermContract(plan, NULL, a, b, &zero, d, d, NULL, 0, 0), CUPERM_STATUS_INVALID_VALUE,
           "alpha is NULL");
    /* beta == 0 with C NULL is fine. */
    assert_int_equal(cupermContract(plan, &one, a, b, &zero, NULL, d, NULL, 0, 0), CUPERM_STATUS_SUCCESS);
    CHECK_CUDA(cudaDeviceSynchronize());
    assert_int_equal(cupermContractionPlanDestroy(plan), CUPERM_STATUS_SUCCESS);
    expect(cupermContract(plan, &one, a, b, &zero, d, d, NULL, 0, 0), CUPERM_STATUS_INVALID_VALUE,
           "not a live contraction plan");
    cudaFree(buf);
}

/* Object lifetime: a destroyed plan's token stays dead even when a new plan is made (its
 * memory may be reused), a plan outlives its handle's cupermDestroy, and a host pointer is
 * rejected before anything is launched. */
static void test_lifetime_and_pointers(void** state)
{
    (void)state;
    const int32_t mA[2] = {'a', 'c'}, mB[2] = {'c', 'b'}, mD[2] = {'a', 'b'};
    const int64_t e[2] = {16, 16};
    cupermTensorDescriptor_t A = {2, mA, e, NULL, CUPERM_R_32F, CUPERM_OP_IDENTITY, 0};
    cupermTensorDescriptor_t B = {2, mB, e, NULL, CUPERM_R_32F, CUPERM_OP_IDENTITY, 0};
    cupermTensorDescriptor_t D = {2, mD, e, NULL, CUPERM_R_32F, CUPERM_OP_IDENTITY, 0};
    cupermHandle_t own;
    assert_int_equal(cupermCreate(&own), CUPERM_STATUS_SUCCESS);
    cupermContractionPlan_t old, fresh;
    assert_int_equal(cupermPlanContraction(own, &old, &A, &B, &D, &D, CUPERM_COMPUTE_DEFAULT, CUPERM_PLAN_MODEL),
                     CUPERM_STATUS_SUCCESS);
    assert_int_equal(cupermContractionPlanDestroy(old), CUPERM_STATUS_SUCCESS);
    assert_int_equal(cupermPlanContraction(own, &fresh, &A, &B, &D, &D, CUPERM_COMPUTE_DEFAULT, CUPERM_PLAN_MODEL),
                     CUPERM_STATUS_SUCCESS);
    assert_true(old != fresh);
    size_t bytes;
    expect(cupermContractionGetWorkspaceSize(old, &bytes), CUPERM_STATUS_INVALID_VALUE, "not a live contraction plan");
    expect(cupermContractionPlanDestroy(old), CUPERM_STATUS_INVALID_VALUE, "not a live contraction plan");
    /* The handle goes; the plan keeps what it uses. */
    assert_int_equal(cupermDestroy(own), CUPERM_STATUS_SUCCESS);
    expect(cupermDestroy(own), CUPERM_STATUS_INVALID_VALUE, "not a live cuperm handle");
    cupermContractionPlan_t none;
    expect(cupermPlanContraction(own, &none, &A, &B, &D, &D, CUPERM_COMPUTE_DEFAULT, CUPERM_PLAN_MODEL),
           CUPERM_STATUS_INVALID_VALUE, "not a live cuperm handle");
    float* buf;
    CHECK_CUDA(cudaMalloc((void**)&buf, 3 * 256 * sizeof(float)));
    CHECK_CUDA(cudaMemset(buf, 0, 3 * 256 * sizeof(float)));
    float one = 1, zero = 0;
    assert_int_equal(cupermContract(fresh, &one, buf, buf + 256, &zero, NULL, buf + 512, NULL, 0, 0),
                     CUPERM_STATUS_SUCCESS);
    CHECK_CUDA(cudaDeviceSynchronize());
    /* A host pointer or a misaligned one is refused, and the context survives. */
    static float host[256];
    expect(cupermContract(fresh, &one, host, buf + 256, &zero, NULL, buf + 512, NULL, 0, 0),
           CUPERM_STATUS_INVALID_VALUE, "A = ");
    expect(cupermContract(fresh, &one, buf, buf + 256, &zero, NULL, (char*)(buf + 512) + 2, NULL, 0, 0),
           CUPERM_STATUS_INVALID_VALUE, "not aligned");
    CHECK_CUDA(cudaDeviceSynchronize());
    assert_int_equal(cupermContractionPlanDestroy(fresh), CUPERM_STATUS_SUCCESS);
    cudaFree(buf);
}

static void test_info_and_cache(void** state)
{
    (void)state;
    /* TCCG 1 at a small size; planned twice (the second from the handle's cache), as TTGT (the
     * fields below describe its transposes; model plans of this size are GETT). */
    const int32_t mD[3] = {'a', 'b', 'c'}, mA[3] = {'b', 'd', 'a'}, mB[2] = {'d', 'c'};
    const int64_t eD[3] = {48, 40, 24}, eA[3] = {40, 32, 48}, eB[2] = {32, 24};
    cupermTensorDescriptor_t A = {3, mA, eA, NULL, CUPERM_R_32F, CUPERM_OP_IDENTITY, 0};
    cupermTensorDescriptor_t B = {2, mB, eB, NULL, CUPERM_R_32F, CUPERM_OP_IDENTITY, 0};
    cupermTensorDescriptor_t D = {3, mD, eD, NULL, CUPERM_R_32F, CUPERM_OP_IDENTITY, 0};
    cupermContractionPlan_t p1, p2;
    assert_int_equal(cupermPlanContractionAlgo(handle, &p1, &A, &B, &D, &D, CUPERM_COMPUTE_DEFAULT, CUPERM_PLAN_MODEL,
                                               CUPERM_ALGO_TTGT),
                     CUPERM_STATUS_SUCCESS);
    assert_int_equal(cupermPlanContractionAlgo(handle, &p2, &A, &B, &D, &D, CUPERM_COMPUTE_DEFAULT, CUPERM_PLAN_MODEL,
                                               CUPERM_ALGO_TTGT),
                     CUPERM_STATUS_SUCCESS);
    cupermContractionInfo_t i1, i2;
    assert_int_equal(cupermContractionPlanGetInfo(p1, &i1), CUPERM_STATUS_SUCCESS);
    assert_int_equal(cupermContractionPlanGetInfo(p2, &i2), CUPERM_STATUS_SUCCESS);
    printf("    %s\n", i1.description);
    /* Whatever layout won, it covers the whole contraction; something must be rearranged
     * (A's free modes are split by the contracted one in A and D's order differs). */
    assert_true((double)i1.m * i1.n * i1.k * i1.batch * i1.calls == 48.0 * 40 * 24 * 32);
    assert_int_equal(i1.k, 32);
    assert_true(i1.transposedA + i1.transposedB + i1.transposedD >= 1);
    assert_true(i1.flops == 2.0 * 48 * 40 * 24 * 32);
    assert_true(i1.predictedTransposeSeconds > 0 && i1.predictedGemmSeconds > 0);
    assert_int_equal(i1.transposedA, i2.transposedA);
    assert_int_equal(i1.calls, i2.calls);
    assert_string_equal(i1.description, i2.description);
    assert_int_equal(cupermContractionPlanDestroy(p1), CUPERM_STATUS_SUCCESS);
    assert_int_equal(cupermContractionPlanDestroy(p2), CUPERM_STATUS_SUCCESS);
}

/* One GEMM-shaped contraction of each floating type on handle h (made with CUPERM_LT_AFTER_RUNS
 * = ltAfter): the same plan runs `runs` times with 16-byte aligned operands (cublasGemmEx, then
 * the cuBLASLt algorithm from run ltAfter on) and with operands one element off (cublasGemmEx),
 * each run against a double-precision reference, D poisoned before it and its neighbours checked;
 * then the description (written at that first GetInfo) says the algorithm was chosen (`chosen`). */
/* Returns how many of the plans' descriptions name a measured cuBLASLt answer. */
static int lt_and_fallback_runs(cupermHandle_t h, cupermPlanMode_t mode, int runs, const char* chosen)
{
    int measuredAnswers = 0;
    enum { M = 37, N = 29, K = 23 };
    const int32_t mA[2] = {'m', 'k'}, mB[2] = {'k', 'n'}, mD[2] = {'m', 'n'};
    const int64_t eA[2] = {M, K}, eB[2] = {K, N}, eD[2] = {M, N};
    static const type_case ltTypes[] = {
        {CUPERM_R_32F, CUPERM_R_32F, CUPERM_COMPUTE_DEFAULT, 1e-5, "32F"},
        {CUPERM_R_64F, CUPERM_R_64F, CUPERM_COMPUTE_DEFAULT, 1e-12, "64F"},
        {CUPERM_R_16F, CUPERM_R_16F, CUPERM_COMPUTE_DEFAULT, 5e-3, "16F"},
        {CUPERM_C_32F, CUPERM_C_32F, CUPERM_COMPUTE_DEFAULT, 1e-5, "C32F"},
    };
    rng_t r = {4242};
    for (size_t t = 0; t < sizeof ltTypes / sizeof ltTypes[0]; ++t) {
        const type_case* tc = &ltTypes[t];
        cupermTensorDescriptor_t d[4] = {{2, mA, eA, NULL, tc->ab, CUPERM_OP_IDENTITY, 0},
                                         {2, mB, eB, NULL, tc->ab, CUPERM_OP_IDENTITY, 0},
                                         {2, mD, eD, NULL, tc->cd, CUPERM_OP_IDENTITY, 0},
                                         {2, mD, eD, NULL, tc->cd, CUPERM_OP_IDENTITY, 0}};
        cupermContractionPlan_t plan;
        assert_int_equal(cupermPlanContractionAlgo(h, &plan, &d[0], &d[1], &d[2], &d[3], tc->compute, mode,
                                                   CUPERM_ALGO_TTGT),
                         CUPERM_STATUS_SUCCESS);
        host_tensor h[3];
        for (int x = 0; x < 2; ++x) {
            host_alloc(&h[x], &d[x]);
            host_fill(&r, &h[x], tc->ab, 0);
        }
        host_alloc(&h[2], &d[3]);
        ctr_cplx* want = calloc((size_t)M * N, sizeof(ctr_cplx));
        ctr_ref_contract(&d[0], &d[1], &d[3], &d[3], h[0].values, h[1].values, NULL, 1.0, 0.0, want, NULL);
        size_t wsBytes = 0;
        assert_int_equal(cupermContractionGetWorkspaceSize(plan, &wsBytes), CUPERM_STATUS_SUCCESS);
        void* ws;
        CHECK_CUDA(cudaMalloc(&ws, wsBytes));
        const size_t ab = (size_t)h[0].elem, cd = (size_t)h[2].elem, pad = 64;
        for (int run = 0; run < 2 * runs; ++run) {
            const int shift = run / runs; /* elements off a 256-byte boundary */
            char* dev[3];
            const int64_t spans[3] = {h[0].span, h[1].span, h[2].span};
            for (int x = 0; x < 3; ++x) {
                const size_t elem = x < 2 ? ab : cd, bytes = (size_t)spans[x] * elem + 2 * pad;
                CHECK_CUDA(cudaMalloc((void**)&dev[x], bytes));
                CHECK_CUDA(cudaMemset(dev[x], POISON_BYTE, bytes));
                if (x < 2)
                    CHECK_CUDA(cudaMemcpy(dev[x] + pad + shift * elem, h[x].bytes, (size_t)spans[x] * elem,
                                          cudaMemcpyHostToDevice));
            }
            unsigned char one[16], zero[16];
            make_scalar(tc->cd, 1.0, one);
            make_scalar(tc->cd, 0.0, zero);
            char* D = dev[2] + pad + shift * cd;
            if (cupermContract(plan, one, dev[0] + pad + shift * ab, dev[1] + pad + shift * ab, zero, D, D, ws, wsBytes,
                               0) != CUPERM_STATUS_SUCCESS)
                fail_msg("%s shift %d: %s", tc->name, shift, cupermGetLastErrorMessage());
            const size_t outBytes = (size_t)M * N * cd + 2 * pad;
            unsigned char* got = malloc(outBytes);
            CHECK_CUDA(cudaMemcpy(got, dev[2], outBytes, cudaMemcpyDeviceToHost));
            for (size_t i = 0; i < pad + shift * cd; ++i) assert_int_equal(got[i], POISON_BYTE);
            for (size_t i = pad + (shift + (size_t)M * N) * cd; i < outBytes; ++i) assert_int_equal(got[i], POISON_BYTE);
            double num = 0, den = 0;
            for (int64_t i = 0; i < (int64_t)M * N; ++i) {
                double v[2];
                ref_load(tc->cd, got + pad + (shift + (size_t)i) * cd, v);
                num += pow(cabs(v[0] + I * v[1] - want[i]), 2);
                den += pow(cabs(want[i]), 2);
            }
            const double err = sqrt(num / den);
            if (!(err <= tc->tolerance))
                fail_msg("%s shift %d: relative error %.3g > %.3g", tc->name, shift, err, tc->tolerance);
            free(got);
            for (int x = 0; x < 3; ++x) cudaFree(dev[x]);
        }
        cudaFree(ws);
        free(want);
        for (int x = 0; x < 3; ++x) host_free(&h[x]);
        cupermContractionInfo_t info;
        assert_int_equal(cupermContractionPlanGetInfo(plan, &info), CUPERM_STATUS_SUCCESS);
        if (!strstr(info.description, chosen))
            fail_msg("%s: no cuBLASLt algorithm (\"%s\"): %s", tc->name, chosen, info.description);
        measuredAnswers += strstr(info.description, "measured fastest") != NULL;
        assert_int_equal(cupermContractionPlanDestroy(plan), CUPERM_STATUS_SUCCESS);
    }
    return measuredAnswers;
}

/* A handle made with environment variable name = value (NULL: unset), the variable restored after. */
static cupermHandle_t handle_with_env(const char* name, const char* value)
{
    const char* old = getenv(name);
    char saved[32] = "";
    if (old) snprintf(saved, sizeof saved, "%s", old);
    if (value) setenv(name, value, 1);
    else unsetenv(name);
    cupermHandle_t h = NULL;
    assert_int_equal(cupermCreate(&h), CUPERM_STATUS_SUCCESS);
    if (old) setenv(name, saved, 1);
    else unsetenv(name);
    return h;
}

/* A handle made with CUPERM_LT_AFTER_RUNS=value (NULL: unset). */
static cupermHandle_t handle_with_lt_after(const char* value) { return handle_with_env("CUPERM_LT_AFTER_RUNS", value); }

/* The algorithm chosen at planning (CUPERM_LT_AFTER_RUNS=0), and at a plan's third run. */
static void test_lt_and_fallback(void** state)
{
    (void)state;
    cupermHandle_t eager = handle_with_lt_after("0"), lazy = handle_with_lt_after("3");
    lt_and_fallback_runs(eager, CUPERM_PLAN_MODEL, 1, "its algorithm chosen at planning");
    lt_and_fallback_runs(lazy, CUPERM_PLAN_MODEL, 4,
                         "then on cuBLASLt with an algorithm chosen for the plan (chosen when");
    assert_int_equal(cupermDestroy(eager), CUPERM_STATUS_SUCCESS);
    assert_int_equal(cupermDestroy(lazy), CUPERM_STATUS_SUCCESS);
}

/* Every answer of cuBLASLt's heuristic that CUPERM_LT_ALGO can pick computes the same GEMM (an
 * answer past the heuristic's last is its first), and measured plans run the answer they timed
 * fastest from their first run: each run checked element by element, nothing written outside D. */
static void test_lt_answers(void** state)
{
    (void)state;
    for (int pick = 1; pick < 8; ++pick) {
        char v[8];
        snprintf(v, sizeof v, "%d", pick);
        setenv("CUPERM_LT_AFTER_RUNS", "0", 1);
        cupermHandle_t h = handle_with_env("CUPERM_LT_ALGO", v);
        unsetenv("CUPERM_LT_AFTER_RUNS");
        lt_and_fallback_runs(h, CUPERM_PLAN_MODEL, 1, "its algorithm chosen at planning");
        assert_int_equal(cupermDestroy(h), CUPERM_STATUS_SUCCESS);
    }
    cupermHandle_t h = handle_with_lt_after(NULL);
    const int measured = lt_and_fallback_runs(h, CUPERM_PLAN_MEASURE, 2, "GEMM on cu");
    printf("    measured plans naming a measured cuBLASLt answer: %d of 4 types\n", measured);
    assert_true(measured > 0); /* cuBLASLt ranks several algorithms for fp32 and fp16 GEMMs */
    assert_int_equal(cupermDestroy(h), CUPERM_STATUS_SUCCESS);
}

/* fp16 / bf16 contractions accumulate in fp32, split-K reductions included: every element of D
 * within 16 eps32 sqrt(K) sum|a b| + one ulp of the output type of a double reference. cuBLAS's
 * default may reduce in the output type (bf16 random contractions of 4096 elements missed this bound
 * on the H100 before the math mode was set; bench/results/small-contractions-h100/bf16-reductions/).
 * Long K over few outputs is where cuBLAS splits K; cuBLASLt (from the first run) and cublasGemmEx. */
static void test_half_types_accumulate_in_fp32(void** state)
{
    (void)state;
    static const struct { int64_t m, n, k; } shapes[] = {{4, 1024, 1024}, {6, 101, 10201}, {2, 15, 69904}};
    const cupermDataType_t halfTypes[2] = {CUPERM_R_16BF, CUPERM_R_16F};
    const int32_t mA[2] = {'c', 'a'}, mB[2] = {'c', 'b'}, mD[2] = {'a', 'b'}; /* D = A^T B */
    rng_t r = {20261124};
    for (int h = 0; h < 2; ++h) {
        const char* lts[2] = {NULL, "0"}; /* cublasGemmEx first; cuBLASLt chosen at planning */
        for (int l = 0; l < 2; ++l) {
            cupermHandle_t hd = handle_with_lt_after(lts[l]);
            for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; ++s) {
                const int64_t M = shapes[s].m, N = shapes[s].n, K = shapes[s].k;
                const int64_t eA[2] = {K, M}, eB[2] = {K, N}, eD[2] = {M, N};
                cupermTensorDescriptor_t A = {2, mA, eA, NULL, halfTypes[h], CUPERM_OP_IDENTITY, 0};
                cupermTensorDescriptor_t B = {2, mB, eB, NULL, halfTypes[h], CUPERM_OP_IDENTITY, 0};
                cupermTensorDescriptor_t D = {2, mD, eD, NULL, halfTypes[h], CUPERM_OP_IDENTITY, 0};
                cupermContractionPlan_t plan;
                assert_int_equal(cupermPlanContractionAlgo(hd, &plan, &A, &B, &D, &D, CUPERM_COMPUTE_DEFAULT,
                                                           CUPERM_PLAN_MODEL, CUPERM_ALGO_TTGT), CUPERM_STATUS_SUCCESS);
                const size_t es = 2;
                unsigned char* ha = malloc((size_t)(K * M) * es);
                unsigned char* hb = malloc((size_t)(K * N) * es);
                unsigned char* hdst = malloc((size_t)(M * N) * es);
                rng_fill(&r, halfTypes[h], K * M, ha);
                rng_fill(&r, halfTypes[h], K * N, hb);
                void *da, *db, *dd, *ws = NULL;
                size_t wsBytes;
                CHECK_CUDA(cudaMalloc(&da, (size_t)(K * M) * es));
                CHECK_CUDA(cudaMalloc(&db, (size_t)(K * N) * es));
                CHECK_CUDA(cudaMalloc(&dd, (size_t)(M * N) * es));
                CHECK_CUDA(cudaMemcpy(da, ha, (size_t)(K * M) * es, cudaMemcpyHostToDevice));
                CHECK_CUDA(cudaMemcpy(db, hb, (size_t)(K * N) * es, cudaMemcpyHostToDevice));
                CHECK_CUDA(cudaMemset(dd, POISON_BYTE, (size_t)(M * N) * es));
                assert_int_equal(cupermContractionGetWorkspaceSize(plan, &wsBytes), CUPERM_STATUS_SUCCESS);
                if (wsBytes) CHECK_CUDA(cudaMalloc(&ws, wsBytes));
                const float one = 1, zero = 0;
                assert_int_equal(cupermContract(plan, &one, da, db, &zero, dd, dd, ws, wsBytes, 0), CUPERM_STATUS_SUCCESS);
                CHECK_CUDA(cudaMemcpy(hdst, dd, (size_t)(M * N) * es, cudaMemcpyDeviceToHost));
                const double ulp = halfTypes[h] == CUPERM_R_16BF ? 0x1p-8 : 0x1p-11;
                double worst = 0;
                for (int64_t i = 0; i < M; ++i)
                    for (int64_t j = 0; j < N; ++j) {
                        double want = 0, abssum = 0, v[2];
                        for (int64_t c = 0; c < K; ++c) {
                            double x[2], y[2];
                            ref_load(halfTypes[h], ha + (size_t)(c + K * i) * es, x);
                            ref_load(halfTypes[h], hb + (size_t)(c + K * j) * es, y);
                            want += x[0] * y[0];
                            abssum += fabs(x[0] * y[0]);
                        }
                        ref_load(halfTypes[h], hdst + (size_t)(i + M * j) * es, v);
                        const double bound = 16 * 0x1p-24 * sqrt((double)K) * abssum + ulp * fabs(want) + 1e-30;
                        const double e = fabs(v[0] - want) / bound;
                        if (!(e <= worst)) worst = e; /* NaN sticks */
                    }
                printf("    %s %lldx%lldx%lld (%s): worst error %.3g of the fp32-accumulation bound\n",
                       halfTypes[h] == CUPERM_R_16BF ? "bf16" : "f16", (long long)M, (long long)N, (long long)K,
                       l ? "cuBLASLt" : "cublasGemmEx", worst);
                if (!(worst <= 1.0)) fail_msg("accumulation beyond fp32's bound (%.3g)", worst);
                cudaFree(da);
                cudaFree(db);
                cudaFree(dd);
                if (ws) cudaFree(ws);
                free(ha);
                free(hb);
                free(hdst);
                assert_int_equal(cupermContractionPlanDestroy(plan), CUPERM_STATUS_SUCCESS);
            }
            assert_int_equal(cupermDestroy(hd), CUPERM_STATUS_SUCCESS);
        }
    }
}

/* By default a plan runs cublasGemmEx until its CTR_LT_AFTER_RUNS-th run (256): planned and run
 * once, its description says so. */
static void test_lt_not_chosen_at_first_run(void** state)
{
    (void)state;
    cupermHandle_t h = handle_with_lt_after(NULL);
    lt_and_fallback_runs(h, CUPERM_PLAN_MODEL, 1, "for the first 255 runs, then on cuBLASLt with an algorithm chosen for the plan "
                               "(not yet chosen when");
    assert_int_equal(cupermDestroy(h), CUPERM_STATUS_SUCCESS);
}

/* A measured plan is cached apart from the model's: planned again it comes from the cache
 * (same layout, same measured time); a model plan of the same problem stays unmeasured. */
static void test_measure_cache(void** state)
{
    (void)state;
    const int32_t mD[3] = {'a', 'b', 'c'}, mA[3] = {'d', 'c', 'a'}, mB[2] = {'b', 'd'};
    const int64_t eD[3] = {312, 24, 296}, eA[3] = {312, 296, 312}, eB[2] = {24, 312};
    cupermTensorDescriptor_t A = {3, mA, eA, NULL, CUPERM_R_16F, CUPERM_OP_IDENTITY, 0};
    cupermTensorDescriptor_t B = {2, mB, eB, NULL, CUPERM_R_16F, CUPERM_OP_IDENTITY, 0};
    cupermTensorDescriptor_t D = {3, mD, eD, NULL, CUPERM_R_16F, CUPERM_OP_IDENTITY, 0};
    cupermContractionPlan_t p1, p2, p3;
    assert_int_equal(cupermPlanContraction(handle, &p1, &A, &B, &D, &D, CUPERM_COMPUTE_DEFAULT,
                                           CUPERM_PLAN_MEASURE), CUPERM_STATUS_SUCCESS);
    assert_int_equal(cupermPlanContraction(handle, &p2, &A, &B, &D, &D, CUPERM_COMPUTE_DEFAULT,
                                           CUPERM_PLAN_MEASURE), CUPERM_STATUS_SUCCESS);
    assert_int_equal(cupermPlanContraction(handle, &p3, &A, &B, &D, &D, CUPERM_COMPUTE_DEFAULT,
                                           CUPERM_PLAN_MODEL), CUPERM_STATUS_SUCCESS);
    cupermContractionInfo_t i1, i2, i3;
    assert_int_equal(cupermContractionPlanGetInfo(p1, &i1), CUPERM_STATUS_SUCCESS);
    assert_int_equal(cupermContractionPlanGetInfo(p2, &i2), CUPERM_STATUS_SUCCESS);
    assert_int_equal(cupermContractionPlanGetInfo(p3, &i3), CUPERM_STATUS_SUCCESS);
    printf("    measured %.2f us: %s\n    model: %s\n", 1e6 * i1.measuredSeconds, i1.description, i3.description);
    assert_int_equal(i1.measured, 1);
    assert_int_equal(i2.measured, 1);
    assert_int_equal(i3.measured, 0);
    assert_true(i1.measuredSeconds > 0 && i1.measuredSeconds == i2.measuredSeconds);
    assert_string_equal(i1.description, i2.description);
    assert_true(i3.measuredSeconds == 0);
    assert_int_equal(cupermContractionPlanDestroy(p1), CUPERM_STATUS_SUCCESS);
    assert_int_equal(cupermContractionPlanDestroy(p2), CUPERM_STATUS_SUCCESS);
    assert_int_equal(cupermContractionPlanDestroy(p3), CUPERM_STATUS_SUCCESS);
}

/* Model planning picks GETT for a small contraction whose TTGT plan would transpose (one kernel
 * launch against transposes and a cuBLAS call: random-contractions --volume 4096 case 3) and TTGT
 * for a large GEMM (beyond the GETT model's one wave), in fp16 and fp32. */
static void test_model_takes_gett_when_small(void** state)
{
    (void)state;
    /* D[b,f,d,e,c,a] = sum_g A[a,g,b] B[d,g,c,f,e], every extent 4 but b = 2. */
    const int32_t sA[3] = {'a', 'g', 'b'}, sB[5] = {'d', 'g', 'c', 'f', 'e'}, sD[6] = {'b', 'f', 'd', 'e', 'c', 'a'};
    const int64_t xA[3] = {4, 4, 2}, xB[5] = {4, 4, 4, 4, 4}, xD[6] = {2, 4, 4, 4, 4, 4};
    const int32_t gA[2] = {'m', 'k'}, gB[2] = {'k', 'n'}, gD[2] = {'m', 'n'};
    const int64_t yA[2] = {4096, 4096}, yB[2] = {4096, 4096}, yD[2] = {4096, 4096};
    const cupermDataType_t types[2] = {CUPERM_R_16F, CUPERM_R_32F};
    for (int t = 0; t < 2; ++t)
        for (int large = 0; large < 2; ++large) {
            cupermTensorDescriptor_t A = {large ? 2 : 3, large ? gA : sA, large ? yA : xA, NULL, types[t],
                                          CUPERM_OP_IDENTITY, 0};
            cupermTensorDescriptor_t B = {large ? 2 : 5, large ? gB : sB, large ? yB : xB, NULL, types[t],
                                          CUPERM_OP_IDENTITY, 0};
            cupermTensorDescriptor_t D = {large ? 2 : 6, large ? gD : sD, large ? yD : xD, NULL, types[t],
                                          CUPERM_OP_IDENTITY, 0};
            cupermContractionPlan_t plan;
            assert_int_equal(cupermPlanContraction(handle, &plan, &A, &B, &D, &D, CUPERM_COMPUTE_DEFAULT,
                                                   CUPERM_PLAN_MODEL), CUPERM_STATUS_SUCCESS);
            cupermContractionInfo_t info;
            assert_int_equal(cupermContractionPlanGetInfo(plan, &info), CUPERM_STATUS_SUCCESS);
            printf("    %s %s: %s\n", types[t] == CUPERM_R_16F ? "f16" : "f32", large ? "4096^3 GEMM" : "small",
                   info.description);
            assert_int_equal(info.kind, large ? CUPERM_CONTRACTION_TTGT : CUPERM_CONTRACTION_GETT);
            assert_int_equal(cupermContractionPlanDestroy(plan), CUPERM_STATUS_SUCCESS);
        }
}

static int setup(void** state)
{
    (void)state;
    return cupermCreate(&handle) == CUPERM_STATUS_SUCCESS ? 0 : -1;
}

static int teardown(void** state)
{
    (void)state;
    return cupermDestroy(handle) == CUPERM_STATUS_SUCCESS ? 0 : -1;
}

int main(void)
{
    require_gpu_or_skip("test_ctr_gpu");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_lifetime_and_pointers),
        cmocka_unit_test(test_info_and_cache),
        cmocka_unit_test(test_lt_and_fallback),
        cmocka_unit_test(test_lt_not_chosen_at_first_run),
        cmocka_unit_test(test_lt_answers),
        cmocka_unit_test(test_half_types_accumulate_in_fp32),
        cmocka_unit_test(test_model_takes_gett_when_small),
        cmocka_unit_test(test_padded_gemms),
        cmocka_unit_test(test_random_small),
        cmocka_unit_test(test_random_gemm_sized),
        cmocka_unit_test(test_random_measured),
        cmocka_unit_test(test_random_algos),
        cmocka_unit_test(test_measure_cache),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
