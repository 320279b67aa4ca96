/* The transpose planner's walk and kernel rules (plan/transpose/select.c, whole_dims.c), each
 * checked on a problem that meets its condition and on one that does not: bands where a plane has
 * more A tiles than B tiles, whole-dims tiles where the tile launch's runs are short
 * on both sides, tile reshapes where warps store half sectors or a group's last tile is mostly
 * empty, the pipelined kernel's three conditions, the lean form of 8-byte tiles, the copies'
 * vectors a thread. Mapping
 * correctness of every launch is test_plan_mapping's job. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/index_math.h"
#include "plan/transpose/model.h"
#include "plan/transpose/select.h"
#include "plan/transpose/row_tiles.h"
#include "plan/transpose/whole_dims.h"

static const cuperm_device_info_t kDevice = {0, 9, 0, 132, 50 << 20, 48 << 10, 3.35e12};

static cuperm_launch_t plan_with(const cuperm_tuning_t* tuning, int rank, const int64_t* extents, const int* perm,
                                 int elem)
{
    cuperm_host_plan_t h;
    cuperm_plan_host(rank, extents, perm, elem, NULL, NULL, &kDevice, tuning, &h);
    return h.launch;
}

static cuperm_launch_t plan(int rank, const int64_t* extents, const int* perm, int elem)
{
    return plan_with(cuperm_tuning_for(&kDevice), rank, extents, perm, elem);
}

static const cuperm_transpose_tuning_t* tt(void) { return &cuperm_tuning_for(&kDevice)->transpose; }

/* The rows launch's own rules, which row tiles replace where rows are short: a plan with them off. */
static cuperm_launch_t plan_rows(int rank, const int64_t* extents, const int* perm, int elem)
{
    cuperm_tuning_t off = *cuperm_tuning_for(&kDevice);
    off.transpose.row_tiles_max_row_bytes = 0;
    return plan_with(&off, rank, extents, perm, elem);
}

/* The walk bands where a plane has more A tiles than B tiles. 23^6 f64 (the tiles' A side 32 or 64
 * elements, B side 64 or 32): 4,5,0,1,2,3 has thousands of A tiles over a few B tiles (banded);
 * 2,1,0,3,4,5 has 17 A tiles over thousands of B tiles (A-fastest, though its writes share
 * sectors: session 48 measured the band 1.37x slower there); 1,0,2,3,4,5 has a single B tile
 * (A-fastest: one order either way). */
static void band_where_a_tiles_outnumber_b_tiles(void** state)
{
    (void)state;
    static const int perms[3][6] = {{4, 5, 0, 1, 2, 3}, {2, 1, 0, 3, 4, 5}, {1, 0, 2, 3, 4, 5}};
    int64_t e[6];
    for (int i = 0; i < 6; ++i) e[i] = 23;
    for (int c = 0; c < 3; ++c) {
        const cuperm_launch_t l = plan(6, e, perms[c], 8);
        assert_int_equal(l.kind, CUPERM_LAUNCH_TILED);
        const cuperm_tile_params_t* t = &l.tile;
        if (c == 0) {
            assert_true(t->a_tiles > t->b_tiles && t->b_tiles > 1);
            assert_int_equal(t->band_tiles, tt()->walk_band_tiles);
        } else {
            assert_true(c == 1 ? t->a_tiles < t->b_tiles : t->b_tiles == 1);
            assert_int_equal(t->band_tiles, 0);
        }
    }
    double in_eff, out_eff; /* the second case's writes do share sectors: the old rule banded it */
    const cuperm_launch_t shared = plan(6, e, perms[1], 8);
    cuperm_sector_efficiency(&shared, &in_eff, &out_eff);
    assert_true(out_eff < 1 - tt()->sector_eff_tolerance);
}

/* The span rule's limit is the rules' runs in elements, at every element size that takes spans: a
 * batch of n x 40 matrices (perm 1,0,2) whose tiles read runs of n takes the span form at
 * n = span_max_run_elems (12 since session 63: 9-12-element runs ran 0.34-0.83x the tiles' time) and
 * leaves it at one more (for tiles, or at 1 byte the runs form). */
static void span_limit_is_the_tiles_runs(void** state)
{
    (void)state;
    static const int p3[3] = {1, 0, 2};
    const int n = tt()->span_max_run_elems;
    assert_true(n >= 10); /* runs of 9-10 split a warp access into 4 pieces, as 8 do */
    for (int elem = 1; elem <= tt()->span_max_elem; elem *= 2) {
        const int64_t at[3] = {n, 40, 300000}, past[3] = {n + 1, 40, 300000};
        const cuperm_launch_t l = plan(3, at, p3, elem), t = plan(3, past, p3, elem);
        assert_true(l.kind == CUPERM_LAUNCH_WHOLE_DIMS && l.tile.wd_span && l.tile.wd_span < 3);
        /* tiles, or at 1 byte the runs form (runs_for_tiles_of_short_runs), not spans */
        assert_true(t.kind == CUPERM_LAUNCH_TILED || (elem <= tt()->runs_rule_max_elem && t.tile.wd_span == 3));
    }
}

/* The runs form replaces scalar tiles of bytes that leave most of their slots or sectors idle, in batches
 * whose outer dimensions are permuted too (4 x 21 x M x 7 perm 1,0,3,2; 7 x 1702 x 37 x 25 x 13 perm
 * 4,1,2,3,0): every outer stride whole granules, runs of 128 bytes or more, 8 tiles a block or more. Not
 * at 2 bytes, not where the tensor gives each block a few tiles (16^6), not where the tiles fill their
 * slots and sectors (59 x 77 x 78 x 95 perm 1,2,3,0), not without the rule. */
