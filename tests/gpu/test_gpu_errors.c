/* Bad input through the public API: each case returns the documented status
 * with a message naming the argument, never crashes, never writes to out. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <cuda_runtime_api.h>

#include "support/gpu_skip.h"
#include "cuperm.h"

#define INVALID CUPERM_STATUS_INVALID_VALUE

static cupermHandle_t handle;
static const int64_t kExt[3] = {4, 5, 6};
static const int kPerm[3] = {2, 0, 1};
enum { kN = 120 };

/* The call failed with status, and the message names `word`. */
static void expect_failure(cupermStatus_t got, cupermStatus_t want, const char* word)
{
    if (got != want || !strstr(cupermGetLastErrorMessage(), word))
        fprintf(stderr, "status %s, message \"%s\"; wanted %s naming \"%s\"\n", cupermGetErrorString(got),
                cupermGetLastErrorMessage(), cupermGetErrorString(want), word);
    assert_int_equal(got, want);
    assert_non_null(strstr(cupermGetLastErrorMessage(), word));
}

static void expect_plan_failure(int rank, const int64_t* e, const int* p, cupermDataType_t t, const int64_t* is,
                                const int64_t* os, const char* word)
{
    cupermPlan_t plan = (cupermPlan_t)0x1;
    expect_failure(cupermPlanTranspose(handle, &plan, rank, e, p, t, is, os), INVALID, word);
    assert_null(plan);
    double s;
    expect_failure(cupermPredictTransposeTime(handle, rank, e, p, t, is, os, &s), INVALID, word);
}

static void plan_arguments(void** state)
{
    (void)state;
    cupermPlan_t plan;
    expect_failure(cupermPlanTranspose(NULL, &plan, 3, kExt, kPerm, CUPERM_R_32F, NULL, NULL), INVALID, "handle");
    expect_failure(cupermPlanTranspose(handle, NULL, 3, kExt, kPerm, CUPERM_R_32F, NULL, NULL), INVALID, "plan");
    expect_plan_failure(0, kExt, kPerm, CUPERM_R_32F, NULL, NULL, "rank");
    expect_plan_failure(-3, kExt, kPerm, CUPERM_R_32F, NULL, NULL, "rank");
    expect_plan_failure(CUPERM_MAX_RANK + 1, kExt, kPerm, CUPERM_R_32F, NULL, NULL, "rank");
    expect_plan_failure(3, NULL, kPerm, CUPERM_R_32F, NULL, NULL, "extents");
    expect_plan_failure(3, kExt, NULL, CUPERM_R_32F, NULL, NULL, "perm");
    expect_plan_failure(3, kExt, kPerm, (cupermDataType_t)99, NULL, NULL, "type");

    const int64_t zero[3] = {4, 0, 6}, neg[3] = {4, -2, 6};
    expect_plan_failure(3, zero, kPerm, CUPERM_R_32F, NULL, NULL, "extents[1]");
    expect_plan_failure(3, neg, kPerm, CUPERM_R_32F, NULL, NULL, "extents[1]");

    const int rep[3] = {0, 1, 1}, range[3] = {0, 3, 1}, negp[3] = {0, -1, 1};
    expect_plan_failure(3, kExt, rep, CUPERM_R_32F, NULL, NULL, "perm[2]");
    expect_plan_failure(3, kExt, range, CUPERM_R_32F, NULL, NULL, "perm[1]");
    expect_plan_failure(3, kExt, negp, CUPERM_R_32F, NULL, NULL, "perm[1]");

    const int64_t huge[3] = {(int64_t)1 << 40, (int64_t)1 << 40, 2};
    expect_plan_failure(3, huge, kPerm, CUPERM_R_32F, NULL, NULL, "volume");
    const int64_t big[2] = {(int64_t)1 << 31, (int64_t)1 << 30};
    const int p2[2] = {1, 0};
    expect_plan_failure(2, big, p2, CUPERM_C_64F, NULL, NULL, "overflows");

    const int64_t bad_in[3] = {1, -4, 20}, bad_out[3] = {1, 6, 0};
    expect_plan_failure(3, kExt, kPerm, CUPERM_R_32F, bad_in, NULL, "inStrides[1]");
    expect_plan_failure(3, kExt, kPerm, CUPERM_R_32F, NULL, bad_out, "outStrides[2]");
    /* out extents (6, 4, 5): stride 5 for the extent-4 dim overlaps the extent-6 dim */
    const int64_t overlap[3] = {1, 5, 24};
    expect_plan_failure(3, kExt, kPerm, CUPERM_R_32F, NULL, overlap, "overlap");
    const int64_t huge_stride[3] = {1, (int64_t)1 << 62, 4};
    expect_plan_failure(3, kExt, kPerm, CUPERM_R_32F, huge_stride, NULL, "overflows");
}

/* Runs a failing execute and checks out kept its poison. */
static void expect_execute_failure(cupermPlan_t plan, const void* alpha, const void* in, const void* beta,
                                   void* out, void* watched, const char* word)
{
    unsigned char before[kN * 4], after[kN * 4];
    cudaMemset(watched, 0x5a, sizeof before);
    cudaMemcpy(before, watched, sizeof before, cudaMemcpyDeviceToHost);
    expect_failure(cupermExecute(plan, alpha, in, beta, out, 0), INVALID, word);
    assert_int_equal(cudaDeviceSynchronize(), cudaSuccess);
    cudaMemcpy(after, watched, sizeof after, cudaMemcpyDeviceToHost);
    assert_memory_equal(before, after, sizeof before);
}

