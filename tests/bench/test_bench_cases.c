/* CPU tests of cuperm-bench: suite generation is deterministic and meets its
 * specification, case files parse or fail with a message naming the line, the
 * CPU reference detects wrong elements, and the summary statistics are right. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "agreement.h"
#include "bench_case.h"
#include "case_parse.h"
#include "support/dtype.h"
#include "gen.h"
#include "reference.h"
#include "results.h"
#include "summary.h"
#include "support/reference.h"

extern const char bench_ttc57_text[];

static int64_t min_extent(const bench_case* c)
{
    int64_t m = c->extents[0];
    for (int i = 1; i < c->rank; ++i) m = c->extents[i] < m ? c->extents[i] : m;
    return m;
}

static int64_t max_extent(const bench_case* c)
{
    int64_t m = c->extents[0];
    for (int i = 1; i < c->rank; ++i) m = c->extents[i] > m ? c->extents[i] : m;
    return m;
}

static int same_case(const bench_case* a, const bench_case* b)
{
    return a->rank == b->rank && !memcmp(a->extents, b->extents, sizeof(int64_t) * a->rank) &&
           !memcmp(a->perm, b->perm, sizeof(int) * a->rank);
}

/* ---- perm720 -------------------------------------------------------------- */

static void test_perm720_yields_720_distinct_permutations(void** state)
{
    (void)state;
    bench_case_list l = {0};
    assert_int_equal(bench_gen_all_perms(6, 16, &l), 0);
    assert_int_equal(l.count, 720);
    for (size_t i = 0; i < l.count; ++i) {
        assert_int_equal(l.items[i].rank, 6);
        assert_true(bench_is_permutation(l.items[i].perm, 6));
        for (int d = 0; d < 6; ++d) assert_int_equal(l.items[i].extents[d], 16);
        for (size_t j = 0; j < i; ++j) assert_false(same_case(&l.items[i], &l.items[j]));
    }
    for (int d = 0; d < 6; ++d) {
        assert_int_equal(l.items[0].perm[d], d);         /* identity first */
        assert_int_equal(l.items[719].perm[d], 5 - d);   /* reversal last */
    }
    bench_case_list_free(&l);
}

static void test_all_perms_rejects_bad_arguments(void** state)
{
    (void)state;
    bench_case_list l = {0};
    assert_int_equal(bench_gen_all_perms(0, 16, &l), -1);
    assert_int_equal(bench_gen_all_perms(11, 16, &l), -1);
    assert_int_equal(bench_gen_all_perms(3, 0, &l), -1);
    assert_int_equal(l.count, 0);
}

/* ---- random --------------------------------------------------------------- */

static void test_random_cases_hit_ratio_and_volume(void** state)
{
    (void)state;
    bench_gen_params p = {0};
    p.count = 4;
    bench_gen_params_defaults(&p);
    assert_int_equal(p.num_ranks, 11);
    bench_case_list l = {0};
    char err[256];
    assert_int_equal(bench_gen_random_suite(&p, &l, err, sizeof err), 0);
    /* Rank 2 has one permutation, so ratio 1 has one distinct case and ratios 5 and
     * 15 two each (the long extent first or second); every other group is full. */
    assert_int_equal(l.count, 11 * 3 * 4 - (3 + 2 + 2));
    for (size_t i = 0; i < l.count; ++i) {
        const bench_case* c = &l.items[i];
        assert_true(bench_is_permutation(c->perm, c->rank));
        int identity = 1;
        for (int d = 0; d < c->rank; ++d) identity &= c->perm[d] == d;
        assert_false(identity);
        int64_t lo = min_extent(c), hi = max_extent(c);
        assert_true(lo >= 2);
        double volume = (double)bench_case_volume(c), ratio = (double)hi / (double)lo;
        if (hi == lo) {
            /* Ratio 1: no other equal extent is closer to the volume. */
            double err_now = fabs(log(volume / 2e8));
            assert_true(err_now <= fabs(c->rank * log((double)(lo + 1)) - log(2e8)));
            if (lo > 2) assert_true(err_now <= fabs(c->rank * log((double)(lo - 1)) - log(2e8)));
        } else {
            assert_true(ratio == 5.0 || ratio == 15.0);
            assert_true(volume > 0.95 * 2e8 && volume < 1.05 * 2e8);
        }
    }
    bench_case_list_free(&l);
}