static void runs_for_tiles_of_short_runs(void** state)
{
    (void)state;
    static const int q4[4] = {1, 0, 3, 2}, q5[5] = {4, 1, 2, 3, 0}, q6[6] = {1, 0, 2, 3, 4, 5}, r4[4] = {1, 2, 3, 0};
    const int64_t a[4] = {4, 21, 402149, 7}, b[5] = {7, 1702, 37, 25, 13}, cube[6] = {16, 16, 16, 16, 16, 16},
                  full[4] = {59, 77, 78, 95};
    for (int k = 0; k < 2; ++k) {
        const cuperm_launch_t l = k ? plan(5, b, q5, 1) : plan(4, a, q4, 1);
        assert_int_equal(l.kind, CUPERM_LAUNCH_WHOLE_DIMS);
        assert_int_equal(l.tile.wd_span, 3);
        assert_true(l.tile.span_in_run >= tt()->runs_rule_min_run_bytes &&
                    l.tile.span_out_run >= tt()->runs_rule_min_run_bytes);
        assert_true(l.tile.num_tiles >= (int64_t)tt()->runs_rule_min_tiles_per_block * l.blocks);
        assert_true(l.smem_bytes <= kDevice.smem_per_block);
        for (int d = l.tile.a_end; d < l.tile.rank; ++d) /* every tile's runs start where the first's do */
            assert_true(l.tile.dim[d].in_stride % 16 == 0 && l.tile.dim[d].out_stride % 16 == 0);
        const cuperm_launch_t h = k ? plan(5, b, q5, 2) : plan(4, a, q4, 2);
        assert_false(h.kind == CUPERM_LAUNCH_WHOLE_DIMS && h.tile.wd_span == 3);
        cuperm_tuning_t off = *cuperm_tuning_for(&kDevice);
        off.transpose.runs_rule_max_elem = 0;
        const cuperm_launch_t t = k ? plan_with(&off, 5, b, q5, 1) : plan_with(&off, 4, a, q4, 1);
        assert_int_equal(t.kind, CUPERM_LAUNCH_TILED);
    }
    /* The grid: the tuning's blocks an SM where the device's shared memory holds them all at once (an
     * SM of 228 KB holds 5 blocks of up to 44 KB, 4 of up to 56), never more than the kernel's bound. */
    {
        const cuperm_launch_t l = plan(4, a, q4, 1);
        assert_int_equal(l.blocks, (int64_t)kDevice.sm_count * tt()->runs_blocks_per_sm);
        for (int kb = 30; kb <= 60; kb += 2) {
            cuperm_device_info_t dev = kDevice;
            dev.smem_per_sm = kb << 10;
            cuperm_host_plan_t h;
            cuperm_plan_host(4, a, q4, 1, NULL, NULL, &dev, cuperm_tuning_for(&dev), &h);
            assert_int_equal(h.launch.tile.wd_span, 3);
            int fit = (kb << 10) / (h.launch.smem_bytes + 1024);
            fit = fit < 1 ? 1 : fit > tt()->runs_blocks_per_sm ? tt()->runs_blocks_per_sm : fit;
            assert_int_equal(h.launch.blocks, (int64_t)dev.sm_count * fit);
        }
        cuperm_device_info_t h100 = kDevice;
        h100.smem_per_sm = 228 << 10;
        cuperm_host_plan_t h;
        cuperm_plan_host(4, a, q4, 1, NULL, NULL, &h100, cuperm_tuning_for(&h100), &h);
        assert_true(h.launch.blocks * (int64_t)(h.launch.smem_bytes + 1024) <= (int64_t)h100.sm_count * (228 << 10));
        assert_true(tt()->runs_blocks_per_sm <= CUPERM_RUNS_MAX_BLOCKS_PER_SM);
    }
    cuperm_launch_t l = plan(6, cube, q6, 1);
    assert_false(l.kind == CUPERM_LAUNCH_WHOLE_DIMS && l.tile.wd_span == 3);
    l = plan(4, full, r4, 1);
    assert_false(l.kind == CUPERM_LAUNCH_WHOLE_DIMS && l.tile.wd_span == 3);
}

/* Batches of small transposes in 1-4-byte elements (the short-group suite's worst cases: 2 x 62 and
 * 37 x 2 matrices, perm 1,0,2) whose tile launches cut a side into runs of a few bytes take the span
 * form: spans of whole matrices of up to 16 KB (within a block's shared memory with their gather table)
 * in whole granules, the grid capped. 8-byte elements, long runs on both sides, a
 * padded input and a shared fastest dimension do not. */
static void spans_for_batches_of_small_transposes(void** state)
{
    (void)state;
    static const int p3[3] = {1, 0, 2};
    static const struct {
        int64_t e[3];
        int elem;
    } yes[] = {{{2, 62, 1729307}, 1}, {{37, 2, 2287314}, 1}, {{5, 17, 500000}, 2}, {{3, 40, 400000}, 4}};
    for (size_t i = 0; i < sizeof yes / sizeof yes[0]; ++i) {
        cuperm_tuning_t rules_only = *cuperm_tuning_for(&kDevice);
        rules_only.transpose.span_max_elem = 0;
        rules_only.transpose.runs_rule_max_elem = 0;
        const cuperm_launch_t r = plan_with(&rules_only, 3, yes[i].e, p3, yes[i].elem);
        assert_true(r.kind != CUPERM_LAUNCH_WHOLE_DIMS || !r.tile.wd_span);
        const cuperm_launch_t l = plan(3, yes[i].e, p3, yes[i].elem);
        assert_int_equal(l.kind, CUPERM_LAUNCH_WHOLE_DIMS);
        assert_true(l.tile.wd_span);
        const int64_t inner = yes[i].e[0] * yes[i].e[1], bytes = l.tile.a_volume * yes[i].elem;
        assert_int_equal(l.tile.span_inner, inner);
        assert_true(bytes <= tt()->span_tile_bytes && bytes > tt()->span_tile_bytes / 2);
        assert_true(l.smem_bytes <= kDevice.smem_per_block);
        assert_int_equal(l.tile.wd_span, yes[i].elem <= tt()->span_gather_max_elem ? 2 : 1);
        if (l.tile.wd_span == 2) /* chunks of whole granules: one gather table serves every tile */
            assert_int_equal(bytes % 16, 0);
        assert_true(l.blocks == (int64_t)kDevice.sm_count * tt()->span_blocks_per_sm);
    }
    const int64_t e8[3] = {2, 62, 1729307}, wide[3] = {128, 128, 1000};
    cuperm_launch_t l = plan(3, e8, p3, 8);
    assert_false(l.kind == CUPERM_LAUNCH_WHOLE_DIMS && l.tile.wd_span);
    l = plan(3, wide, p3, 1);
    assert_false(l.kind == CUPERM_LAUNCH_WHOLE_DIMS && l.tile.wd_span);
    cuperm_problem_t p;
    cuperm_launch_t sp;
    const int64_t padded[3] = {1, 3, 3 * 62}; /* an input row of 3 for 2 elements */
    cuperm_problem_init(&p, 3, e8, p3, padded, NULL);
    cuperm_problem_canonicalize(&p);
    assert_false(cuperm_whole_dims_span_launch(&p, 1, &kDevice, tt(), &sp));
    static const int shared[4] = {0, 2, 1, 3};
    const int64_t e4[4] = {2, 5, 7, 100000};
    cuperm_problem_init(&p, 4, e4, shared, NULL, NULL);
    cuperm_problem_canonicalize(&p);
    assert_false(cuperm_whole_dims_span_launch(&p, 1, &kDevice, tt(), &sp));
    static const int rot[4] = {2, 1, 0, 3}; /* rank 4: an inner block of three, runs of 2 */
    cuperm_problem_init(&p, 4, e4, rot, NULL, NULL);
    cuperm_problem_canonicalize(&p);
    assert_true(cuperm_whole_dims_span_launch(&p, 1, &kDevice, tt(), &sp));
    assert_int_equal(sp.tile.span_inner, 70);
    l = plan(4, e4, rot, 1);
    assert_true(l.kind == CUPERM_LAUNCH_WHOLE_DIMS && l.tile.wd_span);
    /* 13^6 f16: runs of 13 in the rules' tiles, more than span_max_run_elems: the span form is a
     * candidate only (1,0,2,3,4,5: 16 KB tiles of 13^4 batches) */
    const int64_t e13[6] = {13, 13, 13, 13, 13, 13};
    static const int batch13[6] = {1, 0, 2, 3, 4, 5};
    cuperm_problem_init(&p, 6, e13, batch13, NULL, NULL);
    cuperm_problem_canonicalize(&p);
    assert_true(cuperm_whole_dims_span_launch(&p, 2, &kDevice, tt(), &sp));
    l = plan(6, e13, batch13, 2);
    assert_false(l.kind == CUPERM_LAUNCH_WHOLE_DIMS && l.tile.wd_span);
    /* a short side of 4 f16 in a batch of 4 x 24 whose tiles would hold 4 KB: under span_min_tile_bytes */
    const int64_t few[3] = {4, 24, 21};
    cuperm_problem_init(&p, 3, few, p3, NULL, NULL);
    cuperm_problem_canonicalize(&p);
    assert_true(cuperm_whole_dims_span_launch(&p, 2, &kDevice, tt(), &sp) && sp.tile.a_volume * 2 < 8192);
    l = plan(3, few, p3, 2);
    assert_false(l.kind == CUPERM_LAUNCH_WHOLE_DIMS && l.tile.wd_span);
}

