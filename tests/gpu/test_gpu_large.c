/* Volumes above 2^31 elements: 64-bit offsets end to end, every element
 * checked against the CPU reference. Needs ~4.5 GB of GPU memory. */
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

/* Whether the GPU has `bytes` free; otherwise prints a SKIPPED line naming the test. */
static int gpu_has_free(size_t bytes, const char* test)
{
    size_t free_b = 0, total_b = 0;
    cudaMemGetInfo(&free_b, &total_b);
    if (free_b >= bytes) return 1;
    printf("SKIPPED: %s needs %zu MB of GPU memory\n", test, bytes >> 20);
    return 0;
}

static void matrix_above_2_31_elements(void** state)
{
    (void)state;
    const int64_t n = 46349; /* n*n = 2,148,229,801 > 2^31 */
    if (!gpu_has_free((size_t)(2 * n * n + (1 << 28)), "matrix_above_2_31_elements")) skip();
    cupermHandle_t h;
    assert_int_equal(cupermCreate(&h), CUPERM_STATUS_SUCCESS);
    test_case_t c = {0};
    c.rank = 2;
    c.extents[0] = n;
    c.extents[1] = n;
    c.perm[0] = 1;
    c.perm[1] = 0;
    rng_t r = {900};
    run_opts_t o = {CUPERM_R_8U, SCALARS_PLAIN, 0, 0};
    assert_int_equal(gpu_run_case(h, &c, &o, &r), 0);
    cupermDestroy(h);
}

/* A rank-3 problem whose fused fastest dimension is shared (rows kernel). */
static void rows_above_2_31_elements(void** state)
{
    (void)state;
    if (!gpu_has_free((size_t)9 << 30, "rows_above_2_31_elements")) skip();
    cupermHandle_t h;
    assert_int_equal(cupermCreate(&h), CUPERM_STATUS_SUCCESS);
    test_case_t c = {0};
    c.rank = 3;
    c.extents[0] = 1027;
    c.extents[1] = 2053;
    c.extents[2] = 1021; /* 2.15e9 elements */
    c.perm[0] = 0;
    c.perm[1] = 2;
    c.perm[2] = 1;
    rng_t r = {901};
    run_opts_t o = {CUPERM_R_16I, SCALARS_PLAIN, 1, 0};
    assert_int_equal(gpu_run_case(h, &c, &o, &r), 0);
    cupermDestroy(h);
}

/* A batch of 5 x 7 byte matrices transposed, 2^31 + 12 elements: the span form of whole-dims
 * launches (its tiles' bases past 2^31; test_plan_rules checks that such batches take it). */
static void spans_above_2_31_elements(void** state)
{
    (void)state;
    if (!gpu_has_free((size_t)5 << 30, "spans_above_2_31_elements")) skip();
    cupermHandle_t h;
    assert_int_equal(cupermCreate(&h), CUPERM_STATUS_SUCCESS);
    test_case_t c = {0};
    c.rank = 3;
    c.extents[0] = 5;
    c.extents[1] = 7;
    c.extents[2] = 61356676; /* 2,147,483,660 elements */
    c.perm[0] = 1;
    c.perm[1] = 0;
    c.perm[2] = 2;
    rng_t r = {905};
    run_opts_t o = {CUPERM_R_8U, SCALARS_PLAIN, 3, 0}; /* heads of 3 bytes in every tile */
    assert_int_equal(gpu_run_case(h, &c, &o, &r), 0);
    cupermDestroy(h);
}

/* 2-byte elements moved through a 2-D transpose whose input's second dimension has stride
 * strides[i]: spans chosen just below and just above 2^32, so the tile kernels run on 32-bit
 * offset tables (cuperm_tile_offsets_fit_u32) and on 64-bit ones. int16 rather than f16: the same
 * 2-byte kernels, and its random fill of the 8.6 GB footprint takes a second where the float fill
 * takes minutes. */
static void two_byte_spans_near_2_32(const int64_t extents[2], const int64_t strides[2], uint64_t seed)
{
    if (!gpu_has_free((size_t)9 << 30, "spans near 2^32")) skip();
    cupermHandle_t h;
    assert_int_equal(cupermCreate(&h), CUPERM_STATUS_SUCCESS);
    for (int i = 0; i < 2; ++i) {
        test_case_t c = {0};
        c.rank = 2;
        c.extents[0] = extents[0];
        c.extents[1] = extents[1];
        c.perm[0] = 1;
        c.perm[1] = 0;
        c.has_in_strides = 1;
        c.in_strides[0] = 1;
        c.in_strides[1] = strides[i];
        rng_t r = {seed + (uint64_t)i};
        run_opts_t o = {CUPERM_R_16I, SCALARS_ALPHA, 0, 0};
        assert_int_equal(gpu_run_case(h, &c, &o, &r), 0);
    }
    cupermDestroy(h);
}

/* The scalar tiles' straight-line path (tile_lean.cuh): 95 x 81, spans 2^32 - 2 and 2^32 + 238.
 * Odd extents keep vector tiles out; 64 x 64 tiles leave whole and edge tiles. */
static void small_elements_with_spans_near_2_32(void** state)
{
    (void)state;
    const int64_t extents[2] = {95, 81}, strides[2] = {53687090, 53687093};
    two_byte_spans_near_2_32(extents, strides, 902);
}

/* The 4-byte vector tiles (tile_vec.cuh): 258 x 130 with even strides, spans 2^32 - 2339 and
 * 2^32 + 241; the host planner takes 128 x 64 vector tiles for it, whole and edge ones. */
static void vector_tiles_with_spans_near_2_32(void** state)
{
    (void)state;
    const int64_t extents[2] = {258, 130}, strides[2] = {33294300, 33294320};
    two_byte_spans_near_2_32(extents, strides, 904);
}

int main(void)
{
    require_gpu_or_skip("test_gpu_large");
    if (getenv("CUPERM_TEST_FILTER")) cmocka_set_test_filter(getenv("CUPERM_TEST_FILTER"));
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(matrix_above_2_31_elements),
        cmocka_unit_test(rows_above_2_31_elements),
        cmocka_unit_test(spans_above_2_31_elements),
        cmocka_unit_test(small_elements_with_spans_near_2_32),
        cmocka_unit_test(vector_tiles_with_spans_near_2_32),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
