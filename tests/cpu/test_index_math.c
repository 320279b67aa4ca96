/* The __host__ __device__ index helpers the kernels use, run on the host. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/index_math.h"
#include "support/rng.h"

/* Both paths of cuperm_divmod_fast: the multiply for 32-bit operands, the division above. */
static void divmod_matches_operators(void** state)
{
    (void)state;
    rng_t r = {11};
    for (int i = 0; i < 200000; ++i) {
        int64_t n = (int64_t)(rng_next(&r) >> (rng_next(&r) % 63 + 1));
        int64_t d = (int64_t)(rng_next(&r) >> (rng_next(&r) % 62 + 2)) + 1;
        int64_t q, m;
        cuperm_divmod_fast(n, d, cuperm_fastdiv_make(d), &q, &m);
        assert_int_equal(q, n / d);
        assert_int_equal(m, n % d);
    }
    int64_t q, m;
    cuperm_divmod_fast(0xffffffffll, 1, cuperm_fastdiv_make(1), &q, &m);
    assert_int_equal(q, 0xffffffffll);
    cuperm_divmod_fast((int64_t)1 << 32, 3, cuperm_fastdiv_make(3), &q, &m);
    assert_int_equal(q, ((int64_t)1 << 32) / 3);
    cuperm_divmod_fast(5, (int64_t)1 << 33, cuperm_fastdiv_make((int64_t)1 << 33), &q, &m);
    assert_int_equal(q, 0);
    assert_int_equal(m, 5);
}

/* cuperm_log2_ceil against its definition (the smallest l with 2^l >= v): around every power
 * of two, on small and random values, and 0 for v <= 1. */
static void log2_ceil_is_the_smallest_covering_power(void** state)
{
    (void)state;
    for (int64_t v = -3; v <= 1; ++v) assert_int_equal(cuperm_log2_ceil(v), 0);
    for (int l = 1; l < 63; ++l) {
        const int64_t p = (int64_t)1 << l;
        assert_int_equal(cuperm_log2_ceil(p - 1), l > 1 ? l : 0); /* 2^l - 1 > 2^(l-1) for l > 1; 1 needs none */
        assert_int_equal(cuperm_log2_ceil(p), l);
        assert_int_equal(cuperm_log2_ceil(p + 1), l + 1);
    }
    rng_t r = {13};
    for (int i = 0; i < 100000; ++i) {
        const int64_t v = i < 5000 ? i + 2 : (int64_t)(rng_next(&r) >> (rng_next(&r) % 62 + 2)) + 2;
        const int l = cuperm_log2_ceil(v);
        assert_true(l >= 1 && l <= 62);
        assert_true(((int64_t)1 << l) >= v);
        assert_true(((int64_t)1 << (l - 1)) < v);
    }
}

static void group_divisors(const cuperm_dim_t* dims, int n, cuperm_fastdiv_t* div)
{
    for (int d = 0; d < n; ++d) div[d] = cuperm_fastdiv_make(dims[d].extent);
}

static void group_offsets_decompose_first_fastest(void** state)
{
    (void)state;
    const cuperm_dim_t dims[3] = {{3, 1, 100}, {4, 3, 10}, {5, 12, 1}};
    cuperm_fastdiv_t div[3];
    group_divisors(dims, 3, div);
    int64_t idx = 0;
    for (int64_t k = 0; k < 5; ++k)
        for (int64_t j = 0; j < 4; ++j)
            for (int64_t i = 0; i < 3; ++i, ++idx) {
                int64_t in, out;
                cuperm_group_offsets(dims, div, 0, 3, idx, &in, &out);
                assert_int_equal(in, i + 3 * j + 12 * k);
                assert_int_equal(out, 100 * i + 10 * j + k);
            }
    int64_t in = -1, out = -1;
    cuperm_group_offsets(dims, div, 1, 1, 0, &in, &out); /* empty group */
    assert_int_equal(in, 0);
    assert_int_equal(out, 0);
}