/* A rank-12 tensor of extents 2-5 with two of 21-40 whose tile launch reads and writes
 * 32-byte runs: whole-dims tiles, with runs of at least half whole_dims_run_bytes. */
static void whole_dims_where_both_runs_are_short(void** state)
{
    (void)state;
    const int64_t ext[12] = {4, 2, 2, 5, 3, 5, 4, 5, 40, 21, 2, 5};
    const int perm[12] = {0, 11, 2, 8, 4, 3, 5, 9, 6, 10, 1, 7};
    cuperm_launch_t l = plan(12, ext, perm, 8);
    assert_int_equal(l.kind, CUPERM_LAUNCH_WHOLE_DIMS);
    for (int side = 0; side < 2; ++side)
        assert_true(cuperm_whole_dims_run(&l.tile, side) * 8 >= tt()->whole_dims_run_bytes / 2);
    assert_true(l.blocks <= (int64_t)kDevice.sm_count * tt()->whole_dims_blocks_per_sm);
    assert_true(l.tile.num_tiles >= (int64_t)tt()->whole_dims_min_tiles_per_block * l.blocks);
    /* The same shape at 1 byte an element: the kernel moves one element per access, so no. */
    assert_int_not_equal(plan(12, ext, perm, 1).kind, CUPERM_LAUNCH_WHOLE_DIMS);
    /* A thousandth of the volume: too few tiles per block to pay for the tables. */
    int64_t small[12];
    memcpy(small, ext, sizeof small);
    small[8] = 2, small[9] = 2, small[3] = 2;
    cuperm_launch_t s = plan(12, small, perm, 8), wd;
    assert_int_not_equal(s.kind, CUPERM_LAUNCH_WHOLE_DIMS);
    cuperm_problem_t p;
    cuperm_problem_init(&p, 12, small, perm, NULL, NULL);
    cuperm_problem_canonicalize(&p);
    assert_true(cuperm_whole_dims_launch(&p, 8, tt(), &wd));
    cuperm_whole_dims_fit_device(&wd, &kDevice, tt());
    assert_true(wd.tile.num_tiles < (int64_t)tt()->whole_dims_min_tiles_per_block * wd.blocks);
}

/* cuperm_tile_dense_run against the first tile's offsets listed one by one: the longest run of
 * consecutive addresses from 0 on each side, on the planned launches of random problems. */
static void dense_run_matches_brute_force(void** state)
{
    (void)state;
    srand(49);
    static int64_t off[1 << 14];
    for (int trial = 0; trial < 300; ++trial) {
        const int rank = 2 + rand() % 5, elem = 4 << (rand() % 2);
        int64_t ext[6];
        int perm[6];
        for (int d = 0; d < rank; ++d) ext[d] = 2 + rand() % 40, perm[d] = d;
        for (int d = rank - 1; d > 0; --d) {
            const int j = rand() % (d + 1), x = perm[d];
            perm[d] = perm[j], perm[j] = x;
        }
        const cuperm_launch_t l = plan(rank, ext, perm, elem);
        if (l.kind != CUPERM_LAUNCH_TILED && l.kind != CUPERM_LAUNCH_ROWS) continue;
        const cuperm_tile_params_t* t = &l.tile;
        const int64_t ta = (int64_t)1 << t->tile_a_log2, tb = (int64_t)1 << t->tile_b_log2;
        const int64_t na = ta < t->a_volume ? ta : t->a_volume, nb = tb < t->b_volume ? tb : t->b_volume;
        if (na * nb > (int64_t)(sizeof off / sizeof off[0])) continue;
        for (int side = 0; side < 2; ++side) {
            int64_t n = 0;
            for (int64_t b = 0; b < nb; ++b)
                for (int64_t a = 0; a < na; ++a) {
                    int64_t o = 0, ia = a, ib = b;
                    for (int d = 0; d < t->b_end; ++d) {
                        int64_t* i = d < t->a_end ? &ia : &ib;
                        o += *i % t->dim[d].extent * (side ? t->dim[d].out_stride : t->dim[d].in_stride);
                        *i /= t->dim[d].extent;
                    }
                    off[n++] = o;
                }
            int64_t run = 0; /* the longest prefix 0, 1, 2, ... of the offsets */
            for (int grew = 1; grew;) {
                grew = 0;
                for (int64_t k = 0; k < n && !grew; ++k) grew = off[k] == run;
                run += grew;
            }
            /* exact unless the run goes on along a later dimension of a group it has used (the groups'
             * dimensions interleave along this side): then a lower bound */
            const int64_t dense = cuperm_tile_dense_run(&l, side);
            int interleaved = 0;
            for (int g = 0; g < 2; ++g) {
                int64_t before = 1; /* the group's linear index of digit 1 of dimension d */
                for (int d = g ? t->a_end : 0; d < (g ? t->b_end : t->a_end); before *= t->dim[d].extent, ++d)
                    interleaved |= t->dim[d].extent > 1 && before < (g ? nb : na) &&
                                   (side ? t->dim[d].out_stride : t->dim[d].in_stride) == dense;
            }
            if (interleaved)
                assert_true(dense <= run);
            else
                assert_int_equal(dense, run);
        }
    }
}

/* Whole-dims takes the place of a tile launch whose tiles' runs (across both groups) are short on
 * both sides, and of a rows launch whose rows are short; not where another group continues the
 * runs, nor where a rows tile reads rows of 8 elements or more that fill most of their sectors:
 * 15^6 f32 1,0,3,2,4,5 (60-byte runs along each group, 1800 and more across them: tiles ran
 * 1.6-2.1x faster than whole-dims on the H200) and 0,2,1,3,4,5 (rows of 15 of 16 elements, 68% of
 * the read sectors); whole-dims for rows of 3 f64 (3,7,8,8,345,47 0,2,3,1,4,5: 1.69x faster). */
static void whole_dims_where_tiles_runs_are_short(void** state)
{
    (void)state;
    const int64_t n15[] = {15, 15, 15, 15, 15, 15}, r3[] = {3, 7, 8, 8, 345, 47};
    const int pt[] = {1, 0, 3, 2, 4, 5}, pr[] = {0, 2, 1, 3, 4, 5}, p3[] = {0, 2, 3, 1, 4, 5};
    const cuperm_launch_t t = plan(6, n15, pt, 4), r = plan_rows(6, n15, pr, 4), w = plan(6, r3, p3, 8);
    cuperm_model_features_t f;
    assert_int_equal(t.kind, CUPERM_LAUNCH_TILED);
    cuperm_model_features(&t, &f);
    const double short_run = tt()->whole_dims_short_run_bytes;
    assert_true(f.in_run_bytes < short_run && f.out_run_bytes < short_run);
    assert_true(cuperm_tile_dense_run(&t, 0) * 4 >= short_run);
    assert_int_equal(r.kind, CUPERM_LAUNCH_ROWS);
    cuperm_model_features(&r, &f);
    assert_true(r.tile.tile_a_log2 >= tt()->whole_dims_rows_min_side_log2 &&
                f.in_sector_eff >= tt()->whole_dims_rows_min_read_eff);
    assert_int_equal(w.kind, CUPERM_LAUNCH_WHOLE_DIMS);
    cuperm_tuning_t off = *cuperm_tuning_for(&kDevice); /* the rows exemption off: whole-dims */
    off.transpose.whole_dims_rows_min_side_log2 = 30;
    off.transpose.row_tiles_max_row_bytes = 0;
    assert_int_equal(plan_with(&off, 6, n15, pr, 4).kind, CUPERM_LAUNCH_WHOLE_DIMS);
}

