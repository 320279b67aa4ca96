/* The GEMM half of the contraction cost model (transposes are priced by cuperm's own model). */
#include <math.h>

#include "ctr_layout.h"
#include "ctr_types.h"

ctr_rate ctr_gemm_rate(const ctr_gemm_shape* s)
{
    switch (s->compute) {
    case CUPERM_COMPUTE_64F: return CTR_RATE_FP64;
    case CUPERM_COMPUTE_32F_FAST_TF32: return CTR_RATE_TF32;
    case CUPERM_COMPUTE_16F:
    case CUPERM_COMPUTE_32F_FAST_16F:
    case CUPERM_COMPUTE_32F_FAST_16BF: return CTR_RATE_FP16;
    default:
        return (s->abType == CUPERM_R_16F || s->abType == CUPERM_R_16BF) ? CTR_RATE_FP16 : CTR_RATE_FP32;
    }
}

double ctr_gemm_peak(const ctr_cost_model* model, const ctr_gemm_shape* s)
{
    return model->gemmFlops[ctr_gemm_rate(s)];
}

/* Fraction of a tiled dimension's work that is useful: the last tile is partly empty. */
static double tile_use(int64_t x, int64_t tile)
{
    const int64_t tiles = (x + tile - 1) / tile;
    return (double)x / (double)(tiles * tile);
}

double ctr_gemm_seconds(const ctr_cost_model* model, const ctr_gemm_shape* s)
{
    const int complexType = ctr_type_is_complex(s->abType);
    const double macs = (double)s->m * (double)s->n * (double)s->k * (double)s->batch;
    const double flops = macs * (complexType ? 8.0 : 2.0);
    /* 128x128 output tiles; a short inner dimension cannot hide the epilogue. */
    const double use = tile_use(s->m, 128) * tile_use(s->n, 128) * ((double)s->k / (double)(s->k + 32));
    const double compute = flops / (ctr_gemm_peak(model, s) * use);
    const double ab = (double)cupermDataTypeSize(s->abType), cd = (double)cupermDataTypeSize(s->cdType);
    const double bytes = (double)s->batch *
                         (ab * (double)(s->m * s->k + s->k * s->n) + 2.0 * cd * (double)(s->m * s->n));
    const double memory = bytes / model->bandwidth;
    const double launch = 4e-6;
    return launch + fmax(compute, memory);
}
