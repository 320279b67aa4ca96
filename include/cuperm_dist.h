/*
 * cuperm_dist — distributed transposes (redistributions) over NCCL.
 *
 * Library libcuperm_dist (built when NCCL is found), on top of libcuperm. One GPU
 * per rank of a caller-supplied ncclComm_t: the library never creates processes or
 * communicators; the caller brings the communicator and a stream. See
 * docs/distributed.md for the algorithm and the cost model.
 *
 * A distributed tensor has global extents and is block-distributed along one or
 * more of its modes over a process grid whose size is the communicator's size:
 *
 *   - distModes[g] is the tensor mode distributed over grid dimension g;
 *     gridDims[g] ranks share it, in blocks of blockSizes[g] indices: the rank at
 *     grid coordinate c owns global indices [c*b, min((c+1)*b, extent)) of that
 *     mode, which may be empty (b*gridDims[g] >= extent; b = ceil(extent/gridDims[g])
 *     when blockSizes is NULL).
 *   - Communicator rank r has grid coordinate (r / prod(gridDims[0..g-1])) % gridDims[g]
 *     along grid dimension g (the first grid dimension varies fastest).
 *   - Each rank holds its block as a local tensor of local extents (the owned range's
 *     length along distributed modes, the global extent elsewhere), dense
 *     column-major unless localStrides are given.
 *
 * Collective calls: cupermDistPlanTranspose and cupermDistExecute are collective
 * over the communicator: every rank calls them, with the same global arguments
 * (its own local strides and pointers). In a process that drives several GPUs,
 * call them from one host thread per GPU (or group them, see docs/distributed.md).
 *
 * Errors at plan time are agreed: every rank validates its arguments locally, then
 * the ranks exchange a few integers (one ncclAllReduce) before anything else moves,
 * so a bad descriptor on any rank makes every rank return the same status with a
 * message (its own, or one naming the rank that failed) and no rank hangs.
 */
#ifndef CUPERM_DIST_H
#define CUPERM_DIST_H

#include "cuperm.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A block-distributed tensor, as one rank sees it. */
typedef struct {
    int rank;                     /**< tensor rank, 1 .. CUPERM_MAX_RANK */
    const int64_t* extents;       /**< rank global extents, each >= 1; equal on every rank */
    cupermDataType_t type;        /**< element type; equal on every rank */
    int gridRank;                 /**< distributed modes (process grid dimensions), 1 .. rank */
    const int* distModes;         /**< gridRank distinct tensor modes, 0 .. rank-1 */
    const int* gridDims;          /**< gridRank process counts, each >= 1; their product is the
                                       communicator's size */
    const int64_t* blockSizes;    /**< gridRank block sizes, each >= 1 with blockSizes[g] *
                                       gridDims[g] >= extents[distModes[g]]; NULL: ceil(extent / gridDim) */
    const int64_t* localStrides;  /**< rank strides (elements) of this rank's local block, or NULL for
                                       dense column-major of the local extents; may differ per rank */
} cupermDistTensorDescriptor_t;

/**
 * This rank's block: localExtents[m] and globalOffsets[m] (first global index held)
 * for every mode m, for a communicator of commSize ranks of which this is commRank.
 * A local extent may be 0 (an empty block). Checks the descriptor (INVALID_VALUE
 * with a message otherwise); needs no device and no communicator.
 */
CUPERM_API cupermStatus_t cupermDistGetLocalBlock(const cupermDistTensorDescriptor_t* desc, int commRank,
                                                  int commSize, int64_t* localExtents,
                                                  int64_t* globalOffsets);

/** Ways a redistribution plan lays out the data it sends (see docs/distributed.md). */
typedef enum {
    CUPERM_DIST_VARIANT_AUTO = 0,           /**< chosen by the cost model */
    CUPERM_DIST_VARIANT_PERMUTE_ON_PACK = 1, /**< the sender permutes; the receiver copies */
    CUPERM_DIST_VARIANT_PERMUTE_ON_UNPACK = 2 /**< the sender copies; the receiver permutes */
} cupermDistVariant_t;

