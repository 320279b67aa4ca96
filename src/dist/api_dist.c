/* Distributed entry points (cuperm_dist.h): tokens, argument checks, then src/dist. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/registry.h"
#include "cuperm_dist.h"
#include "dist/contraction.h"
#include "dist/plan.h"

#define INVALID CUPERM_STATUS_INVALID_VALUE

static cupermStatus_t get_plan(cupermDistPlan_t token, const char* fn, cuperm_dist_plan_t** out)
{
    if (!token) return cuperm_fail(INVALID, "%s: plan is NULL", fn);
    *out = cuperm_registry_get(CUPERM_OBJ_DIST_PLAN, (uintptr_t)token);
    if (!*out) return cuperm_fail(INVALID, "%s: plan is not a live cupermDistPlan_t (destroyed or foreign)", fn);
    return CUPERM_STATUS_SUCCESS;
}

cupermStatus_t cupermDistPlanTranspose(cupermHandle_t handle, cupermDistPlan_t* plan, const int* perm,
                                       const cupermDistTensorDescriptor_t* in, const cupermDistTensorDescriptor_t* out,
                                       const cupermDistOptions_t* options, ncclComm_t comm, cudaStream_t stream)
{
    if (!plan) return cuperm_fail(INVALID, "cupermDistPlanTranspose: plan is NULL (it must point to a cupermDistPlan_t)");
    *plan = NULL;
    /* A bad handle is one more local failure to agree on, not a reason to leave the others waiting. */
    cuperm_handle_t* h = NULL;
    const cupermStatus_t hst = cuperm_handle_get(handle, &h);
    cuperm_dist_plan_t* p;
    cupermStatus_t st = cuperm_dist_plan_transpose(h, hst, perm, in, out, options, comm, stream, &p);
    if (st) return st;
    uintptr_t token;
    st = cuperm_registry_add(CUPERM_OBJ_DIST_PLAN, p, &token);
    if (st) {
        cuperm_dist_plan_free(p);
        return st;
    }
    *plan = (cupermDistPlan_t)token;
    return CUPERM_STATUS_SUCCESS;
}

cupermStatus_t cupermDistGetWorkspaceSize(cupermDistPlan_t token, size_t* bytes)
{
    cuperm_dist_plan_t* p;
    cupermStatus_t st = get_plan(token, "cupermDistGetWorkspaceSize", &p);
    if (st) return st;
    if (!bytes) return cuperm_fail(INVALID, "cupermDistGetWorkspaceSize: bytes is NULL");
    *bytes = p->workspace_bytes;
    return CUPERM_STATUS_SUCCESS;
}

cupermStatus_t cupermDistPlanGetInfo(cupermDistPlan_t token, cupermDistPlanInfo_t* info)
{
    cuperm_dist_plan_t* p;
    cupermStatus_t st = get_plan(token, "cupermDistPlanGetInfo", &p);
    if (st) return st;
    if (!info) return cuperm_fail(INVALID, "cupermDistPlanGetInfo: info is NULL");
    info->variant = (cupermDistVariant_t)p->variant;
    info->chunks = p->chunks;
    info->commSize = p->comm_size;
    info->commRank = p->comm_rank;
    info->sendPeers = p->send_peers;
    info->recvPeers = p->recv_peers;
    size_t sent = 0, received = 0;
    for (int i = 0; i < p->n_pack; ++i) sent += p->pack[i].bytes;
    for (int i = 0; i < p->n_unpack; ++i) received += p->unpack[i].bytes;
    info->bytesSent = sent;
    info->bytesReceived = received;
    info->bytesLocal = p->local_bytes;
    info->workspaceBytes = p->workspace_bytes;
    info->transposes = p->n_pack + p->n_unpack + p->has_local;
    info->predictedSeconds = p->predicted_seconds;
    return CUPERM_STATUS_SUCCESS;
}

cupermStatus_t cupermDistPlanDestroy(cupermDistPlan_t token)
{
    if (!token) return cuperm_fail(INVALID, "cupermDistPlanDestroy: plan is NULL");
    cuperm_dist_plan_t* p = cuperm_registry_remove(CUPERM_OBJ_DIST_PLAN, (uintptr_t)token);
    if (!p) return cuperm_fail(INVALID, "cupermDistPlanDestroy: plan is not a live cupermDistPlan_t (destroyed or foreign)");
    cuperm_dist_plan_free(p);
    return CUPERM_STATUS_SUCCESS;
}

