/* Planning a contraction (problem, layout by model or measurement, steps) and running its steps. */
#include "exec/contraction/measure.h"
#include "exec/contraction/plan.h"
#include "core/error.h"
#include "plan/contraction/gett.h"

/* ---- the cost model on a real device ----------------------------------------- */

static double predict_transpose(void* ctx, const cuperm_ctr_transpose_t* t)
{
    return cuperm_transpose_predict(ctx, t->rank, t->extents, t->perm, t->type, t->inStrides, t->outStrides);
}

/* The contraction cost model for the handle's device: its architecture's tuning table, scaled by
 * its SM count and its own memory bandwidth. */
static cuperm_ctr_cost_model_t device_model(cuperm_handle_t* h)
{
    const cuperm_device_info_t* d = &h->dev;
    const cuperm_tuning_t* t = h->tuning;
    cuperm_ctr_cost_model_t m;
    m.transpose_seconds = predict_transpose;
    m.ctx = h;
    m.bandwidth = t->copy_efficiency * (d->dram_bytes_per_second > 0 ? d->dram_bytes_per_second : 2e12);
    for (int i = 0; i < CUPERM_RATES; ++i) m.gemmFlops[i] = (d->sm_count > 0 ? d->sm_count : 1) * t->gemm_flops_per_sm[i];
    return m;
}

cupermStatus_t cuperm_ctr_plan_make(cuperm_handle_t* h, const cupermTensorDescriptor_t* A,
                                    const cupermTensorDescriptor_t* B, const cupermTensorDescriptor_t* C,
                                    const cupermTensorDescriptor_t* D, cupermComputeType_t compute,
                                    cupermPlanMode_t mode, cuperm_contraction_plan_t* c)
{
    if (mode != CUPERM_PLAN_MODEL && mode != CUPERM_PLAN_MEASURE)
        return cuperm_fail_in("cupermPlanContraction", CUPERM_STATUS_INVALID_VALUE, "mode %d is not a cupermPlanMode_t (MODEL or MEASURE)",
                        (int)mode);
    cupermStatus_t st = cuperm_ctr_problem_init(&c->problem, A, B, C, D, compute);
    if (!st) st = cuperm_ctr_state_get(h, &c->state);
    if (st) return st;
    c->handle = h;
    c->device = h->dev.ordinal;
    c->measured = mode == CUPERM_PLAN_MEASURE;
    if (!cuperm_ctr_state_lookup(c->state, &c->problem, c->measured, &c->layout, &c->measuredSeconds)) {
        const cuperm_ctr_cost_model_t model = device_model(h);
        if (c->measured)
            st = cuperm_ctr_measure_choose(c, &model);
        else if (h->gettForced && cuperm_ctr_gett_usable(h, &c->problem))
            cuperm_ctr_gett_layout(&c->problem, &c->layout); /* CUPERM_GETT=1: GETT whenever eligible */
        else
            st = cuperm_ctr_layout_choose(&c->problem, &model, &c->layout);
        if (st) return st;
        cuperm_ctr_state_insert(c->state, &c->problem, c->measured, &c->layout, c->measuredSeconds);
    }
    if ((st = cuperm_ctr_plan_build(c))) return st;
    cuperm_handle_retain(h);
    return CUPERM_STATUS_SUCCESS;
}

cupermStatus_t cuperm_ctr_plan_run(const cuperm_contraction_plan_t* plan, const double alpha[2], const void* A,
                                   const void* B, const double beta[2], const void* C, void* D, char* ws,
                                   cudaStream_t stream)
{
    cuperm_run_args_t args = {{A, B, C, D}, ws, {alpha[0], alpha[1]}, {beta[0], beta[1]},
                              beta[0] == 0.0 && beta[1] == 0.0, stream};
    return cuperm_steps_run(plan->steps, plan->stepCount, plan, &args);
}