static void tile_origin_walks_a_then_b_then_outer(void** state)
{
    (void)state;
    cuperm_tile_params_t p = {0};
    p.rank = 3;
    p.a_end = 1;
    p.b_end = 2;
    p.dim[0] = (cuperm_dim_t){70, 1, 40};
    p.dim[1] = (cuperm_dim_t){40, 70, 1};
    p.dim[2] = (cuperm_dim_t){3, 2800, 2800};
    p.tile_a_log2 = 5;
    p.tile_b_log2 = 4;
    p.a_volume = 70;
    p.b_volume = 40;
    p.a_tiles = 3;
    p.b_tiles = 3;
    p.num_tiles = 27;
    cuperm_tile_divs_t dv;
    cuperm_tile_divisors(&p, &dv);
    for (int64_t t = 0; t < p.num_tiles; ++t) {
        int64_t a0, b0, ib, ob;
        cuperm_tile_origin(&p, &dv, t, &a0, &b0, &ib, &ob);
        assert_int_equal(a0, 32 * (t % 3));
        assert_int_equal(b0, 16 * ((t / 3) % 3));
        assert_int_equal(ib, 2800 * (t / 9));
        assert_int_equal(ob, 2800 * (t / 9));
    }
}

/* Banded walks visit every tile exactly once, for random grids and band widths;
 * within a band A runs fastest, and B neighbours run band_tiles apart. */
static void banded_tile_walk_is_a_bijection(void** state)
{
    (void)state;
    uint64_t x = 12345;
    for (int iter = 0; iter < 400; ++iter) {
        cuperm_tile_params_t p = {0};
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        p.a_tiles = 1 + (int64_t)((x >> 33) % 40);
        p.b_tiles = 1 + (int64_t)((x >> 13) % 30);
        const int64_t outer = 1 + (int64_t)((x >> 45) % 4);
        p.band_tiles = (int64_t)((x >> 50) % (uint64_t)(p.a_tiles + 3)); /* 0, inside, and >= a_tiles */
        p.tile_a_log2 = 2;
        p.tile_b_log2 = 3;
        p.a_volume = p.a_tiles << 2;
        p.b_volume = p.b_tiles << 3;
        p.rank = 3;
        p.a_end = 1;
        p.b_end = 2;
        p.dim[0] = (cuperm_dim_t){p.a_volume, 1, p.b_volume};
        p.dim[1] = (cuperm_dim_t){p.b_volume, p.a_volume, 1};
        p.dim[2] = (cuperm_dim_t){outer, p.a_volume * p.b_volume, p.a_volume * p.b_volume};
        p.num_tiles = p.a_tiles * p.b_tiles * outer;
        cuperm_tile_divs_t dv;
        cuperm_tile_divisors(&p, &dv);
        char* seen = calloc((size_t)p.num_tiles, 1);
        const int banded = p.band_tiles > 0 && p.band_tiles < p.a_tiles;
        for (int64_t t = 0; t < p.num_tiles; ++t) {
            int64_t a0, b0, ib, ob;
            cuperm_tile_origin(&p, &dv, t, &a0, &b0, &ib, &ob);
            assert_int_equal(a0 & 3, 0);
            assert_int_equal(b0 & 7, 0);
            const int64_t ta = a0 >> 2, tb = b0 >> 3, o = ib / (p.a_volume * p.b_volume);
            assert_true(ta >= 0 && ta < p.a_tiles && tb >= 0 && tb < p.b_tiles && o >= 0 && o < outer);
            assert_int_equal(o, t / (p.a_tiles * p.b_tiles)); /* outer stays slowest */
            const int64_t id = (o * p.b_tiles + tb) * p.a_tiles + ta;
            assert_int_equal(seen[id], 0);
            seen[id] = 1;
            if (!banded) {
                assert_int_equal(id, t);
            } else if (tb + 1 < p.b_tiles && (ta / p.band_tiles + 1) * p.band_tiles <= p.a_tiles) {
                /* a full band: the next B tile of the same A tile comes band_tiles later */
                int64_t a1, b1, i1, o1;
                cuperm_tile_origin(&p, &dv, t + p.band_tiles, &a1, &b1, &i1, &o1);
                assert_int_equal(a1, a0);
                assert_int_equal(b1, b0 + 8);
            }
        }
        free(seen);
    }
}

