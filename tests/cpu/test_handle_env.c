/* The handle's switches from the environment (cuperm_handle_read_env): what cupermCreate and the
 * host tools' stand-in handles read, and what a malformed value falls back to. No device needed. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "exec/contraction/plan.h" /* CTR_LT_AFTER_RUNS */
#include "exec/handle.h"
#include "plan/contraction/layout.h"

static const char* const names[] = {"CUPERM_GETT", "CUPERM_GETT_TMA_TILE", "CUPERM_CTR_DENSE_WORKSPACE",
                                    "CUPERM_CTR_ZERO", "CUPERM_CTR_TRANSPOSE_CALIBRATION", "CUPERM_LT_AFTER_RUNS"};

static void read_with(cuperm_handle_t* h, const char* const values[6])
{
    for (int i = 0; i < 6; ++i)
        if (values[i]) setenv(names[i], values[i], 1);
        else unsetenv(names[i]);
    memset(h, 0x5a, sizeof *h); /* every switch must be set, whatever was there */
    cuperm_handle_read_env(h);
    for (int i = 0; i < 6; ++i) unsetenv(names[i]);
}

static void defaults(void** state)
{
    (void)state;
    cuperm_handle_t h;
    read_with(&h, (const char* const[6]){NULL, NULL, NULL, NULL, NULL, NULL});
    assert_int_equal(h.gettForced, 0);
    assert_int_equal(h.gettTma, 0);
    assert_int_equal(h.gettTmaTile, -1);
    assert_int_equal(h.ctrDenseWorkspace, 0);
    assert_int_equal(h.ctrZeroKind, CTR_ZERO_NONE); /* each padding priced */
    assert_int_equal(h.ctrRawTransposePrices, 0);
    assert_int_equal(h.ltAfterRuns, CTR_LT_AFTER_RUNS);
}

static void switches(void** state)
{
    (void)state;
    cuperm_handle_t h;
    read_with(&h, (const char* const[6]){"tma", NULL, "1", "slice", "0", "0"});
    assert_int_equal(h.gettForced, 1);
    assert_int_equal(h.gettTma, 1);
    assert_int_equal(h.ctrDenseWorkspace, 1);
    assert_int_equal(h.ctrZeroKind, CTR_ZERO_SLICE);
    assert_int_equal(h.ctrRawTransposePrices, 1);
    assert_int_equal(h.ltAfterRuns, 0);
    read_with(&h, (const char* const[6]){"1", NULL, NULL, "memset2d", "1", "12"});
    assert_int_equal(h.gettForced, 1);
    assert_int_equal(h.gettTma, 0);
    assert_int_equal(h.ctrZeroKind, CTR_ZERO_MEMSET2D);
    assert_int_equal(h.ctrRawTransposePrices, 0);
    assert_int_equal(h.ltAfterRuns, 12);
}

/* Values that name nothing leave the default: never a half-parsed switch. */
static void malformed_values(void** state)
{
    (void)state;
    cuperm_handle_t h;
    read_with(&h, (const char* const[6]){"yes", NULL, "true", "rows", "off", "12x"});
    assert_int_equal(h.gettForced, 0);
    assert_int_equal(h.ctrDenseWorkspace, 0);
    assert_int_equal(h.ctrZeroKind, CTR_ZERO_NONE);
    assert_int_equal(h.ctrRawTransposePrices, 0);
    assert_int_equal(h.ltAfterRuns, CTR_LT_AFTER_RUNS);
    read_with(&h, (const char* const[6]){NULL, NULL, NULL, "", NULL, "-3"});
    assert_int_equal(h.ctrZeroKind, CTR_ZERO_NONE);
    assert_int_equal(h.ltAfterRuns, CTR_LT_AFTER_RUNS);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(defaults), cmocka_unit_test(switches),
                                       cmocka_unit_test(malformed_values)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
