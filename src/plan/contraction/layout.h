/*
 * The GEMM layout of a contraction: which operands cuBLAS reads in place and
 * which are first transposed into the workspace, the order of the modes inside
 * each mode group, the operand order and cuBLAS flags, and whether the GEMM
 * writes D directly. Chosen by enumerating the candidates and pricing them with
 * a cost model (transpose predictions + a GEMM model). Plain C.
 */
#ifndef CUPERM_CTR_LAYOUT_H
#define CUPERM_CTR_LAYOUT_H

#include "plan/contraction/problem.h"

/* A transpose in cupermPlanTranspose's convention (output dimension r is input dimension perm[r]). */
typedef struct {
    int rank;
    int64_t extents[CUPERM_MAX_RANK];
    int perm[CUPERM_MAX_RANK];
    int64_t inStrides[CUPERM_MAX_RANK];
    int64_t outStrides[CUPERM_MAX_RANK];
    cupermDataType_t type;
} ctr_transpose;

/* Shape of the GEMM, for the GEMM cost model. */
typedef struct {
    int64_t m, n, k, batch, calls;
    int firstShared, secondShared; /* batch stride 0: one matrix read by every batch entry */
    int pointers;                  /* a pointer-array batch (cublasGemmBatchedEx) */
    char opFirst, opSecond;        /* cuBLAS flags: 'N', 'T' or 'C' */
    cupermDataType_t abType, cdType;
    cupermComputeType_t compute;
} ctr_gemm_shape;

typedef struct {
    /* Predicted seconds of a transpose; negative if it cannot be planned. */
    double (*transpose_seconds)(void* ctx, const ctr_transpose* t);
    void* ctx;
    double bandwidth;      /* bytes per second of device memory (for the operator kernels) */
    double gemmFlops[4];   /* peak GEMM flop rates, indexed by ctr_rate */
} ctr_cost_model;

/* Which unit a GEMM runs on. */
typedef enum { CTR_RATE_FP64 = 0, CTR_RATE_FP32 = 1, CTR_RATE_TF32 = 2, CTR_RATE_FP16 = 3 } ctr_rate;
ctr_rate ctr_gemm_rate(const ctr_gemm_shape* shape);

/* Peak flop rate the GEMM model assumes for a shape's compute type. */
double ctr_gemm_peak(const ctr_cost_model* model, const ctr_gemm_shape* shape);
/* Model of cuBLAS time: a roofline base (flops at peak derated for tile quantisation, bytes
 * at bandwidth, a floor per thread block, a launch) times the layout factor. */
double ctr_gemm_seconds(const ctr_cost_model* model, const ctr_gemm_shape* shape);

/* The layout factor exp(w . x): what cuBLAS's flags, skinny shapes and kind of batching cost
 * over the base, with w fitted to measured GEMMs (ctr_gemm_fit.h, docs/contractions.md). */
double ctr_gemm_factor(const ctr_gemm_shape* shape);
#define CTR_GEMM_FEATURES 17
void ctr_gemm_features(const ctr_gemm_shape* shape, double x[CTR_GEMM_FEATURES]);

/* How an input operand reaches cuBLAS. */
typedef enum {
    CTR_IN_DIRECT = 0,      /* read in place */
    CTR_IN_TRANSPOSE = 1,   /* cuperm transpose into the workspace */
    CTR_IN_ELEMENTWISE = 2  /* cuperm's operator kernel (permute + operator) into the workspace */
} ctr_input_path;

/* How the GEMM result reaches D. */
typedef enum {
    CTR_OUT_DIRECT = 0,     /* cuBLAS writes D (after C is copied into D when C != D, beta != 0) */
    CTR_OUT_TRANSPOSE = 1,  /* cuBLAS writes W; D = perm(W) + beta * D by a cuperm transpose */
    CTR_OUT_EPILOGUE = 2    /* cuBLAS writes W; D = opD(perm(W) + beta * opC(C)) by the operator kernel */
} ctr_output_path;

