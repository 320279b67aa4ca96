#include "backend/cuda/cublaslt_gemm.h"

#include <stdint.h>
#include <string.h>

#include "backend/cuda/cublas_gemm.h"
#include "core/error.h"

static int ok(cublasStatus_t st) { return st == CUBLAS_STATUS_SUCCESS; }

/* A stored matrix of rows x cols (before op) with leading dimension ld, strided-batched when
 * batch > 1 (stride 0: one matrix for every entry). */
static int describe_matrix(cublasLtMatrixLayoutOpaque_t* m, cudaDataType_t type, int64_t rows, int64_t cols,
                           int64_t ld, int64_t batch, int64_t batchStride)
{
    if (!ok(cublasLtMatrixLayoutInit(m, type, (uint64_t)rows, (uint64_t)cols, ld))) return 0;
    if (batch == 1) return 1;
    const int32_t count = (int32_t)batch;
    return ok(cublasLtMatrixLayoutSetAttribute(m, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, &count, sizeof count)) &&
           ok(cublasLtMatrixLayoutSetAttribute(m, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET, &batchStride,
                                               sizeof batchStride));
}

static int describe(const cuperm_ctr_problem_t* p, const cuperm_ctr_layout_t* l, cuperm_ctr_lt_gemm_t* g)
{
    if (l->batch > INT32_MAX) return 0;
    const double zero[2] = {0, 0};
    cuperm_ctr_gemm_args_t a;
    cuperm_ctr_gemm_args_of(p, l, zero, zero, &a);
    const int32_t opFirst = a.opFirst, opSecond = a.opSecond;
    const int firstN = a.opFirst == CUBLAS_OP_N, secondN = a.opSecond == CUBLAS_OP_N;
    return ok(cublasLtMatmulDescInit(&g->desc, a.compute, a.scale)) &&
           ok(cublasLtMatmulDescSetAttribute(&g->desc, CUBLASLT_MATMUL_DESC_TRANSA, &opFirst, sizeof opFirst)) &&
           ok(cublasLtMatmulDescSetAttribute(&g->desc, CUBLASLT_MATMUL_DESC_TRANSB, &opSecond, sizeof opSecond)) &&
           describe_matrix(&g->first, a.ab, firstN ? l->m : l->k, firstN ? l->k : l->m, a.ldFirst, l->batch,
                           a.first->batchStride) &&
           describe_matrix(&g->second, a.ab, secondN ? l->k : l->n, secondN ? l->n : l->k, a.ldSecond, l->batch,
                           a.second->batchStride) &&
           describe_matrix(&g->out, a.cd, l->m, l->n, l->ldD, l->batch, l->batchStrideD);
}

void cuperm_ctr_lt_plan(cublasLtHandle_t lt, const cuperm_ctr_problem_t* p, const cuperm_ctr_layout_t* l,
                        size_t workspaceBytes, const unsigned* vectorBytes, int pick, cuperm_ctr_lt_gemm_t* g)
{
    memset(g, 0, sizeof *g);
    for (int i = 0; i < 3; ++i)
        g->align[i] = vectorBytes && vectorBytes[i] < CTR_LT_PTR_ALIGN ? vectorBytes[i] : CTR_LT_PTR_ALIGN;
    if (!lt || !describe(p, l, g)) return;
    cublasLtMatmulPreference_t pref = NULL;
    if (!ok(cublasLtMatmulPreferenceCreate(&pref))) return;
    const uint32_t alignFirst = g->align[0], alignSecond = g->align[1], alignOut = g->align[2];
    /* Split-K partial sums in the compute type, never the (narrower) output type: as the cuBLAS
     * handles' CUBLAS_MATH_DISALLOW_REDUCED_PRECISION_REDUCTION (exec/contraction/state.c). */
    const uint32_t reductions = CUBLASLT_REDUCTION_SCHEME_INPLACE | CUBLASLT_REDUCTION_SCHEME_COMPUTE_TYPE;
    cublasLtMatmulHeuristicResult_t results[CTR_LT_ALGOS];
    int found = 0;
    if (pick < 0 || pick >= CTR_LT_ALGOS) pick = 0; /* every answer asked for: g->found counts them */
    if (ok(cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &workspaceBytes,
                                                sizeof workspaceBytes)) &&
        ok(cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_REDUCTION_SCHEME_MASK, &reductions,
                                                sizeof reductions)) &&
        ok(cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES, &alignFirst,
                                                sizeof alignFirst)) &&
        ok(cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_B_BYTES, &alignSecond,
                                                sizeof alignSecond)) &&
        ok(cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_C_BYTES, &alignOut,
                                                sizeof alignOut)) &&
        ok(cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_D_BYTES, &alignOut,
                                                sizeof alignOut)) &&
        ok(cublasLtMatmulAlgoGetHeuristic(lt, &g->desc, &g->first, &g->second, &g->out, &g->out, pref, CTR_LT_ALGOS,
                                          results, &found))) {
        const cublasLtMatmulHeuristicResult_t* r = &results[pick < found ? pick : 0];
        g->found = found;
        g->ready = found > 0 && ok(r->state);
        if (g->ready) {
            g->algo = r->algo;
            g->workspaceBytes = r->workspaceSize;
        }
    }
    cublasLtMatmulPreferenceDestroy(pref);
}

int cuperm_ctr_lt_fits(const cuperm_ctr_lt_gemm_t* g, const void* first, const void* second, const void* out)
{
    return g->ready && (uintptr_t)first % g->align[0] == 0 && (uintptr_t)second % g->align[1] == 0 &&
           (uintptr_t)out % g->align[2] == 0;
}

cupermStatus_t cuperm_ctr_lt_run(cublasLtHandle_t lt, const cuperm_ctr_lt_gemm_t* g, const cuperm_ctr_problem_t* p,
                                 const cuperm_ctr_layout_t* l, const void* first, const void* second, void* out,
                                 const double alpha[2], const double beta[2], void* workspace, cudaStream_t stream)
{
    cuperm_ctr_gemm_args_t a;
    cuperm_ctr_gemm_args_of(p, l, alpha, beta, &a);
    const cublasStatus_t st = cublasLtMatmul(lt, (cublasLtMatmulDesc_t)&g->desc, a.alpha, first,
                                             (cublasLtMatrixLayout_t)&g->first, second,
                                             (cublasLtMatrixLayout_t)&g->second, a.beta, out,
                                             (cublasLtMatrixLayout_t)&g->out, out, (cublasLtMatrixLayout_t)&g->out,
                                             &g->algo, workspace, g->workspaceBytes, stream);
    if (ok(st)) return CUPERM_STATUS_SUCCESS;
    return cuperm_fail(CUPERM_STATUS_LIBRARY_ERROR, "cupermContract: cuBLASLt matmul (m=%lld n=%lld k=%lld, %lld "
                       "entries) failed: %s", (long long)l->m, (long long)l->n, (long long)l->k, (long long)l->batch,
                       cublasGetStatusString(st));
}
