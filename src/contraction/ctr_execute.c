/* cupermContract: runs a contraction plan's steps on a stream. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "ctr_gemm.h"
#include "ctr_plan.h"
#include "ctr_types.h"
#include "host/errors.h"
#include "runtime/device_check.h"

#define INVALID CUPERM_STATUS_INVALID_VALUE
#define WS_ALIGN 256

/* alpha/beta as {re, im}: double for R_64F D, complex for C types, float otherwise. */
static void read_scalar(cupermDataType_t cd, const void* s, double v[2])
{
    v[1] = 0.0;
    switch (cd) {
    case CUPERM_R_64F: memcpy(v, s, 8); break;
    case CUPERM_C_64F: memcpy(v, s, 16); break;
    case CUPERM_C_32F: {
        float f[2];
        memcpy(f, s, 8);
        v[0] = f[0];
        v[1] = f[1];
        break;
    }
    default: {
        float f;
        memcpy(&f, s, 4);
        v[0] = f;
    }
    }
}

/* A scalar for cupermExecute on type t: float for the 16-bit floats, else the element type. */
static void transpose_scalar(cupermDataType_t t, const double v[2], unsigned char out[16])
{
    if (t == CUPERM_R_64F || t == CUPERM_C_64F) {
        memcpy(out, v, t == CUPERM_C_64F ? 16 : 8);
    } else {
        const float f[2] = {(float)v[0], (float)v[1]};
        memcpy(out, f, t == CUPERM_C_32F ? 8 : 4);
    }
}

static int overlap(const void* a, int64_t aBytes, const void* b, int64_t bBytes)
{
    const uintptr_t a0 = (uintptr_t)a, b0 = (uintptr_t)b;
    return a0 < b0 + (uintptr_t)bBytes && b0 < a0 + (uintptr_t)aBytes;
}

/* A device pointer of the plan's device, aligned to its element size. */
static cupermStatus_t check_pointer(const void* ptr, cupermDataType_t type, int device, const char* name)
{
    const size_t elem = cupermDataTypeSize(type);
    if ((uintptr_t)ptr % elem)
        return cuperm_fail(INVALID, "cupermContract: %s = %p is not aligned to its element size (%zu bytes)", name,
                           ptr, elem);
    char what[48];
    snprintf(what, sizeof what, "cupermContract: %s", name);
    return cuperm_check_device_pointer(ptr, device, what);
}

static cupermStatus_t check_arguments(const cuperm_contraction_plan_t* plan, const void* A, const void* B,
                                      const void* C, const void* D, const void* workspace,
                                      size_t workspaceBytes, int betaZero)
{
    if (!A) return cuperm_fail(INVALID, "cupermContract: A is NULL");
    if (!B) return cuperm_fail(INVALID, "cupermContract: B is NULL");
    if (!D) return cuperm_fail(INVALID, "cupermContract: D is NULL");
    if (!C && !betaZero) return cuperm_fail(INVALID, "cupermContract: C is NULL but beta is not zero");
    const int64_t* span = plan->spanBytes;
    if (overlap(D, span[CTR_D], A, span[CTR_A]))
        return cuperm_fail(INVALID, "cupermContract: D overlaps A (D must not overlap A or B)");
    if (overlap(D, span[CTR_D], B, span[CTR_B]))
        return cuperm_fail(INVALID, "cupermContract: D overlaps B (D must not overlap A or B)");
    if (C && C == D && !plan->cdSameLayout)
        return cuperm_fail(INVALID, "cupermContract: C equals D but their strides differ (C may alias D "
                           "only exactly)");
    if (C && C != D && overlap(C, span[CTR_C], D, span[CTR_D]))
        return cuperm_fail(INVALID, "cupermContract: C overlaps D without being D (C may alias D only "
                           "exactly)");
    if (workspace && workspaceBytes < plan->workspaceBytes)
        return cuperm_fail(INVALID, "cupermContract: workspaceBytes is %zu; the plan needs %zu "
                           "(cupermContractionGetWorkspaceSize)", workspaceBytes, plan->workspaceBytes);
    if ((uintptr_t)workspace % WS_ALIGN)
        return cuperm_fail(INVALID, "cupermContract: workspace must be %d-byte aligned", WS_ALIGN);
    cupermStatus_t st = cuperm_check_current_device(plan->device, "cupermContract");
    const cupermDataType_t ab = plan->problem.op[CTR_A].type, cd = plan->problem.op[CTR_D].type;
    if (!st) st = check_pointer(A, ab, plan->device, "A");
    if (!st) st = check_pointer(B, ab, plan->device, "B");
    if (!st && !betaZero) st = check_pointer(C, cd, plan->device, "C");
    if (!st) st = check_pointer(D, cd, plan->device, "D");
    if (!st && workspace) st = cuperm_check_device_pointer(workspace, plan->device, "cupermContract: workspace");
    return st;
}