static void test_random_suite_is_deterministic_per_seed(void** state)
{
    (void)state;
    bench_gen_params p = {.ranks = {4, 7}, .num_ranks = 2, .ratios = {5}, .num_ratios = 1};
    bench_gen_params_defaults(&p);
    bench_case_list a = {0}, b = {0}, c = {0};
    char err[256];
    assert_int_equal(bench_gen_random_suite(&p, &a, err, sizeof err), 0);
    assert_int_equal(bench_gen_random_suite(&p, &b, err, sizeof err), 0);
    p.seed = 2;
    assert_int_equal(bench_gen_random_suite(&p, &c, err, sizeof err), 0);
    assert_int_equal(a.count, 4);
    assert_int_equal(b.count, a.count);
    int differs = 0;
    for (size_t i = 0; i < a.count; ++i) {
        assert_true(same_case(&a.items[i], &b.items[i]));
        differs |= !same_case(&a.items[i], &c.items[i]);
    }
    assert_true(differs);
    bench_case_list_free(&a);
    bench_case_list_free(&b);
    bench_case_list_free(&c);
}

static void test_random_suite_rejects_impossible_parameters(void** state)
{
    (void)state;
    bench_gen_params p = {.ranks = {1}, .num_ranks = 1};
    bench_gen_params_defaults(&p);
    bench_case_list l = {0};
    char err[256] = "";
    assert_int_equal(bench_gen_random_suite(&p, &l, err, sizeof err), -1);
    assert_non_null(strstr(err, "rank 1"));
    bench_case_list_free(&l);
}

/* ---- highrank, small ------------------------------------------------------ */

static void test_highrank_has_four_large_dimensions(void** state)
{
    (void)state;
    bench_gen_params p = {.count = 5};
    bench_gen_params_defaults(&p);
    bench_case_list l = {0};
    char err[256];
    assert_int_equal(bench_gen_highrank_suite(&p, &l, err, sizeof err), 0);
    assert_int_equal(l.count, 10);
    for (size_t i = 0; i < l.count; ++i) {
        const bench_case* c = &l.items[i];
        assert_int_equal(c->rank, i < 5 ? 8 : 12);
        assert_true(bench_is_permutation(c->perm, c->rank));
        int large = 0;
        for (int d = 0; d < c->rank; ++d) {
            if (c->extents[d] == 2) continue;
            assert_int_equal(c->extents[d], max_extent(c));
            ++large;
        }
        assert_int_equal(large, 4);
        double volume = (double)bench_case_volume(c);
        assert_true(volume > 0.9 * 2e8 && volume < 1.1 * 2e8);
    }
    bench_case_list_free(&l);
}

static void test_small_suite_sizes(void** state)
{
    (void)state;
    static const double kib[] = {64, 256, 1024, 4096, 16384};
    bench_gen_params p = {0};
    bench_gen_params_defaults(&p);
    for (size_t elem = 1; elem <= 8; elem *= 2) {
        bench_case_list l = {0};
        char err[256];
        assert_int_equal(bench_gen_small_suite(&p, elem, &l, err, sizeof err), 0);
        assert_int_equal(l.count, 20);
        for (size_t i = 0; i < l.count; ++i) {
            double bytes = (double)bench_case_volume(&l.items[i]) * (double)elem;
            double want = kib[i / 4] * 1024;
            assert_true(bytes > 0.9 * want && bytes < 1.1 * want);
            assert_true(bench_is_permutation(l.items[i].perm, l.items[i].rank));
        }
        bench_case_list_free(&l);
    }
}


/* ---- suites outside the tuned shapes, and their held-out twins ------------- */

