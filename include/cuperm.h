/*
 * cuperm — tensor transpositions and contractions on NVIDIA GPUs.
 *
 * The one public header. Conventions follow cuTENSOR and cuTT:
 *   - Tensors are column-major by default: extent 0 is the stride-1 dimension.
 *   - Output dimension r is input dimension perm[r]:
 *       out_extent[r] = in_extent[perm[r]].
 *   - Strides are counted in elements; NULL strides mean dense column-major.
 *   - Plan once, execute many times. Every function returns a cupermStatus_t;
 *     on failure cupermGetLastErrorMessage() says which argument broke which rule.
 *
 * Thread safety: handles may be shared between host threads; plan creation and
 * destruction may run concurrently on one handle. A plan may be executed from
 * several streams at once (execution reads the plan, never writes it).
 *
 * Object lifetime: cupermHandle_t and plan values are opaque tokens, not
 * addresses. A destroyed or foreign token is always rejected with
 * CUPERM_STATUS_INVALID_VALUE (never a crash), also after a new object has
 * taken its place.
 *
 * CUDA errors: a call that sees a CUDA or cuBLAS error returns
 * CUPERM_STATUS_CUDA_ERROR or CUPERM_STATUS_LIBRARY_ERROR with the library's
 * message; cuperm never clears an error it did not cause without reporting it.
 * Kernels run asynchronously, so a fault inside one surfaces at a later
 * synchronising call. A "sticky" error (an illegal address, a misaligned
 * access, a kernel trap) destroys the CUDA context: every later CUDA and cuperm
 * call in the process then fails, and only a new process recovers. Valid
 * arguments never cause one (please report it if they do): every pointer rule
 * below is checked before anything is enqueued.
 */
#ifndef CUPERM_H
#define CUPERM_H

#include <stddef.h>
#include <stdint.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(_WIN32)
#  define CUPERM_API __declspec(dllexport)
#elif defined(__GNUC__)
#  define CUPERM_API __attribute__((visibility("default")))
#else
#  define CUPERM_API
#endif

#define CUPERM_VERSION_MAJOR 0
#define CUPERM_VERSION_MINOR 1
#define CUPERM_VERSION_PATCH 0
/** Encoded as major*10000 + minor*100 + patch. */
#define CUPERM_VERSION (CUPERM_VERSION_MAJOR * 10000 + CUPERM_VERSION_MINOR * 100 + CUPERM_VERSION_PATCH)

/** Largest tensor rank a plan accepts. */
#define CUPERM_MAX_RANK 32

/* ------------------------------------------------------------------------- */
/* Status codes and errors                                                    */
/* ------------------------------------------------------------------------- */

typedef enum {
    CUPERM_STATUS_SUCCESS = 0,
    CUPERM_STATUS_INVALID_VALUE = 1,   /**< an argument broke a documented rule */
    CUPERM_STATUS_NOT_SUPPORTED = 2,   /**< valid, but not implemented for this input */
    CUPERM_STATUS_ALLOC_FAILED = 3,    /**< host or device allocation failed */
    CUPERM_STATUS_CUDA_ERROR = 4,      /**< the CUDA runtime reported an error */
    CUPERM_STATUS_INTERNAL_ERROR = 5,  /**< a bug in cuperm: please report it */
    CUPERM_STATUS_ARCH_MISMATCH = 6,   /**< the device has no kernels built for it */
    CUPERM_STATUS_LIBRARY_ERROR = 7    /**< a library cuperm uses (cuBLAS, NVRTC) failed */
} cupermStatus_t;

/** A static string naming the status, e.g. "CUPERM_STATUS_INVALID_VALUE". */
CUPERM_API const char* cupermGetErrorString(cupermStatus_t status);

/**
 * The message of the last failing cuperm call on this host thread, naming the
 * offending argument and the rule it broke; "" if no call on this thread has
 * failed yet. Successful calls leave it unchanged. Valid until the next cuperm
 * call on this thread.
 */
CUPERM_API const char* cupermGetLastErrorMessage(void);

