/* GETT eligibility and block-scatter offset tables (see gett.h). */
#include "plan/contraction/gett.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/layout.h"
#include "plan/contraction/gett_dtile.h"
#include "plan/contraction/types.h"

int cuperm_ctr_gett_has_table(int g, int w)
{
    switch (g) {
    case CTR_GROUP_M: return w == CTR_A || w == CTR_C || w == CTR_D;
    case CTR_GROUP_N: return w == CTR_B || w == CTR_C || w == CTR_D;
    case CTR_GROUP_K: return w == CTR_A || w == CTR_B;
    default: return 1; /* L: every operand */
    }
}

static int64_t table_entries(const cuperm_ctr_problem_t* p)
{
    int64_t n = 0;
    for (int g = 0; g < CTR_GROUPS; ++g)
        for (int w = 0; w < CTR_OPERANDS; ++w)
            if (cuperm_ctr_gett_has_table(g, w)) {
                if (p->groupSize[g] > CTR_GETT_MAX_ENTRIES) return INT64_MAX;
                n += p->groupSize[g];
            }
    return n;
}

static int why_not(char* why, size_t size, const char* text)
{
    if (why && size) snprintf(why, size, "%s", text);
    return 0;
}

int cuperm_ctr_gett_cuda_cores(const cuperm_ctr_problem_t* p)
{
    const cupermDataType_t ab = p->op[CTR_A].type;
    return ab == CUPERM_R_32F || ab == CUPERM_R_64F;
}

int cuperm_ctr_gett_skinny(const cuperm_ctr_problem_t* p)
{
    if (cuperm_ctr_gett_cuda_cores(p) || p->groupSize[CTR_GROUP_N] > CTR_GETT_SKINNY_MAX_N ||
        p->groupSize[CTR_GROUP_K] > CTR_GETT_SKINNY_MAX_K)
        return 0;
    const char* env = getenv("CUPERM_GETT_SKINNY"); /* "0": the table kernel (A/B runs) */
    return !(env && strcmp(env, "0") == 0);
}

/* The M mode of unit stride in operand w, or -1. */
static int unit_m_mode(const cuperm_ctr_problem_t* p, int w)
{
    for (int i = 0; i < p->nmodes; ++i)
        if (p->modes[i].group == CTR_GROUP_M && p->op[w].strides[p->modes[i].pos[w]] == 1) return i;
    return -1;
}

int cuperm_ctr_gett_skinny_split(const cuperm_ctr_problem_t* p, int split[2], int f[2])
{
    split[0] = unit_m_mode(p, CTR_A);
    split[1] = unit_m_mode(p, CTR_D);
    if (!(split[0] >= 0 && split[1] >= 0 && split[0] != split[1] &&
          p->modes[split[0]].extent % CTR_GETT_SKINNY_SPLIT == 0 && p->modes[split[1]].extent % CTR_GETT_SKINNY_SPLIT == 0))
        return 0;
    f[0] = CTR_GETT_SKINNY_SPLIT;
    f[1] = p->modes[split[1]].extent % (2 * CTR_GETT_SKINNY_SPLIT) == 0 ? 2 * CTR_GETT_SKINNY_SPLIT : CTR_GETT_SKINNY_SPLIT;
    return 1;
}

int cuperm_ctr_gett_skinny_run_width(const cuperm_ctr_problem_t* p, int w, int beta)
{
    if (p->op[w].strides[p->modes[beta].pos[w]] != 1) return 1;
    for (int i = 0; i < p->nmodes; ++i)
        if (i != beta && p->modes[i].pos[w] >= 0 && p->modes[i].extent > 1 &&
            p->op[w].strides[p->modes[i].pos[w]] % CTR_GETT_SKINNY_SPLIT)
            return 1;
    return CTR_GETT_SKINNY_SPLIT;
}

int cuperm_ctr_gett_supported(const cuperm_ctr_problem_t* p, char* why, size_t whySize)
{
    const cupermDataType_t ab = p->op[CTR_A].type, cd = p->op[CTR_D].type;
    if (p->op[CTR_B].type != ab) return why_not(why, whySize, "A and B types differ");
    if (p->op[CTR_C].type != cd) return why_not(why, whySize, "C and D types differ");
    if (cuperm_ctr_gett_cuda_cores(p)) { /* strict arithmetic of the type */
        if (cd != ab) return why_not(why, whySize, "C/D are not the A/B type");
        if (p->compute != (ab == CUPERM_R_32F ? CUPERM_COMPUTE_32F : CUPERM_COMPUTE_64F))
            return why_not(why, whySize, ab == CUPERM_R_32F ? "compute type is not strict 32F (TF32 and 16-bit "
                                                              "computes stay on cuBLAS)"
                                                            : "compute type is not 64F");
    } else {
        if (ab != CUPERM_R_16F && ab != CUPERM_R_16BF)
            return why_not(why, whySize, "A/B are not R_16F, R_16BF, R_32F or R_64F");
        if (cd != CUPERM_R_32F && cd != ab) return why_not(why, whySize, "C/D are neither R_32F nor the A/B type");
        if (p->compute != CUPERM_COMPUTE_32F) return why_not(why, whySize, "compute type is not 32F");
    }
    return 1; /* every operator of a real type: the kernels apply them (backend/cuda/gett/gett.h) */
}

