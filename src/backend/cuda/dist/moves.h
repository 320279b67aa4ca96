/*
 * The moves kernel: every transpose of a small redistribution in one launch, with barriers of
 * its own. CTA i of every rank meets CTA i of every other at LSA barrier 1 + i (lsa_barrier.h)
 * before its first store, so every receiver's stream has reached the kernel (its earlier work
 * on the memory stored into is done), and again after its stores, so when a rank's kernel ends
 * every rank's CTAs have stored into it. Against a barrier kernel, the transposes, a second
 * barrier kernel and the unpacks, it saves three launches and their gaps on the critical path
 * of a message that takes a few microseconds to move.
 *
 * Every move walks its elements e < volume the same way: thread t of CTA i takes the e with
 * e mod (CTAs x threads) = i x threads + t. A store into a window part walks its dense
 * destination in order (dimensions by output stride, fused: cuperm_problem_by_output), so e
 * is the element's offset there; the receiver's unpack of that part walks it in order too
 * (by input stride: cuperm_problem_canonicalize). So the elements CTA i of a receiver unpacks
 * are exactly those CTA i of each sender stored, and once the second barrier has passed it
 * can unpack them in the same launch, with no grid-wide wait. Built only with nccl_device.h.
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
 * offsets (elements) cuperm_group_offsets reads off dim and div; from is src (this rank's
 * window part) or, where src is NULL, the launch's input, at src_offset; to is dst (a window
 * part, as this GPU addresses it) or, where dst is NULL, the launch's output, at dst_offset. */
typedef struct {
    const char* src;
    int64_t src_offset;
    char* dst;
    int64_t dst_offset;
    int64_t volume;
    int rank;
    int scaled;      /* 1: alpha and beta apply; 0: the bits move (a pack into a window) */
    cuperm_dim_t dim[CUPERM_MAX_RANK];     /* by output stride, fused */
    cuperm_fastdiv_t div[CUPERM_MAX_RANK]; /* the extents' magic numbers */
} cuperm_dist_move_t;

/** Enqueues the kernel on stream with b's CTA count: moves[0, stores) (device memory) between the
 *  barriers, moves[stores, n) (unpacks of this rank's window part) after the second; in and out
 *  where a move names no source or destination; alpha and beta are host scalars of type's scalar
 *  type. Collective: every rank of b's team launches it (with its own moves) at the same point of
 *  its sequence of b's barriers. */
cudaError_t cuperm_dist_moves_launch(const cuperm_dist_lsa_barrier_t* b, const cuperm_dist_move_t* moves, int stores,
                                     int n, cupermDataType_t type, const void* alpha, const void* in,
                                     const void* beta, void* out, cudaStream_t stream);

#ifdef __cplusplus
}
#endif
#endif