/* Long runs on either side keep the tile launch, whole-dims candidate or not. */
static void tiles_where_a_run_is_long(void** state)
{
    (void)state;
    const int64_t ext[3] = {547, 577, 631};
    const int perm[3] = {2, 1, 0};
    cuperm_launch_t l = plan(3, ext, perm, 8);
    assert_int_equal(l.kind, CUPERM_LAUNCH_TILED);
    cuperm_launch_t wd;
    cuperm_problem_t p;
    cuperm_problem_init(&p, 3, ext, perm, NULL, NULL);
    cuperm_problem_canonicalize(&p);
    if (cuperm_whole_dims_launch(&p, 8, tt(), &wd)) assert_false(cuperm_whole_dims_preferred(&l, &wd, tt()));
}

/* The output's run is 3 B elements, then A's first dimension (21 elements, output stride 3): the
 * rules' tile, 64 wide along B, stores half sectors; the reshape the planner takes stores whole
 * ones. 16^6 (whole sectors either way) keeps the rules' tile. */
static void reshape_where_warps_store_half_sectors(void** state)
{
    (void)state;
    const int64_t ext[8] = {21, 40, 23, 3, 5, 2, 26, 5};
    const int perm[8] = {3, 0, 4, 6, 1, 5, 2, 7};
    cuperm_tuning_t off = *cuperm_tuning_for(&kDevice);
    off.transpose.warp_reshape_below = 0;
    const cuperm_launch_t rules = plan_with(&off, 8, ext, perm, 8), l = plan(8, ext, perm, 8);
    double in_eff, out_eff;
    assert_int_equal(rules.kind, CUPERM_LAUNCH_TILED);
    cuperm_warp_efficiency(&rules, &in_eff, &out_eff);
    assert_true(out_eff < tt()->warp_reshape_below);
    const double rules_out = out_eff;
    assert_int_equal(l.kind, CUPERM_LAUNCH_TILED);
    assert_int_equal(l.tile.tile_a_log2 + l.tile.tile_b_log2, rules.tile.tile_a_log2 + rules.tile.tile_b_log2);
    assert_int_not_equal(l.tile.tile_a_log2, rules.tile.tile_a_log2);
    cuperm_warp_efficiency(&l, &in_eff, &out_eff);
    assert_true(out_eff > rules_out && out_eff >= tt()->warp_reshape_below && in_eff >= tt()->warp_reshape_below);
    /* At 1 byte (tiles of 2^13: 6 x 7 from the rules) the reshape whose stores fill the most puts a
     * side past a block (9 x 4), which the kernels move on their any-shape path at a third of the
     * speed (21^6 i8, H100): the planner's tile stays within a block. */
    const cuperm_launch_t r1 = plan_with(&off, 8, ext, perm, 1), l1 = plan(8, ext, perm, 1);
    const int side_max = cuperm_log2_ceil(CUPERM_THREADS);
    assert_int_equal(l1.kind, CUPERM_LAUNCH_TILED);
    assert_int_equal(l1.tile.tile_a_log2 + l1.tile.tile_b_log2, r1.tile.tile_a_log2 + r1.tile.tile_b_log2);
    assert_true(l1.tile.tile_a_log2 <= side_max && l1.tile.tile_b_log2 <= side_max);
    int64_t e21[6];
    const int p21[6] = {2, 0, 3, 1, 5, 4};
    for (int i = 0; i < 6; ++i) e21[i] = 21;
    const cuperm_launch_t l21 = plan(6, e21, p21, 1);
    assert_true(l21.tile.tile_a_log2 <= side_max && l21.tile.tile_b_log2 <= side_max);
    int64_t e16[6];
    const int p16[6] = {1, 2, 0, 3, 4, 5};
    for (int i = 0; i < 6; ++i) e16[i] = 16;
    const cuperm_launch_t a = plan_with(&off, 6, e16, p16, 8), b = plan(6, e16, p16, 8);
    assert_int_equal(a.tile.tile_a_log2, b.tile.tile_a_log2);
    assert_int_equal(a.tile.tile_b_log2, b.tile.tile_b_log2);
}

/* cuperm_warp_efficiency against a brute-force count: each lane's element found by division, the
 * sectors of a warp instruction counted by sorting, on the launches the planner makes for a set of
 * problems (every permutation of a rank-4 tensor of odd extents, at 1, 2, 4 and 8 bytes). */
static int64_t side_offset(const cuperm_tile_params_t* t, int begin, int end, int64_t i, int out)
{
    int64_t off = 0;
    for (int d = begin; d < end; ++d) {
        off += (i % t->dim[d].extent) * (out ? t->dim[d].out_stride : t->dim[d].in_stride);
        i /= t->dim[d].extent;
    }
    return off;
}

static int cmp_i64(const void* a, const void* b)
{
    const int64_t x = *(const int64_t*)a, y = *(const int64_t*)b;
    return x < y ? -1 : x > y;
}

static double brute_warp_efficiency(const cuperm_launch_t* l, int out)
{
    const cuperm_tile_params_t* t = &l->tile;
    const int spacing = l->elem_size >= 8 ? 1 : CUPERM_TILE_ITEMS(l->elem_size);
    const int lx = out ? t->tile_b_log2 : t->tile_a_log2;
    int64_t s[32];
    int n = 0;
    for (int lane = 0; lane < 32; ++lane) {
        const int64_t x = lane % ((int64_t)1 << lx), y = (int64_t)(lane >> lx) * spacing;
        const int64_t a = out ? y : x, b = out ? x : y;
        if (a >= t->a_volume || b >= t->b_volume) continue;
        s[n++] = (side_offset(t, 0, t->a_end, a, out) + side_offset(t, t->a_end, t->b_end, b, out)) * l->elem_size / 32;
    }
    qsort(s, (size_t)n, sizeof *s, cmp_i64);
    int distinct = n > 0;
    for (int i = 1; i < n; ++i) distinct += s[i] != s[i - 1];
    return distinct ? (double)((n * l->elem_size + 31) / 32) / distinct : 1.0;
}

static void warp_efficiency_matches_brute_force(void** state)
{
    (void)state;
    const int64_t ext[4] = {3, 17, 5, 29};
    int perm[4] = {0, 1, 2, 3}, checked = 0;
    for (int p = 0; p < 24; ++p) {
        int used[4] = {0}, k = p; /* the p-th permutation, factorial base */
        for (int i = 0; i < 4; ++i) {
            int pick = k % (4 - i), j = 0;
            k /= 4 - i;
            for (;; ++j)
                if (!used[j] && pick-- == 0) break;
            used[j] = 1;
            perm[i] = j;
        }
        for (int elem = 1; elem <= 8; elem *= 2) {
            const cuperm_launch_t l = plan(4, ext, perm, elem);
            if (l.kind != CUPERM_LAUNCH_TILED || l.tile.vec_log2) continue;
            double in_eff, out_eff;
            cuperm_warp_efficiency(&l, &in_eff, &out_eff);
            assert_true(in_eff == brute_warp_efficiency(&l, 0));
            assert_true(out_eff == brute_warp_efficiency(&l, 1));
            ++checked;
        }
    }
    assert_true(checked > 10);
}

/* Rows of 29 doubles (232 bytes), the output's next dimension (13) last in the input (the row
 * dimensions fuse to 37, 23^3, 13): the candidates hold the rules' rows in output order (13,
 * 23^3, 37: rows that are not whole sectors), the input order and the paired order (13, then
 * the input's next, 37), each once. On the H100 the paired order ran this held-out case at 89.8%
 * of copy, the input order at 54.0 and the output order at 82.2
 * (bench/results/rows-order-h100/paired/). */
