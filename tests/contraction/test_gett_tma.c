/*
 * CPU tests of the Hopper GETT's problem map (plan/contraction/gett_tma.c): on random
 * contractions, the fused shape the kernels would walk visits exactly the element quadruples
 * (A, B, C, D offsets) the descriptors define, and every TMA rule holds where the map says
 * yes; hand-made problems for each rule that says no; the tile efficiencies and choices of
 * hand-computed shapes.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "contraction/ctr_random.h"
#include "plan/contraction/gett_tma.h"
#include "support/rng.h"

typedef struct {
    int64_t off[4];
} quad_t;

static int quad_cmp(const void* x, const void* y)
{
    const quad_t *a = x, *b = y;
    for (int w = 0; w < 4; ++w)
        if (a->off[w] != b->off[w]) return a->off[w] < b->off[w] ? -1 : 1;
    return 0;
}

/* Every index of every mode of the descriptors: (A, B, C, D) offsets. */
static int64_t descriptor_quads(const ctr_random_case* c, quad_t* out)
{
    int32_t labels[32];
    int64_t extents[32];
    int n = 0;
    for (int w = 0; w < 4; ++w)
        for (int i = 0; i < c->desc[w].rank; ++i) {
            int seen = 0;
            for (int j = 0; j < n; ++j) seen |= labels[j] == c->desc[w].modes[i];
            if (!seen) labels[n] = c->desc[w].modes[i], extents[n++] = c->desc[w].extents[i];
        }
    int64_t idx[32] = {0}, count = 0;
    for (;;) {
        quad_t q = {{0, 0, 0, 0}};
        for (int w = 0; w < 4; ++w)
            for (int i = 0; i < c->desc[w].rank; ++i)
                for (int j = 0; j < n; ++j)
                    if (labels[j] == c->desc[w].modes[i]) q.off[w] += idx[j] * c->desc[w].strides[i];
        out[count++] = q;
        int j = 0;
        while (j < n && ++idx[j] == extents[j]) idx[j++] = 0;
        if (j == n) break;
    }
    return count;
}

/* Every index of the kernels' fused shape: (A, B, C, D) offsets through q's strides (the
 * kernels' operand 0 is B when q->swapped: given back in A, B order). */
static int64_t map_quads(const cuperm_gett_tma_params_t* q, quad_t* out)
{
    int64_t idx[CUPERM_TMA_GROUPS][CUPERM_TMA_MODES] = {{0}}, count = 0;
    for (;;) {
        quad_t e = {{0, 0, 0, 0}};
        for (int w = 0; w < 4; ++w)
            for (int g = 0; g < CUPERM_TMA_GROUPS; ++g)
                for (int i = 0; i < CUPERM_TMA_MODES; ++i) e.off[w] += idx[g][i] * q->stride[w][g][i];
        if (q->swapped) {
            const int64_t t = e.off[0];
            e.off[0] = e.off[1];
            e.off[1] = t;
        }
        out[count++] = e;
        int g = 0, i = 0;
        for (; g < CUPERM_TMA_GROUPS; ++g) {
            for (i = 0; i < CUPERM_TMA_MODES; ++i) {
                if (++idx[g][i] < q->extent[g][i]) break;
                idx[g][i] = 0;
            }
            if (i < CUPERM_TMA_MODES) break;
        }
        if (g == CUPERM_TMA_GROUPS) break;
    }
    return count;
}