static int lists_share_a_case(const bench_case_list* a, const bench_case_list* b)
{
    for (size_t i = 0; i < a->count; ++i)
        for (size_t j = 0; j < b->count; ++j)
            if (same_case(&a->items[i], &b->items[j])) return 1;
    return 0;
}

static void test_primes_suite(void** state)
{
    (void)state;
    bench_gen_params p = {.count = 20};
    bench_gen_params_defaults(&p);
    bench_case_list l = {0}, h = {0}, again = {0};
    char err[256];
    assert_int_equal(bench_gen_primes_suite(&p, &l, err, sizeof err), 0);
    assert_int_equal(l.count, 80);
    for (size_t i = 0; i < l.count; ++i) {
        const bench_case* c = &l.items[i];
        assert_int_equal(c->rank, 3 + (int)(i / 20));
        assert_true(bench_is_permutation(c->perm, c->rank));
        for (int d = 0; d < c->rank; ++d) assert_true(bench_is_prime(c->extents[d]));
        double volume = (double)bench_case_volume(c);
        assert_true(volume > 0.7 * 2e8 && volume < 1.4 * 2e8);
    }
    assert_int_equal(bench_gen_primes_suite(&p, &again, err, sizeof err), 0);
    assert_int_equal(again.count, l.count);
    for (size_t i = 0; i < l.count; ++i) assert_true(same_case(&l.items[i], &again.items[i]));
    bench_gen_params q = p;
    q.seed = bench_heldout_seed(p.seed);
    assert_true(q.seed != p.seed);
    assert_int_equal(bench_gen_primes_suite(&q, &h, err, sizeof err), 0);
    assert_int_equal(h.count, 80);
    assert_false(lists_share_a_case(&l, &h));
    bench_case_list_free(&l);
    bench_case_list_free(&h);
    bench_case_list_free(&again);
}

static void test_mixed_suite(void** state)
{
    (void)state;
    bench_gen_params p = {.count = 10};
    bench_gen_params_defaults(&p);
    bench_case_list l = {0}, h = {0};
    char err[256];
    assert_int_equal(bench_gen_mixed_suite(&p, &l, err, sizeof err), 0);
    assert_int_equal(l.count, 20);
    for (size_t i = 0; i < l.count; ++i) {
        const bench_case* c = &l.items[i];
        assert_int_equal(c->rank, i < 10 ? 8 : 12);
        assert_true(bench_is_permutation(c->perm, c->rank));
        int small = 0, large = 0;
        for (int d = 0; d < c->rank; ++d) {
            small += c->extents[d] >= 2 && c->extents[d] <= 5;
            large += c->extents[d] >= 18 && c->extents[d] <= 40;
        }
        assert_int_equal(small + large, c->rank);
        assert_true(small >= 1 && large >= 2);
        double volume = (double)bench_case_volume(c);
        assert_true(volume >= 0.1 * 2e8 && volume <= 1.25 * 2e8);
    }
    bench_gen_params q = p;
    q.seed = bench_heldout_seed(p.seed);
    assert_int_equal(bench_gen_mixed_suite(&q, &h, err, sizeof err), 0);
    assert_false(lists_share_a_case(&l, &h));
    bench_case_list_free(&l);
    bench_case_list_free(&h);
}

