/* Transpose entry points: plan, predict, execute, inspect, destroy. Each resolves its
 * tokens, checks its arguments, and hands the work to exec/transpose. */
#include <stdlib.h>
#include <string.h>

#include "backend/cuda/device_check.h"
#include "core/error.h"
#include "core/operators.h"
#include "core/registry.h"
#include "exec/transpose/plan.h"

#define INVALID CUPERM_STATUS_INVALID_VALUE

/* The live plan a token names (take: and unregisters it), or INVALID_VALUE. */
static cupermStatus_t find_plan(cupermPlan_t token, int take, cuperm_transpose_plan_t** out)
{
    return cuperm_registry_lookup(CUPERM_OBJ_TRANSPOSE_PLAN, (uintptr_t)token, take, NULL, "plan", "cuperm plan",
                                  (void**)out);
}

/* Copies a plan to the heap and registers it: *out is its token. */
static cupermStatus_t publish(const cuperm_transpose_plan_t* local, cupermPlan_t* out)
{
    cuperm_transpose_plan_t* p = malloc(sizeof *p);
    if (!p) return cuperm_fail(CUPERM_STATUS_ALLOC_FAILED, "plan: out of host memory");
    *p = *local;
    uintptr_t token;
    cupermStatus_t st = cuperm_registry_add(CUPERM_OBJ_TRANSPOSE_PLAN, p, &token);
    if (st) {
        free(p);
        return st;
    }
    *out = (cupermPlan_t)token;
    return CUPERM_STATUS_SUCCESS;
}

/* cuperm_transpose_plan_init (heuristic; a measured plan for the same arguments wins) or
 * cuperm_transpose_plan_make (heuristic only). */
typedef cupermStatus_t (*plan_maker_t)(cuperm_handle_t* h, cuperm_transpose_plan_t* plan, int rank,
                                       const int64_t* extents, const int* perm, cupermDataType_t type,
                                       const int64_t* in_strides, const int64_t* out_strides);

/* An entry point's output argument out (error message out_null when it is NULL), the handle a
 * token names, and a plan on the stack that make builds for the arguments. */
static cupermStatus_t local_plan(const void* out, const char* out_null, cupermHandle_t handle, plan_maker_t make,
                                 cuperm_handle_t** h, cuperm_transpose_plan_t* local, int rank,
                                 const int64_t* extents, const int* perm, cupermDataType_t type,
                                 const int64_t* inStrides, const int64_t* outStrides)
{
    if (!out) return cuperm_fail(INVALID, "%s", out_null);
    cupermStatus_t st = cuperm_handle_get(handle, h);
    if (!st) st = make(*h, local, rank, extents, perm, type, inStrides, outStrides);
    return st;
}

static const char plan_null[] = "plan is NULL (it must point to a cupermPlan_t)";

/* Both planning entry points: a plain transpose is one with the identity on its input. */
static cupermStatus_t plan_transpose(cupermHandle_t handle, cupermPlan_t* plan, int rank, const int64_t* extents,
                                     const int* perm, cupermDataType_t type, const int64_t* inStrides,
                                     const int64_t* outStrides, cupermOperator_t opIn, double opParam)
{
    cuperm_handle_t* h;
    cuperm_transpose_plan_t local;
    cupermStatus_t st = local_plan(plan, plan_null, handle, cuperm_transpose_plan_init, &h, &local, rank, extents,
                                   perm, type, inStrides, outStrides);
    if (plan) *plan = NULL; /* on every failure too */
    if (!st) st = cuperm_check_operator(type, opIn, opParam, "", "opIn");
    if (st) return st;
    local.ops.in = opIn;
    local.ops.param_in = opParam;
    return publish(&local, plan);
}

cupermStatus_t cupermPlanTranspose(cupermHandle_t handle, cupermPlan_t* plan, int rank,
                                   const int64_t* extents, const int* perm, cupermDataType_t type,
                                   const int64_t* inStrides, const int64_t* outStrides)
{
    return plan_transpose(handle, plan, rank, extents, perm, type, inStrides, outStrides, CUPERM_OP_IDENTITY, 0.0);
}

cupermStatus_t cupermPlanTransposeOp(cupermHandle_t handle, cupermPlan_t* plan, int rank, const int64_t* extents,
                                     const int* perm, cupermDataType_t type, const int64_t* inStrides,
                                     const int64_t* outStrides, cupermOperator_t opIn, double opParam)
{
    return plan_transpose(handle, plan, rank, extents, perm, type, inStrides, outStrides, opIn, opParam);
}

cupermStatus_t cupermPredictTransposeTime(cupermHandle_t handle, int rank, const int64_t* extents,
                                          const int* perm, cupermDataType_t type,
                                          const int64_t* inStrides, const int64_t* outStrides,
                                          double* seconds)
{
    cuperm_handle_t* h;
    cuperm_transpose_plan_t local;
    cupermStatus_t st = local_plan(seconds, "seconds is NULL", handle, cuperm_transpose_plan_make, &h, &local, rank,
                                   extents, perm, type, inStrides, outStrides);
    if (st) return st;
    *seconds = local.host.predicted_seconds;
    return CUPERM_STATUS_SUCCESS;
}

static int ranges_overlap(const void* a, int64_t a_bytes, const void* b, int64_t b_bytes)
{
    uintptr_t a0 = (uintptr_t)a, b0 = (uintptr_t)b;
    return a0 < b0 + (uintptr_t)b_bytes && b0 < a0 + (uintptr_t)a_bytes;
}

