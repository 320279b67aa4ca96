/* Plans created, executed and destroyed from several host threads at once on
 * one handle; every result checked. */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <cuda_runtime_api.h>

#include "support/gpu_skip.h"
#include "gpu/gpu_case.h"

enum { kThreads = 8, kPlansPerThread = 300, kChecksPerThread = 4 };

static cupermHandle_t handle;

typedef struct {
    int id;
    int failures;
} worker_t;

static void* work(void* arg)
{
    worker_t* w = arg;
    rng_t r = {1000 + (uint64_t)w->id};
    /* Many plan/destroy pairs racing with the other threads... */
    for (int i = 0; i < kPlansPerThread; ++i) {
        test_case_t c;
        case_random(&r, &c, 1, 12, 1 << 20, i % 2);
        cupermPlan_t plan;
        if (cupermPlanTranspose(handle, &plan, c.rank, c.extents, c.perm, CUPERM_R_32F,
                                c.has_in_strides ? c.in_strides : NULL,
                                c.has_out_strides ? c.out_strides : NULL) ||
            cupermPlanDestroy(plan))
            ++w->failures;
    }
    /* ...and executions on a stream of this thread's own, checked. */
    cudaStream_t s;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    for (int i = 0; i < kChecksPerThread; ++i) {
        test_case_t c;
        case_random(&r, &c, 2, 8, 200000, i % 2);
        run_opts_t o = {dtype_all[(w->id + i) % dtype_count], (scalars_mode_t)(i % 3), i % 2, s};
        w->failures += gpu_run_case(handle, &c, &o, &r);
    }
    cudaStreamDestroy(s);
    return NULL;
}

static void concurrent_plans_and_executes(void** state)
{
    (void)state;
    assert_int_equal(cupermCreate(&handle), CUPERM_STATUS_SUCCESS);
    pthread_t t[kThreads];
    worker_t w[kThreads];
    for (int i = 0; i < kThreads; ++i) {
        w[i] = (worker_t){i, 0};
        assert_int_equal(pthread_create(&t[i], NULL, work, &w[i]), 0);
    }
    int failures = 0;
    for (int i = 0; i < kThreads; ++i) {
        pthread_join(t[i], NULL);
        failures += w[i].failures;
    }
    assert_int_equal(failures, 0);
    assert_int_equal(cupermDestroy(handle), CUPERM_STATUS_SUCCESS);
}

int main(void)
{
    require_gpu_or_skip("test_gpu_threads");
    const struct CMUnitTest tests[] = {cmocka_unit_test(concurrent_plans_and_executes)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
