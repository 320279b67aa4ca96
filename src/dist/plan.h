/*
 * Distributed redistribution plans over NCCL: the object behind a cupermDistPlan_t.
 * A plan is a list of pieces in pipeline stages: pack (a local transpose of the part
 * of the input a peer needs into the send buffer), the grouped ncclSend/ncclRecv of
 * one stage, unpack (a local transpose from the receive buffer into the output,
 * applying alpha and beta), plus one local transpose for the part that stays. With the
 * peer-stores transport the pack pieces write into the receivers' parts of an NCCL window
 * instead, and the window's kernel barriers replace the send/receive; in one kernel
 * (PEER_STORES_ONE_KERNEL, for small messages) the pack and local pieces are moves of the
 * window's moves kernel (backend/cuda/dist/moves.h), its barriers its own.
 */
#ifndef CUPERM_DIST_PLAN_H
#define CUPERM_DIST_PLAN_H

#include <nccl.h>

#include "core/layout.h"
#include "dist/layout.h"
#include "dist/window.h"
#include "exec/handle.h"
#include "exec/transpose/plan.h"

#define CUPERM_DIST_MAX_CHUNKS 16
/* Candidates: 2 transports (send/receive, peer stores) x 2 variants x chunks 1, 2, 4, 8, then
 * peer stores in one kernel x 2 variants (one chunk); see cuperm_dist_candidate. */
#define CUPERM_DIST_SENDRECV_CANDIDATES 8
#define CUPERM_DIST_STORES_CANDIDATES (CUPERM_DIST_SENDRECV_CANDIDATES + 2)
#define CUPERM_DIST_CANDIDATES (CUPERM_DIST_SENDRECV_CANDIDATES + CUPERM_DIST_STORES_CANDIDATES)

/* Whether transport stores into the receivers' parts of an NCCL window. */
static inline int cuperm_dist_stores(int transport)
{
    return transport == CUPERM_DIST_TRANSPORT_PEER_STORES || transport == CUPERM_DIST_TRANSPORT_PEER_STORES_ONE_KERNEL;
}

typedef struct {
    int peer;             /* the rank sent to (pack) or received from (unpack); self for the local piece */
    int stage;            /* pipeline stage (chunk index) */
    size_t buf_offset;    /* bytes into the send (pack) or receive (unpack) region */
    size_t peer_offset;   /* peer stores, pack: bytes into the receiver's receive region */
    size_t bytes;
    int64_t local_offset; /* elements into this rank's in (pack, local) or out (unpack) block */
    int64_t local_offset2;/* local piece: elements into out */
    int direct;           /* send/receive pack piece whose part of in is one dense run already: sent
                             from in itself (local_offset), not packed */
    cuperm_transpose_plan_t tp;
    cuperm_problem_t walk; /* tp's problem by output stride: its move in the moves kernel */
} cuperm_dist_piece_t;

/* A one-kernel run's moves (backend/cuda/dist/moves.h) in device memory: list[0, stores) between
 * the kernel's barriers, the unpacks after. */
typedef struct {
    cuperm_dist_move_t* list;
    int n, stores;
} cuperm_dist_moves_t;

/* A bound output (cupermDistPlanBindOutput): every rank's output registered as one symmetric window,
 * and this rank's direct pieces, each a transpose from its input block into one receiver's output
 * block (peer_offset bytes into it), in the order r+1, r+2, ... (mod P). */
typedef struct {
    void* out;                   /* the bound output (NULL: none) */
    int used;                    /* executes into out take the direct path (else the plan's transport) */
    cuperm_dist_window_t window; /* out as every rank's window part */
    cuperm_dist_piece_t* pieces;
    int n;
    cuperm_dist_moves_t moves;   /* one-kernel plans: the pieces and the local piece */
    int has_whole;               /* whole replaces pieces and the local piece (direct.c) */
    cuperm_dist_piece_t whole;   /* this rank's whole input block into every receiver's output, the
                                    outputs addressed as one tensor (cuperm_dist_whole_view) from
                                    receiver `peer`'s block, peer_offset bytes in */
} cuperm_dist_direct_t;

/* A captured execute (replay.c): its pointers and scalars, and the graph that replays it. */
#define CUPERM_DIST_REPLAYS 4
typedef struct {
    const void* in;
    void* out;
    void* ws;
    unsigned char alpha[16], beta[16]; /* cuperm_scalar_size bytes of each */
    int seen;                          /* executes with this key (0: an empty slot) */
    cudaGraphExec_t exec;              /* captured at the second (NULL: not yet, or capture failed) */
} cuperm_dist_replay_t;

