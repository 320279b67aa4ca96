#include "contraction/ctr_random.h"

#include <stdio.h>
#include <string.h>

/* Strides for a tensor stored in a random dimension order, each with random padding. */
static void draw_strides(rng_t* r, int rank, const int64_t* extents, int64_t* strides)
{
    int order[CUPERM_MAX_RANK];
    for (int i = 0; i < rank; ++i) order[i] = i;
    if (rng_range(r, 0, 2) == 0) rng_permutation(r, rank, order); /* else: column-major */
    int64_t next = 1;
    for (int i = 0; i < rank; ++i) {
        const int d = order[i];
        strides[d] = next;
        int64_t span = extents[d] * next;
        if (rng_range(r, 0, 3) == 0) span += rng_range(r, 1, 3) * next; /* padding */
        next = span;
    }
}

/* A sub-tensor view: strides of a larger tensor (each extent grown by 0..3, random memory
 * order, padding), and the element offset of the view's origin inside it. */
static int64_t draw_view(rng_t* r, int rank, const int64_t* extents, int64_t* strides)
{
    int64_t big[CUPERM_MAX_RANK];
    for (int i = 0; i < rank; ++i) big[i] = extents[i] + (rng_range(r, 0, 1) ? rng_range(r, 1, 3) : 0);
    draw_strides(r, rank, big, strides);
    int64_t origin = 0;
    for (int i = 0; i < rank; ++i) origin += rng_range(r, 0, big[i] - extents[i]) * strides[i];
    return origin;
}

/* Stride 0 on one or more random modes (a broadcast operand). */
static void draw_broadcast(rng_t* r, int rank, int64_t* strides)
{
    if (rank == 0) return;
    const int n = (int)rng_range(r, 1, rank > 1 ? rank - 1 : 1);
    for (int i = 0; i < n; ++i) strides[rng_range(r, 0, rank - 1)] = 0;
}

/* 1, a small prime, 1..16, or (1 in 20) up to maxExtent. */
static int64_t fuzz_extent(rng_t* r, int64_t maxExtent)
{
    static const int64_t primes[] = {2, 3, 5, 7, 11, 13};
    const int64_t kind = rng_range(r, 0, 19);
    int64_t e;
    if (kind < 4) e = 1;
    else if (kind < 13) e = primes[rng_range(r, 0, 5)];
    else if (kind < 19) e = rng_range(r, 1, 16);
    else e = rng_range(r, 1, maxExtent);
    return e < maxExtent ? e : maxExtent;
}

void ctr_random_draw(rng_t* r, const ctr_random_options* o, ctr_random_case* c)
{
    const int minRank = o->minRank;
    int nM, nN, nK, nL;
    do {
        nM = (int)rng_range(r, 0, 3);
        nN = (int)rng_range(r, 0, 3);
        nK = (int)rng_range(r, 0, 3);
        nL = (int)rng_range(r, 0, 2);
    } while (nM + nK + nL > o->maxRank || nN + nK + nL > o->maxRank || nM + nN + nL > o->maxRank ||
             nM + nK + nL == 0 || nN + nK + nL == 0 || nM + nN + nL == 0 || nM + nK + nL < minRank ||
             nN + nK + nL < minRank || nM + nN + nL < minRank);
    const int total = nM + nN + nK + nL;
    int32_t label[4 * CUPERM_MAX_RANK];
    int64_t extent[4 * CUPERM_MAX_RANK];
    for (int i = 0; i < total; ++i) label[i] = (int32_t)(rng_range(r, 0, 9) * 16 + i); /* distinct */
    if (o->fuzzExtents) {
        for (int i = 0; i < total; ++i) extent[i] = fuzz_extent(r, o->maxExtent);
        for (;;) {
            int big = 0;
            c->work = 1;
            for (int i = 0; i < total; ++i) {
                c->work *= (double)extent[i];
                if (extent[i] > extent[big]) big = i;
            }
            if (c->work <= o->maxWork || extent[big] == 1) break;
            extent[big] = rng_range(r, 1, extent[big] / 2);
        }
    } else {
        do {
            c->work = 1;
            for (int i = 0; i < total; ++i) {
                extent[i] = rng_range(r, 1, o->maxExtent);
                c->work *= (double)extent[i];
            }
        } while (c->work > o->maxWork);
    }
    memset(c->offset, 0, sizeof c->offset);
    /* Label index ranges: M [0,nM), N [nM, nM+nN), K next, L last. */
    const int m0 = 0, n0 = nM, k0 = nM + nN, l0 = nM + nN + nK;
    int idx[3][4 * CUPERM_MAX_RANK], rank[3] = {0, 0, 0};
    for (int i = 0; i < total; ++i) {
        const int inA = (i >= m0 && i < n0) || i >= k0;
        const int inB = i >= n0;
        const int inD = i < k0 || i >= l0;
        if (inA) idx[0][rank[0]++] = i;
        if (inB) idx[1][rank[1]++] = i;
        if (inD) idx[2][rank[2]++] = i;
    }
    static const int slot[3] = {0, 1, 3};
    for (int t = 0; t < 3; ++t) {
        int perm[4 * CUPERM_MAX_RANK];
        rng_permutation(r, rank[t], perm);
        const int s = slot[t];
        for (int i = 0; i < rank[t]; ++i) {
            c->modes[s][i] = label[idx[t][perm[i]]];
            c->extents[s][i] = extent[idx[t][perm[i]]];
        }
        if (o->viewPct && rng_range(r, 0, 99) < o->viewPct)
            c->offset[s] = draw_view(r, rank[t], c->extents[s], c->strides[s]);
        else
            draw_strides(r, rank[t], c->extents[s], c->strides[s]);
        if (s < 2 && o->broadcastPct && rng_range(r, 0, 99) < o->broadcastPct)
            draw_broadcast(r, rank[t], c->strides[s]);
    }
    memcpy(c->modes[2], c->modes[3], sizeof c->modes[3]);
    memcpy(c->extents[2], c->extents[3], sizeof c->extents[3]);
    if (o->cAliasD) {
        memcpy(c->strides[2], c->strides[3], sizeof c->strides[3]);
        c->offset[2] = c->offset[3];
    } else {
        if (o->viewPct && rng_range(r, 0, 99) < o->viewPct)
            c->offset[2] = draw_view(r, rank[2], c->extents[2], c->strides[2]);
        else
            draw_strides(r, rank[2], c->extents[2], c->strides[2]);
        if (o->broadcastPct && rng_range(r, 0, 99) < o->broadcastPct) draw_broadcast(r, rank[2], c->strides[2]);
    }
    const int ranks[4] = {rank[0], rank[1], rank[2], rank[2]};
    for (int s = 0; s < 4; ++s) {
        memset(&c->desc[s], 0, sizeof c->desc[s]);
        c->desc[s].rank = ranks[s];
        c->desc[s].modes = c->modes[s];
        c->desc[s].extents = c->extents[s];
        c->desc[s].strides = c->strides[s];
        c->desc[s].type = CUPERM_R_64F;
        c->desc[s].op = CUPERM_OP_IDENTITY;
    }
}

