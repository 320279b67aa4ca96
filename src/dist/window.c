/* Symmetric NCCL windows for the peer-stores transport (see window.h). */
#include "dist/window.h"

#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "dist/plan.h"

#ifdef CUPERM_DIST_PEER_STORES
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
    if (w->win) ncclCommWindowDeregister(comm, (ncclWindow_t)w->win);
    if (w->base) ncclMemFree(w->base);
    free(w->peer);
    memset(w, 0, sizeof *w);
}

/* Every rank's verdict on one step: 0 when all succeeded. */
static cupermStatus_t agree_ok(ncclComm_t comm, cudaStream_t stream, int failed, int64_t* any)
{
    *any = failed;
    return cuperm_dist_agree(comm, stream, any, 1);
}

cupermStatus_t cuperm_dist_window_create(ncclComm_t comm, int comm_size, size_t bytes, cudaStream_t stream,
                                         cuperm_dist_window_t* w)
{
    memset(w, 0, sizeof *w);
    int64_t any = 0;
    /* ncclMemAlloc: memory NCCL can map into every peer (cuMem, exportable handles). */
    const int alloc_failed = ncclMemAlloc(&w->base, bytes) != ncclSuccess ||
                             !(w->peer = calloc((size_t)comm_size, sizeof *w->peer));
    cupermStatus_t st = agree_ok(comm, stream, alloc_failed, &any);
    if (st || any) goto fail;
    ncclWindow_t win = NULL;
    const ncclResult_t r = ncclCommWindowRegister(comm, w->base, bytes, &win, NCCL_WIN_COLL_SYMMETRIC);
    if (r == ncclSuccess) w->win = win;
    w->bytes = bytes;
    /* NULL without failure: this communicator has no symmetric memory (NCCL_WIN_ENABLE=0, ...).
     * A failure on one rank is agreed like the others: every rank falls back alike. */
    if ((st = agree_ok(comm, stream, r != ncclSuccess || win == NULL, &any)) || any) goto fail;
    void** d = NULL;
    cudaError_t e = cudaMallocAsync((void**)&d, sizeof(void*) * (size_t)comm_size, stream);
    if (!e) e = cuperm_dist_peer_pointers_launch(win, comm_size, d, stream);
    if (!e) e = cudaMemcpyAsync(w->peer, d, sizeof(void*) * (size_t)comm_size, cudaMemcpyDeviceToHost, stream);
    if (d) cudaFreeAsync(d, stream);
    if (!e) e = cudaStreamSynchronize(stream);
    if ((st = agree_ok(comm, stream, e != cudaSuccess, &any)) || any) goto fail;
    return CUPERM_STATUS_SUCCESS;
fail:
    cuperm_dist_window_destroy(comm, w);
    if (st) return st;
    return cuperm_fail(CUPERM_STATUS_NOT_SUPPORTED, FN ": a rank could not allocate or register an NCCL window of "
                       "%zu bytes (ncclMemAlloc, ncclCommWindowRegister)", bytes);
}

#else /* no nccl_device.h at build time: no peer stores */

int cuperm_dist_window_possible(ncclComm_t comm, int comm_size)
{
    (void)comm;
    (void)comm_size;
    return 0;
}

cupermStatus_t cuperm_dist_window_create(ncclComm_t comm, int comm_size, size_t bytes, cudaStream_t stream,
                                         cuperm_dist_window_t* w)
{
    (void)comm, (void)comm_size, (void)stream;
    memset(w, 0, sizeof *w);
    return cuperm_fail(CUPERM_STATUS_NOT_SUPPORTED, "cupermDistPlanTranspose: this build has no NCCL device API "
                       "(nccl_device.h), so no NCCL windows (%zu bytes asked)", bytes);
}

void cuperm_dist_window_destroy(ncclComm_t comm, cuperm_dist_window_t* w)
{
    (void)comm;
    memset(w, 0, sizeof *w);
}
#endif