static int overlap(const void* a, int64_t a_bytes, const void* b, int64_t b_bytes)
{
    const uintptr_t a0 = (uintptr_t)a, b0 = (uintptr_t)b;
    return a_bytes > 0 && b_bytes > 0 && a0 < b0 + (uintptr_t)b_bytes && b0 < a0 + (uintptr_t)a_bytes;
}

static cupermStatus_t check_pointer(const char* fn, const void* ptr, int device, const char* name)
{
    struct cudaPointerAttributes at;
    cudaError_t e = cudaPointerGetAttributes(&at, ptr);
    if (e != cudaSuccess) {
        cudaGetLastError();
        return cuperm_fail(INVALID, "%s: %s = %p is not memory CUDA knows (%s)", fn, name, ptr,
                           cudaGetErrorString(e));
    }
    if (at.type == cudaMemoryTypeDevice && at.device != device)
        return cuperm_fail(INVALID, "%s: %s = %p is memory of device %d, not the plan's device %d", fn, name,
                           ptr, at.device, device);
    if (at.type == cudaMemoryTypeUnregistered)
        return cuperm_fail(INVALID, "%s: %s = %p is pageable host memory, not device memory", fn, name, ptr);
    return CUPERM_STATUS_SUCCESS;
}

cupermStatus_t cupermDistExecute(cupermDistPlan_t token, const void* alpha, const void* in, const void* beta, void* out,
                                 void* workspace, size_t workspaceBytes, cudaStream_t stream)
{
    cuperm_dist_plan_t* p;
    cupermStatus_t st = get_plan(token, "cupermDistExecute", &p);
    if (st) return st;
    if (!alpha) return cuperm_fail(INVALID, "cupermDistExecute: alpha is NULL (it must point to a host scalar)");
    if (!beta) return cuperm_fail(INVALID, "cupermDistExecute: beta is NULL (it must point to a host scalar)");
    if (p->in_volume && !in) return cuperm_fail(INVALID, "cupermDistExecute: in is NULL but this rank's input block is not empty");
    if (p->out_volume && !out) return cuperm_fail(INVALID, "cupermDistExecute: out is NULL but this rank's output block is not empty");
    const uintptr_t elem = (uintptr_t)p->elem_size;
    if ((uintptr_t)in % elem || (uintptr_t)out % elem)
        return cuperm_fail(INVALID, "cupermDistExecute: in = %p or out = %p is not aligned to the element size (%d bytes)",
                           in, (void*)out, (int)elem);
    if (overlap(in, p->in_span * (int64_t)elem, out, p->out_span * (int64_t)elem))
        return cuperm_fail(INVALID, "cupermDistExecute: in and out overlap: redistributions are out-of-place");
    if (workspace && workspaceBytes < p->workspace_bytes)
        return cuperm_fail(INVALID, "cupermDistExecute: workspaceBytes = %zu is less than the plan needs (%zu, "
                           "cupermDistGetWorkspaceSize)", workspaceBytes, p->workspace_bytes);
    if (workspace && (uintptr_t)workspace % 256)
        return cuperm_fail(INVALID, "cupermDistExecute: workspace = %p is not 256-byte aligned", workspace);
    int cur = -1;
    cudaError_t e = cudaGetDevice(&cur);
    if (e != cudaSuccess || cur != p->device)
        return cuperm_fail(INVALID, "cupermDistExecute: the current device (%d) is not the plan's device %d", cur,
                           p->device);
    if (in && p->in_volume && (st = check_pointer("cupermDistExecute", in, p->device, "in"))) return st;
    if (out && p->out_volume && (st = check_pointer("cupermDistExecute", out, p->device, "out"))) return st;
    void* ws = workspace;
    if (!ws && p->workspace_bytes) {
        e = cudaMallocAsync(&ws, p->workspace_bytes, stream);
        if (e != cudaSuccess)
            return cuperm_fail(CUPERM_STATUS_ALLOC_FAILED, "cupermDistExecute: workspace of %zu bytes: %s",
                               p->workspace_bytes, cudaGetErrorString(e));
    }
    st = cuperm_dist_run(p, alpha, in, beta, out, ws, stream);
    if (ws && !workspace) {
        e = cudaFreeAsync(ws, stream);
        if (e != cudaSuccess && !st) st = cuperm_fail(CUPERM_STATUS_CUDA_ERROR, "cupermDistExecute: cudaFreeAsync: %s",
                                                      cudaGetErrorString(e));
    }
    return st;
}

