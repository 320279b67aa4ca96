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

/* ---- the cost model on a real device ----------------------------------------- */

static double predict_transpose(void* ctx, const ctr_transpose* t)
{
    double s = -1.0;
    if (cupermPredictTransposeTime((cupermHandle_t)ctx, t->rank, t->extents, t->perm, t->type,
                                   t->inStrides, t->outStrides, &s) != CUPERM_STATUS_SUCCESS)
        return -1.0;
    return s;
}

/* Dense peak rates of an H100 SXM (132 SMs) and an A100 (108 SMs), scaled by SM count. */
static ctr_cost_model device_model(cupermHandle_t h)
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
    if (handle->magic != CUPERM_HANDLE_MAGIC)
        return ctr_fail(CUPERM_STATUS_INVALID_VALUE, "handle is not a live cuperm handle");
    if (mode != CUPERM_PLAN_MODEL && mode != CUPERM_PLAN_MEASURE)
        return ctr_fail(CUPERM_STATUS_INVALID_VALUE, "mode %d is not a cupermPlanMode_t (MODEL or MEASURE)",
                        (int)mode);
    struct cupermContractionPlan* c = calloc(1, sizeof *c);
    if (!c) return ctr_fail(CUPERM_STATUS_ALLOC_FAILED, "out of host memory");
    cupermStatus_t st = ctr_problem_init(&c->problem, A, B, C, D, compute);
    if (!st) st = ctr_state_get(handle, &c->state);
    if (st) {
        free(c);
        return st;
    }
    c->handle = handle;
    c->device = handle->dev.ordinal;
    c->measured = mode == CUPERM_PLAN_MEASURE;
    if (!ctr_state_lookup(c->state, &c->problem, c->measured, &c->layout, &c->measuredSeconds)) {
        const ctr_cost_model model = device_model(handle);
        st = c->measured ? ctr_measure_choose(c, &model) : ctr_layout_choose(&c->problem, &model, &c->layout);
        if (st) {
            free(c);
            return st;
        }
        ctr_state_insert(c->state, &c->problem, c->measured, &c->layout, c->measuredSeconds);
    }
    if ((st = ctr_plan_build(c))) {
        free(c);
        return st;
    }
    c->magic = CTR_PLAN_MAGIC;
    *plan = c;
    return CUPERM_STATUS_SUCCESS;
}

static cupermStatus_t check_plan(cupermContractionPlan_t plan, const char* fn)
{
    if (!plan) return cuperm_fail(CUPERM_STATUS_INVALID_VALUE, "%s: plan is NULL", fn);
    if (plan->magic != CTR_PLAN_MAGIC)
        return cuperm_fail(CUPERM_STATUS_INVALID_VALUE, "%s: plan is not a live contraction plan "
                           "(destroyed or foreign)", fn);
    return CUPERM_STATUS_SUCCESS;
}

cupermStatus_t cupermContractionGetWorkspaceSize(cupermContractionPlan_t plan, size_t* bytes)
{
    cupermStatus_t st = check_plan(plan, "cupermContractionGetWorkspaceSize");
    if (st) return st;
    if (!bytes) return cuperm_fail(CUPERM_STATUS_INVALID_VALUE, "cupermContractionGetWorkspaceSize: bytes is NULL");
    *bytes = plan->workspaceBytes;
    return CUPERM_STATUS_SUCCESS;
}

cupermStatus_t cupermContractionPlanDestroy(cupermContractionPlan_t plan)
{
    cupermStatus_t st = check_plan(plan, "cupermContractionPlanDestroy");
    if (st) return st;
    ctr_plan_release(plan);
    plan->magic = CTR_DEAD_MAGIC;
    free(plan);
    return CUPERM_STATUS_SUCCESS;
}

cupermStatus_t cupermContractionPlanGetInfo(cupermContractionPlan_t plan, cupermContractionInfo_t* info)
{
    cupermStatus_t st = check_plan(plan, "cupermContractionPlanGetInfo");
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
