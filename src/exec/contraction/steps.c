/* The step kinds of a TTGT contraction plan: transposes (operators inside), the zeroing of a padded
 * GEMM's K padding, and the cuBLAS GEMM. */
#include <stdint.h>
#include <string.h>

#include "backend/cuda/cublas_gemm.h"
#include "core/error.h"
#include "core/index_math.h"
#include "exec/contraction/plan.h"
#include "plan/contraction/gett_tma.h"
#include "plan/contraction/types.h"

static cupermStatus_t cuda_failed(cudaError_t e, const char* what)
{
    return cuperm_fail(CUPERM_STATUS_CUDA_ERROR, "cupermContract: %s failed: %s", what, cudaGetErrorString(e));
}

/* A scalar for a transpose of type t: float for the 16-bit floats, else the element type. */
static void transpose_scalar(cupermDataType_t t, const double v[2], unsigned char out[16])
{
    if (t == CUPERM_R_64F || t == CUPERM_C_64F) {
        memcpy(out, v, t == CUPERM_C_64F ? 16 : 8);
    } else {
        const float f[2] = {(float)v[0], (float)v[1]};
        memcpy(out, f, t == CUPERM_C_32F ? 8 : 4);
    }
}

cupermStatus_t cuperm_ctr_step_transpose(const cuperm_step_t* s, const void* plan, const cuperm_run_args_t* a)
{
    (void)plan;
    const cuperm_ctr_transpose_step_t* t = s->params;
    const double one[2] = {1.0, 0.0}, zero[2] = {0.0, 0.0};
    unsigned char alpha[16], beta[16];
    transpose_scalar(t->plan.type, one, alpha);
    transpose_scalar(t->plan.type, t->use_beta && !a->beta_zero ? a->beta : zero, beta);
    return cuperm_transpose_run(&t->plan, alpha, cuperm_buffer_address(s->in, a), beta,
                                cuperm_buffer_address(s->out, a), a->stream);
}

cupermStatus_t cuperm_ctr_step_zero(const cuperm_step_t* s, const void* plan, const cuperm_run_args_t* a)
{
    (void)plan;
    const cuperm_ctr_zero_step_t* z = s->params;
    char* base = (char*)cuperm_buffer_address(s->out, a) + z->offset;
    cudaError_t e;
    switch (z->kind) {
    case CTR_ZERO_SLICE:
        e = cudaMemsetAsync(base, 0, z->pitch * z->height, a->stream);
        return e == cudaSuccess ? CUPERM_STATUS_SUCCESS : cuda_failed(e, "cudaMemsetAsync (a padded GEMM's input slice)");
    default:
        e = cudaMemset2DAsync(base, z->pitch, 0, z->width, z->height, a->stream);
        return e == cudaSuccess ? CUPERM_STATUS_SUCCESS : cuda_failed(e, "cudaMemset2DAsync (a padded GEMM's K padding)");
    }
}

static int aligned(const void* p) { return (uintptr_t)p % CTR_PTR_ALIGN == 0; }

/* The GEMM with the plan's cuBLASLt algorithm once chosen, when the pointers allow (cublaslt_gemm.h);
 * else on a cuBLAS handle of the state's pool (one per concurrent caller: a cuBLAS
 * handle holds one stream and one workspace at a time). */
cupermStatus_t cuperm_ctr_step_gemm(const cuperm_step_t* s, const void* vplan, const cuperm_run_args_t* a)
{
    const cuperm_contraction_plan_t* plan = vplan;
    cuperm_ctr_gemm_step_t* g = s->params; /* its cuBLASLt choice is made by a run (cuperm_ctr_plan_lt_run) */
    const char* first = cuperm_buffer_address(s->in, a);
    const char* second = cuperm_buffer_address(s->in2, a);
    char* out = cuperm_buffer_address(s->out, a);
    const double zero[2] = {0.0, 0.0};
    const double* beta = g->use_beta && !a->beta_zero ? a->beta : zero;
    char* cublasWorkspace = a->workspace + plan->layout.workspaceBytes;
    if (plan->layout.calls == 1 && cuperm_ctr_plan_lt_run(plan, g) && cuperm_ctr_lt_fits(&g->lt, first, second, out))
        return cuperm_ctr_lt_run(plan->state->lt, &g->lt, &plan->problem, &plan->layout, first, second, out, a->alpha,
                                 beta, cublasWorkspace, a->stream);
    cublasHandle_t blas;
    cupermStatus_t st = cuperm_ctr_blas_acquire(plan->state, &blas);
    if (st) return st;
    if (cublasSetStream(blas, a->stream) != CUBLAS_STATUS_SUCCESS ||
        cublasSetWorkspace(blas, cublasWorkspace, CTR_CUBLAS_WORKSPACE) !=
            CUBLAS_STATUS_SUCCESS)
        st = cuperm_fail(CUPERM_STATUS_LIBRARY_ERROR, "cupermContract: cuBLAS rejected the stream or workspace");
    const cuperm_ctr_layout_t* l = &plan->layout;
    const cuperm_ctr_problem_t* p = &plan->problem;
    if (!st && l->calls > 1 && g->pointersAligned && !g->bounds.ragged && aligned(first) && aligned(second) &&
        aligned(out)) {
        /* Looped modes: one pointer-array batched GEMM, its arrays built on the stream first. */
        void** arrays = (void**)(a->workspace + l->wsOffset[3]);
        const cudaError_t e = cuperm_ctr_ptr_launch(&g->pointers, first, second, out, arrays, a->stream);
        st = e == cudaSuccess ? cuperm_ctr_gemm_run_pointers(blas, p, l, arrays, g->pointers.count, a->alpha, beta)
                              : cuda_failed(e, "the GEMM pointer kernel");
    } else if (!st && l->calls > 1) {
        /* Some pointer would break cuBLAS's alignment assumptions (core/kernel_params.h), or an operand
         * is ragged (gemm_bounds.h): one strided batch per looped index instead, each of whose
         * pointers cuBLAS sees and checks, a ragged one's on the algorithm chosen for it. */
        const int64_t* eb = g->pointers.elemBytes;
        for (int64_t call = 0; call < l->calls && !st; ++call) {
            int64_t off[3]; /* entry call * batch: the call's first batch entry */
            cuperm_ctr_ptr_offsets(&g->pointers, call * l->batch, off);
            const char *callFirst = first + off[0] * eb[0], *callSecond = second + off[1] * eb[1];
            char* callOut = out + off[2] * eb[2];
            st = g->bounds.ragged && cuperm_ctr_lt_fits(&g->lt, callFirst, callSecond, callOut)
                     ? cuperm_ctr_lt_run(plan->state->lt, &g->lt, p, l, callFirst, callSecond, callOut, a->alpha,
                                         beta, cublasWorkspace, a->stream)
                     : cuperm_ctr_gemm_run(blas, p, l, callFirst, callSecond, callOut, a->alpha, beta);
        }
    } else if (!st) {
        st = cuperm_ctr_gemm_run(blas, p, l, first, second, out, a->alpha, beta);
    }
    cuperm_ctr_blas_release(plan->state, blas);
    return st;
}

