/*
 * The GEMM layout of a contraction: which operands cuBLAS reads in place and
 * which are first transposed into the workspace, the order of the modes inside
 * each mode group, the operand order and cuBLAS flags, and whether the GEMM
 * writes D directly. Chosen by enumerating the candidates and pricing them with
 * a cost model (transpose predictions + a GEMM model). Plain C.
 */
#ifndef CUPERM_CTR_LAYOUT_H
#define CUPERM_CTR_LAYOUT_H

#include "core/error.h" /* CUPERM_INTERNAL_API */
#include "core/kernel_params.h"
#include "plan/contraction/problem.h"

/* A transpose in cupermPlanTranspose's convention (output dimension r is input dimension perm[r]). */
typedef struct {
    int rank;
    int64_t extents[CUPERM_MAX_RANK];
    int perm[CUPERM_MAX_RANK];
    int64_t inStrides[CUPERM_MAX_RANK];
    int64_t outStrides[CUPERM_MAX_RANK];
    cupermDataType_t type;
} cuperm_ctr_transpose_t;

/* Shape of the GEMM, for the GEMM cost model. */
typedef struct {
    int64_t m, n, k, batch;
    int64_t calls;                 /* separate cuBLAS calls of this shape, issued one after another */
    int firstShared, secondShared; /* batch stride 0: one matrix read by every batch entry */
    int pointers;                  /* a pointer-array batch (cublasGemmBatchedEx) */
    char opFirst, opSecond;        /* cuBLAS flags: 'N', 'T' or 'C' */
    cupermDataType_t abType, cdType;
    cupermComputeType_t compute;
    int misaligned;                /* a leading dimension or batch stride is not a multiple of 16 bytes */
} cuperm_ctr_gemm_shape_t;

typedef struct {
    /* Predicted seconds of a transpose; negative if it cannot be planned. */
    double (*transpose_seconds)(void* ctx, const cuperm_ctr_transpose_t* t);
    void* ctx;
    double bandwidth;      /* bytes per second of device memory (for the operator kernels) */
    double gemmFlops[4];   /* peak GEMM flop rates, indexed by cuperm_ctr_rate_t */
    /* Memory for one search at a time (its memo of transpose prices), at least
     * cuperm_ctr_search_scratch_bytes(), malloc-aligned; NULL: the search allocates its own.
     * Lets a caller keep it between searches: a fresh ~60 KB each time costs the heap a grow
     * and a trim, about a tenth of a search. */
    void* scratch;
    /* Batched GEMMs: seconds per step of k that a thread block takes (indexed as gemmFlops; 0:
     * not modelled), and the blocks that run at once (the SM count). See gemm_cost.c. */
    double batchKSeconds[4];
    double smCount;
    /* A floor under transpose_seconds: no transpose that reads and writes B bytes costs less than
     * transposeFloorT0 + B / transposeFloorRate (rate 0: none known). The search prices a
     * candidate's transposes only when its GEMM plus these floors could still enter the ranking. */
    double transposeFloorT0, transposeFloorRate;
    /* 1: GEMMs never padded and no misalignment term in their prices (the plans of before both, for
     * A/B runs); 0: layout.c, pad_gemm. */
    int denseWorkspace;
    /* A cuperm_ctr_zero_kind_t for every K padding (CUPERM_CTR_ZERO, for A/B runs); 0: each priced. */
    int zeroKind;
    double zeroRowSeconds; /* a 2-D memset's time per row (the tuning's memset2d_row_seconds) */
} cuperm_ctr_cost_model_t;

size_t cuperm_ctr_search_scratch_bytes(void);

/* Which unit a GEMM runs on. */
typedef enum { CTR_RATE_FP64 = 0, CTR_RATE_FP32 = 1, CTR_RATE_TF32 = 2, CTR_RATE_FP16 = 3 } cuperm_ctr_rate_t;
cuperm_ctr_rate_t cuperm_ctr_gemm_rate(const cuperm_ctr_gemm_shape_t* shape);

/* Peak flop rate the GEMM model assumes for a shape's compute type. */
double cuperm_ctr_gemm_peak(const cuperm_ctr_cost_model_t* model, const cuperm_ctr_gemm_shape_t* shape);
/* Model of cuBLAS time: a roofline base (flops at peak derated for tile quantisation, bytes
 * at bandwidth, a floor per thread block, a launch) times the layout factor. */
double cuperm_ctr_gemm_seconds(const cuperm_ctr_cost_model_t* model, const cuperm_ctr_gemm_shape_t* shape);

/* The layout factor exp(w . x): what cuBLAS's flags, skinny shapes and kind of batching cost
 * over the base, with w fitted to measured GEMMs (gemm_fit.h, docs/contractions.md). */
double cuperm_ctr_gemm_factor(const cuperm_ctr_gemm_shape_t* shape);
#define CTR_GEMM_FEATURES 19
void cuperm_ctr_gemm_features(const cuperm_ctr_gemm_shape_t* shape, double x[CTR_GEMM_FEATURES]);

