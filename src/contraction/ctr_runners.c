/* The runners of a contraction plan: sub-plans and kernel parameters for its layout. */
#include <string.h>

#include "ctr_plan.h"
#include "ctr_types.h"

/* ---- sub-plans ---------------------------------------------------------------- */

static cupermStatus_t plan_transpose(cuperm_handle_t* h, const ctr_transpose* t, cuperm_transpose_plan_t* out)
{
    return cuperm_transpose_plan_init(h, out, t->rank, t->extents, t->perm, t->type, t->inStrides, t->outStrides);
}

/* Operator kernel over a transpose's output order: out dense, in gathered. */
static void kernel_from_transpose(const ctr_transpose* t, cupermOperator_t op, double param,
                                  ctr_ew_params* k)
{
    memset(k, 0, sizeof *k);
    k->rank = t->rank;
    k->type = t->type;
    for (int r = 0; r < t->rank; ++r) {
        k->extents[r] = t->extents[t->perm[r]];
        k->inStrides[r] = t->inStrides[t->perm[r]];
        k->outStrides[r] = t->outStrides[r];
    }
    k->opIn = op;
    k->paramIn = param;
    ctr_ew_fuse(k);
}

/* Iteration over D's dimensions, smallest D stride first, so that D is written in order. */
static void kernel_over_d(const ctr_problem* p, const int64_t* inStrides, const int64_t* cStrides,
                          ctr_ew_params* k)
{
    const ctr_operand* D = &p->op[CTR_D];
    int order[CUPERM_MAX_RANK];
    for (int i = 0; i < D->rank; ++i) order[i] = i;
    for (int i = 1; i < D->rank; ++i)
        for (int j = i; j > 0 && D->strides[order[j]] < D->strides[order[j - 1]]; --j) {
            const int s = order[j]; order[j] = order[j - 1]; order[j - 1] = s;
        }
    memset(k, 0, sizeof *k);
    k->rank = D->rank;
    k->type = D->type;
    for (int r = 0; r < D->rank; ++r) {
        const int d = order[r];
        k->extents[r] = D->extents[d];
        k->outStrides[r] = D->strides[d];
        k->inStrides[r] = inStrides[d];
        k->cStrides[r] = cStrides[d];
    }
}

/* Whether every entry of the pointer-array batch lies a multiple of CTR_PTR_ALIGN bytes from
 * its operand's base: then aligned bases make every pointer aligned. */
static int pointers_aligned(const ctr_ptr_params* q)
{
    for (int j = 0; j < 3; ++j) {
        if (q->batch > 1 && q->batchStride[j] * q->elemBytes[j] % CTR_PTR_ALIGN) return 0;
        for (int i = 0; i < q->nLooped; ++i)
            if (q->extents[i] > 1 && q->strides[j][i] * q->elemBytes[j] % CTR_PTR_ALIGN) return 0;
    }
    return 1;
}

static cupermStatus_t build_runners(cuperm_contraction_plan_t* c)
{
    const ctr_problem* p = &c->problem;
    const ctr_layout* l = &c->layout;
    cupermStatus_t st;
    for (int x = 0; x < 2; ++x) {
        if (l->in[x].path == CTR_IN_DIRECT) continue;
        ctr_transpose t;
        ctr_layout_input_transpose(p, l, x, &t);
        if (l->in[x].path == CTR_IN_TRANSPOSE) {
            if ((st = plan_transpose(c->handle, &t, &c->inputTranspose[x]))) return st;
        } else {
            kernel_from_transpose(&t, l->ops.op[x], p->op[x].opParam, &c->inputKernel[x]);
        }
    }
    if (l->out != CTR_OUT_EPILOGUE) {
        ctr_transpose t;
        ctr_copy_c_to_d(p, &t);
        if ((st = plan_transpose(c->handle, &t, &c->copyC))) return st;
    }
    if (l->out == CTR_OUT_TRANSPOSE) {
        ctr_transpose t;
        ctr_layout_output_transpose(p, l, &t);
        if ((st = plan_transpose(c->handle, &t, &c->outputTranspose))) return st;
    }
    if (l->out == CTR_OUT_EPILOGUE) {
        int64_t w[CUPERM_MAX_RANK];
        ctr_layout_w_strides_for_d(p, l, w);
        kernel_over_d(p, w, p->op[CTR_C].strides, &c->epilogue);
        c->epilogue.opC = l->ops.op[CTR_C];
        c->epilogue.paramC = p->op[CTR_C].opParam;
        c->epilogue.opOut = l->ops.op[CTR_D];
        c->epilogue.paramOut = p->op[CTR_D].opParam;
        ctr_ew_fuse(&c->epilogue);
    }
    if (l->calls > 1) {
        const int first = l->swapped ? CTR_B : CTR_A, second = l->swapped ? CTR_A : CTR_B;
        ctr_ptr_params* q = &c->pointers;
        q->nLooped = l->count[CTR_ROLE_O];
        for (int i = 0; i < q->nLooped; ++i) {
            q->extents[i] = p->modes[l->order[CTR_ROLE_O][i]].extent;
            q->strides[0][i] = l->in[first].outerStride[i];
            q->strides[1][i] = l->in[second].outerStride[i];
            q->strides[2][i] = l->outerStrideD[i];
        }
        q->batch = l->batch;
        q->batchStride[0] = l->in[first].batchStride;
        q->batchStride[1] = l->in[second].batchStride;
        q->batchStride[2] = l->batchStrideD;
        q->elemBytes[0] = q->elemBytes[1] = (int64_t)cupermDataTypeSize(p->op[CTR_A].type);
        q->elemBytes[2] = (int64_t)cupermDataTypeSize(p->op[CTR_D].type);
        q->count = l->calls * l->batch;
        c->pointersAligned = pointers_aligned(q);
    }
    if (l->inplaceOpD) {
        kernel_over_d(p, p->op[CTR_D].strides, p->op[CTR_D].strides, &c->opDPass);
        c->opDPass.opOut = l->ops.op[CTR_D];
        c->opDPass.paramOut = p->op[CTR_D].opParam;
        ctr_ew_fuse(&c->opDPass);
    }
    return CUPERM_STATUS_SUCCESS;
}

cupermStatus_t ctr_plan_build(cuperm_contraction_plan_t* c)
{
    const cupermStatus_t st = build_runners(c);
    if (st) return st;
    const ctr_problem* p = &c->problem;
    c->cdSameLayout = memcmp(p->op[CTR_C].strides, p->op[CTR_D].strides,
                             sizeof(int64_t) * (size_t)p->op[CTR_D].rank) == 0;
    for (int w = 0; w < CTR_OPERANDS; ++w)
        c->spanBytes[w] = (ctr_operand_max_offset(&p->op[w]) + 1) * (int64_t)cupermDataTypeSize(p->op[w].type);
    c->workspaceBytes = c->layout.workspaceBytes + CTR_CUBLAS_WORKSPACE;
    ctr_layout_describe(p, &c->layout, c->description, sizeof c->description);
    return CUPERM_STATUS_SUCCESS;
}