int cuperm_ctr_gett_has_operators(const cuperm_ctr_problem_t* p)
{
    cuperm_ctr_folded_ops_t f;
    cuperm_ctr_fold_operators(p, &f);
    for (int w = 0; w < CTR_OPERANDS; ++w)
        if (f.op[w] != CUPERM_OP_IDENTITY) return 1;
    return 0;
}

void cuperm_ctr_gett_block_tile(const cuperm_ctr_problem_t* p, int64_t* bm, int64_t* bn, int64_t* bk)
{
    const int simt = cuperm_ctr_gett_cuda_cores(p);
    *bm = simt ? CTR_GETT_SIMT_BM : CTR_GETT_BM;
    *bn = simt ? CTR_GETT_SIMT_BN : CTR_GETT_BN;
    *bk = simt ? CTR_GETT_SIMT_BK : CTR_GETT_BK;
}

int cuperm_ctr_gett_eligible(const cuperm_ctr_problem_t* p, char* why, size_t whySize)
{
    if (!cuperm_ctr_gett_supported(p, why, whySize)) return 0;
    if (table_entries(p) > CTR_GETT_MAX_ENTRIES) return why_not(why, whySize, "offset tables too large");
    /* The kernels index m, n, k with int and tiles with a 31-bit grid. */
    int64_t bm, bn, bk;
    cuperm_ctr_gett_block_tile(p, &bm, &bn, &bk);
    const int64_t mt = (p->groupSize[CTR_GROUP_M] + bm - 1) / bm, nt = (p->groupSize[CTR_GROUP_N] + bn - 1) / bn;
    if (mt * nt > INT32_MAX) return why_not(why, whySize, "too many tiles");
    return 1;
}

/*
 * The orders the plan uses: the D-tile kernel's where it takes the problem (gett_dtile.h), else the
 * traffic model's (cuperm_ctr_gett_choose_orders). The plan does
 * not know beta (an execute-time argument), so the model prices D's writes but not C's reads
 * (beta = 0, the common case; C follows D's orders anyway). CUPERM_GETT_ORDER (read per plan,
 * for A/B measurements): "strides" keeps the strides rule, "output" also prices C's reads.
 */
static void plan_orders(const cuperm_ctr_problem_t* p, int dtile, int by[CTR_GETT_ORDERED], cuperm_ctr_dtile_t* dt)
{
    if (dtile && cuperm_ctr_dtile_choose(p, dt)) { /* the D-tile kernel's tiles are D's leading modes */
        memcpy(by, dt->by, sizeof dt->by);
        return;
    }
    memset(dt, 0, sizeof *dt);
    const char* env = getenv("CUPERM_GETT_ORDER");
    if (env && strcmp(env, "strides") == 0)
        cuperm_ctr_gett_default_orders(p, by);
    else
        cuperm_ctr_gett_choose_orders(p, env && strcmp(env, "output") == 0, by);
}

/* Group orders: M, N and K sorted by the strides of the operands by[] names, L as in the mode
 * table; the tile-layout preferences (ties of the width rule) from the smallest strides. Order
 * changes speed only, never results: the tables encode any order. */
static void gett_orders(const cuperm_ctr_problem_t* p, const int by[CTR_GETT_ORDERED], cuperm_ctr_gett_tables_t* t)
{
    memset(t->count, 0, sizeof t->count);
    for (int g = 0; g < CTR_GROUPS; ++g) {
        t->size[g] = p->groupSize[g];
        if (g < CTR_GETT_ORDERED) {
            t->by[g] = by[g];
            t->count[g] = cuperm_ctr_gett_group_order(p, g, by[g], t->order[g]);
        }
    }
    for (int i = 0; i < p->nmodes; ++i)
        if (p->modes[i].group == CTR_GROUP_L) t->order[CTR_GROUP_L][t->count[CTR_GROUP_L]++] = i;
    t->aKFast = cuperm_ctr_gett_min_stride(p, CTR_GROUP_K, CTR_A) < cuperm_ctr_gett_min_stride(p, CTR_GROUP_M, CTR_A);
    t->bKFast = cuperm_ctr_gett_min_stride(p, CTR_GROUP_K, CTR_B) < cuperm_ctr_gett_min_stride(p, CTR_GROUP_N, CTR_B);
}

