/* cuperm_tuning_for: the table each compute capability gets (core/tuning.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "core/kernel_params.h"
#include "core/tuning.h"

static const cuperm_tuning_t* for_cc(int major, int minor)
{
    cuperm_device_info_t d = {0, major, minor, 132, 50 << 20, 48 << 10, 3.35e12};
    return cuperm_tuning_for(&d);
}

/* The transpose numbers every table holds today: the H100's (sm_90). */
static void check_sm90_transpose(const cuperm_transpose_tuning_t* t)
{
    assert_int_equal(t->short_run_bytes, 128);
    assert_int_equal(t->group_grow_until, 1024);
    assert_int_equal(t->tile_a_min_bytes, 128);
    assert_int_equal(t->tile_a_min_elems, 32);
    assert_int_equal(t->tile_side_max_log2, 11);
    assert_int_equal(t->tiled_min_vec_bytes, 4);
    assert_int_equal(t->tiled_shifted_lane_writes, 0); /* not measured yet */
    assert_int_equal(t->tiled_shifted_max_elem, 0); /* measured: the lean scalar tiles win */
    assert_int_equal(t->vec_row_bytes, 256);
    assert_int_equal(t->vec_row_bytes_1byte, 128);
    assert_int_equal(t->rows_vec_max_log2, 5);
    assert_true(t->vec_min_relative_fill == 0.75);
    assert_true(t->align_margin == 0.02);
    assert_true(t->sector_write_weight == 1.5);
    assert_true(t->sector_fill_exponent == 0.25);
    assert_true(t->sector_eff_tolerance == 0.005);
    assert_int_equal(t->walk_band_tiles, 8);
    assert_int_equal(t->whole_dims_run_bytes, 512);
    assert_int_equal(t->whole_dims_blocks_per_sm, 4);
    assert_int_equal(t->whole_dims_short_run_bytes, 64);
    assert_int_equal(t->whole_dims_min_tiles_per_block, 8);
    assert_int_equal(t->whole_dims_max_tile_items, 4);
    /* the runs kernel is compiled for this many blocks an SM (its launch bounds) */
    assert_int_equal(t->runs_blocks_per_sm, 4);
    assert_true(t->runs_blocks_per_sm <= CUPERM_RUNS_MAX_BLOCKS_PER_SM);
    assert_true(t->model_t0 == 4e-06);
    assert_true(t->model_gamma == 0.05);
    assert_true(t->model_run_bytes == 128);
    const double eff[CUPERM_TRANSPOSE_MODEL_CLASSES] = {0.9050, 0.8577, 0.8382, 0.8667, 0.8286};
    for (int k = 0; k < CUPERM_TRANSPOSE_MODEL_CLASSES; ++k) assert_true(t->model_efficiency[k] == eff[k]);
}

static void hopper_gets_sm90(void** state)
{
    (void)state;
    const cuperm_tuning_t* t = for_cc(9, 0);
    assert_non_null(t);
    assert_int_equal(t->tuned, 1);
    assert_int_equal(t->cc_major, 9);
    assert_int_equal(strncmp(t->name, "sm_90 ", 6), 0);
    assert_ptr_equal(for_cc(9, 1), t);
    check_sm90_transpose(&t->transpose);
    assert_true(t->gemm_flops_per_sm[CUPERM_RATE_FP16] == 989e12 / 132);
    /* The batch term: measured on for fp16 / bf16, off where unmeasured or measured mixed (tuning.c). */
    assert_true(t->gemm_batch_k_seconds[CUPERM_RATE_FP16] == 2e-9);
    assert_true(t->gemm_batch_k_seconds[CUPERM_RATE_FP32] == 0 && t->gemm_batch_k_seconds[CUPERM_RATE_FP64] == 0 &&
                t->gemm_batch_k_seconds[CUPERM_RATE_TF32] == 0);
}

static void ampere_gets_sm80(void** state)
{
    (void)state;
    const cuperm_tuning_t* t = for_cc(8, 0);
    assert_int_equal(t->tuned, 1);
    assert_int_equal(t->cc_major, 8);
    assert_int_equal(strncmp(t->name, "sm_80 ", 6), 0);
    assert_ptr_equal(for_cc(8, 6), t);
    assert_true(t->gemm_flops_per_sm[CUPERM_RATE_FP16] == 312e12 / 108);
    assert_true(t->gemm_batch_k_seconds[CUPERM_RATE_FP16] == 0); /* not measured on an A100 */
    check_sm90_transpose(&t->transpose); /* transposes never measured on an A100 */
}

static void unknown_gets_defaults(void** state)
{
    (void)state;
    static const int ccs[][2] = {{12, 0}, {7, 5}, {10, 0}, {6, 0}};
    const cuperm_tuning_t* sm80 = for_cc(8, 0);
    for (size_t i = 0; i < sizeof ccs / sizeof ccs[0]; ++i) {
        const cuperm_tuning_t* t = for_cc(ccs[i][0], ccs[i][1]);
        assert_non_null(t);
        assert_int_equal(t->tuned, 0);
        assert_non_null(strstr(t->name, "defaults"));
        assert_non_null(strstr(t->name, "untuned"));
        check_sm90_transpose(&t->transpose);
        assert_memory_equal(t->gemm_flops_per_sm, sm80->gemm_flops_per_sm, sizeof t->gemm_flops_per_sm);
        assert_ptr_not_equal(t, for_cc(9, 0));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(hopper_gets_sm90), cmocka_unit_test(ampere_gets_sm80),
                                       cmocka_unit_test(unknown_gets_defaults)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
