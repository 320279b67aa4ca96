#include "plan/contraction/gett_cost.h"

#include <math.h>

#include "plan/contraction/gett.h"
#include "plan/contraction/gett_dtile_cost.h"
#include "plan/contraction/layout.h"

static int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

/* The operators whose tile pass costs transcendental arithmetic (cuperm_gett_tuning_t.opStepSeconds). */
static int costly(cupermOperator_t op)
{
    return op != CUPERM_OP_ABS && op != CUPERM_OP_RELU && op != CUPERM_OP_LEAKY_RELU;
}

double cuperm_ctr_gett_seconds(const cuperm_ctr_problem_t* p, const cuperm_tuning_t* t, double smCount)
{
    const int cudaCores = cuperm_ctr_gett_cuda_cores(p);
    const int family = !cudaCores ? CUPERM_GETT_TENSOR_CORES
                       : p->op[CTR_A].type == CUPERM_R_64F ? CUPERM_GETT_FP64
                                                          : CUPERM_GETT_FP32;
    const cuperm_gett_tuning_t* g = &t->gett[family];
    if (!(g->seconds0 > 0) || g->residentBlocks < 1) return INFINITY;
    int64_t bm, bn, bk;
    cuperm_ctr_gett_block_tile(p, &bm, &bn, &bk);
    const double blocks = (double)ceil_div(p->groupSize[CTR_GROUP_M], bm) *
                          (double)ceil_div(p->groupSize[CTR_GROUP_N], bn) * (double)p->groupSize[CTR_GROUP_L];
    if (blocks > smCount * g->residentBlocks) return INFINITY;
    const double bytes = (double)(cuperm_ctr_operand_volume(&p->op[CTR_A]) + cuperm_ctr_operand_volume(&p->op[CTR_B])) *
                             (double)cupermDataTypeSize(p->op[CTR_A].type) +
                         (double)cuperm_ctr_operand_volume(&p->op[CTR_D]) * (double)cupermDataTypeSize(p->op[CTR_D].type);
    const double steps = (double)ceil_div(p->groupSize[CTR_GROUP_K], bk);
    double seconds = g->seconds0 + steps * g->stepSeconds + bytes * g->byteSeconds;
    cuperm_ctr_folded_ops_t f;
    cuperm_ctr_fold_operators(p, &f);
    for (int w = 0; w < CTR_OPERANDS; ++w)
        if (f.op[w] != CUPERM_OP_IDENTITY) {
            if (!(g->opSeconds0 > 0)) return INFINITY; /* not measured */
            seconds += g->opSeconds0;
            break;
        }
    for (int w = CTR_A; w <= CTR_B; ++w)
        if (f.op[w] != CUPERM_OP_IDENTITY) seconds += steps * g->opStepSeconds[costly(f.op[w])];
    return seconds;
}

double cuperm_ctr_gett_skinny_seconds(const cuperm_ctr_problem_t* p, const cuperm_tuning_t* t, double smCount,
                                      double dramBytesPerSecond)
{
    const cuperm_skinny_tuning_t* s = &t->skinny;
    if (!(s->efficiency > 0) || !(dramBytesPerSecond > 0)) return INFINITY;
    int64_t runA, runD;
    int split[2], f[2];
    if (cuperm_ctr_gett_skinny_split(p, split, f)) {
        /* A's 32-byte sectors whole either way: a tile's alpha spans 16, or 8 whose other 8 the next
         * tile (alpha_hi + 1) reads while the sector is in L2 */
        runA = 2 * CTR_GETT_SKINNY_SPLIT;
        runD = f[1];
    } else {
        int by[CTR_GETT_ORDERED];
        int64_t cover[CTR_MAX_MODES];
        cuperm_ctr_gett_choose_orders(p, 0, by);
        cuperm_ctr_gett_tile_cover(p, by, cover);
        runA = cuperm_ctr_gett_tile_run(p, cover, CTR_A);
        runD = cuperm_ctr_gett_tile_run(p, cover, CTR_D);
    }
    const double m = (double)p->groupSize[CTR_GROUP_M], n = (double)p->groupSize[CTR_GROUP_N];
    const double k = (double)p->groupSize[CTR_GROUP_K], l = (double)p->groupSize[CTR_GROUP_L];
    const int eA = (int)cupermDataTypeSize(p->op[CTR_A].type), eD = (int)cupermDataTypeSize(p->op[CTR_D].type);
    const double items = (double)ceil_div(p->groupSize[CTR_GROUP_M], CTR_GETT_BM) * l;
    const double blocks = fmin(items, smCount * CTR_GETT_SKINNY_BLOCKS_PER_SM);
    const double bytes = m * k * l * cuperm_ctr_gett_sector_bytes(runA, eA) +
                         m * n * l * cuperm_ctr_gett_sector_bytes(runD, eD) + blocks * n * k * eA;
    return s->seconds0 + bytes / (dramBytesPerSecond * t->copy_efficiency * s->efficiency);
}