/* The GETT kernel: D = alpha A x B + beta C through the offset tables (no cuBLAS; workspace only
 * for the D-tile packed path's panel images: backend/cuda/gett/gett.h, cuperm_gett_dtile_packed_takes). */
cupermStatus_t cuperm_ctr_step_gett(const cuperm_step_t* s, const void* vplan, const cuperm_run_args_t* a)
{
    (void)vplan;
    const cuperm_ctr_gett_step_t* g = s->params;
    const void* A = cuperm_buffer_address(s->in, a);
    const void* B = cuperm_buffer_address(s->in2, a);
    const void* C = a->beta_zero ? NULL : a->operand[CUPERM_BUF_C];
    void* D = cuperm_buffer_address(s->out, a);
    if (g->useTma && (uintptr_t)A % CTR_TMA_PTR_ALIGN == 0 && (uintptr_t)B % CTR_TMA_PTR_ALIGN == 0) {
        const cudaError_t e = cuperm_gett_tma_launch(&g->tma, A, B, C,
                                                     D, (float)a->alpha[0],
                                                     a->beta_zero ? 0.0f : (float)a->beta[0], a->stream);
        return e == cudaSuccess ? CUPERM_STATUS_SUCCESS : cuda_failed(e, "the Hopper GETT kernel launch");
    }
    if (g->cudaCores) {
        const cudaError_t e = cuperm_gett_simt_launch(&g->params, A, B, C,
                                                      D, a->alpha[0],
                                                      a->beta_zero ? 0.0 : a->beta[0], !a->beta_zero, a->stream);
        return e == cudaSuccess ? CUPERM_STATUS_SUCCESS : cuda_failed(e, "the GETT kernel launch");
    }
    if (cuperm_gett_dtile_packed_takes(&g->params, C, D, !a->beta_zero, a->workspace)) {
        const cudaError_t e = cuperm_gett_dtile_packed_launch(&g->params, A, B, C, D,
                                                              (float)a->alpha[0], (float)a->beta[0], !a->beta_zero,
                                                              a->workspace, a->stream);
        return e == cudaSuccess ? CUPERM_STATUS_SUCCESS : cuda_failed(e, "the packed D-tile GETT kernel launch");
    }
    if (g->params.dtileM) {
        const cudaError_t e = cuperm_gett_dtile_launch(&g->params, A, B, C,
                                                       D, (float)a->alpha[0],
                                                       (float)a->beta[0], !a->beta_zero, a->stream);
        return e == cudaSuccess ? CUPERM_STATUS_SUCCESS : cuda_failed(e, "the D-tile GETT kernel launch");
    }
    if (g->params.skinny) {
        const cudaError_t e = cuperm_gett_skinny_launch(&g->params, A, B, C,
                                                        D, (float)a->alpha[0],
                                                        (float)a->beta[0], !a->beta_zero, a->stream);
        return e == cudaSuccess ? CUPERM_STATUS_SUCCESS : cuda_failed(e, "the skinny GETT kernel launch");
    }
    if (cuperm_gett_wgmma_takes(&g->params)) {
        const cudaError_t e = cuperm_gett_wgmma_launch(&g->params, A, B, C, D, (float)a->alpha[0],
                                                       (float)a->beta[0], !a->beta_zero, a->stream);
        return e == cudaSuccess ? CUPERM_STATUS_SUCCESS : cuda_failed(e, "the wgmma GETT kernel launch");
    }
    const cudaError_t e = cuperm_gett_launch(&g->params, A, B, C, D, (float)a->alpha[0], (float)a->beta[0],
                                             !a->beta_zero, a->stream);
    return e == cudaSuccess ? CUPERM_STATUS_SUCCESS : cuda_failed(e, "the GETT kernel launch");
}
