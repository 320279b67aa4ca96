/* GETT eligibility and block-scatter offset tables (see gett.h). */
#include "plan/contraction/gett.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/layout.h"
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

int cuperm_ctr_gett_eligible(const cuperm_ctr_problem_t* p, char* why, size_t whySize)
{
    const cupermDataType_t ab = p->op[CTR_A].type, cd = p->op[CTR_D].type;
    if (ab != CUPERM_R_16F && ab != CUPERM_R_16BF) return why_not(why, whySize, "A/B are not R_16F or R_16BF");
    if (p->op[CTR_B].type != ab) return why_not(why, whySize, "A and B types differ");
    if (cd != CUPERM_R_32F && cd != ab) return why_not(why, whySize, "C/D are neither R_32F nor the A/B type");
    if (p->op[CTR_C].type != cd) return why_not(why, whySize, "C and D types differ");
    if (p->compute != CUPERM_COMPUTE_32F) return why_not(why, whySize, "compute type is not 32F");
    cuperm_ctr_folded_ops_t f;
    cuperm_ctr_fold_operators(p, &f);
    for (int w = 0; w < CTR_OPERANDS; ++w)
        if (f.op[w] != CUPERM_OP_IDENTITY) return why_not(why, whySize, "an operator other than identity/negate");
    if (table_entries(p) > CTR_GETT_MAX_ENTRIES) return why_not(why, whySize, "offset tables too large");
    /* The kernel indexes m, n, k with int and tiles with a 31-bit grid. */
    const int64_t mt = (p->groupSize[CTR_GROUP_M] + 127) / 128, nt = (p->groupSize[CTR_GROUP_N] + 127) / 128;
    if (mt * nt > INT32_MAX) return why_not(why, whySize, "too many tiles");
    return 1;
}

/* Sorts a group's modes by their stride in operand w (ties: mode-table order). */
static void sort_by_stride(const cuperm_ctr_problem_t* p, int* order, int n, int w)
{
    int64_t stride[CTR_MAX_MODES];
    cuperm_ctr_mode_keys(p, w, stride, NULL);
    cuperm_sort_by_key(order, n, stride, NULL);
}

/* Smallest stride operand w has in group g (INT64_MAX if the group is empty). */
static int64_t min_stride(const cuperm_ctr_problem_t* p, int g, int w)
{
    int64_t s = INT64_MAX;
    for (int i = 0; i < p->nmodes; ++i)
        if (p->modes[i].group == (cuperm_ctr_group_t)g && p->op[w].strides[p->modes[i].pos[w]] < s)
            s = p->op[w].strides[p->modes[i].pos[w]];
    return s;
}

/* Group orders: M by A's strides, N by B's, K by the strides of the operand that is K-fast
 * (A first), L as in the mode table. Order changes speed only, never results. */
static void gett_orders(const cuperm_ctr_problem_t* p, cuperm_ctr_gett_tables_t* t)
{
    memset(t->count, 0, sizeof t->count);
    for (int i = 0; i < p->nmodes; ++i) {
        const int g = (int)p->modes[i].group;
        t->order[g][t->count[g]++] = i;
    }
    for (int g = 0; g < CTR_GROUPS; ++g) t->size[g] = p->groupSize[g];
    t->aKFast = min_stride(p, CTR_GROUP_K, CTR_A) < min_stride(p, CTR_GROUP_M, CTR_A);
    t->bKFast = min_stride(p, CTR_GROUP_K, CTR_B) < min_stride(p, CTR_GROUP_N, CTR_B);
    sort_by_stride(p, t->order[CTR_GROUP_M], t->count[CTR_GROUP_M], CTR_A);
    sort_by_stride(p, t->order[CTR_GROUP_N], t->count[CTR_GROUP_N], CTR_B);
    sort_by_stride(p, t->order[CTR_GROUP_K], t->count[CTR_GROUP_K], t->aKFast || !t->bKFast ? CTR_A : CTR_B);
}

