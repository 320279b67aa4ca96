/* The Hopper GETT's problem map and tile choice (see gett_tma.h). */
#include "plan/contraction/gett_tma.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/index_math.h"
#include "plan/contraction/gett.h"
#include "plan/contraction/types.h"

_Static_assert((int)CUPERM_TMA_M == (int)CTR_GROUP_M && (int)CUPERM_TMA_N == (int)CTR_GROUP_N &&
                   (int)CUPERM_TMA_K == (int)CTR_GROUP_K && (int)CUPERM_TMA_L == (int)CTR_GROUP_L &&
                   (int)CUPERM_TMA_GROUPS == (int)CTR_GROUPS,
               "one group numbering");
_Static_assert(CUPERM_TMA_L_MODES <= CUPERM_TMA_MODES, "L modes fit the stride rows");

/* Largest byte stride a TMA descriptor takes (cuTensorMapEncodeTiled: below 2^40). */
#define TMA_MAX_STRIDE_BYTES ((int64_t)1 << 40)

static const int tile_take[CUPERM_TMA_TILE_COUNT][3][2] = {
#define CUPERM_TMA_TILE_TAKE(id, name, m0, m1, n0, n1, k0, k1, rate) {{m0, m1}, {n0, n1}, {k0, k1}},
    CUPERM_TMA_TILES(CUPERM_TMA_TILE_TAKE)
#undef CUPERM_TMA_TILE_TAKE
};
static const double tile_rates[CUPERM_TMA_TILE_COUNT] = {
#define CUPERM_TMA_TILE_RATE(id, name, m0, m1, n0, n1, k0, k1, rate) rate,
    CUPERM_TMA_TILES(CUPERM_TMA_TILE_RATE)
#undef CUPERM_TMA_TILE_RATE
};
static const char* const tile_names[CUPERM_TMA_TILE_COUNT] = {
#define CUPERM_TMA_TILE_NAME(id, name, m0, m1, n0, n1, k0, k1, rate) #name,
    CUPERM_TMA_TILES(CUPERM_TMA_TILE_NAME)
#undef CUPERM_TMA_TILE_NAME
};

int cuperm_ctr_tma_tile_take(int tile, int g, int i)
{
    return tile >= 0 && tile < CUPERM_TMA_TILE_COUNT && g >= 0 && g < 3 && i >= 0 && i < 2 ? tile_take[tile][g][i] : 1;
}

const char* cuperm_ctr_tma_tile_name(int tile)
{
    return tile >= 0 && tile < CUPERM_TMA_TILE_COUNT ? tile_names[tile] : "?";
}

int cuperm_ctr_tma_tile_id(const char* name)
{
    for (int t = 0; t < CUPERM_TMA_TILE_COUNT; ++t)
        if (name && !strcmp(name, tile_names[t])) return t;
    return -1;
}

#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static int why_not(char* why, size_t size, const char* fmt, ...)
{
    if (why && size) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(why, size, fmt, ap);
        va_end(ap);
    }
    return 0;
}

/* The mode with stride 1 in operand w (extent > 1: unit modes are dropped), or -1. */
static int unit_mode(const cuperm_ctr_problem_t* p, int w)
{
    for (int i = 0; i < p->nmodes; ++i)
        if (p->modes[i].pos[w] >= 0 && p->op[w].strides[p->modes[i].pos[w]] == 1) return i;
    return -1;
}

static int64_t stride_in(const cuperm_ctr_problem_t* p, int w, int mode)
{
    const int d = p->modes[mode].pos[w];
    return d >= 0 ? p->op[w].strides[d] : 0;
}

/* Group g's modes in operand by's stride order, fused where every operand holding g has the
 * next mode continue the run; writes q's extents and strides; returns the fused count. */