static void test_shortgroup_suite(void** state)
{
    (void)state;
    bench_gen_params p = {.count = 8};
    bench_gen_params_defaults(&p);
    bench_case_list l = {0}, h = {0};
    char err[256];
    assert_int_equal(bench_gen_shortgroup_suite(&p, &l, err, sizeof err), 0);
    assert_int_equal(l.count, 24);
    int short_out = 0;
    for (size_t i = 0; i < l.count; ++i) {
        const bench_case* c = &l.items[i];
        assert_int_equal(c->rank, 3 + (int)(i / 8));
        assert_true(bench_is_permutation(c->perm, c->rank));
        assert_int_not_equal(c->perm[0], 0); /* a transpose, not a copy of rows */
        if (c->rank == 3) { /* a batch of small matrices, the short side in or out */
            assert_int_equal(c->perm[0], 1);
            assert_int_equal(c->perm[1], 0);
            assert_int_equal(c->perm[2], 2);
            assert_true((c->extents[0] >= 2 && c->extents[0] <= 8) || (c->extents[1] >= 2 && c->extents[1] <= 8));
            short_out += c->extents[0] > 8;
        } else {
            assert_true(c->extents[0] >= 2 && c->extents[0] <= 8);
        }
        const double volume = (double)bench_case_volume(c);
        assert_true(volume >= 0.45 * 2e8 && volume <= 1.25 * 2e8);
    }
    assert_true(short_out > 0 && short_out < 8);
    bench_gen_params q = p;
    q.seed = bench_heldout_seed(p.seed);
    assert_int_equal(bench_gen_shortgroup_suite(&q, &h, err, sizeof err), 0);
    assert_false(lists_share_a_case(&l, &h));
    bench_case_list_free(&l);
    bench_case_list_free(&h);
}

static void test_l2_suite_sizes(void** state)
{
    (void)state;
    bench_gen_params p = {.count = 6};
    bench_gen_params_defaults(&p);
    for (size_t elem = 2; elem <= 8; elem *= 2) {
        bench_case_list l = {0};
        char err[256];
        assert_int_equal(bench_gen_l2_suite(&p, elem, &l, err, sizeof err), 0);
        assert_int_equal(l.count, 30);
        for (size_t i = 0; i < l.count; ++i) {
            double bytes = (double)bench_case_volume(&l.items[i]) * (double)elem;
            double want = (double)(1 << (i / 6)) * 1048576.0;
            assert_int_equal(l.items[i].rank, 6);
            assert_true(bytes > 0.8 * want && bytes < 1.2 * want);
            assert_true(bench_is_permutation(l.items[i].perm, 6));
        }
        bench_case_list_free(&l);
    }
}

static void test_permn_heldout_extents(void** state)
{
    (void)state;
    for (int64_t n = 12; n <= 24; ++n)
        assert_int_equal(bench_permn_extent_is_heldout(n), n == 13 || n == 19 || n == 21 || n == 23);
}

/* ---- case files ----------------------------------------------------------- */

static void test_ttc57_reads_57_cases(void** state)
{
    (void)state;
    bench_case_list embedded = {0}, file = {0};
    char err[256] = "";
    assert_int_equal(bench_parse_cases(bench_ttc57_text, "ttc57", &embedded, err, sizeof err), 0);
    assert_int_equal(bench_read_case_file(BENCH_CASES_DIR "/ttc57.txt", &file, err, sizeof err), 0);
    assert_int_equal(embedded.count, 57);
    assert_int_equal(file.count, 57);
    for (size_t i = 0; i < 57; ++i) {
        const bench_case* c = &embedded.items[i];
        assert_true(same_case(c, &file.items[i]));
        assert_true(c->rank >= 2 && c->rank <= 6);
        double mb = (double)bench_case_volume(c) * 8 / 1e6;
        assert_true(mb > 400 && mb < 490); /* 405-484 MB per tensor at 8 bytes */
    }
    bench_case first = embedded.items[0], last = embedded.items[56];
    assert_int_equal(first.rank, 2);
    assert_int_equal(first.extents[0], 7248);
    assert_int_equal(first.perm[0], 1);
    assert_int_equal(last.rank, 6);
    assert_int_equal(last.extents[5], 112);
    assert_int_equal(last.perm[0], 5);
    bench_case_list_free(&embedded);
    bench_case_list_free(&file);
}

static void test_case_file_skips_comments_and_blanks(void** state)
{
    (void)state;
    bench_case_list l = {0};
    char err[256] = "";
    assert_int_equal(bench_read_case_file(BENCH_TEST_DATA "/good_cases.txt", &l, err, sizeof err),
                     0);
    assert_int_equal(l.count, 2);
    assert_int_equal(l.items[0].rank, 3);
    assert_int_equal(l.items[0].extents[2], 30);
    assert_int_equal(l.items[0].perm[0], 2);
    assert_int_equal(l.items[1].extents[1], 5);
    bench_case_list_free(&l);
}