/* How an input operand reaches cuBLAS. */
typedef enum {
    CTR_IN_DIRECT = 0,      /* read in place */
    CTR_IN_TRANSPOSE = 1,   /* cuperm transpose into the workspace */
    CTR_IN_ELEMENTWISE = 2  /* cuperm transpose with opA/opB inside it, into the workspace */
} cuperm_ctr_input_path_t;

/* How the GEMM result reaches D. */
typedef enum {
    CTR_OUT_DIRECT = 0,     /* cuBLAS writes D (after C is copied into D when C != D, beta != 0) */
    CTR_OUT_TRANSPOSE = 1,  /* cuBLAS writes W; D = perm(W) + beta * D by a cuperm transpose */
    CTR_OUT_EPILOGUE = 2    /* cuBLAS writes W; D = opD(perm(W) + beta * opC(C)) by a cuperm transpose (C copied into D first) */
} cuperm_ctr_output_path_t;

/*
 * Roles of modes in the GEMM calls. CTR_GROUP_M / N: the GEMM's free dimensions
 * (rows or columns: see swapped), CTR_GROUP_K: its inner dimension,
 * CTR_GROUP_L: the strided batch, CTR_ROLE_O: a loop of GEMM calls. Batched
 * modes are batched; free modes may also be batched (the operand without them
 * gets batch stride 0) or looped, when that lets cuBLAS write D in place.
 */
enum { CTR_ROLE_O = 4, CTR_ROLES = 5 };

typedef struct {
    cuperm_ctr_input_path_t path;
    cuperm_ctr_group_t fast, slow;   /* matrix groups: fast is stride-1 in the GEMM view */
    int64_t ld, batchStride;
    int64_t outerStride[CTR_MAX_MODES]; /* per looped mode (order[CTR_ROLE_O]); 0 if absent */
    char cublasOp;          /* 'N', 'T' or 'C' */
    double seconds;         /* predicted cost of getting it ready */
} cuperm_ctr_input_layout_t;

/* Operators after folding negations into alpha/beta and conj of real types into identity. */
typedef struct {
    cupermOperator_t op[CTR_OPERANDS];
    double alphaSign, betaSign;
} cuperm_ctr_folded_ops_t;

/* What runs the contraction: cuBLAS between transposes, or a GETT kernel (plan/contraction/gett.h). */
typedef enum { CTR_KIND_TTGT = 0, CTR_KIND_GETT = 1 } cuperm_ctr_kind_t;

typedef struct {
    cuperm_ctr_kind_t kind;               /* TTGT (every field below) or GETT (kind, dtile, role, count,
                                             size, order, m, n, k, batch, calls = 1, ops; no workspace) */
    int dtile;                            /* GETT on the D-tile kernel (plan/contraction/gett_dtile.h) */
    int swapped;                          /* cuBLAS's first operand is B; rows are the N-role modes */
    int role[CTR_MAX_MODES];              /* per mode-table entry: a cuperm_ctr_group_t or CTR_ROLE_O */
    int count[CTR_ROLES];
    int64_t size[CTR_ROLES];              /* product of the role's extents (1 when empty) */
    int order[CTR_ROLES][CTR_MAX_MODES];  /* mode-table indices, fastest first */
    cuperm_ctr_input_layout_t in[2];               /* CTR_A, CTR_B */
    cuperm_ctr_output_path_t out;
    int inplaceOpD;                       /* an extra pass D = opD(D) after the output is written */
    int64_t ldD, batchStrideD;            /* GEMM output (D itself or W) */
    int64_t outerStrideD[CTR_MAX_MODES];
    int64_t m, n, k, batch, calls;        /* the GEMM call's extents (padded: pad); calls: product of looped
                                             extents; > 1: one pointer-array batched GEMM of calls * batch entries */
    int64_t pad[CTR_GROUPS];              /* M, N, K as the GEMM runs them: size[], or rounded up to 16 bytes
                                             where every matrix is in the workspace (layout.c: pad_gemm) */
    cuperm_ctr_folded_ops_t ops;
    double inputSeconds, outputSeconds, gemmSeconds;
    int ltAlgo;                           /* one-call GEMMs: 0, cuBLASLt's first answer after the plan's first runs
                                             (exec/contraction/build.c); k > 0, its answer k - 1 from the first run:
                                             measure mode's choice among them (measure.c) */
    size_t wsOffset[4], wsBytes[4];       /* workspace for op(A), op(B), W, GEMM pointer arrays */
    size_t workspaceBytes;                /* total, without cuBLAS's own workspace */
} cuperm_ctr_layout_t;

/* The host time of one cuBLAS GEMM call (cublasGemmEx, 8.2 us on the H100 machine's host:
 * bench/results/contraction/lt-h100/host-overhead.md): the least each of a layout's separate calls
 * costs, however small its GEMM. */
#define CTR_GEMM_CALL_SECONDS 8e-6

/* Whether every entry of a layout's looped GEMMs lies a multiple of CTR_PTR_ALIGN bytes from its
 * operand's base: then aligned bases make every pointer of the pointer-array batch aligned, and
 * the plan runs one batch; otherwise one strided-batched call per looped index. */
