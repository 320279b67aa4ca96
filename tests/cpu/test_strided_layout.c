/* Post-conditions of core/layout.h's strided-dimension functions and of cuperm_decode,
 * each against a brute-force reference written with plain / and %. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/index_math.h"
#include "core/layout.h"
#include "support/rng.h"

#define MAXD 7
#define PITCH 4 /* records {extent, 3 strides}: cuperm_dim3_t */

/* Offsets of linear index i in every view, the first dimension fastest. */
static void reference_offsets(const int64_t* rec, int pitch, int views, int n, int64_t i, int64_t* off)
{
    for (int v = 0; v < views; ++v) off[v] = 0;
    for (int d = 0; d < n; ++d) {
        const int64_t e = rec[d * pitch], x = i % e;
        i /= e;
        for (int v = 0; v < views; ++v) off[v] += x * rec[d * pitch + 1 + v];
    }
}

static int64_t volume(const int64_t* rec, int pitch, int n)
{
    int64_t v = 1;
    for (int d = 0; d < n; ++d) v *= rec[d * pitch];
    return v;
}

/* Random records: extents 1..5 (units included), strides in each view either the previous
 * dimension's end (fusable) or random; views 1..3. */
static void random_records(rng_t* r, int n, int views, int64_t* rec)
{
    for (int d = 0; d < n; ++d) {
        int64_t* g = rec + d * PITCH;
        g[0] = rng_range(r, 1, 5);
        for (int v = 1; v <= 3; ++v)
            g[v] = d > 0 && v <= views && rng_range(r, 0, 2) ? g[v - PITCH] * g[-PITCH] : rng_range(r, 0, 40);
    }
}

/* View 0 of records as the two arrays of a one-tensor group. */
static void split_records(const int64_t* rec, int n, int64_t* extents, int64_t* strides)
{
    for (int d = 0; d < n; ++d) {
        extents[d] = rec[d * PITCH];
        strides[d] = rec[d * PITCH + 1];
    }
}

/* A random one-tensor group of lo..MAXD dimensions, as records and as arrays; returns n. */
static int random_group(rng_t* r, int lo, int64_t* rec, int64_t* extents, int64_t* strides)
{
    const int n = (int)rng_range(r, lo, MAXD);
    random_records(r, n, 1, rec);
    split_records(rec, n, extents, strides);
    return n;
}

static void decode_matches_reference(void** state)
{
    (void)state;
    rng_t r = {5};
    for (int iter = 0; iter < 2000; ++iter) {
        const int n = (int)rng_range(&r, 1, MAXD), views = (int)rng_range(&r, 1, 3);
        int64_t rec[MAXD * PITCH];
        cuperm_fastdiv_t div[MAXD];
        random_records(&r, n, views, rec);
        for (int d = 0; d < n; ++d) div[d] = cuperm_fastdiv_make(rec[d * PITCH]);
        for (int64_t i = 0; i < volume(rec, PITCH, n); ++i) {
            int64_t want[3], got[3];
            reference_offsets(rec, PITCH, views, n, i, want);
            cuperm_decode(rec, PITCH, views, div, n, i, got);
            for (int v = 0; v < views; ++v) assert_int_equal(got[v], want[v]);
        }
    }
}

/* Fusing keeps every element's offsets in every view, and does fuse. */
static void fusing_keeps_the_offset_map(void** state)
{
    (void)state;
    rng_t r = {6};
    int fused = 0, dropped = 0;
    for (int iter = 0; iter < 3000; ++iter) {
        const int n = (int)rng_range(&r, 1, MAXD), views = (int)rng_range(&r, 1, 3);
        int64_t rec[MAXD * PITCH], f[MAXD * PITCH];
        random_records(&r, n, views, rec);
        memcpy(f, rec, sizeof rec);
        const int m = cuperm_dims_fuse(f, PITCH, views, n);
        assert_true(m >= 0 && m <= n);
        int units = 0;
        for (int d = 0; d < n; ++d) units += rec[d * PITCH] == 1;
        fused += m < n - units;
        dropped += units > 0;
        for (int d = 0; d < m; ++d) assert_true(f[d * PITCH] > 1); /* no unit extents left */
        const int64_t vol = volume(rec, PITCH, n);
        assert_int_equal(volume(f, PITCH, m), vol);
        for (int64_t i = 0; i < vol; ++i) {
            int64_t want[3], got[3];
            reference_offsets(rec, PITCH, views, n, i, want);
            reference_offsets(f, PITCH, views, m, i, got);
            for (int v = 0; v < views; ++v) assert_int_equal(got[v], want[v]);
        }
    }
    assert_true(fused > 100 && dropped > 100);
}

