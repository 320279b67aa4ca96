/* A contraction plan's steps for its layout: transpose sub-plans (operators inside), the GEMM, buffers. */
#include <string.h>

#include "exec/contraction/plan.h"
#include "plan/contraction/types.h"

/* ---- sub-plans ---------------------------------------------------------------- */

static cupermStatus_t plan_transpose(cuperm_handle_t* h, const cuperm_ctr_transpose_t* t, cuperm_transpose_plan_t* out)
{
    return cuperm_transpose_plan_init(h, out, t->rank, t->extents, t->perm, t->type, t->inStrides, t->outStrides);
}

/* Whether every entry of the pointer-array batch lies a multiple of CTR_PTR_ALIGN bytes from
 * its operand's base: then aligned bases make every pointer aligned. */
static int pointers_aligned(const cuperm_ctr_ptr_params_t* q)
{
    for (int j = 0; j < 3; ++j) {
        if (q->batch > 1 && q->batchStride[j] * q->elemBytes[j] % CTR_PTR_ALIGN) return 0;
        for (int i = 0; i < q->nLooped; ++i)
            if (q->extents[i] > 1 && q->strides[j][i] * q->elemBytes[j] % CTR_PTR_ALIGN) return 0;
    }
    return 1;
}

static cuperm_buffer_t operand_buffer(int which) { return (cuperm_buffer_t){(cuperm_buffer_kind_t)which, 0}; }
static cuperm_buffer_t workspace_buffer(size_t offset) { return (cuperm_buffer_t){CUPERM_BUF_WORKSPACE, offset}; }
static const cuperm_buffer_t no_buffer = {CUPERM_BUF_NONE, 0};

static cuperm_step_t* add_step(cuperm_contraction_plan_t* c, const char* name, cuperm_step_fn run, void* params,
                               cuperm_buffer_t in, cuperm_buffer_t in2, cuperm_buffer_t out)
{
    cuperm_step_t* s = &c->steps[c->stepCount++];
    *s = (cuperm_step_t){name, run, CUPERM_STEP_ALWAYS, in, in2, out, 0, params};
    return s;
}

/* A transpose step (the tuned kernels, with the operators of ops inside them when non-NULL). */
static cupermStatus_t add_transpose(cuperm_contraction_plan_t* c, int slot, const char* name, const cuperm_ctr_transpose_t* t,
                                    const cuperm_ops_t* ops, int useBeta, cuperm_buffer_t in, cuperm_buffer_t out,
                                    unsigned when)
{
    cuperm_ctr_transpose_step_t* ts = &c->transposes[slot];
    cupermStatus_t st = plan_transpose(c->handle, t, &ts->plan);
    if (st) return st;
    if (ops) ts->plan.ops = *ops;
    ts->use_beta = useBeta;
    add_step(c, name, cuperm_ctr_step_transpose, ts, in, no_buffer, out)->when = when;
    return CUPERM_STATUS_SUCCESS;
}

static void fill_pointers(const cuperm_ctr_problem_t* p, const cuperm_ctr_layout_t* l, cuperm_ctr_gemm_step_t* g)
{
    const int first = l->swapped ? CTR_B : CTR_A, second = l->swapped ? CTR_A : CTR_B;
    cuperm_ctr_ptr_params_t* q = &g->pointers;
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
    g->pointersAligned = pointers_aligned(q);
}

/* The layout's steps, in order: operands into the workspace (opA, opB inside), C into D, the
 * GEMM, the result into D (opC, opD inside), opD in place. */