/* Every check an execute makes before it launches. */
static cupermStatus_t check_execute(const cuperm_transpose_plan_t* plan, const void* alpha, const void* in,
                                    const void* beta, void* out)
{
    cupermStatus_t st;
    if (!alpha) return cuperm_fail(INVALID, "alpha is NULL (it must point to a host scalar)");
    if (!beta) return cuperm_fail(INVALID, "beta is NULL (it must point to a host scalar)");
    if (!in) return cuperm_fail(INVALID, "in is NULL");
    if (!out) return cuperm_fail(INVALID, "out is NULL");
    const uintptr_t elem = (uintptr_t)plan->host.launch.elem_size;
    if ((uintptr_t)in % elem)
        return cuperm_fail(INVALID, "in = %p is not aligned to the element size (%d bytes)", in, (int)elem);
    if ((uintptr_t)out % elem)
        return cuperm_fail(INVALID, "out = %p is not aligned to the element size (%d bytes)", out,
                           (int)elem);
    if (ranges_overlap(in, plan->host.in_span_bytes, out, plan->host.out_span_bytes))
        return cuperm_fail(INVALID, "in and out overlap: transposes are out-of-place");
    st = cuperm_check_current_device(plan->device, "cupermExecute");
    if (st) return st;
    st = cuperm_check_device_pointer(in, plan->device, "cupermExecute", "in");
    if (st) return st;
    return cuperm_check_device_pointer(out, plan->device, "cupermExecute", "out");
}

cupermStatus_t cupermExecute(cupermPlan_t token, const void* alpha, const void* in, const void* beta,
                             void* out, cudaStream_t stream)
{
    cuperm_transpose_plan_t* plan;
    cupermStatus_t st = find_plan(token, 0, &plan);
    if (!st) st = check_execute(plan, alpha, in, beta, out);
    if (!st) st = cuperm_transpose_run(plan, alpha, in, beta, out, stream);
    return st;
}

cupermStatus_t cupermPlanTransposeMeasure(cupermHandle_t handle, cupermPlan_t* plan, int rank,
                                          const int64_t* extents, const int* perm,
                                          cupermDataType_t type, const int64_t* inStrides,
                                          const int64_t* outStrides, const void* in, void* out,
                                          cudaStream_t stream)
{
    cuperm_handle_t* h;
    cuperm_transpose_plan_t local;
    cupermStatus_t st = local_plan(plan, plan_null, handle, cuperm_transpose_plan_make, &h, &local, rank, extents,
                                   perm, type, inStrides, outStrides);
    if (plan) *plan = NULL; /* on every failure too */
    if (st) return st;
    const double unused_scalar[2] = {0, 0}; /* measuring moves bits: no scalars are read */
    st = check_execute(&local, unused_scalar, in, unused_scalar, out);
    if (!st) st = cuperm_transpose_plan_measure(h, &local, rank, extents, perm, type, inStrides, outStrides, in,
                                                out, stream);
    if (st) return st;
    return publish(&local, plan);
}

cupermStatus_t cupermPlanDestroy(cupermPlan_t token)
{
    cuperm_transpose_plan_t* plan;
    cupermStatus_t st = find_plan(token, 1, &plan);
    if (!st) free(plan);
    return st;
}

static const char* kernel_name(cuperm_launch_kind_t k)
{
    switch (k) {
    case CUPERM_LAUNCH_COPY: return "copy";
    case CUPERM_LAUNCH_TILED: return "tiled";
    case CUPERM_LAUNCH_ROWS: return "rows";
    case CUPERM_LAUNCH_WHOLE_DIMS: return "whole-dims";
    case CUPERM_LAUNCH_ROW_TILES: return "row-tiles";
    }
    return "?";
}

cupermStatus_t cupermPlanGetInfo(cupermPlan_t token, cupermPlanInfo_t* info)
{
    cuperm_transpose_plan_t* plan;
    cupermStatus_t st = find_plan(token, 0, &plan);
    if (st) return st;
    if (!info) return cuperm_fail(INVALID, "info is NULL");
    const cuperm_launch_t* l = plan->host.has_packed ? &plan->host.packed : &plan->host.launch;
    memset(info, 0, sizeof *info);
    info->kernel = (cupermKernel_t)l->kind;
    info->kernelName = kernel_name(l->kind);
    info->fusedRank = plan->host.fused_rank;
    info->volume = plan->host.launch.volume; /* elements of the type, packed or not */
    if (l->kind == CUPERM_LAUNCH_WHOLE_DIMS) { /* a tile of a_volume elements */
        info->tileA = l->tile.a_volume;
        info->tileB = 1;
    } else if (l->kind == CUPERM_LAUNCH_ROW_TILES) { /* rows by rows */
        info->tileA = l->tile.rt_side_a;
        info->tileB = l->tile.rt_side_b;
    } else if (l->kind != CUPERM_LAUNCH_COPY) {
        info->tileA = (int64_t)1 << l->tile.tile_a_log2;
        info->tileB = (int64_t)1 << l->tile.tile_b_log2;
    }
    info->threadsPerBlock = l->threads;
    info->blocks = l->blocks;
    info->predictedSeconds = plan->host.predicted_seconds;
    info->movedElementBytes = l->elem_size;
    info->measured = plan->measured;
    info->tuning = plan->tuning;
    return CUPERM_STATUS_SUCCESS;
}
