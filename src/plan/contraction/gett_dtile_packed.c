/* The D-tile kernel's packed path: which tiles it takes and its staging's padding (gett_dtile.h). */
#include "plan/contraction/gett_dtile.h"

#include <stdint.h>
#include <string.h>

#include "core/layout.h"

enum { M = CTR_GROUP_M, N = CTR_GROUP_N };

int cuperm_ctr_dtile_packed_tile(const cuperm_ctr_problem_t* p, const cuperm_ctr_dtile_t* s)
{
    if (!s->whole[0] || !s->whole[1]) return 0;
    const int64_t volume = (int64_t)s->tm * s->tn;
    if (volume % 8) return 0;
    int order[CTR_MAX_MODES];
    const int n = cuperm_ctr_dtile_d_order(p, order);
    int64_t stride[CTR_MAX_MODES];
    cuperm_ctr_mode_keys(p, CTR_D, stride, NULL);
    int64_t side[2] = {1, 1}, dense = 1;
    for (int i = 0; i < n && dense < volume; ++i) {
        const cuperm_ctr_mode_t* m = &p->modes[order[i]];
        if (m->extent == 1) continue; /* any stride: it moves nothing */
        const int g = (int)m->group;
        if ((g != M && g != N) || stride[order[i]] != dense) return 0;
        if (dense == 1 && m->extent % 2) return 0;
        side[g] *= m->extent;
        dense *= m->extent;
    }
    return dense == volume && side[M] == s->tm && side[N] == s->tn;
}

int cuperm_ctr_dtile_packed_direct(const cuperm_ctr_problem_t* p, const cuperm_ctr_dtile_t* s, int dMFast)
{
    if (!s->whole[0] || !s->whole[1]) return 0;
    const int per = 16 / (int)cupermDataTypeSize(p->op[CTR_D].type);
    const int gy = dMFast ? M : N;
    if ((gy == M ? s->tm : s->tn) % per) return 0;
    int64_t stride[CTR_MAX_MODES];
    cuperm_ctr_mode_keys(p, CTR_D, stride, NULL);
    const int64_t side[2] = {s->tm, s->tn};
    int64_t reach = 0; /* the largest offset inside a tile */
    for (int g = M; g <= N; ++g) {
        int order[CTR_MAX_MODES];
        const int n = cuperm_ctr_gett_group_order(p, g, CTR_D, order);
        int64_t left = side[g], dense = 1; /* the Y side's dense run from its first element */
        for (int i = 0; i < n; ++i) {
            const cuperm_ctr_mode_t* m = &p->modes[order[i]];
            const int64_t st = stride[order[i]];
            if (left > 1) { /* a tile mode (whole: the tile's side is its leading modes' product) */
                left /= m->extent;
                reach += (m->extent - 1) * st;
                if (g == gy && st == dense) {
                    dense *= m->extent;
                    continue;
                }
            }
            /* rows, a tile's place and the Y modes past the dense run: multiples of a piece */
            if (m->extent > 1 && st % per) return 0;
        }
        if (g == gy && dense % per) return 0; /* 16-byte pieces inside the dense run */
    }
    for (int i = 0; i < p->nmodes; ++i) /* the batch's place */
        if (p->modes[i].group == CTR_GROUP_L && p->modes[i].extent > 1 && stride[i] % per) return 0;
    return reach <= INT32_MAX; /* places in a tile: int */
}

/* Shared-memory wavefronts of one store instruction: lane i stores bytes [at[i], at[i] + width)
 * (at[i] < 0: inactive); 8-byte stores go a half-warp at a time. *least: what they could be (one
 * a half-warp, or warp, that stores anything), added. */
static int wavefronts(const int at[32], int width, int* least)
{
    const int lanesPer = width == 8 ? 16 : 32;
    int total = 0;
    for (int h = 0; h < 32; h += lanesPer) {
        int words[32][32], count[32] = {0}, worst = 0;
        for (int i = h; i < h + lanesPer; ++i) {
            if (at[i] < 0) continue;
            for (int w = at[i] / 4; w < (at[i] + width) / 4; ++w) {
                const int bank = w % 32;
                int seen = 0;
                for (int j = 0; j < count[bank] && !seen; ++j) seen = words[bank][j] == w;
                if (!seen) words[bank][count[bank]++] = w;
                if (count[bank] > worst) worst = count[bank];
            }
        }
        total += worst;
        *least += worst > 0;
    }
    return total;
}

