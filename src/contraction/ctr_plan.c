/* cupermPlanContraction and the plan's accessors. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctr_error.h"
#include "ctr_measure.h"
#include "ctr_plan.h"
#include "ctr_types.h"
#include "host/errors.h"
#include "runtime/objects.h"
#include "runtime/registry.h"

/* ---- the cost model on a real device ----------------------------------------- */

static double predict_transpose(void* ctx, const ctr_transpose* t)
{
    return cuperm_transpose_predict(ctx, t->rank, t->extents, t->perm, t->type, t->inStrides, t->outStrides);
}

/* Dense peak rates of an H100 SXM (132 SMs) and an A100 (108 SMs), scaled by SM count. */
static ctr_cost_model device_model(cuperm_handle_t* h)
{
    static const double hopper[4] = {67e12, 67e12, 495e12, 989e12};
    static const double ampere[4] = {19.5e12, 19.5e12, 156e12, 312e12};
    const cuperm_device_info_t* d = &h->dev;
    const int isHopper = d->cc_major >= 9;
    const double scale = d->sm_count > 0 ? d->sm_count / (isHopper ? 132.0 : 108.0) : 1.0;
    ctr_cost_model m;
    m.transpose_seconds = predict_transpose;
    m.ctx = h;
    /* Copies reach about 90% of the theoretical bandwidth. */
    m.bandwidth = 0.9 * (d->dram_bytes_per_second > 0 ? d->dram_bytes_per_second : 2e12);
    for (int i = 0; i < 4; ++i) m.gemmFlops[i] = scale * (isHopper ? hopper[i] : ampere[i]);
    return m;
}

/* ---- entry points ---------------------------------------------------------------- */

cupermStatus_t cupermPlanContraction(cupermHandle_t handle, cupermContractionPlan_t* plan,
                                     const cupermTensorDescriptor_t* A, const cupermTensorDescriptor_t* B,
                                     const cupermTensorDescriptor_t* C, const cupermTensorDescriptor_t* D,
                                     cupermComputeType_t compute, cupermPlanMode_t mode)
{
    if (!plan) return ctr_fail(CUPERM_STATUS_INVALID_VALUE, "plan is NULL");
    *plan = NULL;
    if (!handle) return ctr_fail(CUPERM_STATUS_INVALID_VALUE, "handle is NULL");
    cuperm_handle_t* h = cuperm_handle_resolve(handle);
    if (!h) return ctr_fail(CUPERM_STATUS_INVALID_VALUE, "handle is not a live cuperm handle (destroyed or foreign)");
    if (mode != CUPERM_PLAN_MODEL && mode != CUPERM_PLAN_MEASURE)
        return ctr_fail(CUPERM_STATUS_INVALID_VALUE, "mode %d is not a cupermPlanMode_t (MODEL or MEASURE)",
                        (int)mode);
    cuperm_contraction_plan_t* c = calloc(1, sizeof *c);
    if (!c) return ctr_fail(CUPERM_STATUS_ALLOC_FAILED, "out of host memory");
    cupermStatus_t st = ctr_problem_init(&c->problem, A, B, C, D, compute);
    if (!st) st = ctr_state_get(h, &c->state);
    if (st) {
        free(c);
        return st;
    }
    c->handle = h;
    c->device = h->dev.ordinal;
    c->measured = mode == CUPERM_PLAN_MEASURE;
    if (!ctr_state_lookup(c->state, &c->problem, c->measured, &c->layout, &c->measuredSeconds)) {
        const ctr_cost_model model = device_model(h);
        st = c->measured ? ctr_measure_choose(c, &model) : ctr_layout_choose(&c->problem, &model, &c->layout);
        if (st) {
            free(c);
            return st;
        }
        ctr_state_insert(c->state, &c->problem, c->measured, &c->layout, c->measuredSeconds);
    }
    uintptr_t token;
    if ((st = ctr_plan_build(c)) || (st = cuperm_registry_add(CUPERM_OBJ_CONTRACTION_PLAN, c, &token))) {
        free(c);
        return st;
    }
    cuperm_handle_retain(h);
    *plan = (cupermContractionPlan_t)token;
    return CUPERM_STATUS_SUCCESS;
}