/* Granules cover a shifted run exactly once, in order, touching no granule the run does not
 * need; whole granules (lo 0, hi v) are exactly those inside the run. */
static void granules_cover_a_shifted_run_once(void** state)
{
    (void)state;
    for (int v = 1; v <= 16; v *= 2)
        for (int n = 1; n <= 70; ++n)
            for (int shift = 0; shift < v; ++shift) {
                const int count = cuperm_granules_of(shift, n, v);
                int next = 0; /* the run index the next granule must start at */
                for (int g = 0; g < count; ++g) {
                    int lo, hi;
                    cuperm_granule_part(shift, n, v, g, &lo, &hi);
                    assert_true(0 <= lo && lo < hi && hi <= v);
                    assert_int_equal(g * v - shift + lo, next);
                    next = g * v - shift + hi;
                    const int whole = g * v >= shift && g * v - shift + v <= n;
                    assert_int_equal(lo == 0 && hi == v, whole);
                }
                assert_int_equal(next, n);
                int lo, hi; /* the granule after the last holds nothing of the run */
                cuperm_granule_part(shift, n, v, count, &lo, &hi);
                assert_true(lo >= hi);
            }
}

/* The pieces of a partial vector cover it once: every byte of [lo, hi) in exactly one piece,
 * none outside, at most 6 pieces. */
static void vector_pieces_cover_a_span_once(void** state)
{
    (void)state;
    for (int lo = 0; lo < 16; ++lo)
        for (int hi = lo + 1; hi <= 16; ++hi) {
            if (lo == 0 && hi == 16) continue; /* a whole vector is stored whole */
            int cover[16] = {0}, pieces = 0;
            for (int size = 1; size <= 8; size *= 2)
                for (int o = 0; o < 16; o += size)
                    if (cuperm_vector_piece(lo, hi, o, size)) {
                        ++pieces;
                        for (int b = o; b < o + size; ++b) ++cover[b];
                    }
            for (int b = 0; b < 16; ++b) assert_int_equal(cover[b], b >= lo && b < hi);
            assert_true(pieces <= 6);
        }
}

/* The largest offset dim[begin, end) reaches in each view, by walking every index. */
static void group_max_offsets(const cuperm_dim_t* dims, const cuperm_fastdiv_t* div, int begin, int end,
                              int64_t* in_max, int64_t* out_max)
{
    int64_t volume = 1;
    for (int d = begin; d < end; ++d) volume *= dims[d].extent;
    *in_max = *out_max = 0;
    for (int64_t i = 0; i < volume; ++i) {
        int64_t in, out;
        cuperm_group_offsets(dims, div, begin, end, i, &in, &out);
        if (in > *in_max) *in_max = in;
        if (out > *out_max) *out_max = out;
    }
}

/* 32-bit offset tables are allowed exactly when an A entry plus a B entry stays below 2^32 on
 * both sides: random groups whose strides straddle that bound, against a walk of every index;
 * the outer dimensions never count; a negative stride never fits. */