static void expect_rejected(const char* line, const char* message)
{
    bench_case c;
    char err[256] = "";
    assert_int_equal(bench_parse_case(line, &c, err, sizeof err), -1);
    if (!strstr(err, message)) fail_msg("\"%s\": got \"%s\", want \"%s\"", line, err, message);
}

static void test_malformed_lines_are_rejected_with_a_reason(void** state)
{
    (void)state;
    expect_rejected("7248,7248 1,1", "must list each of 0..1 exactly once");
    expect_rejected("7248,7248 0,2", "must list each of 0..1 exactly once");
    expect_rejected("7248 0,1", "permutation has 2 entries but there are 1 extents");
    expect_rejected("0,5 1,0", "extent 0 is 0; extents must be >= 1");
    expect_rejected("12,a 1,0", "extents entry 1: expected a non-negative integer");
    expect_rejected("12,-3 1,0", "extents entry 1: expected a non-negative integer");
    expect_rejected("3,4 1,0 extra", "unexpected text after the permutation");
    expect_rejected("3,4", "expected a blank between extents and permutation");
    expect_rejected("3,4 1,", "permutation entry 1: expected a non-negative integer");
    expect_rejected("99999999999999999999,2 1,0", "extents entry 0 is too large");
    expect_rejected("1048576,1048576,1048576 0,1,2", "the volume exceeds 2^40 elements");
    expect_rejected("2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2 0",
                    "more than 32 entries");
}

static void test_case_list_error_names_the_line(void** state)
{
    (void)state;
    bench_case_list l = {0};
    char err[256] = "";
    assert_int_equal(bench_parse_cases("# c\n4,4 1,0\n\n4,4 1,0,2\n", "x.txt", &l, err, sizeof err),
                     -1);
    assert_string_equal(err, "x.txt:4: permutation has 3 entries but there are 2 extents");
    assert_int_equal(l.count, 1);
    bench_case_list_free(&l);
    assert_int_equal(bench_read_case_file(BENCH_TEST_DATA "/no_such_file.txt", &l, err, sizeof err),
                     -1);
    assert_non_null(strstr(err, "cannot open"));
}

/* ---- CPU reference -------------------------------------------------------- */

/* Independent transpose by explicit multi-indices: out[j] = in[i(j)]. */
static void naive_transpose(const bench_case* c, const void* in, void* out, size_t elem)
{
    int64_t n = bench_case_volume(c), idx[BENCH_MAX_RANK];
    for (int64_t j = 0; j < n; ++j) {
        int64_t rest = j;
        for (int r = 0; r < c->rank; ++r) {
            int64_t e = c->extents[c->perm[r]];
            idx[c->perm[r]] = rest % e;
            rest /= e;
        }
        int64_t i = 0;
        for (int d = c->rank - 1; d >= 0; --d) i = i * c->extents[d] + idx[d];
        memcpy((char*)out + j * elem, (const char*)in + i * elem, elem);
    }
}

static void check_reference(const char* dtype, bench_case c, int threads)
{
    const dtype_info* t = dtype_find(dtype);
    assert_non_null(t);
    size_t n = (size_t)bench_case_volume(&c);
    unsigned char* in = malloc(n * t->size);
    unsigned char* out = malloc(n * t->size);
    bench_fill_random(in, n, t, 7, threads);
    naive_transpose(&c, in, out, t->size);
    bench_verify_report rep;
    assert_int_equal(bench_verify_transpose(&c, t, in, out, NULL, 1, 0, threads, &rep), 0);
    assert_int_equal(rep.first_index, -1);

    /* One wrong element, then a wrong one far later: counted, the first located. */
    size_t j = n / 3, k = n - 2;
    out[j * t->size] ^= 1;
    out[k * t->size + t->size - 1] ^= 0x40;
    assert_int_equal(bench_verify_transpose(&c, t, in, out, NULL, 1, 0, threads, &rep), 2);
    assert_int_equal(rep.first_index, (int64_t)j);
    assert_non_null(strstr(rep.detail, "output element"));

    /* The identity result is wrong for a non-identity permutation. */
    assert_true(bench_verify_transpose(&c, t, in, in, NULL, 1, 0, threads, &rep) > 0);
    free(in);
    free(out);
}