void cuperm_ctr_gett_layout(const cuperm_ctr_problem_t* p, cuperm_ctr_layout_t* l)
{
    cuperm_ctr_gett_tables_t t;
    memset(l, 0, sizeof *l);
    gett_orders(p, &t);
    l->kind = CTR_KIND_GETT;
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

/* table[i] = offset of linear index i of the group (modes in order, the first fastest) in w. */
static void fill_table(const cuperm_ctr_problem_t* p, const cuperm_ctr_gett_tables_t* t, int g, int w, int64_t* table)
{
    int64_t extents[CTR_MAX_MODES], strides[CTR_MAX_MODES];
    cuperm_ctr_gather(p, w, t->order[g], t->count[g], extents, strides);
    cuperm_offset_table(t->count[g], extents, strides, table);
}

static int multiples_of(const int64_t* t, int64_t n, int w)
{
    for (int64_t i = 0; i < n; ++i)
        if (t[i] % w) return 0;
    return 1;
}

int cuperm_ctr_gett_run_width(const int64_t* fast, int64_t n, const int64_t* other, int64_t nOther, const int64_t* l,
                              int64_t nL)
{
    for (int w = 8; w > 1; w /= 2) {
        int ok = multiples_of(other, nOther, w) && multiples_of(l, nL, w);
        for (int64_t i = 0; ok && i < n; i += w) {
            if (fast[i] % w) ok = 0;
            for (int64_t j = 1; ok && j < w && i + j < n; ++j)
                if (fast[i + j] != fast[i] + j) ok = 0;
        }
        if (ok) return w;
    }
    return 1;
}

static const int64_t* group_table(const cuperm_ctr_gett_tables_t* t, int g, int w) { return t->table + t->at[g][w]; }

/* Run width of operand w along group fast, its other free/contracted group being other. */
static int width_along(const cuperm_ctr_gett_tables_t* t, int w, int fast, int other)
{
    return cuperm_ctr_gett_run_width(group_table(t, fast, w), t->size[fast], group_table(t, other, w), t->size[other],
                                     group_table(t, CTR_GROUP_L, w), t->size[CTR_GROUP_L]);
}

/* Picks the direction (1: along group "first", 0: along "second") with the wider runs; a run
 * longer than its group counts only as long as the group. Ties keep preferFirst. */
static int pick(const cuperm_ctr_gett_tables_t* t, int wFirst, int first, int wSecond, int second, int preferFirst)
{
    const int64_t a = wFirst < t->size[first] ? wFirst : t->size[first];
    const int64_t b = wSecond < t->size[second] ? wSecond : t->size[second];
    return a != b ? a > b : preferFirst;
}

/* Shared-tile layouts, vector widths, the epilogue direction and the offset width. */
static void gett_vectors(const cuperm_ctr_problem_t* p, cuperm_ctr_gett_tables_t* t)
{
    enum { M = CTR_GROUP_M, N = CTR_GROUP_N, K = CTR_GROUP_K };
    const int aK = width_along(t, CTR_A, K, M), aM = width_along(t, CTR_A, M, K);
    t->aKFast = pick(t, aK, K, aM, M, t->aKFast);
    t->vec[CTR_A] = t->aKFast ? aK : aM;
    const int bK = width_along(t, CTR_B, K, N), bN = width_along(t, CTR_B, N, K);
    t->bKFast = pick(t, bK, K, bN, N, t->bKFast);
    t->vec[CTR_B] = t->bKFast ? bK : bN;
    const int dM = width_along(t, CTR_D, M, N), dN = width_along(t, CTR_D, N, M);
    t->dMFast = pick(t, dM, M, dN, N, min_stride(p, M, CTR_D) <= min_stride(p, N, CTR_D));
    t->vec[CTR_D] = t->dMFast ? dM : dN;
    t->vec[CTR_C] = t->dMFast ? width_along(t, CTR_C, M, N) : width_along(t, CTR_C, N, M);
    t->off32 = 1;
    for (int w = 0; w < CTR_OPERANDS; ++w)
        if (cuperm_ctr_operand_max_offset(&p->op[w]) > INT32_MAX) t->off32 = 0;
}

cupermStatus_t cuperm_ctr_gett_tables_build(const cuperm_ctr_problem_t* p, cuperm_ctr_gett_tables_t* t)
{
    memset(t, 0, sizeof *t);
    const int64_t entries = table_entries(p);
    if (entries > CTR_GETT_MAX_ENTRIES)
        return cuperm_fail_in("cupermPlanContraction", CUPERM_STATUS_INVALID_VALUE, "GETT: offset tables of %lld entries exceed %lld",
                               (long long)entries, (long long)CTR_GETT_MAX_ENTRIES);
    gett_orders(p, t);
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

void cuperm_ctr_gett_tables_free(cuperm_ctr_gett_tables_t* t)
{
    free(t->table);
    t->table = NULL;
}