/* The rules a map that says yes promises. */
static void check_rules(const cuperm_ctr_problem_t* p, const cuperm_gett_tma_params_t* q)
{
    const int v = 16 / (int)cupermDataTypeSize(p->op[CTR_A].type);
    const int ga = q->aKMajor ? CUPERM_TMA_K : CUPERM_TMA_M, gb = q->bKMajor ? CUPERM_TMA_K : CUPERM_TMA_N;
    assert_int_equal(q->stride[CTR_A][ga][0], 1);
    assert_int_equal(q->stride[CTR_B][gb][0], 1);
    assert_int_equal(q->extent[ga][0] % v, 0);
    assert_int_equal(q->extent[gb][0] % v, 0);
    for (int w = CTR_A; w <= CTR_B; ++w)
        for (int g = 0; g < CUPERM_TMA_GROUPS; ++g)
            for (int i = 0; i < CUPERM_TMA_MODES; ++i) {
                if (q->extent[g][i] == 1 || (g == (w == CTR_A ? ga : gb) && i == 0)) continue;
                if (q->stride[w][g][i] == 0 && (g == (w == CTR_A ? CUPERM_TMA_N : CUPERM_TMA_M))) continue;
                assert_true(q->stride[w][g][i] > 0);
                assert_int_equal(q->stride[w][g][i] % v, 0);
            }
    for (int g = 0; g < CUPERM_TMA_GROUPS; ++g) {
        assert_true(q->count[g] <= (g == CUPERM_TMA_L ? CUPERM_TMA_L_MODES : CUPERM_TMA_MODES));
        for (int i = q->count[g]; i < CUPERM_TMA_MODES; ++i) assert_int_equal(q->extent[g][i], 1);
    }
    assert_true(q->tile >= 0 && q->tile < CUPERM_TMA_TILE_COUNT);
    assert_int_equal(q->tile, cuperm_ctr_tma_choose_tile(q));
}

/* Offset in operand w (C or D) of walk position pos of the tile whose block coordinate is
 * first (all 0) or last (the last tile along every taken dimension, the last index of every
 * other mode); -1 when the position lies outside the problem. */
static int64_t walk_offset(const cuperm_gett_tma_params_t* q, int w, int last, int pos)
{
    int64_t off = 0;
    for (int g = 0; g < 2; ++g)
        for (int i = 0; i < CUPERM_TMA_MODES; ++i) {
            const int d = 2 * g + i, take = i < 2 ? cuperm_ctr_tma_tile_take(q->tile, g, i) : 1;
            const int64_t e = q->extent[g][i];
            int64_t index = 0;
            if (take > 1) index = (last ? (e - 1) / take * take : 0) + ((pos >> q->walkShift[d]) & (take - 1));
            else index = last ? e - 1 : 0;
            if (index >= e) return -1;
            off += index * q->stride[w][g][i];
        }
    return off;
}

/* The epilogue's walk (cuperm_ctr_tma_set_tile): its bit fields tile the tile's positions
 * exactly, walk the dimensions by increasing D stride, and where a vector flag is set every
 * whole 16-byte run of the first and last tiles is contiguous and aligned in that operand.
 * Returns the number of vector flags set. */
static int check_walk(const cuperm_gett_tma_params_t* q)
{
    int bits = 0, used = 0;
    for (int d = 0; d < 4; ++d) {
        const int take = cuperm_ctr_tma_tile_take(q->tile, d / 2, d % 2);
        int l = 0;
        while ((1 << l) < take) ++l;
        assert_int_equal(1 << l, take);
        for (int b = 0; b < l; ++b) {
            assert_false(used >> (q->walkShift[d] + b) & 1);
            used |= 1 << (q->walkShift[d] + b);
        }
        bits += l;
        for (int e = 0; e < 4; ++e) {
            const int te = cuperm_ctr_tma_tile_take(q->tile, e / 2, e % 2);
            if (take > 1 && te > 1 && q->extent[d / 2][d % 2] > 1 && q->extent[e / 2][e % 2] > 1 &&
                q->walkShift[d] < q->walkShift[e]) {
                const int64_t sd = q->stride[CTR_D][d / 2][d % 2], se = q->stride[CTR_D][e / 2][e % 2];
                assert_true((sd < 0 ? -sd : sd) <= (se < 0 ? -se : se));
            }
        }
    }
    assert_int_equal(used, (1 << bits) - 1);
    const int v = 16 / (int)cupermDataTypeSize(q->cdType);
    int flags = 0;
    for (int k = 0; k < 2; ++k) {
        if (!q->walkVector[k]) continue;
        ++flags;
        const int w = k == 0 ? CTR_D : CTR_C;
        for (int last = 0; last < 2; ++last)
            for (int pos = 0; pos < 1 << bits; pos += v) {
                int whole = 1;
                for (int j = 0; j < v; ++j) whole &= walk_offset(q, w, last, pos + j) >= 0;
                if (!whole) continue;
                const int64_t o = walk_offset(q, w, last, pos);
                assert_int_equal(o % v, 0);
                for (int j = 1; j < v; ++j) assert_int_equal(walk_offset(q, w, last, pos + j), o + j);
            }
    }
    return flags;
}

