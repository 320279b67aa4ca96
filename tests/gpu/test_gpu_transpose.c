/* GPU transposes against the CPU reference: every type, random shapes and
 * permutations, strides, scalars, misaligned pointers, edge shapes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <cuda_runtime_api.h>

#include "support/gpu_skip.h"
#include "gpu/gpu_case.h"

static cupermHandle_t handle;

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

/* CUPERM_TEST_QUICK (set under compute-sanitizer) runs a quarter of the random
 * cases, with smaller volumes. */
static int quick(void) { return getenv("CUPERM_TEST_QUICK") != NULL; }

static int run_random(uint64_t seed, int cases, int min_rank, int max_rank, int64_t max_volume, int strided,
                      cupermDataType_t type)
{
    rng_t r = {seed};
    if (quick()) {
        cases = (cases + 3) / 4;
        max_volume /= 8;
    }
    int failures = 0;
    for (int i = 0; i < cases; ++i) {
        test_case_t c;
        case_random(&r, &c, min_rank, max_rank, max_volume, strided);
        run_opts_t o = {type, (scalars_mode_t)(i % 3), (int)rng_range(&r, 0, 1), 0};
        failures += gpu_run_case(handle, &c, &o, &r);
    }
    return failures;
}

/* Ranks 1-12, every type, every scalar mode, dense and strided. */
static void every_type_random_shapes(void** state)
{
    (void)state;
    int failures = 0;
    for (int t = 0; t < dtype_count; ++t) {
        failures += run_random(100 + t, 24, 1, 12, 200000, 0, dtype_all[t]);
        failures += run_random(200 + t, 24, 1, 12, 200000, 1, dtype_all[t]);
    }
    assert_int_equal(failures, 0);
}

static void high_ranks_up_to_32(void** state)
{
    (void)state;
    int failures = 0;
    failures += run_random(300, 20, 13, 32, 300000, 0, CUPERM_R_64F);
    failures += run_random(301, 20, 13, 32, 300000, 1, CUPERM_R_32F);
    failures += run_random(302, 10, 32, 32, 100000, 1, CUPERM_C_64F);
    assert_int_equal(failures, 0);
}

/* Larger tensors that reach every kernel with full tiles and many blocks. */
static void larger_tensors(void** state)
{
    (void)state;
    int failures = 0;
    const cupermDataType_t types[] = {CUPERM_R_8U, CUPERM_R_16F, CUPERM_R_32F, CUPERM_R_64F, CUPERM_C_64F};
    for (int t = 0; t < 5; ++t) failures += run_random(400 + t, 8, 2, 6, 4000000, t % 2, types[t]);
    assert_int_equal(failures, 0);
}

static int run_fixed(int rank, const int64_t* e, const int* p, cupermDataType_t type, scalars_mode_t s,
                     int misalign, uint64_t seed)
{
    test_case_t c = {0};
    c.rank = rank;
    memcpy(c.extents, e, rank * sizeof *e);
    memcpy(c.perm, p, rank * sizeof *p);
    rng_t r = {seed};
    run_opts_t o = {type, s, misalign, 0};
    return gpu_run_case(handle, &c, &o, &r);
}

/* Identity, all-ones, primes, tiny or lopsided fastest dimensions. */
static void edge_shapes(void** state)
{
    (void)state;
    const struct {
        int rank;
        int64_t e[5];
        int p[5];
    } cases[] = {
        {1, {1}, {0}},
        {1, {1000003}, {0}},
        {3, {1, 1, 1}, {2, 0, 1}},
        {2, {7919, 13}, {1, 0}},
        {2, {13, 7919}, {1, 0}},
        {2, {2, 100003}, {1, 0}},
        {2, {100003, 2}, {1, 0}},
        {3, {31, 37, 41}, {0, 1, 2}},
        {3, {31, 37, 41}, {0, 2, 1}},
        {3, {3, 1009, 17}, {0, 2, 1}},
        {4, {2, 3, 5, 7}, {3, 2, 1, 0}},
        {5, {1, 97, 1, 89, 1}, {4, 3, 2, 1, 0}},
        {4, {64, 1, 1, 64}, {3, 1, 2, 0}},
        {3, {1024, 1024, 3}, {1, 0, 2}},
    };
    int failures = 0;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i)
        for (int t = 0; t < dtype_count; t += 3)
            for (int s = 0; s < 3; ++s)
                failures += run_fixed(cases[i].rank, cases[i].e, cases[i].p, dtype_all[t], (scalars_mode_t)s,
                                      (int)(i % 2), 500 + i);
    assert_int_equal(failures, 0);
}

/* The fastest dimension kept in place and at most 16 bytes long: plain moves
 * of aligned pointers run as wide elements; misaligned ones and scalars don't. */
static void short_shared_rows(void** state)
{
    (void)state;
    const struct {
        int rank;
        int64_t e[6];
        int p[6];
    } cases[] = {
        {3, {2, 301, 97}, {0, 2, 1}},
        {4, {4, 33, 17, 5}, {0, 3, 1, 2}},
        {5, {8, 9, 7, 11, 13}, {0, 4, 3, 2, 1}},
        {6, {16, 32, 15, 32, 15, 15}, {0, 3, 2, 5, 4, 1}},
        {4, {16, 10, 15, 103}, {0, 3, 2, 1}},
    };
    const cupermDataType_t types[] = {CUPERM_R_8U, CUPERM_R_16F, CUPERM_R_32F, CUPERM_R_64F};
    int failures = 0;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i)
        for (int t = 0; t < 4; ++t)
            for (int s = 0; s < 3; ++s)
                for (int mis = 0; mis < 2; ++mis)
                    failures += run_fixed(cases[i].rank, cases[i].e, cases[i].p, types[t], (scalars_mode_t)s, mis,
                                          800 + i);
    assert_int_equal(failures, 0);
}

