/*
 * Distributed contractions over NCCL: the object behind a cupermDistContractionPlan_t.
 * Owner computes: each rank contracts its own block of D with the local engine
 * (exec/contraction), from the parts of A and B that block needs (its D-modes restricted
 * to the block, summed modes whole), which two redistribution plans (dist/plan.h) bring
 * into the workspace, or which the rank reads in place when that part is its own block.
 * Overlapped (CUPERM_DIST_OVERLAP_BY_PEER): one operand's move runs one peer at a time on the
 * plan's link stream and the local contraction runs as one sub-contraction a piece
 * (dist/ctr_parts.h), each as soon as its piece has arrived.
 */
#ifndef CUPERM_DIST_CONTRACTION_H
#define CUPERM_DIST_CONTRACTION_H

#include "dist/ctr_parts.h"
#include "dist/plan.h"
#include "exec/contraction/plan.h"

/* One local contraction of an overlapped schedule: its piece's box and its plan. The overlapped
 * operand is read where its piece is: the rank's own piece in its own block (box.offset), another
 * rank's dense in the receive region (at: bytes into the workspace). */
typedef struct {
    cuperm_dist_part_t box;
    cuperm_contraction_plan_t ctr;
    size_t at;
} cuperm_dist_ctr_part_plan_t;

typedef struct cuperm_dist_ctr_plan {
    cuperm_handle_t* handle;      /* referenced by the local plan when has_local */
    int device, comm_size, comm_rank;
    cuperm_dist_plan_t* move[2];  /* A -> A', B -> B': collective, every rank runs both */
    int in_place[2];              /* this rank's A' (B') is its own block of A (B) */
    size_t recv_bytes[2];         /* operand bytes received from other ranks */
    size_t at[2];                 /* A', B' in the workspace (unused when in place) */
    size_t move_at, ctr_at, workspace_bytes;
    int has_local;                /* this rank's block of D is not empty */
    cuperm_contraction_plan_t ctr;
    cupermDataType_t ab_type, cd_type;
    int64_t span[3];              /* elements of this rank's local A, B, D blocks (pointer checks) */
    int overlap;                  /* the operand moved in rounds (0: A, 1: B), or -1: none */
    int rounds;                   /* its send/receive rounds (cuperm_dist_round_of) */
    int n_parts[2];               /* the overlapped schedules' local contractions, by operand (planned */
    cuperm_dist_ctr_part_plan_t* parts[2]; /* for both; the one chosen is kept) */
    double predicted_seconds;     /* the chosen schedule's (the slowest rank's) */
    cudaStream_t link;            /* overlap: the moves' stream, and its events */
    cudaEvent_t ev_start, ev_other, ev_done, ev_arrived[CUPERM_DIST_MAX_PARTS]; /* arrived: by round */
} cuperm_dist_ctr_plan_t;

/** Collective: validates, agrees, plans. *out is NULL on failure. */
cupermStatus_t cuperm_dist_plan_contraction(cuperm_handle_t* h, cupermStatus_t handle_status,
                                            const cupermDistTensorDescriptor_t* A, const int32_t* modesA,
                                            const cupermDistTensorDescriptor_t* B, const int32_t* modesB,
                                            const cupermDistTensorDescriptor_t* D, const int32_t* modesD,
                                            cupermComputeType_t compute, const cupermDistContractionOptions_t* opt,
                                            ncclComm_t comm, cudaStream_t stream, cuperm_dist_ctr_plan_t** out);

/** Enqueues one execution (arguments checked by the caller; C NULL when beta is zero). */
cupermStatus_t cuperm_dist_contract_run(const cuperm_dist_ctr_plan_t* p, const void* alpha, const void* A,
                                        const void* B, const void* beta, const void* C, void* D, char* workspace,
                                        cudaStream_t stream);

void cuperm_dist_ctr_plan_free(cuperm_dist_ctr_plan_t* p);

#endif
