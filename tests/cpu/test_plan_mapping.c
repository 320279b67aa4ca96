/* Runs every planned launch's index mapping on the host, through the same
 * __host__ __device__ helpers the kernels use, and checks that each output
 * element is written exactly once, from the right input element. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "common/launch_walk.h"
#include "plan/transpose/row_tiles.h"
#include "plan/transpose/whole_dims.h"
#include "common/cases.h"
#include "core/index_math.h"
#include "plan/transpose/select.h"
#include "core/layout.h"

static int packed_cases; /* how many problems the packed path saw: must not be 0 */
static int partly_packed_cases; /* of them, dimension 0 only partly in the wide element: must not be 0 */
static int banded_walks; /* candidates with a banded tile walk checked: must not be 0 */
static int predictions;  /* cuperm_plan_predict checked against cuperm_plan_host: must not be 0 */
static int whole_dims_launches[2]; /* WHOLE_DIMS launches checked without and with a split dimension */
static int span_launches[2];       /* their span form, without and with a split dimension */
static int64_t span_tiles[2];      /* their tiles walked by the cursor only, and gathered: neither may be 0 */
static int runs_launches[2];       /* the runs form (wd_span 3), without and with a split dimension */
static int64_t runs_counts[3];     /* its full tiles, short split chunks and granules read whole past a run's ends */
static int row_tiles_launches[2]; /* ROW_TILES launches checked with whole tiles only, and with edge tiles */
static int row_tiles_vector_launches; /* those with vectors (each checked in its scalar form too) */
static int vector_tiles[3]; /* TILED launches with 4-, 8- and 16-byte vectors checked: none may be 0 */
static int shifted_tiles;   /* of which shifted (tile_shifted.cuh): may not be 0 */
static const cuperm_device_info_t kDevice = {0, 9, 0, 132, 50 << 20, 48 << 10, 3.35e12};

/* src_of[o] = input offset that output offset o must come from, or -1. */
static void expected_sources(const test_case_t* c, int64_t* src_of, int64_t out_span)
{
    for (int64_t o = 0; o < out_span; ++o) src_of[o] = -1;
    int64_t idx[CUPERM_MAX_RANK] = {0}, si[CUPERM_MAX_RANK], so[CUPERM_MAX_RANK], dense = 1, dout = 1;
    for (int d = 0; d < c->rank; ++d) {
        si[d] = c->has_in_strides ? c->in_strides[d] : dense;
        dense *= c->extents[d];
    }
    for (int r = 0; r < c->rank; ++r) {
        so[c->perm[r]] = c->has_out_strides ? c->out_strides[r] : dout;
        dout *= c->extents[c->perm[r]];
    }
    for (int64_t n = 0, vol = case_volume(c); n < vol; ++n) {
        int64_t io = 0, oo = 0;
        for (int d = 0; d < c->rank; ++d) {
            io += idx[d] * si[d];
            oo += idx[d] * so[d];
        }
        src_of[oo] = io;
        for (int d = 0; d < c->rank && ++idx[d] == c->extents[d]; ++d) idx[d] = 0;
    }
}

/* Records that the launch moves (wide) element i to o: w elements each. */
static int moved(int64_t o, int64_t i, int64_t w, const int64_t* src_of, int64_t out_span, int* hits)
{
    for (int64_t j = 0; j < w; ++j) {
        if (o * w + j < 0 || o * w + j >= out_span || src_of[o * w + j] != i * w + j) return 1;
        hits[o * w + j]++;
    }
    return 0;
}

typedef struct {
    int64_t w, out_span;
    const int64_t* src_of;
    int* hits;
} moved_ctx;

static int moved_one(int64_t o, int64_t i, void* vctx)
{
    const moved_ctx* c = vctx;
    return moved(o, i, c->w, c->src_of, c->out_span, c->hits);
}

/* Emulates one launch whose elements are w of the problem's wide; returns 0 if
 * the mapping is exact. */
static int emulate(const cuperm_launch_t* l, int64_t w, const int64_t* src_of, int64_t out_span, int* hits)
{
    memset(hits, 0, (size_t)out_span * sizeof *hits);
    moved_ctx c = {w, out_span, src_of, hits};
    if (launch_walk(l, moved_one, &c)) return 1;
    for (int64_t o = 0; o < out_span; ++o)
        if (hits[o] != (src_of[o] >= 0)) return 1;
    return 0;
}

/* What the shifted vector tiles (tile_shifted.cuh) assume besides the 16 KB tile and the
 * swizzle's span: 1- and 2-byte elements, 16-byte vectors, group A one run of the input and
 * group B one of the output, and a row's chunks (8 to 32) within one warp. */
