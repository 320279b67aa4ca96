/*
 * Eight host threads share one handle: each plans contractions (model plans,
 * racing on the handle's decision cache and its pool of cuBLAS handles) and
 * runs them on a stream of its own, every result checked against the CPU
 * reference. Nothing serialises their GPU work but the GPU itself. Then eight threads read one
 * new plan's description at once (it is written by its first reader), and run one plan at once
 * across the run that chooses its cuBLASLt algorithm.
 */
#define _POSIX_C_SOURCE 200809L /* pthread barriers */
#include <complex.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <cuda_runtime_api.h>

#include "support/gpu_skip.h"
#include "support/rng.h"
#include "contraction/ctr_random.h"
#include "contraction/ctr_reference.h"

enum { kThreads = 8, kCasesPerThread = 24 };

static cupermHandle_t handle;

typedef struct {
    int id;
    int failures;
    char first[512];
} worker_t;

static void note(worker_t* w, const char* what)
{
    if (w->failures++ == 0) snprintf(w->first, sizeof w->first, "thread %d: %s", w->id, what);
}

/* One random R_64F contraction, run on stream s and compared element by element. */
static void run_case(worker_t* w, rng_t* r, cudaStream_t s)
{
    ctr_random_case c;
    const ctr_random_options o = {6, 5, 1 << 14, 0};
    ctr_random_draw(r, &o, &c);
    cupermContractionPlan_t plan;
    if (cupermPlanContraction(handle, &plan, &c.desc[0], &c.desc[1], &c.desc[2], &c.desc[3],
                              CUPERM_COMPUTE_DEFAULT, CUPERM_PLAN_MODEL)) {
        note(w, cupermGetLastErrorMessage());
        return;
    }
    int64_t span[4];
    double* host[4];
    ctr_cplx* vals[4];
    void* dev[4];
    for (int t = 0; t < 4; ++t) {
        span[t] = ctr_ref_span(&c.desc[t]);
        host[t] = malloc((size_t)span[t] * sizeof(double));
        vals[t] = malloc((size_t)span[t] * sizeof(ctr_cplx));
        for (int64_t i = 0; i < span[t]; ++i) {
            host[t][i] = rng_unit(r);
            vals[t][i] = host[t][i];
        }
        cudaMalloc(&dev[t], (size_t)span[t] * sizeof(double));
        cudaMemcpyAsync(dev[t], host[t], (size_t)span[t] * sizeof(double), cudaMemcpyHostToDevice, s);
    }
    const double alpha = 0.75, beta = -0.5;
    ctr_cplx* want = calloc((size_t)span[3], sizeof(ctr_cplx));
    memcpy(want, vals[3], (size_t)span[3] * sizeof(ctr_cplx));
    ctr_ref_contract(&c.desc[0], &c.desc[1], &c.desc[2], &c.desc[3], vals[0], vals[1], vals[2], alpha, beta,
                     want, NULL);
    if (cupermContract(plan, &alpha, dev[0], dev[1], &beta, dev[2], dev[3], NULL, 0, s))
        note(w, cupermGetLastErrorMessage());
    double* got = malloc((size_t)span[3] * sizeof(double));
    cudaMemcpyAsync(got, dev[3], (size_t)span[3] * sizeof(double), cudaMemcpyDeviceToHost, s);
    if (cudaStreamSynchronize(s) != cudaSuccess) note(w, "cudaStreamSynchronize failed");
    for (int64_t i = 0; i < span[3]; ++i)
        if (!(fabs(got[i] - creal(want[i])) <= 1e-12 * (1 + fabs(creal(want[i]))))) {
            char text[400];
            ctr_random_print(&c, text, sizeof text);
            char msg[480];
            snprintf(msg, sizeof msg, "element %lld wrong: %s", (long long)i, text);
            note(w, msg);
            break;
        }
    cupermContractionPlanDestroy(plan);
    for (int t = 0; t < 4; ++t) {
        cudaFree(dev[t]);
        free(host[t]);
        free(vals[t]);
    }
    free(got);
    free(want);
}

static void* work(void* arg)
{
    worker_t* w = arg;
    rng_t r = {7000 + (uint64_t)w->id};
    cudaStream_t s;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    for (int i = 0; i < kCasesPerThread; ++i) run_case(w, &r, s);
    cudaStreamDestroy(s);
    return NULL;
}

