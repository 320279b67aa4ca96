/*
 * The object behind cupermContractionPlan_t: the validated problem, the layout
 * the planner chose (transpose-transpose-GEMM-transpose), and the list of steps
 * that runs it (exec/step.h). Plans are built in place and never copied after
 * cuperm_ctr_plan_build: steps point at parameter blocks inside the plan.
 */
#ifndef CUPERM_EXEC_CONTRACTION_PLAN_H
#define CUPERM_EXEC_CONTRACTION_PLAN_H

#include <stdatomic.h>

#include "backend/cuda/cublaslt_gemm.h"
#include "backend/cuda/gemm_pointers.h"
#include "backend/cuda/gett/gett.h"
#include "backend/cuda/gett_tma/gett_tma.h"
#include "exec/contraction/state.h"
#include "exec/step.h"
#include "exec/transpose/plan.h"
#include "plan/contraction/gemm_bounds.h"
#include "plan/contraction/layout.h"

/* cuBLAS gets its own slice of the workspace (per call, so concurrent streams never share one). */
#define CTR_CUBLAS_WORKSPACE ((size_t)32 << 20)
#define CTR_MAX_STEPS 8

/* A transpose step: out = opOut(opIn(perm(in)) [+ beta * opC(out)] with use_beta), the
 * operators (plan.ops) applied inside the tuned transpose kernels. */
typedef struct {
    cuperm_transpose_plan_t plan;
    int use_beta;
} cuperm_ctr_transpose_step_t;

/* The GEMM step: out = alpha * first x second (+ beta * out with use_beta). */
typedef struct {
    int use_beta;
    cuperm_ctr_gemm_bounds_t bounds;  /* how wide cuBLAS's vectors may be (ragged: chosen at planning) */
    cuperm_ctr_lt_gemm_t lt;          /* one GEMM call (layout.calls == 1, or ragged): its cuBLASLt algorithm, */
    atomic_int ltState;               /* once chosen (2; 1: being chosen; 0: not yet: cublasGemmEx), */
    atomic_long runs;                 /* at this run (handle's ltAfterRuns; cuperm_ctr_plan_lt_run) */
    cuperm_ctr_ptr_params_t pointers; /* looped modes: the pointer-array batch (layout.calls > 1) */
    int pointersAligned;     /* every entry's offset from its base is a multiple of CTR_PTR_ALIGN bytes */
} cuperm_ctr_gemm_step_t;

/* A padded GEMM's K padding zeroed in an input's workspace slice (plan/contraction/layout.h:
 * cuperm_ctr_layout_zero), in bytes: the region, or for CTR_ZERO_SLICE the whole slice. */
typedef struct {
    cuperm_ctr_zero_kind_t kind;
    size_t offset, pitch, width, height;
} cuperm_ctr_zero_step_t;

/* The GETT step: the kernel's parameter block and the offset tables it points into, uploaded
 * once when the plan is built (from the handle's pool on the plan's device) and freed by
 * cuperm_ctr_plan_release (cupermContractionPlanDestroy). */
typedef struct {
    cuperm_gett_params_t params;
    void* tables; /* device memory, owned: int32_t entries when params.off32, else int64_t */
    void* packedTables; /* the D-tile packed path's bases and staging places (device, owned), or NULL */
    size_t packedBytes; /* its panel images' workspace (0: no packed path) */
    int by[3];    /* M, N, K ordered by these operands' strides (cuperm_ctr_gett_tables_t.by) */
    int useTma;   /* the Hopper kernels run it when A and B are 16-byte aligned, the table kernel otherwise */
    int cudaCores; /* fp32 / fp64: the CUDA-core kernel (gett_simt.cu) instead of the tensor-core one */
    cuperm_gett_tma_params_t tma;
} cuperm_ctr_gett_step_t;

typedef struct cuperm_contraction_plan {
    cuperm_handle_t* handle;        /* referenced: its cuBLAS handles and caches outlive cupermDestroy */
    cuperm_ctr_state_t* state;
    int device;
    cuperm_ctr_problem_t problem;
    cuperm_ctr_layout_t layout;
    cuperm_step_t steps[CTR_MAX_STEPS];
    int stepCount;
    cuperm_ctr_transpose_step_t transposes[5]; /* parameter blocks the steps point at: A, B, C into D,
                                                  W into D, opD in place */
    cuperm_ctr_gemm_step_t gemm;
    cuperm_ctr_zero_step_t zeros[2]; /* A's and B's K padding (layout.pad) */
    cuperm_ctr_gett_step_t gett;    /* layout.kind == CTR_KIND_GETT */
    int cdSameLayout;               /* C and D strides equal: C may alias D */
    int64_t spanBytes[CTR_OPERANDS];
    size_t workspaceBytes;          /* layout's plus cuBLAS's */
    int measured;                   /* chosen by CUPERM_PLAN_MEASURE */
    cupermContractionAlgo_t algo;   /* the kinds of plan it could be */
    double measuredSeconds;         /* its median time then (0 for model plans) */
    atomic_int described;           /* description written: cuperm_ctr_plan_description */
    char description[640];
} cuperm_contraction_plan_t;