static void set_types(ctr_random_case* c, cupermDataType_t ab, cupermDataType_t cd)
{
    for (int w = 0; w < 4; ++w) {
        c->desc[w].type = w < 2 ? ab : cd;
        c->desc[w].op = CUPERM_OP_IDENTITY;
        c->desc[w].opParam = 0;
    }
}

/* Random contractions with extents that are multiples of 8 now and then (so that many map):
 * every mapped one walks exactly the descriptors' elements. */
static void test_map_random(void** state)
{
    (void)state;
    rng_t r = {20261123};
    int mapped = 0, fused = 0, swapped = 0, vectors = 0;
    quad_t* want = malloc(sizeof(quad_t) << 16);
    quad_t* got = malloc(sizeof(quad_t) << 16);
    assert_non_null(want);
    assert_non_null(got);
    for (int i = 0; i < 1500; ++i) {
        ctr_random_case c;
        ctr_random_options o = {5, 8, 1 << 15, i % 2, 0, 0, 0, i % 3 ? 0 : 20};
        ctr_random_draw(&r, &o, &c);
        if (i % 4) ctr_random_unit_modes_to(&c, 8); /* most of the time, so that many map */
        set_types(&c, i % 2 ? CUPERM_R_16F : CUPERM_R_16BF, i % 3 ? CUPERM_R_32F : (i % 2 ? CUPERM_R_16F : CUPERM_R_16BF));
        cuperm_ctr_problem_t p;
        if (cuperm_ctr_problem_init(&p, &c.desc[0], &c.desc[1], &c.desc[2], &c.desc[3], CUPERM_COMPUTE_DEFAULT))
            continue; /* the extent change above can break a padded stride's room: skip */
        cuperm_gett_tma_params_t q;
        char why[200] = "";
        if (!cuperm_ctr_tma_map(&p, &q, why, sizeof why)) {
            assert_true(why[0] != '\0');
            continue;
        }
        check_rules(&p, &q);
        vectors += check_walk(&q) > 0;
        for (int t = 0; t < CUPERM_TMA_TILE_COUNT; ++t) { /* a forced tile gets its own walk */
            cuperm_gett_tma_params_t f = q;
            cuperm_ctr_tma_set_tile(&f, t);
            check_walk(&f);
        }
        int64_t volume = 1;
        for (int m = 0; m < p.nmodes; ++m) volume *= p.modes[m].extent;
        if (volume > (1 << 16)) continue;
        const int64_t n = descriptor_quads(&c, want), n2 = map_quads(&q, got);
        if (n != n2) {
            char text[900];
            ctr_random_print(&c, text, sizeof text);
            fail_msg("case %d: %lld elements, the map walks %lld: %s", i, (long long)n, (long long)n2, text);
        }
        qsort(want, (size_t)n, sizeof *want, quad_cmp);
        qsort(got, (size_t)n, sizeof *got, quad_cmp);
        if (memcmp(want, got, sizeof *want * (size_t)n)) {
            char text[900];
            ctr_random_print(&c, text, sizeof text);
            fail_msg("case %d: the map's elements differ from the descriptors': %s", i, text);
        }
        ++mapped;
        swapped += q.swapped;
        for (int g = 0; g < CUPERM_TMA_GROUPS; ++g) {
            const int pg = q.swapped && g < 2 ? 1 - g : g; /* the kernels' M is N when exchanged */
            fused += q.count[g] < p.groupCount[pg];
        }
    }
    free(want);
    free(got);
    print_message("  %d random contractions mapped and walked (%d with A and B exchanged, %d with 16-byte D or C "
                  "runs), %d groups fused\n",
                  mapped, swapped, vectors, fused);
    assert_true(vectors >= 20);
    assert_true(mapped >= 100);
    assert_true(swapped >= 20 && swapped < mapped);
    assert_true(fused >= 20);
}