/* The first warp's pair stores under one padding: their wavefronts, and the least they can be. */
static int warp_cost(int tx, int ty, const int* stageX, const int* stageY, int elemBytes, int shift, int pad, int* best)
{
    int wx, wy;
    const int ny = cuperm_ctr_dtile_ny(tx, ty, &wx, &wy), mx = CTR_DTILE_WARP_FRAGMENTS / ny;
    int cost = 0;
    *best = 0;
    for (int i = 0; i < mx; ++i)
        for (int h = 0; h < 2; ++h)
            for (int j = 0; j < ny; ++j) {
                int at[32];
                for (int lane = 0; lane < 32; ++lane) {
                    const int x = i * 16 + lane / 4 + 8 * h, y = j * 8 + 2 * (lane % 4);
                    at[lane] = x < tx && y < ty ? cuperm_ctr_dtile_stage_at(stageX[x] + stageY[y], shift, pad) * elemBytes : -1;
                }
                cost += wavefronts(at, 2 * elemBytes, best);
            }
    return cost;
}

void cuperm_ctr_dtile_stage_choose(int tx, int ty, const int* stageX, const int* stageY, int elemBytes,
                                   cuperm_ctr_dtile_stage_t* out)
{
    /* No padding first; then 16 or 32 bytes after every 2^5 .. 2^10 elements, less memory first. */
    memset(out, 0, sizeof *out);
    out->shift = 30;
    out->cost = warp_cost(tx, ty, stageX, stageY, elemBytes, 30, 0, &out->best);
    const int unit = 16 / elemBytes;
    for (int pad = unit; pad <= 2 * unit && out->cost > out->best; pad += unit)
        for (int shift = 10; shift >= 5 && out->cost > out->best; --shift) {
            int best;
            const int cost = warp_cost(tx, ty, stageX, stageY, elemBytes, shift, pad, &best);
            if (cost < out->cost) out->shift = shift, out->pad = pad, out->cost = cost;
        }
}

int cuperm_ctr_dtile_direct_pieces(int tx, int ty, const int32_t* stageX, const int32_t* stageY, int per)
{
    if (per < 1 || 8 % per || ty % per) return 0;
    for (int x = 0; x < tx; ++x)
        if (stageX[x] % per) return 0;
    for (int y = 0; y < ty; ++y)
        if (stageY[y - y % per] % per || stageY[y] != stageY[y - y % per] + y % per) return 0;
    return 1;
}

int cuperm_ctr_dtile_packed_tables(const int64_t* dX, const int64_t* dY, const int64_t* dL, int xTile, int yTile,
                                   int rowsX, int rowsY, int tilesX, int tilesY, int64_t batch, int outerX, int align,
                                   int64_t* base, int32_t* stageX, int32_t* stageY)
{
    int64_t reach[2] = {0, 0}; /* a tile's places are int */
    for (int x = 0; x < xTile; ++x) reach[0] = dX[x] > reach[0] ? dX[x] : reach[0];
    for (int y = 0; y < yTile; ++y) reach[1] = dY[y] > reach[1] ? dY[y] : reach[1];
    if (reach[0] + reach[1] > INT32_MAX) return 0;
    for (int x = 0; x < rowsX; ++x) stageX[x] = x < xTile ? (int32_t)dX[x] : -1;
    for (int y = 0; y < rowsY; ++y) stageY[y] = y < yTile ? (int32_t)dY[y] : -1;
    const int outerTiles = outerX ? tilesX : tilesY, innerTiles = outerX ? tilesY : tilesX;
    int64_t item = 0;
    for (int64_t l = 0; l < batch; ++l)
        for (int outer = 0; outer < outerTiles; ++outer)
            for (int inner = 0; inner < innerTiles; ++inner, ++item) {
                const int tx = outerX ? outer : inner, ty = outerX ? inner : outer;
                base[item] = dX[(int64_t)tx * xTile] + dY[(int64_t)ty * yTile] + (dL ? dL[l] : 0);
                if (base[item] % align) return 0;
            }
    return 1;
}