static void test_reference_detects_wrong_elements(void** state)
{
    (void)state;
    bench_case c3 = {.rank = 3, .extents = {64, 48, 40}, .perm = {2, 0, 1}};
    bench_case c5 = {.rank = 5, .extents = {3, 5, 7, 11, 13}, .perm = {4, 1, 3, 0, 2}};
    check_reference("f64", c3, 4);
    check_reference("f64", c3, 1);
    check_reference("f16", c5, 3);
    check_reference("u8", c3, 8);
    check_reference("c64", c5, 2);
}

/* out = 2 perm(in) + 3 out for one type, the expected result from the support library's
 * reference: accepted; one element off by its type's top mantissa bit (floats) or by one
 * (integers): one mismatch. */
static void check_alpha_beta(const char* dtype)
{
    bench_case c = {.rank = 3, .extents = {37, 29, 5}, .perm = {1, 2, 0}};
    const dtype_info* t = dtype_find(dtype);
    assert_non_null(t);
    assert_true(bench_verify_supports(t, 2, 3));
    const size_t n = 37 * 29 * 5, es = t->size;
    unsigned char *in = malloc(n * es), *init = malloc(n * es), *out = malloc(n * es);
    bench_fill_random(in, n, t, 1, 2);
    bench_fill_random(init, n, t, 2, 2);
    memcpy(out, init, n * es);
    unsigned char alpha[16], beta[16];
    dtype_scalar(t->type, 2, alpha);
    dtype_scalar(t->type, 3, beta);
    ref_transpose(t->type, c.rank, c.extents, c.perm, NULL, NULL, alpha, in, beta, out, NULL);
    bench_verify_report rep;
    assert_int_equal(bench_verify_transpose(&c, t, in, out, init, 2, 3, 2, &rep), 0);
    const int bit = t->kind == DTYPE_INT ? 0 : t->mantissa_bits - 1;
    out[5 * es + bit / 8] ^= (unsigned char)(1u << (bit % 8));
    assert_int_equal(bench_verify_transpose(&c, t, in, out, init, 2, 3, 2, &rep), 1);
    assert_int_equal(rep.first_index, 5);
    free(in);
    free(init);
    free(out);
}

static void test_reference_with_alpha_and_beta(void** state)
{
    (void)state;
    static const char* types[] = {"f64", "f32", "f16", "bf16", "i8", "u8", "i16", "u32", "i64"};
    for (size_t k = 0; k < sizeof types / sizeof types[0]; ++k) check_alpha_beta(types[k]);
    /* Complex types only with (1, 0); integer scalars must be whole numbers 0-127. */
    assert_false(bench_verify_supports(dtype_find("c64"), 2, 0.5));
    assert_true(bench_verify_supports(dtype_find("c64"), 1, 0));
    assert_false(bench_verify_supports(dtype_find("i8"), 0.5, 0));
    assert_false(bench_verify_supports(dtype_find("u8"), -1, 0));
    assert_false(bench_verify_supports(dtype_find("i16"), 2, 128));
}