static void rows_candidates_in_three_orders(void** state)
{
    (void)state;
    const int64_t e[] = {29, 37, 23, 23, 23, 13};
    const int perm[] = {0, 5, 2, 3, 4, 1};
    cuperm_launch_t cand[CUPERM_MAX_CANDIDATES];
    const int n = cuperm_plan_candidates(6, e, perm, 8, NULL, NULL, &kDevice, cuperm_tuning_for(&kDevice), 0, cand,
                                         CUPERM_MAX_CANDIDATES);
    int input = 0, output = 0, paired = 0, first = -1;
    for (int k = 0; k < n; ++k) {
        if (cand[k].kind != CUPERM_LAUNCH_ROWS) continue;
        const cuperm_dim_t* d = cand[k].tile.dim;
        if (first < 0) first = k; /* the rules' launch (the planner's choice, row tiles, comes before) */
        assert_int_equal(d[0].extent, 29);
        input += d[1].extent == 37 && d[2].extent == 12167;
        output += d[1].extent == 13 && d[2].extent == 12167 && k == first;
        paired += d[1].extent == 13 && d[2].extent == 37;
    }
    assert_int_equal(input, 1);
    assert_int_equal(output, 1);
    assert_int_equal(paired, 1);
}

/* Rows of 22 doubles (176 bytes, not whole sectors) go in output order; rows of 16 (128 bytes)
 * keep the input order, which the sector cost prices no worse. On the H100 the output order ran
 * 22^6 `0,5,1,3,2,4` at 93% of copy, the input order at 53% (bench/results/rows-output-order-h100/). */
static void rows_in_output_order_unless_whole_sectors(void** state)
{
    (void)state;
    const int perm[] = {0, 5, 1, 3, 2, 4};
    int64_t e22[6], e16[6];
    for (int i = 0; i < 6; ++i) e22[i] = 22, e16[i] = 16;
    const cuperm_launch_t a = plan_rows(6, e22, perm, 8), b = plan_rows(6, e16, perm, 8);
    assert_int_equal(a.kind, CUPERM_LAUNCH_ROWS);
    assert_int_equal(b.kind, CUPERM_LAUNCH_ROWS);
    for (int d = 2; d < a.tile.rank; ++d) assert_true(a.tile.dim[d - 1].out_stride < a.tile.dim[d].out_stride);
    for (int d = 2; d < b.tile.rank; ++d) assert_true(b.tile.dim[d - 1].in_stride < b.tile.dim[d].in_stride);
}

/* Row tiles take a rows launch's place where its tiles are at most tt->row_tiles_max_fill full:
 * 17^6 f32 0,2,3,5,4,1 (rows of 17 in tiles of 32: 55% of copy on the H200,
 * 71% as row tiles, bench/results/row-tiles-h200/) reads the input's next dimension (17) whole and
 * writes 14 of the output's (289, two fused) a row, runs of 1156 and 952 bytes. Rows of whole
 * vectors move in them: 20^6 f32 (16-byte vectors where the rows launch had them, 20 in 32) and
 * 12^6 f64 (12 in 16, exactly 75%). Rows that fill their tiles keep the rows launch (15^6 f64, 15 of
 * 16; 16^6 f32, vector rows), as do rows of 632 bytes (79 doubles, row tiles among the
 * candidates) and rows under a sector (3 floats). */
static void row_tiles_where_rows_are_short(void** state)
{
    (void)state;
    const int64_t e17[] = {17, 17, 17, 17, 17, 17}, e79[] = {79, 73, 229, 151};
    const int p17[] = {0, 2, 3, 5, 4, 1}, p79[] = {0, 2, 1, 3};
    const cuperm_launch_t r = plan(6, e17, p17, 4), l = plan(4, e79, p79, 8);
    int64_t e15[6], e16[6];
    for (int i = 0; i < 6; ++i) e15[i] = 15, e16[i] = 16;
    const int64_t e3[] = {3, 1000, 700};
    const int p3[] = {0, 2, 1};
    assert_int_equal(plan(6, e15, p17, 8).kind, CUPERM_LAUNCH_ROWS);
    const cuperm_launch_t v = plan(6, e16, p17, 4);
    assert_true(v.kind == CUPERM_LAUNCH_ROWS && v.tile.vec_log2 > 0);
    int64_t e20[6], e12[6];
    for (int i = 0; i < 6; ++i) e20[i] = 20, e12[i] = 12;
    const cuperm_launch_t v20 = plan(6, e20, p17, 4), r20 = plan_rows(6, e20, p17, 4);
    assert_true(r20.kind == CUPERM_LAUNCH_ROWS && r20.tile.vec_log2 == 2 && cuperm_tile_fill(&r20) < 0.7);
    assert_true(v20.kind == CUPERM_LAUNCH_ROW_TILES && v20.tile.vec_log2 == 2);
    const cuperm_launch_t v12 = plan(6, e12, p17, 8), r12 = plan_rows(6, e12, p17, 8);
    assert_true(r12.kind == CUPERM_LAUNCH_ROWS && cuperm_tile_fill(&r12) == 0.75);
    assert_true(v12.kind == CUPERM_LAUNCH_ROW_TILES && v12.tile.vec_log2 == 1);
    assert_int_equal(plan(3, e3, p3, 4).kind, CUPERM_LAUNCH_ROWS);
    assert_int_equal(r.kind, CUPERM_LAUNCH_ROW_TILES);
    const cuperm_tile_params_t* t = &r.tile;
    assert_int_equal(t->dim[0].extent, 17);
    assert_int_equal(t->a_volume, 17);
    assert_int_equal(t->b_volume, 289); /* the output's next dimensions (two, fused) */
    assert_int_equal(t->rt_side_a, 17);
    assert_int_equal(t->rt_side_b, 14);
    assert_true(17 * t->rt_side_a * t->rt_side_b * 4 <= tt()->row_tiles_tile_bytes);
    cuperm_model_features_t f;
    cuperm_model_features(&r, &f);
    assert_true(f.in_run_bytes == 17 * 17 * 4 && f.out_run_bytes == 17 * 14 * 4);
    assert_true(f.in_sector_eff > 0.95 && f.out_sector_eff > 0.95);
    assert_true(r.smem_bytes == cuperm_row_tile_smem_bytes(t, 4) && r.smem_bytes <= 48 * 1024);
    assert_int_equal(l.kind, CUPERM_LAUNCH_ROWS);
    cuperm_launch_t cand[CUPERM_MAX_CANDIDATES];
    const int n = cuperm_plan_candidates(4, e79, p79, 8, NULL, NULL, &kDevice, cuperm_tuning_for(&kDevice), 0, cand,
                                         CUPERM_MAX_CANDIDATES);
    int row_tiles = 0;
    for (int k = 0; k < n; ++k) row_tiles += cand[k].kind == CUPERM_LAUNCH_ROW_TILES;
    assert_int_equal(row_tiles, 1);
    cuperm_tuning_t off = *cuperm_tuning_for(&kDevice);
    off.transpose.row_tiles_max_row_bytes = 0;
    assert_int_equal(plan_with(&off, 6, e17, p17, 4).kind, CUPERM_LAUNCH_ROWS);
}