static void offsets_fit_u32_when_spans_do(void** state)
{
    (void)state;
    rng_t r = {29};
    int fits = 0, misses = 0;
    for (int trial = 0; trial < 3000; ++trial) {
        cuperm_tile_params_t p = {0};
        p.rank = 2 + (int)(rng_next(&r) % 4);
        p.a_end = 1 + (int)(rng_next(&r) % (uint64_t)(p.rank - 1));
        p.b_end = p.a_end + 1 + (int)(rng_next(&r) % (uint64_t)(p.rank - p.a_end));
        const int64_t scale = (int64_t)1 << (20 + rng_next(&r) % 12);
        for (int d = 0; d < p.rank; ++d) {
            p.dim[d].extent = 1 + (int64_t)(rng_next(&r) % 9);
            p.dim[d].in_stride = (int64_t)(rng_next(&r) % 64) * scale + (int64_t)(rng_next(&r) % 3);
            p.dim[d].out_stride = (int64_t)(rng_next(&r) % 64) * scale + (int64_t)(rng_next(&r) % 3);
        }
        cuperm_fastdiv_t div[CUPERM_MAX_RANK];
        group_divisors(p.dim, p.rank, div);
        int64_t ai, ao, bi, bo;
        group_max_offsets(p.dim, div, 0, p.a_end, &ai, &ao);
        group_max_offsets(p.dim, div, p.a_end, p.b_end, &bi, &bo);
        const int expect = ai + bi <= (int64_t)UINT32_MAX && ao + bo <= (int64_t)UINT32_MAX;
        if (cuperm_tile_offsets_fit_u32(&p) != expect)
            fail_msg("trial %d: rank %d a_end %d b_end %d: fit %d, walk says %d", trial, p.rank, p.a_end, p.b_end,
                     !expect, expect);
        expect ? ++fits : ++misses;
    }
    assert_true(fits > 300 && misses > 300); /* both sides of the bound were drawn */

    cuperm_tile_params_t p = {0};
    p.rank = 3, p.a_end = 1, p.b_end = 2;
    p.dim[0] = (cuperm_dim_t){2, 1, UINT32_MAX - 8};
    p.dim[1] = (cuperm_dim_t){9, 2, 1};
    p.dim[2] = (cuperm_dim_t){5, (int64_t)1 << 40, (int64_t)1 << 40}; /* outer: never in a table */
    assert_true(cuperm_tile_offsets_fit_u32(&p));                  /* out: 2^32 - 9 + 8, the largest */
    p.dim[1].out_stride = 2;
    assert_false(cuperm_tile_offsets_fit_u32(&p));                 /* out: 2^32 - 9 + 16 */
    p.dim[1].out_stride = -1;
    assert_false(cuperm_tile_offsets_fit_u32(&p));
}

/* Runs check on every vector tile shape the planner may give tile_vec.cuh's kernels: vectors of vb
 * bytes (16, 8, or 4 for 1- and 2-byte elements) of elements of es bytes, 16 KB tiles of 2^lc
 * chunks a row and 2^lr rows, at least s = 128 / vb chunks a row and column vectors a column. */
typedef void (*vec_tile_check_fn)(int vb, int es, int lc, int lr);
static int for_each_vec_tile(vec_tile_check_fn check)
{
    int shapes = 0;
    for (int vb = 4; vb <= 16; vb *= 2)
        for (int es = 1; es <= 4 && es < vb; es *= 2) {
            const int lv = cuperm_log2_ceil(vb / es), ls = cuperm_log2_ceil(128 / vb);
            const int chunks_rows = cuperm_log2_ceil(16384 / vb); /* lc + lr */
            for (int lc = ls; chunks_rows - lc - lv >= ls; ++lc, ++shapes) check(vb, es, lc, chunks_rows - lc);
        }
    return shapes;
}

/* The read pass (thread t: chunk t % C of kPer consecutive rows) stores every chunk of the tile
 * once, each row's slots a permutation of its chunks, and a thread's swizzles split as
 * tile_vec.cuh assumes (first row's XOR the row number's within the thread). */
