/* The object behind cupermContractionPlan_t: a layout and what runs it. */
#ifndef CUPERM_CTR_PLAN_H
#define CUPERM_CTR_PLAN_H

#include "ctr_elementwise.h"
#include "ctr_layout.h"
#include "ctr_pointers.h"
#include "ctr_state.h"
#include "runtime/objects.h"


/* cuBLAS gets its own slice of the workspace (per call, so concurrent streams never share one). */
#define CTR_CUBLAS_WORKSPACE ((size_t)32 << 20)

typedef struct cuperm_contraction_plan {
    cuperm_handle_t* handle;        /* referenced: its cuBLAS handle and caches outlive cupermDestroy */
    ctr_state* state;
    int device;
    ctr_problem problem;
    ctr_layout layout;
    cuperm_transpose_plan_t inputTranspose[2]; /* A, B into the workspace (CTR_IN_TRANSPOSE) */
    ctr_ew_params inputKernel[2];   /* A, B into the workspace (CTR_IN_ELEMENTWISE) */
    cuperm_transpose_plan_t outputTranspose;   /* W into D (CTR_OUT_TRANSPOSE) */
    ctr_ew_params epilogue;         /* W and C into D (CTR_OUT_EPILOGUE) */
    ctr_ew_params opDPass;          /* D = opD(D) (layout.inplaceOpD) */
    cuperm_transpose_plan_t copyC;  /* C into D, when C is not D and beta != 0 */
    ctr_ptr_params pointers;        /* looped modes: the pointer-array batch (layout.calls > 1) */
    int pointersAligned;            /* every pointer-array entry's offset from its base is a multiple
                                       of CTR_PTR_ALIGN bytes (see ctr_pointers.h) */
    int cdSameLayout;               /* C and D strides equal: C may alias D */
    int64_t spanBytes[CTR_OPERANDS];
    size_t workspaceBytes;          /* layout's plus cuBLAS's */
    int measured;                   /* chosen by CUPERM_PLAN_MEASURE */
    double measuredSeconds;         /* its median time then (0 for model plans) */
    char description[640];
} cuperm_contraction_plan_t;

/* Builds the runners of c->layout (sub-plans, kernel parameters), the workspace size, the
 * operand spans and the description; on failure releases what it made. */
cupermStatus_t ctr_plan_build(cuperm_contraction_plan_t* c);

/* The live plan a token names, or INVALID_VALUE naming fn. */
cupermStatus_t ctr_plan_get(cupermContractionPlan_t token, const char* fn, cuperm_contraction_plan_t** out);

/* The plan's steps on a stream (cupermContract after its checks): alpha, beta as {re, im}
 * with the folded signs applied; ws holds the plan's workspace. */
cupermStatus_t ctr_run_steps(const cuperm_contraction_plan_t* plan, const double alpha[2], const void* A, const void* B,
                             const double beta[2], int betaZero, const void* C, void* D, char* ws,
                             cudaStream_t stream);

#endif
