/* Distributed entry points (cuperm_dist.h): tokens, argument checks, then src/dist. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/registry.h"
#include "cuperm_dist.h"
#include "dist/contraction.h"
#include "dist/plan.h"
#include "exec/memory.h"

#define INVALID CUPERM_STATUS_INVALID_VALUE

/* The two plan kinds' names (for messages) and destroy functions, by registry kind. */
static const char* kind_name(cuperm_obj_kind_t kind)
{
    return kind == CUPERM_OBJ_DIST_PLAN ? "cupermDistPlan_t" : "cupermDistContractionPlan_t";
}
static void free_plan(cuperm_obj_kind_t kind, void* p)
{
    if (kind == CUPERM_OBJ_DIST_PLAN) cuperm_dist_plan_free(p);
    else cuperm_dist_ctr_plan_free(p);
}

static cupermStatus_t get_obj(cuperm_obj_kind_t kind, uintptr_t token, const char* fn, void** out)
{
    return cuperm_registry_lookup(kind, token, 0, fn, "plan", kind_name(kind), out);
}

/* The plan behind token, and a non-NULL output argument (named what). */
static cupermStatus_t get_with(cuperm_obj_kind_t kind, uintptr_t token, const char* fn, const void* arg,
                               const char* what, void** p)
{
    cupermStatus_t st = get_obj(kind, token, fn, p);
    if (!st && !arg) st = cuperm_fail(INVALID, "%s: %s is NULL", fn, what);
    return st;
}

/* After a collective planning call: the plan p (or its failure st) becomes a token. */
static cupermStatus_t publish(cuperm_obj_kind_t kind, cupermStatus_t st, void* p, uintptr_t* token)
{
    if (!st && (st = cuperm_registry_add(kind, p, token))) free_plan(kind, p);
    return st;
}

static cupermStatus_t destroy(cuperm_obj_kind_t kind, uintptr_t token, const char* fn)
{
    void* p;
    cupermStatus_t st = cuperm_registry_lookup(kind, token, 1, fn, "plan", kind_name(kind), &p);
    if (!st) free_plan(kind, p);
    return st;
}

static cupermStatus_t get_plan(cupermDistPlan_t token, const char* fn, cuperm_dist_plan_t** out)
{
    return get_obj(CUPERM_OBJ_DIST_PLAN, (uintptr_t)token, fn, (void**)out);
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
    cuperm_dist_plan_t* p = NULL;
    uintptr_t token = 0;
    cupermStatus_t st = cuperm_dist_plan_transpose(h, hst, perm, in, out, options, comm, stream, &p);
    st = publish(CUPERM_OBJ_DIST_PLAN, st, p, &token); /* p is set only after the call above */
    *plan = (cupermDistPlan_t)token;
    return st;
}

cupermStatus_t cupermDistGetWorkspaceSize(cupermDistPlan_t token, size_t* bytes)
{
    cuperm_dist_plan_t* p;
    cupermStatus_t st =
        get_with(CUPERM_OBJ_DIST_PLAN, (uintptr_t)token, "cupermDistGetWorkspaceSize", bytes, "bytes", (void**)&p);
    if (!st) *bytes = p->workspace_bytes;
    return st;
}

cupermStatus_t cupermDistPlanGetInfo(cupermDistPlan_t token, cupermDistPlanInfo_t* info)
{
    cuperm_dist_plan_t* p;
    cupermStatus_t st = get_with(CUPERM_OBJ_DIST_PLAN, (uintptr_t)token, "cupermDistPlanGetInfo", info, "info", (void**)&p);
    if (st) return st;
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
    const int one = p->transport == CUPERM_DIST_TRANSPORT_PEER_STORES_ONE_KERNEL;
    info->transposes = one ? 1 : p->n_pack + p->n_unpack + p->has_local;
    info->predictedSeconds = p->predicted_seconds;
    info->transport = (cupermDistTransport_t)p->transport;
    info->windowBytes = p->window.bytes;
    info->outputBound = p->direct.out != NULL;
    info->directTransposes = !p->direct.used ? 0 : one || p->direct.has_whole ? 1 : p->direct.n + p->has_local;
    info->directWhole = p->direct.used && p->direct.has_whole;
    return CUPERM_STATUS_SUCCESS;
}