/* A dense f16 problem from per-operand mode strings over extents ext['a' + i]. */
typedef struct {
    int32_t modes[4][8];
    int64_t ext[4][8], strides[4][8];
    cupermTensorDescriptor_t d[4];
} hand_t;

static void hand_problem(hand_t* h, const char* a, const char* b, const char* cd, const int64_t* ext,
                         const int64_t* aStrides, cuperm_ctr_problem_t* p)
{
    const char* s[4] = {a, b, cd, cd};
    for (int w = 0; w < 4; ++w) {
        const int rank = (int)strlen(s[w]);
        int64_t dense = 1;
        for (int i = 0; i < rank; ++i) {
            h->modes[w][i] = s[w][i];
            h->ext[w][i] = ext[s[w][i] - 'a'];
            h->strides[w][i] = w == 0 && aStrides ? aStrides[i] : dense;
            dense *= h->ext[w][i];
        }
        h->d[w] = (cupermTensorDescriptor_t){rank, h->modes[w], h->ext[w], h->strides[w], CUPERM_R_16F,
                                             CUPERM_OP_IDENTITY, 0};
    }
    assert_int_equal(cuperm_ctr_problem_init(p, &h->d[0], &h->d[1], &h->d[2], &h->d[3], CUPERM_COMPUTE_DEFAULT),
                     CUPERM_STATUS_SUCCESS);
}

static void expect_no_op(const char* a, const char* b, const char* cd, const int64_t* ext, const int64_t* aStrides,
                         int opOperand, cupermOperator_t op, const char* reason)
{
    hand_t h;
    cuperm_ctr_problem_t p;
    cuperm_gett_tma_params_t q;
    char why[200] = "";
    hand_problem(&h, a, b, cd, ext, aStrides, &p);
    if (opOperand >= 0) {
        h.d[opOperand].op = op;
        h.d[opOperand].opParam = 0.5;
        assert_int_equal(cuperm_ctr_problem_init(&p, &h.d[0], &h.d[1], &h.d[2], &h.d[3], CUPERM_COMPUTE_DEFAULT), 0);
    }
    assert_int_equal(cuperm_ctr_tma_map(&p, &q, why, sizeof why), 0);
    if (!strstr(why, reason)) fail_msg("%s-%s-%s: expected \"%s\", got \"%s\"", cd, a, b, reason, why);
}

static void expect_no(const char* a, const char* b, const char* cd, const int64_t* ext, const int64_t* aStrides,
                      const char* reason)
{
    expect_no_op(a, b, cd, ext, aStrides, -1, CUPERM_OP_IDENTITY, reason);
}

