/*
 * The contraction suites of cuperm-bench. Per case and plan mode (--mode model,
 * measure or both; one CSV per mode, both adds the model plan's time over the
 * measured plan's): cupermContract (alpha = 1, beta = 0, dense column-major
 * tensors) timed with CUDA events
 * (warm-up, median of batches, D poisoned before each batch), checked first:
 * D poisoned, every element must be written, sampled elements against a
 * double-precision CPU dot product. Beside it, timed the same way on the same
 * buffers: the plain cuBLAS GEMM of the same m, n, k, batch ("NN", dense), and
 * the GEMM with the plan's own flags (the GEMM part of the time split; the rest
 * is the transposes). Roofline: peak = a large cuBLAS GEMM of the type, bandwidth
 * = a device-to-device copy (2 x bytes / time), both measured in this run. With
 * --compare cutensor[-jit], cuTENSOR 2's default plan of the case (cutensor_dl.h) runs on
 * the same A and B into its own D, checked element by element against cuperm's D, and is
 * timed the same way.
 */
#include "contraction_suites.h"

#include <cublas_v2.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "agreement.h"
#include "contraction_cases.h"
#include "cutensor_dl.h"
#include "gen.h"
#include "device.h"
#include "support/dtype.h"
#include "support/poison.h"
#include "support/timer.h"

typedef struct {
    const dtype_info* dt;
    cupermDataType_t ab, cd;
    cudaDataType_t blasType;
    cublasComputeType_t blasCompute;
    cupermComputeType_t compute; /* cuperm's compute type of the plan */
    double accEps, outEps; /* accumulation and output rounding, for the sampled check */
} ctr_type;

/* tf32: f32 data on TF32 tensor cores (operands rounded to 10-bit mantissas, 2^-11 each). */
static int type_for(const dtype_info* dt, int tf32, ctr_type* t)
{
    memset(t, 0, sizeof *t);
    t->dt = dt;
    t->ab = t->cd = dt->type;
    t->blasType = (cudaDataType_t)dt->type;
    t->compute = CUPERM_COMPUTE_DEFAULT;
    if (tf32) {
        if (dt->type != CUPERM_R_32F) return -1;
        t->compute = CUPERM_COMPUTE_32F_FAST_TF32;
        t->blasCompute = CUBLAS_COMPUTE_32F_FAST_TF32;
        t->accEps = 4.9e-4;
        t->outEps = 6e-8;
        return 0;
    }
    switch (dt->type) {
    case CUPERM_R_32F: t->blasCompute = CUBLAS_COMPUTE_32F; t->accEps = 6e-8; t->outEps = 6e-8; return 0;
    case CUPERM_R_64F: t->blasCompute = CUBLAS_COMPUTE_64F; t->accEps = 1.2e-16; t->outEps = 1.2e-16; return 0;
    case CUPERM_R_16F: t->blasCompute = CUBLAS_COMPUTE_32F; t->accEps = 6e-8; t->outEps = 4.9e-4; return 0;
    case CUPERM_R_16BF: t->blasCompute = CUBLAS_COMPUTE_32F; t->accEps = 6e-8; t->outEps = 3.9e-3; return 0;
    default: return -1;
    }
}

/* ---- timing ------------------------------------------------------------------------ */

/* Median milliseconds of one run (support/timer.h): two warm-up runs, then 7..101 batches
 * of runs lasting >= 1 ms within about targetMs, `poison` (may be NULL) called before each
 * batch outside the timed region; -1 on error. */
static double time_median(timer_run_fn run, void* ctx, void (*poison)(void*, cudaStream_t), cudaStream_t s,
                          double targetMs)
{
    const timer_options o = {2, 1.0, targetMs, 7, 101, poison};
    double ms;
    timer_median_ms(run, ctx, s, &o, &ms);
    return ms;
}

/* ---- runs -------------------------------------------------------------------------- */

typedef struct {
    cublasHandle_t blas;
    const ctr_type* type;
    cublasOperation_t opA, opB;
    int64_t m, n, k, batch, lda, ldb;
    const void *a, *b;
    void* c;
    int shareA, shareB; /* batch stride 0 (the buffer holds one matrix per batch of the other) */
} gemm_run;

static int run_gemm(void* vctx, cudaStream_t s)
{
    gemm_run* g = vctx;
    const float one32 = 1, zero32 = 0;
    const double one64 = 1, zero64 = 0;
    const int f64 = g->type->blasCompute == CUBLAS_COMPUTE_64F;
    const void* one = f64 ? (const void*)&one64 : (const void*)&one32;
    const void* zero = f64 ? (const void*)&zero64 : (const void*)&zero32;
    cublasSetStream(g->blas, s);
    cublasStatus_t st;
    if (g->batch == 1)
        st = cublasGemmEx_64(g->blas, g->opA, g->opB, g->m, g->n, g->k, one, g->a, g->type->blasType, g->lda,
                             g->b, g->type->blasType, g->ldb, zero, g->c, g->type->blasType, g->m,
                             g->type->blasCompute, CUBLAS_GEMM_DEFAULT);
    else
        st = cublasGemmStridedBatchedEx_64(g->blas, g->opA, g->opB, g->m, g->n, g->k, one, g->a,
                                           g->type->blasType, g->lda, g->shareA ? 0 : g->m * g->k, g->b,
                                           g->type->blasType, g->ldb, g->shareB ? 0 : g->k * g->n, zero, g->c,
                                           g->type->blasType, g->m,
                                           g->m * g->n, g->batch, g->type->blasCompute, CUBLAS_GEMM_DEFAULT);
    return st == CUBLAS_STATUS_SUCCESS ? 0 : -1;
}

