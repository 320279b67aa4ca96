/* Contraction entry points: tokens, argument checks and scalars here; planning and running in
 * exec/contraction. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/cuda/device_check.h"
#include "core/error.h"
#include "core/registry.h"
#include "exec/contraction/plan.h"
#include "exec/memory.h"

#define INVALID CUPERM_STATUS_INVALID_VALUE
#define WS_ALIGN 256

/* The live plan a token names (take: and unregisters it), or INVALID_VALUE naming fn. */
static cupermStatus_t find_plan(cupermContractionPlan_t token, int take, const char* fn,
                                cuperm_contraction_plan_t** out)
{
    return cuperm_registry_lookup(CUPERM_OBJ_CONTRACTION_PLAN, (uintptr_t)token, take, fn, "plan",
                                  "contraction plan", (void**)out);
}

/* The live plan a token names and a non-NULL output argument (named what) of fn. */
static cupermStatus_t get_plan_with(cupermContractionPlan_t token, const char* fn, const void* arg, const char* what,
                                    cuperm_contraction_plan_t** out)
{
    cupermStatus_t st = find_plan(token, 0, fn, out);
    if (!st && !arg) st = cuperm_fail(INVALID, "%s: %s is NULL", fn, what);
    return st;
}

/* Both planning entry points. */
static cupermStatus_t plan_contraction(cupermHandle_t handle, cupermContractionPlan_t* plan,
                                       const cupermTensorDescriptor_t* A, const cupermTensorDescriptor_t* B,
                                       const cupermTensorDescriptor_t* C, const cupermTensorDescriptor_t* D,
                                       cupermComputeType_t compute, cupermPlanMode_t mode,
                                       cupermContractionAlgo_t algo)
{
    if (!plan) return cuperm_fail_in("cupermPlanContraction", CUPERM_STATUS_INVALID_VALUE, "plan is NULL");
    *plan = NULL;
    if (!handle) return cuperm_fail_in("cupermPlanContraction", CUPERM_STATUS_INVALID_VALUE, "handle is NULL");
    cuperm_handle_t* h = cuperm_handle_resolve(handle);
    if (!h) return cuperm_fail_in("cupermPlanContraction", CUPERM_STATUS_INVALID_VALUE, "handle is not a live cuperm handle (destroyed or foreign)");
    if (algo != CUPERM_ALGO_DEFAULT && algo != CUPERM_ALGO_TTGT && algo != CUPERM_ALGO_GETT)
        return cuperm_fail_in("cupermPlanContraction", CUPERM_STATUS_INVALID_VALUE,
                              "algo %d is not a cupermContractionAlgo_t (DEFAULT, TTGT or GETT)", (int)algo);
    cuperm_contraction_plan_t* c = calloc(1, sizeof *c);
    if (!c) return cuperm_fail_in("cupermPlanContraction", CUPERM_STATUS_ALLOC_FAILED, "out of host memory");
    cupermStatus_t st = cuperm_ctr_plan_make(h, A, B, C, D, compute, mode, algo, c);
    if (st) {
        free(c);
        return st;
    }
    uintptr_t token;
    if ((st = cuperm_registry_add(CUPERM_OBJ_CONTRACTION_PLAN, c, &token))) {
        cuperm_ctr_plan_release(c);
        cuperm_handle_release(h);
        free(c);
        return st;
    }
    *plan = (cupermContractionPlan_t)token;
    return CUPERM_STATUS_SUCCESS;
}

cupermStatus_t cupermPlanContraction(cupermHandle_t handle, cupermContractionPlan_t* plan,
                                     const cupermTensorDescriptor_t* A, const cupermTensorDescriptor_t* B,
                                     const cupermTensorDescriptor_t* C, const cupermTensorDescriptor_t* D,
                                     cupermComputeType_t compute, cupermPlanMode_t mode)
{
    return plan_contraction(handle, plan, A, B, C, D, compute, mode, CUPERM_ALGO_DEFAULT);
}