/** CUPERM_VERSION of the library actually linked. */
CUPERM_API int cupermGetVersion(void);

/* ------------------------------------------------------------------------- */
/* Data types (numeric values equal cudaDataType_t's)                         */
/* ------------------------------------------------------------------------- */

typedef enum {
    CUPERM_R_16F = 2,   /**< __half; scalars (alpha, beta) are float */
    CUPERM_R_16BF = 14, /**< __nv_bfloat16; scalars are float */
    CUPERM_R_32F = 0,   /**< float */
    CUPERM_R_64F = 1,   /**< double */
    CUPERM_C_32F = 4,   /**< complex float (cuFloatComplex); scalars are complex float */
    CUPERM_C_64F = 5,   /**< complex double (cuDoubleComplex); scalars are complex double */
    CUPERM_R_8I = 3,    /**< int8_t */
    CUPERM_R_8U = 8,    /**< uint8_t */
    CUPERM_R_16I = 20,  /**< int16_t */
    CUPERM_R_32I = 10,  /**< int32_t */
    CUPERM_R_32U = 12,  /**< uint32_t */
    CUPERM_R_64I = 24,  /**< int64_t */
    CUPERM_R_64U = 26   /**< uint64_t */
} cupermDataType_t;

/** Bytes per element of a data type, or 0 for an unknown one. */
CUPERM_API size_t cupermDataTypeSize(cupermDataType_t type);

/* ------------------------------------------------------------------------- */
/* Handle                                                                     */
/* ------------------------------------------------------------------------- */

typedef struct cupermHandle* cupermHandle_t;

/**
 * Creates a handle bound to the calling thread's current CUDA device. It holds
 * the device's properties and what plans share (the plan cache).
 */
CUPERM_API cupermStatus_t cupermCreate(cupermHandle_t* handle);

/**
 * Destroys a handle: the token is dead from now on. Plans made from it stay
 * usable until they are destroyed; what they share with the handle (cuBLAS
 * handles, caches) is released with the last of them.
 */
CUPERM_API cupermStatus_t cupermDestroy(cupermHandle_t handle);

/**
 * Writes the handle's measured planning decisions to a file: the transposes planned with
 * cupermPlanTransposeMeasure and the contractions planned with CUPERM_PLAN_MEASURE (up to the
 * handle's cache sizes), so that a later process can read them back with
 * cupermHandleReadPlanCache and plan those problems without measuring (cuTENSOR's plan-cache
 * file is the model). The file is a binary of this library build and this kind of device.
 * entriesWritten (may be NULL): how many decisions were written. INVALID_VALUE if path is NULL
 * or cannot be written.
 */
CUPERM_API cupermStatus_t cupermHandleWritePlanCache(cupermHandle_t handle, const char* path, int* entriesWritten);

/**
 * Adds the decisions of a file written by cupermHandleWritePlanCache to the handle's caches:
 * planning one of those problems in measure mode then returns the stored choice at once, and
 * heuristic transpose planning takes a stored measured plan as it does one measured in this
 * process. A file written by another cuperm version or build, for another kind of device
 * (compute capability, SM count, memory), or damaged, is ignored: SUCCESS with
 * *entriesRead = 0, and cupermGetLastErrorMessage() says why. INVALID_VALUE if path or
 * entriesRead is NULL or the file cannot be read.
 */
CUPERM_API cupermStatus_t cupermHandleReadPlanCache(cupermHandle_t handle, const char* path, int* entriesRead);

/* ------------------------------------------------------------------------- */
/* Elementwise operators                                                      */
/* ------------------------------------------------------------------------- */

/** Elementwise operators: on a transpose's input (cupermPlanTransposeOp), on a contraction's
 *  operands (opA, opB, opC) or its result (opD). Evaluated in float for the 16-bit floats and
 *  float, in double for double; ELU with expm1, so it keeps its accuracy near 0. */
