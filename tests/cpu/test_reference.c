/* The CPU reference itself, checked against hand-written definitions. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "support/reference.h"

static void half_and_bf16_round_to_nearest_even(void** state)
{
    (void)state;
    assert_int_equal(ref_float_to_half(1.0f), 0x3c00);
    assert_int_equal(ref_float_to_half(-2.0f), 0xc000);
    assert_int_equal(ref_float_to_half(65504.0f), 0x7bff);
    assert_int_equal(ref_float_to_half(65520.0f), 0x7c00);          /* rounds up to inf */
    assert_int_equal(ref_float_to_half(ldexpf(1, -24)), 0x0001);    /* smallest subnormal */
    assert_int_equal(ref_float_to_half(ldexpf(1, -25)), 0x0000);    /* tie to even: 0 */
    assert_int_equal(ref_float_to_half(1.0f + ldexpf(1, -11)), 0x3c00); /* tie to even */
    assert_int_equal(ref_float_to_half(1.0f + ldexpf(3, -11)), 0x3c02);
    for (uint32_t h = 0; h < 0x7c00; ++h) /* every finite half round-trips */
        assert_int_equal(ref_float_to_half(ref_half_to_float((uint16_t)h)), h);
    assert_true(isnan(ref_half_to_float(0x7e00)));
    assert_int_equal(ref_float_to_bf16(1.0f), 0x3f80);
    assert_int_equal(ref_float_to_bf16(1.0f + ldexpf(1, -8)), 0x3f80); /* tie to even */
    assert_int_equal(ref_float_to_bf16(1.0f + ldexpf(3, -8)), 0x3f82);
    assert_true(ref_bf16_to_float(0x4049) > 3.14f && ref_bf16_to_float(0x4049) < 3.15f);
}

static void matrix_transpose_by_hand(void** state)
{
    (void)state;
    /* in is 2x3 column-major: in(i, j) = 10*i + j; out(j, i) = in(i, j) */
    const int64_t e[2] = {2, 3};
    const int p[2] = {1, 0};
    float in[6], out[6], want[6];
    for (int j = 0; j < 3; ++j)
        for (int i = 0; i < 2; ++i) in[i + 2 * j] = (float)(10 * i + j);
    for (int j = 0; j < 3; ++j)
        for (int i = 0; i < 2; ++i) want[j + 3 * i] = (float)(10 * i + j);
    const float one = 1, zero = 0;
    memset(out, 0xff, sizeof out);
    ref_transpose(CUPERM_R_32F, 2, e, p, NULL, NULL, &one, in, &zero, out, NULL);
    assert_memory_equal(out, want, sizeof want);
}

static void scalars_and_strides(void** state)
{
    (void)state;
    /* out(i) = 2*in(i) + 3*out(i) on a strided 1-D view; gaps stay untouched */
    const int64_t e[1] = {3};
    const int p[1] = {0};
    const int64_t is[1] = {2}, os[1] = {3};
    double in[5] = {1, -1, 2, -1, 3}, out[7] = {10, 7, 7, 20, 7, 7, 30};
    const double a = 2, b = 3;
    double mag[7] = {0};
    ref_transpose(CUPERM_R_64F, 1, e, p, is, os, &a, in, &b, out, mag);
    const double want[7] = {32, 7, 7, 64, 7, 7, 96};
    assert_memory_equal(out, want, sizeof want);
    assert_true(mag[3] == 2 * 2 + 3 * 20);
    /* integers wrap */
    const int8_t ia = 100, ib = 0;
    int8_t x[3] = {3, 1, 2}, y[3] = {0, 0, 0};
    ref_transpose(CUPERM_R_8I, 1, e, p, NULL, NULL, &ia, x, &ib, y, NULL);
    assert_int_equal(y[0], (int8_t)44); /* 300 mod 256 */
    /* beta = 0 never reads out: NaN there does not leak */
    float fx[3] = {1, 2, 3}, fy[3] = {NAN, NAN, NAN};
    const float fa = 0.5f, fb = 0;
    ref_transpose(CUPERM_R_32F, 1, e, p, NULL, NULL, &fa, fx, &fb, fy, NULL);
    assert_true(fy[0] == 0.5f && fy[2] == 1.5f);
}

static void check_tolerates_rounding_not_errors(void** state)
{
    (void)state;
    float got[2] = {1.0f, 2.0f}, want[2] = {1.0f + ldexpf(1, -23), 2.0f};
    double mag[2] = {1, 2};
    char msg[128];
    assert_int_equal(ref_check(CUPERM_R_32F, 2, got, want, mag, msg, sizeof msg), 0);
    want[1] = 2.001f;
    assert_int_equal(ref_check(CUPERM_R_32F, 2, got, want, mag, msg, sizeof msg), 1);
    assert_non_null(strstr(msg, "element 1"));
    assert_int_equal(ref_check(CUPERM_R_32F, 2, got, want, NULL, msg, sizeof msg), 2); /* bit-exact */
    float nan_got = NAN, fine = 1;
    double m1 = 1;
    assert_int_equal(ref_check(CUPERM_R_32F, 1, &nan_got, &fine, &m1, NULL, 0), 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(half_and_bf16_round_to_nearest_even),
        cmocka_unit_test(matrix_transpose_by_hand),
        cmocka_unit_test(scalars_and_strides),
        cmocka_unit_test(check_tolerates_rounding_not_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