void cuperm_ctr_gett_layout(const cuperm_ctr_problem_t* p, int dtile, cuperm_ctr_layout_t* l)
{
    cuperm_ctr_gett_tables_t t;
    int by[CTR_GETT_ORDERED];
    cuperm_ctr_dtile_t dt;
    memset(l, 0, sizeof *l);
    plan_orders(p, dtile, by, &dt);
    gett_orders(p, by, &t);
    l->kind = CTR_KIND_GETT;
    l->dtile = dt.tm > 0;
    for (int g = 0; g < CTR_GROUPS; ++g) {
        l->count[g] = t.count[g];
        l->size[g] = t.size[g];
        memcpy(l->order[g], t.order[g], sizeof(int) * (size_t)t.count[g]);
        for (int i = 0; i < t.count[g]; ++i) l->role[t.order[g][i]] = g;
    }
    l->size[CTR_ROLE_O] = 1;
    l->m = t.size[CTR_GROUP_M];
    l->n = t.size[CTR_GROUP_N];
    l->k = t.size[CTR_GROUP_K];
    l->batch = t.size[CTR_GROUP_L];
    l->calls = 1;
    cuperm_ctr_fold_operators(p, &l->ops);
}

/* table[i] = offset of linear index i of the group (modes in order, the first fastest) in w; M's
 * split digits first where t has them. */
static void fill_table(const cuperm_ctr_problem_t* p, const cuperm_ctr_gett_tables_t* t, int g, int w, int64_t* table)
{
    int64_t extents[CTR_MAX_MODES + 2], strides[CTR_MAX_MODES + 2];
    int n = 0;
    const int split = g == CTR_GROUP_M && t->mSplit[0] >= 0;
    if (split) {
        for (int h = 0; h < 2; ++h)     /* lo digits, then hi digits */
            for (int j = 0; j < 2; ++j) { /* alpha, beta */
                const cuperm_ctr_mode_t* m = &p->modes[t->mSplit[j]];
                extents[n] = h ? m->extent / t->mSplitF[j] : t->mSplitF[j];
                strides[n++] = p->op[w].strides[m->pos[w]] * (h ? t->mSplitF[j] : 1);
            }
    }
    for (int i = 0; i < t->count[g]; ++i) {
        const int mode = t->order[g][i];
        if (split && (mode == t->mSplit[0] || mode == t->mSplit[1])) continue;
        cuperm_ctr_gather(p, w, &mode, 1, &extents[n], &strides[n]);
        ++n;
    }
    cuperm_offset_table(n, extents, strides, table);
}

/* The largest of 8, 4, 2, 1 that divides every entry (8 for none): offsets' low bits. */
static int common_width(const int64_t* t, int64_t n)
{
    uint64_t bits = 0;
    for (int64_t i = 0; i < n; ++i) bits |= (uint64_t)t[i];
    return (bits & 1) ? 1 : (bits & 2) ? 2 : (bits & 4) ? 4 : 8;
}

int cuperm_ctr_gett_run_width(const int64_t* fast, int64_t n, const int64_t* other, int64_t nOther, const int64_t* l,
                              int64_t nL)
{
    /* Width w needs every entry of other and l a multiple of w, and fast cut into runs of w
     * (the last may be shorter) that start at multiples of w and step by 1: one pass checks
     * 8, 4 and 2 at once (a run's steps are the entries that do not start a run). */
    const int cap = common_width(other, nOther) < common_width(l, nL) ? common_width(other, nOther)
                                                                      : common_width(l, nL);
    int ok8 = cap >= 8, ok4 = cap >= 4, ok2 = cap >= 2;
    for (int64_t i = 0; i < n && ok2; ++i) {
        const int step = i > 0 && fast[i] == fast[i - 1] + 1;
        if (i % 8) ok8 &= step;
        else ok8 &= fast[i] % 8 == 0;
        if (i % 4) ok4 &= step;
        else ok4 &= fast[i] % 4 == 0;
        if (i % 2) ok2 &= step;
        else ok2 &= fast[i] % 2 == 0;
    }
    return ok8 ? 8 : ok4 ? 4 : ok2 ? 2 : 1;
}

static const int64_t* group_table(const cuperm_ctr_gett_tables_t* t, int g, int w) { return t->table + t->at[g][w]; }

/* Run width of operand w along group fast, its other free/contracted group being other. */
static int width_along(const cuperm_ctr_gett_tables_t* t, int w, int fast, int other)
{
    return cuperm_ctr_gett_run_width(group_table(t, fast, w), t->size[fast], group_table(t, other, w), t->size[other],
                                     group_table(t, CTR_GROUP_L, w), t->size[CTR_GROUP_L]);
}