typedef enum {
    CUPERM_OP_IDENTITY = 0,
    CUPERM_OP_NEGATE = 1,     /**< -x */
    CUPERM_OP_ABS = 2,        /**< |x| (real types) */
    CUPERM_OP_RELU = 3,       /**< max(x, 0) (real types) */
    CUPERM_OP_LEAKY_RELU = 4, /**< x > 0 ? x : opParam * x (real types) */
    CUPERM_OP_ELU = 5,        /**< x > 0 ? x : opParam * (exp(x) - 1) (real types) */
    CUPERM_OP_SIGMOID = 6,    /**< 1 / (1 + exp(-x)) (real types) */
    CUPERM_OP_TANH = 7,       /**< tanh(x) (real types) */
    CUPERM_OP_EXP = 8,        /**< exp(x) (real types) */
    CUPERM_OP_SQRT = 9,       /**< sqrt(x) (real types) */
    CUPERM_OP_CONJ = 10       /**< complex conjugate; the identity on real types */
} cupermOperator_t;

/* ------------------------------------------------------------------------- */
/* Transposes                                                                 */
/* ------------------------------------------------------------------------- */

typedef struct cupermPlan* cupermPlan_t;

/**
 * Plans out = alpha * perm(in) + beta * out.
 *
 * rank       1 .. CUPERM_MAX_RANK.
 * extents    rank input extents, each >= 1 (zero-volume tensors are rejected:
 *            there is nothing to plan).
 * perm       a permutation of 0..rank-1; output dimension r is input dimension perm[r].
 * type       element type (1, 2, 4, 8 or 16 bytes).
 * inStrides  rank input strides in elements, each >= 0, or NULL for dense
 *            column-major. Stride 0 broadcasts an input dimension.
 * outStrides rank output strides in elements (indexed by output dimension),
 *            each >= 1, or NULL for dense column-major. Output elements must
 *            not overlap: sorted by stride, each stride must exceed the largest
 *            offset reachable with the smaller ones (this admits every padded
 *            or sub-tensor view).
 *
 * The plan is chosen by a model at plan time; nothing runs on the device.
 */
CUPERM_API cupermStatus_t cupermPlanTranspose(cupermHandle_t handle, cupermPlan_t* plan, int rank,
                                              const int64_t* extents, const int* perm,
                                              cupermDataType_t type, const int64_t* inStrides,
                                              const int64_t* outStrides);

/**
 * Like cupermPlanTranspose, with an elementwise operator on the input:
 *     out = alpha * opIn(perm(in)) + beta * out.
 * Floating types take every operator; complex types IDENTITY, NEGATE and CONJ (CONJ makes the
 * conjugate transpose); integer types IDENTITY only (anything else: NOT_SUPPORTED). opParam is
 * the slope of LEAKY_RELU and the alpha of ELU (finite), ignored otherwise. The operator runs
 * inside the transpose kernels: it costs no extra pass over memory.
 */
CUPERM_API cupermStatus_t cupermPlanTransposeOp(cupermHandle_t handle, cupermPlan_t* plan, int rank,
                                                const int64_t* extents, const int* perm,
                                                cupermDataType_t type, const int64_t* inStrides,
                                                const int64_t* outStrides, cupermOperator_t opIn,
                                                double opParam);

/**
 * Runs a plan asynchronously on stream: out = alpha * perm(in) + beta * out.
 *
 * alpha, beta  host pointers to scalars: float for R_16F/R_16BF, otherwise the
 *              element type itself (cuFloatComplex for C_32F, ...). beta == 0 never
 *              reads out (NaNs there do not leak).
 * in, out      device pointers on the plan's device, aligned to the element size;
 *              the two ranges must not overlap.
 *
 * The current device must be the plan's. The plan may be executed many times,
 * with other pointers, from several streams at once.
 */
CUPERM_API cupermStatus_t cupermExecute(cupermPlan_t plan, const void* alpha, const void* in,
                                        const void* beta, void* out, cudaStream_t stream);

/** Destroys a plan. Passing a destroyed plan again is detected where possible. */
CUPERM_API cupermStatus_t cupermPlanDestroy(cupermPlan_t plan);

