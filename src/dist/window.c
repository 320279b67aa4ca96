/* Symmetric NCCL windows for the peer-stores transport (see window.h). */
#include "dist/window.h"

#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "dist/plan.h"

#ifdef CUPERM_DIST_PEER_STORES
#include <cuda.h> /* the driver's pointer attributes (enums only: the entry point comes through the runtime) */

#include "backend/cuda/dist/lsa_barrier.h"
#include "backend/cuda/dist/peer_pointers.h"

#define FN "cupermDistPlanTranspose"

int cuperm_dist_window_possible(ncclComm_t comm, int comm_size)
{
    int version = 0;
    /* The window's device layout is read through the headers this was built with. */
    if (ncclGetVersion(&version) != ncclSuccess || version < NCCL_VERSION_CODE) return 0;
    return comm_size > 1 && cuperm_dist_lsa_ranks(comm) == comm_size;
}

void cuperm_dist_window_destroy(ncclComm_t comm, cuperm_dist_window_t* w)
{
    cuperm_dist_lsa_barrier_destroy(comm, w->barrier);
    if (w->win) ncclCommWindowDeregister(comm, (ncclWindow_t)w->win);
    if (w->base && w->owned) ncclMemFree(w->base);
    free(w->peer);
    memset(w, 0, sizeof *w);
}

/* Every rank's verdict on one step: 0 when all succeeded. */
static cupermStatus_t agree_ok(ncclComm_t comm, cudaStream_t stream, int failed, int64_t* any)
{
    *any = failed;
    return cuperm_dist_agree(comm, stream, any, 1);
}

/* Registers w->base (bytes, equal on every rank) and learns the peers' addresses: agreed. */
static cupermStatus_t register_window(ncclComm_t comm, int comm_size, size_t bytes, int ctas, cudaStream_t stream,
                                      cuperm_dist_window_t* w)
{
    int64_t any = 0;
    cupermStatus_t st = agree_ok(comm, stream, !(w->peer = calloc((size_t)comm_size, sizeof *w->peer)), &any);
    if (st || any) return st ? st : CUPERM_STATUS_NOT_SUPPORTED;
    ncclWindow_t win = NULL;
    const ncclResult_t r = ncclCommWindowRegister(comm, w->base, bytes, &win, NCCL_WIN_COLL_SYMMETRIC);
    if (r == ncclSuccess) w->win = win;
    w->bytes = bytes;
    /* NULL without failure: this communicator has no symmetric memory (NCCL_WIN_ENABLE=0, ...).
     * A failure on one rank is agreed like the others: every rank falls back alike. */
    if ((st = agree_ok(comm, stream, r != ncclSuccess || win == NULL, &any)) || any)
        return st ? st : CUPERM_STATUS_NOT_SUPPORTED;
    void** d = NULL;
    cudaError_t e = cudaMallocAsync((void**)&d, sizeof(void*) * (size_t)comm_size, stream);
    if (!e) e = cuperm_dist_peer_pointers_launch(win, comm_size, d, stream);
    if (!e) e = cudaMemcpyAsync(w->peer, d, sizeof(void*) * (size_t)comm_size, cudaMemcpyDeviceToHost, stream);
    if (d) cudaFreeAsync(d, stream);
    if (!e) e = cudaStreamSynchronize(stream);
    if ((st = agree_ok(comm, stream, e != cudaSuccess, &any)) || any) return st ? st : CUPERM_STATUS_NOT_SUPPORTED;
    int64_t most = ctas; /* the moves kernel's grid, one barrier a CTA: equal on every rank */
    if ((st = cuperm_dist_agree(comm, stream, &most, 1))) return st;
    cuperm_dist_lsa_barrier_t* bar = NULL;
    const ncclResult_t rb = cuperm_dist_lsa_barrier_create(comm, (int)most, &bar);
    w->barrier = bar;
    if ((st = agree_ok(comm, stream, rb != ncclSuccess, &any)) || any) return st ? st : CUPERM_STATUS_NOT_SUPPORTED;
    return CUPERM_STATUS_SUCCESS;
}

cudaError_t cuperm_dist_window_barrier(const cuperm_dist_window_t* w, cudaStream_t stream)
{
    return cuperm_dist_lsa_barrier_launch(w->barrier, stream);
}

cudaError_t cuperm_dist_window_moves(const cuperm_dist_window_t* w, const cuperm_dist_move_t* list, int stores, int n,
                                     cupermDataType_t type, const void* alpha, const void* in, const void* beta,
                                     void* out, cudaStream_t stream)
{
    return cuperm_dist_moves_launch(w->barrier, list, stores, n, type, alpha, in, beta, out, stream);
}

cupermStatus_t cuperm_dist_window_create(ncclComm_t comm, int comm_size, size_t bytes, int ctas, cudaStream_t stream,
                                         cuperm_dist_window_t* w)
{
    memset(w, 0, sizeof *w);
    int64_t any = 0;
    /* ncclMemAlloc: memory NCCL can map into every peer (cuMem, exportable handles). */
    w->owned = 1;
    cupermStatus_t st = agree_ok(comm, stream, ncclMemAlloc(&w->base, bytes) != ncclSuccess, &any);
    if (!st && !any && !(st = register_window(comm, comm_size, bytes, ctas, stream, w))) return CUPERM_STATUS_SUCCESS;
    cuperm_dist_window_destroy(comm, w);
    if (st && st != CUPERM_STATUS_NOT_SUPPORTED) return st;
    return cuperm_fail(CUPERM_STATUS_NOT_SUPPORTED, FN ": a rank could not allocate or register an NCCL window of "
                       "%zu bytes (ncclMemAlloc, ncclCommWindowRegister)", bytes);
}