static int cmp_pair(const void* a, const void* b)
{
    const int64_t *x = a, *y = b;
    return x[0] != y[0] ? (x[0] < y[0] ? -1 : 1) : x[1] != y[1] ? (x[1] < y[1] ? -1 : 1) : 0;
}

/* The sorted (input, output) offset pairs of every element of a transpose problem. */
static int64_t problem_pairs(const cuperm_problem_t* p, int64_t* pairs)
{
    cuperm_fastdiv_t div[CUPERM_MAX_RANK];
    for (int d = 0; d < p->rank; ++d) div[d] = cuperm_fastdiv_make(p->dim[d].extent);
    const int64_t vol = cuperm_problem_volume(p);
    for (int64_t i = 0; i < vol; ++i) cuperm_group_offsets(p->dim, div, 0, p->rank, i, &pairs[2 * i], &pairs[2 * i + 1]);
    qsort(pairs, (size_t)vol, 2 * sizeof(int64_t), cmp_pair);
    return vol;
}

/* Canonicalising reorders, drops and fuses dimensions: the set of (input offset, output
 * offset) pairs, which is what a transpose moves, stays the same. */
static void canonicalize_keeps_the_element_pairs(void** state)
{
    (void)state;
    rng_t r = {7};
    for (int iter = 0; iter < 2000; ++iter) {
        const int rank = (int)rng_range(&r, 1, 6);
        int64_t extents[6], perm_ext[6];
        int perm[6];
        for (int d = 0; d < rank; ++d) extents[d] = rng_range(&r, 1, 4);
        rng_permutation(&r, rank, perm);
        for (int d = 0; d < rank; ++d) perm_ext[d] = extents[perm[d]];
        int64_t in_str[6], out_str[6];
        cuperm_dense_strides(rank, extents, in_str);
        cuperm_dense_strides(rank, perm_ext, out_str);
        if (rng_range(&r, 0, 1)) in_str[rng_range(&r, 0, rank - 1)] *= 3; /* gaps break some fusions */
        cuperm_problem_t p, q;
        cuperm_problem_init(&p, rank, extents, perm, in_str, out_str);
        q = p;
        cuperm_problem_canonicalize(&q);
        int64_t *a = malloc(sizeof(int64_t) * 2 * 4096), *b = malloc(sizeof(int64_t) * 2 * 4096);
        const int64_t n = problem_pairs(&p, a);
        assert_int_equal(problem_pairs(&q, b), n);
        assert_memory_equal(a, b, sizeof(int64_t) * 2 * (size_t)n);
        for (int d = 1; d < q.rank; ++d) /* ordered by input stride */
            assert_true(q.dim[d - 1].in_stride <= q.dim[d].in_stride);
        free(a);
        free(b);
    }
}

/* The offset table equals the decode of each index. */
static void offset_table_matches_reference(void** state)
{
    (void)state;
    rng_t r = {8};
    for (int iter = 0; iter < 2000; ++iter) {
        int64_t rec[MAXD * PITCH], extents[MAXD], strides[MAXD], table[78125 + 1];
        const int n = random_group(&r, 0, rec, extents, strides);
        const int64_t vol = volume(rec, PITCH, n);
        table[vol] = -12345; /* the table ends at the volume */
        cuperm_offset_table(n, extents, strides, table);
        assert_int_equal(table[vol], -12345);
        for (int64_t i = 0; i < vol; ++i) {
            int64_t want;
            reference_offsets(rec, PITCH, 1, n, i, &want);
            assert_int_equal(table[i], want);
        }
        int64_t max = 0;
        for (int64_t i = 0; i < vol; ++i) max = table[i] > max ? table[i] : max;
        assert_int_equal(cuperm_max_offset(n, extents, strides), max);
    }
}