void ctr_random_unit_modes_to(ctr_random_case* c, int64_t e)
{
    for (int w = 0; w < 4; ++w)
        for (int d = 0; d < c->desc[w].rank; ++d)
            if (c->strides[w][d] == 1)
                for (int v = 0; v < 4; ++v)
                    for (int x = 0; x < c->desc[v].rank; ++x)
                        if (c->desc[v].modes[x] == c->desc[w].modes[d]) c->extents[v][x] = e;
    for (int w = 0; w < 4; ++w) {
        const int rank = c->desc[w].rank;
        int order[CUPERM_MAX_RANK];
        for (int d = 0; d < rank; ++d) order[d] = d;
        for (int a = 1; a < rank; ++a) /* insertion sort by the old strides: the memory order */
            for (int b = a; b > 0 && c->strides[w][order[b]] < c->strides[w][order[b - 1]]; --b) {
                const int t = order[b];
                order[b] = order[b - 1], order[b - 1] = t;
            }
        int64_t dense = 1;
        for (int d = 0; d < rank; ++d) {
            if (c->strides[w][order[d]] == 0) continue; /* broadcast stays broadcast */
            c->strides[w][order[d]] = dense;
            dense *= c->extents[w][order[d]];
        }
        c->offset[w] = 0;
    }
}

void ctr_random_print(const ctr_random_case* c, char* buf, size_t size)
{
    static const char names[4] = {'A', 'B', 'C', 'D'};
    size_t n = 0;
    for (int s = 0; s < 4 && n < size; ++s) {
        const cupermTensorDescriptor_t* d = &c->desc[s];
        n += (size_t)snprintf(buf + n, size - n, "%c[", names[s]);
        for (int i = 0; i < d->rank && n < size; ++i)
            n += (size_t)snprintf(buf + n, size - n, "%s%d:%lld/%lld", i ? " " : "", (int)d->modes[i],
                                  (long long)d->extents[i], (long long)d->strides[i]);
        if (n < size) n += (size_t)snprintf(buf + n, size - n, "] op%d ", (int)d->op);
    }
}

void ctr_lettered_init(ctr_lettered* o, const char* a, const char* b, const char* d, const int64_t* ext,
                       cupermDataType_t t)
{
    const char* str[3] = {a, b, d};
    for (int w = 0; w < 3; ++w) {
        const int rank = (int)strlen(str[w]);
        for (int i = 0; i < rank; ++i) {
            o->modes[w][i] = str[w][i];
            o->extents[w][i] = ext[str[w][i] - 'a'];
        }
        o->d[w] = (cupermTensorDescriptor_t){rank, o->modes[w], o->extents[w], NULL, t, CUPERM_OP_IDENTITY, 0};
    }
}