cupermStatus_t cupermPlanContractionAlgo(cupermHandle_t handle, cupermContractionPlan_t* plan,
                                         const cupermTensorDescriptor_t* A, const cupermTensorDescriptor_t* B,
                                         const cupermTensorDescriptor_t* C, const cupermTensorDescriptor_t* D,
                                         cupermComputeType_t compute, cupermPlanMode_t mode,
                                         cupermContractionAlgo_t algo)
{
    return plan_contraction(handle, plan, A, B, C, D, compute, mode, algo);
}

static int overlap(const void* a, int64_t aBytes, const void* b, int64_t bBytes)
{
    const uintptr_t a0 = (uintptr_t)a, b0 = (uintptr_t)b;
    return a0 < b0 + (uintptr_t)bBytes && b0 < a0 + (uintptr_t)aBytes;
}

/* A device pointer of the plan's device, aligned to its element size. */
static cupermStatus_t check_pointer(const void* ptr, cupermDataType_t type, int device, const char* name)
{
    const size_t elem = cupermDataTypeSize(type);
    if ((uintptr_t)ptr % elem)
        return cuperm_fail(INVALID, "cupermContract: %s = %p is not aligned to its element size (%zu bytes)", name,
                           ptr, elem);
    return cuperm_check_device_pointer(ptr, device, "cupermContract", name);
}

static cupermStatus_t check_arguments(const cuperm_contraction_plan_t* plan, const void* A, const void* B,
                                      const void* C, const void* D, const void* workspace,
                                      size_t workspaceBytes, int betaZero)
{
    if (!A) return cuperm_fail(INVALID, "cupermContract: A is NULL");
    if (!B) return cuperm_fail(INVALID, "cupermContract: B is NULL");
    if (!D) return cuperm_fail(INVALID, "cupermContract: D is NULL");
    if (!C && !betaZero) return cuperm_fail(INVALID, "cupermContract: C is NULL but beta is not zero");
    const int64_t* span = plan->spanBytes;
    if (overlap(D, span[CTR_D], A, span[CTR_A]))
        return cuperm_fail(INVALID, "cupermContract: D overlaps A (D must not overlap A or B)");
    if (overlap(D, span[CTR_D], B, span[CTR_B]))
        return cuperm_fail(INVALID, "cupermContract: D overlaps B (D must not overlap A or B)");
    if (C && C == D && !plan->cdSameLayout)
        return cuperm_fail(INVALID, "cupermContract: C equals D but their strides differ (C may alias D "
                           "only exactly)");
    if (C && C != D && overlap(C, span[CTR_C], D, span[CTR_D]))
        return cuperm_fail(INVALID, "cupermContract: C overlaps D without being D (C may alias D only "
                           "exactly)");
    if (workspace && workspaceBytes < plan->workspaceBytes)
        return cuperm_fail(INVALID, "cupermContract: workspaceBytes is %zu; the plan needs %zu "
                           "(cupermContractionGetWorkspaceSize)", workspaceBytes, plan->workspaceBytes);
    if ((uintptr_t)workspace % WS_ALIGN)
        return cuperm_fail(INVALID, "cupermContract: workspace must be %d-byte aligned", WS_ALIGN);
    cupermStatus_t st = cuperm_check_current_device(plan->device, "cupermContract");
    const cupermDataType_t ab = plan->problem.op[CTR_A].type, cd = plan->problem.op[CTR_D].type;
    if (!st) st = check_pointer(A, ab, plan->device, "A");
    if (!st) st = check_pointer(B, ab, plan->device, "B");
    if (!st && !betaZero) st = check_pointer(C, cd, plan->device, "C");
    if (!st) st = check_pointer(D, cd, plan->device, "D");
    if (!st && workspace) st = cuperm_check_device_pointer(workspace, plan->device, "cupermContract", "workspace");
    return st;
}