typedef struct cuperm_dist_plan {
    int device;
    cuperm_handle_t* handle;        /* referenced (a top-level plan's): its memory pool serves NULL workspaces */
    cuperm_dist_layout_t lin, lout; /* the layouts the pieces are built from */
    int perm[CUPERM_MAX_RANK];
    int skip_local;                 /* the local piece is not run (a contraction reads its input in place) */
    int sendrecv_only;              /* set before prepare: no peer-stores candidates */
    int transport;                  /* cupermDistTransport_t */
    int64_t store_cap;              /* grid cap of the transposes that store into other GPUs (0: none;
                                       the device family's dist_store_blocks_per_sm x SMs) */
    size_t window_bytes;            /* peer stores: the window every rank needs (equal on every rank) */
    cuperm_dist_window_t window;    /* peer stores: made at finish (or by measure mode) */
    cuperm_dist_direct_t direct;    /* a bound output */
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
    cuperm_dist_moves_t moves;   /* one-kernel plans: the pack and local pieces, then the unpacks */
    size_t send_bytes, recv_bytes, local_bytes, recv_base, workspace_bytes;
    int send_peers, recv_peers;
    int64_t in_volume, out_volume, in_span, out_span; /* elements of this rank's blocks */
    double predicted_seconds;
    cudaStream_t comm_stream, unpack_stream;
    cudaEvent_t ev_start, ev_comm_done, ev_unpack_done;
    cudaEvent_t ev_pack[CUPERM_DIST_MAX_CHUNKS], ev_comm[CUPERM_DIST_MAX_CHUNKS];
    cuperm_dist_replay_t replays[CUPERM_DIST_REPLAYS]; /* most recent keys, replaced in turn */
    int replay_next;
    cudaStream_t capture_stream;
} cuperm_dist_plan_t;

/** Collective: validates, agrees, chooses and builds. *out is NULL on failure. */
cupermStatus_t cuperm_dist_plan_transpose(cuperm_handle_t* h, cupermStatus_t handle_status, const int* perm,
                                          const cupermDistTensorDescriptor_t* in,
                                          const cupermDistTensorDescriptor_t* out, const cupermDistOptions_t* opt,
                                          ncclComm_t comm, cudaStream_t stream, cuperm_dist_plan_t** plan);

/* The steps of planning, for engines that plan several redistributions under one agreement
 * (distributed contractions):
 *   prepare  (local, no communication): fills p for in -> out and this rank's model time of
 *            every candidate into costs[CUPERM_DIST_CANDIDATES] (ns + 1; INT64_MAX / 4: unavailable);
 *   agree    on the elementwise maximum of the costs (with whatever else the caller agrees on);
 *   finish   builds the candidate whose slowest rank is fastest, and the plan's streams; collective
 *            where it makes a peer-stores window (agreed on stream; falls back to send/receive). */
cupermStatus_t cuperm_dist_redist_prepare(cuperm_handle_t* h, cuperm_dist_plan_t* p, const cuperm_dist_layout_t* in,
                                          const cuperm_dist_layout_t* out, const int* perm,
                                          const cupermDistOptions_t* opt, ncclComm_t comm, int device, int me,
                                          int64_t* costs);
cupermStatus_t cuperm_dist_redist_finish(cuperm_handle_t* h, cuperm_dist_plan_t* p, const cupermDistOptions_t* opt,
                                         const int64_t* costs, cudaStream_t stream);
/* Candidate i's transport, variant and chunk count (opt->chunks, when set, for send/receive). */
void cuperm_dist_candidate(int i, const cupermDistOptions_t* opt, int* transport, int* variant, int* chunks);

/* A hash of the global arguments of a redistribution: equal on every rank when they agree. */
int64_t cuperm_dist_redist_hash(const cuperm_dist_layout_t* in, const cuperm_dist_layout_t* out, const int* perm,
                                const cupermDistOptions_t* opt);

/* Elementwise max of n values over comm, on stream, synchronized. */
cupermStatus_t cuperm_dist_agree(ncclComm_t comm, cudaStream_t stream, int64_t* vals, int n);
/* Collective: this rank's status st (with its message) into v[0] and its rank + 1 into v[1]
 * when it failed, then the agreement on v[0..n); returns the status every rank returns, with a
 * message naming the rule (this rank's) or the rank that failed. */
