/* GETT mode orders: candidates, the run widths they give, the sector-traffic model (see gett.h). */
#include <stdint.h>
#include <stdio.h>

#include "core/layout.h"
#include "plan/contraction/gett.h"
#include "plan/contraction/types.h"

enum { M = CTR_GROUP_M, N = CTR_GROUP_N, K = CTR_GROUP_K };

int64_t cuperm_ctr_gett_min_stride(const cuperm_ctr_problem_t* p, int g, int w)
{
    int64_t s = INT64_MAX;
    for (int i = 0; i < p->nmodes; ++i)
        if (p->modes[i].group == (cuperm_ctr_group_t)g && p->modes[i].pos[w] >= 0 &&
            p->op[w].strides[p->modes[i].pos[w]] < s)
            s = p->op[w].strides[p->modes[i].pos[w]];
    return s;
}

void cuperm_ctr_gett_default_orders(const cuperm_ctr_problem_t* p, int by[CTR_GETT_ORDERED])
{
    const int aKFast = cuperm_ctr_gett_min_stride(p, K, CTR_A) < cuperm_ctr_gett_min_stride(p, M, CTR_A);
    const int bKFast = cuperm_ctr_gett_min_stride(p, K, CTR_B) < cuperm_ctr_gett_min_stride(p, N, CTR_B);
    by[M] = CTR_A;
    by[N] = CTR_B;
    by[K] = aKFast || !bKFast ? CTR_A : CTR_B;
}

int cuperm_ctr_gett_group_order(const cuperm_ctr_problem_t* p, int g, int w, int* order)
{
    int n = 0;
    for (int i = 0; i < p->nmodes; ++i)
        if (p->modes[i].group == (cuperm_ctr_group_t)g) order[n++] = i;
    int64_t stride[CTR_MAX_MODES];
    cuperm_ctr_mode_keys(p, w, stride, NULL);
    cuperm_sort_by_key(order, n, stride, NULL);
    return n;
}

static int64_t stride_of(const cuperm_ctr_problem_t* p, int w, int mode)
{
    return p->op[w].strides[p->modes[mode].pos[w]];
}

/* Whether every stride of operand w's modes outside group g is a multiple of v (then every
 * entry of its other tables is). */
static int others_multiple_of(const cuperm_ctr_problem_t* p, int w, int g, int64_t v)
{
    for (int i = 0; i < p->nmodes; ++i)
        if (p->modes[i].group != (cuperm_ctr_group_t)g && p->modes[i].pos[w] >= 0 && stride_of(p, w, i) % v)
            return 0;
    return 1;
}

/*
 * The group's table holds offsets of modes with extents > 1. If the first has a stride other
 * than 1, entries 0 and 1 are not consecutive: width 1. Otherwise let the leading block be
 * the first mode and those after it that continue it (stride = the block's extent so far), of
 * E entries: runs of W starting at multiples of W stay inside the block (contiguous, starting
 * at a multiple of W once the later modes' strides are multiples of W) when W divides E, or
 * when the block is the whole group (one contiguous range, the last run short); else the run
 * across the block's end is not contiguous (the next mode's stride is not E).
 */
int cuperm_ctr_gett_order_width(const cuperm_ctr_problem_t* p, int w, int g, const int* order, int n)
{
    int64_t block = 1, size = 1;
    int rest = 0;
    for (int i = 0; i < n; ++i) size *= p->modes[order[i]].extent;
    if (n > 0) {
        if (stride_of(p, w, order[0]) != 1) return 1;
        block = p->modes[order[0]].extent;
        for (rest = 1; rest < n && stride_of(p, w, order[rest]) == block; ++rest) block *= p->modes[order[rest]].extent;
    }
    for (int v = 8; v > 1; v /= 2) {
        int ok = others_multiple_of(p, w, g, v);
        if (ok && block != size) {
            ok = block % v == 0;
            for (int i = rest; ok && i < n; ++i)
                if (stride_of(p, w, order[i]) % v) ok = 0;
        }
        if (ok) return v;
    }
    return 1;
}

/* 1: the run along group "first" (width a) is chosen over the one along "second" (width b);
 * a run counts at most as long as its group; ties keep preferFirst. */
static int pick(const cuperm_ctr_problem_t* p, int a, int first, int b, int second, int preferFirst)
{
    const int64_t ra = a < p->groupSize[first] ? a : p->groupSize[first];
    const int64_t rb = b < p->groupSize[second] ? b : p->groupSize[second];
    return ra != rb ? ra > rb : preferFirst;
}