static void test_random_fill_is_finite_and_thread_independent(void** state)
{
    (void)state;
    const char* names[] = {"f64", "f32", "c32", "i32"};
    for (size_t k = 0; k < 4; ++k) {
        const dtype_info* t = dtype_find(names[k]);
        size_t n = 600000; /* several fill chunks */
        unsigned char* a = malloc(n * t->size);
        unsigned char* b = malloc(n * t->size);
        bench_fill_random(a, n, t, 42, 1);
        bench_fill_random(b, n, t, 42, 5);
        assert_memory_equal(a, b, n * t->size);
        bench_fill_random(b, n, t, 43, 5);
        assert_memory_not_equal(a, b, n * t->size);
        if (t->type == CUPERM_R_64F)
            for (size_t i = 0; i < n; ++i) {
                double v = ((double*)a)[i];
                assert_true(isfinite(v) && fabs(v) >= 0x1p-8 && fabs(v) < 0x1p9);
            }
        if (t->type == CUPERM_R_32F || t->type == CUPERM_C_32F)
            for (size_t i = 0; i < n * t->size / 4; ++i) {
                float v = ((float*)a)[i];
                assert_true(isfinite(v) && fabsf(v) >= 0x1p-8f && fabsf(v) < 0x1p9f);
            }
        free(a);
        free(b);
    }
}

/* ---- summary statistics --------------------------------------------------- */

static void test_stats(void** state)
{
    (void)state;
    double odd[] = {5, 1, NAN, 3};
    bench_stats s = bench_stats_of(odd, 4);
    assert_int_equal(s.count, 3);
    assert_true(s.worst == 1 && s.median == 3 && s.best == 5);
    double even[] = {4, 1, 3, 2};
    s = bench_stats_of(even, 4);
    assert_true(s.median == 2.5);
    double none[] = {NAN};
    s = bench_stats_of(none, 1);
    assert_int_equal(s.count, 0);
    assert_true(isnan(s.median));
}

static bench_result fake(const char* mode, int rank, double pct, int verified)
{
    bench_result r;
    memset(&r, 0, sizeof r);
    r.suite = "ttc57";
    r.dtype = "f64";
    r.mode = mode;
    r.rank = rank;
    r.pct_copy = pct;
    r.gbps = 30 * pct;
    r.copy_gbps = 3000;
    r.heur_over_meas = NAN;
    r.verified = verified;
    return r;
}

static void test_summary_per_rank_and_overall(void** state)
{
    (void)state;
    bench_result rows[] = {fake("heuristic", 2, 90, 1), fake("heuristic", 3, 70, 1),
                           fake("heuristic", 2, 80, 1), fake("measure", 2, 95, 0)};
    rows[3].heur_over_meas = rows[0].heur_over_meas = 1.25;
    char* text = NULL;
    size_t size = 0;
    FILE* f = open_memstream(&text, &size);
    assert_non_null(f);
    bench_write_summary(f, rows, 4, BENCH_GROUP_BY_RANK);
    fclose(f);
    const char* expected[] = {
        "f64, heuristic plans: % of same-run D2D copy bandwidth\n",
        "  2             2     80.0%     85.0%     90.0%\n",
        "  3             1     70.0%     70.0%     70.0%\n",
        "  all           3     70.0%     80.0%     90.0%\n",
        "  bandwidth: median 2400 GB/s; same-run copy median 3000 GB/s\n",
        "  heuristic/measured time: median 1.250, worst 1.250, best 1.250\n",
        "  verification failures: 0, errors: 0\n\nf64, measure plans",
        "  all           1     95.0%     95.0%     95.0%\n",
        "  verification failures: 1, errors: 0\n",
    };
    for (size_t i = 0; i < sizeof expected / sizeof expected[0]; ++i)
        if (!strstr(text, expected[i])) fail_msg("summary lacks \"%s\":\n%s", expected[i], text);
    free(text);

    /* By size: 64 KB and 1 MB groups, whatever the ranks. */
    rows[0].bytes = 65536;
    rows[1].bytes = 60000;
    rows[2].bytes = 1 << 20;
    rows[3].bytes = 1 << 20;
    f = open_memstream(&text, &size);
    bench_write_summary(f, rows, 4, BENCH_GROUP_BY_SIZE);
    fclose(f);
    const char* by_size[] = {
        "  size      cases     worst    median      best\n",
        "  64 KB         2     70.0%     80.0%     90.0%\n",
        "  1 MB          1     80.0%     80.0%     80.0%\n",
    };
    for (size_t i = 0; i < sizeof by_size / sizeof by_size[0]; ++i)
        if (!strstr(text, by_size[i])) fail_msg("summary lacks \"%s\":\n%s", by_size[i], text);
    free(text);
}