cupermStatus_t ctr_plan_get(cupermContractionPlan_t token, const char* fn, cuperm_contraction_plan_t** out)
{
    if (!token) return cuperm_fail(CUPERM_STATUS_INVALID_VALUE, "%s: plan is NULL", fn);
    *out = cuperm_registry_get(CUPERM_OBJ_CONTRACTION_PLAN, (uintptr_t)token);
    if (!*out)
        return cuperm_fail(CUPERM_STATUS_INVALID_VALUE, "%s: plan is not a live contraction plan "
                           "(destroyed or foreign)", fn);
    return CUPERM_STATUS_SUCCESS;
}

cupermStatus_t cupermContractionGetWorkspaceSize(cupermContractionPlan_t token, size_t* bytes)
{
    cuperm_contraction_plan_t* plan;
    cupermStatus_t st = ctr_plan_get(token, "cupermContractionGetWorkspaceSize", &plan);
    if (st) return st;
    if (!bytes) return cuperm_fail(CUPERM_STATUS_INVALID_VALUE, "cupermContractionGetWorkspaceSize: bytes is NULL");
    *bytes = plan->workspaceBytes;
    return CUPERM_STATUS_SUCCESS;
}

cupermStatus_t cupermContractionPlanDestroy(cupermContractionPlan_t token)
{
    if (!token) return cuperm_fail(CUPERM_STATUS_INVALID_VALUE, "cupermContractionPlanDestroy: plan is NULL");
    cuperm_contraction_plan_t* plan = cuperm_registry_remove(CUPERM_OBJ_CONTRACTION_PLAN, (uintptr_t)token);
    if (!plan)
        return cuperm_fail(CUPERM_STATUS_INVALID_VALUE, "cupermContractionPlanDestroy: plan is not a live "
                           "contraction plan (destroyed or foreign)");
    cuperm_handle_release(plan->handle);
    free(plan);
    return CUPERM_STATUS_SUCCESS;
}

cupermStatus_t cupermContractionPlanGetInfo(cupermContractionPlan_t token, cupermContractionInfo_t* info)
{
    cuperm_contraction_plan_t* plan;
    cupermStatus_t st = ctr_plan_get(token, "cupermContractionPlanGetInfo", &plan);
    if (st) return st;
    if (!info) return cuperm_fail(CUPERM_STATUS_INVALID_VALUE, "cupermContractionPlanGetInfo: info is NULL");
    const ctr_layout* l = &plan->layout;
    const int first = l->swapped ? CTR_B : CTR_A, second = l->swapped ? CTR_A : CTR_B;
    memset(info, 0, sizeof *info);
    info->m = l->m;
    info->n = l->n;
    info->k = l->k;
    info->batch = l->batch;
    info->calls = l->calls;
    info->swapped = l->swapped;
    info->opFirst = l->in[first].cublasOp;
    info->opSecond = l->in[second].cublasOp;
    info->transposedA = l->in[CTR_A].path != CTR_IN_DIRECT;
    info->transposedB = l->in[CTR_B].path != CTR_IN_DIRECT;
    info->transposedD = l->out != CTR_OUT_DIRECT;
    info->elementwiseKernels = (l->in[CTR_A].path == CTR_IN_ELEMENTWISE) +
                               (l->in[CTR_B].path == CTR_IN_ELEMENTWISE) +
                               (l->out == CTR_OUT_EPILOGUE) + l->inplaceOpD;
    info->flops = ctr_problem_flops(&plan->problem);
    info->predictedTransposeSeconds = l->inputSeconds + l->outputSeconds;
    info->predictedGemmSeconds = l->gemmSeconds;
    info->workspaceBytes = plan->workspaceBytes;
    info->description = plan->description;
    info->measured = plan->measured;
    info->measuredSeconds = plan->measuredSeconds;
    return CUPERM_STATUS_SUCCESS;
}