cupermStatus_t cuperm_dist_agree_status(const char* fn, ncclComm_t comm, cudaStream_t stream, int me,
                                        cupermStatus_t st, int64_t* v, int n);
/* Caps a transpose that stores into other GPUs at cap blocks (0: as planned): every kernel walks
 * its tiles or vectors by the grid's size, so a smaller grid only takes more rounds. Applied when
 * the peer-stores pack pieces and a bound output's direct pieces are built (p->store_cap). */
static inline void cuperm_dist_cap_grid(cuperm_transpose_plan_t* tp, int64_t cap)
{
    if (cap && tp->host.launch.blocks > cap) tp->host.launch.blocks = cap;
    if (cap && tp->host.packed.blocks > cap) tp->host.packed.blocks = cap;
}

/** Makes s's transpose plan (cuperm_transpose_plan_init's arguments) and its walk. */
cupermStatus_t cuperm_dist_piece_init(cuperm_handle_t* h, cuperm_dist_piece_t* s, int n, const int64_t* ext,
                                      const int* perm, cupermDataType_t type, const int64_t* in_str,
                                      const int64_t* out_str);

/** The n pieces' modelled transpose time (*seconds) and the share of their bytes whose transposes
 *  permute (returned; their walk by output stride is not in input stride order): the cost model
 *  slows the link by dist_permuting_store_rate for that share. */
double cuperm_dist_pieces_cost(const cuperm_dist_piece_t* s, int n, double* seconds);

/** Piece s as a move of the moves kernel (no device; for tests too): reading src (NULL: the
 *  launch's input) at src_offset elements, writing dst (NULL: the launch's output) at dst_offset
 *  elements, walked by output stride or, by_input, by input stride (an unpack of a window part). */
void cuperm_dist_move_describe(const cuperm_dist_piece_t* s, const char* src, int64_t src_offset, char* dst,
                               int64_t dst_offset, int scaled, int by_input, cuperm_dist_move_t* m);

/** The moves of a one-kernel run into m (no device): the pack pieces storing into p->window's
 *  parts or, direct, the direct pieces into the bound outputs (alpha and beta applied); the local
 *  piece unless p skips it (*stores: the count so far); then, not direct, the unpacks of this
 *  rank's window part. m has room for every piece plus one; returns the count. */
int cuperm_dist_moves_list(const cuperm_dist_plan_t* p, int direct, cuperm_dist_move_t* m, int* stores);

/** Builds and uploads p->moves (direct: p->direct.moves), replacing what was there. */
cupermStatus_t cuperm_dist_moves_upload(cuperm_dist_plan_t* p, int direct);
void cuperm_dist_moves_free(cuperm_dist_moves_t* mv);

/* Buffer regions of the distributed engine start 256-byte aligned. */
static inline size_t cuperm_dist_align256(size_t bytes)
{
    return (bytes + 255) / 256 * 256;
}

/* Failures of NCCL (LIBRARY_ERROR) and CUDA (CUDA_ERROR) calls, "<what> failed: <reason>". */
cupermStatus_t cuperm_dist_nccl_fail(ncclResult_t r, const char* what);
cupermStatus_t cuperm_dist_cuda_fail(cudaError_t e, const char* what);

/* 1 and 0 in the scalar type of element type `type` (16 bytes each). */
void cuperm_dist_unit_scalars(cupermDataType_t type, unsigned char one[16], unsigned char zero[16]);

/** cupermDistExecute's run (arguments checked by the caller): a store transport's run replayed from
 *  a CUDA graph once the same pointers and scalars come a second time (replay.c), else
 *  cuperm_dist_run. */
cupermStatus_t cuperm_dist_execute(cuperm_dist_plan_t* p, const void* alpha, const void* in, const void* beta,
                                   void* out, void* ws, cudaStream_t stream);

/** Destroys the captured executes (the plan's pieces or binding changed, or the plan goes). */
void cuperm_dist_replays_clear(cuperm_dist_plan_t* p);

/** Enqueues one execution (arguments checked by the caller). */
cupermStatus_t cuperm_dist_run(const cuperm_dist_plan_t* p, const void* alpha, const void* in, const void* beta,
                               void* out, void* workspace, cudaStream_t stream);