/* --compare's agreement: equal results agree; a difference just inside / outside the tolerance
 * (relative to the largest magnitude) passes / fails; an unwritten (NaN) element on either side fails; f16
 * data is read as f16. */
static void test_agreement(void** state)
{
    (void)state;
    float mine[64], theirs[64];
    for (int i = 0; i < 64; ++i) mine[i] = theirs[i] = (float)(i % 7) - 3.0f; /* largest |x| = 3 */
    const double K = 100, acc = 6e-8, out = 6e-8, tol = 4 * out + 4 * acc * 10;
    assert_true(bench_agreement(CUPERM_R_32F, mine, theirs, 64, K, acc, out) == 0);
    theirs[17] = mine[17] + (float)(0.5 * tol * 3);
    const double half = bench_agreement(CUPERM_R_32F, mine, theirs, 64, K, acc, out);
    assert_true(half > 0.4 && half < 0.6);
    theirs[17] = mine[17] + (float)(2.0 * tol * 3);
    const double twice = bench_agreement(CUPERM_R_32F, mine, theirs, 64, K, acc, out);
    assert_true(twice > 1.9 && twice < 2.1);
    theirs[17] = NAN;
    assert_true(isinf(bench_agreement(CUPERM_R_32F, mine, theirs, 64, K, acc, out)));
    theirs[17] = mine[17];
    for (int i = 0; i < 64; ++i) mine[i] = NAN; /* nothing to agree with: never a pass */
    assert_true(isinf(bench_agreement(CUPERM_R_32F, mine, theirs, 64, K, acc, out)));
    uint16_t a[4] = {0x3c00, 0x4000, 0xc000, 0x0000}, b[4] = {0x3c00, 0x4000, 0xc000, 0x0000}; /* 1, 2, -2, 0 */
    assert_true(bench_agreement(CUPERM_R_16F, a, b, 4, 1, 6e-8, 4.9e-4) == 0);
    b[0] = 0x3c01; /* 1 + 2^-10: 4.9e-4 of the largest magnitude 2, a quarter of the tolerance */
    const double f16 = bench_agreement(CUPERM_R_16F, a, b, 4, 1, 6e-8, 4.9e-4);
    assert_true(f16 > 0.2 && f16 < 0.3);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_perm720_yields_720_distinct_permutations),
        cmocka_unit_test(test_all_perms_rejects_bad_arguments),
        cmocka_unit_test(test_random_cases_hit_ratio_and_volume),
        cmocka_unit_test(test_random_suite_is_deterministic_per_seed),
        cmocka_unit_test(test_random_suite_rejects_impossible_parameters),
        cmocka_unit_test(test_highrank_has_four_large_dimensions),
        cmocka_unit_test(test_small_suite_sizes),
        cmocka_unit_test(test_primes_suite),
        cmocka_unit_test(test_mixed_suite),
        cmocka_unit_test(test_shortgroup_suite),
        cmocka_unit_test(test_l2_suite_sizes),
        cmocka_unit_test(test_permn_heldout_extents),
        cmocka_unit_test(test_ttc57_reads_57_cases),
        cmocka_unit_test(test_case_file_skips_comments_and_blanks),
        cmocka_unit_test(test_malformed_lines_are_rejected_with_a_reason),
        cmocka_unit_test(test_case_list_error_names_the_line),
        cmocka_unit_test(test_reference_detects_wrong_elements),
        cmocka_unit_test(test_reference_with_alpha_and_beta),
        cmocka_unit_test(test_random_fill_is_finite_and_thread_independent),
        cmocka_unit_test(test_stats),
        cmocka_unit_test(test_summary_per_rank_and_overall),
        cmocka_unit_test(test_agreement),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
