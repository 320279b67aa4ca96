/* core/fastdiv.h: the multiply-and-shift quotient equals / and % wherever the kernels use it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "core/fastdiv.h"
#include "support/rng.h"

/* One check; counts the failures so a loop reports the first few, then fails. */
static int check(uint32_t n, uint32_t d)
{
    const cuperm_fastdiv_t f = cuperm_fastdiv_make(d);
    const uint32_t q = cuperm_fastdiv_quot(n, f);
    int64_t q64, r64;
    cuperm_divmod_fast(n, d, f, &q64, &r64);
    if (q == n / d && q64 == n / d && r64 == n % d) return 0;
    print_error("n = %u, d = %u: got q = %u (divmod %lld, %lld), want %u, %u\n", n, d, q, (long long)q64,
                (long long)r64, n / d, n % d);
    return 1;
}

static void exhaustive_small_ranges(void** state)
{
    (void)state;
    int bad = 0;
    for (uint32_t d = 1; d <= 2048; ++d)
        for (uint32_t n = 0; n <= 4096; ++n) bad += check(n, d);
    /* The top of the dividend range, where a short multiplier would first go wrong. */
    for (uint32_t d = 1; d <= 1024; ++d)
        for (uint32_t k = 1; k <= 1024; ++k) bad += check(UINT32_MAX - (k - 1), d);
    assert_int_equal(bad, 0);
}

static void random_32_bit_pairs(void** state)
{
    (void)state;
    rng_t r = {2024};
    int bad = 0;
    for (int i = 0; i < 2000000 && bad < 10; ++i) {
        const uint32_t n = (uint32_t)rng_next(&r);
        uint32_t d = (uint32_t)(rng_next(&r) >> (rng_next(&r) % 32)); /* every magnitude */
        if (d == 0) d = 1;
        bad += check(n, d);
    }
    assert_int_equal(bad, 0);
}

static void edge_cases(void** state)
{
    (void)state;
    uint32_t ds[128];
    int nd = 0;
    for (int k = 0; k < 32; ++k) {
        const uint32_t p = (uint32_t)1 << k;
        ds[nd++] = p;
        ds[nd++] = p + 1;
        if (p > 2) ds[nd++] = p - 1;
    }
    ds[nd++] = 0x7fffffffu; /* 2^31 - 1 */
    ds[nd++] = UINT32_MAX;
    ds[nd++] = UINT32_MAX - 1;
    ds[nd++] = 641; /* a factor of 2^32 + 1 */
    ds[nd++] = 6700417;
    int bad = 0;
    for (int i = 0; i < nd; ++i) {
        const uint32_t d = ds[i];
        const uint32_t ns[] = {0, 1, d - 1, d, d + 1 ? d + 1 : d, 2 * d, 0x7fffffffu, 0x80000000u, UINT32_MAX - 1,
                               UINT32_MAX, UINT32_MAX / d * d, UINT32_MAX / d * d - 1};
        for (size_t j = 0; j < sizeof ns / sizeof ns[0]; ++j) bad += check(ns[j], d);
    }
    assert_int_equal(bad, 0);
    /* Divisor 1 leaves the dividend; a power of two is a shift. */
    assert_int_equal(cuperm_fastdiv_quot(UINT32_MAX, cuperm_fastdiv_make(1)), UINT32_MAX);
    assert_int_equal(cuperm_fastdiv_quot(UINT32_MAX, cuperm_fastdiv_make((int64_t)1 << 31)), 1);
}

/* Operands of 2^32 and more take the 64-bit division: still exact. */
static void wide_operands_fall_back(void** state)
{
    (void)state;
    rng_t r = {77};
    for (int i = 0; i < 100000; ++i) {
        const int64_t n = (int64_t)(rng_next(&r) >> 1);
        int64_t d = (int64_t)(rng_next(&r) >> (1 + rng_next(&r) % 63));
        if (d == 0) d = 1;
        int64_t q, m;
        cuperm_divmod_fast(n, d, cuperm_fastdiv_make(d), &q, &m);
        assert_int_equal(q, n / d);
        assert_int_equal(m, n % d);
    }
    int64_t q, m;
    cuperm_divmod_fast(INT64_MAX, 3, cuperm_fastdiv_make(3), &q, &m);
    assert_int_equal(q, INT64_MAX / 3);
    assert_int_equal(m, INT64_MAX % 3);
    cuperm_divmod_fast(7, (int64_t)1 << 40, cuperm_fastdiv_make((int64_t)1 << 40), &q, &m);
    assert_int_equal(q, 0);
    assert_int_equal(m, 7);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(exhaustive_small_ranges),
        cmocka_unit_test(random_32_bit_pairs),
        cmocka_unit_test(edge_cases),
        cmocka_unit_test(wide_operands_fall_back),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