typedef struct {
    cupermContractionPlan_t plan;
    const void *a, *b;
    void* d;
    size_t dBytes;
    void* ws;
    size_t wsBytes;
    unsigned char alpha[16], beta[16];
} contract_run;

static int run_contract(void* vctx, cudaStream_t s)
{
    contract_run* r = vctx;
    return cupermContract(r->plan, r->alpha, r->a, r->b, r->beta, r->d, r->d, r->ws, r->wsBytes, s) ==
                   CUPERM_STATUS_SUCCESS
               ? 0
               : -1;
}

static void poison_d(void* vctx, cudaStream_t s)
{
    contract_run* r = vctx;
    poison_device(r->d, r->dBytes, s);
}

typedef struct {
    void *dst, *src;
    size_t bytes;
} copy_run;

static int run_copy(void* vctx, cudaStream_t s)
{
    copy_run* c = vctx;
    return cudaMemcpyAsync(c->dst, c->src, c->bytes, cudaMemcpyDeviceToDevice, s) == cudaSuccess ? 0 : -1;
}

/* ---- the roofline ------------------------------------------------------------------ */

typedef struct {
    double peakFlops, bandwidth; /* flop/s, byte/s */
} roofline;

static int measure_roofline(cublasHandle_t blas, const ctr_type* t, cudaStream_t s, roofline* r)
{
    const int64_t n = 8192;
    const size_t bytes = (size_t)(n * n) * t->dt->size;
    void *a = NULL, *b = NULL, *c = NULL;
    if (cudaMalloc(&a, bytes) || cudaMalloc(&b, bytes) || cudaMalloc(&c, bytes)) return -1;
    bench_ctr_fill(a, n * n, t->ab, 11, s);
    bench_ctr_fill(b, n * n, t->ab, 12, s);
    gemm_run g = {blas, t, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, 1, n, n, a, b, c, 0, 0};
    const double gemmMs = time_median(run_gemm, &g, NULL, s, 300);
    cudaFree(a);
    cudaFree(b);
    cudaFree(c);
    const size_t copyBytes = (size_t)1 << 30;
    void *x = NULL, *y = NULL;
    if (cudaMalloc(&x, copyBytes) || cudaMalloc(&y, copyBytes)) return -1;
    cudaMemsetAsync(x, 1, copyBytes, s);
    copy_run cp = {y, x, copyBytes};
    const double copyMs = time_median(run_copy, &cp, NULL, s, 300);
    cudaFree(x);
    cudaFree(y);
    if (gemmMs <= 0 || copyMs <= 0) return -1;
    r->peakFlops = 2.0 * (double)n * (double)n * (double)n / (gemmMs * 1e-3);
    r->bandwidth = 2.0 * (double)copyBytes / (copyMs * 1e-3);
    return 0;
}

/* ---- checking ------------------------------------------------------------------------ */

static int64_t dense_stride(const bench_ctr_modes* md, int t, int32_t label, int64_t* extent)
{
    int64_t s = 1;
    for (int i = 0; i < md->rank[t]; ++i) {
        if (md->modes[t][i] == label) {
            *extent = md->extents[t][i];
            return s;
        }
        s *= md->extents[t][i];
    }
    return 0;
}

/* Every element of D written (no poison left); `samples` elements within the bound of a
 * double-precision dot product. Returns the worst error relative to the bound (<= 1 passes). */
#define BENCH_OP_PARAM 0.1 /* leaky_relu's slope, elu's alpha under --ops */

/* op(x) in double, as the library defines it (real types). */
static double apply_op(cupermOperator_t op, double x)
{
    switch (op) {
    case CUPERM_OP_NEGATE: return -x;
    case CUPERM_OP_ABS: return fabs(x);
    case CUPERM_OP_RELU: return x > 0 ? x : 0;
    case CUPERM_OP_LEAKY_RELU: return x > 0 ? x : BENCH_OP_PARAM * x;
    case CUPERM_OP_ELU: return x > 0 ? x : BENCH_OP_PARAM * expm1(x);
    case CUPERM_OP_SIGMOID: return 1 / (1 + exp(-x));
    case CUPERM_OP_TANH: return tanh(x);
    case CUPERM_OP_EXP: return exp(x);
    case CUPERM_OP_SQRT: return sqrt(x);
    default: return x;
    }
}

/* Whether a real type's operator folds into alpha / beta (or is none): no rounding of its own. */
static int folds(cupermOperator_t op)
{
    return op == CUPERM_OP_IDENTITY || op == CUPERM_OP_NEGATE || op == CUPERM_OP_CONJ;
}