static cupermStatus_t build_steps(cuperm_contraction_plan_t* c)
{
    const cuperm_ctr_problem_t* p = &c->problem;
    const cuperm_ctr_layout_t* l = &c->layout;
    cupermStatus_t st;
    cuperm_buffer_t gemmIn[2] = {operand_buffer(CTR_A), operand_buffer(CTR_B)};
    static const char* const inputNames[2][2] = {{"transpose A", "transpose A with opA"},
                                                 {"transpose B", "transpose B with opB"}};
    c->stepCount = 0;
    for (int x = 0; x < 2; ++x) {
        if (l->in[x].path == CTR_IN_DIRECT) continue;
        cuperm_ctr_transpose_t t;
        cuperm_ctr_layout_input_transpose(p, l, x, &t);
        gemmIn[x] = workspace_buffer(l->wsOffset[x]);
        const int withOp = l->in[x].path == CTR_IN_ELEMENTWISE;
        const cuperm_ops_t ops = {l->ops.op[x], CUPERM_OP_IDENTITY, CUPERM_OP_IDENTITY, p->op[x].opParam, 0, 0};
        if ((st = add_transpose(c, x, inputNames[x][withOp], &t, withOp ? &ops : NULL, 0, operand_buffer(x),
                                gemmIn[x], CUPERM_STEP_ALWAYS)))
            return st;
    }
    /* cuBLAS updates its output in place, and the W-into-D transpose reads C where D is: D
     * must hold C first when it is not C. */
    cuperm_ctr_transpose_t cToD;
    cuperm_ctr_copy_c_to_d(p, &cToD);
    if ((st = add_transpose(c, 2, "copy C into D", &cToD, NULL, 0, operand_buffer(CTR_C), operand_buffer(CTR_D),
                            CUPERM_STEP_IF_C_INTO_D)))
        return st;
    const cuperm_buffer_t W = workspace_buffer(l->wsOffset[2]);
    const int first = l->swapped ? CTR_B : CTR_A, second = l->swapped ? CTR_A : CTR_B;
    cuperm_ctr_gemm_step_t* g = &c->gemm;
    g->use_beta = l->out == CTR_OUT_DIRECT;
    if (l->calls > 1) fill_pointers(p, l, g);
    add_step(c, "GEMM", cuperm_ctr_step_gemm, g, gemmIn[first], gemmIn[second],
             l->out == CTR_OUT_DIRECT ? operand_buffer(CTR_D) : W);
    if (l->out != CTR_OUT_DIRECT) {
        /* D = opD(perm(W) + beta * opC(D)), D holding C. */
        cuperm_ctr_transpose_t t;
        cuperm_ctr_layout_output_transpose(p, l, &t);
        const cuperm_ops_t ops = {CUPERM_OP_IDENTITY, l->ops.op[CTR_C], l->ops.op[CTR_D], 0, p->op[CTR_C].opParam,
                                  p->op[CTR_D].opParam};
        const char* name = l->out == CTR_OUT_TRANSPOSE ? "transpose W into D" : "transpose W into D with opC, opD";
        if ((st = add_transpose(c, 3, name, &t, &ops, 1, W, operand_buffer(CTR_D), CUPERM_STEP_ALWAYS))) return st;
    }
    if (l->inplaceOpD) {
        /* D = opD(D): D's identity transpose onto itself (each element read, then written, by one
         * thread), the operator inside it. */
        cuperm_ctr_transpose_t t = cToD;
        memcpy(t.inStrides, t.outStrides, sizeof t.inStrides);
        const cuperm_ops_t ops = {CUPERM_OP_IDENTITY, CUPERM_OP_IDENTITY, l->ops.op[CTR_D], 0, 0, p->op[CTR_D].opParam};
        if ((st = add_transpose(c, 4, "opD on D in place", &t, &ops, 0, operand_buffer(CTR_D), operand_buffer(CTR_D),
                                CUPERM_STEP_ALWAYS)))
            return st;
    }
    return CUPERM_STATUS_SUCCESS;
}

cupermStatus_t cuperm_ctr_plan_build(cuperm_contraction_plan_t* c)
{
    const cupermStatus_t st = build_steps(c);
    if (st) return st;
    const cuperm_ctr_problem_t* p = &c->problem;
    c->cdSameLayout = memcmp(p->op[CTR_C].strides, p->op[CTR_D].strides,
                             sizeof(int64_t) * (size_t)p->op[CTR_D].rank) == 0;
    for (int w = 0; w < CTR_OPERANDS; ++w)
        c->spanBytes[w] = (cuperm_ctr_operand_max_offset(&p->op[w]) + 1) * (int64_t)cupermDataTypeSize(p->op[w].type);
    c->workspaceBytes = c->layout.workspaceBytes + CTR_CUBLAS_WORKSPACE;
    cuperm_ctr_layout_describe(p, &c->layout, c->description, sizeof c->description);
    return CUPERM_STATUS_SUCCESS;
}
