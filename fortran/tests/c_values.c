/* The C side of test_fortran_api: every constant, struct size and field
 * offset of include/cuperm.h as the C compiler sees it, looked up by name from
 * Fortran, which compares them with the module's parameters and c_sizeof/c_loc
 * of its bind(c) types. Test code only: not part of any library. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "cuperm.h"

typedef struct {
    const char* name;
    long long value;
} entry_t;

#define V(x) {#x, (long long)(x)}
#define SIZE(t) {"sizeof(" #t ")", (long long)sizeof(t)}
#define OFF(t, f) {#t "." #f, (long long)offsetof(t, f)}

static const entry_t table[] = {
    V(CUPERM_VERSION_MAJOR), V(CUPERM_VERSION_MINOR), V(CUPERM_VERSION_PATCH), V(CUPERM_VERSION),
    V(CUPERM_MAX_RANK),
    V(CUPERM_STATUS_SUCCESS), V(CUPERM_STATUS_INVALID_VALUE), V(CUPERM_STATUS_NOT_SUPPORTED),
    V(CUPERM_STATUS_ALLOC_FAILED), V(CUPERM_STATUS_CUDA_ERROR), V(CUPERM_STATUS_INTERNAL_ERROR),
    V(CUPERM_STATUS_ARCH_MISMATCH), V(CUPERM_STATUS_LIBRARY_ERROR),
    V(CUPERM_R_16F), V(CUPERM_R_16BF), V(CUPERM_R_32F), V(CUPERM_R_64F), V(CUPERM_C_32F),
    V(CUPERM_C_64F), V(CUPERM_R_8I), V(CUPERM_R_8U), V(CUPERM_R_16I), V(CUPERM_R_32I),
    V(CUPERM_R_32U), V(CUPERM_R_64I), V(CUPERM_R_64U),
    V(CUPERM_KERNEL_COPY), V(CUPERM_KERNEL_TILED), V(CUPERM_KERNEL_ROWS),
    V(CUPERM_KERNEL_WHOLE_DIMS), V(CUPERM_KERNEL_ROW_TILES),
    V(CUPERM_CONTRACTION_TTGT),
    V(CUPERM_CONTRACTION_GETT),
    V(CUPERM_OP_IDENTITY), V(CUPERM_OP_NEGATE), V(CUPERM_OP_ABS), V(CUPERM_OP_RELU),
    V(CUPERM_OP_LEAKY_RELU), V(CUPERM_OP_ELU), V(CUPERM_OP_SIGMOID), V(CUPERM_OP_TANH),
    V(CUPERM_OP_EXP), V(CUPERM_OP_SQRT), V(CUPERM_OP_CONJ),
    V(CUPERM_COMPUTE_DEFAULT), V(CUPERM_COMPUTE_16F), V(CUPERM_COMPUTE_32F), V(CUPERM_COMPUTE_64F),
    V(CUPERM_COMPUTE_32F_FAST_TF32), V(CUPERM_COMPUTE_32F_FAST_16F), V(CUPERM_COMPUTE_32F_FAST_16BF),
    V(CUPERM_PLAN_MODEL), V(CUPERM_PLAN_MEASURE),
    V(CUPERM_ALGO_DEFAULT), V(CUPERM_ALGO_TTGT), V(CUPERM_ALGO_GETT),
    /* enums are passed as integer(c_int) */
    SIZE(cupermStatus_t), SIZE(cupermDataType_t), SIZE(cupermOperator_t), SIZE(cupermComputeType_t),
    SIZE(cupermPlanMode_t), SIZE(cupermKernel_t), SIZE(cupermContractionAlgo_t),
    SIZE(cupermPlanInfo_t),
    OFF(cupermPlanInfo_t, kernel), OFF(cupermPlanInfo_t, kernelName), OFF(cupermPlanInfo_t, fusedRank),
    OFF(cupermPlanInfo_t, volume), OFF(cupermPlanInfo_t, tileA), OFF(cupermPlanInfo_t, tileB),
    OFF(cupermPlanInfo_t, threadsPerBlock), OFF(cupermPlanInfo_t, blocks),
    OFF(cupermPlanInfo_t, predictedSeconds), OFF(cupermPlanInfo_t, measured),
    OFF(cupermPlanInfo_t, movedElementBytes), OFF(cupermPlanInfo_t, tuning),
    SIZE(cupermTensorDescriptor_t),
    OFF(cupermTensorDescriptor_t, rank), OFF(cupermTensorDescriptor_t, modes),
    OFF(cupermTensorDescriptor_t, extents), OFF(cupermTensorDescriptor_t, strides),
    OFF(cupermTensorDescriptor_t, type), OFF(cupermTensorDescriptor_t, op),
    OFF(cupermTensorDescriptor_t, opParam),
    SIZE(cupermContractionInfo_t),
    OFF(cupermContractionInfo_t, m), OFF(cupermContractionInfo_t, n), OFF(cupermContractionInfo_t, k),
    OFF(cupermContractionInfo_t, batch), OFF(cupermContractionInfo_t, calls),
    OFF(cupermContractionInfo_t, swapped), OFF(cupermContractionInfo_t, opFirst),
    OFF(cupermContractionInfo_t, opSecond), OFF(cupermContractionInfo_t, transposedA),
    OFF(cupermContractionInfo_t, transposedB), OFF(cupermContractionInfo_t, transposedD),
    OFF(cupermContractionInfo_t, elementwiseKernels), OFF(cupermContractionInfo_t, flops),
    OFF(cupermContractionInfo_t, predictedTransposeSeconds),
    OFF(cupermContractionInfo_t, predictedGemmSeconds), OFF(cupermContractionInfo_t, workspaceBytes),
    OFF(cupermContractionInfo_t, description), OFF(cupermContractionInfo_t, measured),
    OFF(cupermContractionInfo_t, measuredSeconds), OFF(cupermContractionInfo_t, tuning),
    OFF(cupermContractionInfo_t, kind),
};

enum { N_ENTRIES = sizeof table / sizeof table[0] };

/* The value named name (NUL-terminated); *found = 0 if there is none. */
long long cupermft_c_value(const char* name, int* found)
{
    for (int i = 0; i < N_ENTRIES; ++i)
        if (strcmp(table[i].name, name) == 0) {
            *found = 1;
            return table[i].value;
        }
    *found = 0;
    return -1;
}

int cupermft_c_count(void) { return N_ENTRIES; }

void cupermft_c_print(void)
{
    for (int i = 0; i < N_ENTRIES; ++i) printf("  C: %-50s %lld\n", table[i].name, table[i].value);
    fflush(stdout);
}
