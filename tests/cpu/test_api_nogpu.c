/* The public entry points that need no device: argument checks, status
 * strings, type sizes, and a clean failure when there is no GPU. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "cuperm.h"

static void status_strings_and_versions(void** state)
{
    (void)state;
    assert_string_equal(cupermGetErrorString(CUPERM_STATUS_SUCCESS), "CUPERM_STATUS_SUCCESS");
    assert_string_equal(cupermGetErrorString(CUPERM_STATUS_INVALID_VALUE), "CUPERM_STATUS_INVALID_VALUE");
    assert_string_equal(cupermGetErrorString(CUPERM_STATUS_CUDA_ERROR), "CUPERM_STATUS_CUDA_ERROR");
    assert_non_null(strstr(cupermGetErrorString((cupermStatus_t)1234), "unknown"));
    assert_int_equal(cupermGetVersion(), CUPERM_VERSION);
    assert_int_equal(cupermDataTypeSize(CUPERM_R_8I), 1);
    assert_int_equal(cupermDataTypeSize(CUPERM_R_16BF), 2);
    assert_int_equal(cupermDataTypeSize(CUPERM_R_32U), 4);
    assert_int_equal(cupermDataTypeSize(CUPERM_C_32F), 8);
    assert_int_equal(cupermDataTypeSize(CUPERM_C_64F), 16);
    assert_int_equal(cupermDataTypeSize((cupermDataType_t)99), 0);
}

static void null_arguments(void** state)
{
    (void)state;
    const int64_t e[2] = {2, 3};
    const int p[2] = {1, 0};
    cupermPlan_t plan;
    assert_int_equal(cupermPlanTranspose(NULL, &plan, 2, e, p, CUPERM_R_32F, NULL, NULL),
                     CUPERM_STATUS_INVALID_VALUE);
    assert_non_null(strstr(cupermGetLastErrorMessage(), "handle"));
    assert_int_equal(cupermExecute(NULL, NULL, NULL, NULL, NULL, 0), CUPERM_STATUS_INVALID_VALUE);
    assert_non_null(strstr(cupermGetLastErrorMessage(), "plan"));
    assert_int_equal(cupermPlanDestroy(NULL), CUPERM_STATUS_INVALID_VALUE);
    assert_int_equal(cupermDestroy(NULL), CUPERM_STATUS_INVALID_VALUE);
    assert_int_equal(cupermCreate(NULL), CUPERM_STATUS_INVALID_VALUE);
    cupermPlanInfo_t info;
    assert_int_equal(cupermPlanGetInfo(NULL, &info), CUPERM_STATUS_INVALID_VALUE);
    assert_int_equal(cupermPlanTransposeMeasure(NULL, &plan, 2, e, p, CUPERM_R_32F, NULL, NULL, NULL, NULL, 0),
                     CUPERM_STATUS_INVALID_VALUE);
    assert_non_null(strstr(cupermGetLastErrorMessage(), "handle"));
    assert_int_equal(cupermPlanTransposeMeasure(NULL, NULL, 2, e, p, CUPERM_R_32F, NULL, NULL, NULL, NULL, 0),
                     CUPERM_STATUS_INVALID_VALUE);
    assert_non_null(strstr(cupermGetLastErrorMessage(), "plan"));
    const int32_t m[2] = {'a', 'b'};
    const cupermTensorDescriptor_t t = {2, m, e, NULL, CUPERM_R_32F, CUPERM_OP_IDENTITY, 0};
    cupermContractionPlan_t cplan;
    assert_int_equal(cupermPlanContractionAlgo(NULL, &cplan, &t, &t, &t, &t, CUPERM_COMPUTE_DEFAULT, CUPERM_PLAN_MODEL,
                                               CUPERM_ALGO_TTGT),
                     CUPERM_STATUS_INVALID_VALUE);
    assert_non_null(strstr(cupermGetLastErrorMessage(), "handle"));
    assert_int_equal(cupermPlanContractionAlgo(NULL, NULL, &t, &t, &t, &t, CUPERM_COMPUTE_DEFAULT, CUPERM_PLAN_MODEL,
                                               CUPERM_ALGO_TTGT),
                     CUPERM_STATUS_INVALID_VALUE);
    assert_non_null(strstr(cupermGetLastErrorMessage(), "plan"));
    double seconds;
    assert_int_equal(cupermPredictTransposeTime(NULL, 2, e, p, CUPERM_R_32F, NULL, NULL, &seconds),
                     CUPERM_STATUS_INVALID_VALUE);
    assert_non_null(strstr(cupermGetLastErrorMessage(), "handle"));
}

/* Without a GPU, creating a handle fails cleanly with a message. */
static void create_without_gpu(void** state)
{
    (void)state;
    int n = 0;
    if (cudaGetDeviceCount(&n) == cudaSuccess && n > 0) {
        cupermHandle_t h;
        assert_int_equal(cupermCreate(&h), CUPERM_STATUS_SUCCESS);
        assert_int_equal(cupermDestroy(h), CUPERM_STATUS_SUCCESS);
        return;
    }
    cupermHandle_t h = (cupermHandle_t)0x1;
    assert_int_equal(cupermCreate(&h), CUPERM_STATUS_CUDA_ERROR);
    assert_null(h);
    assert_non_null(strstr(cupermGetLastErrorMessage(), "device"));
    /* It says what is missing (a driver or a GPU), not only that a call failed. */
    assert_non_null(strstr(cupermGetLastErrorMessage(), "NVIDIA"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(status_strings_and_versions),
        cmocka_unit_test(null_arguments),
        cmocka_unit_test(create_without_gpu),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