/* Aligned 1-, 2- and 4-byte tensors large enough for many waves of vector
 * tiles, partial tiles at the edges included; extents that allow 8-byte
 * vectors but not 16-byte ones take the 8-byte tiles and rows. */
static void vector_tiles_many_and_partial(void** state)
{
    (void)state;
    const struct {
        int rank;
        int64_t e[3];
        int p[3];
    } cases[] = {
        {2, {2048, 1536}, {1, 0}},
        {2, {1040, 1200}, {1, 0}},
        {3, {256, 96, 160}, {1, 2, 0}},
        {3, {144, 7, 1008}, {2, 1, 0}},
        {2, {1042, 1206}, {1, 0}},
        {3, {136, 7, 1000}, {2, 1, 0}},
        {3, {6, 301, 97}, {0, 2, 1}},
        {3, {24, 130, 66}, {0, 2, 1}},
    };
    const cupermDataType_t types[] = {CUPERM_R_8U, CUPERM_R_16F, CUPERM_R_32F};
    int failures = 0;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i)
        for (int t = 0; t < 3; ++t)
            for (int s = 0; s < 3; ++s)
                failures += run_fixed(cases[i].rank, cases[i].e, cases[i].p, types[t], (scalars_mode_t)s, 0,
                                      900 + i);
    assert_int_equal(failures, 0);
}

/* Batches of small transposes in 1-, 2- and 4-byte elements, which plans move as contiguous spans
 * (the span form of whole-dims launches): short sides on either side, odd and prime extents and
 * batches, inner blocks of three dimensions; every scalar mode, pointers misaligned by 0-3 elements. */
static void batches_of_small_transposes(void** state)
{
    (void)state;
    const struct {
        int rank;
        int64_t e[4];
        int p[4];
    } cases[] = {
        {3, {2, 62, 30011}, {1, 0, 2}}, {3, {37, 2, 20011}, {1, 0, 2}}, {3, {5, 17, 9973}, {1, 0, 2}},
        {3, {3, 40, 7001}, {1, 0, 2}},  {4, {3, 5, 7, 3001}, {2, 0, 1, 3}}, {3, {7, 3, 5}, {1, 0, 2}},
    };
    const cupermDataType_t types[] = {CUPERM_R_8U, CUPERM_R_16F, CUPERM_R_32F, CUPERM_R_8I, CUPERM_R_16BF};
    int failures = 0;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i)
        for (int t = 0; t < 5; ++t)
            for (int s = 0; s < 3; ++s)
                failures += run_fixed(cases[i].rank, cases[i].e, cases[i].p, types[t], (scalars_mode_t)s,
                                      (int)((i + t + s) % 4), 1000 + i);
    assert_int_equal(failures, 0);
}

/* beta = 0 never reads out: NaN poison there must not reach the result. */
static void nan_in_out_with_beta_zero(void** state)
{
    (void)state;
    const int64_t e[3] = {67, 45, 23};
    const int p[3] = {2, 0, 1};
    int failures = 0;
    const cupermDataType_t types[] = {CUPERM_R_16F, CUPERM_R_16BF, CUPERM_R_32F, CUPERM_R_64F, CUPERM_C_32F,
                                      CUPERM_C_64F};
    for (int t = 0; t < 6; ++t) failures += run_fixed(3, e, p, types[t], SCALARS_ALPHA, 0, 600 + t);
    assert_int_equal(failures, 0);
}

/* One plan, executed on other buffers from other streams. */
static void plan_reuse_across_streams(void** state)
{
    (void)state;
    cudaStream_t streams[2];
    cudaStreamCreate(&streams[0]);
    cudaStreamCreate(&streams[1]);
    rng_t r = {700};
    int failures = 0;
    for (int i = 0; i < 6; ++i) {
        test_case_t c;
        case_random(&r, &c, 2, 6, 500000, i % 2);
        run_opts_t o = {CUPERM_R_32F, SCALARS_PLAIN, 0, streams[i % 2]};
        failures += gpu_run_case(handle, &c, &o, &r);
    }
    cudaStreamDestroy(streams[0]);
    cudaStreamDestroy(streams[1]);
    assert_int_equal(failures, 0);
}

int main(void)
{
    require_gpu_or_skip("test_gpu_transpose");
    if (getenv("CUPERM_TEST_FILTER")) cmocka_set_test_filter(getenv("CUPERM_TEST_FILTER"));
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_type_random_shapes),
        cmocka_unit_test(high_ranks_up_to_32),
        cmocka_unit_test(larger_tensors),
        cmocka_unit_test(edge_shapes),
        cmocka_unit_test(nan_in_out_with_beta_zero),
        cmocka_unit_test(short_shared_rows),
        cmocka_unit_test(vector_tiles_many_and_partial),
        cmocka_unit_test(batches_of_small_transposes),
        cmocka_unit_test(plan_reuse_across_streams),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