static cupermStatus_t cuda_failed(cudaError_t e, const char* what)
{
    return cuperm_fail(CUPERM_STATUS_CUDA_ERROR, "cupermContract: %s failed: %s", what, cudaGetErrorString(e));
}

static int aligned(const void* p) { return (uintptr_t)p % CTR_PTR_ALIGN == 0; }

/* The GEMM on a cuBLAS handle of the state's pool (one per concurrent caller: a cuBLAS
 * handle holds one stream and one workspace at a time). */
static cupermStatus_t run_gemm(const cuperm_contraction_plan_t* plan, const char* first, const char* second,
                               char* out, const double alpha[2], const double beta[2], char* ws,
                               cudaStream_t stream)
{
    cublasHandle_t blas;
    cupermStatus_t st = ctr_blas_acquire(plan->state, &blas);
    if (st) return st;
    if (cublasSetStream(blas, stream) != CUBLAS_STATUS_SUCCESS ||
        cublasSetWorkspace(blas, ws + plan->layout.workspaceBytes, CTR_CUBLAS_WORKSPACE) != CUBLAS_STATUS_SUCCESS)
        st = cuperm_fail(CUPERM_STATUS_LIBRARY_ERROR, "cupermContract: cuBLAS rejected the stream or workspace");
    const ctr_layout* l = &plan->layout;
    const ctr_problem* p = &plan->problem;
    if (!st && l->calls > 1 && plan->pointersAligned && aligned(first) && aligned(second) && aligned(out)) {
        /* Looped modes: one pointer-array batched GEMM, its arrays built on the stream first. */
        void** arrays = (void**)(ws + l->wsOffset[3]);
        const cudaError_t e = ctr_ptr_launch(&plan->pointers, first, second, out, arrays, stream);
        st = e == cudaSuccess ? ctr_gemm_run_pointers(blas, p, l, arrays, plan->pointers.count, alpha, beta)
                              : cuda_failed(e, "the GEMM pointer kernel");
    } else if (!st && l->calls > 1) {
        /* Some pointer would break cuBLAS's alignment assumptions: one strided batch per looped
         * index instead, each of whose pointers cuBLAS sees and checks. */
        const int64_t* eb = plan->pointers.elemBytes;
        for (int64_t call = 0; call < l->calls && !st; ++call) {
            int64_t off[3];
            ctr_layout_call_offsets(p, l, call, off);
            st = ctr_gemm_run(blas, p, l, first + off[0] * eb[0], second + off[1] * eb[1], out + off[2] * eb[2],
                              alpha, beta);
        }
    } else if (!st) {
        st = ctr_gemm_run(blas, p, l, first, second, out, alpha, beta);
    }
    ctr_blas_release(plan->state, blas);
    return st;
}

static cupermStatus_t run_kernel(const ctr_ew_params* k, const void* in, const void* c, void* out,
                                 const double beta[2], cudaStream_t stream)
{
    cudaError_t e = ctr_ew_launch(k, in, c, out, beta, stream);
    return e == cudaSuccess ? CUPERM_STATUS_SUCCESS : cuda_failed(e, "the operator kernel");
}