/* ---- distributed contractions -------------------------------------------- */

static cupermStatus_t get_ctr_plan(cupermDistContractionPlan_t token, const char* fn, cuperm_dist_ctr_plan_t** out)
{
    if (!token) return cuperm_fail(INVALID, "%s: plan is NULL", fn);
    *out = cuperm_registry_get(CUPERM_OBJ_DIST_CONTRACTION_PLAN, (uintptr_t)token);
    if (!*out)
        return cuperm_fail(INVALID, "%s: plan is not a live cupermDistContractionPlan_t (destroyed or foreign)", fn);
    return CUPERM_STATUS_SUCCESS;
}

cupermStatus_t cupermDistPlanContraction(cupermHandle_t handle, cupermDistContractionPlan_t* plan,
                                         const cupermDistTensorDescriptor_t* A, const int32_t* modesA,
                                         const cupermDistTensorDescriptor_t* B, const int32_t* modesB,
                                         const cupermDistTensorDescriptor_t* D, const int32_t* modesD,
                                         cupermComputeType_t compute, ncclComm_t comm, cudaStream_t stream)
{
    if (!plan)
        return cuperm_fail(INVALID, "cupermDistPlanContraction: plan is NULL (it must point to a "
                           "cupermDistContractionPlan_t)");
    *plan = NULL;
    cuperm_handle_t* h = NULL;
    const cupermStatus_t hst = cuperm_handle_get(handle, &h);
    cuperm_dist_ctr_plan_t* p;
    cupermStatus_t st = cuperm_dist_plan_contraction(h, hst, A, modesA, B, modesB, D, modesD, compute, comm, stream, &p);
    if (st) return st;
    uintptr_t token;
    if ((st = cuperm_registry_add(CUPERM_OBJ_DIST_CONTRACTION_PLAN, p, &token))) {
        cuperm_dist_ctr_plan_free(p);
        return st;
    }
    *plan = (cupermDistContractionPlan_t)token;
    return CUPERM_STATUS_SUCCESS;
}

cupermStatus_t cupermDistContractionGetWorkspaceSize(cupermDistContractionPlan_t token, size_t* bytes)
{
    cuperm_dist_ctr_plan_t* p;
    cupermStatus_t st = get_ctr_plan(token, "cupermDistContractionGetWorkspaceSize", &p);
    if (st) return st;
    if (!bytes) return cuperm_fail(INVALID, "cupermDistContractionGetWorkspaceSize: bytes is NULL");
    *bytes = p->workspace_bytes;
    return CUPERM_STATUS_SUCCESS;
}

cupermStatus_t cupermDistContractionPlanGetInfo(cupermDistContractionPlan_t token, cupermDistContractionInfo_t* info)
{
    cuperm_dist_ctr_plan_t* p;
    cupermStatus_t st = get_ctr_plan(token, "cupermDistContractionPlanGetInfo", &p);
    if (st) return st;
    if (!info) return cuperm_fail(INVALID, "cupermDistContractionPlanGetInfo: info is NULL");
    memset(info, 0, sizeof *info);
    info->commSize = p->comm_size;
    info->commRank = p->comm_rank;
    info->bytesReceivedA = p->recv_bytes[0];
    info->bytesReceivedB = p->recv_bytes[1];
    info->inPlaceA = p->in_place[0];
    info->inPlaceB = p->in_place[1];
    if (p->has_local) {
        info->m = p->ctr.layout.m;
        info->n = p->ctr.layout.n;
        info->k = p->ctr.layout.k;
        info->batch = p->ctr.layout.batch;
    }
    info->workspaceBytes = p->workspace_bytes;
    return CUPERM_STATUS_SUCCESS;
}