/* 1 when [base, base + bytes) lies in one allocation that can be exported to other processes
 * (cuMem with a shareable handle type, as ncclMemAlloc makes): what NCCL needs to map it into the
 * peers. Checked before registering, because a rank whose ncclCommWindowRegister fails early
 * would leave the others waiting in theirs. */
static int exportable(const void* base, size_t bytes)
{
    typedef CUresult (*get_attr_t)(void*, CUpointer_attribute, CUdeviceptr);
    get_attr_t get = NULL;
    enum cudaDriverEntryPointQueryResult q;
    if (cudaGetDriverEntryPointByVersion("cuPointerGetAttribute", (void**)&get, 12000, cudaEnableDefault, &q) ||
        q != cudaDriverEntryPointSuccess || !get)
        return 0;
    unsigned long long handles = 0;
    CUdeviceptr start = 0;
    size_t size = 0;
    const CUdeviceptr p = (CUdeviceptr)(uintptr_t)base;
    if (get(&handles, CU_POINTER_ATTRIBUTE_ALLOWED_HANDLE_TYPES, p) != CUDA_SUCCESS ||
        get(&start, CU_POINTER_ATTRIBUTE_RANGE_START_ADDR, p) != CUDA_SUCCESS ||
        get(&size, CU_POINTER_ATTRIBUTE_RANGE_SIZE, p) != CUDA_SUCCESS)
        return 0;
    return handles != 0 && p + bytes <= start + size;
}

cupermStatus_t cuperm_dist_window_register(ncclComm_t comm, int comm_size, void* base, size_t bytes, int ctas,
                                           cudaStream_t stream, cuperm_dist_window_t* w)
{
    memset(w, 0, sizeof *w);
    w->base = base;
    int64_t any = 0;
    cupermStatus_t st = agree_ok(comm, stream, !exportable(base, bytes), &any);
    if (!st && any) st = CUPERM_STATUS_NOT_SUPPORTED;
    if (!st) st = register_window(comm, comm_size, bytes, ctas, stream, w);
    if (!st) return st;
    cuperm_dist_window_destroy(comm, w);
    if (st != CUPERM_STATUS_NOT_SUPPORTED) return st;
    return cuperm_fail(CUPERM_STATUS_NOT_SUPPORTED, "cupermDistPlanBindOutput: a rank could not register its output "
                       "(%zu bytes) as an NCCL window: the buffer must come from ncclMemAlloc, with the same size on "
                       "every rank", bytes);
}

#else /* no nccl_device.h at build time: no peer stores */

int cuperm_dist_window_possible(ncclComm_t comm, int comm_size)
{
    (void)comm;
    (void)comm_size;
    return 0;
}

cupermStatus_t cuperm_dist_window_create(ncclComm_t comm, int comm_size, size_t bytes, int ctas, cudaStream_t stream,
                                         cuperm_dist_window_t* w)
{
    (void)comm, (void)comm_size, (void)ctas, (void)stream;
    memset(w, 0, sizeof *w);
    return cuperm_fail(CUPERM_STATUS_NOT_SUPPORTED, "cupermDistPlanTranspose: this build has no NCCL device API "
                       "(nccl_device.h), so no NCCL windows (%zu bytes asked)", bytes);
}

cupermStatus_t cuperm_dist_window_register(ncclComm_t comm, int comm_size, void* base, size_t bytes, int ctas,
                                           cudaStream_t stream, cuperm_dist_window_t* w)
{
    (void)comm, (void)comm_size, (void)base, (void)ctas, (void)stream;
    memset(w, 0, sizeof *w);
    return cuperm_fail(CUPERM_STATUS_NOT_SUPPORTED, "cupermDistPlanBindOutput: this build has no NCCL device API "
                       "(nccl_device.h), so no NCCL windows (%zu bytes asked)", bytes);
}

void cuperm_dist_window_destroy(ncclComm_t comm, cuperm_dist_window_t* w)
{
    (void)comm;
    memset(w, 0, sizeof *w);
}

cudaError_t cuperm_dist_window_barrier(const cuperm_dist_window_t* w, cudaStream_t stream)
{
    (void)w, (void)stream;
    return cudaErrorNotSupported; /* no window is ever made in this build */
}

cudaError_t cuperm_dist_window_moves(const cuperm_dist_window_t* w, const cuperm_dist_move_t* list, int stores, int n,
                                     cupermDataType_t type, const void* alpha, const void* in, const void* beta,
                                     void* out, cudaStream_t stream)
{
    (void)w, (void)list, (void)stores, (void)n, (void)type, (void)alpha, (void)in, (void)beta, (void)out, (void)stream;
    return cudaErrorNotSupported;
}
#endif
