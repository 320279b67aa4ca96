/*
 * The two calls of the distributed engine that need NCCL's device API (nccl_device.h, C++):
 * the size of comm's load/store-accessible team and the addresses at which this GPU reaches
 * every rank's part of a symmetric NCCL window. Built only when nccl_device.h is found
 * (CUPERM_DIST_PEER_STORES).
 */
#ifndef CUPERM_BACKEND_CUDA_DIST_PEER_POINTERS_H
#define CUPERM_BACKEND_CUDA_DIST_PEER_POINTERS_H

#include <cuda_runtime.h>
#include <nccl.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Ranks of comm's LSA team (those whose window memory this GPU can load and store). */
int cuperm_dist_lsa_ranks(ncclComm_t comm);

/** Writes, on stream, n device addresses into out[0..n): rank r's window base as this GPU
 *  addresses it (ncclGetPeerPointer(win, 0, r)). out: device memory. */
cudaError_t cuperm_dist_peer_pointers_launch(ncclWindow_t win, int n, void** out, cudaStream_t stream);

#ifdef __cplusplus
}
#endif
#endif