static int fuse_group(const cuperm_ctr_problem_t* p, int g, int by, cuperm_gett_tma_params_t* q, int limit)
{
    int order[CTR_MAX_MODES];
    const int n = cuperm_ctr_gett_group_order(p, g, by, order);
    int count = 0;
    int64_t extent = 1, base[CTR_OPERANDS] = {0};
    for (int i = 0; i < n; ++i) {
        const int m = order[i];
        int fuses = count > 0;
        for (int w = 0; fuses && w < CTR_OPERANDS; ++w)
            if (p->modes[m].pos[w] >= 0 && stride_in(p, w, m) != base[w] * extent) fuses = 0;
        if (fuses) {
            extent *= p->modes[m].extent;
            continue;
        }
        if (count > 0 && count <= limit) q->extent[g][count - 1] = (int32_t)(extent < INT32_MAX ? extent : INT32_MAX);
        ++count;
        for (int w = 0; w < CTR_OPERANDS; ++w) {
            base[w] = stride_in(p, w, m);
            if (count <= limit) q->stride[w][g][count - 1] = base[w];
        }
        extent = p->modes[m].extent;
    }
    if (count > 0 && count <= limit) q->extent[g][count - 1] = (int32_t)(extent < INT32_MAX ? extent : INT32_MAX);
    return count;
}

/* TMA and CUTLASS's alignment rules for operand w (A or B), majors along group major. */
static int operand_aligned(const cuperm_ctr_problem_t* p, const cuperm_gett_tma_params_t* q, int w, int major,
                           char* why, size_t whySize)
{
    const char* name = cuperm_ctr_operand_name(w);
    const int64_t elem = cupermDataTypeSize(p->op[w].type), v = CTR_TMA_PTR_ALIGN / elem;
    if (q->extent[major][0] % v)
        return why_not(why, whySize, "%s's unit-stride run of %d elements is not a multiple of %lld (16 bytes)", name,
                       (int)q->extent[major][0], (long long)v);
    for (int g = 0; g < CTR_GROUPS; ++g)
        for (int i = 0; i < q->count[g]; ++i) {
            const int64_t s = q->stride[w][g][i];
            if (g == major && i == 0) continue; /* the unit stride */
            if (!cuperm_ctr_gett_has_table(g, w) || q->extent[g][i] == 1) continue;
            if (s <= 0 || s % v)
                return why_not(why, whySize, "%s has stride %lld, not a positive multiple of %lld elements (TMA: 16 bytes)",
                               name, (long long)s, (long long)v);
            if (s > TMA_MAX_STRIDE_BYTES / elem)
                return why_not(why, whySize, "%s has stride %lld elements, beyond TMA's 2^40 bytes", name, (long long)s);
        }
    return 1;
}