/* Validates and plans a contraction into *c (zeroed by the caller): problem, layout by the
 * model or by measuring among the kinds algo allows (a valid cupermContractionAlgo_t), steps.
 * Takes a reference on h when it succeeds. */
CUPERM_INTERNAL_API cupermStatus_t cuperm_ctr_plan_make(cuperm_handle_t* h, const cupermTensorDescriptor_t* A,
                                    const cupermTensorDescriptor_t* B, const cupermTensorDescriptor_t* C,
                                    const cupermTensorDescriptor_t* D, cupermComputeType_t compute,
                                    cupermPlanMode_t mode, cupermContractionAlgo_t algo,
                                    cuperm_contraction_plan_t* c);

/* The contraction cost model of h's device (its tuning table, SM count and bandwidth; the
 * transpose model behind transpose_seconds). */
CUPERM_INTERNAL_API cuperm_ctr_cost_model_t cuperm_ctr_device_model(cuperm_handle_t* h);

/* The tuning model planning weighs GETT kernels with: the handle's, or (CUPERM_CTR_DTILE_PACKED_PRICE=0,
 * for A/B runs) a copy in scratch without the D-tile kernel's packed-path price. */
CUPERM_INTERNAL_API const cuperm_tuning_t* cuperm_ctr_gett_tuning(const cuperm_handle_t* h, cuperm_tuning_t* scratch);

/* Builds c->layout's steps, the workspace size and the operand spans (a GETT layout also
 * uploads its offset tables: release them with cuperm_ctr_plan_release). */
cupermStatus_t cuperm_ctr_plan_build(cuperm_contraction_plan_t* c);

/* Counts a run of a one-GEMM plan's GEMM step and, at its handle's ltAfterRuns-th, chooses the
 * cuBLASLt algorithm (one caller does; the others go on with cublasGemmEx meanwhile). Returns
 * whether the algorithm is chosen and usable. */
int cuperm_ctr_plan_lt_run(const cuperm_contraction_plan_t* c, cuperm_ctr_gemm_step_t* g);

/* The plan's one-line description, written on first use (safe from several threads at once;
 * c built and zeroed before it was planned). */
CUPERM_INTERNAL_API const char* cuperm_ctr_plan_description(cuperm_contraction_plan_t* c);

/* Frees what cuperm_ctr_plan_build allocated on the device (GETT tables); idempotent. */
CUPERM_INTERNAL_API void cuperm_ctr_plan_release(cuperm_contraction_plan_t* c);

/* Whether the GETT kernel can run this problem on the handle's device (plan/contraction/gett.h's
 * rules, an sm_80+ device and kernel). */
int cuperm_ctr_gett_usable(const cuperm_handle_t* h, const cuperm_ctr_problem_t* p);
/* The same as a status: SUCCESS, or NOT_SUPPORTED with the rule that fails (CUPERM_ALGO_GETT). */
cupermStatus_t cuperm_ctr_gett_check(const cuperm_handle_t* h, const cuperm_ctr_problem_t* p);

/* Enqueues the plan's steps: alpha, beta as {re, im} with the folded signs applied; C is
 * NULL when beta is zero; ws holds the plan's workspace. */
CUPERM_INTERNAL_API cupermStatus_t cuperm_ctr_plan_run(const cuperm_contraction_plan_t* plan, const double alpha[2], const void* A,
                                   const void* B, const double beta[2], const void* C, void* D, char* ws,
                                   cudaStream_t stream);

/* The user's host scalars alpha, beta (types: cupermPlanContraction) as {re, im} in a, b, with
 * the plan's folded signs applied; returns whether beta is zero (then b is +0). */
CUPERM_INTERNAL_API int cuperm_ctr_plan_scalars(const cuperm_contraction_plan_t* plan, const void* alpha,
                                                const void* beta, double a[2], double b[2]);

/* The step kinds (exec/contraction/steps.c). */
cupermStatus_t cuperm_ctr_step_transpose(const cuperm_step_t* s, const void* plan, const cuperm_run_args_t* a);
cupermStatus_t cuperm_ctr_step_gemm(const cuperm_step_t* s, const void* plan, const cuperm_run_args_t* a);
cupermStatus_t cuperm_ctr_step_zero(const cuperm_step_t* s, const void* plan, const cuperm_run_args_t* a);
cupermStatus_t cuperm_ctr_step_gett(const cuperm_step_t* s, const void* plan, const cuperm_run_args_t* a);

#endif
