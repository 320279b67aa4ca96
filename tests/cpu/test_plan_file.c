/* The plan-cache file format (core/plan_file.c): round trip of two sections, and every way a
 * file must be refused (another writer's key, a flipped byte, truncation, another format
 * version, a section that claims more records than the file holds). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "core/plan_file.h"

typedef struct {
    int64_t a[3];
    int b;
} rec_key; /* padding zeroed by the writer's callers, as the library's keys are */

static const char* kKey = "cuperm test; sm_90; records 32+8";

/* A file of section 7 (three 32+8-byte records) and section 9 (none). */
static void build(cuperm_plan_file_writer_t* w)
{
    cuperm_plan_file_begin(w, kKey);
    cuperm_plan_file_section(w, 7, sizeof(rec_key), sizeof(double));
    for (int i = 0; i < 3; ++i) {
        rec_key k;
        memset(&k, 0, sizeof k);
        k.a[0] = i, k.a[1] = 10 * i, k.a[2] = -i, k.b = 100 + i;
        const double v = 0.5 * i;
        cuperm_plan_file_record(w, &k, &v);
    }
    cuperm_plan_file_section(w, 9, 16, 16);
    assert_int_equal(cuperm_plan_file_end(w), 0);
}

static void test_round_trip(void** state)
{
    (void)state;
    cuperm_plan_file_writer_t w;
    build(&w);
    cuperm_plan_file_reader_t r;
    char why[256] = "";
    assert_int_equal(cuperm_plan_file_open(&r, w.data, w.size, kKey, why, sizeof why), 0);
    uint32_t id, kb, vb, count;
    assert_int_equal(cuperm_plan_file_section_next(&r, &id, &kb, &vb, &count, why, sizeof why), 1);
    assert_int_equal(id, 7);
    assert_int_equal(kb, sizeof(rec_key));
    assert_int_equal(vb, sizeof(double));
    assert_int_equal(count, 3);
    for (uint32_t i = 0; i < count; ++i) {
        const void *k, *v;
        cuperm_plan_file_next(&r, kb, vb, &k, &v);
        rec_key key;
        double value;
        memcpy(&key, k, sizeof key);
        memcpy(&value, v, sizeof value);
        assert_int_equal(key.a[1], 10 * (int64_t)i);
        assert_int_equal(key.b, 100 + (int)i);
        assert_true(value == 0.5 * i);
    }
    assert_int_equal(cuperm_plan_file_section_next(&r, &id, &kb, &vb, &count, why, sizeof why), 1);
    assert_int_equal(id, 9);
    assert_int_equal(count, 0);
    assert_int_equal(cuperm_plan_file_section_next(&r, &id, &kb, &vb, &count, why, sizeof why), 0);
    cuperm_plan_file_writer_free(&w);
}

static void expect_refused(const unsigned char* data, size_t size, const char* key, const char* reason)
{
    cuperm_plan_file_reader_t r;
    char why[256] = "";
    assert_int_equal(cuperm_plan_file_open(&r, data, size, key, why, sizeof why), -1);
    if (!strstr(why, reason)) fail_msg("refused for \"%s\", expected \"%s\"", why, reason);
}

static void test_refused(void** state)
{
    (void)state;
    cuperm_plan_file_writer_t w;
    build(&w);
    unsigned char copy[4096];
    assert_true(w.size <= sizeof copy);
    /* another writer: same format, other identity */
    expect_refused(w.data, w.size, "cuperm test; sm_80; records 32+8", "another library build or device");
    /* every single flipped byte after the magic and version is caught by the checksum */
    for (size_t i = 12; i < w.size; ++i) {
        memcpy(copy, w.data, w.size);
        copy[i] ^= 0x5a;
        expect_refused(copy, w.size, kKey, "corrupt");
    }
    /* truncated anywhere */
    for (size_t n = 0; n < w.size; n += 7) {
        cuperm_plan_file_reader_t r;
        char why[256];
        assert_int_equal(cuperm_plan_file_open(&r, w.data, n, kKey, why, sizeof why), -1);
    }
    /* not ours, another format version */
    memcpy(copy, w.data, w.size);
    copy[0] = 'X';
    expect_refused(copy, w.size, kKey, "not a cuperm plan-cache file");
    memcpy(copy, w.data, w.size);
    copy[8] = 99;
    expect_refused(copy, w.size, kKey, "format version 99");
    cuperm_plan_file_writer_free(&w);
}

static void test_section_past_end(void** state)
{
    (void)state;
    /* A checksum-valid file whose section claims more records than it holds (a writer bug or a
     * forged file): the section header is refused, no record is read past the data. */
    cuperm_plan_file_writer_t w;
    cuperm_plan_file_begin(&w, kKey);
    cuperm_plan_file_section(&w, 7, 8, 8);
    const int64_t k = 1, v = 2;
    cuperm_plan_file_record(&w, &k, &v);
    const uint32_t lie = 1000000;
    memcpy(w.data + w.countAt, &lie, sizeof lie);
    assert_int_equal(cuperm_plan_file_end(&w), 0);
    cuperm_plan_file_reader_t r;
    char why[256] = "";
    assert_int_equal(cuperm_plan_file_open(&r, w.data, w.size, kKey, why, sizeof why), 0);
    uint32_t id, kb, vb, count;
    assert_int_equal(cuperm_plan_file_section_next(&r, &id, &kb, &vb, &count, why, sizeof why), -1);
    assert_non_null(strstr(why, "runs past the end"));
    cuperm_plan_file_writer_free(&w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_refused),
        cmocka_unit_test(test_section_past_end),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