static double check(const bench_ctr_case* c, const ctr_type* t, const cupermOperator_t ops[3], const void* a,
                    const void* b, const void* d, int64_t volD, int samples, uint64_t seed, int64_t* unwritten)
{
    bench_ctr_modes md;
    bench_ctr_modes_of(c, &md);
    *unwritten = 0;
    for (int64_t i = 0; i < volD; ++i)
        if (isnan(bench_value(t->cd, d, i))) ++*unwritten;
    /* Contracted labels and their strides in A and B. */
    int32_t kl[26];
    int64_t ke[26], ka[26], kb[26];
    int nk = 0;
    for (int i = 0; i < md.rank[0]; ++i) {
        int64_t e = 0, dummy;
        if (dense_stride(&md, 3, md.modes[0][i], &dummy)) continue;
        kl[nk] = md.modes[0][i];
        ka[nk] = dense_stride(&md, 0, kl[nk], &e);
        kb[nk] = dense_stride(&md, 1, kl[nk], &e);
        ke[nk] = e;
        ++nk;
    }
    int64_t K = 1;
    for (int i = 0; i < nk; ++i) K *= ke[i];
    double worst = 0;
    uint64_t s = seed;
    for (int smp = 0; smp < samples; ++smp) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        const int64_t di = (int64_t)((s >> 11) % (uint64_t)volD);
        /* A and B offsets of D's index. */
        int64_t rem = di, offA = 0, offB = 0;
        for (int i = 0; i < md.rank[3]; ++i) {
            const int64_t x = rem % md.extents[3][i];
            rem /= md.extents[3][i];
            int64_t e;
            offA += x * dense_stride(&md, 0, md.modes[3][i], &e);
            offB += x * dense_stride(&md, 1, md.modes[3][i], &e);
        }
        double sum = 0, abssum = 0;
        int64_t idx[26] = {0};
        for (int64_t kk = 0; kk < K; ++kk) {
            int64_t oa = offA, ob = offB;
            for (int i = 0; i < nk; ++i) {
                oa += idx[i] * ka[i];
                ob += idx[i] * kb[i];
            }
            const double p = apply_op(ops[0], bench_value(t->ab, a, oa)) * apply_op(ops[1], bench_value(t->ab, b, ob));
            sum += p;
            abssum += fabs(p);
            for (int i = 0; i < nk && ++idx[i] == ke[i]; ++i) idx[i] = 0;
        }
        /* opD of the bench's set is 1-Lipschitz or smaller except exp (not offered for D here).
         * Operators that do not fold into the scalars round their results to the data type
         * (op(A), op(B) before the products: 2 roundings per product; TTGT's GEMM writes D before
         * its opD pass: one rounding of the sum), which the bound takes from outEps (A, B and D
         * share the type here; with TF32, accEps covers the inputs). */
        const double got = bench_value(t->cd, d, di), want = apply_op(ops[2], sum);
        const int inOps = !folds(ops[0]) || !folds(ops[1]), outOp = !folds(ops[2]);
        const double bound = 16.0 * t->accEps * sqrt((double)K) * abssum + 2.0 * t->outEps * fabs(want) +
                             (inOps ? 2.0 * t->outEps * abssum : 0.0) + (outOp ? t->outEps * fabs(sum) : 0.0) + 1e-30;
        const double r = fabs(got - want) / bound;
        if (!(r <= worst)) worst = isnan(r) ? INFINITY : r;
    }
    return worst;
}

/* ---- one case ------------------------------------------------------------------------- */

typedef struct {
    double ms, gemmMs, plainMs, flops, bytes, eff, plainEff, check;
    double planMs;         /* cupermPlanContraction's time (measure mode: the timing of candidates) */
    double cutensorMs;     /* --compare: cuTENSOR's time (0: not run, -1: it failed), */
    double cutensorPlanMs; /* its planning time, */
    double cutensorCheck;  /* and its D against cuperm's: max |difference| / max |cuperm's D| over
                              the tolerance (<= 1 passes) */
    double modelOverMeas;  /* --mode both: model plan's time / measured plan's (0 otherwise) */
    int64_t unwritten;
    cupermContractionInfo_t info; /* its description pointer dies with the plan: */
    char description[640];        /* the copy printed */
    int64_t m, n, k, batch;
    gemm_run own;                 /* the plan's own GEMM as timed (gemm_ms): held-out data for the GEMM model */
    const char* skipped;
} case_result;

/* The plan modes a run compares: index 0 model, 1 measure. */
static const cupermPlanMode_t kModes[2] = {CUPERM_PLAN_MODEL, CUPERM_PLAN_MEASURE};
static const char* const kModeNames[2] = {"model", "measure"};

static int mode_wanted(const bench_options* opt, int mi)
{
    return (opt->mode & (mi == 0 ? BENCH_MODE_HEURISTIC : BENCH_MODE_MEASURE)) != 0;
}

static int64_t volume_of(const bench_ctr_modes* md, int t)
{
    int64_t v = 1;
    for (int i = 0; i < md->rank[t]; ++i) v *= md->extents[t][i];
    return v;
}

typedef struct {
    bench_ctr_modes md;
    cupermTensorDescriptor_t desc[4];
    int64_t vol[3];
    void* buf[3];
} case_data;

typedef struct {
    bench_cutensor_plan* plan;
    const void *a, *b;
    void* d;
    size_t dBytes;
    void* ws;
    uint64_t wsBytes;
} cutensor_run;

static int run_cutensor(void* vctx, cudaStream_t s)
{
    cutensor_run* r = vctx;
    return bench_cutensor_contract(r->plan, r->a, r->b, r->d, r->ws, r->wsBytes, s);
}

static void poison_cutensor_d(void* vctx, cudaStream_t s)
{
    cutensor_run* r = vctx;
    poison_device(r->d, r->dBytes, s);
}

/* cuTENSOR's default plan of the case on the same A and B, into its own D: checked against
 * cuperm's D (cd->buf[2] after cuperm's timed runs), then timed. Fills r's cutensor fields; a cuTENSOR
 * failure is reported and leaves cutensorMs -1 (it is not cuperm's failure). */
