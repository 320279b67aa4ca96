/*
 * CPU tests of the D-tile kernel's packed path (plan/contraction/gett_dtile_packed.c): which tiles
 * are one block of D, the tiles' bases and outputs' places against a brute-force walk of D, and
 * the staging's padding (whole 16-byte pieces, no two elements in one place, bank conflicts).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "contraction/ctr_lettered_problem.h"
#include "contraction/ctr_random.h"
#include "plan/contraction/gett_dtile.h"
#include "support/rng.h"

static void test_which_tiles(void** state)
{
    (void)state;
    ctr_made o;
    cuperm_ctr_dtile_t s;
    /* TCCG 31 (24 x 256: a, b, c) and 40 (384 x 16: a, b, c), D's first 6144 elements. */
    static const char* const tccg[][3] = {{"dega", "gfbc", "abcdef"}, {"gdab", "efgc", "abcdef"},
                                          {"degb", "gfac", "abcdef"}, {"gfab", "degc", "abcdef"}};
    for (size_t i = 0; i < sizeof tccg / sizeof tccg[0]; ++i) {
        assert_int_equal(ctr_make(&o, tccg[i][0], tccg[i][1], tccg[i][2], TCCG31_48_EXTENTS, CUPERM_R_16F),
                         CUPERM_STATUS_SUCCESS);
        assert_true(cuperm_ctr_dtile_choose(&o.p, &s));
        assert_int_equal(s.tm * s.tn, 6144);
        assert_true(cuperm_ctr_dtile_packed_tile(&o.p, &s));
    }
    /* D's fastest mode of odd extent: pairs of outputs would straddle its runs. */
    assert_int_equal(ctr_make(&o, "dega", "gfbc", "abcdef",
                              EXT(X('a') = 25, X('b') = 16, X('c') = 16, X('d') = 24, X('e') = 16, X('f') = 16, X('g') = 24),
                              CUPERM_R_16F),
                     CUPERM_STATUS_SUCCESS);
    assert_true(cuperm_ctr_dtile_choose(&o.p, &s));
    assert_false(cuperm_ctr_dtile_packed_tile(&o.p, &s));
    /* A side made of part of a mode: not whole. */
    s.whole[0] = 0;
    assert_false(cuperm_ctr_dtile_packed_tile(&o.p, &s));
    /* D padded between its first two modes: the tile is not one block. */
    assert_int_equal(ctr_make(&o, "dega", "gfbc", "abcdef", TCCG31_48_EXTENTS, CUPERM_R_16F), CUPERM_STATUS_SUCCESS);
    assert_true(cuperm_ctr_dtile_choose(&o.p, &s));
    int64_t st[6] = {1, 32}; /* b's stride 24 -> 32; the rest follow densely */
    for (int d = 2; d < 6; ++d) st[d] = st[d - 1] * o.l.extents[2][d - 1];
    o.l.d[2].strides = st;
    assert_int_equal(cuperm_ctr_problem_init(&o.p, &o.l.d[0], &o.l.d[1], &o.l.d[2], &o.l.d[2], CUPERM_COMPUTE_DEFAULT),
                     CUPERM_STATUS_SUCCESS);
    assert_true(cuperm_ctr_dtile_choose(&o.p, &s));
    assert_false(cuperm_ctr_dtile_packed_tile(&o.p, &s));
}

/* D's offsets along one group in the kernel's order (M or N by D's strides), index by index. */
static void group_offsets(const cuperm_ctr_problem_t* p, int g, int64_t* out)
{
    int order[CTR_MAX_MODES];
    const int n = cuperm_ctr_dtile_d_order(p, order);
    int64_t count = 1;
    for (int j = 0; j < n; ++j)
        if ((int)p->modes[order[j]].group == g) count *= p->modes[order[j]].extent;
    for (int64_t i = 0; i < count; ++i) {
        int64_t rest = i, off = 0;
        for (int j = 0; j < n; ++j) {
            const cuperm_ctr_mode_t* m = &p->modes[order[j]];
            if ((int)m->group != g) continue;
            off += rest % m->extent * p->op[CTR_D].strides[m->pos[CTR_D]];
            rest /= m->extent;
        }
        out[i] = off;
    }
}

/* A problem's packed-path tables as the plan's build makes them, from D's offsets along M, N and
 * the batch (group_offsets): X and Y sides (Y along D's fastest mode's group), tile counts (tiles
 * of whole modes divide their groups), per items' bases and the places in a tile; aligned: the
 * bases are multiples of per elements (cuperm_ctr_dtile_packed_tables). */