static void check_shifted_launch(const cuperm_launch_t* l)
{
    const cuperm_tile_params_t* t = &l->tile;
    assert_int_equal(l->kind, CUPERM_LAUNCH_TILED);
    assert_true(l->elem_size <= 2);
    assert_int_equal(l->elem_size << t->vec_log2, 16);
    const int chunks = 1 << (t->tile_a_log2 - t->vec_log2);
    assert_true(chunks >= 8 && chunks <= 32);
    assert_true(t->vec_shifted == 1 || (t->vec_shifted == 2 && t->tile_b_log2 - t->vec_log2 == 3));
    int64_t run = 1;
    for (int d = 0; d < t->a_end; run *= t->dim[d].extent, ++d) assert_int_equal(t->dim[d].in_stride, run);
    run = 1;
    for (int d = t->a_end; d < t->b_end; run *= t->dim[d].extent, ++d) assert_int_equal(t->dim[d].out_stride, run);
    ++shifted_tiles;
}

/* What the vector kernels (tile_vec.cuh) assume of a launch with vec_log2 > 0:
 * TILED tiles of 16 KB with at least 128 / vec_bytes vectors along each side
 * (the swizzle's span), ROWS with 16-byte vectors; vectors whole along the
 * fastest dimension of both sides, unless they are shifted. */
static void check_vector_launch(const cuperm_launch_t* l)
{
    const cuperm_tile_params_t* t = &l->tile;
    if (l->kind == CUPERM_LAUNCH_COPY || t->vec_log2 == 0) return;
    const int vec_bytes = l->elem_size << t->vec_log2;
    assert_true(l->elem_size <= 4);
    assert_int_equal(t->dim[0].in_stride, 1);
    if (t->vec_shifted) check_shifted_launch(l);
    assert_true(t->vec_shifted || t->dim[0].extent % (1 << t->vec_log2) == 0);
    if (l->kind == CUPERM_LAUNCH_ROWS) {
        assert_int_equal(vec_bytes, 16);
        return;
    }
    assert_true(vec_bytes == 16 || vec_bytes == 8 || (vec_bytes == 4 && l->elem_size <= 2));
    ++vector_tiles[vec_bytes == 16 ? 2 : vec_bytes == 8 ? 1 : 0];
    assert_int_equal((l->elem_size << t->tile_a_log2) << t->tile_b_log2, 16384);
    assert_true((1 << (t->tile_a_log2 - t->vec_log2)) >= 128 / vec_bytes);
    assert_true((1 << (t->tile_b_log2 - t->vec_log2)) >= 128 / vec_bytes);
    assert_int_equal(t->dim[t->a_end].out_stride, 1);
    assert_true(t->vec_shifted || t->dim[t->a_end].extent % (1 << t->vec_log2) == 0);
}

/* A span or runs launch (wd_span 1-2, or 3) walked through the kernel's own helpers with its pointers at
 * four places in a 16-byte granule, on its grid and then (walks > 4) on a 2-SM device's, where each block
 * walks many tiles: every output element written once, from its source. */
static void granule_walks(const cuperm_launch_t* L, int per_sm, int walks, const char* what, const test_case_t* c,
                          int elem, const int64_t* src_of, int64_t span, int* hits)
{
    const int N = 16 / elem, mis[4][2] = {{0, 0}, {1 % N, N - 1}, {N - 1, 3 % N}, {N / 2, N / 2}};
    cuperm_launch_t two = *L;
    if (two.blocks > 2 * per_sm) two.blocks = 2 * per_sm;
    for (int m = 0; m < walks; ++m) {
        const cuperm_launch_t* l = m < 4 ? L : &two;
        memset(hits, 0, (size_t)span * sizeof *hits);
        moved_ctx mc = {1, span, src_of, hits};
        int bad = L->tile.wd_span == 3
                      ? whole_dims_runs_walk(l, mis[m % 4][0], mis[m % 4][1], runs_counts, moved_one, &mc)
                      : whole_dims_span_walk(l, mis[m % 4][0], mis[m % 4][1], span_tiles, moved_one, &mc);
        for (int64_t o = 0; o < span && !bad; ++o) bad = hits[o] != (src_of[o] >= 0);
        if (bad) {
            fprintf(stderr, "mapping wrong for the %s launch (elem %d, pointers %d and %d elements past a granule, "
                            "%lld blocks): ", what, elem, mis[m % 4][0], mis[m % 4][1], (long long)l->blocks);
            case_print(stderr, c);
            fail();
        }
    }
}