/* Runs fn on kThreads threads at once (each its own worker_t) and fails with the first failure of
 * each thread that had one. */
static void run_workers(void* (*fn)(void*))
{
    pthread_t t[kThreads];
    worker_t w[kThreads];
    for (int i = 0; i < kThreads; ++i) {
        memset(&w[i], 0, sizeof w[i]);
        w[i].id = i;
        assert_int_equal(pthread_create(&t[i], NULL, fn, &w[i]), 0);
    }
    int failures = 0;
    for (int i = 0; i < kThreads; ++i) {
        pthread_join(t[i], NULL);
        if (w[i].failures) printf("    %s\n", w[i].first);
        failures += w[i].failures;
    }
    assert_int_equal(failures, 0);
}

static void eight_threads_share_a_handle(void** state)
{
    (void)state;
    assert_int_equal(cupermCreate(&handle), CUPERM_STATUS_SUCCESS);
    run_workers(work);
    assert_int_equal(cupermDestroy(handle), CUPERM_STATUS_SUCCESS);
}

/* A plan's description is written by its first reader: eight threads asking for it at once all
 * get the one, whole text. */
typedef struct {
    cupermContractionPlan_t plan;
    pthread_barrier_t* start;
    const char* text;
    char copy[640];
} reader_t;

static void* read_info(void* arg)
{
    reader_t* r = arg;
    cupermContractionInfo_t info;
    pthread_barrier_wait(r->start);
    if (cupermContractionPlanGetInfo(r->plan, &info) == CUPERM_STATUS_SUCCESS && info.description) {
        r->text = info.description;
        snprintf(r->copy, sizeof r->copy, "%s", info.description);
    }
    return NULL;
}

static void eight_threads_read_a_new_description(void** state)
{
    (void)state;
    assert_int_equal(cupermCreate(&handle), CUPERM_STATUS_SUCCESS);
    rng_t r = {7100};
    for (int round = 0; round < 20; ++round) {
        ctr_random_case c;
        const ctr_random_options o = {6, 5, 1 << 14, 0};
        ctr_random_draw(&r, &o, &c);
        cupermContractionPlan_t plan;
        assert_int_equal(cupermPlanContraction(handle, &plan, &c.desc[0], &c.desc[1], &c.desc[2], &c.desc[3],
                                               CUPERM_COMPUTE_DEFAULT, CUPERM_PLAN_MODEL),
                         CUPERM_STATUS_SUCCESS);
        pthread_barrier_t start;
        pthread_barrier_init(&start, NULL, kThreads);
        pthread_t t[kThreads];
        reader_t rd[kThreads];
        for (int i = 0; i < kThreads; ++i) {
            memset(&rd[i], 0, sizeof rd[i]);
            rd[i].plan = plan;
            rd[i].start = &start;
            assert_int_equal(pthread_create(&t[i], NULL, read_info, &rd[i]), 0);
        }
        for (int i = 0; i < kThreads; ++i) pthread_join(t[i], NULL);
        pthread_barrier_destroy(&start);
        assert_non_null(rd[0].text);
        /* A whole description: TTGT's names its GEMM, GETT's (small problems) its kernel. */
        assert_true(strstr(rd[0].copy, "GEMM") || strstr(rd[0].copy, "GETT (") == rd[0].copy);
        assert_non_null(strstr(rd[0].copy, "GEMM") ? rd[0].copy : strstr(rd[0].copy, "; orders "));
        for (int i = 1; i < kThreads; ++i) {
            assert_ptr_equal(rd[i].text, rd[0].text);
            assert_string_equal(rd[i].copy, rd[0].copy);
        }
        cupermContractionPlanDestroy(plan);
    }
    assert_int_equal(cupermDestroy(handle), CUPERM_STATUS_SUCCESS);
}

/* One plan run by eight threads at once, each on its own stream and operands, across the run
 * at which its cuBLASLt algorithm is chosen (CUPERM_LT_AFTER_RUNS=5): every result right. */
enum { kM = 64, kN = 48, kK = 32, kRuns = 4 };
static cupermContractionPlan_t shared;
static double hostA[kM * kK], hostB[kK * kN], wantD[kM * kN];