cupermStatus_t cupermDistPlanBindOutput(cupermDistPlan_t token, void* out, size_t bytes, cudaStream_t stream)
{
    cuperm_dist_plan_t* p;
    const cupermStatus_t st = get_plan(token, "cupermDistPlanBindOutput", &p);
    return st ? st : cuperm_dist_bind_output(p, out, bytes, stream);
}

cupermStatus_t cupermDistPlanDestroy(cupermDistPlan_t token)
{
    return destroy(CUPERM_OBJ_DIST_PLAN, (uintptr_t)token, "cupermDistPlanDestroy");
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

/* The caller's workspace, or (given NULL) bytes taken stream-ordered from h's memory pool
 * (exec/memory.h; the device's current pool where there is no handle). */
static cupermStatus_t ws_acquire(const char* fn, cuperm_handle_t* h, void* given, size_t bytes, cudaStream_t stream,
                                 void** ws)
{
    *ws = given;
    if (given || !bytes) return CUPERM_STATUS_SUCCESS;
    const cudaError_t e = h ? cuperm_memory_alloc(h, bytes, stream, ws) : cudaMallocAsync(ws, bytes, stream);
    if (e != cudaSuccess)
        return cuperm_fail(CUPERM_STATUS_ALLOC_FAILED, "%s: workspace of %zu bytes: %s", fn, bytes, cudaGetErrorString(e));
    return CUPERM_STATUS_SUCCESS;
}

/* Gives back what ws_acquire took (after the work enqueued on stream); st: the run's status. */
static cupermStatus_t ws_release(const char* fn, const void* given, void* ws, cupermStatus_t st, cudaStream_t stream)
{
    if (!ws || given) return st;
    const cudaError_t e = cuperm_memory_free(ws, stream);
    if (e != cudaSuccess && !st) st = cuperm_fail(CUPERM_STATUS_CUDA_ERROR, "%s: cudaFreeAsync: %s", fn, cudaGetErrorString(e));
    return st;
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
    void* ws = NULL;
    if ((st = ws_acquire("cupermDistExecute", p->handle, workspace, p->workspace_bytes, stream, &ws))) return st;
    st = cuperm_dist_execute(p, alpha, in, beta, out, ws, stream);
    return ws_release("cupermDistExecute", workspace, ws, st, stream);
}

/* ---- distributed contractions -------------------------------------------- */

static cupermStatus_t get_ctr_plan(cupermDistContractionPlan_t token, const char* fn, cuperm_dist_ctr_plan_t** out)
{
    return get_obj(CUPERM_OBJ_DIST_CONTRACTION_PLAN, (uintptr_t)token, fn, (void**)out);
}

static cupermStatus_t plan_contraction(cupermHandle_t handle, cupermDistContractionPlan_t* plan,
                                       const cupermDistTensorDescriptor_t* A, const int32_t* modesA,
                                       const cupermDistTensorDescriptor_t* B, const int32_t* modesB,
                                       const cupermDistTensorDescriptor_t* D, const int32_t* modesD,
                                       cupermComputeType_t compute, const cupermDistContractionOptions_t* options,
                                       ncclComm_t comm, cudaStream_t stream)
{
    if (!plan)
        return cuperm_fail(INVALID, "cupermDistPlanContraction: plan is NULL (it must point to a "
                           "cupermDistContractionPlan_t)");
    *plan = NULL;
    cuperm_handle_t* h = NULL;
    const cupermStatus_t hst = cuperm_handle_get(handle, &h);
    cuperm_dist_ctr_plan_t* p = NULL;
    uintptr_t token = 0;
    cupermStatus_t st =
        cuperm_dist_plan_contraction(h, hst, A, modesA, B, modesB, D, modesD, compute, options, comm, stream, &p);
    st = publish(CUPERM_OBJ_DIST_CONTRACTION_PLAN, st, p, &token); /* p is set only after the call above */
    *plan = (cupermDistContractionPlan_t)token;
    return st;
}

cupermStatus_t cupermDistPlanContraction(cupermHandle_t handle, cupermDistContractionPlan_t* plan,
                                         const cupermDistTensorDescriptor_t* A, const int32_t* modesA,
                                         const cupermDistTensorDescriptor_t* B, const int32_t* modesB,
                                         const cupermDistTensorDescriptor_t* D, const int32_t* modesD,
                                         cupermComputeType_t compute, ncclComm_t comm, cudaStream_t stream)
{
    return plan_contraction(handle, plan, A, modesA, B, modesB, D, modesD, compute, NULL, comm, stream);
}

cupermStatus_t cupermDistPlanContractionWithOptions(cupermHandle_t handle, cupermDistContractionPlan_t* plan,
                                                    const cupermDistTensorDescriptor_t* A, const int32_t* modesA,
                                                    const cupermDistTensorDescriptor_t* B, const int32_t* modesB,
                                                    const cupermDistTensorDescriptor_t* D, const int32_t* modesD,
                                                    cupermComputeType_t compute,
                                                    const cupermDistContractionOptions_t* options, ncclComm_t comm,
                                                    cudaStream_t stream)
{
    return plan_contraction(handle, plan, A, modesA, B, modesB, D, modesD, compute, options, comm, stream);
}

cupermStatus_t cupermDistContractionGetWorkspaceSize(cupermDistContractionPlan_t token, size_t* bytes)
{
    cuperm_dist_ctr_plan_t* p;
    cupermStatus_t st = get_with(CUPERM_OBJ_DIST_CONTRACTION_PLAN, (uintptr_t)token,
                                 "cupermDistContractionGetWorkspaceSize", bytes, "bytes", (void**)&p);
    if (!st) *bytes = p->workspace_bytes;
    return st;
}

cupermStatus_t cupermDistContractionPlanGetInfo(cupermDistContractionPlan_t token, cupermDistContractionInfo_t* info)
{
    cuperm_dist_ctr_plan_t* p;
    cupermStatus_t st = get_with(CUPERM_OBJ_DIST_CONTRACTION_PLAN, (uintptr_t)token, "cupermDistContractionPlanGetInfo",
                                 info, "info", (void**)&p);
    if (st) return st;
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
    info->overlapOperand = p->overlap;
    info->localContractions = p->has_local ? (p->overlap >= 0 ? p->n_parts[p->overlap] : 1) : 0;
    info->predictedSeconds = p->predicted_seconds;
    info->overlapRounds = p->rounds;
    return CUPERM_STATUS_SUCCESS;
}

cupermStatus_t cupermDistContractionPlanDestroy(cupermDistContractionPlan_t token)
{
    return destroy(CUPERM_OBJ_DIST_CONTRACTION_PLAN, (uintptr_t)token, "cupermDistContractionPlanDestroy");
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
    if (ptr[2] && ptr[2] != D && overlap(ptr[2], span[2] * (int64_t)elem[2], D, span[2] * (int64_t)elem[3]))
        return cuperm_fail(INVALID, "%s: C overlaps D without being D (C may alias D only exactly)", fn);
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
    void* ws = NULL;
    if ((st = ws_acquire(fn, p->handle, workspace, p->workspace_bytes, stream, &ws))) return st;
    st = cuperm_dist_contract_run(p, alpha, A, B, beta, beta_zero ? NULL : C, D, ws, stream);
    return ws_release(fn, workspace, ws, st, stream);
}