static void test_map_rules(void** state)
{
    (void)state;
    const int64_t e8[8] = {8, 8, 8, 8, 8, 8, 8, 8};
    const int64_t e12[8] = {12, 8, 8, 8, 8, 8, 8, 8};
    const int64_t padded[2] = {2, 16}; /* A[a,c] with no unit stride */
    expect_no("ac", "cb", "ab", e8, padded, "A has no unit-stride");
    expect_no("la", "la", "la", e8, NULL, "A has no unit-stride M or K"); /* only a batched mode */
    expect_no("acl", "lcb", "abl", e8, NULL, "B has no unit-stride N or K"); /* B's unit mode is batched */
    expect_no("cda", "dcb", "ab", e8, NULL, "different K modes");
    expect_no("ac", "cb", "ab", e12, NULL, "not a multiple of 8");
    /* Operators other than negation stay on the table kernel, whichever operand has one. */
    static const cupermOperator_t ops[] = {CUPERM_OP_RELU, CUPERM_OP_LEAKY_RELU, CUPERM_OP_EXP, CUPERM_OP_TANH};
    for (int w = 0; w < 4; ++w) expect_no_op("ac", "cb", "ab", e8, NULL, w, ops[w], "operators other than identity");
    hand_t h;
    cuperm_ctr_problem_t p;
    cuperm_gett_tma_params_t q;
    hand_problem(&h, "ac", "cb", "ab", e8, NULL, &p);
    h.d[0].op = h.d[3].op = CUPERM_OP_NEGATE; /* folds into alpha and beta */
    assert_int_equal(cuperm_ctr_problem_init(&p, &h.d[0], &h.d[1], &h.d[2], &h.d[3], CUPERM_COMPUTE_DEFAULT), 0);
    assert_int_equal(cuperm_ctr_tma_map(&p, &q, NULL, 0), 1);
    /* M of four modes no neighbour of which is contiguous in both A and D. */
    const int64_t e2[8] = {8, 2, 2, 2, 2, 2, 2, 2};
    expect_no("aebgchd", "eghf", "abcdf", e2, NULL, "free-in-A has 4 modes after fusing");
}

/* TCCG 1 (abc-bda-dc, 312,312,24,312) by hand: A M-major along b, B K-major along d. */
static void test_map_tccg1(void** state)
{
    (void)state;
    const int64_t ext[8] = {312, 312, 24, 312};
    hand_t h;
    cuperm_ctr_problem_t p;
    cuperm_gett_tma_params_t q;
    hand_problem(&h, "bda", "dc", "abc", ext, NULL, &p);
    assert_int_equal(cuperm_ctr_tma_map(&p, &q, NULL, 0), 1);
    assert_int_equal(q.aKMajor, 0);
    assert_int_equal(q.bKMajor, 1);
    assert_int_equal(q.count[CUPERM_TMA_M], 2);
    assert_int_equal(q.count[CUPERM_TMA_N], 1);
    assert_int_equal(q.count[CUPERM_TMA_K], 1);
    assert_int_equal(q.count[CUPERM_TMA_L], 0);
    /* M by A's strides: b (1), then a (312 * 312); in D: b 312, a 1. */
    assert_int_equal(q.stride[CTR_A][CUPERM_TMA_M][0], 1);
    assert_int_equal(q.stride[CTR_A][CUPERM_TMA_M][1], 312 * 312);
    assert_int_equal(q.stride[CTR_D][CUPERM_TMA_M][0], 312);
    assert_int_equal(q.stride[CTR_D][CUPERM_TMA_M][1], 1);
    assert_int_equal(q.stride[CTR_B][CUPERM_TMA_K][0], 1);
    assert_int_equal(q.stride[CTR_B][CUPERM_TMA_N][0], 312);
    assert_int_equal(q.stride[CTR_D][CUPERM_TMA_N][0], 312 * 312);
    assert_int_equal(q.extent[CUPERM_TMA_N][0], 24);
    assert_int_equal(q.abType, CUPERM_R_16F);
    assert_int_equal(q.swapped, 0);
    /* N = 24: the 32-wide tile (24 of 32 columns real) over the flat one (24 of 128). */
    assert_int_equal(q.tile, CUPERM_TMA_TILE_n32);
    /* Its epilogue walks b (128 of it, D stride 312) then c (32, 312^2): no 16-byte runs, D's
     * unit-stride mode a being one index a tile. */
    assert_int_equal(q.walkShift[0], 0);
    assert_int_equal(q.walkShift[2], 7);
    assert_int_equal(q.walkVector[0], 0);
    check_walk(&q);
    /* pairs32 takes 16 of a: a first (runs of 16), then b (8), c (8); N's second take (16 of a
     * mode of extent 1) last. */
    cuperm_ctr_tma_set_tile(&q, CUPERM_TMA_TILE_pairs32);
    assert_int_equal(q.walkShift[1], 0);
    assert_int_equal(q.walkShift[0], 4);
    assert_int_equal(q.walkShift[2], 7);
    assert_int_equal(q.walkShift[3], 10);
    assert_int_equal(q.walkVector[0], 1);
    assert_int_equal(q.walkVector[1], 1);
    assert_int_equal(check_walk(&q), 2);
    /* D as a view with every stride times 8: the same walk, no vectors. */
    for (int g = 0; g < CUPERM_TMA_GROUPS; ++g)
        for (int i = 0; i < CUPERM_TMA_MODES; ++i) q.stride[CTR_D][g][i] *= 8;
    cuperm_ctr_tma_set_tile(&q, CUPERM_TMA_TILE_pairs32);
    assert_int_equal(q.walkShift[1], 0);
    assert_int_equal(q.walkVector[0], 0);
    assert_int_equal(q.walkVector[1], 1);
    assert_int_equal(check_walk(&q), 1);
}