static void* run_shared(void* arg)
{
    worker_t* w = arg;
    cudaStream_t s;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    double *a, *b, *d, got[kM * kN];
    cudaMalloc((void**)&a, sizeof hostA);
    cudaMalloc((void**)&b, sizeof hostB);
    cudaMalloc((void**)&d, sizeof got);
    cudaMemcpyAsync(a, hostA, sizeof hostA, cudaMemcpyHostToDevice, s);
    cudaMemcpyAsync(b, hostB, sizeof hostB, cudaMemcpyHostToDevice, s);
    const double alpha = 1.0, beta = 0.0;
    for (int run = 0; run < kRuns; ++run) {
        cudaMemsetAsync(d, 0xff, sizeof got, s); /* NaNs */
        if (cupermContract(shared, &alpha, a, b, &beta, d, d, NULL, 0, s)) note(w, cupermGetLastErrorMessage());
        cudaMemcpyAsync(got, d, sizeof got, cudaMemcpyDeviceToHost, s);
        if (cudaStreamSynchronize(s) != cudaSuccess) note(w, "cudaStreamSynchronize failed");
        for (int i = 0; i < kM * kN; ++i)
            if (!(fabs(got[i] - wantD[i]) <= 1e-12 * (1 + fabs(wantD[i])))) {
                note(w, "shared plan: wrong element");
                break;
            }
    }
    cudaFree(a);
    cudaFree(b);
    cudaFree(d);
    cudaStreamDestroy(s);
    return NULL;
}

static void eight_threads_run_one_plan_across_its_lt_choice(void** state)
{
    (void)state;
    setenv("CUPERM_LT_AFTER_RUNS", "5", 1);
    assert_int_equal(cupermCreate(&handle), CUPERM_STATUS_SUCCESS);
    unsetenv("CUPERM_LT_AFTER_RUNS");
    rng_t r = {7200};
    for (int i = 0; i < kM * kK; ++i) hostA[i] = rng_unit(&r);
    for (int i = 0; i < kK * kN; ++i) hostB[i] = rng_unit(&r);
    for (int m = 0; m < kM; ++m) /* A[m,k], B[k,n], D[m,n], first mode fastest */
        for (int n = 0; n < kN; ++n) {
            double sum = 0;
            for (int k = 0; k < kK; ++k) sum += hostA[m + kM * k] * hostB[k + kK * n];
            wantD[m + kM * n] = sum;
        }
    const int32_t mA[2] = {'m', 'k'}, mB[2] = {'k', 'n'}, mD[2] = {'m', 'n'};
    const int64_t eA[2] = {kM, kK}, eB[2] = {kK, kN}, eD[2] = {kM, kN};
    const cupermTensorDescriptor_t dA = {2, mA, eA, NULL, CUPERM_R_64F, CUPERM_OP_IDENTITY, 0},
                                   dB = {2, mB, eB, NULL, CUPERM_R_64F, CUPERM_OP_IDENTITY, 0},
                                   dD = {2, mD, eD, NULL, CUPERM_R_64F, CUPERM_OP_IDENTITY, 0};
    assert_int_equal(cupermPlanContraction(handle, &shared, &dA, &dB, &dD, &dD, CUPERM_COMPUTE_DEFAULT,
                                           CUPERM_PLAN_MODEL),
                     CUPERM_STATUS_SUCCESS);
    run_workers(run_shared);
    cupermContractionInfo_t info;
    assert_int_equal(cupermContractionPlanGetInfo(shared, &info), CUPERM_STATUS_SUCCESS);
    if (!strstr(info.description, "(chosen when")) fail_msg("no cuBLASLt algorithm chosen: %s", info.description);
    assert_int_equal(cupermContractionPlanDestroy(shared), CUPERM_STATUS_SUCCESS);
    assert_int_equal(cupermDestroy(handle), CUPERM_STATUS_SUCCESS);
}

int main(void)
{
    require_gpu_or_skip("test_ctr_threads");
    const struct CMUnitTest tests[] = {cmocka_unit_test(eight_threads_share_a_handle),
                                       cmocka_unit_test(eight_threads_read_a_new_description),
                                       cmocka_unit_test(eight_threads_run_one_plan_across_its_lt_choice)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