/* The map of p as given (A the kernels' first operand, M their rows). */
static int map_as_given(const cuperm_ctr_problem_t* p, cuperm_gett_tma_params_t* q, char* why, size_t whySize)
{
    memset(q, 0, sizeof *q);
    if (!cuperm_ctr_gett_supported(p, why, whySize)) return 0;
    if (cuperm_ctr_gett_has_operators(p))
        return why_not(why, whySize, "operators other than identity and negate (the Hopper kernels apply none; the "
                       "table kernel does)");
    const int ua = unit_mode(p, CTR_A), ub = unit_mode(p, CTR_B);
    const int ga = ua < 0 ? -1 : (int)p->modes[ua].group, gb = ub < 0 ? -1 : (int)p->modes[ub].group;
    if (ga != CTR_GROUP_M && ga != CTR_GROUP_K)
        return why_not(why, whySize, "A has no unit-stride M or K mode (TMA loads rows)");
    if (gb != CTR_GROUP_N && gb != CTR_GROUP_K)
        return why_not(why, whySize, "B has no unit-stride N or K mode (TMA loads rows)");
    q->aKMajor = ga == CTR_GROUP_K;
    q->bKMajor = gb == CTR_GROUP_K;
    if (q->aKMajor && q->bKMajor && ua != ub)
        return why_not(why, whySize, "A and B are contiguous along different K modes");
    int by[CTR_GROUPS];
    by[CTR_GROUP_M] = q->aKMajor ? CTR_D : CTR_A;
    by[CTR_GROUP_N] = q->bKMajor ? CTR_D : CTR_B;
    by[CTR_GROUP_K] = q->aKMajor || !q->bKMajor ? CTR_A : CTR_B;
    by[CTR_GROUP_L] = CTR_A;
    for (int g = 0; g < CTR_GROUPS; ++g) {
        for (int i = 0; i < CUPERM_TMA_MODES; ++i) q->extent[g][i] = 1;
        const int limit = g == CTR_GROUP_L ? CUPERM_TMA_L_MODES : CUPERM_TMA_MODES;
        q->count[g] = fuse_group(p, g, by[g], q, limit);
        if (q->count[g] > limit)
            return why_not(why, whySize, "%s has %d modes after fusing; the kernels take %d",
                           cuperm_ctr_group_name((cuperm_ctr_group_t)g), q->count[g], limit);
        /* The kernels' problem shape holds int extents, and CuTe multiplies them in int. */
        if (p->groupSize[g] > INT32_MAX)
            return why_not(why, whySize, "%s's size %lld is beyond the kernels' 2^31 - 1",
                           cuperm_ctr_group_name((cuperm_ctr_group_t)g), (long long)p->groupSize[g]);
    }
    if (!operand_aligned(p, q, CTR_A, ga, why, whySize) || !operand_aligned(p, q, CTR_B, gb, why, whySize)) return 0;
    /* A and B's unused (extent 1) modes still become TMA dimensions: give them a legal stride
     * (16 bytes) rather than 0; their only index is 0, so the value never moves an address. */
    for (int w = CTR_A; w <= CTR_B; ++w)
        for (int g = 0; g < CTR_GROUPS; ++g)
            for (int i = q->count[g]; i < CUPERM_TMA_MODES; ++i)
                if (cuperm_ctr_gett_has_table(g, w))
                    q->stride[w][g][i] = CTR_TMA_PTR_ALIGN / cupermDataTypeSize(p->op[w].type);
    q->abType = p->op[CTR_A].type;
    q->cdType = p->op[CTR_D].type;
    cuperm_ctr_tma_set_tile(q, cuperm_ctr_tma_choose_tile(q));
    return 1;
}

/* p with A and B exchanged, and with them M and N: D^T = B^T A^T as a problem. */
static void exchange_operands(const cuperm_ctr_problem_t* p, cuperm_ctr_problem_t* x)
{
    *x = *p;
    x->op[CTR_A] = p->op[CTR_B];
    x->op[CTR_B] = p->op[CTR_A];
    for (int i = 0; i < p->nmodes; ++i) {
        cuperm_ctr_mode_t* m = &x->modes[i];
        m->pos[CTR_A] = p->modes[i].pos[CTR_B];
        m->pos[CTR_B] = p->modes[i].pos[CTR_A];
        if (m->group == CTR_GROUP_M) m->group = CTR_GROUP_N;
        else if (m->group == CTR_GROUP_N) m->group = CTR_GROUP_M;
    }
    x->groupSize[CTR_GROUP_M] = p->groupSize[CTR_GROUP_N];
    x->groupSize[CTR_GROUP_N] = p->groupSize[CTR_GROUP_M];
    x->groupCount[CTR_GROUP_M] = p->groupCount[CTR_GROUP_N];
    x->groupCount[CTR_GROUP_N] = p->groupCount[CTR_GROUP_M];
}

int cuperm_ctr_tma_map(const cuperm_ctr_problem_t* p, cuperm_gett_tma_params_t* q, char* why, size_t whySize)
{
    /* Both orientations; the exchanged one only when its tile wastes strictly less (a 24-wide M
     * then becomes a 24-wide N, which the 32-wide tiles fit). */
    cuperm_ctr_problem_t x;
    cuperm_gett_tma_params_t alt;
    exchange_operands(p, &x);
    const int direct = map_as_given(p, q, why, whySize);
    if (!map_as_given(&x, &alt, NULL, 0)) return direct;
    alt.swapped = 1;
    if (!direct || cuperm_ctr_tma_tile_score(&alt, alt.tile) > cuperm_ctr_tma_tile_score(q, q->tile)) *q = alt;
    return 1;
}

