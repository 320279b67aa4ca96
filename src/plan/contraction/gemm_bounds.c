#include "plan/contraction/gemm_bounds.h"

#include "core/kernel_params.h"

/* The largest power of two dividing bytes, at most CTR_PTR_ALIGN (0 divides by everything). */
static unsigned pow2_of(int64_t bytes)
{
    unsigned v = 1;
    while (v < CTR_PTR_ALIGN && bytes % (2 * (int64_t)v) == 0) v *= 2;
    return v;
}

/* An operand of rows x cols stored with leading dimension ld, entries batchStride apart, looped
 * entries outer[] apart: the widest vector inside its columns, or CTR_PTR_ALIGN when its strides
 * already keep cuBLAS's vectors at least that narrow. */
static unsigned vector_bytes(const cuperm_ctr_problem_t* p, const cuperm_ctr_layout_t* l, int64_t elem, int64_t rows,
                             int64_t ld, int64_t batchStride, const int64_t* outer)
{
    int64_t strides = ld * elem; /* the widest vector the strides allow divides each of them */
    unsigned widest = pow2_of(strides);
    if (l->batch > 1 && batchStride) widest = widest < pow2_of(batchStride * elem) ? widest : pow2_of(batchStride * elem);
    for (int i = 0; i < l->count[CTR_ROLE_O] && l->calls > 1; ++i)
        if (p->modes[l->order[CTR_ROLE_O][i]].extent > 1 && outer[i]) {
            const unsigned o = pow2_of(outer[i] * elem);
            widest = widest < o ? widest : o;
        }
    const unsigned column = pow2_of(rows * elem);
    return column < widest ? column : CTR_PTR_ALIGN;
}

void cuperm_ctr_gemm_bounds(const cuperm_ctr_problem_t* p, const cuperm_ctr_layout_t* l, cuperm_ctr_gemm_bounds_t* b)
{
    const int64_t ab = (int64_t)cupermDataTypeSize(p->op[CTR_A].type), cd = (int64_t)cupermDataTypeSize(p->op[CTR_D].type);
    const cuperm_ctr_input_layout_t* first = &l->in[l->swapped ? CTR_B : CTR_A];
    const cuperm_ctr_input_layout_t* second = &l->in[l->swapped ? CTR_A : CTR_B];
    /* Stored rows: op(first) is m x k, op(second) k x n, the output m x n. */
    const int64_t firstRows = first->cublasOp == 'N' ? l->m : l->k;
    const int64_t secondRows = second->cublasOp == 'N' ? l->k : l->n;
    b->vectorBytes[CTR_GEMM_FIRST] = vector_bytes(p, l, ab, firstRows, first->ld, first->batchStride, first->outerStride);
    b->vectorBytes[CTR_GEMM_SECOND] =
        vector_bytes(p, l, ab, secondRows, second->ld, second->batchStride, second->outerStride);
    b->vectorBytes[CTR_GEMM_OUT] = vector_bytes(p, l, cd, l->m, l->ldD, l->batchStrideD, l->outerStrideD);
    b->ragged = 0;
    for (int i = 0; i < 3; ++i) b->ragged |= b->vectorBytes[i] < CTR_PTR_ALIGN;
}