static void vec_tile_read_pass(int vb, int es, int lc, int lr)
{
    const int lv = cuperm_log2_ceil(vb / es), s = 128 / vb, per = 64 / vb, c = 1 << lc, rows = 1 << lr;
    assert_int_equal(CUPERM_THREADS * per, c * rows); /* 16 KB: one chunk a thread and row */
    int* hits = calloc((size_t)c * rows, sizeof *hits);
    for (int t = 0; t < CUPERM_THREADS; ++t) {
        const int cx = t & (c - 1), y0 = (t >> lc) * per;
        for (int k = 0; k < per; ++k) {
            const int y = y0 + k, slot = cx ^ cuperm_vec_swizzle(y, lv, s);
            assert_int_equal(cuperm_vec_swizzle(y, lv, s), cuperm_vec_swizzle(y0, lv, s) ^ cuperm_vec_swizzle(k, lv, s));
            assert_true(slot >= 0 && slot < c);
            hits[y * c + slot]++;
        }
    }
    for (int i = 0; i < c * rows; ++i) assert_int_equal(hits[i], 1);
    free(hits);
}

/* The write pass (cuperm_vec_gather) takes every column vector of the tile once, every row of a
 * column vector has the swizzle tile_vec.cuh takes for it (the thread's t % s), and each of the
 * warp's gathers (row j of its column vectors) touches every bank at most once (4-byte words;
 * lanes reading the same word share it). */
static void vec_tile_write_pass(int vb, int es, int lc, int lr)
{
    const int v = vb / es, lv = cuperm_log2_ceil(v), ls = cuperm_log2_ceil(128 / vb), s = 1 << ls;
    const int per = 64 / vb, c = 1 << lc, cols = c * v, col_vectors = (1 << lr) / v;
    const int lm = lr - lv - ls;
    int* hits = calloc((size_t)cols * col_vectors, sizeof *hits);
    for (int warp = 0; warp < CUPERM_THREADS / 32; ++warp)
        for (int k = 0; k < per; ++k) {
            for (int j = 0; j < v; ++j) {
                int word_of_bank[32];
                for (int b = 0; b < 32; ++b) word_of_bank[b] = -1;
                for (int lane = 0; lane < 32; ++lane) {
                    const int t = warp * 32 + lane;
                    int x, y;
                    cuperm_vec_gather((unsigned)t, k, ls, lm, lv, &x, &y);
                    assert_true(x >= 0 && x < cols && y >= 0 && y < col_vectors * v && y % v == 0);
                    if (j == 0) hits[x * col_vectors + y / v]++;
                    const int row = y + j, sw = cuperm_vec_swizzle(row, lv, s);
                    assert_int_equal(sw, t & (s - 1));
                    const long byte = ((long)row * c + ((x >> lv) ^ sw)) * vb + (long)(x & (v - 1)) * es;
                    const int word = (int)(byte / 4), bank = word % 32;
                    if (word_of_bank[bank] < 0) word_of_bank[bank] = word;
                    assert_int_equal(word_of_bank[bank], word); /* else two words in one bank: a conflict */
                }
            }
        }
    for (int i = 0; i < cols * col_vectors; ++i) assert_int_equal(hits[i], 1);
    free(hits);
}

static void vector_tile_passes_cover_once_without_conflicts(void** state)
{
    (void)state;
    assert_true(for_each_vec_tile(vec_tile_read_pass) >= 8);
    assert_true(for_each_vec_tile(vec_tile_write_pass) >= 8);
}

/* The spread form's tables (move_tile_lean_spread): every slot of a side taken once, thread q's k-th
 * index (q + k * 2^s) in slot q * n + k, so that its n entries are consecutive; and the edge count
 * is the number of a thread's indices below the edge, for edges before, inside and past the side. */
/* A ROW_TILES pass's digits, advanced by a block's stride, are those of the element number they
 * stand for (rows of 1-97 elements); each pass's rows cover the tile's slots once, rows of whole
 * vectors (of at most 16 bytes) whole vectors apart; and a warp of the
 * write pass, which reads a row and then the next B index's, touches distinct 4-byte banks wherever
 * the elements of its rows are 4-byte words and the rows are no longer than a warp. */
