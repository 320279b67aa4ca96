/* cupermHandleWritePlanCache / cupermHandleReadPlanCache: measured decisions of one handle
 * (a transpose and a contraction) saved, read into a fresh handle and used there without
 * measuring again; damaged and missing files; argument errors. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <cuda_runtime_api.h>

#include "cuperm.h"
#include "support/gpu_skip.h"

static char path[64];

/* A transpose and a contraction (f32) to measure. */
static const int64_t kExt[3] = {300, 257, 40};
static const int kPerm[3] = {2, 0, 1};
static int32_t mA[3] = {'a', 'k', 'c'}, mB[2] = {'k', 'b'}, mD[3] = {'a', 'b', 'c'};
static int64_t eA[3] = {96, 80, 7}, eB[2] = {80, 64}, eD[3] = {96, 64, 7};

static cupermTensorDescriptor_t desc(int rank, int32_t* modes, int64_t* ext)
{
    return (cupermTensorDescriptor_t){rank, modes, ext, NULL, CUPERM_R_32F, CUPERM_OP_IDENTITY, 0};
}

static void transpose_plan(cupermHandle_t h, int measure, cupermPlanInfo_t* info)
{
    cupermPlan_t p;
    if (measure) {
        void *in, *out;
        const size_t bytes = (size_t)(kExt[0] * kExt[1] * kExt[2]) * 4;
        assert_int_equal(cudaMalloc(&in, bytes), cudaSuccess);
        assert_int_equal(cudaMalloc(&out, bytes), cudaSuccess);
        assert_int_equal(cupermPlanTransposeMeasure(h, &p, 3, kExt, kPerm, CUPERM_R_32F, NULL, NULL, in, out, 0),
                         CUPERM_STATUS_SUCCESS);
        cudaFree(in);
        cudaFree(out);
    } else {
        assert_int_equal(cupermPlanTranspose(h, &p, 3, kExt, kPerm, CUPERM_R_32F, NULL, NULL), CUPERM_STATUS_SUCCESS);
    }
    assert_int_equal(cupermPlanGetInfo(p, info), CUPERM_STATUS_SUCCESS);
    assert_int_equal(cupermPlanDestroy(p), CUPERM_STATUS_SUCCESS);
}

/* Plans the contraction in measure mode; copies its description into text. */
static void contraction_plan(cupermHandle_t h, cupermContractionInfo_t* info, char* text, size_t size)
{
    const cupermTensorDescriptor_t A = desc(3, mA, eA), B = desc(2, mB, eB), D = desc(3, mD, eD);
    cupermContractionPlan_t p;
    assert_int_equal(cupermPlanContraction(h, &p, &A, &B, &D, &D, CUPERM_COMPUTE_32F, CUPERM_PLAN_MEASURE),
                     CUPERM_STATUS_SUCCESS);
    assert_int_equal(cupermContractionPlanGetInfo(p, info), CUPERM_STATUS_SUCCESS);
    snprintf(text, size, "%s", info->description);
    assert_int_equal(cupermContractionPlanDestroy(p), CUPERM_STATUS_SUCCESS);
}