/** How a redistribution plan moves data between GPUs (see docs/distributed.md). */
typedef enum {
    CUPERM_DIST_TRANSPORT_AUTO = 0,       /**< chosen by the cost model (or measured) */
    CUPERM_DIST_TRANSPORT_SEND_RECV = 1,  /**< pack into a send buffer, grouped ncclSend/ncclRecv, unpack */
    CUPERM_DIST_TRANSPORT_PEER_STORES = 2, /**< the pack transposes store straight into the receiver's part of
                                               a symmetric NCCL window (ncclMemAlloc + ncclCommWindowRegister,
                                               owned by the plan), between two NCCL barriers; then unpack.
                                               Needs NCCL >= 2.28 with its device API and every rank in one
                                               load/store (NVLink) domain; NOT_SUPPORTED otherwise */
    CUPERM_DIST_TRANSPORT_PEER_STORES_ONE_KERNEL = 3 /**< the same stores and the local transpose in one kernel
                                               launch with its own barriers (one pipeline stage), then unpack:
                                               two launches fewer on the critical path, for small messages
                                               (every element gathered alone). Same needs as PEER_STORES */
} cupermDistTransport_t;

/** Planning options; pass NULL for the defaults (all fields 0). Equal on every rank. */
typedef struct {
    double linkBytesPerSecond; /**< per-GPU send bandwidth the cost model assumes (0: 300e9, an
                                    NVLink-class link; ~40e9 suits 400 Gb/s InfiniBand) */
    double stageLatencySeconds;/**< fixed cost of one grouped send/receive (0: 20e-6) */
    int chunks;                /**< pipeline stages 1 .. 16 (0: chosen by the cost model among 1, 2, 4, 8) */
    cupermDistVariant_t variant;
    int measure;               /**< 1: time the candidates on the device at plan time and keep the
                                    fastest (collective; scratch input, output and workspace are taken
                                    stream-ordered from the device's memory pool and given back; the
                                    slowest rank's median of 3 runs decides). 0: the cost model */
    cupermDistTransport_t transport;
} cupermDistOptions_t;

typedef struct cupermDistPlan* cupermDistPlan_t;

/** What a redistribution plan decided, for this rank. */
typedef struct {
    cupermDistVariant_t variant;  /**< PERMUTE_ON_PACK or PERMUTE_ON_UNPACK */
    int chunks;                   /**< pipeline stages */
    int commSize, commRank;
    int sendPeers, recvPeers;     /**< other ranks this rank sends to / receives from */
    size_t bytesSent;             /**< bytes this rank sends to other ranks per execute */
    size_t bytesReceived;         /**< bytes it receives from other ranks */
    size_t bytesLocal;            /**< bytes it moves from its own input to its own output */
    size_t workspaceBytes;        /**< cupermDistGetWorkspaceSize */
    int transposes;               /**< local transpose launches per execute (PEER_STORES_ONE_KERNEL: 1, its
                                       one kernel) */
    double predictedSeconds;      /**< the cost model's time (the slowest rank's) */
    cupermDistTransport_t transport; /**< SEND_RECV, PEER_STORES or PEER_STORES_ONE_KERNEL */
    size_t windowBytes;           /**< device memory of the plan's NCCL window (PEER_STORES; else 0) */
    int outputBound;              /**< 1: an output is bound (cupermDistPlanBindOutput) */
    int directTransposes;         /**< transpose launches per execute into the bound output when those store
                                       straight into every receiver's output (1 for a one-kernel plan);
                                       0: the plan keeps its own transport for it (see
                                       cupermDistPlanBindOutput) */
    int directWhole;              /**< 1: into the bound output, one transpose of this rank's whole input
                                       block stores into every receiver's output (the outputs' blocks
                                       whole and alike, addressed as one strided tensor); 0: one
                                       transpose per receiver */
} cupermDistPlanInfo_t;

