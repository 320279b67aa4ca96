/* Reading alpha and beta: types, and when an execute may just move bits. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "core/scalars.h"

static void classify(void** state)
{
    (void)state;
    cuperm_scalars_t s;
    const float f1 = 1, f0 = 0, fm0 = -0.0f, f2 = 2;
    cuperm_read_scalars(CUPERM_R_32F, &f1, &f0, &s);
    assert_true(s.plain && !s.use_beta);
    cuperm_read_scalars(CUPERM_R_16F, &f1, &fm0, &s); /* half types take float scalars; -0 is zero */
    assert_true(s.plain && !s.use_beta);
    cuperm_read_scalars(CUPERM_R_32F, &f2, &f0, &s);
    assert_true(!s.plain && !s.use_beta);
    cuperm_read_scalars(CUPERM_R_32F, &f1, &f2, &s);
    assert_true(!s.plain && s.use_beta);
    const double c1[2] = {1, 0}, ci[2] = {0, 1}, c0[2] = {0, 0};
    cuperm_read_scalars(CUPERM_C_64F, c1, c0, &s);
    assert_true(s.plain);
    cuperm_read_scalars(CUPERM_C_64F, ci, c0, &s);
    assert_true(!s.plain);
    cuperm_read_scalars(CUPERM_C_64F, c1, ci, &s);
    assert_true(s.use_beta);
    const int8_t i1 = 1, i0 = 0, im = -1;
    cuperm_read_scalars(CUPERM_R_8I, &i1, &i0, &s);
    assert_true(s.plain);
    cuperm_read_scalars(CUPERM_R_8I, &im, &i0, &s);
    assert_true(!s.plain);
    const uint64_t u1 = 1, big = (uint64_t)1 << 40;
    cuperm_read_scalars(CUPERM_R_64U, &u1, &big, &s);
    assert_true(s.use_beta);
    assert_memory_equal(s.beta, &big, sizeof big);
    assert_int_equal(cuperm_scalar_size(CUPERM_R_16BF), 4);
    assert_int_equal(cuperm_scalar_size(CUPERM_C_64F), 16);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(classify)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