double cuperm_ctr_ttgt_issued_seconds(const cuperm_ctr_layout_t* l)
{
    const double calls = (double)(l->calls > 1 ? l->calls : 1);
    return l->inputSeconds + l->outputSeconds + fmax(l->gemmSeconds, calls * CTR_GEMM_CALL_SECONDS);
}

double cuperm_ctr_gett_kernel_seconds(const cuperm_ctr_problem_t* p, int dtile, const cuperm_tuning_t* t, double smCount,
                                      double dramBytesPerSecond, double* margin)
{
    if (dtile) { /* the packed path where every run takes it, else the gathering kernel */
        cuperm_ctr_dtile_t dt;
        *margin = t->dtile.margin;
        if (!cuperm_ctr_dtile_choose(p, &dt)) return INFINITY;
        const double packed = cuperm_ctr_dtile_packed_seconds(p, &dt, t, dramBytesPerSecond);
        if (isfinite(packed)) *margin = t->dtile.packedMargin;
        return isfinite(packed) ? packed : cuperm_ctr_dtile_seconds(p, &dt, t, smCount);
    }
    if (cuperm_ctr_gett_skinny(p)) { /* the GETT plan's kernel: memory-bound, priced by its bytes */
        *margin = t->skinny.margin;
        return cuperm_ctr_gett_skinny_seconds(p, t, smCount, dramBytesPerSecond);
    }
    *margin = t->gett_margin;
    return cuperm_ctr_gett_seconds(p, t, smCount);
}

int cuperm_ctr_gett_model_choice(const cuperm_ctr_problem_t* p, const cuperm_ctr_layout_t* l, const cuperm_tuning_t* t,
                                 double smCount, double dramBytesPerSecond, double* seconds)
{
    /* The one-wave table kernel competes with TTGT as issued (host floors of its calls), the skinny
     * and D-tile kernels with the layout's device time (its own price in the search). */
    *seconds = l->inputSeconds + l->outputSeconds + l->gemmSeconds;
    if (!cuperm_ctr_gett_eligible(p, NULL, 0)) return CTR_GETT_NONE;
    int kernel = CTR_GETT_NONE;
    double margin;
    const double table = cuperm_ctr_gett_kernel_seconds(p, 0, t, smCount, dramBytesPerSecond, &margin);
    if (cuperm_ctr_gett_skinny(p) ? table * margin < *seconds
                                  : cuperm_ctr_gett_preferred(table, cuperm_ctr_ttgt_issued_seconds(l), t))
        *seconds = table, kernel = CTR_GETT_TABLE;
    const double d = cuperm_ctr_gett_kernel_seconds(p, 1, t, smCount, dramBytesPerSecond, &margin);
    if (d * margin < *seconds) *seconds = d, kernel = CTR_GETT_DTILE;
    return kernel;
}

int cuperm_ctr_gett_preferred(double gettSeconds, double ttgtSeconds, const cuperm_tuning_t* t)
{
    return isfinite(gettSeconds) && gettSeconds * t->gett_margin < ttgtSeconds;
}