/* c's heuristic launch and every candidate, planned with tuning, against the reference mapping. */
static void check_case_with(const test_case_t* c, int elem, const cuperm_tuning_t* tuning)
{
    cuperm_problem_t p;
    cuperm_problem_init(&p, c->rank, c->extents, c->perm, c->has_in_strides ? c->in_strides : NULL,
                        c->has_out_strides ? c->out_strides : NULL);
    cuperm_problem_canonicalize(&p);
    cuperm_launch_t heuristic, cand[16];
    cuperm_select_launch(&p, elem, tuning, &heuristic);
    { /* the predictor that prices transposes gives the plan's own prediction, bit for bit */
        const int64_t* is = c->has_in_strides ? c->in_strides : NULL;
        const int64_t* os = c->has_out_strides ? c->out_strides : NULL;
        cuperm_host_plan_t h;
        cuperm_plan_host(c->rank, c->extents, c->perm, elem, is, os, &kDevice, tuning, &h);
        const double predicted = cuperm_plan_predict(c->rank, c->extents, c->perm, elem, is, os, &kDevice,
                                                     tuning);
        assert_memory_equal(&predicted, &h.predicted_seconds, sizeof predicted);
        ++predictions;
    }
    assert_int_equal(heuristic.volume, case_volume(c));
    assert_true(heuristic.smem_bytes <= 48 * 1024);
    int n = cuperm_candidate_launches(&heuristic, &kDevice, tuning, cand, 16);
    assert_true(n >= 1);

    int64_t span = case_out_span(c);
    int64_t* src_of = malloc((size_t)span * sizeof *src_of);
    int* hits = malloc((size_t)span * sizeof *hits);
    expected_sources(c, src_of, span);
    for (int k = 0; k < n; ++k) {
        check_vector_launch(&cand[k]);
        banded_walks += cand[k].kind != CUPERM_LAUNCH_COPY && cand[k].tile.band_tiles > 0 &&
                        cand[k].tile.band_tiles < cand[k].tile.a_tiles;
        if (emulate(&cand[k], 1, src_of, span, hits)) {
            fprintf(stderr, "mapping wrong for candidate %d (kind %d, elem %d): ", k, cand[k].kind, elem);
            case_print(stderr, c);
            fail();
        }
    }
    cuperm_launch_t wd;
    if (cuperm_whole_dims_launch(&p, elem, &tuning->transpose, &wd)) {
        const cuperm_tile_params_t* t = &wd.tile;
        assert_true(t->a_volume >= 2 && t->a_volume <= cuperm_whole_dims_max_volume(elem));
        assert_true(wd.smem_bytes <= 48 * 1024);
        ++whole_dims_launches[t->wd_split >= 0];
        if (emulate(&wd, 1, src_of, span, hits)) {
            fprintf(stderr, "mapping wrong for the whole-dims launch (elem %d): ", elem);
            case_print(stderr, c);
            fail();
        }
    }
    cuperm_launch_t sp; /* the span form */
    if (cuperm_whole_dims_span_launch(&p, elem, &kDevice, &tuning->transpose, &sp)) {
        const cuperm_tile_params_t* t = &sp.tile;
        assert_true(t->wd_span && t->span_inner >= 2 && t->span_inner <= tuning->transpose.span_max_inner);
        assert_true(t->a_volume % t->span_inner == 0 && sp.smem_bytes <= 48 * 1024);
        assert_true(sp.blocks <= (int64_t)kDevice.sm_count * tuning->transpose.span_blocks_per_sm);
        ++span_launches[t->wd_split >= 0];
        granule_walks(&sp, tuning->transpose.span_blocks_per_sm, 8, "span", c, elem, src_of, span, hits);
    }
    cuperm_launch_t ru; /* the runs form */
    if (cuperm_whole_dims_runs_launch(&p, elem, &kDevice, &tuning->transpose, &ru)) {
        const cuperm_tile_params_t* t = &ru.tile;
        assert_true(t->wd_span == 3 && elem <= 2 && t->span_out_run * elem >= 16);
        assert_true(t->a_volume % t->span_in_run == 0 && t->a_volume % t->span_out_run == 0);
        assert_true(ru.smem_bytes <= 48 * 1024 && ru.blocks <= (int64_t)kDevice.sm_count * tuning->transpose.runs_blocks_per_sm);
        ++runs_launches[t->wd_split >= 0];
        const int walks = case_volume(c) <= (1 << 20) ? 8 : 1; /* the large shapes of other tests: once */
        granule_walks(&ru, tuning->transpose.runs_blocks_per_sm, walks, "runs", c, elem, src_of, span, hits);
    }
    cuperm_launch_t rt; /* row tiles for rows of any length (the rule takes short ones only) */
    if (cuperm_row_tiles_launch(&p, elem, INT64_MAX, &tuning->transpose, &rt)) {
        const cuperm_tile_params_t* t = &rt.tile;
        assert_true(t->rt_side_a >= 1 && t->rt_side_a <= CUPERM_THREADS && t->rt_side_b >= 1 &&
                    t->rt_side_b <= CUPERM_THREADS);
        assert_true(t->dim[0].extent * t->rt_side_a * t->rt_side_b * elem <= tuning->transpose.row_tiles_tile_bytes);
        assert_true(rt.smem_bytes <= 48 * 1024);
        ++row_tiles_launches[t->a_volume % t->rt_side_a != 0 || t->b_volume % t->rt_side_b != 0];
        row_tiles_vector_launches += t->vec_log2 > 0;
        assert_true((elem << t->vec_log2) <= 16);
        cuperm_launch_t scalar = rt; /* the launcher's form where a pointer is not aligned to the vector */
        scalar.tile.vec_log2 = 0;
        for (int form = 0; form < 1 + (t->vec_log2 > 0); ++form)
            if (emulate(form ? &scalar : &rt, 1, src_of, span, hits)) {
                fprintf(stderr, "mapping wrong for the row-tiles launch (elem %d, vectors of %d): ", elem,
                        form ? 1 : 1 << t->vec_log2);
                case_print(stderr, c);
                fail();
            }
    }
    cuperm_problem_t packed;
    int wide;
    if (cuperm_problem_pack(&p, elem, 1, &packed, &wide)) {
        cuperm_launch_t l;
        cuperm_select_launch(&packed, wide, tuning, &l);
        check_vector_launch(&l);
        assert_int_equal(l.volume * (wide / elem), case_volume(c));
        if (emulate(&l, wide / elem, src_of, span, hits)) {
            fprintf(stderr, "mapping wrong for the packed launch (elem %d as %d): ", elem, wide);
            case_print(stderr, c);
            fail();
        }
        ++packed_cases;
        partly_packed_cases += packed.rank == p.rank || (wide / elem) < p.dim[0].extent;
    }
    free(src_of);
    free(hits);
}