static void test_round_trip(void** state)
{
    (void)state;
    cupermHandle_t h1, h2;
    assert_int_equal(cupermCreate(&h1), CUPERM_STATUS_SUCCESS);
    cupermPlanInfo_t t1, t2;
    cupermContractionInfo_t c1, c2;
    char d1[512], d2[512];
    transpose_plan(h1, 1, &t1);
    contraction_plan(h1, &c1, d1, sizeof d1);
    assert_int_equal(t1.measured, 1);
    assert_int_equal(c1.measured, 1);
    int written = -1;
    assert_int_equal(cupermHandleWritePlanCache(h1, path, &written), CUPERM_STATUS_SUCCESS);
    assert_int_equal(written, 2);
    assert_int_equal(cupermDestroy(h1), CUPERM_STATUS_SUCCESS);

    assert_int_equal(cupermCreate(&h2), CUPERM_STATUS_SUCCESS);
    int read = -1;
    assert_int_equal(cupermHandleReadPlanCache(h2, path, &read), CUPERM_STATUS_SUCCESS);
    assert_int_equal(read, 2);
    /* Heuristic planning takes the stored measured transpose... */
    transpose_plan(h2, 0, &t2);
    assert_int_equal(t2.measured, 1);
    assert_int_equal(t2.kernel, t1.kernel);
    assert_int_equal(t2.tileA, t1.tileA);
    assert_int_equal(t2.tileB, t1.tileB);
    assert_int_equal(t2.blocks, t1.blocks);
    assert_string_equal(t2.tuning, t1.tuning);
    /* ...and measure mode returns the stored contraction decision, measured time included (a new
     * measurement would not repeat the double exactly). */
    contraction_plan(h2, &c2, d2, sizeof d2);
    assert_int_equal(c2.measured, 1);
    assert_true(c2.measuredSeconds == c1.measuredSeconds);
    assert_string_equal(d2, d1);
    /* Reading the file again is harmless. */
    assert_int_equal(cupermHandleReadPlanCache(h2, path, &read), CUPERM_STATUS_SUCCESS);
    assert_int_equal(read, 2);
    assert_int_equal(cupermDestroy(h2), CUPERM_STATUS_SUCCESS);
}

static void test_bad_files(void** state)
{
    (void)state;
    cupermHandle_t h;
    assert_int_equal(cupermCreate(&h), CUPERM_STATUS_SUCCESS);
    int n = -1;
    /* An empty handle writes a valid file with no decisions. */
    assert_int_equal(cupermHandleWritePlanCache(h, path, &n), CUPERM_STATUS_SUCCESS);
    assert_int_equal(n, 0);
    assert_int_equal(cupermHandleReadPlanCache(h, path, &n), CUPERM_STATUS_SUCCESS);
    assert_int_equal(n, 0);
    /* A damaged file is ignored with a reason. */
    FILE* f = fopen(path, "r+b");
    assert_non_null(f);
    fseek(f, 20, SEEK_SET);
    fputc('#', f);
    fclose(f);
    n = -1;
    assert_int_equal(cupermHandleReadPlanCache(h, path, &n), CUPERM_STATUS_SUCCESS);
    assert_int_equal(n, 0);
    assert_non_null(strstr(cupermGetLastErrorMessage(), "ignored"));
    /* Not a plan-cache file at all. */
    f = fopen(path, "wb");
    assert_non_null(f);
    fputs("hello\n", f);
    fclose(f);
    assert_int_equal(cupermHandleReadPlanCache(h, path, &n), CUPERM_STATUS_SUCCESS);
    assert_int_equal(n, 0);
    assert_non_null(strstr(cupermGetLastErrorMessage(), "not a cuperm plan-cache file"));
    /* Missing files, unwritable paths and NULL arguments are errors. */
    unlink(path);
    assert_int_equal(cupermHandleReadPlanCache(h, path, &n), CUPERM_STATUS_INVALID_VALUE);
    assert_non_null(strstr(cupermGetLastErrorMessage(), "cannot be read"));
    assert_int_equal(cupermHandleWritePlanCache(h, "/nonexistent-dir/x.cache", NULL), CUPERM_STATUS_INVALID_VALUE);
    assert_int_equal(cupermHandleWritePlanCache(h, NULL, NULL), CUPERM_STATUS_INVALID_VALUE);
    assert_int_equal(cupermHandleReadPlanCache(h, NULL, &n), CUPERM_STATUS_INVALID_VALUE);
    assert_int_equal(cupermHandleReadPlanCache(h, path, NULL), CUPERM_STATUS_INVALID_VALUE);
    assert_int_equal(cupermHandleReadPlanCache(NULL, path, &n), CUPERM_STATUS_INVALID_VALUE);
    assert_int_equal(cupermDestroy(h), CUPERM_STATUS_SUCCESS);
}

int main(void)
{
    require_gpu_or_skip("test_gpu_plan_cache_file");
    snprintf(path, sizeof path, "/tmp/cuperm-plan-cache-%d.bin", (int)getpid());
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_round_trip), cmocka_unit_test(test_bad_files)};
    const int rc = cmocka_run_group_tests(tests, NULL, NULL);
    unlink(path);
    return rc;
}