typedef struct {
    int dMFast, xTile, yTile, rowsX, rowsY, tilesX, tilesY, aligned;
    int64_t m, n, batch, items;
    int64_t *dM, *dN, *dL, *base;
    int32_t *sx, *sy;
} tables_t;

static void tables_make(const cuperm_ctr_problem_t* p, const cuperm_ctr_dtile_t* s, int per, tables_t* t)
{
    int order[CTR_MAX_MODES];
    cuperm_ctr_dtile_d_order(p, order);
    t->dMFast = (int)p->modes[order[0]].group == CTR_GROUP_M; /* the fastest mode's group */
    t->m = p->groupSize[CTR_GROUP_M], t->n = p->groupSize[CTR_GROUP_N], t->batch = p->groupSize[CTR_GROUP_L];
    t->dM = malloc(sizeof(int64_t) * (size_t)t->m);
    t->dN = malloc(sizeof(int64_t) * (size_t)t->n);
    t->dL = malloc(sizeof(int64_t) * (size_t)t->batch);
    group_offsets(p, CTR_GROUP_M, t->dM);
    group_offsets(p, CTR_GROUP_N, t->dN);
    group_offsets(p, CTR_GROUP_L, t->dL);
    t->xTile = t->dMFast ? s->tn : s->tm, t->yTile = t->dMFast ? s->tm : s->tn;
    cuperm_ctr_dtile_panel_rows(t->xTile, t->yTile, &t->rowsX, &t->rowsY);
    t->tilesX = (int)((t->dMFast ? t->n : t->m) / t->xTile), t->tilesY = (int)((t->dMFast ? t->m : t->n) / t->yTile);
    t->items = (int64_t)t->tilesX * t->tilesY * t->batch;
    t->base = malloc(sizeof(int64_t) * (size_t)t->items);
    t->sx = malloc(sizeof(int32_t) * (size_t)t->rowsX), t->sy = malloc(sizeof(int32_t) * (size_t)t->rowsY);
    t->aligned = cuperm_ctr_dtile_packed_tables(t->dMFast ? t->dN : t->dM, t->dMFast ? t->dM : t->dN,
                                                t->batch > 1 ? t->dL : NULL, t->xTile, t->yTile, t->rowsX, t->rowsY,
                                                t->tilesX, t->tilesY, t->batch, cuperm_ctr_dtile_outer_x(t->xTile, t->yTile),
                                                per, t->base, t->sx, t->sy);
}

static void tables_free(tables_t* t)
{
    free(t->dM), free(t->dN), free(t->dL), free(t->base), free(t->sx), free(t->sy);
}

/* Random short-K problem i (ranks up to 5, extents up to 24, views in viewPct percent of the
 * operands), fp16 A and B, D fp16 or fp32 by turns: whether the D-tile kernel takes it, with tile s. */
static int draw_dtile(rng_t* r, int i, int viewPct, ctr_random_case* c, cuperm_ctr_problem_t* p, cuperm_ctr_dtile_t* s)
{
    const ctr_random_options o = {5, 24, 1 << 18, 0, 2, 1, 0, viewPct};
    ctr_random_draw(r, &o, c);
    for (int w = 0; w < 4; ++w) c->desc[w].type = w < 2 ? CUPERM_R_16F : (i % 2 ? CUPERM_R_16F : CUPERM_R_32F);
    assert_int_equal(cuperm_ctr_problem_init(p, &c->desc[0], &c->desc[1], &c->desc[2], &c->desc[3], CUPERM_COMPUTE_DEFAULT),
                     CUPERM_STATUS_SUCCESS);
    return cuperm_ctr_dtile_choose(p, s);
}

/* On random short-K problems whose tile the packed path takes: every tile's outputs are exactly
 * the elements [base, base + tm tn) of D, each once; the staging keeps 16-byte pieces whole,
 * places no two elements alike and stays within its bytes. */