/* A short group keeps the tile within a block: the kernels move a side past one on their any-shape
 * path (8 x 512 f32 tiles: 35-42% of copy where 8 x 256 ran at 61-84, bench/results/block-sides-h200/).
 * A 5-element input run that is the output's slowest dimension (5,15,19,9,8,10 1,2,3,4,5,0) and a batch
 * of 8 x 24 matrices transposed (8,24,M 1,0,2) take 8 x 256, the half-size fast path, in L2 or not; a
 * 4-element run 4 x 256 (the small tiles' size); 8-byte elements half their 2^11 likewise. A tile left
 * at whole_dims_max_tile_items elements a thread or fewer, below the standard size, gives way to
 * whole-dims (f32 and f64 4 x 256); 16-byte 4 x 256 is their standard tile and stays. */
static void tiles_stay_within_a_block_where_a_group_is_short(void** state)
{
    (void)state;
    static const int perm6[] = {1, 2, 3, 4, 5, 0}, swap[] = {1, 0, 2};
    static const int64_t small[] = {5, 15, 19, 9, 8, 10}, large[] = {5, 150, 190, 9, 8, 10};
    static const int64_t batch8[] = {8, 24, 1398101}, batch4[] = {4, 24, 2796202};
    const struct {
        int rank;
        const int64_t* ext;
        const int* perm;
        int elem, la, lb, whole_dims;
    } cases[] = {{6, small, perm6, 4, 3, 8, 0}, {6, large, perm6, 4, 3, 8, 0}, {3, batch8, swap, 4, 3, 8, 0},
                 {3, batch8, swap, 2, 3, 8, 0},  {3, batch4, swap, 4, 2, 8, 1},  {3, batch4, swap, 8, 2, 8, 1},
                 {3, batch4, swap, 16, 2, 8, 0}};
    /* the span form off throughout: it takes the batches of 1-4-byte elements (spans_for_batches_...) */
    cuperm_tuning_t rules_only = *cuperm_tuning_for(&kDevice), no_wd = rules_only, no_spans = rules_only;
    rules_only.transpose.small_tiles = 0;
    rules_only.transpose.whole_dims_max_tile_items = 0;
    no_wd.transpose.whole_dims_max_tile_items = 0;
    rules_only.transpose.span_max_elem = no_wd.transpose.span_max_elem = no_spans.transpose.span_max_elem = 0;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        const int rank = cases[i].rank, elem = cases[i].elem;
        for (int t = 0; t < 2; ++t) { /* the rules alone, and the planner without the whole-dims rule */
            const cuperm_launch_t l = plan_with(t ? &no_wd : &rules_only, rank, cases[i].ext, cases[i].perm, elem);
            assert_int_equal(l.kind, CUPERM_LAUNCH_TILED);
            assert_int_equal(l.tile.tile_a_log2, cases[i].la);
            assert_int_equal(l.tile.tile_b_log2, cases[i].lb);
        }
        const cuperm_launch_t l = plan_with(&no_spans, rank, cases[i].ext, cases[i].perm, elem);
        assert_int_equal(l.kind, cases[i].whole_dims ? CUPERM_LAUNCH_WHOLE_DIMS : CUPERM_LAUNCH_TILED);
    }
}

/* The pipelined kernel takes staged tiles of 8- and 16-byte elements whose input and output fit in
 * L2 together (a persistent grid of its resident blocks, two buffers of shared memory); 4-byte
 * elements and DRAM-sized tensors keep the plain kernel. Either way the candidate list holds both
 * forms of the planner's tiles, so measure mode times the one it did not choose. */
static void pipelined_where_tensors_fit_in_l2(void** state)
{
    (void)state;
    const int perm[] = {2, 1, 0};
    const int64_t small[] = {64, 48, 40}, large[] = {640, 480, 400};
    for (int elem = 4; elem <= 16; elem *= 2) {
        const cuperm_launch_t l = plan(3, small, perm, elem), big = plan(3, large, perm, elem);
        assert_int_equal(l.kind, CUPERM_LAUNCH_TILED);
        assert_int_equal(l.tile.pipelined, elem >= tt()->pipelined_min_elem);
        assert_int_equal(big.tile.pipelined, 0);
        if (l.tile.pipelined) {
            const int64_t slots = (int64_t)kDevice.sm_count * CUPERM_PIPE_TILE_BLOCKS;
            assert_int_equal(l.blocks, l.tile.num_tiles < slots ? l.tile.num_tiles : slots);
            assert_int_equal(l.smem_bytes, 2 * cuperm_tile_pipe_buffer_bytes(1 << l.tile.tile_a_log2,
                                                                             1 << l.tile.tile_b_log2,
                                                                             l.tile.smem_row, elem));
        }
        cuperm_launch_t cand[CUPERM_MAX_CANDIDATES];
        const int n = cuperm_plan_candidates(3, small, perm, elem, NULL, NULL, &kDevice, cuperm_tuning_for(&kDevice),
                                             0, cand, CUPERM_MAX_CANDIDATES);
        assert_int_equal(cand[0].tile.pipelined, l.tile.pipelined);
        int twins = 0;
        for (int k = 1; k < n; ++k)
            twins += cand[k].kind == CUPERM_LAUNCH_TILED && cand[k].tile.pipelined != l.tile.pipelined &&
                     cand[k].tile.tile_a_log2 == l.tile.tile_a_log2 &&
                     cand[k].tile.tile_b_log2 == l.tile.tile_b_log2 &&
                     cand[k].tile.band_tiles == l.tile.band_tiles;
        assert_int_equal(twins, 1);
    }
    cuperm_tuning_t off = *cuperm_tuning_for(&kDevice);
    off.transpose.pipelined_min_elem = 0;
    assert_int_equal(plan_with(&off, 3, small, perm, 8).tile.pipelined, 0);
}

/* Tiles a tensor leaves partly empty (runs of 19 in 64 x 32 tiles: 59% of the slots filled) run
 * pipelined at 8 and 16 bytes whatever the tensor's size; 4-byte elements, full tiles and a table
 * without the rule keep the plain kernel, and so does a tile launch only whose last tiles of a group
 * are partly empty (its inner fill is 1). */
static void pipelined_where_tiles_are_partly_empty(void** state)
{
    (void)state;
    const int perm[] = {1, 0, 2, 3, 4, 5};
    const int64_t n19[] = {19, 19, 19, 19, 19, 19}, n16[] = {16, 16, 16, 16, 16, 16};
    for (int elem = 4; elem <= 16; elem *= 2) {
        const cuperm_launch_t l = plan(6, n19, perm, elem);
        assert_int_equal(l.kind, CUPERM_LAUNCH_TILED);
        assert_true(2 * l.volume * elem > (int64_t)kDevice.l2_bytes); /* not the L2 rule */
        assert_true(cuperm_tile_inner_fill(&l) < tt()->pipelined_max_fill);
        assert_int_equal(l.tile.pipelined, elem >= tt()->pipelined_min_elem);
        const cuperm_launch_t full = plan(6, n16, perm, elem);
        assert_true(cuperm_tile_fill(&full) >= tt()->pipelined_max_fill);
        assert_int_equal(full.tile.pipelined, 0);
    }
    cuperm_tuning_t off = *cuperm_tuning_for(&kDevice);
    off.transpose.pipelined_max_fill = 0;
    assert_int_equal(plan_with(&off, 6, n19, perm, 8).tile.pipelined, 0);
    /* 131 elements along B in sides of 32 or 64: full tiles, then one nearly empty */
    const int64_t prime[] = {149, 61, 167, 131};
    const int pprime[] = {3, 0, 1, 2};
    const cuperm_launch_t tail = plan(4, prime, pprime, 8);
    assert_true(cuperm_tile_fill(&tail) < 0.95 && cuperm_tile_inner_fill(&tail) == 1);
    assert_int_equal(tail.tile.pipelined, 0);
}