void cuperm_ctr_gett_paths(const cuperm_ctr_problem_t* p, int width[CTR_OPERANDS][CTR_GETT_ORDERED],
                           cuperm_ctr_gett_paths_t* q)
{
    const int aKPref = cuperm_ctr_gett_min_stride(p, K, CTR_A) < cuperm_ctr_gett_min_stride(p, M, CTR_A);
    const int bKPref = cuperm_ctr_gett_min_stride(p, K, CTR_B) < cuperm_ctr_gett_min_stride(p, N, CTR_B);
    const int dMPref = cuperm_ctr_gett_min_stride(p, M, CTR_D) <= cuperm_ctr_gett_min_stride(p, N, CTR_D);
    q->aKFast = pick(p, width[CTR_A][K], K, width[CTR_A][M], M, aKPref);
    q->vec[CTR_A] = width[CTR_A][q->aKFast ? K : M];
    q->bKFast = pick(p, width[CTR_B][K], K, width[CTR_B][N], N, bKPref);
    q->vec[CTR_B] = width[CTR_B][q->bKFast ? K : N];
    q->dMFast = pick(p, width[CTR_D][M], M, width[CTR_D][N], N, dMPref);
    q->vec[CTR_D] = width[CTR_D][q->dMFast ? M : N];
    q->vec[CTR_C] = width[CTR_C][q->dMFast ? M : N];
}

void cuperm_ctr_gett_paths_for(const cuperm_ctr_problem_t* p, const int by[CTR_GETT_ORDERED], cuperm_ctr_gett_paths_t* q)
{
    int width[CTR_OPERANDS][CTR_GETT_ORDERED] = {{0}};
    for (int g = 0; g < CTR_GETT_ORDERED; ++g) {
        int order[CTR_MAX_MODES];
        const int n = cuperm_ctr_gett_group_order(p, g, by[g], order);
        for (int w = 0; w < CTR_OPERANDS; ++w)
            if (cuperm_ctr_gett_has_table(g, w)) width[w][g] = cuperm_ctr_gett_order_width(p, w, g, order, n);
    }
    cuperm_ctr_gett_paths(p, width, q);
}

double cuperm_ctr_gett_sector_bytes(int64_t run, int elementBytes)
{
    if (run < 1) run = 1;
    const int64_t sectors = (run * elementBytes + 31) / 32;
    return 32.0 * (double)sectors / (double)run;
}

void cuperm_ctr_gett_tile_cover(const cuperm_ctr_problem_t* p, const int by[CTR_GETT_ORDERED],
                                int64_t cover[CTR_MAX_MODES])
{
    static const int64_t tile[2] = {CTR_GETT_BM, CTR_GETT_BN};
    for (int i = 0; i < p->nmodes; ++i)
        cover[i] = p->modes[i].group == CTR_GROUP_K ? p->modes[i].extent : 1; /* a block walks all of K */
    for (int g = M; g <= N; ++g) {
        int order[CTR_MAX_MODES];
        const int n = cuperm_ctr_gett_group_order(p, g, by[g], order);
        int64_t left = tile[g];
        for (int i = 0; i < n && left > 1; ++i) {
            const int64_t e = p->modes[order[i]].extent;
            cover[order[i]] = e < left ? e : left;
            left = e < left ? left / e : 1;
        }
    }
}

int64_t cuperm_ctr_gett_tile_run(const cuperm_ctr_problem_t* p, const int64_t cover[CTR_MAX_MODES], int w)
{
    int order[CTR_MAX_MODES], n = 0;
    int64_t stride[CTR_MAX_MODES];
    for (int i = 0; i < p->nmodes; ++i)
        if (p->modes[i].pos[w] >= 0) order[n++] = i;
    cuperm_ctr_mode_keys(p, w, stride, NULL);
    cuperm_sort_by_key(order, n, stride, NULL);
    int64_t run = 1, span = 1; /* covered elements in a row; memory elements the modes so far span */
    for (int i = 0; i < n; ++i) {
        const cuperm_ctr_mode_t* m = &p->modes[order[i]];
        if (stride[order[i]] == 0) continue;  /* broadcast: no memory of its own */
        if (stride[order[i]] != span) break; /* a gap: the run ends */
        run *= cover[order[i]];
        if (cover[order[i]] < m->extent) break; /* the tile holds part of this mode: the run ends */
        span *= m->extent;
    }
    return run;
}

/* Cost of operand w's accesses in bytes: elements x (bytes per element in the tile footprint's
 * runs + CTR_GETT_ACCESS_BYTES per access of vec elements). */
