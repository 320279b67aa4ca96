/*
 * A symmetric NCCL window that a redistribution's peers store into (the peer-stores
 * transport, docs/distributed.md): ncclMemAlloc'd memory registered with
 * ncclCommWindowRegister, and the address at which this GPU reaches every rank's part.
 * Needs NCCL 2.28's windows and device API and one load/store domain (NVLink) over the
 * whole communicator; cuperm_dist_window_possible says whether this rank has them.
 */
#ifndef CUPERM_DIST_WINDOW_H
#define CUPERM_DIST_WINDOW_H

#include <stddef.h>
#include <nccl.h>

#include "backend/cuda/dist/lsa_barrier.h"
#include "backend/cuda/dist/moves.h"
#include "cuperm.h"

typedef struct {
    void* base;   /* this rank's part (NULL: no window) */
    void* win;    /* ncclWindow_t, kept opaque here (NCCL < 2.28 has no such type) */
    size_t bytes; /* equal on every rank */
    char** peer;  /* comm_size addresses: rank r's part as this GPU addresses it */
    int owned;    /* base came from ncclMemAlloc here (freed with the window) */
    cuperm_dist_lsa_barrier_t* barrier; /* kernel barriers over the window's ranks */
} cuperm_dist_window_t;

/** Enqueues the window's barrier on stream (cuperm_dist_lsa_barrier_launch; the window has one). */
cudaError_t cuperm_dist_window_barrier(const cuperm_dist_window_t* w, cudaStream_t stream);

/** Enqueues the moves kernel (moves.h) over list[0, n) on stream (list[0, stores) between its
 *  barriers), synchronised by the window's barriers. Collective, like the barrier. */
cudaError_t cuperm_dist_window_moves(const cuperm_dist_window_t* w, const cuperm_dist_move_t* list, int stores, int n,
                                     cupermDataType_t type, const void* alpha, const void* in, const void* beta,
                                     void* out, cudaStream_t stream);

/** 1 when this build and the NCCL library it runs on have windows and every rank of comm is in
 *  this rank's load/store team. Local; the ranks agree on it with the plan's costs. */
int cuperm_dist_window_possible(ncclComm_t comm, int comm_size);

/** Collective and agreed: every rank allocates and registers bytes (equal on every rank), learns
 *  the peers' addresses and makes the window's barriers (the moves kernel's for the largest of the
 *  ranks' ctas); when any rank cannot (NCCL's own failures included), every rank returns
 *  NOT_SUPPORTED with nothing kept. */
cupermStatus_t cuperm_dist_window_create(ncclComm_t comm, int comm_size, size_t bytes, int ctas, cudaStream_t stream,
                                         cuperm_dist_window_t* w);

/** The same for memory the caller owns (from ncclMemAlloc): base is registered, not allocated, and
 *  never freed here. NOT_SUPPORTED on every rank when any rank cannot register it. */
cupermStatus_t cuperm_dist_window_register(ncclComm_t comm, int comm_size, void* base, size_t bytes, int ctas,
                                           cudaStream_t stream, cuperm_dist_window_t* w);

/** Deregisters, and frees memory the window owns (no-op on an empty window). Collective when the
 *  window has a barrier (ncclDevCommDestroy). */
void cuperm_dist_window_destroy(ncclComm_t comm, cuperm_dist_window_t* w);

#endif