/** Device workspace, in bytes, that cupermDistExecute needs for this plan (may be 0). */
CUPERM_API cupermStatus_t cupermDistGetWorkspaceSize(cupermDistPlan_t plan, size_t* bytes);

CUPERM_API cupermStatus_t cupermDistPlanGetInfo(cupermDistPlan_t plan, cupermDistPlanInfo_t* info);

/** Destroys a plan (local: no communication). A PEER_STORES plan's window, and a bound output's
 *  registration, are deregistered (the bound buffer itself stays the caller's): destroy it only once
 *  every rank's executions of it have completed, and before its communicator is destroyed. */
CUPERM_API cupermStatus_t cupermDistPlanDestroy(cupermDistPlan_t plan);

typedef struct cupermDistContractionPlan* cupermDistContractionPlan_t;

/** What a distributed contraction plan decided, for this rank. */
typedef struct {
    int commSize, commRank;
    size_t bytesReceivedA;  /**< bytes of A this rank receives from other ranks per execute */
    size_t bytesReceivedB;  /**< the same for B */
    int inPlaceA, inPlaceB; /**< 1: this rank's part of A (B) is its own block, read where it is */
    int64_t m, n, k, batch; /**< this rank's local contraction (all 0 when its block of D is empty) */
    size_t workspaceBytes;  /**< cupermDistContractionGetWorkspaceSize */
    int overlapOperand;     /**< the operand moved in rounds under the local contraction (0: A, 1: B;
                                 CUPERM_DIST_OVERLAP_BY_PEER), or -1: none */
    int localContractions;  /**< local contractions this rank runs per execute (0: its block of D is
                                 empty; 1 without overlap; one a piece of the overlapped operand) */
    int overlapRounds;      /**< the overlapped operand's send/receive rounds (0 without overlap) */
    double predictedSeconds;/**< the cost model's time of the chosen schedule (the slowest rank's) */
} cupermDistContractionInfo_t;

/** How a distributed contraction schedules its operand moves and its local contraction. */
typedef enum {
    CUPERM_DIST_OVERLAP_AUTO = 0,   /**< chosen by the cost model */
    CUPERM_DIST_OVERLAP_NONE = 1,   /**< move both operands, then one local contraction */
    CUPERM_DIST_OVERLAP_BY_PEER = 2 /**< move one operand in rounds of grouped send/receive on a stream of
                                         the plan's (step s, s = 1 .. P - 1, sends to rank r + s and
                                         receives from rank r - s; a round groups consecutive steps)
                                         while the local contraction runs piece by piece on the caller's
                                         stream: the rank's own piece first, each other piece once its
                                         round has arrived. Offered on communicators of up to 16
                                         ranks (forced on a larger one: NOT_SUPPORTED) */
} cupermDistOverlap_t;

/** Options of a distributed contraction plan; NULL for the defaults (all fields 0). Equal on every rank. */
typedef struct {
    cupermDistOverlap_t overlap;
    double linkBytesPerSecond;  /**< as cupermDistOptions_t's, for the operand moves and the overlap */
    double stageLatencySeconds; /**< as cupermDistOptions_t's */
    int overlapRounds;          /**< BY_PEER: the overlapped operand's transfers in this many rounds,
                                     1 .. P - 1 (more is taken as P - 1; 0: the cost model's choice) */
} cupermDistContractionOptions_t;

/** Device workspace, in bytes, that cupermDistContract needs for this plan. */
CUPERM_API cupermStatus_t cupermDistContractionGetWorkspaceSize(cupermDistContractionPlan_t plan, size_t* bytes);

CUPERM_API cupermStatus_t cupermDistContractionPlanGetInfo(cupermDistContractionPlan_t plan,
                                                           cupermDistContractionInfo_t* info);

/** Destroys a distributed contraction plan (local: no communication). */
CUPERM_API cupermStatus_t cupermDistContractionPlanDestroy(cupermDistContractionPlan_t plan);

#ifdef __cplusplus
}
#endif

