/*
 * Kernel barriers over a communicator's load/store team (NCCL's device API: an ncclDevComm
 * with LSA barriers). Barrier 0 is run by one small kernel: it replaces a one-word
 * ncclAllReduce where every rank is in one NVLink domain (a CTA that stores its flag into
 * each peer and spins on its own, a few microseconds instead of a collective's launch and
 * protocol). Barriers 1 .. ctas belong to the moves kernel (moves.h), one per CTA. Built
 * only with nccl_device.h.
 */
#ifndef CUPERM_BACKEND_CUDA_DIST_LSA_BARRIER_H
#define CUPERM_BACKEND_CUDA_DIST_LSA_BARRIER_H

#include <cuda_runtime.h>
#include <nccl.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cuperm_dist_lsa_barrier cuperm_dist_lsa_barrier_t;

/** Collective over comm (ncclDevCommCreate) with 1 + ctas barriers; ctas equal on every rank.
 *  *out is NULL on failure. */
ncclResult_t cuperm_dist_lsa_barrier_create(ncclComm_t comm, int ctas, cuperm_dist_lsa_barrier_t** out);

/** Collective (ncclDevCommDestroy); no-op on NULL. */
void cuperm_dist_lsa_barrier_destroy(ncclComm_t comm, cuperm_dist_lsa_barrier_t* b);

/** Enqueues barrier 0 on stream: the kernel ends once every rank of the team has reached its
 *  own. Release and acquire at system scope, so what a rank's stream wrote before its barrier
 *  (into any GPU's memory) is visible to what every rank's stream runs after its own. */
cudaError_t cuperm_dist_lsa_barrier_launch(const cuperm_dist_lsa_barrier_t* b, cudaStream_t stream);

#ifdef __cplusplus
}
#endif
#endif