/**
 * Like cupermPlanTranspose, but times the model's best candidates on the device
 * with the given buffers (whose contents are overwritten: out receives garbage)
 * on stream, synchronizes it, and keeps the fastest. in and out must have the
 * extents and strides described; the plan may later run on any other buffers.
 */
CUPERM_API cupermStatus_t cupermPlanTransposeMeasure(cupermHandle_t handle, cupermPlan_t* plan,
                                                     int rank, const int64_t* extents,
                                                     const int* perm, cupermDataType_t type,
                                                     const int64_t* inStrides,
                                                     const int64_t* outStrides, const void* in,
                                                     void* out, cudaStream_t stream);

/**
 * The model's predicted execution time, in seconds, of the plan that
 * cupermPlanTranspose would make for these arguments (same validation), without
 * creating a plan or touching the device. For higher-level planners.
 */
CUPERM_API cupermStatus_t cupermPredictTransposeTime(cupermHandle_t handle, int rank,
                                                     const int64_t* extents, const int* perm,
                                                     cupermDataType_t type,
                                                     const int64_t* inStrides,
                                                     const int64_t* outStrides, double* seconds);

/** Kernel families a transpose plan may use. */
typedef enum {
    CUPERM_KERNEL_COPY = 0,       /**< contiguous on both sides: a vectorized copy */
    CUPERM_KERNEL_TILED = 1,      /**< orthogonal fastest dimensions: shared-memory tiles */
    CUPERM_KERNEL_ROWS = 2,       /**< same fastest dimension on both sides: row copies */
    CUPERM_KERNEL_WHOLE_DIMS = 3,     /**< short fastest dimensions: shared-memory tiles of whole dimensions,
                                       read in input order and written in output order */
    CUPERM_KERNEL_ROW_TILES = 4       /**< same fastest dimension on both sides, short rows: shared-memory tiles
                                       of whole rows from the input's next dimensions by the output's */
} cupermKernel_t;

/** What a transpose plan decided. */
typedef struct {
    cupermKernel_t kernel;     /**< kernel family */
    const char* kernelName;    /**< static string, e.g. "tiled" */
    int fusedRank;             /**< rank after removing unit extents and fusing dimensions */
    int64_t volume;            /**< elements moved */
    int64_t tileA;             /**< tile extent along the input's fastest group (0 if none;
                                    CUPERM_KERNEL_WHOLE_DIMS: elements per tile;
                                    CUPERM_KERNEL_ROW_TILES: rows along the input's next dimensions) */
    int64_t tileB;             /**< tile extent along the output's fastest group (0 if none;
                                    CUPERM_KERNEL_WHOLE_DIMS: 1;
                                    CUPERM_KERNEL_ROW_TILES: rows along the output's next dimensions) */
    int threadsPerBlock;
    int64_t blocks;            /**< blocks launched by one execute */
    double predictedSeconds;   /**< the model's execution time estimate */
    int measured;              /**< 1 if chosen by cupermPlanTransposeMeasure */
    int movedElementBytes;     /**< bytes the kernel moves as one element: the type's size, or
                                    up to 16 when rows shared by both sides are that short
                                    (used for alpha = 1, beta = 0 with aligned pointers) */
    const char* tuning;        /**< static string: the architecture tuning table that planned it, e.g.
                                    "sm_90 (H100 measurements)", or "defaults (untuned architecture...)" */
} cupermPlanInfo_t;

CUPERM_API cupermStatus_t cupermPlanGetInfo(cupermPlan_t plan, cupermPlanInfo_t* info);

/* ------------------------------------------------------------------------- */
/* Contractions                                                               */
/* ------------------------------------------------------------------------- */