static void row_tile_digits_and_slots(void** state)
{
    (void)state;
    for (int n = 1; n <= 97; n += n < 20 ? 1 : 7) {
        const cuperm_row_digits_t step = cuperm_row_digits(CUPERM_THREADS, n);
        for (int th = 0; th < CUPERM_THREADS; th += 37) {
            cuperm_row_digits_t d = cuperm_row_digits(th, n);
            for (int e = th; e < 20000; e += CUPERM_THREADS, cuperm_row_digits_advance(&d, &step, n)) {
                assert_int_equal(d.r, e % n);
                assert_int_equal(d.q, e / n);
            }
        }
    }
    static const int sides[][3] = {{17, 17, 14}, {19, 4, 26}, {12, 12, 28}, {3, 25, 50}, {7, 1, 9}, {31, 5, 3}, {18, 9, 20}, {22, 3, 7}};
    for (size_t c = 0; c < sizeof sides / sizeof sides[0]; ++c)
        for (int elem = 4; elem <= 16; elem *= 2) {
            cuperm_tile_params_t p;
            memset(&p, 0, sizeof p);
            p.dim[0].extent = sides[c][0];
            p.rt_side_a = sides[c][1];
            p.rt_side_b = sides[c][2];
            const int n = sides[c][0], nrows = p.rt_side_a * p.rt_side_b;
            p.smem_row = cuperm_row_tile_stride(n, p.rt_side_a, elem);
            assert_true(p.smem_row >= n * p.rt_side_a && p.smem_row % (128 / elem) == n % (128 / elem));
            for (int v = 2; v * elem <= 16; v *= 2) /* rows of whole vectors start whole vectors apart */
                if (n % v == 0) assert_int_equal(p.smem_row % v, 0);
            const int nslots = p.smem_row * p.rt_side_b;
            char* seen = calloc((size_t)nslots, 1);
            for (int w = 0; w < 2; ++w) {
                memset(seen, 0, (size_t)nslots);
                for (int q = 0; q < nrows; ++q) {
                    int a, b, slot;
                    cuperm_row_tile_row(&p, q, w, &a, &b, &slot);
                    assert_true(a < p.rt_side_a && b < p.rt_side_b);
                    for (int r = 0; r < n; ++r) {
                        assert_true(slot + r < nslots && !seen[slot + r]);
                        seen[slot + r] = 1;
                    }
                }
            }
            free(seen);
            if (elem != 4 || n > 32) continue;
            for (int e0 = 0; e0 + 32 <= n * nrows; e0 += 32) { /* the write pass's warps within one A index */
                if ((e0 / n) / p.rt_side_b != ((e0 + 31) / n) / p.rt_side_b) continue;
                unsigned banks = 0;
                for (int lane = 0; lane < 32; ++lane) {
                    const cuperm_row_digits_t d = cuperm_row_digits(e0 + lane, n);
                    int a, b, slot;
                    cuperm_row_tile_row(&p, d.q, 1, &a, &b, &slot);
                    const int bank = (slot + d.r) % 32;
                    assert_false(banks >> bank & 1);
                    banks |= 1u << bank;
                }
            }
        }
}

static void spread_slots_are_thread_major_and_counts_match(void** state)
{
    (void)state;
    static const int items[] = {4, 8, 16};
    for (int s = 0; s <= 8; ++s)
        for (int t = 0; t < 3; ++t) {
            const int n = items[t], side = n << s;
            int* seen = calloc((size_t)side, sizeof *seen);
            assert_non_null(seen);
            for (int q = 0; q < 1 << s; ++q)
                for (int k = 0; k < n; ++k) {
                    const int slot = cuperm_spread_slot(q + (k << s), s, n);
                    assert_int_equal(slot, q * n + k);
                    ++seen[slot];
                }
            for (int i = 0; i < side; ++i) assert_int_equal(seen[i], 1);
            free(seen);
            for (int left = -3; left <= side + 3; ++left) {
                int below = 0;
                for (int k = 0; k < n; ++k) below += (k << s) < left;
                assert_int_equal(cuperm_spread_count(left, s, n), below);
            }
        }
}