/* Covered over real indices along one mode: ceil(e / t) * t / e. */
static double padding(int64_t e, int t) { return (double)((e + t - 1) / t * t) / (double)e; }

double cuperm_ctr_tma_tile_efficiency(const cuperm_gett_tma_params_t* q, int tile)
{
    double covered = 1.0;
    for (int g = 0; g < 3; ++g)
        for (int i = 0; i < 2; ++i) covered *= padding(q->extent[g][i], cuperm_ctr_tma_tile_take(tile, g, i));
    return 1.0 / covered;
}

double cuperm_ctr_tma_tile_score(const cuperm_gett_tma_params_t* q, int tile)
{
    return tile >= 0 && tile < CUPERM_TMA_TILE_COUNT ? cuperm_ctr_tma_tile_efficiency(q, tile) * tile_rates[tile] : 0.0;
}

int cuperm_ctr_tma_choose_tile(const cuperm_gett_tma_params_t* q)
{
    int best = 0;
    double bestScore = cuperm_ctr_tma_tile_score(q, 0);
    for (int t = 1; t < CUPERM_TMA_TILE_COUNT; ++t) {
        const double s = cuperm_ctr_tma_tile_score(q, t);
        if (s > bestScore) best = t, bestScore = s;
    }
    return best;
}

/* Operand w's (C or D) strides allow the walk's innermost runs of 16 bytes as vectors. */
static int walk_vector(const cuperm_gett_tma_params_t* q, int w, int inner, int innerTake)
{
    const int v = 16 / (int)cupermDataTypeSize(q->cdType);
    if (inner < 0 || innerTake % v) return 0;
    for (int g = 0; g < CUPERM_TMA_GROUPS; ++g) {
        if (g == CUPERM_TMA_K) continue; /* C and D have no K modes */
        for (int i = 0; i < CUPERM_TMA_MODES; ++i) {
            const int64_t s = q->stride[w][g][i];
            if (g == inner / 2 && i == inner % 2) {
                if (s != 1) return 0;
            } else if (q->extent[g][i] > 1 && s % v) {
                return 0;
            }
        }
    }
    return 1;
}

void cuperm_ctr_tma_set_tile(cuperm_gett_tma_params_t* q, int tile)
{
    q->tile = tile;
    int take[4], order[4] = {0, 1, 2, 3};
    int64_t key[4];
    for (int d = 0; d < 4; ++d) {
        take[d] = cuperm_ctr_tma_tile_take(tile, d / 2, d % 2);
        /* A dimension walked once, or over a mode of extent 1, has no run to offer: last. */
        const int once = take[d] <= 1 || q->extent[d / 2][d % 2] == 1;
        key[d] = once ? INT64_MAX : llabs(q->stride[CTR_D][d / 2][d % 2]);
    }
    for (int i = 1; i < 4; ++i) /* insertion sort: stable, ties in dimension order */
        for (int j = i; j > 0 && key[order[j]] < key[order[j - 1]]; --j) {
            const int t = order[j];
            order[j] = order[j - 1], order[j - 1] = t;
        }
    for (int j = 0, bits = 0; j < 4; bits += cuperm_log2_ceil(take[order[j]]), ++j) q->walkShift[order[j]] = bits;
    const int inner = key[order[0]] < INT64_MAX ? order[0] : -1;
    q->walkVector[0] = walk_vector(q, CTR_D, inner, inner < 0 ? 1 : take[inner]);
    q->walkVector[1] = walk_vector(q, CTR_C, inner, inner < 0 ? 1 : take[inner]);
}