/* Dense strides in any dimension order make the decode a bijection onto [0, volume). */
static void dense_decode_is_a_bijection(void** state)
{
    (void)state;
    rng_t r = {9};
    for (int iter = 0; iter < 1000; ++iter) {
        const int n = (int)rng_range(&r, 1, MAXD);
        int perm[MAXD];
        int64_t extents[MAXD], permuted[MAXD], dense[MAXD], rec[MAXD * PITCH];
        cuperm_fastdiv_t div[MAXD];
        for (int d = 0; d < n; ++d) extents[d] = rng_range(&r, 1, 5);
        rng_permutation(&r, n, perm);
        for (int d = 0; d < n; ++d) permuted[d] = extents[perm[d]];
        cuperm_dense_strides(n, permuted, dense); /* dimension perm[d] has stride dense[d] */
        for (int d = 0; d < n; ++d) {
            rec[perm[d] * PITCH] = extents[perm[d]];
            rec[perm[d] * PITCH + 1] = dense[d];
        }
        for (int d = 0; d < n; ++d) div[d] = cuperm_fastdiv_make(rec[d * PITCH]);
        const int64_t vol = volume(rec, PITCH, n);
        char* seen = calloc((size_t)vol, 1);
        for (int64_t i = 0; i < vol; ++i) {
            int64_t off;
            cuperm_decode(rec, PITCH, 1, div, n, i, &off);
            assert_true(off >= 0 && off < vol);
            assert_int_equal(seen[off], 0);
            seen[off] = 1;
        }
        free(seen);
    }
}

static void fused_prefix_matches_reference(void** state)
{
    (void)state;
    rng_t r = {10};
    for (int iter = 0; iter < 5000; ++iter) {
        int64_t rec[MAXD * PITCH], extents[MAXD], strides[MAXD];
        const int n = random_group(&r, 1, rec, extents, strides);
        const int k = cuperm_fused_prefix(n, extents, strides);
        /* The prefix is one dimension: its offsets are stride[0] * (index). */
        int64_t vol = 1;
        for (int d = 0; d < k; ++d) vol *= extents[d];
        for (int64_t i = 0; i < vol; ++i) {
            int64_t off;
            reference_offsets(rec, PITCH, 1, k, i, &off);
            assert_int_equal(off, i * strides[0]);
        }
        if (k < n) assert_true(strides[k] != strides[k - 1] * extents[k - 1]);
    }
    assert_int_equal(cuperm_fused_prefix(0, NULL, NULL), 0);
}

static void sort_by_key_orders_totally(void** state)
{
    (void)state;
    rng_t r = {11};
    for (int iter = 0; iter < 5000; ++iter) {
        const int n = (int)rng_range(&r, 0, 12);
        int64_t key[12], tie[12];
        int order[12], count[12] = {0};
        for (int i = 0; i < n; ++i) {
            key[i] = rng_range(&r, 0, 3);
            tie[i] = rng_range(&r, 0, 2);
        }
        rng_permutation(&r, n, order);
        const int useTie = (int)rng_range(&r, 0, 1);
        cuperm_sort_by_key(order, n, key, useTie ? tie : NULL);
        for (int i = 0; i < n; ++i) ++count[order[i]];
        for (int i = 0; i < n; ++i) assert_int_equal(count[i], 1); /* a permutation */
        for (int i = 1; i < n; ++i) {
            const int x = order[i - 1], y = order[i];
            const int before = key[x] != key[y] ? key[x] < key[y] : useTie && tie[x] != tie[y] ? tie[x] < tie[y] : x < y;
            assert_true(before);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(decode_matches_reference),
        cmocka_unit_test(fusing_keeps_the_offset_map),
        cmocka_unit_test(canonicalize_keeps_the_element_pairs),
        cmocka_unit_test(offset_table_matches_reference),
        cmocka_unit_test(dense_decode_is_a_bijection),
        cmocka_unit_test(fused_prefix_matches_reference),
        cmocka_unit_test(sort_by_key_orders_totally),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
