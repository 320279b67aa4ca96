/* CPU tests of the contraction benchmark's cases: the TCCG list parses to 48
 * contractions with the right shapes, and random contractions keep the rules of
 * cuTT's TAL-SH study (ranks <= 8, every mode in two tensors, the volume and flop
 * caps, some large tensor). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "contraction_cases.h"

static bench_ctr_case cases[256];

static char* read_file(const char* path)
{
    static char buf[1 << 16];
    FILE* f = fopen(path, "r");
    if (!f) return NULL;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    return buf;
}

static void test_tccg48_parses(void** state)
{
    (void)state;
    char err[256] = "";
    const char* text = read_file(CTR_TCCG48_PATH);
    assert_non_null(text);
    const int n = bench_ctr_parse(text, cases, 256, err, sizeof err);
    assert_int_equal(n, 48);
    /* 1 abc-bda-dc 312,312,24,312: m = a b, n = c, k = d. */
    int64_t m, nn, k, b;
    bench_ctr_gemm_shape(&cases[0], &m, &nn, &k, &b);
    assert_int_equal(m, 312 * 312);
    assert_int_equal(nn, 24);
    assert_int_equal(k, 312);
    assert_int_equal(b, 1);
    /* 12 ab-ac-cb 5136,5120,5136: a plain GEMM. */
    assert_int_equal(cases[11].id, 12);
    assert_true(bench_ctr_flops(&cases[11]) == 2.0 * 5136 * 5120 * 5136);
    assert_true(bench_ctr_bytes(&cases[11], 4, 4) == 4.0 * (5136.0 * 5136 + 5136.0 * 5120 + 5136.0 * 5120));
    assert_int_equal(bench_ctr_parse("1 ab-aX-Xb 3,4", cases, 256, err, sizeof err), -1);
    assert_non_null(strstr(err, "letters"));
    assert_int_equal(bench_ctr_parse("1 ab-ac-cb 3,4", cases, 256, err, sizeof err), -1);
    assert_non_null(strstr(err, "extent 3 of 3"));
}

/* cuTT's sizes (150M elements) and the small sets of --volume (bench/results/small-contractions-h100/). */
static void test_random_contractions_follow_the_rules(void** state)
{
    (void)state;
    const int64_t targets[] = {150000000, 1048576, 65536, 4096};
    const double maxFlops = 4e11;
    for (size_t v = 0; v < sizeof targets / sizeof targets[0]; ++v) {
        const int64_t target = targets[v];
        const int n = bench_ctr_random(7, 60, target, maxFlops, cases);
        assert_int_equal(n, 60);
        int big = 0;
        for (int i = 0; i < n; ++i) {
            bench_ctr_modes md;
            bench_ctr_modes_of(&cases[i], &md);
            double vol[4] = {1, 1, 1, 1}, largest = 0;
            for (int t = 0; t < 4; ++t) {
                assert_true(md.rank[t] >= 1 && md.rank[t] <= 8);
                for (int j = 0; j < md.rank[t]; ++j) vol[t] *= (double)md.extents[t][j];
                if (vol[t] > largest) largest = vol[t];
            }
            assert_true(largest <= (double)target);
            assert_true(bench_ctr_flops(&cases[i]) <= maxFlops);
            big += largest >= 0.25 * (double)target;
            /* Every letter in exactly two of D, A, B (no batched modes in this suite). */
            for (int l = 0; l < 26; ++l) {
                int seen = 0;
                for (const char* c = cases[i].spec; *c; ++c) seen += *c == 'a' + l;
                assert_true(seen == 0 || seen == 2);
            }
        }
        /* The volume cap is reached, not just respected, for most patterns. */
        if (!(big > n / 2)) fail_msg("target %lld: only %d of %d cases reach a quarter of it", (long long)target, big, n);
    }
}

/* short-k: K of 8-64 elements, D of target / 8 to target elements and no smaller than either
 * input, every letter in two or three of the tensors (a batch mode in all three), D mixing M and
 * N modes in most cases; seeds give different cases. */
static void test_short_k_follows_the_rules(void** state)
{
    (void)state;
    const int64_t target = 64000000;
    bench_ctr_case other[40];
    assert_int_equal(bench_ctr_short_k(1, 40, target, cases), 40);
    assert_int_equal(bench_ctr_short_k(2, 40, target, other), 40);
    int interleaved = 0, same = 0;
    for (int i = 0; i < 40; ++i) {
        int64_t m, n, k, b;
        bench_ctr_gemm_shape(&cases[i], &m, &n, &k, &b);
        if (k < 8 || k > 64) fail_msg("case %d %s: k %lld", i + 1, cases[i].spec, (long long)k);
        const double d = (double)m * (double)n * (double)b;
        if (d < (double)target / 8 * 0.999 || d > 2.0 * (double)target)
            fail_msg("case %d %s: D of %.0f elements", i + 1, cases[i].spec, d);
        bench_ctr_modes md;
        bench_ctr_modes_of(&cases[i], &md);
        double v[2] = {1, 1};
        for (int t = 0; t < 2; ++t)
            for (int j = 0; j < md.rank[t]; ++j) v[t] *= (double)md.extents[t][j];
        assert_true(v[0] <= d && v[1] <= d);
        /* D interleaves M and N: some N mode of D lies between two modes of A (M or batch), or the
         * reverse: three or more runs of A's and B's modes along D. */
        int runs = 1;
        for (int j = 1; j < md.rank[3]; ++j) {
            const char* aSpec = strchr(cases[i].spec, '-') + 1;
            const int prevM = memchr(aSpec, md.modes[3][j - 1], strcspn(aSpec, "-")) != NULL;
            const int curM = memchr(aSpec, md.modes[3][j], strcspn(aSpec, "-")) != NULL;
            runs += prevM != curM;
        }
        interleaved += runs > 2;
        same += !strcmp(cases[i].spec, other[i].spec);
    }
    assert_true(interleaved > 10);
    assert_true(same < 10);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tccg48_parses),
        cmocka_unit_test(test_random_contractions_follow_the_rules),
        cmocka_unit_test(test_short_k_follows_the_rules),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