static void compare_cutensor(bench_cutensor* ct, const ctr_type* t, const bench_ctr_case* c, const bench_options* opt,
                             cudaStream_t s, const case_data* cd, case_result* r)
{
    cutensor_run run = {NULL, cd->buf[0], cd->buf[1], NULL, (size_t)cd->vol[2] * t->dt->size, NULL, 0};
    char err[512];
    void *mine = NULL, *theirs = NULL;
    r->cutensorMs = -1;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    if (bench_cutensor_plan_create(ct, cd->desc, &run.plan, &run.wsBytes, err, sizeof err)) {
        fprintf(stderr, "case %d: %s\n", c->id, err);
        return;
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    r->cutensorPlanMs = 1e3 * (double)(t1.tv_sec - t0.tv_sec) + 1e-6 * (double)(t1.tv_nsec - t0.tv_nsec);
    if (cudaMalloc(&run.d, run.dBytes) != cudaSuccess ||
        (run.wsBytes && cudaMalloc(&run.ws, run.wsBytes) != cudaSuccess)) {
        cudaGetLastError();
        fprintf(stderr, "case %d: cuTENSOR: out of device memory\n", c->id);
        goto done;
    }
    poison_cutensor_d(&run, s);
    if (run_cutensor(&run, s) || cudaStreamSynchronize(s) != cudaSuccess) {
        fprintf(stderr, "case %d: cutensorContract failed\n", c->id);
        goto done;
    }
    mine = malloc(run.dBytes);
    theirs = malloc(run.dBytes);
    if (!mine || !theirs) goto done;
    cudaMemcpy(mine, cd->buf[2], run.dBytes, cudaMemcpyDeviceToHost);
    cudaMemcpy(theirs, run.d, run.dBytes, cudaMemcpyDeviceToHost);
    r->cutensorCheck = bench_agreement(t->cd, mine, theirs, cd->vol[2], bench_ctr_flops(c) / (2.0 * (double)cd->vol[2]),
                                       t->accEps, t->outEps);
    r->cutensorMs = time_median(run_cutensor, &run, poison_cutensor_d, s, opt->target_ms);
done:
    free(mine);
    free(theirs);
    cudaFree(run.d);
    cudaFree(run.ws);
    bench_cutensor_plan_destroy(run.plan);
}

/* One plan mode on the case's buffers: plan, check, time; the plan's own GEMM timed beside it; with ct,
 * cuTENSOR's plan of the case checked against cuperm's D and timed (compare_cutensor). */
static int run_mode(cupermHandle_t h, cublasHandle_t blas, bench_cutensor* ct, const ctr_type* t,
                    const roofline* roof, const bench_ctr_case* c, const bench_options* opt, cudaStream_t s,
                    const case_data* cd, cupermPlanMode_t mode, double plainMs, case_result* r)
{
    contract_run run;
    memset(&run, 0, sizeof run);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    const cupermStatus_t planned = cupermPlanContractionAlgo(h, &run.plan, &cd->desc[0], &cd->desc[1], &cd->desc[2],
                                                             &cd->desc[3], t->compute, mode, opt->algo);
    if (planned == CUPERM_STATUS_NOT_SUPPORTED && opt->algo != CUPERM_ALGO_DEFAULT) {
        r->skipped = "the algorithm cannot run it"; /* --algo gett on a problem GETT does not take */
        fprintf(stderr, "case %d: skipped: %s\n", c->id, cupermGetLastErrorMessage());
        return 0;
    }
    if (planned != CUPERM_STATUS_SUCCESS) {
        fprintf(stderr, "case %d: plan: %s\n", c->id, cupermGetLastErrorMessage());
        return -1;
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    r->planMs = 1e3 * (double)(t1.tv_sec - t0.tv_sec) + 1e-6 * (double)(t1.tv_nsec - t0.tv_nsec);
    cupermContractionPlanGetInfo(run.plan, &r->info);
    snprintf(r->description, sizeof r->description, "%s", r->info.description ? r->info.description : "");
    r->info.description = NULL;
    cupermContractionGetWorkspaceSize(run.plan, &run.wsBytes);
    const int64_t* vol = cd->vol;
    if (run.wsBytes && cudaMalloc(&run.ws, run.wsBytes) != cudaSuccess) { /* GETT plans need none */
        cudaGetLastError();
        r->skipped = "out of memory";
        cupermContractionPlanDestroy(run.plan);
        return 0;
    }
    run.a = cd->buf[0];
    run.b = cd->buf[1];
    run.d = cd->buf[2];
    run.dBytes = (size_t)vol[2] * t->dt->size;
    dtype_scalar(t->dt->type, 1.0, run.alpha);
    dtype_scalar(t->dt->type, 0.0, run.beta);
    int status = 0;
    r->check = -1;
    if (opt->verify) {
        poison_d(&run, s);
        if (run_contract(&run, s)) {
            fprintf(stderr, "case %d: cupermContract: %s\n", c->id, cupermGetLastErrorMessage());
            status = -1;
            goto done;
        }
        cudaStreamSynchronize(s);
        void* host[3];
        for (int i = 0; i < 3; ++i) {
            host[i] = malloc((size_t)vol[i] * t->dt->size);
            cudaMemcpy(host[i], cd->buf[i], (size_t)vol[i] * t->dt->size, cudaMemcpyDeviceToHost);
        }
        /* Each sample is a CPU dot product over all contracted modes: at most ~3e8 terms in all. */
        const double kTerms = (double)vol[0] * (double)vol[1] / (double)vol[2];
        int samples = (int)(3e8 / (kTerms > 1 ? kTerms : 1));
        samples = samples < 4 ? 4 : samples > 64 ? 64 : samples;
        r->check = check(c, t, opt->ops, host[0], host[1], host[2], vol[2], samples, (uint64_t)c->id, &r->unwritten);
        for (int i = 0; i < 3; ++i) free(host[i]);
    }
    r->ms = time_median(run_contract, &run, poison_d, s, opt->target_ms);
    /* D holds the last timed run's result until the plan's own GEMM below overwrites it. */
    if (ct) compare_cutensor(ct, t, c, opt, s, cd, r);
    bench_ctr_gemm_shape(c, &r->m, &r->n, &r->k, &r->batch);
    r->plainMs = plainMs;
    /* The plan's own GEMM: its flags and operand order, dense leading dimensions. Looped modes
     * run as one pointer-array batch of calls x batch entries: timed here as the same number
     * of dense strided entries. */
    const cupermContractionInfo_t* in = &r->info;
    gemm_run own = {blas, t, CUBLAS_OP_N, CUBLAS_OP_N, in->m, in->n, in->k, in->batch * in->calls, 0, 0,
                    NULL, NULL, cd->buf[2], 0, 0};
    own.opA = in->opFirst == 'N' ? CUBLAS_OP_N : CUBLAS_OP_T;
    own.opB = in->opSecond == 'N' ? CUBLAS_OP_N : CUBLAS_OP_T;
    own.lda = in->opFirst == 'N' ? in->m : in->k;
    own.ldb = in->opSecond == 'N' ? in->k : in->n;
    own.a = in->swapped ? cd->buf[1] : cd->buf[0];
    own.b = in->swapped ? cd->buf[0] : cd->buf[1];
    /* An operand without some batched modes is shared across them (stride 0), as in the plan. */
    const int64_t volFirst = in->swapped ? vol[1] : vol[0], volSecond = in->swapped ? vol[0] : vol[1];
    own.shareA = own.batch > 1 && volFirst <= own.m * own.k; /* one matrix (its extents maybe padded) */
    own.shareB = own.batch > 1 && volSecond <= own.k * own.n;
    /* A padded GEMM (m, n, k rounded up in the workspace) is larger than the tensors: its own
     * operands then, random. */
    const int64_t ownElems[3] = {own.m * own.k * (own.shareA ? 1 : own.batch), own.k * own.n * (own.shareB ? 1 : own.batch),
                                 own.m * own.n * own.batch};
    const int64_t haveElems[3] = {volFirst, volSecond, vol[2]};
    void* padded[3] = {NULL, NULL, NULL};
    int ownReady = 1;
    for (int i = 0; i < 3 && ownReady; ++i) {
        if (ownElems[i] <= haveElems[i]) continue;
        if (cudaMalloc(&padded[i], (size_t)ownElems[i] * t->dt->size) != cudaSuccess) {
            cudaGetLastError();
            ownReady = 0;
        } else if (i < 2) {
            bench_ctr_fill(padded[i], ownElems[i], t->ab, 3000 + (uint64_t)i, s);
        }
    }
    if (padded[0]) own.a = padded[0];
    if (padded[1]) own.b = padded[1];
    if (padded[2]) own.c = padded[2];
    r->gemmMs = ownReady ? time_median(run_gemm, &own, NULL, s, opt->target_ms) : -1;
    cudaStreamSynchronize(s);
    for (int i = 0; i < 3; ++i) cudaFree(padded[i]);
    r->own = own;
    r->flops = bench_ctr_flops(c);
    r->bytes = bench_ctr_bytes(c, t->dt->size, t->dt->size);
    const double floor = fmax(r->flops / roof->peakFlops, r->bytes / roof->bandwidth);
    r->eff = floor / (r->ms * 1e-3);
    r->plainEff = floor / (r->plainMs * 1e-3);
done:
    cudaFree(run.ws);
    cupermContractionPlanDestroy(run.plan);
    return status;
}

/* The case in every requested plan mode (r[0] model, r[1] measure), on one set of buffers. */
static int run_case(cupermHandle_t h, cublasHandle_t blas, bench_cutensor* ct, const ctr_type* t,
                    const roofline* roof, const bench_ctr_case* c, const bench_options* opt, cudaStream_t s,
                    case_result r[2])
{
    memset(r, 0, 2 * sizeof *r);
    case_data cd;
    memset(&cd, 0, sizeof cd);
    bench_ctr_modes_of(c, &cd.md);
    for (int i = 0; i < 4; ++i)
        cd.desc[i] = (cupermTensorDescriptor_t){cd.md.rank[i], cd.md.modes[i], cd.md.extents[i], NULL,
                                                i < 2 ? t->ab : t->cd,
                                                i < 2 ? opt->ops[i] : i == 3 ? opt->ops[2] : CUPERM_OP_IDENTITY,
                                                BENCH_OP_PARAM};
    const int md[3] = {0, 1, 3};
    for (int i = 0; i < 3; ++i) cd.vol[i] = volume_of(&cd.md, md[i]);
    const char* skipped = NULL;
    for (int i = 0; i < 3; ++i)
        if (cudaMalloc(&cd.buf[i], (size_t)cd.vol[i] * t->dt->size) != cudaSuccess) skipped = "out of memory";
    int status = 0;
    if (skipped) {
        cudaGetLastError();
        r[0].skipped = r[1].skipped = skipped;
        goto done;
    }
    bench_ctr_fill(cd.buf[0], cd.vol[0], t->ab, 1000 + (uint64_t)c->id, s);
    bench_ctr_fill(cd.buf[1], cd.vol[1], t->ab, 2000 + (uint64_t)c->id, s);
    int64_t m, n, k, batch;
    bench_ctr_gemm_shape(c, &m, &n, &k, &batch);
    gemm_run plain = {blas, t, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, batch, m, k, cd.buf[0], cd.buf[1], cd.buf[2], 0, 0};
    const double plainMs = time_median(run_gemm, &plain, NULL, s, opt->target_ms);
    /* cuTENSOR runs once, beside the last mode's plan; both rows report it. */
    const int lastMode = mode_wanted(opt, 1) ? 1 : 0;
    for (int mi = 0; mi < 2 && !status; ++mi)
        if (mode_wanted(opt, mi))
            status = run_mode(h, blas, mi == lastMode ? ct : NULL, t, roof, c, opt, s, &cd, kModes[mi], plainMs,
                              &r[mi]);
    if (!status && mode_wanted(opt, 0) && mode_wanted(opt, 1) && r[0].ms > 0 && r[1].ms > 0)
        r[0].modelOverMeas = r[1].modelOverMeas = r[0].ms / r[1].ms;
    if (!status && ct && lastMode == 1) {
        r[0].cutensorMs = r[1].cutensorMs;
        r[0].cutensorPlanMs = r[1].cutensorPlanMs;
        r[0].cutensorCheck = r[1].cutensorCheck;
    }
done:
    for (int i = 0; i < 3; ++i) cudaFree(cd.buf[i]);
    return status;
}

/* ---- the suite ------------------------------------------------------------------------- */

static bench_ctr_case cases[BENCH_CTR_MAX_CASES];

static int load_cases(const bench_suite* suite, const bench_options* opt, const ctr_type* t, int* n)
{
    char err[256];
    if (!strcmp(suite->name, "tccg48")) {
        *n = bench_ctr_parse(bench_tccg48_text, cases, BENCH_CTR_MAX_CASES, err, sizeof err);
        if (*n < 0) {
            fprintf(stderr, "cuperm-bench: bench/cases/tccg48.txt: %s\n", err);
            return -1;
        }
    } else if (!strncmp(suite->name, "short-k", 7)) {
        const int count = opt->gen.count > 0 ? opt->gen.count : 40;
        uint64_t seed = opt->gen.seed ? opt->gen.seed : 1;
        if (strstr(suite->name, "heldout")) seed = bench_heldout_seed(seed);
        const int64_t target = opt->gen.volume > 0 ? opt->gen.volume : 64000000;
        *n = (strstr(suite->name, "modes") ? bench_ctr_short_k_modes : bench_ctr_short_k)(
            seed, count > BENCH_CTR_MAX_CASES ? BENCH_CTR_MAX_CASES : count, target, cases);
    } else {
        const int count = opt->gen.count > 0 ? opt->gen.count : 24;
        const uint64_t seed = opt->gen.seed ? opt->gen.seed : 1;
        /* cuTT's TAL-SH study: 150M elements of 4 bytes, 75M of 8 (2-byte types as 4); --volume:
         * that many elements in the largest tensor instead (small contractions). */
        const int64_t target = opt->gen.volume > 0 ? opt->gen.volume : t->dt->size >= 8 ? 75000000 : 150000000;
        *n = bench_ctr_random(seed, count > BENCH_CTR_MAX_CASES ? BENCH_CTR_MAX_CASES : count, target, 4e11,
                              cases);
    }
    return 0;
}

static double geomean(const double* x, int n)
{
    double s = 0;
    int k = 0;
    for (int i = 0; i < n; ++i)
        if (x[i] > 0) {
            s += log(x[i]);
            ++k;
        }
    return k ? exp(s / k) : 0;
}

/* --list: the cases as "id D-A-B extents" lines (bench_ctr_parse's notation), no GPU. */
static int list_cases(const bench_suite* suite, const bench_options* opt)
{
    const dtype_info* dt = opt->num_dtypes ? opt->dtypes[0] : dtype_find(suite->default_dtype);
    ctr_type t;
    int n;
    if (type_for(dt, opt->compute_tf32, &t) != 0 || load_cases(suite, opt, &t, &n)) return 2;
    printf("# %s, %s: %d cases (id D-A-B extents)\n", suite->name, t.dt->name, n);
    for (int i = 0; i < n; ++i) {
        int letters = 0;
        for (const char* c = cases[i].spec; *c; ++c)
            if (*c != '-' && *c - 'a' + 1 > letters) letters = *c - 'a' + 1;
        printf("%d %s ", cases[i].id, cases[i].spec);
        for (int l = 0; l < letters; ++l) printf("%s%lld", l ? "," : "", (long long)cases[i].extent[l]);
        printf("\n");
    }
    return 0;
}

int bench_run_contraction_suite(const bench_suite* suite, const bench_options* opt)
{
    if (opt->list_only) return list_cases(suite, opt);
    bench_device dev;
    char err[512];
    if (bench_device_query(&dev, err, sizeof err) != 0) {
        fprintf(stderr, "cuperm-bench: %s\n", err);
        return 3;
    }
    bench_device_print(stdout, &dev);
    cupermHandle_t h;
    cublasHandle_t blas;
    cudaStream_t s;
    if (cupermCreate(&h) != CUPERM_STATUS_SUCCESS || cublasCreate(&blas) != CUBLAS_STATUS_SUCCESS ||
        cudaStreamCreate(&s) != cudaSuccess) {
        fprintf(stderr, "cuperm-bench: cannot create the cuperm/cuBLAS handles or a stream\n");
        return 3;
    }
    bench_cutensor* ct = NULL;
    if (opt->compare_cutensor && opt->compute_tf32) {
        fprintf(stderr, "cuperm-bench: --compare cutensor runs the types' default compute (drop --compute tf32)\n");
        return 2;
    }
    if (opt->compare_cutensor) {
        for (int i = 0; i < 3; ++i)
            if (opt->ops[i] != CUPERM_OP_IDENTITY) {
                fprintf(stderr, "cuperm-bench: --compare cutensor runs identity operators only (drop --ops)\n");
                return 2;
            }
        if (!(ct = bench_cutensor_open(opt->compare_cutensor == 2, err, sizeof err))) {
            fprintf(stderr, "cuperm-bench: --compare: %s\n", err);
            return 3;
        }
    }
    const dtype_info* byDefault = dtype_find(suite->default_dtype);
    const int ndt = opt->num_dtypes ? opt->num_dtypes : 1;
    int status = 0;
    for (int di = 0; di < ndt; ++di) {
        ctr_type t;
        const dtype_info* dt = opt->num_dtypes ? opt->dtypes[di] : byDefault;
        if (type_for(dt, opt->compute_tf32, &t) != 0) {
            fprintf(stderr, "cuperm-bench: %s: contraction suites run f32, f64, f16, bf16%s\n", dt->name,
                    opt->compute_tf32 ? "; --compute tf32 f32 only" : "");
            return 2;
        }
        int n;
        if (load_cases(suite, opt, &t, &n)) return 2;
        const int first = opt->skip < n ? (int)opt->skip : n;
        const int last = opt->limit >= 0 && first + opt->limit < n ? first + (int)opt->limit : n;
        roofline roof;
        if (measure_roofline(blas, &t, s, &roof) != 0) {
            fprintf(stderr, "cuperm-bench: the roofline measurement failed\n");
            return 3;
        }
        const char* outDir = opt->out_dir ? opt->out_dir : ".";
        char tag[2][256];
        FILE* csv[2] = {NULL, NULL};
        for (int mi = 0; mi < 2; ++mi) {
            if (!mode_wanted(opt, mi)) continue;
            /* The model plan's file keeps its old name: contraction_torch.py and older results read it. */
            snprintf(tag[mi], sizeof tag[mi], "%s-%s%s%s", opt->tag ? opt->tag : suite->name, t.dt->name,
                     opt->compute_tf32 ? "-tf32" : "", mi ? "-measure" : "");
            char path[1024];
            snprintf(path, sizeof path, "%s/%s.csv", outDir, tag[mi]);
            if (!(csv[mi] = fopen(path, "w"))) {
                fprintf(stderr, "cuperm-bench: cannot write %s\n", path);
                return 2;
            }
            fprintf(csv[mi], "# %s\n# command: %s\n# peak %.2f TFLOP/s (cuBLAS 8192^3 %s GEMM), bandwidth %.1f "
                    "GB/s (device copy, 2 x bytes / time); plan mode %s\n",
                    dev.name, opt->command_line, roof.peakFlops * 1e-12, t.dt->name, roof.bandwidth * 1e-9,
                    kModeNames[mi]);
            if (ct)
                fprintf(csv[mi], "# cuTENSOR: %s, default plans%s (cutensor_check: its D against cuperm's, <= 1 "
                                 "passes; cutensor_over_cuperm: its time over cuperm's)\n",
                        bench_cutensor_path(ct), opt->compare_cutensor == 2 ? " with JIT" : "");
            fprintf(csv[mi], "suite,id,spec,extents,dtype,m,n,k,batch,flops,bytes,time_ms,tflops,transpose_ms,"
                             "gemm_ms,eff,plain_gemm_ms,plain_gemm_eff,pred_transpose_ms,pred_gemm_ms,"
                             "transposed_a,transposed_b,transposed_d,workspace_bytes,check,unwritten,peak_tflops,"
                             "bandwidth_gbs,description,mode,plan_ms,model_over_measured,gemm_m,gemm_n,gemm_k,"
                             "gemm_batch,gemm_op_first,gemm_op_second,gemm_share_first,gemm_share_second%s\n",
                    ct ? ",cutensor_ms,cutensor_over_cuperm,cutensor_check,cutensor_plan_ms" : "");
        }
        printf("%s %s: peak %.1f TFLOP/s, bandwidth %.0f GB/s\n", suite->name, t.dt->name, roof.peakFlops * 1e-12,
               roof.bandwidth * 1e-9);
        if (!opt->quiet)
            printf("%4s %-24s %-7s %9s %7s %9s %9s %6s %9s %6s %5s %6s %s\n", "id", "spec", "mode", "ms", "TFLOP/s",
                   "transp_ms", "gemm_ms", "eff", "plain_ms", "peff", "check", "mod/me", "layout");
        double* eff[2] = {calloc((size_t)n + 1, sizeof(double)), calloc((size_t)n + 1, sizeof(double))};
        double* plainEff = calloc((size_t)n + 1, sizeof(double));
        double* ratio = calloc((size_t)n + 1, sizeof(double));
        double* overCt[2] = {calloc((size_t)n + 1, sizeof(double)), calloc((size_t)n + 1, sizeof(double))};
        int done = 0, failed = 0, ctFailed = 0, ctFaster[2] = {0, 0};
        for (int i = first; i < last; ++i) {
            case_result rr[2];
            if (run_case(h, blas, ct, &t, &roof, &cases[i], opt, s, rr) != 0) {
                ++failed;
                continue;
            }
            if (rr[0].skipped) {
                printf("%4d %-24s skipped: %s\n", cases[i].id, cases[i].spec, rr[0].skipped);
                continue;
            }
            char ext[160];
            int len = 0;
            for (int l = 0; l < 26 && cases[i].extent[l] && len < (int)sizeof ext - 12; ++l)
                len += snprintf(ext + len, sizeof ext - (size_t)len, "%s%lld", l ? ":" : "",
                                (long long)cases[i].extent[l]);
            int ok = 1;
            for (int mi = 0; mi < 2; ++mi) {
                const case_result* r = &rr[mi];
                if (!mode_wanted(opt, mi)) continue;
                if (r->skipped || r->ms <= 0) {
                    ok = 0;
                    continue;
                }
                const int bad = opt->verify && (r->unwritten > 0 || !(r->check <= 1.0));
                failed += bad;
                const double transMs = r->ms - r->gemmMs > 0 ? r->ms - r->gemmMs : 0;
                fprintf(csv[mi], "%s,%d,%s,%s,%s,%lld,%lld,%lld,%lld,%.6g,%.6g,%.6g,%.4f,%.6g,%.6g,%.4f,%.6g,%.4f,"
                                 "%.6g,%.6g,%d,%d,%d,%zu,%.3g,%lld,%.3f,%.1f,\"%s\",%s,%.4g,%.4f",
                        suite->name, cases[i].id, cases[i].spec, ext, t.dt->name, (long long)r->m, (long long)r->n,
                        (long long)r->k, (long long)r->batch, r->flops, r->bytes, r->ms,
                        r->flops / (r->ms * 1e-3) * 1e-12, transMs, r->gemmMs, r->eff, r->plainMs, r->plainEff,
                        r->info.predictedTransposeSeconds * 1e3, r->info.predictedGemmSeconds * 1e3,
                        r->info.transposedA, r->info.transposedB, r->info.transposedD, r->info.workspaceBytes,
                        r->check, (long long)r->unwritten, roof.peakFlops * 1e-12, roof.bandwidth * 1e-9,
                        r->description, kModeNames[mi], r->planMs, r->modelOverMeas);
                /* The own GEMM's shape, as cuperm_ctr_gemm_features sees it (strided, dense ld). */
                const gemm_run* g = &r->own;
                fprintf(csv[mi], ",%lld,%lld,%lld,%lld,%c,%c,%d,%d", (long long)g->m, (long long)g->n, (long long)g->k,
                        (long long)g->batch, g->opA == CUBLAS_OP_N ? 'N' : 'T', g->opB == CUBLAS_OP_N ? 'N' : 'T',
                        g->shareA, g->shareB);
                if (ct) {
                    /* cuTENSOR's D must agree with cuperm's; a case it cannot plan or run is reported. */
                    const double over = r->cutensorMs > 0 ? r->cutensorMs / r->ms : 0;
                    fprintf(csv[mi], ",%.6g,%.4f,%.3g,%.4g", r->cutensorMs, over, r->cutensorCheck,
                            r->cutensorPlanMs);
                    overCt[mi][done] = over;
                    ctFaster[mi] += over > 0 && over < 1;
                    if (mi == 0 || !mode_wanted(opt, 0)) ctFailed += r->cutensorMs <= 0 || !(r->cutensorCheck <= 1.0);
                }
                fputc('\n', csv[mi]);
                if (!opt->quiet)
                    printf("%4d %-24s %-7s %9.4f %7.2f %9.4f %9.4f %6.3f %9.4f %6.3f %5s %6.3f A%c B%c D%c",
                           cases[i].id, cases[i].spec, kModeNames[mi], r->ms, r->flops / (r->ms * 1e-3) * 1e-12,
                           transMs, r->gemmMs, r->eff, r->plainMs, r->plainEff,
                           !opt->verify ? "-" : bad ? "FAIL" : "ok", r->modelOverMeas, r->info.transposedA ? 'T' : '-', r->info.transposedB ? 'T' : '-',
                           r->info.transposedD ? 'T' : '-');
                if (!opt->quiet && ct)
                    printf("  cuTENSOR %.4f ms (x%.3f of cuperm's), check %s", r->cutensorMs,
                           r->cutensorMs > 0 ? r->cutensorMs / r->ms : 0,
                           r->cutensorMs > 0 && r->cutensorCheck <= 1.0 ? "ok" : "FAIL");
                if (!opt->quiet) putchar('\n');
                eff[mi][done] = r->eff;
                plainEff[done] = r->plainEff;
                ratio[done] = r->modelOverMeas;
            }
            done += ok;
        }
        for (int mi = 0; mi < 2; ++mi) {
            if (!csv[mi]) continue;
            fclose(csv[mi]);
            const double g = geomean(eff[mi], done), gp = geomean(plainEff, done), gr = geomean(ratio, done);
            char line[1024];
            static const char* const algoNames[3] = {"", ", TTGT only", ", GETT only"};
            int len = snprintf(line, sizeof line, "%s %s%s (%s plans%s): %d cases, geomean roofline efficiency %.4f; "
                               "plain same-shape cuBLAS GEMM %.4f; ratio %.4f (target >= 0.8); model/measured time "
                               "geomean %.4f; %d failed", suite->name, t.dt->name,
                               t.compute == CUPERM_COMPUTE_32F_FAST_TF32 ? " on TF32" : "", kModeNames[mi],
                               algoNames[opt->algo],
                               done, g, gp, gp > 0 ? g / gp : 0, gr, failed);
            if (ct && len > 0 && len < (int)sizeof line) {
                double worst = 0;
                for (int j = 0; j < done; ++j)
                    if (overCt[mi][j] > 0 && (worst == 0 || overCt[mi][j] < worst)) worst = overCt[mi][j];
                snprintf(line + len, sizeof line - (size_t)len, "; cuTENSOR%s time over cuperm's: geomean %.4f, "
                         "lowest %.4f, cuTENSOR faster on %d (target >= 1.5, none); cuTENSOR failed or disagreed on %d",
                         opt->compare_cutensor == 2 ? " (JIT)" : "", geomean(overCt[mi], done), worst, ctFaster[mi],
                         ctFailed);
            }
            printf("%s\n", line);
            char path[1024];
            snprintf(path, sizeof path, "%s/%s.summary.txt", outDir, tag[mi]);
            FILE* sum = fopen(path, "w");
            if (sum) {
                fprintf(sum, "%s\ncommand: %s\npeak %.2f TFLOP/s, bandwidth %.1f GB/s\n%s\n", dev.name,
                        opt->command_line, roof.peakFlops * 1e-12, roof.bandwidth * 1e-9, line);
                fclose(sum);
            }
        }
        free(eff[0]);
        free(eff[1]);
        free(plainEff);
        free(ratio);
        free(overCt[0]);
        free(overCt[1]);
        if (failed || ctFailed) status = 1;
    }
    bench_cutensor_close(ct);
    cudaStreamDestroy(s);
    cublasDestroy(blas);
    cupermDestroy(h);
    return status;
}