static double operand_bytes(const cuperm_ctr_problem_t* p, int w, double elements, const int64_t* cover, int vec)
{
    return elements * (cuperm_ctr_gett_sector_bytes(cuperm_ctr_gett_tile_run(p, cover, w),
                                                    (int)cupermDataTypeSize(p->op[w].type)) +
                       CTR_GETT_ACCESS_BYTES / (double)vec);
}

double cuperm_ctr_gett_traffic(const cuperm_ctr_problem_t* p, const int by[CTR_GETT_ORDERED],
                               const cuperm_ctr_gett_paths_t* q, int readC)
{
    const double m = (double)p->groupSize[M], n = (double)p->groupSize[N], k = (double)p->groupSize[K];
    const double l = (double)p->groupSize[CTR_GROUP_L];
    const double mTiles = (double)((p->groupSize[M] + CTR_GETT_BM - 1) / CTR_GETT_BM);
    const double nTiles = (double)((p->groupSize[N] + CTR_GETT_BN - 1) / CTR_GETT_BN);
    int64_t cover[CTR_MAX_MODES];
    cuperm_ctr_gett_tile_cover(p, by, cover);
    double bytes = nTiles * operand_bytes(p, CTR_A, m * k * l, cover, q->vec[CTR_A]);
    bytes += mTiles * operand_bytes(p, CTR_B, k * n * l, cover, q->vec[CTR_B]);
    bytes += operand_bytes(p, CTR_D, m * n * l, cover, q->vec[CTR_D]);
    if (readC) bytes += operand_bytes(p, CTR_C, m * n * l, cover, q->vec[CTR_C]);
    return bytes;
}

double cuperm_ctr_gett_order_cost(const cuperm_ctr_problem_t* p, const int by[CTR_GETT_ORDERED], int readC)
{
    cuperm_ctr_gett_paths_t q;
    cuperm_ctr_gett_paths_for(p, by, &q);
    return cuperm_ctr_gett_traffic(p, by, &q, readC);
}

/* The other candidate of group g: M A <-> D, N B <-> D, K A <-> B. */
static int other_candidate(int g, int by)
{
    if (g == K) return by == CTR_A ? CTR_B : CTR_A;
    const int own = g == M ? CTR_A : CTR_B;
    return by == own ? CTR_D : own;
}

/* Whether group g sorts the same under operands v and w. */
static int same_order(const cuperm_ctr_problem_t* p, int g, int v, int w)
{
    int a[CTR_MAX_MODES], b[CTR_MAX_MODES];
    const int n = cuperm_ctr_gett_group_order(p, g, v, a);
    cuperm_ctr_gett_group_order(p, g, w, b);
    for (int i = 0; i < n; ++i)
        if (a[i] != b[i]) return 0;
    return 1;
}

void cuperm_ctr_gett_choose_orders(const cuperm_ctr_problem_t* p, int readC, int by[CTR_GETT_ORDERED])
{
    int base[CTR_GETT_ORDERED], alt[CTR_GETT_ORDERED];
    cuperm_ctr_gett_default_orders(p, base);
    for (int g = 0; g < CTR_GETT_ORDERED; ++g) {
        alt[g] = other_candidate(g, base[g]);
        if (same_order(p, g, base[g], alt[g])) alt[g] = base[g]; /* one candidate: keep the rule's name */
        by[g] = base[g];
    }
    double best = cuperm_ctr_gett_order_cost(p, base, readC);
    for (int mask = 1; mask < 1 << CTR_GETT_ORDERED; ++mask) {
        int c[CTR_GETT_ORDERED], differs = 0;
        for (int g = 0; g < CTR_GETT_ORDERED; ++g) {
            c[g] = mask >> g & 1 ? alt[g] : base[g];
            differs |= c[g] != base[g];
        }
        if (!differs) continue;
        const double cost = cuperm_ctr_gett_order_cost(p, c, readC);
        if (cost < best) { /* strictly cheaper: ties keep the rule (then fewer changes, by mask order) */
            best = cost;
            for (int g = 0; g < CTR_GETT_ORDERED; ++g) by[g] = c[g];
        }
    }
}

int cuperm_ctr_gett_orders_describe(const int by[CTR_GETT_ORDERED], char* buf, size_t size)
{
    return snprintf(buf, size, "M by %s, N by %s, K by %s", cuperm_ctr_operand_name(by[M]),
                    cuperm_ctr_operand_name(by[N]), cuperm_ctr_operand_name(by[K]));
}
