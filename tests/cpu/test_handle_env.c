/* The handle's switches from the environment (cuperm_handle_read_env): what cupermCreate and the
 * host tools' stand-in handles read, and what a malformed value falls back to. No device needed. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "exec/contraction/measure.h" /* CTR_MEASURE_SAMPLE_MS */
#include "exec/contraction/plan.h"    /* CTR_LT_AFTER_RUNS */
#include "exec/handle.h"
#include "plan/contraction/layout.h"

static const char* const names[] = {"CUPERM_GETT",          "CUPERM_GETT_TMA_TILE", "CUPERM_CTR_DENSE_WORKSPACE",
                                    "CUPERM_CTR_ZERO",      "CUPERM_CTR_TRANSPOSE_CALIBRATION", "CUPERM_LT_AFTER_RUNS",
                                    "CUPERM_CTR_DTILE_PACKED_PRICE", "CUPERM_CTR_MEASURE_SAMPLE_MS",
                                    "CUPERM_DIST_STORE_BLOCKS", "CUPERM_LT_ALGO"};
enum { N = sizeof names / sizeof names[0] };

static void read_with(cuperm_handle_t* h, const char* const values[N])
{
    for (int i = 0; i < N; ++i)
        if (values[i]) setenv(names[i], values[i], 1);
        else unsetenv(names[i]);
    memset(h, 0x5a, sizeof *h); /* every switch must be set, whatever was there */
    cuperm_handle_read_env(h);
    for (int i = 0; i < N; ++i) unsetenv(names[i]);
}

/* The switches a read must give: CUPERM_GETT's two, CUPERM_CTR_DENSE_WORKSPACE, CUPERM_CTR_ZERO,
 * CUPERM_CTR_TRANSPOSE_CALIBRATION=0, CUPERM_LT_AFTER_RUNS, CUPERM_CTR_DTILE_PACKED_PRICE=0 and
 * CUPERM_DIST_STORE_BLOCKS, CUPERM_LT_ALGO (CUPERM_CTR_MEASURE_SAMPLE_MS's milliseconds: expect's last argument). */
typedef struct {
    int gettForced, gettTma, dense, zero, raw, ltAfterRuns, packedUnpriced, storeBlocks, ltAlgo;
} switches_t;

static void expect(const char* const values[N], switches_t want, double sample_ms)
{
    cuperm_handle_t h;
    read_with(&h, values);
    const switches_t got = {h.gettForced, h.gettTma, h.ctrDenseWorkspace, h.ctrZeroKind, h.ctrRawTransposePrices,
                            (int)h.ltAfterRuns, h.ctrPackedUnpriced, h.distStoreBlocks, h.ltAlgo};
    assert_memory_equal(&got, &want, sizeof got);
    assert_int_equal(h.gettTmaTile, -1); /* never set here */
    assert_true(h.ctrMeasureSampleMs == sample_ms);
}

static void defaults(void** state)
{
    (void)state; /* each padding priced, transposes calibrated */
    expect((const char* const[N]){NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL},
           (switches_t){0, 0, 0, CTR_ZERO_NONE, 0, CTR_LT_AFTER_RUNS, 0, 0, 0}, CTR_MEASURE_SAMPLE_MS);
}

static void switches(void** state)
{
    (void)state;
    expect((const char* const[N]){"tma", NULL, "1", "slice", "0", "0", "0", "0.05", "64", "7"},
           (switches_t){1, 1, 1, CTR_ZERO_SLICE, 1, 0, 1, 64, 7}, 0.05);
    expect((const char* const[N]){"1", NULL, NULL, "memset2d", "1", "12", "1", "2", "4", "1"},
           (switches_t){1, 0, 0, CTR_ZERO_MEMSET2D, 0, 12, 0, 4, 1}, 2.0);
}

/* Values that name nothing leave the default: never a half-parsed switch. */
static void malformed_values(void** state)
{
    (void)state;
    expect((const char* const[N]){"yes", NULL, "true", "rows", "off", "12x", "off", "0.5ms", "2x", "8"},
           (switches_t){0, 0, 0, CTR_ZERO_NONE, 0, CTR_LT_AFTER_RUNS, 0, 0, 0}, CTR_MEASURE_SAMPLE_MS);
    expect((const char* const[N]){NULL, NULL, NULL, "", NULL, "-3", "", "0", "65", "-1"},
           (switches_t){0, 0, 0, CTR_ZERO_NONE, 0, CTR_LT_AFTER_RUNS, 0, 0, 0}, CTR_MEASURE_SAMPLE_MS);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(defaults), cmocka_unit_test(switches),
                                       cmocka_unit_test(malformed_values)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