/* The link the cost model assumes: opt's rate and stage latency, or the documented defaults
 * (cupermDistOptions_t: 300e9 bytes/s, 20e-6 s) where opt is NULL or leaves them 0. */
static inline double cuperm_dist_link_rate(const cupermDistOptions_t* opt)
{
    return opt && opt->linkBytesPerSecond > 0 ? opt->linkBytesPerSecond : 300e9;
}
static inline double cuperm_dist_stage_latency(const cupermDistOptions_t* opt)
{
    return opt && opt->stageLatencySeconds > 0 ? opt->stageLatencySeconds : 20e-6;
}

/* Round of by-peer step s (1 .. P - 1) when the steps are grouped into `rounds` rounds of
 * consecutive steps (1 .. rounds; 0 for step 0, the rank's own piece, which needs none). */
static inline int cuperm_dist_round_of(int s, int P, int rounds)
{
    return s ? 1 + (s - 1) * rounds / (P - 1) : 0;
}

/** A send/receive plan's transfers in rounds, for engines that use each peer's data as it arrives
 *  (overlapped contractions), with unit scalars: on stream link the pack pieces, then for each round
 *  r = 1 .. rounds one grouped send/receive of its steps s (cuperm_dist_round_of: step s sends to
 *  rank me + s and receives from rank me - s, mod P) and, with unpack, their unpacks into out, then
 *  arrived[r] recorded. Without unpack the pieces stay in the receive region, where the caller reads
 *  them. The local piece is not run (the caller reads it in place). */
cupermStatus_t cuperm_dist_run_by_peer(const cuperm_dist_plan_t* p, const void* in, void* out, void* workspace,
                                       cudaStream_t link, int rounds, int unpack, const cudaEvent_t* arrived);

void cuperm_dist_plan_free(cuperm_dist_plan_t* p);

/** The direct pieces of rank p->comm_rank (no device, no NCCL; for tests too): out_strides holds
 *  every rank's output strides (comm_size rows of CUPERM_MAX_RANK). Replaces p->direct.pieces. */
cupermStatus_t cuperm_dist_build_direct(cuperm_handle_t* h, cuperm_dist_plan_t* p, const int64_t* out_strides);

/** The whole-block direct transpose of rank p->comm_rank (no device, no NCCL; for tests too) when
 *  cuperm_dist_whole_view allows it with the receivers' outputs at peer[0 .. comm_size) (addresses in
 *  this GPU's space: their differences must be one stride, a multiple of the element size) and the
 *  rows of out_strides as in cuperm_dist_build_direct: sets p->direct.has_whole and .whole. */
cupermStatus_t cuperm_dist_build_whole(cuperm_handle_t* h, cuperm_dist_plan_t* p, const int64_t* out_strides,
                                       char* const* peer);

/** Collective (cupermDistPlanBindOutput): binds out (bytes) to p, or unbinds when out is NULL. */
cupermStatus_t cuperm_dist_bind_output(cuperm_dist_plan_t* p, void* out, size_t bytes, cudaStream_t stream);

/** Local: releases a binding (deregisters the window; the buffer stays the caller's). */
void cuperm_dist_direct_free(cuperm_dist_plan_t* p);

/* The model's account of one candidate: the predicted transposes it runs, its bytes, its time. */
typedef struct {
    double pack, unpack, local; /* seconds: the sums of the pieces' predicted times */
    int n_pack, n_unpack;
    size_t sent, received;      /* bytes, each piece 256-byte aligned */
    double seconds;             /* the model's time of the candidate */
} cuperm_dist_price_t;

/** Candidate i (cuperm_dist_candidate) of rank me built into p and priced by the model (no device,
 *  no NCCL; for the planner's tools and tests; peer-store candidates priced whatever the
 *  communicator would allow). */
cupermStatus_t cuperm_dist_price_candidate(cuperm_handle_t* h, const cuperm_dist_layout_t* in,
                                           const cuperm_dist_layout_t* out, const int* perm, int me,
                                           const cupermDistOptions_t* opt, int i, cuperm_dist_price_t* price,
                                           cuperm_dist_plan_t* p);

/** The pieces rank me runs for transport, variant and k chunks (no device, no NCCL; for tests). */
cupermStatus_t cuperm_dist_build_pieces(cuperm_handle_t* h, const cuperm_dist_layout_t* in,
                                        const cuperm_dist_layout_t* out, const int* perm, int me, int transport,
                                        int variant, int k, cuperm_dist_plan_t* p);

#endif