/*
 * Roles of modes in the GEMM calls. CTR_GROUP_M / N: the GEMM's free dimensions
 * (rows or columns: see swapped), CTR_GROUP_K: its inner dimension,
 * CTR_GROUP_L: the strided batch, CTR_ROLE_O: a loop of GEMM calls. Batched
 * modes are batched; free modes may also be batched (the operand without them
 * gets batch stride 0) or looped, when that lets cuBLAS write D in place.
 */
enum { CTR_ROLE_O = 4, CTR_ROLES = 5 };

typedef struct {
    ctr_input_path path;
    ctr_group fast, slow;   /* matrix groups: fast is stride-1 in the GEMM view */
    int64_t ld, batchStride;
    int64_t outerStride[CTR_MAX_MODES]; /* per looped mode (order[CTR_ROLE_O]); 0 if absent */
    char cublasOp;          /* 'N', 'T' or 'C' */
    double seconds;         /* predicted cost of getting it ready */
} ctr_input_layout;

/* Operators after folding negations into alpha/beta and conj of real types into identity. */
typedef struct {
    cupermOperator_t op[CTR_OPERANDS];
    double alphaSign, betaSign;
} ctr_folded_ops;

typedef struct {
    int swapped;                          /* cuBLAS's first operand is B; rows are the N-role modes */
    int role[CTR_MAX_MODES];              /* per mode-table entry: a ctr_group or CTR_ROLE_O */
    int count[CTR_ROLES];
    int64_t size[CTR_ROLES];              /* product of the role's extents (1 when empty) */
    int order[CTR_ROLES][CTR_MAX_MODES];  /* mode-table indices, fastest first */
    ctr_input_layout in[2];               /* CTR_A, CTR_B */
    ctr_output_path out;
    int inplaceOpD;                       /* an extra pass D = opD(D) after the output is written */
    int64_t ldD, batchStrideD;            /* GEMM output (D itself or W) */
    int64_t outerStrideD[CTR_MAX_MODES];
    int64_t m, n, k, batch, calls;        /* calls: product of looped extents; > 1: one pointer-array
                                             batched GEMM of calls * batch entries */
    ctr_folded_ops ops;
    double inputSeconds, outputSeconds, gemmSeconds;
    size_t wsOffset[4], wsBytes[4];       /* workspace for op(A), op(B), W, GEMM pointer arrays */
    size_t workspaceBytes;                /* total, without cuBLAS's own workspace */
} ctr_layout;

/* Element offsets of GEMM call number `call` in the first operand, the second and the output. */
void ctr_layout_call_offsets(const ctr_problem* p, const ctr_layout* l, int64_t call, int64_t offsets[3]);

void ctr_fold_operators(const ctr_problem* p, ctr_folded_ops* f);

/* Chooses the cheapest layout; fails only if no candidate could be priced. */
cupermStatus_t ctr_layout_choose(const ctr_problem* p, const ctr_cost_model* model, ctr_layout* out);

/* The up to max cheapest distinct layouts, cheapest first (workspace placed); returns how
 * many (0 if none could be priced). */
int ctr_layout_rank(const ctr_problem* p, const ctr_cost_model* model, ctr_layout* best, int max);

/* The transposes a layout runs, in cupermPlanTranspose's convention. */
void ctr_layout_input_transpose(const ctr_problem* p, const ctr_layout* l, int which, ctr_transpose* t);
void ctr_layout_output_transpose(const ctr_problem* p, const ctr_layout* l, ctr_transpose* t);
void ctr_copy_c_to_d(const ctr_problem* p, ctr_transpose* t);

/* Strides, in W, of D's dimensions (0 for unit ones); W is [rows][cols][batch] dense. */
void ctr_layout_w_strides_for_d(const ctr_problem* p, const ctr_layout* l, int64_t* strides);

/* Writes a one-line human description; returns the length it needed. */
int ctr_layout_describe(const ctr_problem* p, const ctr_layout* l, char* buf, size_t size);

#endif
