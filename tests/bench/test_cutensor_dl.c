/*
 * cuperm-bench's dlopen of cuTENSOR (tools/bench/cutensor_dl.c) without cuTENSOR or a GPU: a
 * missing library and a library that is not cuTENSOR are refused with a message naming the
 * path and what is missing. With CUPERM_TEST_CUTENSOR_LIB naming a real libcutensor.so.2, every
 * entry point must resolve: then only the handle may fail (no GPU here), with cuTENSOR's message.
 */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cutensor_dl.h"

static void test_missing_library(void** state)
{
    (void)state;
    char err[512] = "";
    setenv("CUPERM_BENCH_CUTENSOR", "/nonexistent/libcutensor.so.2", 1);
    assert_null(bench_cutensor_open(0, err, sizeof err));
    assert_non_null(strstr(err, "cannot load cuTENSOR (/nonexistent/libcutensor.so.2; set CUPERM_BENCH_CUTENSOR"));
}

static void test_not_cutensor(void** state)
{
    (void)state;
    char err[512] = "";
    setenv("CUPERM_BENCH_CUTENSOR", "libm.so.6", 1);
    assert_null(bench_cutensor_open(0, err, sizeof err));
    assert_string_equal(err, "libm.so.6 has no cutensorCreate (cuTENSOR 2 expected)");
}

static void test_real_library(void** state)
{
    (void)state;
    const char* lib = getenv("CUPERM_TEST_CUTENSOR_LIB");
    if (!lib || !*lib) {
        print_message("SKIPPED: CUPERM_TEST_CUTENSOR_LIB names no libcutensor.so.2\n");
        skip();
    }
    char err[512] = "";
    setenv("CUPERM_BENCH_CUTENSOR", lib, 1);
    bench_cutensor* t = bench_cutensor_open(1, err, sizeof err);
    if (t) { /* a GPU: the handle exists */
        assert_string_equal(bench_cutensor_path(t), lib);
        bench_cutensor_close(t);
        return;
    }
    print_message("  %s\n", err);
    assert_non_null(strstr(err, "cutensorCreate: "));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_missing_library),
        cmocka_unit_test(test_not_cutensor),
        cmocka_unit_test(test_real_library),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