/*
 * D = opD(alpha * sum over contracted modes of opA(A) * opB(B) + beta * opC(C)),
 * einsum style: every tensor dimension carries an integer mode label; modes
 * are matched by label, in any order, across A, B, C and D. C and D have the
 * same mode list (same labels in the same order, same extents); D may alias C
 * exactly (same pointer and strides) but must not overlap A or B.
 *
 * Mode classes: free in A (in A and D), free in B (in B and D), contracted (in A
 * and B), batched (in A, B and D). A mode in only one of A, B, D is rejected.
 * A label repeated within one tensor (a diagonal or trace) is not supported.
 *
 * Executed as transpose-transpose-GEMM-transpose (TTGT): operands that cuBLAS
 * cannot read in place are transposed into the workspace with cuperm's own
 * transposes (operators applied inside them), the GEMM (strided-batched over the
 * batched modes) runs on cuBLAS, and the result is transposed into D unless cuBLAS
 * can write D directly. Real contractions in fp16/bf16 (tensor cores), strict fp32
 * or fp64 (CUDA cores) may instead run as one GETT kernel that reads A and B and
 * writes D in place (CUPERM_PLAN_MEASURE times it beside the TTGT layouts; CUPERM_PLAN_MODEL
 * takes it where its grid fits one wave of blocks and its model predicts it faster, as for
 * small contractions; see cupermPlanMode_t).
 */

/**
 * How the GEMM accumulates. DEFAULT is strict: fp32 for R_32F, C_32F, R_16F and
 * R_16BF inputs (tensor cores for the 16-bit types), fp64 for R_64F and C_64F.
 * Reduced-precision modes are used only when asked for.
 */
typedef enum {
    CUPERM_COMPUTE_DEFAULT = 0,
    CUPERM_COMPUTE_16F = 1,           /**< fp16 accumulation; R_16F only */
    CUPERM_COMPUTE_32F = 2,           /**< strict fp32 */
    CUPERM_COMPUTE_64F = 3,           /**< fp64 */
    CUPERM_COMPUTE_32F_FAST_TF32 = 4, /**< fp32 data on TF32 tensor cores */
    CUPERM_COMPUTE_32F_FAST_16F = 5,  /**< fp32 data rounded to fp16 for the tensor cores */
    CUPERM_COMPUTE_32F_FAST_16BF = 6  /**< fp32 data rounded to bf16 for the tensor cores */
} cupermComputeType_t;

/** How a contraction plan is chosen. */
typedef enum {
    CUPERM_PLAN_MODEL = 0,  /**< by the cost model (transpose predictions + a GEMM model, and for GETT-eligible
                                 contractions whose GETT grid fits one wave of blocks a GETT model: the
                                 GETT plan where it predicts GETT faster); nothing runs, but a GETT plan
                                 copies its offset tables to the device (cudaMalloc + cudaMemcpy).
                                 With the environment variable CUPERM_GETT set to 1 at cupermCreate, eligible
                                 contractions take the GETT kernel instead (CUPERM_ALGO_DEFAULT
                                 only), whose plan copies its offset tables to the device (cudaMalloc +
                                 cudaMemcpy), as a CUPERM_ALGO_GETT plan does */
    CUPERM_PLAN_MEASURE = 1 /**< the model's 8 cheapest layouts timed on the device, the fastest kept.
                                 Needs no user data: it allocates, stream-ordered from the current
                                 device's memory pool, scratch A, B and D (their spans) plus the
                                 largest candidate's workspace, fills them with finite values,
                                 times each candidate (median of 5 samples, CUDA events) on a
                                 stream of its own, frees them and synchronizes that stream before
                                 returning. The current device must be the handle's. Cached in the
                                 handle apart from model plans. */
} cupermPlanMode_t;

/**
 * Which kinds of plan a contraction may get (cupermPlanContractionAlgo), as cuTENSOR's
 * algorithm preference: DEFAULT lets the plan mode choose among every kind.
 */
typedef enum {
    CUPERM_ALGO_DEFAULT = 0, /**< what cupermPlanContraction does */
    CUPERM_ALGO_TTGT = 1,    /**< transposes around a cuBLAS GEMM only (MODEL: the cheapest layout; MEASURE:
                                  the model's 8 cheapest timed); ignores CUPERM_GETT */
    CUPERM_ALGO_GETT = 2     /**< the GETT kernel (one plan per problem, so the mode changes nothing);
                                  CUPERM_STATUS_NOT_SUPPORTED, naming the rule, where it cannot run the
                                  problem: types (fp16/bf16 into fp32 or the same type, strict fp32 or
                                  fp64 all four alike), table size, an sm_80+ device for fp16/bf16.
                                  Every operator runs inside the kernel */
} cupermContractionAlgo_t;