static void check_case(const test_case_t* c, int elem) { check_case_with(c, elem, cuperm_tuning_for(&kDevice)); }

static void random_dense_problems(void** state)
{
    (void)state;
    rng_t r = {1};
    static const int elems[] = {1, 2, 4, 8, 16};
    for (int i = 0; i < 600; ++i) {
        test_case_t c;
        case_random(&r, &c, 1, 8, 20000, 0);
        check_case(&c, elems[i % 5]);
    }
}

static void random_strided_problems(void** state)
{
    (void)state;
    rng_t r = {2};
    for (int i = 0; i < 600; ++i) {
        test_case_t c;
        case_random(&r, &c, 1, 8, 20000, 1);
        check_case(&c, 1 << (i % 5));
    }
}

static void high_rank_problems(void** state)
{
    (void)state;
    rng_t r = {3};
    for (int i = 0; i < 100; ++i) {
        test_case_t c;
        case_random(&r, &c, 13, 32, 50000, i % 2);
        check_case(&c, 8);
    }
}

/* The fastest dimension kept in place and a few elements long: packed launches. */
static void short_shared_rows(void** state)
{
    (void)state;
    rng_t r = {4};
    for (int i = 0; i < 300; ++i) {
        test_case_t c;
        case_random(&r, &c, 2, 7, 20000, i % 3 == 0);
        int elem = 1 << (i % 4);
        c.extents[0] = (int64_t)1 << rng_range(&r, 1, 4 - (i % 4) > 0 ? 4 - (i % 4) : 1);
        for (int k = 0; k < c.rank; ++k) /* put input dimension 0 first in the output */
            if (c.perm[k] == 0) {
                c.perm[k] = c.perm[0];
                c.perm[0] = 0;
            }
        if (c.has_in_strides) case_random_strides(&r, c.rank, c.extents, 3, c.in_strides);
        c.has_out_strides = 0;
        check_case(&c, elem);
    }
}

/* Batches of small transposes (the short-group suite's kind: [a, b, batch], perm 1,0,2, and rank 4-5
 * with the fastest dimensions permuted among themselves), 1-16-byte elements: the span form's walk. */
static void batches_of_small_transposes(void** state)
{
    (void)state;
    rng_t r = {7};
    for (int i = 0; i < 300; ++i) {
        test_case_t c = {0};
        const int inner = 2 + (int)(i % 3 == 2);
        c.rank = inner + 1 + (int)(i % 4 == 3);
        for (int d = 0; d < c.rank; ++d) c.extents[d] = rng_range(&r, 1, 9) + (d < inner ? 1 : 0);
        if (i % 5 == 0) c.extents[inner] = rng_range(&r, 1, 3000); /* many chunks, a short last one */
        for (int d = 0; d < c.rank; ++d) c.perm[d] = d;
        do /* the inner dimensions permuted among themselves, the first moving */
            for (int d = inner - 1; d > 0; --d) {
                const int k = (int)rng_range(&r, 0, d), x = c.perm[d];
                c.perm[d] = c.perm[k], c.perm[k] = x;
            }
        while (c.perm[0] == 0);
        if (c.rank > inner + 1 && i % 8 == 7) { /* the outer two swapped: spans of one inner block */
            c.perm[inner] = inner + 1, c.perm[inner + 1] = inner;
            c.extents[0] = 64;
        }
        if (c.rank > inner + 1 && i % 8 == 3) { /* the outer dimension's input stride one past dense: */
            c.has_in_strides = 1;                /* a block's tiles' heads differ, off the gather table */
            for (int d = 0, dense = 1; d < c.rank; dense *= (int)c.extents[d], ++d)
                c.in_strides[d] = dense + (d == c.rank - 1);
        }
        check_case(&c, 1 << (i % 5));
    }
    /* never for 8- and 16-byte elements (the kernel's skewed copy keeps 4-byte alignment), asked or not */
    cuperm_tuning_t every = *cuperm_tuning_for(&kDevice);
    every.transpose.span_max_elem = 16;
    static const test_shape_t batch = {3, {2, 62, 3001}, {1, 0, 2}};
    const test_case_t c = case_from_shape(&batch);
    cuperm_problem_t p;
    cuperm_launch_t sp;
    cuperm_problem_init(&p, c.rank, c.extents, c.perm, NULL, NULL);
    cuperm_problem_canonicalize(&p);
    assert_true(cuperm_whole_dims_span_launch(&p, 4, &kDevice, &every.transpose, &sp));
    for (int elem = 8; elem <= 16; elem *= 2)
        assert_false(cuperm_whole_dims_span_launch(&p, elem, &kDevice, &every.transpose, &sp));
}