int cuperm_ctr_layout_pointers_aligned(const cuperm_ctr_problem_t* p, const cuperm_ctr_layout_t* l);

/* The pointer-array batch of a layout with looped modes (l->calls > 1): the strided batch as
 * dimension 0, then the looped modes, unit extents dropped and contiguous ones fused. */
void cuperm_ctr_layout_pointers(const cuperm_ctr_problem_t* p, const cuperm_ctr_layout_t* l, cuperm_ctr_ptr_params_t* q);

void cuperm_ctr_fold_operators(const cuperm_ctr_problem_t* p, cuperm_ctr_folded_ops_t* f);

/* Chooses the cheapest layout; fails only if no candidate could be priced. */
cupermStatus_t cuperm_ctr_layout_choose(const cuperm_ctr_problem_t* p, const cuperm_ctr_cost_model_t* model, cuperm_ctr_layout_t* out);

/* The up to max cheapest distinct layouts, cheapest first (workspace placed); returns how
 * many (0 if none could be priced). */
int cuperm_ctr_layout_rank(const cuperm_ctr_problem_t* p, const cuperm_ctr_cost_model_t* model, cuperm_ctr_layout_t* best, int max);

/* The GEMM a TTGT layout runs, as the model prices it. */
void cuperm_ctr_layout_gemm_shape(const cuperm_ctr_problem_t* p, const cuperm_ctr_layout_t* l, cuperm_ctr_gemm_shape_t* s);

/* Where a padded GEMM's input `which` holds K's padding, which must be zero: {offset, pitch, width,
 * height} in elements of its workspace slice; returns 0 where it has none. */
int cuperm_ctr_layout_zero_region(const cuperm_ctr_layout_t* l, const cuperm_ctr_problem_t* p, int which,
                                  int64_t region[4]);

/* How that padding is zeroed. An input with K slow has wide rows of padding (whole columns); one
 * with K fast has a few bytes at the end of every column, which a 2-D memset writes at ~0.65 ns a row
 * (H200: 1.33M rows of 4 bytes took 0.86 ms): there the whole slice is set to zero before the
 * transpose writes it, one dense write pass (0.07 ms for the same 300 MB slice). */
typedef enum {
    CTR_ZERO_NONE = 0,
    CTR_ZERO_MEMSET2D, /* cudaMemset2DAsync of the region, after the transpose */
    CTR_ZERO_SLICE     /* cudaMemsetAsync of the whole slice, before the transpose */
} cuperm_ctr_zero_kind_t;

typedef struct {
    cuperm_ctr_zero_kind_t kind;
    int64_t region[4]; /* cuperm_ctr_layout_zero_region's */
    double seconds;    /* its price */
} cuperm_ctr_zero_t;

/* The kind CUPERM_CTR_ZERO names ("memset2d", "slice"); 0 for NULL or another name. */
int cuperm_ctr_zero_kind_named(const char* name);

/* The cheapest way (or model->zeroKind where set) to zero input `which`'s K padding, and its
 * price; kind CTR_ZERO_NONE where it has none. */
CUPERM_INTERNAL_API cuperm_ctr_zero_kind_t cuperm_ctr_layout_zero(const cuperm_ctr_layout_t* l, const cuperm_ctr_problem_t* p,
                                                                  int which, const cuperm_ctr_cost_model_t* model,
                                                                  cuperm_ctr_zero_t* z);

/* The bytes of t's shared fastest run: where the input's fastest dimension is also the output's
 * (so the transpose moves rows of it, not tiles), how many bytes lie contiguously on both sides
 * from it on; 0 where the fastest dimensions differ. Short shared runs cost the transpose kernels
 * more than the transpose model says (exec/contraction/plan.c: predict_transpose). */
CUPERM_INTERNAL_API double cuperm_ctr_transpose_shared_run_bytes(const cuperm_ctr_transpose_t* t);

/* The transposes a layout runs, in cupermPlanTranspose's convention (the first also for
 * tools/model/ctr_candidate_times.c, which links the shared library). */
CUPERM_INTERNAL_API void cuperm_ctr_layout_input_transpose(const cuperm_ctr_problem_t* p, const cuperm_ctr_layout_t* l, int which, cuperm_ctr_transpose_t* t);
CUPERM_INTERNAL_API void cuperm_ctr_layout_output_transpose(const cuperm_ctr_problem_t* p, const cuperm_ctr_layout_t* l, cuperm_ctr_transpose_t* t);
void cuperm_ctr_copy_c_to_d(const cuperm_ctr_problem_t* p, cuperm_ctr_transpose_t* t);

/* Strides, in W, of D's dimensions (0 for unit ones); W is [rows][cols][batch] dense. */
void cuperm_ctr_layout_w_strides_for_d(const cuperm_ctr_problem_t* p, const cuperm_ctr_layout_t* l, int64_t* strides);

/* Writes a one-line human description; returns the length it needed. */
int cuperm_ctr_layout_describe(const cuperm_ctr_problem_t* p, const cuperm_ctr_layout_t* l, char* buf, size_t size);

#endif
