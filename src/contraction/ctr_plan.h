/* The object behind cupermContractionPlan_t: a layout and what runs it. */
#ifndef CUPERM_CTR_PLAN_H
#define CUPERM_CTR_PLAN_H

#include "ctr_elementwise.h"
#include "ctr_layout.h"
#include "ctr_pointers.h"
#include "ctr_state.h"

#define CTR_PLAN_MAGIC 0x63757065726d4331ull /* "cupermC1" */
#define CTR_DEAD_MAGIC 0xdeaddeaddeaddeadull

/* cuBLAS gets its own slice of the workspace (per call, so concurrent streams never share one). */
#define CTR_CUBLAS_WORKSPACE ((size_t)32 << 20)

struct cupermContractionPlan {
    uint64_t magic;
    cupermHandle_t handle;
    ctr_state* state;
    int device;
    ctr_problem problem;
    ctr_layout layout;
    cupermPlan_t inputTranspose[2]; /* A, B into the workspace (CTR_IN_TRANSPOSE) */
    ctr_ew_params inputKernel[2];   /* A, B into the workspace (CTR_IN_ELEMENTWISE) */
    cupermPlan_t outputTranspose;   /* W into D (CTR_OUT_TRANSPOSE) */
    ctr_ew_params epilogue;         /* W and C into D (CTR_OUT_EPILOGUE) */
    ctr_ew_params opDPass;          /* D = opD(D) (layout.inplaceOpD) */
    cupermPlan_t copyC;             /* C into D, when C is not D and beta != 0 */
    ctr_ptr_params pointers;        /* looped modes: the pointer-array batch (layout.calls > 1) */
    int cdSameLayout;               /* C and D strides equal: C may alias D */
    int64_t spanBytes[CTR_OPERANDS];
    size_t workspaceBytes;          /* layout's plus cuBLAS's */
    int measured;                   /* chosen by CUPERM_PLAN_MEASURE */
    double measuredSeconds;         /* its median time then (0 for model plans) */
    char description[640];
};

/* Builds the runners of c->layout (sub-plans, kernel parameters), the workspace size, the
 * operand spans and the description; on failure releases what it made. */
cupermStatus_t ctr_plan_build(struct cupermContractionPlan* c);

/* Destroys the sub-plans (the plan object itself stays). */
void ctr_plan_release(struct cupermContractionPlan* c);

/* The plan's steps on a stream (cupermContract after its checks): alpha, beta as {re, im}
 * with the folded signs applied; ws holds the plan's workspace. */
cupermStatus_t ctr_run_steps(cupermContractionPlan_t plan, const double alpha[2], const void* A, const void* B,
                             const double beta[2], int betaZero, const void* C, void* D, char* ws,
                             cudaStream_t stream);

#endif
