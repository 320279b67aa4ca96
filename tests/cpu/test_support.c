/* support/ (cuperm_support) beyond the reference itself (tests/cpu/test_reference.c):
 * the type table, the generator's fixed outputs, cuTT-style permutes, poison masks and
 * checks, and the event timer's error path (no GPU here: it must fail cleanly). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "support/dtype.h"
#include "support/poison.h"
#include "support/reference.h"
#include "support/rng.h"
#include "support/timer.h"

static void dtype_table(void** state)
{
    (void)state;
    assert_int_equal(dtype_count, 13);
    for (int i = 0; i < dtype_count; ++i) {
        const dtype_info* t = dtype_of(dtype_all[i]);
        assert_non_null(t);
        assert_ptr_equal(dtype_find(t->name), t);
        assert_ptr_equal(dtype_find(t->enum_name), t);
        assert_int_equal(t->size, cupermDataTypeSize(t->type)); /* the table agrees with the library */
        assert_int_equal(dtype_size(t->type), t->size);
        assert_int_equal(dtype_is_float(t->type), t->kind != DTYPE_INT);
    }
    assert_string_equal(dtype_names(), "f64, f32, f16, bf16, c64, c32, i64, u64, i32, u32, i16, i8, u8");
    assert_string_equal(dtype_enum_name(CUPERM_R_16BF), "R_16BF");
    assert_string_equal(dtype_enum_name((cupermDataType_t)12345), "?");
    assert_null(dtype_find("f33"));
    assert_int_equal(dtype_scalar_size(CUPERM_R_16F), 4);
    assert_int_equal(dtype_scalar_size(CUPERM_C_32F), 8);
    assert_true(dtype_is_complex(CUPERM_C_32F) && !dtype_is_complex(CUPERM_R_64F));
    unsigned char buf[16];
    dtype_scalar(CUPERM_R_16F, 2.0, buf);
    float f;
    memcpy(&f, buf, 4);
    assert_true(f == 2.0f);
    dtype_scalar(CUPERM_R_8I, -3.0, buf);
    assert_int_equal((int8_t)buf[0], -3);
}

static void rng_is_splitmix64(void** state)
{
    (void)state;
    rng_t r = {0}; /* SplitMix64's published first output for seed 0 */
    assert_true(rng_next(&r) == 0xe220a8397b1dcdafull);
    rng_t a = {42}, b = {42};
    for (int i = 0; i < 100; ++i) {
        const double u = rng_uniform(&a);
        assert_true(u >= 0 && u < 1);
        assert_true(rng_range(&b, 5, 9) >= 5);
    }
    int perm[8], seen[8] = {0};
    rng_permutation(&a, 8, perm);
    for (int i = 0; i < 8; ++i) seen[perm[i]]++;
    for (int i = 0; i < 8; ++i) assert_int_equal(seen[i], 1);
}

static void permute_like_cutt(void** state)
{
    (void)state;
    /* 2x3 column-major, perm {1, 0}: out(j, i) = in(i, j), for every element size */
    const int dims[2] = {2, 3}, perm[2] = {1, 0};
    for (size_t es = 1; es <= 16; es *= 2) {
        unsigned char in[6 * 16], out[6 * 16], want[6 * 16];
        for (size_t k = 0; k < sizeof in; ++k) in[k] = (unsigned char)(k * 7 + 1);
        for (int j = 0; j < 3; ++j)
            for (int i = 0; i < 2; ++i) memcpy(want + (size_t)(j + 3 * i) * es, in + (size_t)(i + 2 * j) * es, es);
        assert_int_equal(ref_permute(2, dims, perm, es, in, out), 0);
        assert_memory_equal(out, want, 6 * es);
    }
    unsigned char x[3];
    assert_int_equal(ref_permute(2, dims, perm, 3, x, x), -1);
}

static void poison_masks_and_footprints(void** state)
{
    (void)state;
    /* 2x2 with strides {1, 3}: elements at 0, 1, 3, 4 of a span of 5 */
    const int64_t e[2] = {2, 2}, s[2] = {1, 3};
    unsigned char* mask = poison_element_mask(2, e, s, 5);
    const unsigned char want[5] = {1, 1, 0, 1, 1};
    assert_memory_equal(mask, want, 5);
    unsigned char before[16], after[16];
    poison_pattern(before, sizeof before);
    memcpy(after, before, sizeof after);
    int64_t where = -1;
    after[4 + 3 * 2] ^= 1; /* element 3 (origin 4, 2-byte elements): allowed */
    assert_int_equal(poison_changed_outside(before, after, 16, 4, 2, mask, 5, &where), 0);
    after[4 + 2 * 2] ^= 1; /* element 2: padding */
    assert_int_equal(poison_changed_outside(before, after, 16, 4, 2, mask, 5, &where), 1);
    assert_int_equal(where, 4);
    after[4 + 2 * 2] ^= 1;
    assert_int_equal(poison_changed_outside(before, after, 16, 4, 2, NULL, 5, &where), 1);
    assert_int_equal(where, 6); /* nothing may change: element 3 counts too */
    free(mask);
    const int64_t d[1] = {3};
    mask = poison_element_mask(1, d, NULL, 3);
    assert_memory_equal(mask, "\1\1\1", 3);
    free(mask);
}

static int runs;
static int count_run(void* ctx, cudaStream_t s)
{
    (void)ctx;
    (void)s;
    ++runs;
    return 0;
}

static void timer_fails_cleanly_without_gpu(void** state)
{
    (void)state;
    int n = 0;
    if (cudaGetDeviceCount(&n) == cudaSuccess && n > 0) skip(); /* the GPU tests time for real */
    const timer_options o = {2, 1.0, 10, 3, 5, NULL};
    double ms = 0;
    assert_int_equal(timer_median_ms(count_run, NULL, 0, &o, &ms), -1);
    assert_true(ms == -1);
    assert_int_equal(runs, 0); /* stopped at the events, before running anything */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(dtype_table),
        cmocka_unit_test(rng_is_splitmix64),
        cmocka_unit_test(permute_like_cutt),
        cmocka_unit_test(poison_masks_and_footprints),
        cmocka_unit_test(timer_fails_cleanly_without_gpu),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
