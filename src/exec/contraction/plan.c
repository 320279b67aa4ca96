/* Planning a contraction (problem, layout by model or measurement, steps) and running its steps. */
#include <math.h>
#include <string.h>

#include "exec/contraction/measure.h"
#include "exec/contraction/plan.h"
#include "core/error.h"
#include "plan/contraction/gett.h"
#include "plan/contraction/gett_cost.h"
#include "plan/contraction/gett_dtile.h"

/* ---- the cost model on a real device ----------------------------------------- */

/* The transpose model's time, times the tuning's factor per octave that a shared fastest run lies
 * below 256 bytes (cuperm_ctr_transpose_shared_run_bytes): rows of a few dozen bytes, which the
 * model prices like long ones. */
static double predict_transpose(void* ctx, const cuperm_ctr_transpose_t* t)
{
    const cuperm_handle_t* h = ctx;
    const double s = cuperm_transpose_predict(ctx, t->rank, t->extents, t->perm, t->type, t->inStrides, t->outStrides);
    const double w = h->ctrRawTransposePrices ? 0.0 : h->tuning->ctr_short_run_octave;
    const double run = cuperm_ctr_transpose_shared_run_bytes(t);
    if (!(s >= 0) || !(w > 0) || !(run > 0) || run >= 256.0) return s;
    return s * exp(w * log2(256.0 / run));
}

/* The contraction cost model for the handle's device: its architecture's tuning table, scaled by
 * its SM count and its own memory bandwidth. */
cuperm_ctr_cost_model_t cuperm_ctr_device_model(cuperm_handle_t* h)
{
    const cuperm_device_info_t* d = &h->dev;
    const cuperm_tuning_t* t = h->tuning;
    cuperm_ctr_cost_model_t m;
    memset(&m, 0, sizeof m);
    m.transpose_seconds = predict_transpose;
    m.ctx = h;
    m.bandwidth = t->copy_efficiency * (d->dram_bytes_per_second > 0 ? d->dram_bytes_per_second : 2e12);
    m.scratch = NULL;
    for (int i = 0; i < CUPERM_RATES; ++i) m.gemmFlops[i] = (d->sm_count > 0 ? d->sm_count : 1) * t->gemm_flops_per_sm[i];
    for (int i = 0; i < CUPERM_RATES; ++i) m.batchKSeconds[i] = t->gemm_batch_k_seconds[i];
    m.smCount = d->sm_count > 0 ? d->sm_count : 1;
    cuperm_transpose_predict_floor(h, &m.transposeFloorT0, &m.transposeFloorRate);
    m.denseWorkspace = h->ctrDenseWorkspace;
    m.zeroKind = h->ctrZeroKind;
    m.zeroRowSeconds = t->memset2d_row_seconds;
    return m;
}

const cuperm_tuning_t* cuperm_ctr_gett_tuning(const cuperm_handle_t* h, cuperm_tuning_t* scratch)
{
    if (!h->ctrPackedUnpriced) return h->tuning;
    *scratch = *h->tuning;
    scratch->dtile.packedEfficiency = 0;
    return scratch;
}

/* A model plan takes GETT instead of layout l (the best TTGT layout) where a GETT model covers the
 * problem and predicts it faster: the table kernel's (plan/contraction/gett_cost.h, one wave) by
 * the tuning's margin, the D-tile kernel's (plan/contraction/gett_dtile_cost.h) by its own. */
static void choose_gett_if_faster(cuperm_handle_t* h, const cuperm_ctr_problem_t* p, cuperm_ctr_layout_t* l)
{
    double seconds;
    cuperm_tuning_t scratch;
    const int kernel = cuperm_ctr_gett_model_choice(p, l, cuperm_ctr_gett_tuning(h, &scratch), h->dev.sm_count > 0 ? h->dev.sm_count : 1,
                                                    h->dev.dram_bytes_per_second, &seconds);
    /* Last: for the tensor-core kernels it asks the CUDA runtime (cudaFuncGetAttributes), which most
     * model plans, large ones, never need. */
    if (kernel == CTR_GETT_NONE || !cuperm_ctr_gett_usable(h, p)) return;
    cuperm_ctr_gett_layout(p, kernel == CTR_GETT_DTILE || cuperm_ctr_dtile_requested(), l);
    l->gemmSeconds = seconds;
}