/* Between 1 and pipelined_max_l2_multiple times the L2 (input and output together), 8-byte tiles
 * run pipelined where their stores fill pipelined_min_store_eff of their sectors (3376 x 1448
 * transposed: whole sectors), not where they leave them partly written (a 5-element output run:
 * 62.5%), nor past that size (16^6: 5.1 L2s of the device here). */
static void pipelined_past_l2_where_stores_fill_sectors(void** state)
{
    (void)state;
    const int64_t wide[] = {3376, 1448}, runs5[] = {21, 19, 14, 7, 5, 39}, n16[] = {16, 16, 16, 16, 16, 16};
    const int pwide[] = {1, 0}, pruns5[] = {4, 0, 2, 5, 1, 3}, p16[] = {2, 0, 1, 3, 4, 5};
    const double l2 = (double)kDevice.l2_bytes;
    double in_eff, out_eff;
    const cuperm_launch_t full = plan(2, wide, pwide, 8), partial = plan(6, runs5, pruns5, 8),
                          big = plan(6, n16, p16, 8);
    const cuperm_launch_t* in_band[] = {&full, &partial};
    for (int i = 0; i < 2; ++i) {
        const double bytes = 2.0 * (double)in_band[i]->volume * 8;
        assert_true(bytes > l2 && bytes <= tt()->pipelined_max_l2_multiple * l2);
        assert_true(cuperm_tile_inner_fill(in_band[i]) >= tt()->pipelined_max_fill);
    }
    cuperm_sector_efficiency(&full, &in_eff, &out_eff);
    assert_true(out_eff >= tt()->pipelined_min_store_eff);
    assert_int_equal(full.tile.pipelined, 1);
    cuperm_sector_efficiency(&partial, &in_eff, &out_eff);
    assert_true(out_eff < tt()->pipelined_min_store_eff);
    assert_int_equal(partial.tile.pipelined, 0);
    assert_true(2.0 * (double)big.volume * 8 > tt()->pipelined_max_l2_multiple * l2);
    assert_int_equal(big.tile.pipelined, 0);
    cuperm_tuning_t off = *cuperm_tuning_for(&kDevice);
    off.transpose.pipelined_max_l2_multiple = 1;
    assert_int_equal(plan_with(&off, 2, wide, pwide, 8).tile.pipelined, 0);
}

/* The lean form's rule (select.c, lean_form) restated on a candidate: a standard scalar tile of 8 or
 * 16 bytes within a block whose stores fill their sectors, or whose warps' stores fill theirs on a B
 * side of lean_partial_min_b_bytes or more. */
static int lean_by_rule(const cuperm_launch_t* l)
{
    const cuperm_tile_params_t* t = &l->tile;
    double in_eff, out_eff, warp_out;
    cuperm_sector_efficiency(l, &in_eff, &out_eff);
    cuperm_warp_efficiency(l, NULL, &warp_out);
    const int standard = (l->elem_size == 8 || l->elem_size == 16) && l->kind == CUPERM_LAUNCH_TILED &&
                         !t->vec_log2 &&
                         (1 << (t->tile_a_log2 + t->tile_b_log2)) == CUPERM_THREADS * CUPERM_TILE_ITEMS(l->elem_size) &&
                         cuperm_tile_sides_within_block(t->tile_a_log2, t->tile_b_log2);
    return standard && (out_eff >= tt()->lean_min_store_eff ||
                        (warp_out >= 1.0 && tt()->lean_partial_min_b_bytes > 0 &&
                         (l->elem_size << t->tile_b_log2) >= tt()->lean_partial_min_b_bytes));
}

/* Standard scalar tiles of 8- and 16-byte elements take the lean form where their stores fill their
 * sectors (16^6 with its two fastest dimensions exchanged: 128-byte runs on both sides); where
 * they leave them partly written, on a long B side whose warps' stores fill theirs (19^6 1,2,0,3,4,5:
 * 32 x 64 tiles, 152-byte output runs in 512-byte columns), not where a warp's stores leave sectors
 * partly written (19^6 4,0,1,2,3,5); never at 4 bytes (always lean there, no plan flag), nor with a
 * table without the rule; measure mode's candidates hold one plain tile launch in both forms. */
static void lean_form_where_stores_fill_sectors(void** state)
{
    (void)state;
    const int perm[] = {1, 0, 2, 3, 4, 5}, p_long[] = {1, 2, 0, 3, 4, 5}, p_warp[] = {4, 0, 1, 2, 3, 5};
    const int64_t n16[] = {16, 16, 16, 16, 16, 16}, n19[] = {19, 19, 19, 19, 19, 19};
    double in_eff, out_eff, warp_out;
    for (int elem = 8; elem <= 16; elem *= 2) {
        const cuperm_launch_t full = plan(6, n16, perm, elem);
        assert_int_equal(full.kind, CUPERM_LAUNCH_TILED);
        assert_true(!full.tile.vec_log2 && !full.tile.pipelined);
        cuperm_sector_efficiency(&full, &in_eff, &out_eff);
        assert_true(out_eff >= tt()->lean_min_store_eff);
        assert_int_equal(full.tile.lean, 1);
    }
    const cuperm_launch_t longb = plan(6, n19, p_long, 8), warp = plan(6, n19, p_warp, 8);
    assert_true(longb.kind == CUPERM_LAUNCH_TILED && !longb.tile.pipelined);
    cuperm_sector_efficiency(&longb, &in_eff, &out_eff);
    cuperm_warp_efficiency(&longb, NULL, &warp_out);
    assert_true(out_eff < tt()->lean_min_store_eff && warp_out >= 1.0);
    assert_true((8 << longb.tile.tile_b_log2) >= tt()->lean_partial_min_b_bytes);
    assert_int_equal(longb.tile.lean, 1);
    assert_true(warp.kind == CUPERM_LAUNCH_TILED && !warp.tile.pipelined);
    cuperm_warp_efficiency(&warp, NULL, &warp_out);
    assert_true(warp_out < 1.0);
    assert_int_equal(warp.tile.lean, 0);
    assert_int_equal(plan(6, n16, perm, 4).tile.lean, 0);
    /* every candidate of these cases at 8 and 16 bytes: lean by the rule, but for one plain tile
     * launch's twin in its other form (for measure mode), the launch itself listed before it */
    const int64_t* ext[] = {n16, n19, n19};
    const int* perms[] = {perm, p_long, p_warp};
    int lean_shorter_b = 0; /* lean candidates by the rule's second clause alone */
    for (int c = 0; c < 6; ++c) {
        cuperm_launch_t cand[CUPERM_MAX_CANDIDATES];
        const int n = cuperm_plan_candidates(6, ext[c % 3], perms[c % 3], c < 3 ? 8 : 16, NULL, NULL, &kDevice,
                                             cuperm_tuning_for(&kDevice), 0, cand, CUPERM_MAX_CANDIDATES);
        int twins = 0, lean = 0;
        for (int i = 0; i < n; ++i) {
            const cuperm_tile_params_t* t = &cand[i].tile;
            cuperm_sector_efficiency(&cand[i], &in_eff, &out_eff);
            lean += t->lean && !t->pipelined;
            if (t->lean == lean_by_rule(&cand[i])) {
                lean_shorter_b += t->lean && out_eff < tt()->lean_min_store_eff;
                continue;
            }
            ++twins;
            assert_true(!t->pipelined);
            int has_original = 0;
            for (int j = 0; j < i; ++j) {
                cuperm_launch_t o = cand[j];
                o.tile.lean = t->lean;
                has_original |= memcmp(&o, &cand[i], sizeof o) == 0;
            }
            assert_true(has_original);
        }
        assert_int_equal(twins, 1);
        assert_true(lean >= 1); /* the rule's lean launch, or the checked one's lean twin */
    }
    assert_true(lean_shorter_b > 0);
    cuperm_tuning_t off = *cuperm_tuning_for(&kDevice);
    off.transpose.lean_partial_min_b_bytes = 0;
    assert_int_equal(plan_with(&off, 6, n19, p_long, 8).tile.lean, 0);
    assert_int_equal(plan_with(&off, 6, n16, perm, 8).tile.lean, 1);
    off.transpose.lean_min_store_eff = 2;
    assert_int_equal(plan_with(&off, 6, n16, perm, 8).tile.lean, 0);
}