static void test_random_tables(void** state)
{
    (void)state;
    rng_t r = {20261128};
    int taken = 0, direct = 0;
    for (int i = 0; i < 6000 && taken < 60; ++i) {
        ctr_random_case c;
        cuperm_ctr_problem_t p;
        cuperm_ctr_dtile_t s;
        if (!draw_dtile(&r, i, 20, &c, &p, &s) || !cuperm_ctr_dtile_packed_tile(&p, &s)) continue;
        ++taken;
        char repro[512];
        ctr_random_print(&c, repro, sizeof repro);
        const int es = c.desc[3].type == CUPERM_R_32F ? 4 : 2;
        tables_t tb;
        tables_make(&p, &s, 16 / es, &tb);
        const int dMFast = tb.dMFast, xTile = tb.xTile, yTile = tb.yTile, rowsX = tb.rowsX, rowsY = tb.rowsY;
        const int tilesX = tb.tilesX, tilesY = tb.tilesY, aligned = tb.aligned;
        const int64_t *dM = tb.dM, *dN = tb.dN, *dL = tb.dL, *base = tb.base, items = tb.items;
        const int32_t *sx = tb.sx, *sy = tb.sy;
        const int64_t volume = (int64_t)xTile * yTile;
        if ((dMFast ? tb.n : tb.m) % xTile || (dMFast ? tb.m : tb.n) % yTile)
            fail_msg("%s: whole-mode tiles do not divide their groups", repro);
        if (!aligned) fail_msg("%s: a dense D's tiles start at multiples of their volume", repro);
        /* every element of D written once, by the tile whose base block holds it */
        int64_t span = 1;
        for (int d = 0; d < c.desc[3].rank; ++d) span += (c.desc[3].extents[d] - 1) * c.desc[3].strides[d];
        unsigned char* hit = calloc((size_t)span, 1);
        const int outerX = cuperm_ctr_dtile_outer_x(xTile, yTile);
        const int outerTiles = outerX ? tilesX : tilesY, innerTiles = outerX ? tilesY : tilesX;
        for (int64_t it = 0; it < items; ++it) {
            const int inner = (int)(it % innerTiles), outer = (int)(it / innerTiles % outerTiles);
            const int64_t l = it / innerTiles / outerTiles;
            const int tx = outerX ? outer : inner, ty = outerX ? inner : outer;
            for (int x = 0; x < xTile; ++x)
                for (int y = 0; y < yTile; ++y) {
                    const int64_t* DX = dMFast ? dN : dM;
                    const int64_t* DY = dMFast ? dM : dN;
                    const int64_t want = DX[(int64_t)tx * xTile + x] + DY[(int64_t)ty * yTile + y] + dL[l];
                    const int64_t got = base[it] + sx[x] + sy[y];
                    if (got != want) fail_msg("%s: item %lld output (%d, %d) at %lld, D has it at %lld", repro,
                                              (long long)it, x, y, (long long)got, (long long)want);
                    if (sx[x] + sy[y] >= volume) fail_msg("%s: output (%d, %d) past the tile's block", repro, x, y);
                    if (hit[want]++) fail_msg("%s: D's element %lld written twice", repro, (long long)want);
                }
        }
        for (int x = xTile; x < rowsX; ++x) assert_int_equal(sx[x], -1);
        for (int y = yTile; y < rowsY; ++y) assert_int_equal(sy[y], -1);
        /* pairs (y even, y + 1) are neighbours in D */
        for (int y = 0; y + 1 < yTile; y += 2) assert_int_equal(sy[y + 1], sy[y] + 1);
        /* the staging */
        cuperm_ctr_dtile_stage_t st;
        cuperm_ctr_dtile_stage_choose(xTile, yTile, sx, sy, es, &st);
        assert_true(st.cost >= st.best && st.best > 0);
        assert_true(st.pad * es % 16 == 0 && st.pad * es <= 32);
        const int bytes = cuperm_ctr_dtile_stage_bytes((int)volume, st.shift, st.pad, es);
        unsigned char* used = calloc((size_t)bytes, 1);
        const int per = 16 / es;
        for (int e = 0; e < volume; ++e) {
            const int at = cuperm_ctr_dtile_stage_at(e, st.shift, st.pad);
            if ((at + 1) * es > bytes || used[at * es]++) fail_msg("%s: staging place of element %d", repro, e);
            if (e % per) assert_int_equal(at, cuperm_ctr_dtile_stage_at(e - e % per, st.shift, st.pad) + e % per);
            else assert_int_equal(at * es % 16, 0);
        }
        free(used);
        /* the direct path: where it is taken, each aligned piece of every row is per neighbours of
         * D at a multiple of per; where it is not, some piece is not */
        for (int per = 4; per <= 8; per += 4) {
            int whole = (int)yTile % per == 0;
            for (int x = 0; x < xTile && whole; ++x)
                for (int y = 0; y + per <= yTile && whole; y += per)
                    for (int t = 0; t < per && whole; ++t)
                        whole = (sx[x] + sy[y]) % per == 0 && sx[x] + sy[y + t] == sx[x] + sy[y] + t;
            assert_int_equal(cuperm_ctr_dtile_direct_pieces(xTile, yTile, sx, sy, per), whole);
            direct += whole;
        }
        free(hit);
        tables_free(&tb);
    }
    printf("    %d random problems on the packed path, %d of %d tile and piece-size pairs written from the registers\n",
           taken, direct, 2 * taken);
    assert_true(direct > 0 && direct < 2 * taken);
    assert_true(taken >= 20);
}

