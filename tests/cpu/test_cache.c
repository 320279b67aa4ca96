/*
 * CPU tests of the library's one cache module (core/cache.c): hits and misses compared as
 * bytes, round-robin replacement at capacity, keep_old deciding between equal keys, foreach
 * visiting exactly the stored entries, a key of odd size.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "core/cache.h"

typedef struct {
    char name[13]; /* odd size: entries must still be aligned for the value */
} key_t_;

typedef struct {
    double seconds;
    int id;
} value_t_;

static key_t_ key(int i)
{
    key_t_ k;
    memset(&k, 0, sizeof k);
    k.name[0] = (char)('a' + i % 26);
    k.name[1] = (char)('a' + i / 26);
    return k;
}

static void test_get_put_replace(void** state)
{
    (void)state;
    cuperm_cache_t* c = cuperm_cache_create(sizeof(key_t_), sizeof(value_t_), 4);
    assert_non_null(c);
    value_t_ v = {0, -1};
    key_t_ k0 = key(0);
    assert_int_equal(cuperm_cache_get(c, &k0, &v), 0);
    assert_int_equal(v.id, -1); /* untouched on a miss */
    for (int i = 0; i < 4; ++i) {
        const key_t_ k = key(i);
        const value_t_ w = {i * 0.5, i};
        cuperm_cache_put(c, &k, &w, NULL);
    }
    for (int i = 0; i < 4; ++i) {
        const key_t_ k = key(i);
        assert_int_equal(cuperm_cache_get(c, &k, &v), 1);
        assert_int_equal(v.id, i);
    }
    /* Replacing an equal key keeps the count: all four still there. */
    const value_t_ w1 = {9.0, 100};
    const key_t_ k1 = key(1);
    cuperm_cache_put(c, &k1, &w1, NULL);
    assert_int_equal(cuperm_cache_get(c, &k1, &v), 1);
    assert_int_equal(v.id, 100);
    assert_int_equal(cuperm_cache_get(c, &k0, &v), 1);
    /* A fifth key takes the oldest slot (round robin): key 0 goes, the others stay. */
    const key_t_ k4 = key(4);
    const value_t_ w4 = {4.0, 4};
    cuperm_cache_put(c, &k4, &w4, NULL);
    assert_int_equal(cuperm_cache_get(c, &k0, &v), 0);
    for (int i = 1; i <= 4; ++i) {
        const key_t_ k = key(i);
        assert_int_equal(cuperm_cache_get(c, &k, &v), 1);
    }
    cuperm_cache_destroy(c);
}

static int keep_faster(const void* old_value, const void* new_value)
{
    value_t_ a, b;
    memcpy(&a, old_value, sizeof a);
    memcpy(&b, new_value, sizeof b);
    return a.seconds <= b.seconds;
}

static void test_keep_old(void** state)
{
    (void)state;
    cuperm_cache_t* c = cuperm_cache_create(sizeof(key_t_), sizeof(value_t_), 2);
    const key_t_ k = key(7);
    const value_t_ fast = {1.0, 1}, slow = {2.0, 2}, faster = {0.5, 3};
    value_t_ v;
    cuperm_cache_put(c, &k, &fast, keep_faster);
    cuperm_cache_put(c, &k, &slow, keep_faster);
    assert_int_equal(cuperm_cache_get(c, &k, &v), 1);
    assert_int_equal(v.id, 1);
    cuperm_cache_put(c, &k, &faster, keep_faster);
    assert_int_equal(cuperm_cache_get(c, &k, &v), 1);
    assert_int_equal(v.id, 3);
    cuperm_cache_destroy(c);
}

static void count_entry(void* ctx, const void* k, const void* value)
{
    (void)k;
    value_t_ v;
    memcpy(&v, value, sizeof v);
    int* seen = ctx;
    assert_true(v.id >= 0 && v.id < 8);
    ++seen[v.id];
}

static void test_foreach(void** state)
{
    (void)state;
    cuperm_cache_t* c = cuperm_cache_create(sizeof(key_t_), sizeof(value_t_), 8);
    int seen[8] = {0};
    cuperm_cache_foreach(c, count_entry, seen); /* empty: nothing */
    for (int i = 0; i < 8; ++i) assert_int_equal(seen[i], 0);
    for (int i = 0; i < 5; ++i) {
        const key_t_ k = key(i);
        const value_t_ w = {0, i};
        cuperm_cache_put(c, &k, &w, NULL);
    }
    cuperm_cache_foreach(c, count_entry, seen);
    for (int i = 0; i < 8; ++i) assert_int_equal(seen[i], i < 5);
    cuperm_cache_destroy(c);
    cuperm_cache_destroy(NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_get_put_replace),
        cmocka_unit_test(test_keep_old),
        cmocka_unit_test(test_foreach),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