cupermStatus_t cupermContract(cupermContractionPlan_t token, const void* alpha, const void* A, const void* B,
                              const void* beta, const void* C, void* D, void* workspace,
                              size_t workspaceBytes, cudaStream_t stream)
{
    cuperm_contraction_plan_t* plan;
    cupermStatus_t st = find_plan(token, 0, "cupermContract", &plan);
    if (st) return st;
    if (!alpha) return cuperm_fail(INVALID, "cupermContract: alpha is NULL (it must point to a host scalar)");
    if (!beta) return cuperm_fail(INVALID, "cupermContract: beta is NULL (it must point to a host scalar)");
    double a[2], b[2];
    const int betaZero = cuperm_ctr_plan_scalars(plan, alpha, beta, a, b);
    st = check_arguments(plan, A, B, betaZero ? NULL : C, D, workspace, workspaceBytes, betaZero);
    if (st) return st;
    char* ws = workspace;
    const int ownWorkspace = !ws && plan->workspaceBytes > 0; /* most GETT plans need none */
    if (ownWorkspace) {
        cudaError_t e = cuperm_memory_alloc(plan->handle, plan->workspaceBytes, stream, (void**)&ws);
        if (e != cudaSuccess)
            return cuperm_fail(CUPERM_STATUS_ALLOC_FAILED, "cupermContract: the %zu-byte workspace from the handle's "
                               "memory pool: %s", plan->workspaceBytes, cudaGetErrorString(e));
    }
    st = cuperm_ctr_plan_run(plan, a, A, B, b, betaZero ? NULL : C, D, ws, stream);
    if (ownWorkspace) {
        cudaError_t e = cuperm_memory_free(ws, stream);
        if (!st && e != cudaSuccess)
            st = cuperm_fail(CUPERM_STATUS_CUDA_ERROR, "cupermContract: giving the workspace back failed: %s",
                             cudaGetErrorString(e));
    }
    return st;
}

cupermStatus_t cupermContractionGetWorkspaceSize(cupermContractionPlan_t token, size_t* bytes)
{
    cuperm_contraction_plan_t* plan;
    cupermStatus_t st = get_plan_with(token, "cupermContractionGetWorkspaceSize", bytes, "bytes", &plan);
    if (st) return st;
    *bytes = plan->workspaceBytes;
    return CUPERM_STATUS_SUCCESS;
}

cupermStatus_t cupermContractionPlanDestroy(cupermContractionPlan_t token)
{
    cuperm_contraction_plan_t* plan;
    cupermStatus_t st = find_plan(token, 1, "cupermContractionPlanDestroy", &plan);
    if (st) return st;
    cuperm_ctr_plan_release(plan);
    cuperm_handle_release(plan->handle);
    free(plan);
    return CUPERM_STATUS_SUCCESS;
}

cupermStatus_t cupermContractionPlanGetInfo(cupermContractionPlan_t token, cupermContractionInfo_t* info)
{
    cuperm_contraction_plan_t* plan;
    cupermStatus_t st = get_plan_with(token, "cupermContractionPlanGetInfo", info, "info", &plan);
    if (st) return st;
    const cuperm_ctr_layout_t* l = &plan->layout;
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
    if (l->kind == CTR_KIND_GETT) info->opFirst = info->opSecond = 'N'; /* no cuBLAS: A and B as they are */
    info->transposedA = l->in[CTR_A].path != CTR_IN_DIRECT;
    info->transposedB = l->in[CTR_B].path != CTR_IN_DIRECT;
    info->transposedD = l->out != CTR_OUT_DIRECT;
    info->elementwiseKernels = (l->in[CTR_A].path == CTR_IN_ELEMENTWISE) +
                               (l->in[CTR_B].path == CTR_IN_ELEMENTWISE) +
                               (l->out == CTR_OUT_EPILOGUE) + l->inplaceOpD;
    info->flops = cuperm_ctr_problem_flops(&plan->problem);
    info->predictedTransposeSeconds = l->inputSeconds + l->outputSeconds;
    info->predictedGemmSeconds = l->gemmSeconds;
    info->workspaceBytes = plan->workspaceBytes;
    info->description = cuperm_ctr_plan_description(plan);
    info->measured = plan->measured;
    info->measuredSeconds = plan->measuredSeconds;
    info->tuning = plan->handle->tuning->name;
    info->kind = plan->layout.kind == CTR_KIND_GETT ? CUPERM_CONTRACTION_GETT : CUPERM_CONTRACTION_TTGT;
    return CUPERM_STATUS_SUCCESS;
}