/* cuperm_ctr_dtile_packed_direct (from D's strides, for model planning) against what the tables
 * say (cuperm_ctr_dtile_packed_tables' alignment and cuperm_ctr_dtile_direct_pieces at D's piece
 * size) on random short-K problems with tiles of whole modes: dense D, D viewed in a larger tensor,
 * 16-bit and fp32 D. */
static void test_direct_rule(void** state)
{
    (void)state;
    rng_t r = {20261129};
    int whole = 0, direct = 0, blocks = 0;
    for (int i = 0; i < 20000 && whole < 400; ++i) {
        ctr_random_case c;
        cuperm_ctr_problem_t p;
        cuperm_ctr_dtile_t s;
        if (!draw_dtile(&r, i, i % 3 ? 0 : 50, &c, &p, &s) || !s.whole[0] || !s.whole[1]) continue;
        ++whole;
        char repro[512];
        ctr_random_print(&c, repro, sizeof repro);
        const int per = c.desc[3].type == CUPERM_R_32F ? 4 : 8;
        tables_t tb;
        tables_make(&p, &s, per, &tb);
        const int want = tb.aligned && cuperm_ctr_dtile_direct_pieces(tb.xTile, tb.yTile, tb.sx, tb.sy, per);
        if (cuperm_ctr_dtile_packed_direct(&p, &s, tb.dMFast) != want)
            fail_msg("%s: %s D's 16-byte pieces from the registers, the tables say %s", repro,
                     want ? "refuses" : "takes", want ? "yes" : "no");
        direct += want;
        blocks += want && cuperm_ctr_dtile_packed_tile(&p, &s);
        tables_free(&tb);
    }
    printf("    %d random tiles of whole modes: %d written from the registers, %d of them one block of D\n", whole,
           direct, blocks);
    assert_true(whole >= 100 && direct > 0 && direct < whole && blocks < direct);
}

/* The padding on the TCCG tiles: 40's rows lie 384 elements (768 bytes) apart, so without
 * padding the 8 rows of a store share 4 banks (8 wavefronts); the chooser must reach one
 * wavefront a store. 31's rows lie 24 elements apart: conflict-free without padding. */
static void test_stage_padding(void** state)
{
    (void)state;
    int sx[16], sy[384];
    for (int x = 0; x < 16; ++x) sx[x] = 384 * x;
    for (int y = 0; y < 384; ++y) sy[y] = y;
    cuperm_ctr_dtile_stage_t st;
    cuperm_ctr_dtile_stage_choose(16, 384, sx, sy, 2, &st);
    assert_int_equal(st.cost, st.best);
    assert_true(st.pad > 0);
    /* and f32 D: 8-byte pairs */
    cuperm_ctr_dtile_stage_choose(16, 384, sx, sy, 4, &st);
    assert_int_equal(st.cost, st.best);

    int tx[256], ty[32];
    for (int x = 0; x < 256; ++x) tx[x] = 24 * x;
    for (int y = 0; y < 32; ++y) ty[y] = y < 24 ? y : -1;
    cuperm_ctr_dtile_stage_choose(256, 24, tx, ty, 2, &st);
    assert_int_equal(st.cost, st.best);
    assert_int_equal(st.pad, 0);
    /* both written from the registers (16-bit and fp32 pieces); rows of 6 are not (a piece of 8
     * or 4 would straddle two rows) */
    assert_true(cuperm_ctr_dtile_direct_pieces(16, 384, sx, sy, 8) && cuperm_ctr_dtile_direct_pieces(256, 24, tx, ty, 4));
    for (int x = 0; x < 256; ++x) tx[x] = 6 * x;
    assert_false(cuperm_ctr_dtile_direct_pieces(256, 6, tx, ty, 8) || cuperm_ctr_dtile_direct_pieces(256, 6, tx, ty, 4));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_which_tiles),
        cmocka_unit_test(test_random_tables),
        cmocka_unit_test(test_direct_rule),
        cmocka_unit_test(test_stage_padding),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