/* The span form's gather table: every entry of every granule in one place of the table, a granule's
 * pieces 16- (8-) byte aligned and lanes on neighbouring granules on neighbouring pieces; filled for
 * a batch of 3 x 5 transposes (slots 0, 3, 6, 9, 12, 1, ...), each whole granule's entries the
 * skewed bytes of its elements' sources, entries outside the span 0. */
static void span_gather_table_places_and_sources(void** state)
{
    (void)state;
    static const int elems[] = {1, 2, 4};
    for (int t = 0; t < 3; ++t) {
        const int E = elems[t], N = 16 / E, per = E == 4 ? 4 : 8;
        for (int volume = 15; volume <= 4000; volume = volume * 3 + 1) {
            const int g = cuperm_span_gather_granules(volume, E), entries = cuperm_span_gather_bytes(volume, E) / 2;
            assert_true(g * N <= entries);
            int* seen = calloc((size_t)entries, sizeof *seen);
            assert_non_null(seen);
            for (int v = 0; v < g; ++v)
                for (int e = 0; e < N; ++e) {
                    const int at = cuperm_span_gather_at(v, e, E, g);
                    assert_true(at >= 0 && at < entries);
                    ++seen[at];
                    if (e % per == 0) assert_int_equal(at * 2 % (per * 2), 0);
                    if (v > 0) assert_int_equal(at - cuperm_span_gather_at(v - 1, e, E, g), per);
                }
            for (int i = 0; i < g * N; ++i) assert_int_equal(seen[i], 1);
            free(seen);
        }
        /* 3 x 5 matrices, perm 1,0: output position r = i1 + 5 i0 holds input element i0 + 3 i1 */
        const int inner = 15, n = inner * 40;
        uint16_t slot[64];
        for (int r = 0; r < inner; ++r) slot[cuperm_span_slot_at(r)] = (uint16_t)((r % 5) * 3 + r / 5);
        const int g = cuperm_span_gather_granules(n, E);
        uint16_t* table = malloc((size_t)cuperm_span_gather_bytes(n, E));
        assert_non_null(table);
        for (int hin = 0; hin < N; hin += N > 4 ? 3 : 1)
            for (int hout = 0; hout < N; hout += N > 4 ? 5 : 1) {
                for (int v = 0; v < g; ++v) cuperm_span_gather_fill(table, g, v, hin, hout, n, E, slot, inner);
                for (int v = 0; v < g; ++v)
                    for (int e = 0; e < N; ++e) {
                        const int j = v * N - hout + e;
                        const int want = j >= 0 && j < n
                                             ? cuperm_span_skew(E * (hin + j / inner * inner + (j % inner % 5) * 3 +
                                                                     j % inner / 5))
                                             : 0;
                        assert_int_equal(table[cuperm_span_gather_at(v, e, E, g)], want);
                    }
            }
        free(table);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(divmod_matches_operators),
        cmocka_unit_test(log2_ceil_is_the_smallest_covering_power),
        cmocka_unit_test(group_offsets_decompose_first_fastest),
        cmocka_unit_test(tile_origin_walks_a_then_b_then_outer),
        cmocka_unit_test(banded_tile_walk_is_a_bijection),
        cmocka_unit_test(granules_cover_a_shifted_run_once),
        cmocka_unit_test(vector_pieces_cover_a_span_once),
        cmocka_unit_test(offsets_fit_u32_when_spans_do),
        cmocka_unit_test(vector_tile_passes_cover_once_without_conflicts),
        cmocka_unit_test(spread_slots_are_thread_major_and_counts_match),
        cmocka_unit_test(row_tile_digits_and_slots),
        cmocka_unit_test(span_gather_table_places_and_sources),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