cupermStatus_t cuperm_ctr_plan_make(cuperm_handle_t* h, const cupermTensorDescriptor_t* A,
                                    const cupermTensorDescriptor_t* B, const cupermTensorDescriptor_t* C,
                                    const cupermTensorDescriptor_t* D, cupermComputeType_t compute,
                                    cupermPlanMode_t mode, cupermContractionAlgo_t algo,
                                    cuperm_contraction_plan_t* c)
{
    if (mode != CUPERM_PLAN_MODEL && mode != CUPERM_PLAN_MEASURE)
        return cuperm_fail_in("cupermPlanContraction", CUPERM_STATUS_INVALID_VALUE, "mode %d is not a cupermPlanMode_t (MODEL or MEASURE)",
                        (int)mode);
    cupermStatus_t st = cuperm_ctr_problem_init(&c->problem, A, B, C, D, compute);
    if (!st) st = cuperm_ctr_state_get(h, &c->state);
    if (st) return st;
    c->handle = h;
    c->device = h->dev.ordinal;
    c->algo = algo;
    if (algo == CUPERM_ALGO_GETT) {
        /* One GETT plan per problem: nothing to choose, nothing to cache. */
        if ((st = cuperm_ctr_gett_check(h, &c->problem))) return st;
        c->measured = 0;
        cuperm_ctr_gett_layout(&c->problem, cuperm_ctr_dtile_requested(), &c->layout);
    } else {
        c->measured = mode == CUPERM_PLAN_MEASURE;
        if (!cuperm_ctr_state_lookup(c->state, &c->problem, c->measured, algo, &c->layout, &c->measuredSeconds)) {
            cuperm_ctr_cost_model_t model = cuperm_ctr_device_model(h);
            model.scratch = cuperm_ctr_scratch_take(c->state);
            if (c->measured)
                st = cuperm_ctr_measure_choose(c, &model, algo == CUPERM_ALGO_DEFAULT);
            else if (algo == CUPERM_ALGO_DEFAULT && h->gettForced && cuperm_ctr_gett_usable(h, &c->problem))
                cuperm_ctr_gett_layout(&c->problem, cuperm_ctr_dtile_requested(), &c->layout); /* CUPERM_GETT=1 */
            else if ((st = cuperm_ctr_layout_choose(&c->problem, &model, &c->layout)) == CUPERM_STATUS_SUCCESS &&
                     algo == CUPERM_ALGO_DEFAULT)
                choose_gett_if_faster(h, &c->problem, &c->layout);
            cuperm_ctr_scratch_release(c->state, model.scratch);
            if (st) return st;
            cuperm_ctr_state_insert(c->state, &c->problem, c->measured, algo, &c->layout, c->measuredSeconds);
        }
    }
    if ((st = cuperm_ctr_plan_build(c))) return st;
    cuperm_handle_retain(h);
    return CUPERM_STATUS_SUCCESS;
}

/* alpha/beta as {re, im}: double for R_64F D, complex for C types, float otherwise. */
static void read_scalar(cupermDataType_t cd, const void* s, double v[2])
{
    v[1] = 0.0;
    switch (cd) {
    case CUPERM_R_64F: memcpy(v, s, 8); break;
    case CUPERM_C_64F: memcpy(v, s, 16); break;
    case CUPERM_C_32F: {
        float f[2];
        memcpy(f, s, 8);
        v[0] = f[0];
        v[1] = f[1];
        break;
    }
    default: {
        float f;
        memcpy(&f, s, 4);
        v[0] = f;
    }
    }
}

int cuperm_ctr_plan_scalars(const cuperm_contraction_plan_t* plan, const void* alpha, const void* beta, double a[2],
                            double b[2])
{
    const cupermDataType_t cd = plan->problem.op[CTR_D].type;
    read_scalar(cd, alpha, a);
    read_scalar(cd, beta, b);
    const int betaZero = b[0] == 0.0 && b[1] == 0.0;
    /* Negations of operands were folded into the scalars at plan time. A zero beta stays +0:
     * cuBLAS skips reading its output only for beta == +0 (a -0 once let NaNs of a
     * poisoned D through in a complex GEMM). */
    for (int i = 0; i < 2; ++i) {
        a[i] *= plan->layout.ops.alphaSign;
        b[i] = betaZero ? 0.0 : b[i] * plan->layout.ops.betaSign;
    }
    return betaZero;
}

cupermStatus_t cuperm_ctr_plan_run(const cuperm_contraction_plan_t* plan, const double alpha[2], const void* A,
                                   const void* B, const double beta[2], const void* C, void* D, char* ws,
                                   cudaStream_t stream)
{
    cuperm_run_args_t args = {{A, B, C, D}, ws, {alpha[0], alpha[1]}, {beta[0], beta[1]},
                              beta[0] == 0.0 && beta[1] == 0.0, stream};
    return cuperm_steps_run(plan->steps, plan->stepCount, plan, &args);
}