cupermStatus_t ctr_run_steps(const cuperm_contraction_plan_t* plan, const double alpha[2], const void* A, const void* B,
                             const double beta[2], int betaZero, const void* C, void* D, char* ws,
                             cudaStream_t stream)
{
    const ctr_layout* l = &plan->layout;
    const cupermDataType_t abType = plan->problem.op[CTR_A].type, cdType = plan->problem.op[CTR_D].type;
    const double one[2] = {1.0, 0.0}, zero[2] = {0.0, 0.0};
    unsigned char oneAB[16], zeroAB[16], oneCD[16], zeroCD[16], betaCD[16];
    transpose_scalar(abType, one, oneAB);
    transpose_scalar(abType, zero, zeroAB);
    transpose_scalar(cdType, one, oneCD);
    transpose_scalar(cdType, zero, zeroCD);
    transpose_scalar(cdType, beta, betaCD);
    cupermStatus_t st;

    const void* operand[2] = {A, B};
    for (int x = 0; x < 2; ++x) {
        void* dst = ws + l->wsOffset[x];
        if (l->in[x].path == CTR_IN_TRANSPOSE) {
            if ((st = cuperm_transpose_run(&plan->inputTranspose[x], oneAB, operand[x], zeroAB, dst, stream)))
                return st;
            operand[x] = dst;
        } else if (l->in[x].path == CTR_IN_ELEMENTWISE) {
            if ((st = run_kernel(&plan->inputKernel[x], operand[x], NULL, dst, zero, stream))) return st;
            operand[x] = dst;
        }
    }
    /* cuBLAS updates its output in place: D must hold C first when it is not C. */
    if (l->out != CTR_OUT_EPILOGUE && !betaZero && C != D)
        if ((st = cuperm_transpose_run(&plan->copyC, oneCD, C, zeroCD, D, stream))) return st;

    void* W = ws + l->wsOffset[2];
    const int first = l->swapped ? CTR_B : CTR_A, second = l->swapped ? CTR_A : CTR_B;
    if (l->out == CTR_OUT_DIRECT) {
        if ((st = run_gemm(plan, operand[first], operand[second], D, alpha, beta, ws, stream))) return st;
    } else {
        if ((st = run_gemm(plan, operand[first], operand[second], W, alpha, zero, ws, stream))) return st;
        if (l->out == CTR_OUT_TRANSPOSE) {
            if ((st = cuperm_transpose_run(&plan->outputTranspose, oneCD, W, betaZero ? zeroCD : betaCD, D, stream)))
                return st;
        } else if ((st = run_kernel(&plan->epilogue, W, betaZero ? NULL : C, D, beta, stream))) {
            return st;
        }
    }
    if (l->inplaceOpD) return run_kernel(&plan->opDPass, D, NULL, D, zero, stream);
    return CUPERM_STATUS_SUCCESS;
}

cupermStatus_t cupermContract(cupermContractionPlan_t token, const void* alpha, const void* A, const void* B,
                              const void* beta, const void* C, void* D, void* workspace,
                              size_t workspaceBytes, cudaStream_t stream)
{
    cuperm_contraction_plan_t* plan;
    cupermStatus_t st = ctr_plan_get(token, "cupermContract", &plan);
    if (st) return st;
    if (!alpha) return cuperm_fail(INVALID, "cupermContract: alpha is NULL (it must point to a host scalar)");
    if (!beta) return cuperm_fail(INVALID, "cupermContract: beta is NULL (it must point to a host scalar)");
    const cupermDataType_t cd = plan->problem.op[CTR_D].type;
    double a[2], b[2];
    read_scalar(cd, alpha, a);
    read_scalar(cd, beta, b);
    const int betaZero = b[0] == 0.0 && b[1] == 0.0;
    st = check_arguments(plan, A, B, betaZero ? NULL : C, D, workspace, workspaceBytes, betaZero);
    if (st) return st;
    /* Negations of operands were folded into the scalars at plan time. A zero beta stays +0:
     * cuBLAS skips reading its output only for beta == +0 (a -0 once let NaNs of a
     * poisoned D through in a complex GEMM). */
    for (int i = 0; i < 2; ++i) {
        a[i] *= plan->layout.ops.alphaSign;
        b[i] = betaZero ? 0.0 : b[i] * plan->layout.ops.betaSign;
    }
    char* ws = workspace;
    if (!ws) {
        cudaError_t e = cudaMallocAsync((void**)&ws, plan->workspaceBytes, stream);
        if (e != cudaSuccess) {
            cudaGetLastError();
            return cuperm_fail(CUPERM_STATUS_ALLOC_FAILED, "cupermContract: cudaMallocAsync of the %zu-byte "
                               "workspace failed: %s", plan->workspaceBytes, cudaGetErrorString(e));
        }
    }
    st = ctr_run_steps(plan, a, A, B, b, betaZero, C, D, ws, stream);
    if (!workspace) {
        cudaError_t e = cudaFreeAsync(ws, stream);
        if (!st && e != cudaSuccess) st = cuda_failed(e, "cudaFreeAsync of the workspace");
    }
    return st;
}
