/* cuTT/LibreTT argument checks: every rejection below happens before any device call. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "cutt.h"
#include "librett.h"

static int dims3[3] = {4, 5, 6};
static int perm3[3] = {2, 0, 1};

static void assert_message(const char* message, const char* fragment)
{
    if (!strstr(message, fragment)) fail_msg("message \"%s\" lacks \"%s\"", message, fragment);
}

static void test_plan_rejects_bad_arguments(void** state)
{
    (void)state;
    cuttHandle h = 99;
    assert_int_equal(cuttPlan(NULL, 3, dims3, perm3, 8, 0), CUTT_INVALID_PARAMETER);
    assert_message(cuttGetLastErrorMessage(), "cuttPlan: handle is NULL");
    assert_int_equal(cuttPlan(&h, 0, dims3, perm3, 8, 0), CUTT_INVALID_PARAMETER);
    assert_message(cuttGetLastErrorMessage(), "rank = 0");
    assert_int_equal(cuttPlan(&h, 33, dims3, perm3, 8, 0), CUTT_INVALID_PARAMETER);
    assert_int_equal(cuttPlan(&h, 3, NULL, perm3, 8, 0), CUTT_INVALID_PARAMETER);
    assert_message(cuttGetLastErrorMessage(), "dim is NULL");
    assert_int_equal(cuttPlan(&h, 3, dims3, NULL, 8, 0), CUTT_INVALID_PARAMETER);
    assert_message(cuttGetLastErrorMessage(), "permutation is NULL");

    int zero_dim[3] = {4, 0, 6};
    assert_int_equal(cuttPlan(&h, 3, zero_dim, perm3, 8, 0), CUTT_INVALID_PARAMETER);
    assert_message(cuttGetLastErrorMessage(), "dim[1] = 0");
    int repeat[3] = {2, 0, 2};
    assert_int_equal(cuttPlan(&h, 3, dims3, repeat, 8, 0), CUTT_INVALID_PARAMETER);
    assert_message(cuttGetLastErrorMessage(), "permutation[2] = 2 repeats");
    int outside[3] = {3, 0, 1};
    assert_int_equal(cuttPlan(&h, 3, dims3, outside, 4, 0), CUTT_INVALID_PARAMETER);
    assert_message(cuttGetLastErrorMessage(), "permutation[0] = 3");
    assert_int_equal(cuttPlan(&h, 3, dims3, perm3, 3, 0), CUTT_INVALID_PARAMETER);
    assert_message(cuttGetLastErrorMessage(), "sizeofType = 3");
    assert_int_equal(cuttPlan(&h, 3, dims3, perm3, 16, 0), CUTT_INVALID_PARAMETER);
    assert_int_equal(cuttPlanMeasure(&h, 3, dims3, perm3, 5, 0, NULL, NULL), CUTT_INVALID_PARAMETER);
    assert_message(cuttGetLastErrorMessage(), "cuttPlanMeasure: sizeofType = 5");
}

static void test_unknown_handles_are_invalid_plans(void** state)
{
    (void)state;
    assert_int_equal(cuttExecute(0, NULL, NULL), CUTT_INVALID_PLAN);
    assert_int_equal(cuttExecute(12345, NULL, NULL), CUTT_INVALID_PLAN);
    assert_message(cuttGetLastErrorMessage(), "handle 12345 names no live plan");
    assert_int_equal(cuttDestroy(7), CUTT_INVALID_PLAN);
    assert_int_equal(librettExecute(3, NULL, NULL), LIBRETT_INVALID_PLAN);
    assert_int_equal(librettDestroy(0), LIBRETT_INVALID_PLAN);
    assert_message(librettGetLastErrorMessage(), "librettDestroy");
}

static void test_librett_twins_check_the_same_rules(void** state)
{
    (void)state;
    librettHandle h;
    assert_int_equal(librettPlan(&h, 3, dims3, perm3, 6, 0), LIBRETT_INVALID_PARAMETER);
    assert_message(librettGetLastErrorMessage(), "librettPlan: sizeofType = 6");
    int repeat[3] = {1, 1, 0};
    assert_int_equal(librettPlanMeasure(&h, 3, dims3, repeat, 4, 0, NULL, NULL), LIBRETT_INVALID_PARAMETER);
    assert_message(librettGetLastErrorMessage(), "repeats");
    librettInitialize();
    librettFinalize();
    cuttInitialize();
    cuttFinalize();
}

static void test_result_codes_match_cutt_and_librett(void** state)
{
    (void)state;
    assert_int_equal(CUTT_SUCCESS, 0);
    assert_int_equal(CUTT_INVALID_PLAN, 1);
    assert_int_equal(CUTT_INVALID_PARAMETER, 2);
    assert_int_equal(CUTT_INVALID_DEVICE, 3);
    assert_int_equal(CUTT_INTERNAL_ERROR, 4);
    assert_int_equal(CUTT_UNDEFINED_ERROR, 5);
    assert_int_equal(LIBRETT_INVALID_PARAMETER, CUTT_INVALID_PARAMETER);
    assert_int_equal(LIBRETT_UNDEFINED_ERROR, CUTT_UNDEFINED_ERROR);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plan_rejects_bad_arguments),
        cmocka_unit_test(test_unknown_handles_are_invalid_plans),
        cmocka_unit_test(test_librett_twins_check_the_same_rules),
        cmocka_unit_test(test_result_codes_match_cutt_and_librett),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