static void execute_arguments(void** state)
{
    (void)state;
    float *in, *out;
    assert_int_equal(cudaMalloc((void**)&in, 2 * kN * sizeof(float)), cudaSuccess);
    assert_int_equal(cudaMalloc((void**)&out, 2 * kN * sizeof(float)), cudaSuccess);
    cudaMemset(in, 0, 2 * kN * sizeof(float));
    cupermPlan_t plan;
    assert_int_equal(cupermPlanTranspose(handle, &plan, 3, kExt, kPerm, CUPERM_R_32F, NULL, NULL), 0);
    const float one = 1, zero = 0;

    expect_execute_failure(NULL, &one, in, &zero, out, out, "plan");
    expect_execute_failure(plan, NULL, in, &zero, out, out, "alpha");
    expect_execute_failure(plan, &one, in, NULL, out, out, "beta");
    expect_execute_failure(plan, &one, NULL, &zero, out, out, "in");
    expect_failure(cupermExecute(plan, &one, in, &zero, NULL, 0), INVALID, "out");
    expect_execute_failure(plan, &one, (char*)in + 2, &zero, out, out, "aligned");
    expect_execute_failure(plan, &one, in, &zero, (char*)out + 1, out, "aligned");
    /* in and out ranges overlap by one element */
    expect_execute_failure(plan, &one, in, &zero, in + kN - 1, in + kN - 1, "overlap");
    expect_execute_failure(plan, &one, in + kN - 1, &zero, in, in, "overlap");

    float* host = malloc(kN * sizeof(float));
    expect_execute_failure(plan, &one, host, &zero, out, out, "in");
    free(host);

    /* A plan struct that is not one, and a destroyed plan. */
    uint64_t fake[64] = {0};
    expect_execute_failure((cupermPlan_t)fake, &one, in, &zero, out, out, "plan");
    expect_failure(cupermPlanDestroy((cupermPlan_t)fake), INVALID, "plan");
    assert_int_equal(cupermPlanDestroy(plan), CUPERM_STATUS_SUCCESS);
    expect_failure(cupermPlanDestroy(NULL), INVALID, "plan");
    /* A destroyed plan stays dead, also once a new plan may reuse its memory. */
    cupermPlan_t next;
    assert_int_equal(cupermPlanTranspose(handle, &next, 3, kExt, kPerm, CUPERM_R_32F, NULL, NULL),
                     CUPERM_STATUS_SUCCESS);
    assert_true(next != plan);
    expect_execute_failure(plan, &one, in, &zero, out, out, "not a live");
    expect_failure(cupermPlanDestroy(plan), INVALID, "not a live");
    assert_int_equal(cupermPlanDestroy(next), CUPERM_STATUS_SUCCESS);

    cudaFree(in);
    cudaFree(out);
}

static void execute_on_another_device(void** state)
{
    (void)state;
    int n = 0;
    cudaGetDeviceCount(&n);
    if (n < 2) {
        printf("SKIPPED: execute_on_another_device needs two GPUs\n");
        skip();
    }
    float *in, *out;
    cupermPlan_t plan;
    assert_int_equal(cupermPlanTranspose(handle, &plan, 3, kExt, kPerm, CUPERM_R_32F, NULL, NULL), 0);
    cudaSetDevice(1);
    cudaMalloc((void**)&in, kN * sizeof(float));
    cudaMalloc((void**)&out, kN * sizeof(float));
    const float one = 1, zero = 0;
    expect_execute_failure(plan, &one, in, &zero, out, out, "device");
    cudaFree(in);
    cudaFree(out);
    cudaSetDevice(0);
    cupermPlanDestroy(plan);
}

static void handle_and_info_arguments(void** state)
{
    (void)state;
    expect_failure(cupermCreate(NULL), INVALID, "handle");
    expect_failure(cupermDestroy(NULL), INVALID, "handle");
    cupermPlan_t plan;
    assert_int_equal(cupermPlanTranspose(handle, &plan, 3, kExt, kPerm, CUPERM_R_32F, NULL, NULL), 0);
    expect_failure(cupermPlanGetInfo(plan, NULL), INVALID, "info");
    cupermPlanInfo_t info;
    assert_int_equal(cupermPlanGetInfo(plan, &info), 0);
    assert_int_equal(info.volume, 120);
    assert_true(info.predictedSeconds > 0);
    cupermPlanDestroy(plan);
    double s;
    expect_failure(cupermPredictTransposeTime(handle, 3, kExt, kPerm, CUPERM_R_32F, NULL, NULL, NULL), INVALID,
                   "seconds");
    assert_int_equal(cupermPredictTransposeTime(handle, 3, kExt, kPerm, CUPERM_R_32F, NULL, NULL, &s), 0);
    assert_true(s > 0);
}

static int setup(void** state)
{
    (void)state;
    return cupermCreate(&handle) ? -1 : 0;
}

static int teardown(void** state)
{
    (void)state;
    return cupermDestroy(handle) ? -1 : 0;
}

int main(void)
{
    require_gpu_or_skip("test_gpu_errors");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(plan_arguments),
        cmocka_unit_test(execute_arguments),
        cmocka_unit_test(execute_on_another_device),
        cmocka_unit_test(handle_and_info_arguments),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