/* Shared-tile layouts, vector widths, the epilogue direction (cuperm_ctr_gett_paths on the
 * widths the tables offer) and the offset width. */
static void gett_vectors(const cuperm_ctr_problem_t* p, cuperm_ctr_gett_tables_t* t)
{
    enum { M = CTR_GROUP_M, N = CTR_GROUP_N, K = CTR_GROUP_K };
    int width[CTR_OPERANDS][CTR_GETT_ORDERED] = {{0}};
    width[CTR_A][K] = width_along(t, CTR_A, K, M);
    width[CTR_A][M] = width_along(t, CTR_A, M, K);
    width[CTR_B][K] = width_along(t, CTR_B, K, N);
    width[CTR_B][N] = width_along(t, CTR_B, N, K);
    for (int w = CTR_C; w <= CTR_D; ++w) {
        width[w][M] = width_along(t, w, M, N);
        width[w][N] = width_along(t, w, N, M);
    }
    cuperm_ctr_gett_paths_t q;
    cuperm_ctr_gett_paths(p, width, &q);
    t->aKFast = q.aKFast;
    t->bKFast = q.bKFast;
    t->dMFast = q.dMFast;
    memcpy(t->vec, q.vec, sizeof t->vec);
    t->off32 = 1;
    for (int w = 0; w < CTR_OPERANDS; ++w)
        if (cuperm_ctr_operand_max_offset(&p->op[w]) > INT32_MAX) t->off32 = 0;
}

static cupermStatus_t tables_build(const cuperm_ctr_problem_t* p, const int by[CTR_GETT_ORDERED], const int* split,
                                   const int* f, cuperm_ctr_gett_tables_t* t);

cupermStatus_t cuperm_ctr_gett_tables_build(const cuperm_ctr_problem_t* p, int dtile, cuperm_ctr_gett_tables_t* t)
{
    int by[CTR_GETT_ORDERED];
    cuperm_ctr_dtile_t dt;
    plan_orders(p, dtile, by, &dt);
    int split[2], f[2];
    const int skinnySplit = dt.tm == 0 && cuperm_ctr_gett_skinny(p) && cuperm_ctr_gett_skinny_split(p, split, f);
    const cupermStatus_t st = skinnySplit ? tables_build(p, by, split, f, t) : cuperm_ctr_gett_tables_build_by(p, by, t);
    t->dtileM = dt.tm;
    t->dtileN = dt.tn;
    t->dtileK = dt.kp;
    t->dtileWhole[0] = dt.whole[0];
    t->dtileWhole[1] = dt.whole[1];
    return st;
}

static cupermStatus_t tables_build(const cuperm_ctr_problem_t* p, const int by[CTR_GETT_ORDERED], const int* split,
                                   const int* f, cuperm_ctr_gett_tables_t* t)
{
    memset(t, 0, sizeof *t);
    for (int j = 0; j < 2; ++j) {
        t->mSplit[j] = split ? split[j] : -1;
        t->mSplitF[j] = split ? f[j] : 1;
    }
    const int64_t entries = table_entries(p);
    if (entries > CTR_GETT_MAX_ENTRIES)
        return cuperm_fail_in("cupermPlanContraction", CUPERM_STATUS_INVALID_VALUE, "GETT: offset tables of %lld entries exceed %lld",
                               (long long)entries, (long long)CTR_GETT_MAX_ENTRIES);
    gett_orders(p, by, t);
    t->table = malloc(sizeof(int64_t) * (size_t)entries);
    if (!t->table) return cuperm_fail_in("cupermPlanContraction", CUPERM_STATUS_ALLOC_FAILED, "GETT: out of host memory for offset tables");
    t->entries = entries;
    int64_t at = 0;
    for (int g = 0; g < CTR_GROUPS; ++g)
        for (int w = 0; w < CTR_OPERANDS; ++w) {
            t->at[g][w] = -1;
            if (!cuperm_ctr_gett_has_table(g, w)) continue;
            t->at[g][w] = at;
            fill_table(p, t, g, w, t->table + at);
            at += t->size[g];
        }
    gett_vectors(p, t);
    return CUPERM_STATUS_SUCCESS;
}

cupermStatus_t cuperm_ctr_gett_tables_build_by(const cuperm_ctr_problem_t* p, const int by[CTR_GETT_ORDERED],
                                               cuperm_ctr_gett_tables_t* t)
{
    return tables_build(p, by, NULL, NULL, t);
}

void cuperm_ctr_gett_tables_free(cuperm_ctr_gett_tables_t* t)
{
    free(t->table);
    t->table = NULL;
}