/* Batches of small transposes whose outer dimensions are permuted too (4 x 21 x M x 7 perm 1,0,3,2), the
 * short-group suite's rank-4 and rank-5 kind: small extents but one, any permutation, dense or with the
 * input's outer strides padded, 1- and 2-byte elements: the runs form's walk (at the pointers' four
 * misalignments), with short split chunks and granules read whole past their runs. */
static void batches_with_outer_permutations(void** state)
{
    (void)state;
    rng_t r = {11};
    for (int i = 0; i < 400; ++i) {
        test_case_t c = {0};
        c.rank = 3 + (int)rng_range(&r, 0, 2);
        const int big = (int)rng_range(&r, 0, c.rank - 1);
        int64_t small = 1; /* the volume stays near 2^17 at most: every tile is walked 8 times */
        for (int d = 0; d < c.rank; ++d)
            if (d != big) small *= c.extents[d] = rng_range(&r, 2, c.rank == 3 ? 40 : 12);
        c.extents[big] = rng_range(&r, 8, 120000 / small > 8 ? 120000 / small : 8);
        for (int d = 0; d < c.rank; ++d) c.perm[d] = d;
        for (int d = c.rank - 1; d > 0; --d) {
            const int k = (int)rng_range(&r, 0, d), x = c.perm[d];
            c.perm[d] = c.perm[k], c.perm[k] = x;
        }
        if (i % 6 == 5) { /* the input's outermost stride padded to whole granules */
            c.has_in_strides = 1;
            for (int d = 0, dense = 1; d < c.rank; dense *= (int)c.extents[d], ++d)
                c.in_strides[d] = d == c.rank - 1 ? (dense + 15) / 16 * 16 : dense;
        }
        check_case(&c, 1 + (i % 2));
    }
    assert_true(runs_launches[0] > 0 && runs_launches[1] > 0);
    assert_true(runs_counts[0] > 0 && runs_counts[1] > 0 && runs_counts[2] > 0);
}

/* The heuristic launch of dense c with elem-byte elements under tuning. */
static void heuristic_launch_of(const test_case_t* c, int elem, const cuperm_tuning_t* tuning, cuperm_launch_t* l)
{
    cuperm_problem_t p;
    cuperm_problem_init(&p, c->rank, c->extents, c->perm, NULL, NULL);
    cuperm_problem_canonicalize(&p);
    cuperm_select_launch(&p, elem, tuning, l);
}

/* With the tuning asking for shifted tiles written by lanes (off on sm_90 until measured), 1- and
 * 2-byte problems get them, and every launch and candidate keeps the shifted contract. */
static void shifted_lane_writes_when_asked(void** state)
{
    (void)state;
    cuperm_tuning_t tuning = *cuperm_tuning_for(&kDevice);
    tuning.transpose.tiled_shifted_max_elem = 2;
    tuning.transpose.tiled_shifted_lane_writes = 1;
    rng_t r = {5};
    int lanes = 0;
    for (int i = 0; i < 300; ++i) {
        test_case_t c;
        case_random(&r, &c, 2, 6, 200000, 0);
        cuperm_launch_t l, cand[16];
        heuristic_launch_of(&c, 1 + i % 2, &tuning, &l);
        const int n = cuperm_candidate_launches(&l, &kDevice, &tuning, cand, 16);
        for (int k = 0; k < n; ++k) {
            check_vector_launch(&cand[k]);
            lanes += cand[k].kind == CUPERM_LAUNCH_TILED && cand[k].tile.vec_shifted == 2;
        }
    }
    assert_true(lanes > 0);
}

/* The scalar tile of c (1- or 2-byte elements) under tuning: 1 when it holds CUPERM_TILE_ITEMS_WIDE
 * elements a thread, 0 when CUPERM_TILE_ITEMS, -1 when not a scalar TILED launch. */
static int wide_scalar_tile(const test_case_t* c, int elem, const cuperm_tuning_t* tuning)
{
    cuperm_launch_t l;
    heuristic_launch_of(c, elem, tuning, &l);
    if (l.kind != CUPERM_LAUNCH_TILED || l.tile.vec_log2) return -1;
    const int la = l.tile.tile_a_log2, lb = l.tile.tile_b_log2;
    if ((1 << (la + lb)) != CUPERM_THREADS * CUPERM_TILE_ITEMS_WIDE) return 0;
    assert_true((1 << la) <= CUPERM_THREADS && (1 << lb) <= CUPERM_THREADS);
    return 1;
}

/* With the tuning asking for wide tiles (sm_90 does), 1- and 2-byte problems get scalar tiles of
 * CUPERM_THREADS x CUPERM_TILE_ITEMS_WIDE elements, always with both sides within a block (a longer
 * side would leave the lean path), and every launch still maps right; without it, never. A group of
 * 13 elements keeps the narrow tile (a wide one would need a 512-element side). */
