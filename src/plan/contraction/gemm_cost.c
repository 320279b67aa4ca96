/* The GEMM half of the contraction cost model (transposes are priced by cuperm's own model). */
#include <math.h>

#include "plan/contraction/gemm_fit.h"
#include "plan/contraction/layout.h"
#include "plan/contraction/types.h"

cuperm_ctr_rate_t cuperm_ctr_gemm_rate(const cuperm_ctr_gemm_shape_t* s)
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

double cuperm_ctr_gemm_peak(const cuperm_ctr_cost_model_t* model, const cuperm_ctr_gemm_shape_t* s)
{
    return model->gemmFlops[cuperm_ctr_gemm_rate(s)];
}

/* cuBLAS fits its tiles to small dimensions (16 .. 128). */
static int64_t tile_of(int64_t x)
{
    int64_t tile = 16;
    while (tile < 128 && tile < x) tile *= 2;
    return tile;
}

/* Fraction of a tiled dimension's work that is useful: the last tile is partly empty. */
static double tile_use(int64_t x)
{
    const int64_t tile = tile_of(x), tiles = (x + tile - 1) / tile;
    return (double)x / (double)(tiles * tile);
}

/* Roofline base: flops at the peak rate derated for tiles, or bytes at bandwidth, or a floor
 * per thread block, or (batches) k steps per wave of blocks, plus a launch
 * (tools/bench/contraction_gemm_fit.py repeats this). */
static double gemm_base(const cuperm_ctr_cost_model_t* model, const cuperm_ctr_gemm_shape_t* s)
{
    const int complexType = cuperm_ctr_type_is_complex(s->abType);
    const double macs = (double)s->m * (double)s->n * (double)s->k * (double)s->batch;
    const double flops = macs * (complexType ? 8.0 : 2.0);
    /* A short inner dimension cannot hide the epilogue. */
    const double use = tile_use(s->m) * tile_use(s->n) * ((double)s->k / (double)(s->k + 16));
    const double compute = flops / (cuperm_ctr_gemm_peak(model, s) * use);
    const double ab = (double)cupermDataTypeSize(s->abType), cd = (double)cupermDataTypeSize(s->cdType);
    const double batch = (double)s->batch;
    const double bytes = ab * (double)(s->m * s->k) * (s->firstShared ? 1.0 : batch) +
                         ab * (double)(s->k * s->n) * (s->secondShared ? 1.0 : batch) +
                         cd * (double)(s->m * s->n) * batch;
    const double memory = bytes / model->bandwidth;
    /* Every output tile is a thread block that costs ~2 us however little it computes,
     * ~500 of them at once: many tiny GEMMs are bound by this, not by flops or bytes. */
    const double blocks = batch * (double)((s->m + tile_of(s->m) - 1) / tile_of(s->m)) *
                          (double)((s->n + tile_of(s->n) - 1) / tile_of(s->n));
    const double blockFloor = blocks * 2e-6 / 500.0;
    /* cuBLAS splits a long k over thread blocks for one GEMM but not for a batch (H100: m = n = 4,
     * k = 524,288 took 0.025 ms alone and 2.9 ms as a batch of 8), so each wave of a batch's
     * blocks walks all of k; few blocks and a long k make a batch latency-bound. */
    const double perK = model->batchKSeconds[cuperm_ctr_gemm_rate(s)];
    const double serial = s->batch > 1 && perK > 0 && model->smCount >= 1
                              ? ceil(blocks / model->smCount) * (double)s->k * perK
                              : 0.0;
    return 2.5e-6 + fmax(fmax(fmax(compute, memory), blockFloor), serial);
}

/* Octaves a dimension lies below a 128-wide tile (0 at 128 and above). */
static double skinny(int64_t x) { return log2(128.0 / (double)(x < 128 ? (x > 0 ? x : 1) : 128)); }

void cuperm_ctr_gemm_features(const cuperm_ctr_gemm_shape_t* s, double x[CTR_GEMM_FEATURES])
{
    const double tf = s->opFirst != 'N', ts = s->opSecond != 'N';
    const double sm = skinny(s->m), sn = skinny(s->n), sk = skinny(s->k);
    const double lb = log2((double)(s->batch > 0 ? s->batch : 1));
    const double shared = !s->pointers && (s->firstShared || s->secondShared);
    const double tiles = 20.0 - log2((double)s->m * (double)s->n);
    /* Misaligned leading dimensions or batch strides put cuBLAS on narrow-vector kernels, which
     * lose more the more the GEMM computes (octaves of GFLOP above one). */
    const double mis = s->misaligned ? 1.0 : 0.0;
    const double gflop = 2e-9 * (double)s->m * (double)s->n * (double)s->k * (double)s->batch;
    const double f[CTR_GEMM_FEATURES] = {1.0, tf, ts, tf * ts, sm, sn, sk, tf * sm, tf * sn, ts * sm, ts * sn,
                                         s->pointers ? 0.0 : lb, shared, s->pointers ? 1.0 : 0.0,
                                         s->pointers ? lb : 0.0, lb * fmax(sm, sn), fmax(0.0, tiles),
                                         mis, mis * fmax(0.0, log2(gflop > 0 ? gflop : 1.0))};
    for (int i = 0; i < CTR_GEMM_FEATURES; ++i) x[i] = f[i];
}

_Static_assert(sizeof cuperm_ctr_gemm_fit_weights[0] / sizeof(double) == CTR_GEMM_FEATURES,
               "gemm_fit.h was fitted with another feature list");

double cuperm_ctr_gemm_factor(const cuperm_ctr_gemm_shape_t* s)
{
    /* Fitted for real 16-bit inputs on tensor cores and strict real fp32; other types keep the base. */
    const cuperm_ctr_rate_t rate = cuperm_ctr_gemm_rate(s);
    const int fitted = !cuperm_ctr_type_is_complex(s->abType) && s->abType != CUPERM_R_64F &&
                       (rate == CTR_RATE_FP16 || (rate == CTR_RATE_FP32 && s->abType == CUPERM_R_32F));
    if (!fitted) return 1.0;
    const double* w = cuperm_ctr_gemm_fit_weights[rate == CTR_RATE_FP16 ? 0 : 1];
    double x[CTR_GEMM_FEATURES], e = 0.0;
    cuperm_ctr_gemm_features(s, x);
    for (int i = 0; i < CTR_GEMM_FEATURES; ++i) e += w[i] * x[i];
    /* The fit covers factors of about 0.5 .. 10: outside it, extrapolation is not trusted. */
    return exp(fmin(fmax(e, -0.7), 2.3));
}

double cuperm_ctr_gemm_seconds(const cuperm_ctr_cost_model_t* model, const cuperm_ctr_gemm_shape_t* s)
{
    const double one = gemm_base(model, s) * cuperm_ctr_gemm_factor(s);
    if (s->calls <= 1) return one;
    /* Calls issued one after another by the host: none goes faster than cuBLAS's host time. */
    return (double)s->calls * fmax(one, CTR_GEMM_CALL_SECONDS);
}