/* TCCG 1 with A and B given the other way round (abc-dc-bda): the same kernels' view, exchanged. */
static void test_map_exchanged(void** state)
{
    (void)state;
    const int64_t ext[8] = {312, 312, 24, 312};
    hand_t h;
    cuperm_ctr_problem_t p;
    cuperm_gett_tma_params_t q;
    hand_problem(&h, "dc", "bda", "abc", ext, NULL, &p); /* M = c (24), N = a b */
    assert_int_equal(cuperm_ctr_tma_map(&p, &q, NULL, 0), 1);
    assert_int_equal(q.swapped, 1);
    assert_int_equal(q.tile, CUPERM_TMA_TILE_n32);
    assert_int_equal(q.count[CUPERM_TMA_M], 2); /* the kernels' M: a, b */
    assert_int_equal(q.extent[CUPERM_TMA_N][0], 24);
    assert_int_equal(q.stride[CTR_A][CUPERM_TMA_M][0], 1); /* the kernels' A is B = bda: b */
    assert_int_equal(q.stride[CTR_B][CUPERM_TMA_K][0], 1); /* their B is A = dc: d */
    assert_int_equal(q.stride[CTR_D][CUPERM_TMA_N][0], 312 * 312);
}

/* M modes contiguous in A and D fuse into one; K modes contiguous in A and B too. */
static void test_map_fuses(void** state)
{
    (void)state;
    const int64_t ext[8] = {8, 3, 5, 4, 2};
    hand_t h;
    cuperm_ctr_problem_t p;
    cuperm_gett_tma_params_t q;
    hand_problem(&h, "abde", "dec", "abc", ext, NULL, &p); /* M = a b, K = d e, N = c */
    assert_int_equal(cuperm_ctr_tma_map(&p, &q, NULL, 0), 1);
    assert_int_equal(q.count[CUPERM_TMA_M], 1);
    assert_int_equal(q.extent[CUPERM_TMA_M][0], 24);
    assert_int_equal(q.count[CUPERM_TMA_K], 1);
    assert_int_equal(q.extent[CUPERM_TMA_K][0], 8);
    assert_int_equal(q.stride[CTR_B][CUPERM_TMA_K][0], 1);
    assert_int_equal(q.stride[CTR_A][CUPERM_TMA_K][0], 24);
}