static void wide_tiles_when_asked(void** state)
{
    (void)state;
    cuperm_tuning_t tuning = *cuperm_tuning_for(&kDevice), narrow = tuning;
    tuning.transpose.tiled_wide_small_tiles = 1;
    narrow.transpose.tiled_wide_small_tiles = 0;
    rng_t r = {8};
    int wide = 0;
    for (int i = 0; i < 300; ++i) {
        test_case_t c;
        case_random(&r, &c, 2, 7, 300000, 0);
        const int elem = 1 + i % 2;
        check_case_with(&c, elem, &tuning);
        wide += wide_scalar_tile(&c, elem, &tuning) == 1;
        assert_true(wide_scalar_tile(&c, elem, &narrow) != 1);
        check_case_with(&c, elem, &narrow);
    }
    assert_true(wide > 0);
    static const test_shape_t short_group = {6, {4, 13, 60, 60, 26, 41}, {1, 0, 3, 4, 5, 2}};
    const test_case_t c = case_from_shape(&short_group);
    for (int elem = 1; elem <= 2; ++elem) assert_int_equal(wide_scalar_tile(&c, elem, &tuning), 0);
}

/* 1- and 2-byte tiles give the writes the longer side (sm_90: tile_a_small_bytes 64,
 * vec_row_bytes_2byte 128): a square matrix of odd side plans 64 x 128 scalar tiles in i8 (was
 * 128 x 64) and 32 x 256 in f16 (was 64 x 128); an even side 64 x 128 4-byte-vector tiles in f16
 * (was 128 x 64). "Was": both numbers 0, the rule for larger elements. Every launch maps right. */
static void small_elements_write_longer(void** state)
{
    (void)state;
    const cuperm_tuning_t sm90 = *cuperm_tuning_for(&kDevice);
    cuperm_tuning_t old = sm90;
    old.transpose.tile_a_small_bytes = 0;
    old.transpose.vec_row_bytes_2byte = 0;
    static const struct { test_shape_t shape; int elem, vec, la, lb, old_la, old_lb; } cases[] = {
        {{2, {14143, 14143}, {1, 0}}, 1, 0, 6, 7, 7, 6},
        {{2, {14143, 14143}, {1, 0}}, 2, 0, 5, 8, 6, 7},
        {{2, {14142, 14142}, {1, 0}}, 2, 1, 6, 7, 7, 6},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        const test_case_t c = case_from_shape(&cases[i].shape);
        cuperm_launch_t now, before;
        heuristic_launch_of(&c, cases[i].elem, &sm90, &now);
        heuristic_launch_of(&c, cases[i].elem, &old, &before);
        assert_int_equal(now.kind, CUPERM_LAUNCH_TILED);
        assert_int_equal(now.tile.vec_log2 > 0, cases[i].vec);
        assert_int_equal(now.tile.tile_a_log2, cases[i].la);
        assert_int_equal(now.tile.tile_b_log2, cases[i].lb);
        assert_int_equal(before.tile.tile_a_log2, cases[i].old_la);
        assert_int_equal(before.tile.tile_b_log2, cases[i].old_lb);
        check_case_with(&c, cases[i].elem, &sm90);
        check_case_with(&c, cases[i].elem, &old);
    }
}

/* Scalar rows tiles of small elements (tuning rows_small_side_log2 7, rows_1byte_short_side_log2 5,
 * rows_2byte_min_side_log2 5) and of wide ones (rows_wide_min_side_log2 5): a row of 585 elements
 * gets 128-element sides in i8 and f16 (was 256) and 32 in f64 (608 slots instead of 768), a row of
 * 97 gets 32 in i8 (was 128: the whole row) and keeps 128 in f16 (32-element tiles would fill it no
 * better), a row of 89 gets 32 in f16 (96 slots instead of 128), a row of 144 gets 32 in c64 and a
 * row of 256 keeps 256 in f64 (it fills its tile). Every launch maps right. */
static void small_rows_tiles_shorter(void** state)
{
    (void)state;
    const cuperm_tuning_t sm90 = *cuperm_tuning_for(&kDevice);
    cuperm_tuning_t old = sm90;
    old.transpose.rows_small_side_log2 = 0;
    old.transpose.rows_2byte_min_side_log2 = 0;
    old.transpose.rows_wide_min_side_log2 = 0;
    static const struct { test_shape_t shape; int elem, la, old_la; } cases[] = {
        {{3, {585, 585, 585}, {0, 2, 1}}, 1, 7, 8},
        {{3, {585, 585, 585}, {0, 2, 1}}, 2, 7, 8},
        {{3, {585, 585, 585}, {0, 2, 1}}, 8, 5, 8},
        {{4, {144, 9, 11, 7}, {0, 3, 2, 1}}, 16, 5, 8},
        {{3, {256, 37, 29}, {0, 2, 1}}, 8, 8, 8},
        {{4, {97, 211, 61, 157}, {0, 3, 2, 1}}, 1, 5, 7},
        {{4, {97, 211, 61, 157}, {0, 3, 2, 1}}, 2, 7, 7},
        {{4, {89, 89, 89, 89}, {0, 3, 1, 2}}, 2, 5, 7},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        const test_case_t c = case_from_shape(&cases[i].shape);
        cuperm_launch_t now, before;
        heuristic_launch_of(&c, cases[i].elem, &sm90, &now);
        heuristic_launch_of(&c, cases[i].elem, &old, &before);
        assert_int_equal(now.kind, CUPERM_LAUNCH_ROWS);
        assert_int_equal(before.kind, CUPERM_LAUNCH_ROWS);
        assert_int_equal(now.tile.tile_a_log2, cases[i].la);
        assert_int_equal(before.tile.tile_a_log2, cases[i].old_la);
        assert_int_equal(now.tile.tile_a_log2 + now.tile.tile_b_log2, before.tile.tile_a_log2 + before.tile.tile_b_log2);
        check_case_with(&c, cases[i].elem, &sm90);
        check_case_with(&c, cases[i].elem, &old);
    }
}