cupermStatus_t cupermDistContractionPlanDestroy(cupermDistContractionPlan_t token)
{
    if (!token) return cuperm_fail(INVALID, "cupermDistContractionPlanDestroy: plan is NULL");
    cuperm_dist_ctr_plan_t* p = cuperm_registry_remove(CUPERM_OBJ_DIST_CONTRACTION_PLAN, (uintptr_t)token);
    if (!p)
        return cuperm_fail(INVALID, "cupermDistContractionPlanDestroy: plan is not a live cupermDistContractionPlan_t "
                           "(destroyed or foreign)");
    cuperm_dist_ctr_plan_free(p);
    return CUPERM_STATUS_SUCCESS;
}

cupermStatus_t cupermDistContract(cupermDistContractionPlan_t token, const void* alpha, const void* A, const void* B,
                                  const void* beta, const void* C, void* D, void* workspace, size_t workspaceBytes,
                                  cudaStream_t stream)
{
    static const char fn[] = "cupermDistContract";
    cuperm_dist_ctr_plan_t* p;
    cupermStatus_t st = get_ctr_plan(token, fn, &p);
    if (st) return st;
    if (!alpha) return cuperm_fail(INVALID, "%s: alpha is NULL (it must point to a host scalar)", fn);
    if (!beta) return cuperm_fail(INVALID, "%s: beta is NULL (it must point to a host scalar)", fn);
    double a[2], b[2];
    const int beta_zero = !p->has_local || cuperm_ctr_plan_scalars(&p->ctr, alpha, beta, a, b);
    const void* ptr[4] = {A, B, beta_zero ? NULL : C, D};
    static const char* const name[4] = {"A", "B", "C", "D"};
    const int64_t span[4] = {p->span[0], p->span[1], p->span[2], p->span[2]};
    const uintptr_t elem[4] = {cupermDataTypeSize(p->ab_type), cupermDataTypeSize(p->ab_type),
                               cupermDataTypeSize(p->cd_type), cupermDataTypeSize(p->cd_type)};
    if (span[2] && overlap(D, span[2] * (int64_t)elem[3], A, span[0] * (int64_t)elem[0]))
        return cuperm_fail(INVALID, "%s: D overlaps A", fn);
    if (span[2] && overlap(D, span[2] * (int64_t)elem[3], B, span[1] * (int64_t)elem[1]))
        return cuperm_fail(INVALID, "%s: D overlaps B", fn);
    if (workspace && workspaceBytes < p->workspace_bytes)
        return cuperm_fail(INVALID, "%s: workspaceBytes = %zu is less than the plan needs (%zu, "
                           "cupermDistContractionGetWorkspaceSize)", fn, workspaceBytes, p->workspace_bytes);
    if (workspace && (uintptr_t)workspace % 256)
        return cuperm_fail(INVALID, "%s: workspace = %p is not 256-byte aligned", fn, workspace);
    int cur = -1;
    cudaError_t e = cudaGetDevice(&cur);
    if (e != cudaSuccess || cur != p->device)
        return cuperm_fail(INVALID, "%s: the current device (%d) is not the plan's device %d", fn, cur, p->device);
    for (int i = 0; i < 4; ++i) {
        if (!span[i] || (i == 2 && beta_zero)) continue;
        if (!ptr[i]) return cuperm_fail(INVALID, "%s: %s is NULL but this rank's block is not empty", fn, name[i]);
        if ((uintptr_t)ptr[i] % elem[i])
            return cuperm_fail(INVALID, "%s: %s = %p is not aligned to its element size (%zu bytes)", fn, name[i],
                               ptr[i], (size_t)elem[i]);
        if ((st = check_pointer(fn, ptr[i], p->device, name[i]))) return st;
    }
    void* ws = workspace;
    if (!ws && p->workspace_bytes) {
        e = cudaMallocAsync(&ws, p->workspace_bytes, stream);
        if (e != cudaSuccess)
            return cuperm_fail(CUPERM_STATUS_ALLOC_FAILED, "%s: workspace of %zu bytes: %s", fn, p->workspace_bytes,
                               cudaGetErrorString(e));
    }
    st = cuperm_dist_contract_run(p, alpha, A, B, beta, beta_zero ? NULL : C, D, ws, stream);
    if (ws && !workspace) {
        e = cudaFreeAsync(ws, stream);
        if (e != cudaSuccess && !st)
            st = cuperm_fail(CUPERM_STATUS_CUDA_ERROR, "%s: cudaFreeAsync: %s", fn, cudaGetErrorString(e));
    }
    return st;
}
