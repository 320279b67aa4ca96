/*
 * The moves kernel: every transpose of a small redistribution in one launch, between two
 * barriers of its own. CTA i of every rank meets CTA i of every other at LSA barrier 1 + i
 * (lsa_barrier.h) before its first store, so every receiver's stream has reached the kernel
 * (its earlier work on the memory stored into is done), and again after its last, so when a
 * rank's kernel ends every rank's CTAs have stored into it. Against a barrier kernel, the
 * transposes and a second barrier kernel, it saves two launches and their gaps on the
 * critical path of a message that takes a few microseconds to move.
 *
 * Each move walks its elements in the destination's order (dimensions by output stride,
 * fused: cuperm_problem_by_output), so neighbouring threads store neighbouring elements,
 * over NVLink into a peer's memory or locally, and gather their sources, which a small
 * message keeps in L2. Built only with nccl_device.h.
 */
#ifndef CUPERM_BACKEND_CUDA_DIST_MOVES_H
#define CUPERM_BACKEND_CUDA_DIST_MOVES_H

#include <cuda_runtime.h>

#include "backend/cuda/dist/lsa_barrier.h"
#include "core/fastdiv.h"
#include "core/kernel_params.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One transpose of the kernel: to[o(e)] = op(from[i(e)]) for the elements e < volume, whose
 * offsets (elements) cuperm_group_offsets reads off dim and div; from is the launch's input
 * at src_offset, to is dst (a window's part, as this GPU addresses it) or, where dst is NULL,
 * the launch's output, at dst_offset. */
typedef struct {
    int64_t src_offset;
    char* dst;
    int64_t dst_offset;
    int64_t volume;
    int rank;
    int scaled;      /* 1: alpha and beta apply; 0: the bits move (a pack into a window) */
    cuperm_dim_t dim[CUPERM_MAX_RANK];     /* by output stride, fused */
    cuperm_fastdiv_t div[CUPERM_MAX_RANK]; /* the extents' magic numbers */
} cuperm_dist_move_t;

/** Enqueues the kernel over moves[0, n) (device memory) with b's CTA count on stream, reading in
 *  and writing out where a move names no destination; alpha and beta are host scalars of type's
 *  scalar type. Collective: every rank of b's team launches it (with its own moves) at the same
 *  point of its sequence of b's barriers. */
cudaError_t cuperm_dist_moves_launch(const cuperm_dist_lsa_barrier_t* b, const cuperm_dist_move_t* moves, int n,
                                     cupermDataType_t type, const void* alpha, const void* in, const void* beta,
                                     void* out, cudaStream_t stream);

#ifdef __cplusplus
}
#endif
#endif