/* Copies move one vector a thread (sm_90's copy_unroll) unless input and output fit in L2 together
 * and a grid of CUPERM_COPY_UNROLL_MAX a thread (copy_unroll_l2) still has a block for every SM; the
 * grid covers the vectors either way, and the candidates list the other form after the planner's.
 * kDevice: 50 MB of L2, 132 SMs; a grid of four a thread has 16 KB a block. A 2-D f64 tensor fused to
 * a copy follows its bytes. */
static void copy_vectors_by_l2(void** state)
{
    (void)state;
    assert_int_equal(tt()->copy_unroll, 1);
    assert_int_equal(tt()->copy_unroll_l2, CUPERM_COPY_UNROLL_MAX);
    static const struct {
        int rank, elem;
        int64_t e[2];
        int unroll;
    } cases[] = {{1, 4, {2 << 20}, CUPERM_COPY_UNROLL_MAX},           /* 8 MB */
                 {1, 4, {16 << 20}, 1},                               /* 64 MB: past L2 */
                 {2, 8, {997, 8191}, 1},                              /* 62 MB */
                 {2, 8, {997, 263}, 1},                               /* 2 MB: 129 blocks of four */
                 {2, 8, {997, 271}, CUPERM_COPY_UNROLL_MAX},          /* 132 blocks of four */
                 {1, 1, {1 << 20}, 1},                                /* 1 MB: 64 blocks of four */
                 {1, 16, {(12 << 20) / 16 * 2 + 5}, CUPERM_COPY_UNROLL_MAX}}; /* 24 MB */
    static const int perm[2] = {0, 1};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
        const cuperm_launch_t l = plan(cases[c].rank, cases[c].e, perm, cases[c].elem);
        assert_int_equal(l.kind, CUPERM_LAUNCH_COPY);
        assert_int_equal(l.copy_unroll, cases[c].unroll);
        const int64_t vectors = (l.volume * cases[c].elem + 15) / 16;
        assert_true(l.blocks * CUPERM_THREADS * l.copy_unroll >= vectors);
        assert_true((l.blocks - 1) * CUPERM_THREADS * l.copy_unroll < vectors);
        cuperm_launch_t cand[8];
        const int n = cuperm_plan_candidates(cases[c].rank, cases[c].e, perm, cases[c].elem, NULL, NULL, &kDevice,
                                             cuperm_tuning_for(&kDevice), 0, cand, 8);
        assert_int_equal(n, 2);
        assert_int_equal(cand[0].copy_unroll, l.copy_unroll);
        assert_int_equal(cand[1].kind, CUPERM_LAUNCH_COPY);
        assert_int_equal(cand[1].copy_unroll, l.copy_unroll == 1 ? CUPERM_COPY_UNROLL_MAX : 1);
    }
}

/* A scalar tile whose group leaves its last tile mostly empty takes the same-size reshape that
 * fills its slots most: 131 elements along B fill 68% of 32 x 64 tiles and 82% of 64 x 32 ones;
 * 13 x 13 = 169 along B (4-byte) fill 66% of 32 x 128 tiles and 88% of 64 x 64 ones. Not where a
 * group is shorter than its side (19^6: the pipelined kernel's case), not to a B side under
 * fill_reshape_min_b_bytes (128 x 16 would fill the prime case's tiles 91%), and not without the
 * rule. */
static void reshape_where_a_group_leaves_its_last_tile_empty(void** state)
{
    (void)state;
    const int64_t prime[] = {149, 61, 167, 131}, n13[] = {13, 13, 13, 13, 13, 13}, n19[] = {19, 19, 19, 19, 19, 19};
    const int pprime[] = {3, 0, 1, 2}, p13[] = {5, 4, 0, 1, 2, 3}, p19[] = {1, 0, 2, 3, 4, 5};
    const cuperm_launch_t a = plan(4, prime, pprime, 8), b = plan(6, n13, p13, 4), c = plan(6, n19, p19, 16);
    assert_int_equal(a.tile.tile_a_log2, 6);
    assert_int_equal(a.tile.tile_b_log2, 5);
    assert_true(8 << a.tile.tile_b_log2 >= tt()->fill_reshape_min_b_bytes);
    assert_int_equal(b.tile.tile_a_log2, 6);
    assert_int_equal(b.tile.tile_b_log2, 6);
    assert_true(cuperm_tile_inner_fill(&c) < 1);
    assert_int_equal(c.tile.tile_a_log2, 5);
    assert_int_equal(c.tile.tile_b_log2, 5);
    cuperm_tuning_t off = *cuperm_tuning_for(&kDevice);
    off.transpose.fill_reshape_margin = 0;
    const cuperm_launch_t a0 = plan_with(&off, 4, prime, pprime, 8), b0 = plan_with(&off, 6, n13, p13, 4);
    assert_int_equal(a0.tile.tile_a_log2, 5);
    assert_int_equal(a0.tile.tile_b_log2, 6);
    assert_int_equal(b0.tile.tile_a_log2, 5);
    assert_int_equal(b0.tile.tile_b_log2, 7);
    assert_true(cuperm_tile_fill(&a) > (1 + tt()->fill_reshape_margin) * cuperm_tile_fill(&a0));
    assert_true(cuperm_tile_fill(&b) > (1 + tt()->fill_reshape_margin) * cuperm_tile_fill(&b0));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(band_where_a_tiles_outnumber_b_tiles),
        cmocka_unit_test(copy_vectors_by_l2),
        cmocka_unit_test(pipelined_where_tiles_are_partly_empty),
        cmocka_unit_test(lean_form_where_stores_fill_sectors),
        cmocka_unit_test(pipelined_past_l2_where_stores_fill_sectors),
        cmocka_unit_test(reshape_where_a_group_leaves_its_last_tile_empty),
        cmocka_unit_test(spans_for_batches_of_small_transposes),
        cmocka_unit_test(span_limit_is_the_tiles_runs),
        cmocka_unit_test(whole_dims_where_both_runs_are_short),
        cmocka_unit_test(whole_dims_where_tiles_runs_are_short),
        cmocka_unit_test(dense_run_matches_brute_force),
        cmocka_unit_test(tiles_where_a_run_is_long),
        cmocka_unit_test(reshape_where_warps_store_half_sectors),
        cmocka_unit_test(warp_efficiency_matches_brute_force),
        cmocka_unit_test(rows_candidates_in_three_orders),
        cmocka_unit_test(rows_in_output_order_unless_whole_sectors),
        cmocka_unit_test(row_tiles_where_rows_are_short),
        cmocka_unit_test(tiles_stay_within_a_block_where_a_group_is_short),
        cmocka_unit_test(pipelined_where_tensors_fit_in_l2),
        cmocka_unit_test(runs_for_tiles_of_short_runs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