/* launch l (elements of w problem elements each) of c maps every element right. */
static void check_mapping(const test_case_t* c, const cuperm_launch_t* l, int w)
{
    const int64_t span = case_out_span(c);
    int64_t* src_of = malloc((size_t)span * sizeof *src_of);
    int* hits = malloc((size_t)span * sizeof *hits);
    assert_non_null(src_of);
    assert_non_null(hits);
    expected_sources(c, src_of, span);
    if (emulate(l, w, src_of, span, hits)) {
        fprintf(stderr, "mapping wrong for the small-tile launch (kind %d, %d-byte elements): ", l->kind,
                l->elem_size);
        case_print(stderr, c);
        fail();
    }
    free(src_of);
    free(hits);
}

/* A tensor whose tiles would leave most of a 132-SM device idle gets scalar tiles of
 * CUPERM_THREADS x CUPERM_TILE_ITEMS_SMALL(elem) elements, both sides within a block (the kernels'
 * small path), where those still fit one wave of CUPERM_SMALL_TILE_BLOCKS(elem) blocks per SM and the
 * rules' tile is larger (a short group may leave it at half the standard size), vector tile launches
 * included; one that fits in L2 and whose rows tile has a side past a block gets half that tile;
 * larger tensors, vector rows and small_tiles 0 keep the rules' tile. Every such launch maps right. */
static void small_tiles_for_small_tensors(void** state)
{
    (void)state;
    const cuperm_tuning_t sm90 = *cuperm_tuning_for(&kDevice);
    cuperm_tuning_t off = sm90;
    off.transpose.small_tiles = 0;
    rng_t r = {6};
    int small = 0, kept = 0, half = 0, from_vectors = 0;
    for (int i = 0; i < 400; ++i) {
        test_case_t c;
        case_random(&r, &c, 2, 6, i % 3 ? 400000 : 4000000, 0);
        const int elem = 1 << (i % 5);
        cuperm_host_plan_t h, h_off;
        cuperm_plan_host(c.rank, c.extents, c.perm, elem, NULL, NULL, &kDevice, &sm90, &h);
        cuperm_plan_host(c.rank, c.extents, c.perm, elem, NULL, NULL, &kDevice, &off, &h_off);
        for (int packed = 0; packed <= h.has_packed; ++packed) {
            const cuperm_launch_t* l = packed ? &h.packed : &h.launch;
            const cuperm_launch_t* rules = packed ? &h_off.packed : &h_off.launch;
            const cuperm_tile_params_t* t = &l->tile;
            const int small_log2 = cuperm_log2_ceil((int64_t)CUPERM_THREADS * CUPERM_TILE_ITEMS_SMALL(l->elem_size));
            const int vec = rules->tile.vec_log2 != 0;
            const int eligible = vec ? rules->kind == CUPERM_LAUNCH_TILED
                                     : (rules->kind == CUPERM_LAUNCH_TILED || rules->kind == CUPERM_LAUNCH_ROWS) &&
                                           rules->tile.tile_a_log2 + rules->tile.tile_b_log2 >= small_log2 + 1;
            if (t->tile_a_log2 == rules->tile.tile_a_log2 && t->tile_b_log2 == rules->tile.tile_b_log2) {
                kept += eligible;
                continue;
            }
            assert_int_equal(l->kind, rules->kind);
            assert_true(t->tile_a_log2 <= 8 && t->tile_b_log2 <= 8);
            check_mapping(&c, l, l->elem_size / elem);
            if (t->tile_a_log2 + t->tile_b_log2 == small_log2) {
                assert_true(eligible);
                assert_true(t->num_tiles <= (int64_t)kDevice.sm_count * CUPERM_SMALL_TILE_BLOCKS(l->elem_size) &&
                            t->num_tiles > rules->tile.num_tiles);
                assert_int_equal(t->vec_log2, 0);
                ++small;
                from_vectors += vec;
            } else { /* half tiles: the rules' tile had a side past a block, the tensor fits in L2 */
                assert_int_equal(t->tile_a_log2 + t->tile_b_log2, small_log2 + 1);
                assert_true(rules->tile.tile_a_log2 > 8 || rules->tile.tile_b_log2 > 8);
                assert_true(2 * l->volume * l->elem_size <= (int64_t)kDevice.l2_bytes);
                ++half;
            }
        }
    }
    assert_true(small > 0);
    assert_true(from_vectors > 0);
    assert_true(kept > 0);
    printf("small-tile launches checked: %d (%d of them for vector tile launches), half-tile ones: %d\n", small,
           from_vectors, half);
}