/** One operand of a contraction. */
typedef struct {
    int rank;                 /**< 0 .. CUPERM_MAX_RANK (0: a scalar) */
    const int32_t* modes;     /**< rank mode labels, distinct within the tensor */
    const int64_t* extents;   /**< rank extents, each >= 1; equal for equal labels across tensors */
    const int64_t* strides;   /**< rank strides in elements, or NULL for dense column-major.
                                   A, B and C: >= 0 (0 broadcasts). D: >= 1, elements must not overlap. */
    cupermDataType_t type;    /**< A and B share one type, C and D another (see cupermPlanContraction) */
    cupermOperator_t op;      /**< elementwise operator (CUPERM_OP_IDENTITY for none) */
    double opParam;           /**< slope of LEAKY_RELU, alpha of ELU; ignored otherwise */
} cupermTensorDescriptor_t;

typedef struct cupermContractionPlan* cupermContractionPlan_t;

/**
 * Plans D = opD(alpha * sum opA(A) * opB(B) + beta * opC(C)).
 *
 * Supported types (A and B alike, C and D alike):
 *   A/B R_32F, C/D R_32F: compute DEFAULT, 32F, 32F_FAST_TF32, 32F_FAST_16F, 32F_FAST_16BF
 *   A/B C_32F, C/D C_32F: the same
 *   A/B R_64F, C/D R_64F and A/B C_64F, C/D C_64F: DEFAULT, 64F
 *   A/B R_16F, C/D R_16F: DEFAULT, 32F, 16F
 *   A/B R_16F or R_16BF, C/D R_32F; A/B R_16BF, C/D R_16BF: DEFAULT, 32F
 * Operators: every operator for real types; IDENTITY, NEGATE and CONJ for complex.
 * Scalars alpha and beta: double for R_64F D, cuDoubleComplex for C_64F,
 * cuFloatComplex for C_32F, float otherwise.
 *
 * Validation errors return CUPERM_STATUS_INVALID_VALUE (a broken rule) or
 * CUPERM_STATUS_NOT_SUPPORTED (a valid request outside the list above), with a
 * message naming the operand and the rule; the descriptors are validated before
 * anything touches the device. CUPERM_PLAN_MODEL does not touch the device;
 * CUPERM_PLAN_MEASURE runs candidates on it (see cupermPlanMode_t). Decisions are
 * cached in the handle per mode: planning the same contraction again is cheap.
 */
CUPERM_API cupermStatus_t cupermPlanContraction(cupermHandle_t handle, cupermContractionPlan_t* plan,
                                                const cupermTensorDescriptor_t* A,
                                                const cupermTensorDescriptor_t* B,
                                                const cupermTensorDescriptor_t* C,
                                                const cupermTensorDescriptor_t* D,
                                                cupermComputeType_t compute,
                                                cupermPlanMode_t mode);

/**
 * cupermPlanContraction with the kinds of plan restricted to algo (see cupermContractionAlgo_t).
 * Decisions are cached per mode and algo. cupermPlanContraction(...) is
 * cupermPlanContractionAlgo(..., CUPERM_ALGO_DEFAULT).
 */
CUPERM_API cupermStatus_t cupermPlanContractionAlgo(cupermHandle_t handle, cupermContractionPlan_t* plan,
                                                    const cupermTensorDescriptor_t* A,
                                                    const cupermTensorDescriptor_t* B,
                                                    const cupermTensorDescriptor_t* C,
                                                    const cupermTensorDescriptor_t* D,
                                                    cupermComputeType_t compute, cupermPlanMode_t mode,
                                                    cupermContractionAlgo_t algo);