static void test_tiles(void** state)
{
    (void)state;
    cuperm_gett_tma_params_t q;
    memset(&q, 0, sizeof q);
    for (int g = 0; g < CUPERM_TMA_GROUPS; ++g)
        for (int i = 0; i < CUPERM_TMA_MODES; ++i) q.extent[g][i] = 1;
    /* 72 x 72 in M, N and K (TCCG 20-30). flat: 128 over 72 thrice; pairs: 8 | 72, 16 over 72. */
    for (int g = 0; g < 3; ++g) q.extent[g][0] = q.extent[g][1] = 72;
    const double r = 128.0 / 72.0;
    assert_float_equal(cuperm_ctr_tma_tile_efficiency(&q, CUPERM_TMA_TILE_flat), 1.0 / (r * r * r), 1e-12);
    assert_float_equal(cuperm_ctr_tma_tile_efficiency(&q, CUPERM_TMA_TILE_kpair), 1.0 / (r * r), 1e-12);
    assert_float_equal(cuperm_ctr_tma_tile_efficiency(&q, CUPERM_TMA_TILE_mid),
                       1.0 / ((96.0 / 72) * (96.0 / 72) * (80.0 / 72)), 1e-12);
    assert_float_equal(cuperm_ctr_tma_tile_efficiency(&q, CUPERM_TMA_TILE_pairs), 1.0 / ((80.0 / 72) * (80.0 / 72)),
                       1e-12);
    assert_int_equal(cuperm_ctr_tma_choose_tile(&q), CUPERM_TMA_TILE_pairs);
    /* One mode per group (TCCG 12, 5136 x 5120 x 5136): the 32-deep tile pads K less (5152 against
     * 5184) but its assumed rate (0.9) outweighs that; the pair tiles pad a unit mode whole. */
    for (int g = 0; g < 3; ++g) q.extent[g][1] = 1;
    q.extent[0][0] = 5136, q.extent[1][0] = 5120, q.extent[2][0] = 5136;
    assert_float_equal(cuperm_ctr_tma_tile_efficiency(&q, CUPERM_TMA_TILE_flat), 1.0 / ((5248.0 / 5136) * (5184.0 / 5136)),
                       1e-12);
    assert_float_equal(cuperm_ctr_tma_tile_efficiency(&q, CUPERM_TMA_TILE_k32), 1.0 / ((5248.0 / 5136) * (5152.0 / 5136)),
                       1e-12);
    assert_int_equal(cuperm_ctr_tma_choose_tile(&q), CUPERM_TMA_TILE_flat);
    /* K = 24 (TCCG 31-48): the 32-deep tile, 0.75 real, beats 64 deep, 0.375. */
    q.extent[0][0] = 384, q.extent[1][0] = 384, q.extent[2][0] = 24;
    assert_float_equal(cuperm_ctr_tma_tile_score(&q, CUPERM_TMA_TILE_k32), 0.9 * 0.75, 1e-12);
    assert_int_equal(cuperm_ctr_tma_choose_tile(&q), CUPERM_TMA_TILE_k32);
    /* Divisible extents: every tile is exact; the tie goes to the flat tile. */
    for (int g = 0; g < 3; ++g) q.extent[g][0] = 128, q.extent[g][1] = 16;
    for (int t = 0; t < CUPERM_TMA_TILE_COUNT; ++t) assert_float_equal(cuperm_ctr_tma_tile_efficiency(&q, t), 1.0, 1e-12);
    assert_int_equal(cuperm_ctr_tma_choose_tile(&q), CUPERM_TMA_TILE_flat);
    assert_string_equal(cuperm_ctr_tma_tile_name(CUPERM_TMA_TILE_pairs), "pairs");
    for (int t = 0; t < CUPERM_TMA_TILE_COUNT; ++t) assert_int_equal(cuperm_ctr_tma_tile_id(cuperm_ctr_tma_tile_name(t)), t);
    assert_int_equal(cuperm_ctr_tma_tile_id("nope"), -1);
    assert_int_equal(cuperm_ctr_tma_tile_id(NULL), -1);
    assert_int_equal(cuperm_ctr_tma_tile_take(CUPERM_TMA_TILE_mid, CUPERM_TMA_K, 1), 4);
    assert_int_equal(cuperm_ctr_tma_tile_take(CUPERM_TMA_TILE_mid, CUPERM_TMA_K, 2), 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_map_random), cmocka_unit_test(test_map_rules), cmocka_unit_test(test_map_tccg1),
        cmocka_unit_test(test_map_exchanged), cmocka_unit_test(test_map_fuses), cmocka_unit_test(test_tiles),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
