/*
 * Distributed redistribution plans over NCCL: the object behind a cupermDistPlan_t.
 * A plan is a list of pieces in pipeline stages: pack (a local transpose of the part
 * of the input a peer needs into the send buffer), the grouped ncclSend/ncclRecv of
 * one stage, unpack (a local transpose from the receive buffer into the output,
 * applying alpha and beta), plus one local transpose for the part that stays.
 */
#ifndef CUPERM_DIST_PLAN_H
#define CUPERM_DIST_PLAN_H

#include <nccl.h>

#include "dist/layout.h"
#include "exec/handle.h"
#include "exec/transpose/plan.h"

#define CUPERM_DIST_MAX_CHUNKS 16

typedef struct {
    int peer;             /* the rank sent to (pack) or received from (unpack); self for the local piece */
    int stage;            /* pipeline stage (chunk index) */
    size_t buf_offset;    /* bytes into the send (pack) or receive (unpack) region */
    size_t bytes;
    int64_t local_offset; /* elements into this rank's in (pack, local) or out (unpack) block */
    int64_t local_offset2;/* local piece: elements into out */
    cuperm_transpose_plan_t tp;
} cuperm_dist_piece_t;

typedef struct cuperm_dist_plan {
    int device;
    ncclComm_t comm;
    int comm_size, comm_rank;
    cupermDataType_t type;
    int elem_size;
    int variant; /* cupermDistVariant_t */
    int chunks;
    int n_pack, n_unpack, has_local;
    cuperm_dist_piece_t* pack;   /* sorted by stage */
    cuperm_dist_piece_t* unpack; /* sorted by stage */
    cuperm_dist_piece_t local;
    size_t send_bytes, recv_bytes, local_bytes, recv_base, workspace_bytes;
    int send_peers, recv_peers;
    int64_t in_volume, out_volume, in_span, out_span; /* elements of this rank's blocks */
    double predicted_seconds;
    cudaStream_t comm_stream, unpack_stream;
    cudaEvent_t ev_start, ev_comm_done, ev_unpack_done;
    cudaEvent_t ev_pack[CUPERM_DIST_MAX_CHUNKS], ev_comm[CUPERM_DIST_MAX_CHUNKS];
} cuperm_dist_plan_t;

/** Collective: validates, agrees, chooses and builds. *out is NULL on failure. */
cupermStatus_t cuperm_dist_plan_transpose(cuperm_handle_t* h, cupermStatus_t handle_status, const int* perm,
                                          const cupermDistTensorDescriptor_t* in,
                                          const cupermDistTensorDescriptor_t* out, const cupermDistOptions_t* opt,
                                          ncclComm_t comm, cudaStream_t stream, cuperm_dist_plan_t** plan);

/** Enqueues one execution (arguments checked by the caller). */
cupermStatus_t cuperm_dist_run(const cuperm_dist_plan_t* p, const void* alpha, const void* in, const void* beta,
                               void* out, void* workspace, cudaStream_t stream);

void cuperm_dist_plan_free(cuperm_dist_plan_t* p);

/** The pieces rank me runs for variant and k chunks (no device, no NCCL; for tests). */
cupermStatus_t cuperm_dist_build_pieces(cuperm_handle_t* h, const cuperm_dist_layout_t* in,
                                        const cuperm_dist_layout_t* out, const int* perm, int me, int variant, int k,
                                        cuperm_dist_plan_t* p);

#endif
