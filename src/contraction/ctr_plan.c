/* cupermPlanContraction and the plan's accessors. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctr_error.h"
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

/* ---- sub-plans ---------------------------------------------------------------- */

static cupermStatus_t plan_transpose(cupermHandle_t h, const ctr_transpose* t, cupermPlan_t* out)
{
    return cupermPlanTranspose(h, out, t->rank, t->extents, t->perm, t->type, t->inStrides, t->outStrides);
}

/* Operator kernel over a transpose's output order: out dense, in gathered. */
static void kernel_from_transpose(const ctr_transpose* t, cupermOperator_t op, double param,
                                  ctr_ew_params* k)
{
    memset(k, 0, sizeof *k);
    k->rank = t->rank;
    k->type = t->type;
    for (int r = 0; r < t->rank; ++r) {
        k->extents[r] = t->extents[t->perm[r]];
        k->inStrides[r] = t->inStrides[t->perm[r]];
        k->outStrides[r] = t->outStrides[r];
    }
    k->opIn = op;
    k->paramIn = param;
    ctr_ew_fuse(k);
}

/* Iteration over D's dimensions, smallest D stride first, so that D is written in order. */
static void kernel_over_d(const ctr_problem* p, const int64_t* inStrides, const int64_t* cStrides,
                          ctr_ew_params* k)
{
    const ctr_operand* D = &p->op[CTR_D];
    int order[CUPERM_MAX_RANK];
    for (int i = 0; i < D->rank; ++i) order[i] = i;
    for (int i = 1; i < D->rank; ++i)
        for (int j = i; j > 0 && D->strides[order[j]] < D->strides[order[j - 1]]; --j) {
            const int s = order[j]; order[j] = order[j - 1]; order[j - 1] = s;
        }
    memset(k, 0, sizeof *k);
    k->rank = D->rank;
    k->type = D->type;
    for (int r = 0; r < D->rank; ++r) {
        const int d = order[r];
        k->extents[r] = D->extents[d];
        k->outStrides[r] = D->strides[d];
        k->inStrides[r] = inStrides[d];
        k->cStrides[r] = cStrides[d];
    }
}

static void destroy_subplans(struct cupermContractionPlan* c)
{
    cupermPlan_t* subs[4] = {&c->inputTranspose[0], &c->inputTranspose[1], &c->outputTranspose, &c->copyC};
    for (int i = 0; i < 4; ++i)
        if (*subs[i]) {
            cupermPlanDestroy(*subs[i]);
            *subs[i] = NULL;
        }
}

static cupermStatus_t build_runners(struct cupermContractionPlan* c)
{
    const ctr_problem* p = &c->problem;
    const ctr_layout* l = &c->layout;
    cupermStatus_t st;
    for (int x = 0; x < 2; ++x) {
        if (l->in[x].path == CTR_IN_DIRECT) continue;
        ctr_transpose t;
        ctr_layout_input_transpose(p, l, x, &t);
        if (l->in[x].path == CTR_IN_TRANSPOSE) {
            if ((st = plan_transpose(c->handle, &t, &c->inputTranspose[x]))) return st;
        } else {
            kernel_from_transpose(&t, l->ops.op[x], p->op[x].opParam, &c->inputKernel[x]);
        }
    }
    if (l->out != CTR_OUT_EPILOGUE) {
        ctr_transpose t;
        ctr_copy_c_to_d(p, &t);
        if ((st = plan_transpose(c->handle, &t, &c->copyC))) return st;
    }
    if (l->out == CTR_OUT_TRANSPOSE) {
        ctr_transpose t;
        ctr_layout_output_transpose(p, l, &t);
        if ((st = plan_transpose(c->handle, &t, &c->outputTranspose))) return st;
    }
    if (l->out == CTR_OUT_EPILOGUE) {
        int64_t w[CUPERM_MAX_RANK];
        ctr_layout_w_strides_for_d(p, l, w);
        kernel_over_d(p, w, p->op[CTR_C].strides, &c->epilogue);
        c->epilogue.opC = l->ops.op[CTR_C];
        c->epilogue.paramC = p->op[CTR_C].opParam;
        c->epilogue.opOut = l->ops.op[CTR_D];
        c->epilogue.paramOut = p->op[CTR_D].opParam;
        ctr_ew_fuse(&c->epilogue);
    }
    if (l->calls > 1) {
        const int first = l->swapped ? CTR_B : CTR_A, second = l->swapped ? CTR_A : CTR_B;
        ctr_ptr_params* q = &c->pointers;
        q->nLooped = l->count[CTR_ROLE_O];
        for (int i = 0; i < q->nLooped; ++i) {
            q->extents[i] = p->modes[l->order[CTR_ROLE_O][i]].extent;
            q->strides[0][i] = l->in[first].outerStride[i];
            q->strides[1][i] = l->in[second].outerStride[i];
            q->strides[2][i] = l->outerStrideD[i];
        }
        q->batch = l->batch;
        q->batchStride[0] = l->in[first].batchStride;
        q->batchStride[1] = l->in[second].batchStride;
        q->batchStride[2] = l->batchStrideD;
        q->elemBytes[0] = q->elemBytes[1] = (int64_t)cupermDataTypeSize(p->op[CTR_A].type);
        q->elemBytes[2] = (int64_t)cupermDataTypeSize(p->op[CTR_D].type);
        q->count = l->calls * l->batch;
    }
    if (l->inplaceOpD) {
        kernel_over_d(p, p->op[CTR_D].strides, p->op[CTR_D].strides, &c->opDPass);
        c->opDPass.opOut = l->ops.op[CTR_D];
        c->opDPass.paramOut = p->op[CTR_D].opParam;
        ctr_ew_fuse(&c->opDPass);
    }
    return CUPERM_STATUS_SUCCESS;
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
    if (mode != CUPERM_PLAN_MODEL)
        return ctr_fail(CUPERM_STATUS_INVALID_VALUE, "mode %d is not a cupermPlanMode_t", (int)mode);
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
    if (!ctr_state_lookup(c->state, &c->problem, &c->layout)) {
        const ctr_cost_model model = device_model(handle);
        if ((st = ctr_layout_choose(&c->problem, &model, &c->layout))) {
            free(c);
            return st;
        }
        ctr_state_insert(c->state, &c->problem, &c->layout);
    }
    if ((st = build_runners(c))) {
        destroy_subplans(c);
        free(c);
        return st;
    }
    const ctr_problem* p = &c->problem;
    c->cdSameLayout = memcmp(p->op[CTR_C].strides, p->op[CTR_D].strides,
                             sizeof(int64_t) * (size_t)p->op[CTR_D].rank) == 0;
    for (int w = 0; w < CTR_OPERANDS; ++w)
        c->spanBytes[w] = (ctr_operand_max_offset(&p->op[w]) + 1) * (int64_t)cupermDataTypeSize(p->op[w].type);
    c->workspaceBytes = c->layout.workspaceBytes + CTR_CUBLAS_WORKSPACE;
    ctr_layout_describe(p, &c->layout, c->description, sizeof c->description);
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
    destroy_subplans(plan);
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
    return CUPERM_STATUS_SUCCESS;
}