/** Device workspace, in bytes, that cupermContract needs for this plan (may be 0). */
CUPERM_API cupermStatus_t cupermContractionGetWorkspaceSize(cupermContractionPlan_t plan,
                                                            size_t* bytes);

/**
 * Runs a contraction plan asynchronously on stream. alpha and beta are host
 * pointers (types: see cupermPlanContraction); beta == 0 never reads C. C may
 * equal D (then with identical strides); D must not overlap A or B.
 * A, B, C (when read) and D: memory the plan's device can access (cudaMalloc,
 * managed or mapped host memory), aligned to their element size; nothing more.
 * Base pointers and strides need no further alignment: where a library call
 * cuperm makes (cuBLAS) has stricter rules for a given pointer, the plan takes
 * a path that honours them for that call.
 * workspace: device memory of at least cupermContractionGetWorkspaceSize bytes,
 * 256-byte aligned, or NULL to take it stream-ordered, for the duration of the
 * call, from a memory pool the handle keeps on its device: what a call gives back
 * stays there for the next call (no remapping per call) until the handle and its
 * plans are destroyed; a device without memory pools uses its current pool. Under
 * stream capture the allocation becomes the graph's. The plan may run concurrently on
 * several streams, each call with its own workspace.
 */
CUPERM_API cupermStatus_t cupermContract(cupermContractionPlan_t plan, const void* alpha,
                                         const void* A, const void* B, const void* beta,
                                         const void* C, void* D, void* workspace,
                                         size_t workspaceBytes, cudaStream_t stream);

CUPERM_API cupermStatus_t cupermContractionPlanDestroy(cupermContractionPlan_t plan);

/** What runs a contraction plan (cupermContractionInfo_t.kind). */
typedef enum {
    CUPERM_CONTRACTION_TTGT = 0, /**< a cuBLAS GEMM between transposes (transposedA, B, D say which run) */
    CUPERM_CONTRACTION_GETT = 1  /**< one GETT kernel: A, B and C read in place, D written in place
                                      (the GEMM fields then give its m, n, k, batch; description: its
                                      mode orders and load / store paths) */
} cupermContractionKind_t;

/** What a contraction plan decided. */
typedef struct {
    int64_t m, n, k, batch;        /**< GEMM shape as cuBLAS runs it: rows, columns, inner, batch count
                                        (m, n, k rounded up to 16 bytes where every matrix is in the
                                        workspace: the description then says "padded from") */
    int64_t calls;                 /**< > 1: free modes that fit no strided batch; the GEMM is one
                                        pointer-array batch of calls x batch entries, writing D in place */
    int swapped;                   /**< 1: cuBLAS computes D^T = B^T A^T (B is cuBLAS's first operand) */
    char opFirst, opSecond;        /**< cuBLAS transpose flags of its two operands: 'N', 'T' or 'C' */
    int transposedA, transposedB;  /**< 1 if the operand is rewritten into the workspace first */
    int transposedD;               /**< 1 if the GEMM writes the workspace and a transpose writes D */
    int elementwiseKernels;        /**< passes that apply operators cuBLAS cannot (opA/opB on an input, opC/opD
                                        on the output); they run inside cuperm's transpose kernels */
    double flops;                  /**< real floating-point operations of the GEMM */
    double predictedTransposeSeconds; /**< model: all passes other than the GEMM */
    double predictedGemmSeconds;      /**< model: the GEMM */
    size_t workspaceBytes;
    const char* description;       /**< human-readable decomposition; valid while the plan lives */
    int measured;                  /**< 1 if chosen by CUPERM_PLAN_MEASURE */
    double measuredSeconds;        /**< CUPERM_PLAN_MEASURE: the chosen layout's median time (0 otherwise) */
    const char* tuning;            /**< static string: the architecture tuning table the model used */
    cupermContractionKind_t kind;  /**< TTGT or GETT */
} cupermContractionInfo_t;

CUPERM_API cupermStatus_t cupermContractionPlanGetInfo(cupermContractionPlan_t plan,
                                                       cupermContractionInfo_t* info);

#ifdef __cplusplus
}
#endif

#endif /* CUPERM_H */