/* Shapes the heuristic treats specially: tiny fastest dimensions, identity, matrices. */
static void edge_problems(void** state)
{
    (void)state;
    static const test_shape_t cases[] = {
        {1, {1}, {0}},          {1, {7}, {0}},           {2, {1, 1}, {1, 0}},
        {2, {2, 999}, {1, 0}},  {2, {999, 2}, {1, 0}},   {2, {33, 65}, {1, 0}},
        {3, {3, 5, 7}, {0, 1, 2}}, {3, {3, 5, 7}, {0, 2, 1}}, {3, {1, 300, 1}, {2, 1, 0}},
        {4, {2, 3, 2, 3}, {3, 2, 1, 0}}, {4, {64, 1, 1, 64}, {3, 1, 2, 0}}, {3, {2, 2, 2}, {1, 2, 0}},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        const test_case_t c = case_from_shape(&cases[i]);
        for (int elem = 1; elem <= 16; elem *= 2) check_case(&c, elem);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(random_dense_problems),
        cmocka_unit_test(random_strided_problems),
        cmocka_unit_test(high_rank_problems),
        cmocka_unit_test(edge_problems),
        cmocka_unit_test(short_shared_rows),
        cmocka_unit_test(shifted_lane_writes_when_asked),
        cmocka_unit_test(wide_tiles_when_asked),
        cmocka_unit_test(small_elements_write_longer),
        cmocka_unit_test(small_rows_tiles_shorter),
        cmocka_unit_test(small_tiles_for_small_tensors),
        cmocka_unit_test(batches_of_small_transposes),
        cmocka_unit_test(batches_with_outer_permutations),
    };
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    if (packed_cases == 0 || partly_packed_cases == 0) {
        fprintf(stderr, "no problem exercised the packed launch%s\n", packed_cases ? " with a partly packed row" : "");
        return 1;
    }
    for (int v = 0; v < 3; ++v)
        if (vector_tiles[v] == 0) {
            fprintf(stderr, "no problem exercised the %d-byte vector tiles\n", 4 << v);
            return 1;
        }
    if (shifted_tiles == 0) {
        fprintf(stderr, "no problem exercised the shifted vector tiles\n");
        return 1;
    }
    if (predictions == 0) {
        fprintf(stderr, "no problem checked cuperm_plan_predict\n");
        return 1;
    }
    if (banded_walks == 0) {
        fprintf(stderr, "no candidate exercised the banded tile walk\n");
        return 1;
    }
    if (whole_dims_launches[0] == 0 || whole_dims_launches[1] == 0) {
        fprintf(stderr, "no problem exercised the whole-dims launch %s a split dimension\n",
                whole_dims_launches[0] ? "with" : "without");
        return 1;
    }
    if (span_launches[0] == 0 || span_launches[1] == 0) {
        fprintf(stderr, "no problem exercised the span launch %s a split dimension\n",
                span_launches[0] ? "with" : "without");
        return 1;
    }
    if (span_tiles[0] == 0 || span_tiles[1] == 0) {
        fprintf(stderr, "no span tile was written %s\n", span_tiles[0] ? "through the gather table" : "by the cursor alone");
        return 1;
    }
    if (row_tiles_launches[0] == 0 || row_tiles_launches[1] == 0) {
        fprintf(stderr, "no problem exercised the row-tiles launch %s edge tiles\n",
                row_tiles_launches[0] ? "with" : "without");
        return 1;
    }
    if (row_tiles_vector_launches == 0) {
        fprintf(stderr, "no problem exercised the row-tiles launch with vectors\n");
        return 1;
    }
    printf("banded tile walks checked: %d; whole-dims launches: %d, %d of them with a split dimension; "
           "span launches: %d, %d of them with a split dimension (tiles: %lld gathered, %lld by the cursor); "
           "row-tiles launches: %d, %d of them with edge tiles, %d with vectors\n",
           banded_walks, whole_dims_launches[0] + whole_dims_launches[1], whole_dims_launches[1],
           span_launches[0] + span_launches[1], span_launches[1], (long long)span_tiles[1], (long long)span_tiles[0],
           row_tiles_launches[0] + row_tiles_launches[1], row_tiles_launches[1], row_tiles_vector_launches);
    printf("runs launches: %d, %d of them with a split dimension (tiles: %lld full, %lld short chunks; "
           "%lld granules read whole past a run's ends)\n",
           runs_launches[0] + runs_launches[1], runs_launches[1], (long long)runs_counts[0], (long long)runs_counts[1],
           (long long)runs_counts[2]);
    printf("packed launches checked: %d (%d of a partly packed row); vector tiles: %d of 4 bytes, %d of 8, %d of 16 (%d of them shifted)\n",
           packed_cases, partly_packed_cases, vector_tiles[0], vector_tiles[1], vector_tiles[2], shifted_tiles);
    return failed;
}
