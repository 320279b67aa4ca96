/* The D-tile kernel's work per block and its modelled time (see gett_dtile_cost.h). */
#include "plan/contraction/gett_dtile_cost.h"

#include <math.h>

enum { M = CTR_GROUP_M, N = CTR_GROUP_N, K = CTR_GROUP_K };

static double ceil_div(double a, double b) { return ceil(a / b); }

/* The width the kernel's launch keeps (gett_dtile.cu): the plan's run width halved until it
 * divides the tile's side along the run and the extent of its group. */
static int kept_width(int w, int64_t side, int64_t extent)
{
    while (w > 1 && (side % w || extent % w)) w /= 2;
    return w;
}

void cuperm_ctr_dtile_work(const cuperm_ctr_problem_t* p, const cuperm_ctr_dtile_t* s, double smCount,
                           cuperm_ctr_dtile_work_t* w)
{
    /* The tile's footprint: its M and N sides take their groups' modes in D's order (whole, then
     * part of the next), all of K, one batch index. */
    int64_t cover[CTR_MAX_MODES];
    for (int i = 0; i < p->nmodes; ++i) cover[i] = p->modes[i].group == CTR_GROUP_K ? p->modes[i].extent : 1;
    const int64_t side[2] = {s->tm, s->tn};
    for (int g = M; g <= N; ++g) {
        int order[CTR_MAX_MODES];
        const int n = cuperm_ctr_gett_group_order(p, g, CTR_D, order);
        int64_t left = side[g];
        for (int i = 0; i < n && left > 1; ++i) {
            const int64_t e = p->modes[order[i]].extent, c = left < e ? left : e;
            cover[order[i]] = c;
            left /= c;
        }
    }
    cuperm_ctr_gett_paths_t q;
    cuperm_ctr_gett_paths_for(p, s->by, &q);
    const int dBytes = (int)cupermDataTypeSize(p->op[CTR_D].type);
    const double k = (double)p->groupSize[K];
    /* Per operand: bytes its panel moves (rows x K elements at the footprint's sector efficiency). */
    const double panel[2] = {(double)s->tm * k * cuperm_ctr_gett_sector_bytes(cuperm_ctr_gett_tile_run(p, cover, CTR_A), 2),
                             (double)s->tn * k * cuperm_ctr_gett_sector_bytes(cuperm_ctr_gett_tile_run(p, cover, CTR_B), 2)};
    /* The kernel's sides: Y along D's runs (M when dMFast), X the other; the outer side is the one
     * with the larger padded panel (core/gett_dtile_shape.h). */
    const int gx = q.dMFast ? N : M, gy = q.dMFast ? M : N;
    const int tx = (int)side[gx], ty = (int)side[gy];
    const int outer = cuperm_ctr_dtile_outer_x(tx, ty) ? gx : gy, inner = outer == gx ? gy : gx;
    const double tiles[2] = {ceil_div((double)p->groupSize[M], (double)s->tm), ceil_div((double)p->groupSize[N], (double)s->tn)};
    const double items = tiles[M] * tiles[N] * (double)p->groupSize[CTR_GROUP_L];
    const double blocks = fmin(items, smCount * CTR_DTILE_BLOCKS_PER_SM);
    w->items = ceil_div(items, blocks);
    const double outerLoads = fmin(w->items, ceil_div(w->items, tiles[inner]) + 1);
    w->panelBytes = w->items * panel[inner] + outerLoads * panel[outer];
    /* Loads: a panel's elements over the width its runs keep (along K or along the side). */
    const int kFast[2] = {q.aKFast, q.bKFast}, vec[2] = {q.vec[CTR_A], q.vec[CTR_B]};
    double loads[2];
    for (int g = M; g <= N; ++g) {
        const int wv = kFast[g] ? kept_width(vec[g], s->kp, p->groupSize[K]) : kept_width(vec[g], side[g], p->groupSize[g]);
        loads[g] = (double)side[g] * k / wv / (32.0 * CTR_DTILE_WARPS);
    }
    w->panelLoads = w->items * loads[inner] + outerLoads * loads[outer];
    const double outputs = (double)s->tm * (double)s->tn;
    w->dBytes = w->items * outputs * cuperm_ctr_gett_sector_bytes(cuperm_ctr_gett_tile_run(p, cover, CTR_D), dBytes);
    const int wd = kept_width(q.vec[CTR_D], side[gy], p->groupSize[gy]);
    const double perStore = dBytes == 2 && wd >= 8 ? 8 : wd >= 2 ? 2 : 1; /* staged pieces, pairs, elements */
    w->dStores = w->items * outputs / perStore / (32.0 * CTR_DTILE_WARPS);
}

double cuperm_ctr_dtile_packed_seconds(const cuperm_ctr_problem_t* p, const cuperm_ctr_dtile_t* s,
                                       const cuperm_tuning_t* t, double dramBytesPerSecond)
{
    const cuperm_dtile_tuning_t* c = &t->dtile;
    if (!(c->packedEfficiency > 0) || !(dramBytesPerSecond > 0) || !cuperm_ctr_same_strides(p, CTR_C, CTR_D))
        return INFINITY;
    cuperm_ctr_gett_paths_t q;
    cuperm_ctr_gett_paths_for(p, s->by, &q);
    if (!cuperm_ctr_dtile_packed_direct(p, s, q.dMFast)) return INFINITY;
    /* the launch's limits (exec/contraction/build.c): the tiles' bases, the panels in shared memory */
    const double items = ceil_div((double)p->groupSize[M], (double)s->tm) * ceil_div((double)p->groupSize[N], (double)s->tn) *
                         (double)p->groupSize[CTR_GROUP_L];
    const int tx = q.dMFast ? s->tn : s->tm, ty = q.dMFast ? s->tm : s->tn;
    if (items > (double)CTR_DTILE_PACKED_ITEMS_MAX || cuperm_ctr_dtile_packed_smem_bytes(tx, ty, s->kp, 0) > CTR_DTILE_PACKED_SMEM_MAX)
        return INFINITY;
    const double bytes =
        (double)cuperm_ctr_operand_volume(&p->op[CTR_D]) * (double)cupermDataTypeSize(p->op[CTR_D].type) +
        2.0 * (double)(cuperm_ctr_operand_volume(&p->op[CTR_A]) + cuperm_ctr_operand_volume(&p->op[CTR_B])) *
            (double)cupermDataTypeSize(p->op[CTR_A].type);
    return c->packedSeconds0 + bytes / (dramBytesPerSecond * t->copy_efficiency * c->packedEfficiency);
}

double cuperm_ctr_dtile_seconds(const cuperm_ctr_problem_t* p, const cuperm_ctr_dtile_t* s, const cuperm_tuning_t* t,
                                double smCount)
{
    const cuperm_dtile_tuning_t* c = &t->dtile;
    if (!(c->itemSeconds > 0)) return INFINITY;
    cuperm_ctr_dtile_work_t w;
    cuperm_ctr_dtile_work(p, s, smCount, &w);
    return c->seconds0 + w.items * c->itemSeconds + w.panelBytes * c->panelByteSeconds + w.panelLoads * c->loadSeconds +
           w.dBytes * c->dByteSeconds + w.dStores * c->storeSeconds;
}