/* The NCCL entry points. CUPERM_DIST_NO_NCCL leaves them out, for code that only
 * needs the descriptor arithmetic above. */
#ifndef CUPERM_DIST_NO_NCCL
#include <nccl.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Plans out = alpha * perm(in) + beta * out for distributed tensors: output mode r
 * is input mode perm[r] (out->extents[r] == in->extents[perm[r]]), and in and out
 * may be distributed along any modes (Shard(i) -> Shard(j), several at once, with
 * any permutation). Collective (see above); handle's device must be the current
 * device and comm's device. stream carries the one small ncclAllReduce that
 * agrees on validity and on the plan's choices, and is synchronized.
 *
 * Fails on every rank alike with INVALID_VALUE when any rank's arguments break a
 * rule (or the global arguments differ between ranks), naming the rule; with
 * LIBRARY_ERROR when NCCL fails (then ranks may disagree: NCCL's own failure).
 */
CUPERM_API cupermStatus_t cupermDistPlanTranspose(cupermHandle_t handle, cupermDistPlan_t* plan,
                                                  const int* perm, const cupermDistTensorDescriptor_t* in,
                                                  const cupermDistTensorDescriptor_t* out,
                                                  const cupermDistOptions_t* options, ncclComm_t comm,
                                                  cudaStream_t stream);

/**
 * Runs a plan asynchronously on stream: out = alpha * perm(in) + beta * out on this
 * rank's blocks. Collective: every rank of the plan's communicator calls it.
 * alpha, beta: host scalars as for cupermExecute (beta == 0 never reads out).
 * in, out: this rank's local blocks (device memory, element-aligned; may be NULL
 * where the local block is empty). workspace: at least cupermDistGetWorkspaceSize
 * bytes, 256-byte aligned, or NULL to take it stream-ordered from the memory pool the
 * handle keeps (as cupermContract). A plan's executions must not run concurrently with each other
 * (they share the plan's internal streams and the communicator).
 * Checks are local: if one rank's call fails its checks, the others' transfers
 * wait for it (as with NCCL's own calls); pass the same plan on every rank.
 * A PEER_STORES plan, or an execute into a bound output, captures its run into a CUDA
 * graph the second time it sees the same in, out, workspace, alpha and beta, and
 * replays it from then on (one launch; the plan keeps four such graphs); a stream the
 * caller is capturing gets the run itself.
 */
CUPERM_API cupermStatus_t cupermDistExecute(cupermDistPlan_t plan, const void* alpha, const void* in,
                                            const void* beta, void* out, void* workspace,
                                            size_t workspaceBytes, cudaStream_t stream);

/**
 * Binds an output buffer to a redistribution plan, so that executions into it skip every staging
 * buffer: each rank's transposes store straight into the receivers' output blocks over NVLink
 * (alpha and beta applied there; beta != 0 reads the receivers' outputs the same way), between two
 * NCCL barriers. out: this rank's output block as cupermDistExecute will be given it, inside a
 * buffer the caller allocated with ncclMemAlloc; bytes: the buffer's size from out, equal on every
 * rank (NCCL's symmetric windows want one size) and at least this rank's output span. The ranks
 * exchange their output strides here. Collective over the plan's communicator, with agreed errors
 * (INVALID_VALUE for a broken rule on any rank; NOT_SUPPORTED on every rank where NCCL cannot
 * register the buffer or some rank is outside the load/store (NVLink) domain, or the build lacks
 * NCCL's device API; the plan is then left with no binding). out = NULL with bytes = 0 unbinds (also
 * collective). A plan holds one binding: binding again replaces it. Afterwards cupermDistExecute
 * with exactly this out takes the direct path; any other out takes the plan's own transport. Where
 * the output's blocks are whole (block x grid = extent), every rank's output strides alike and this
 * rank's input block meets each distributed output mode in one block or in whole blocks, one
 * transpose of the whole input block stores into every receiver (directWhole), reading the input
 * once; otherwise one transpose per receiver. A plan that chose PEER_STORES with PERMUTE_ON_UNPACK
 * (its permuting stores over the link priced or timed slower than a copy over it and a local
 * permutation) keeps that transport for the bound output (cupermDistPlanInfo_t.directTransposes
 * says which). A PEER_STORES_ONE_KERNEL plan stores into the
 * bound outputs in one kernel too. The
 * ranks must choose alike: every rank passes its bound output, or none does (each rank decides
 * by its own pointer, and the two paths' NCCL calls do not match).
 * Free the buffer only after unbinding or destroying the plan.
 */
CUPERM_API cupermStatus_t cupermDistPlanBindOutput(cupermDistPlan_t plan, void* out, size_t bytes,
                                                   cudaStream_t stream);

/**
 * Plans D = alpha * sum A * B + beta * C for distributed tensors: the modes of A, B and D
 * carry labels (modesA, modesB, modesD: like cupermTensorDescriptor_t's modes, distinct within
 * a tensor, equal labels with equal global extents); a label of D is in A or B (or both: a
 * batch mode), and a label in A and B but not in D is summed. Each tensor has its own block
 * distribution (any modes, any grid over the communicator); C has D's distribution and
 * local strides. Types and compute types as cupermPlanContraction (A and B share one type,
 * C and D another); operators are the identity.
 * Algorithm (owner computes): each rank computes its own block of D with the local engine
 * (cupermPlanContraction's model plan), from the part of A whose D-modes lie in its block and
 * whose summed modes are whole (likewise for B). Those parts are moved with the
 * redistribution engine of cupermDistPlanTranspose (grouped ncclSend/ncclRecv, cost-model
 * chosen pipelining); a rank whose part is exactly its own block reads it in place. The cost
 * model chooses whether the move of one operand overlaps the local contraction
 * (CUPERM_DIST_OVERLAP_BY_PEER): cupermDistPlanContractionWithOptions sets it.
 * Collective, with agreed errors, as cupermDistPlanTranspose.
 */
CUPERM_API cupermStatus_t cupermDistPlanContraction(cupermHandle_t handle, cupermDistContractionPlan_t* plan,
                                                    const cupermDistTensorDescriptor_t* A, const int32_t* modesA,
                                                    const cupermDistTensorDescriptor_t* B, const int32_t* modesB,
                                                    const cupermDistTensorDescriptor_t* D, const int32_t* modesD,
                                                    cupermComputeType_t compute, ncclComm_t comm,
                                                    cudaStream_t stream);

/** cupermDistPlanContraction with options (NULL: the defaults). */
CUPERM_API cupermStatus_t cupermDistPlanContractionWithOptions(
    cupermHandle_t handle, cupermDistContractionPlan_t* plan, const cupermDistTensorDescriptor_t* A,
    const int32_t* modesA, const cupermDistTensorDescriptor_t* B, const int32_t* modesB,
    const cupermDistTensorDescriptor_t* D, const int32_t* modesD, cupermComputeType_t compute,
    const cupermDistContractionOptions_t* options, ncclComm_t comm, cudaStream_t stream);

/**
 * Runs a distributed contraction plan on stream: this rank's blocks A, B, C (read when beta is
 * not zero; may equal D) and D (device memory, element-aligned; NULL where a block is empty).
 * alpha, beta: host scalars as for cupermContract. workspace: at least
 * cupermDistContractionGetWorkspaceSize bytes, 256-byte aligned, or NULL to take it
 * stream-ordered from the memory pool the handle keeps (as cupermContract; the device's
 * current pool on a rank whose block of D is empty). Collective: every rank calls it.
 */
CUPERM_API cupermStatus_t cupermDistContract(cupermDistContractionPlan_t plan, const void* alpha, const void* A,
                                             const void* B, const void* beta, const void* C, void* D,
                                             void* workspace, size_t workspaceBytes, cudaStream_t stream);

#ifdef __cplusplus
}
#endif
#endif /* CUPERM_DIST_NO_NCCL */

#endif /* CUPERM_DIST_H */
