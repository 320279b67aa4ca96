#include "plan/contraction/layout.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/hash.h"
#include "core/layout.h"
#include "plan/contraction/roles.h"
#include "plan/contraction/types.h"

#define WS_ALIGN 256

/* ---- operators ---------------------------------------------------------- */

void cuperm_ctr_fold_operators(const cuperm_ctr_problem_t* p, cuperm_ctr_folded_ops_t* f)
{
    f->alphaSign = 1.0;
    f->betaSign = 1.0;
    for (int w = 0; w < CTR_OPERANDS; ++w) {
        cupermOperator_t op = p->op[w].op;
        const int complexType = cuperm_ctr_type_is_complex(p->op[w].type);
        if (op == CUPERM_OP_NEGATE) {
            /* -x is linear: it moves into the scalars that multiply the operand. */
            if (w == CTR_A || w == CTR_B || w == CTR_D) f->alphaSign = -f->alphaSign;
            if (w == CTR_C || w == CTR_D) f->betaSign = -f->betaSign;
            op = CUPERM_OP_IDENTITY;
        }
        if (op == CUPERM_OP_CONJ && !complexType) op = CUPERM_OP_IDENTITY;
        f->op[w] = op;
    }
}

/* ---- mode roles in an operand ------------------------------------------------ */

static int in_operand(const cuperm_ctr_problem_t* p, int mode, int which) { return p->modes[mode].pos[which] >= 0; }

/* How many of role r's modes operand `which` holds. */
static int role_present(const cuperm_ctr_problem_t* p, const cuperm_ctr_layout_t* l, int r, int which)
{
    int n = 0;
    for (int i = 0; i < l->count[r]; ++i) n += in_operand(p, l->order[r][i], which);
    return n;
}

/* Orders role r's modes by their stride in `which` (ties: dimension order); 0 if `which`
 * lacks one of them (it cannot be the source of the order). */
static int role_order_from(const cuperm_ctr_problem_t* p, cuperm_ctr_layout_t* l, int r, int which)
{
    int* order = l->order[r];
    const int n = l->count[r];
    if (role_present(p, l, r, which) != n) return 0;
    int64_t stride[CTR_MAX_MODES], pos[CTR_MAX_MODES];
    cuperm_ctr_mode_keys(p, which, stride, pos);
    cuperm_sort_by_key(order, n, stride, pos);
    return 1;
}

/* How a role's modes, in the layout's order, lie in one operand (role_fusion). */
typedef struct {
    int fuses;    /* they fuse into one dimension of the operand (or it holds none of them) */
    int present;  /* the operand holds them */
    int64_t base; /* the fused dimension's stride (0 when absent or not fused) */
} role_fusion_t;

/*
 * Whether role r's modes, in the layout's order, fuse into one dimension of `which`.
 * An operand holding none of them fuses trivially (present 0); one holding only some does not.
 */
static role_fusion_t role_fusion(const cuperm_ctr_problem_t* p, const cuperm_ctr_layout_t* l, int r, int which)
{
    const int n = l->count[r], have = role_present(p, l, r, which);
    role_fusion_t f = {have == 0, have > 0, 0};
    if (have == 0 || have != n) return f;
    int64_t extents[CTR_MAX_MODES], strides[CTR_MAX_MODES];
    cuperm_ctr_gather(p, which, l->order[r], n, extents, strides);
    f.base = strides[0];
    f.fuses = cuperm_fused_prefix(n, extents, strides) == n;
    return f;
}

/* `which`'s role fusions of groups g1, g2 and the batch into fz (indexed by group): what
 * operand_ready reads for either of g1, g2 fast. */
static void operand_fusions(const cuperm_ctr_problem_t* p, const cuperm_ctr_layout_t* l, int which, cuperm_ctr_group_t g1,
                            cuperm_ctr_group_t g2, role_fusion_t* fz)
{
    fz[g1] = role_fusion(p, l, g1, which);
    fz[g2] = role_fusion(p, l, g2, which);
    fz[CTR_GROUP_L] = role_fusion(p, l, CTR_GROUP_L, which);
}

/* Can cuBLAS read (or write) `which` in place with `fast` as its stride-1 role? fz: the
 * operand's role_fusion of each group (fast's, slow's and the batch's are read). */
static int operand_ready(const cuperm_ctr_problem_t* p, const cuperm_ctr_layout_t* l, int which, cuperm_ctr_group_t fast, cuperm_ctr_group_t slow,
                         const role_fusion_t* fz, int64_t* ld, int64_t* batchStride, int64_t* outerStride)
{
    const role_fusion_t *f = &fz[fast], *sl = &fz[slow], *b = &fz[CTR_GROUP_L];
    if (!f->fuses || !sl->fuses || !b->fuses) return 0;
    const int64_t rows = l->size[fast], cols = l->size[slow];
    if (rows > 1 && f->base != 1) return 0;
    if (cols > 1) {
        if (sl->base < rows || sl->base < 1) return 0;
        *ld = sl->base;
    } else {
        *ld = rows;
    }
    *batchStride = l->size[CTR_GROUP_L] == 1 ? *ld * cols : b->present ? b->base : 0;
    const cuperm_ctr_operand_t* t = &p->op[which];
    for (int i = 0; i < l->count[CTR_ROLE_O]; ++i) {
        const cuperm_ctr_mode_t* m = &p->modes[l->order[CTR_ROLE_O][i]];
        outerStride[i] = m->pos[which] >= 0 ? t->strides[m->pos[which]] : 0;
    }
    return 1;
}

/* ---- transposes a layout runs ---------------------------------------------- */

/* A GEMM extent rounded up to 16 bytes of elem-byte elements. cuBLAS's fast kernels need every
 * extent that runs along a matrix's columns (and every leading dimension) to be a multiple of 16
 * bytes; aligned leading dimensions alone do not do (H200, f16, cublasGemmEx: 1722 x 1681 x 68921 took
 * 2.77-4.49 ms however its leading dimensions were padded, 1728 x 1688 x 68928 0.56-0.58 ms;
 * bench/results/contraction/gemm-padding-h200/). */
static int64_t aligned_extent(int64_t x, size_t elem)
{
    const int64_t q = elem < 16 ? (int64_t)(16 / elem) : 1;
    return (x + q - 1) / q * q;
}

/* Non-unit dimensions of an operand: compact index of each original dimension (-1 for unit). */
static int compact_dims(const cuperm_ctr_operand_t* t, int* compact, int64_t* extents, int64_t* strides)
{
    int n = 0;
    for (int i = 0; i < t->rank; ++i) {
        compact[i] = -1;
        if (t->extents[i] == 1) continue;
        compact[i] = n;
        extents[n] = t->extents[i];
        strides[n] = t->strides[i];
        ++n;
    }
    return n;
}

static void scalar_transpose(cuperm_ctr_transpose_t* t)
{
    t->rank = 1;
    t->extents[0] = 1;
    t->perm[0] = 0;
    t->inStrides[0] = 1;
    t->outStrides[0] = 1;
}

/* Operand `which` into the workspace layout [fast][slow][batch][looped], holding only the modes it
 * has, dense but for the GEMM's padding (columns in->ld apart, l->pad[slow] of them), as the transpose
 * *t (when t is non-NULL); fills the looped modes' strides there when outer is non-NULL. */
static void input_transpose(const cuperm_ctr_problem_t* p, const cuperm_ctr_layout_t* l, const cuperm_ctr_input_layout_t* in, int which,
                            cuperm_ctr_transpose_t* t, int64_t* outer)
{
    int compact[CUPERM_MAX_RANK];
    if (t) {
        memset(t, 0, sizeof *t);
        t->type = p->op[which].type;
        t->rank = compact_dims(&p->op[which], compact, t->extents, t->inStrides);
    }
    const int roles[4] = {in->fast, in->slow, CTR_GROUP_L, CTR_ROLE_O};
    int r = 0;
    int64_t dense = 1;
    for (int gi = 0; gi < 4; ++gi) {
        if (gi == 1) dense = in->ld;                    /* the fast group's modes are all in the operand */
        if (gi == 2) dense = in->ld * l->pad[in->slow]; /* and so are the slow group's */
        for (int i = 0; i < l->count[roles[gi]]; ++i) {
            const int mi = l->order[roles[gi]][i];
            const cuperm_ctr_mode_t* m = &p->modes[mi];
            if (roles[gi] == CTR_ROLE_O && outer) outer[i] = m->pos[which] >= 0 ? dense : 0;
            if (m->pos[which] < 0) continue;
            if (t) {
                t->perm[r] = compact[m->pos[which]];
                t->outStrides[r] = dense;
            }
            dense *= m->extent;
            ++r;
        }
    }
    if (t && t->rank == 0) scalar_transpose(t);
}

void cuperm_ctr_layout_input_transpose(const cuperm_ctr_problem_t* p, const cuperm_ctr_layout_t* l, int which, cuperm_ctr_transpose_t* t)
{
    input_transpose(p, l, &l->in[which], which, t, NULL);
}

/* Index of each mode-table entry in W = [rows][cols][batch][looped] and W's strides: dense but for
 * the GEMM's padding (columns l->ldD apart, l->pad[cols] of them). */
static void w_positions(const cuperm_ctr_problem_t* p, const cuperm_ctr_layout_t* l, int* wIndex, int64_t* wStride)
{
    const int rows = l->swapped ? CTR_GROUP_N : CTR_GROUP_M;
    const int cols = l->swapped ? CTR_GROUP_M : CTR_GROUP_N;
    const int roles[4] = {rows, cols, CTR_GROUP_L, CTR_ROLE_O};
    int r = 0;
    int64_t dense = 1;
    for (int gi = 0; gi < 4; ++gi) {
        if (gi == 1) dense = l->ldD;
        if (gi == 2) dense = l->ldD * l->pad[cols];
        for (int i = 0; i < l->count[roles[gi]]; ++i) {
            const int mi = l->order[roles[gi]][i];
            wIndex[mi] = r++;
            wStride[mi] = dense;
            dense *= p->modes[mi].extent;
        }
    }
}

static int mode_of_dim(const cuperm_ctr_problem_t* p, int which, int dim)
{
    for (int i = 0; i < p->nmodes; ++i)
        if (p->modes[i].pos[which] == dim) return i;
    return -1;
}

/* W = [rows][cols][batch][looped] (w_positions) into D. */
void cuperm_ctr_layout_output_transpose(const cuperm_ctr_problem_t* p, const cuperm_ctr_layout_t* l, cuperm_ctr_transpose_t* t)
{
    int wIndex[CTR_MAX_MODES];
    int64_t wStride[CTR_MAX_MODES];
    w_positions(p, l, wIndex, wStride);
    memset(t, 0, sizeof *t);
    t->type = p->op[CTR_D].type;
    const cuperm_ctr_operand_t* D = &p->op[CTR_D];
    int n = 0;
    for (int i = 0; i < p->nmodes; ++i)
        if (p->modes[i].group != CTR_GROUP_K) ++n;
    if (n == 0) { scalar_transpose(t); return; }
    t->rank = n;
    for (int i = 0; i < p->nmodes; ++i) {
        if (p->modes[i].group == CTR_GROUP_K) continue;
        t->extents[wIndex[i]] = p->modes[i].extent;
        t->inStrides[wIndex[i]] = wStride[i];
    }
    int r = 0;
    for (int d = 0; d < D->rank; ++d) {
        if (D->extents[d] == 1) continue;
        const int mi = mode_of_dim(p, CTR_D, d);
        t->perm[r] = wIndex[mi];
        t->outStrides[r] = D->strides[d];
        ++r;
    }
}

void cuperm_ctr_layout_w_strides_for_d(const cuperm_ctr_problem_t* p, const cuperm_ctr_layout_t* l, int64_t* strides)
{
    int wIndex[CTR_MAX_MODES];
    int64_t wStride[CTR_MAX_MODES];
    w_positions(p, l, wIndex, wStride);
    const cuperm_ctr_operand_t* D = &p->op[CTR_D];
    for (int d = 0; d < D->rank; ++d) {
        const int mi = D->extents[d] == 1 ? -1 : mode_of_dim(p, CTR_D, d);
        strides[d] = mi < 0 ? 0 : wStride[mi];
    }
}

void cuperm_ctr_copy_c_to_d(const cuperm_ctr_problem_t* p, cuperm_ctr_transpose_t* t)
{
    int compact[CUPERM_MAX_RANK];
    int64_t dStrides[CUPERM_MAX_RANK], dExtents[CUPERM_MAX_RANK];
    memset(t, 0, sizeof *t);
    t->type = p->op[CTR_D].type;
    t->rank = compact_dims(&p->op[CTR_C], compact, t->extents, t->inStrides);
    compact_dims(&p->op[CTR_D], compact, dExtents, dStrides);
    if (t->rank == 0) { scalar_transpose(t); return; }
    for (int r = 0; r < t->rank; ++r) {
        t->perm[r] = r;
        t->outStrides[r] = dStrides[r];
    }
}

void cuperm_ctr_layout_pointers(const cuperm_ctr_problem_t* p, const cuperm_ctr_layout_t* l, cuperm_ctr_ptr_params_t* q)
{
    const int first = l->swapped ? CTR_B : CTR_A, second = l->swapped ? CTR_A : CTR_B;
    memset(q, 0, sizeof *q);
    q->dim[0] = (cuperm_dim3_t){l->batch, {l->in[first].batchStride, l->in[second].batchStride, l->batchStrideD}};
    for (int i = 0; i < l->count[CTR_ROLE_O]; ++i)
        q->dim[1 + i] = (cuperm_dim3_t){p->modes[l->order[CTR_ROLE_O][i]].extent,
                                        {l->in[first].outerStride[i], l->in[second].outerStride[i], l->outerStrideD[i]}};
    q->rank = cuperm_dims_fuse((int64_t*)q->dim, CUPERM_DIM3_PITCH, 3, 1 + l->count[CTR_ROLE_O]);
    if (q->rank == 0) q->dim[q->rank++] = (cuperm_dim3_t){1, {0, 0, 0}};
    for (int d = 0; d < q->rank; ++d) q->div[d] = cuperm_fastdiv_make(q->dim[d].extent);
    q->elemBytes[0] = q->elemBytes[1] = (int64_t)cupermDataTypeSize(p->op[CTR_A].type);
    q->elemBytes[2] = (int64_t)cupermDataTypeSize(p->op[CTR_D].type);
    q->count = l->calls * l->batch;
}

/* ---- pricing ----------------------------------------------------------------- */

double cuperm_ctr_transpose_shared_run_bytes(const cuperm_ctr_transpose_t* t)
{
    if (t->rank < 1) return 0.0;
    const int d0 = t->perm[0];
    if (t->inStrides[d0] != 1 || t->outStrides[0] != 1) return 0.0;
    int64_t run = t->extents[d0];
    for (int j = 1; j < t->rank && t->perm[j] == d0 + j && t->inStrides[d0 + j] == run && t->outStrides[j] == run; ++j)
        run *= t->extents[d0 + j];
    return (double)run * (double)cupermDataTypeSize(t->type);
}

static double transpose_cost(const cuperm_ctr_cost_model_t* model, const cuperm_ctr_transpose_t* t)
{
    const double s = model->transpose_seconds(model->ctx, t);
    return s < 0 ? INFINITY : s;
}

/* Operand `which` as cuBLAS reads it, with choice c (0: its free group fast, 1: K fast), into
 * *cand: in place when it can be (seconds 0), else rewritten into the workspace by a transpose
 * that is neither made nor priced until settle_input needs it (seconds NAN until then: a search
 * prices only the transposes of candidates that its GEMM bound lets through). fz: the operand's
 * role_fusion of each group. */
static void describe_input(const cuperm_ctr_problem_t* p, cuperm_ctr_layout_t* l, int which, int c,
                           const role_fusion_t* fz, cuperm_ctr_input_layout_t* cand)
{
    const cuperm_ctr_group_t g2 = which == CTR_A ? CTR_GROUP_M : CTR_GROUP_N;
    const cuperm_ctr_group_t choices[2][2] = {{g2, CTR_GROUP_K}, {CTR_GROUP_K, g2}};
    const int first = (which == CTR_A) != l->swapped; /* cuBLAS's first operand */
    const cupermOperator_t op = l->ops.op[which];
    memset(cand, 0, sizeof *cand);
    cand->fast = choices[c][0];
    cand->slow = choices[c][1];
    /* cuBLAS's 'T' reads the operand with its inner (K) dimension along the wrong axis. */
    const int transposed = first ? cand->fast == CTR_GROUP_K : cand->fast != CTR_GROUP_K;
    const int foldable = op == CUPERM_OP_IDENTITY || (op == CUPERM_OP_CONJ && transposed);
    cand->cublasOp = !transposed ? 'N' : op == CUPERM_OP_CONJ ? 'C' : 'T';
    const int ready = operand_ready(p, l, which, cand->fast, cand->slow, fz, &cand->ld, &cand->batchStride,
                                    cand->outerStride);
    if (ready && foldable) {
        cand->path = CTR_IN_DIRECT;
        cand->seconds = 0.0;
    } else {
        cand->ld = l->pad[cand->fast];
        if (l->count[CTR_ROLE_O]) input_transpose(p, l, cand, which, NULL, cand->outerStride); /* looped modes' strides */
        cand->batchStride = fz[CTR_GROUP_L].present ? cand->ld * l->pad[cand->slow] : 0;
        if (l->size[CTR_GROUP_L] == 1) cand->batchStride = cand->ld * l->pad[cand->slow];
        if (foldable) {
            cand->path = CTR_IN_TRANSPOSE;
        } else {
            cand->path = CTR_IN_ELEMENTWISE; /* the operator runs inside the transpose */
            cand->cublasOp = transposed ? 'T' : 'N'; /* the transpose applies conj itself */
        }
        cand->seconds = NAN;
    }
}

/* What a transpose of `volume` elements of `type` costs at least (the model's floor): 0 when no
 * floor is known. Volumes are exact in a double, so the floor does not depend on the transpose's
 * dimension order and needs no transpose made. */
static double transpose_floor(const cuperm_ctr_cost_model_t* model, double volume, cupermDataType_t type)
{
    if (!(model->transposeFloorRate > 0)) return 0.0;
    return model->transposeFloorT0 + 2.0 * volume * (double)cupermDataTypeSize(type) / model->transposeFloorRate;
}

/* An input's price if known, else its transpose's floor. */
static double input_floor(const cuperm_ctr_input_layout_t* in, double transposeFloor)
{
    return isnan(in->seconds) ? transposeFloor : in->seconds;
}

/* The price of getting input `which` ready: its transpose's, made and priced on first need. */
static double settle_input(const cuperm_ctr_problem_t* p, const cuperm_ctr_layout_t* l, const cuperm_ctr_cost_model_t* model,
                           cuperm_ctr_input_layout_t* in, int which)
{
    if (isnan(in->seconds)) {
        cuperm_ctr_transpose_t t;
        input_transpose(p, l, in, which, &t, NULL);
        in->seconds = transpose_cost(model, &t);
    }
    return in->seconds;
}

/* The output transpose W -> D's price, made on first need. */
static double output_cost(const cuperm_ctr_problem_t* p, const cuperm_ctr_layout_t* l, const cuperm_ctr_cost_model_t* model)
{
    cuperm_ctr_transpose_t t;
    cuperm_ctr_layout_output_transpose(p, l, &t);
    return transpose_cost(model, &t);
}

/* How the GEMM result reaches D, and its price: known unless it is the output transpose (then
 * NAN, made and priced on first need as the inputs' are). */
static double describe_output(const cuperm_ctr_problem_t* p, const cuperm_ctr_cost_model_t* model, cuperm_ctr_layout_t* l)
{
    const cuperm_ctr_group_t rows = l->swapped ? CTR_GROUP_N : CTR_GROUP_M;
    const cuperm_ctr_group_t cols = l->swapped ? CTR_GROUP_M : CTR_GROUP_N;
    const size_t bytes = cupermDataTypeSize(p->op[CTR_D].type);
    const int opC = l->ops.op[CTR_C] != CUPERM_OP_IDENTITY, opD = l->ops.op[CTR_D] != CUPERM_OP_IDENTITY;
    const int64_t volD = l->size[rows] * l->size[cols] * l->size[CTR_GROUP_L] * l->size[CTR_ROLE_O];
    const double inplace = 3e-6 + 2.0 * (double)volD * (double)bytes / model->bandwidth;
    l->inplaceOpD = 0;
    role_fusion_t fz[CTR_GROUPS];
    operand_fusions(p, l, CTR_D, rows, cols, fz);
    if (!opC && operand_ready(p, l, CTR_D, rows, cols, fz, &l->ldD, &l->batchStrideD, l->outerStrideD)) {
        l->out = CTR_OUT_DIRECT;
        l->inplaceOpD = opD;
        return opD ? inplace : 0.0;
    }
    int wIndex[CTR_MAX_MODES];
    int64_t wStride[CTR_MAX_MODES];
    l->ldD = l->pad[rows];
    l->batchStrideD = l->ldD * l->pad[cols];
    w_positions(p, l, wIndex, wStride);
    for (int i = 0; i < l->count[CTR_ROLE_O]; ++i) l->outerStrideD[i] = wStride[l->order[CTR_ROLE_O][i]];
    /* CTR_OUT_EPILOGUE: the same transpose, opC and opD inside it */
    l->out = !opC && !opD ? CTR_OUT_TRANSPOSE : CTR_OUT_EPILOGUE;
    return NAN;
}

/* Whether every entry of the looped GEMMs (batch and looped modes; inputs a and b as the GEMM
 * reads them) lies a multiple of CTR_PTR_ALIGN bytes from its operand's base. */
static int loop_aligned(const cuperm_ctr_problem_t* p, const cuperm_ctr_layout_t* l, const cuperm_ctr_input_layout_t* a,
                        const cuperm_ctr_input_layout_t* b)
{
    const int64_t ab = (int64_t)cupermDataTypeSize(p->op[CTR_A].type), cd = (int64_t)cupermDataTypeSize(p->op[CTR_D].type);
    if (l->size[CTR_GROUP_L] > 1 &&
        (a->batchStride * ab % CTR_PTR_ALIGN || b->batchStride * ab % CTR_PTR_ALIGN || l->batchStrideD * cd % CTR_PTR_ALIGN))
        return 0;
    for (int i = 0; i < l->count[CTR_ROLE_O]; ++i)
        if (p->modes[l->order[CTR_ROLE_O][i]].extent > 1 &&
            (a->outerStride[i] * ab % CTR_PTR_ALIGN || b->outerStride[i] * ab % CTR_PTR_ALIGN ||
             l->outerStrideD[i] * cd % CTR_PTR_ALIGN))
            return 0;
    return 1;
}

int cuperm_ctr_layout_pointers_aligned(const cuperm_ctr_problem_t* p, const cuperm_ctr_layout_t* l)
{
    return loop_aligned(p, l, &l->in[CTR_A], &l->in[CTR_B]);
}

/* The GEMM of layout l's roles with inputs inA and inB: looped modes make one pointer-array batch
 * when its entries keep the alignment, else one strided-batched call per looped index. */
static void gemm_shape(const cuperm_ctr_problem_t* p, const cuperm_ctr_layout_t* l, const cuperm_ctr_input_layout_t* inA,
                       const cuperm_ctr_input_layout_t* inB, cuperm_ctr_gemm_shape_t* s)
{
    const cuperm_ctr_input_layout_t* first = l->swapped ? inB : inA;
    const cuperm_ctr_input_layout_t* second = l->swapped ? inA : inB;
    const int looped = l->size[CTR_ROLE_O] > 1;
    memset(s, 0, sizeof *s); /* padding too: the search's memo compares shapes as bytes */
    s->m = l->pad[l->swapped ? CTR_GROUP_N : CTR_GROUP_M];
    s->n = l->pad[l->swapped ? CTR_GROUP_M : CTR_GROUP_N];
    s->k = l->pad[CTR_GROUP_K];
    s->pointers = looped && loop_aligned(p, l, inA, inB);
    s->calls = looped && !s->pointers ? l->size[CTR_ROLE_O] : 1;
    s->batch = l->size[CTR_GROUP_L] * (s->pointers ? l->size[CTR_ROLE_O] : 1);
    s->opFirst = first->cublasOp;
    s->opSecond = second->cublasOp;
    /* Batch stride 0: one matrix read by every strided batch entry. */
    s->firstShared = !s->pointers && s->batch > 1 && first->batchStride == 0;
    s->secondShared = !s->pointers && s->batch > 1 && second->batchStride == 0;
    /* cuBLAS's fast kernels need each stored matrix's column height, leading dimension and batch
     * stride to be multiples of 16 bytes (aligned_extent) */
    const int64_t ab = (int64_t)cupermDataTypeSize(p->op[CTR_A].type), cd = (int64_t)cupermDataTypeSize(p->op[CTR_D].type);
    const int64_t firstRows = s->opFirst == 'N' ? s->m : s->k, secondRows = s->opSecond == 'N' ? s->k : s->n;
    s->misaligned = (firstRows * ab) % 16 || (secondRows * ab) % 16 || (s->m * cd) % 16 || (first->ld * ab) % 16 ||
                    (second->ld * ab) % 16 || (l->ldD * cd) % 16 ||
                    (s->batch > 1 && ((first->batchStride * ab) % 16 || (second->batchStride * ab) % 16 ||
                                      (l->batchStrideD * cd) % 16));
    s->abType = p->op[CTR_A].type;
    s->cdType = p->op[CTR_D].type;
    s->compute = p->compute;
}

void cuperm_ctr_layout_gemm_shape(const cuperm_ctr_problem_t* p, const cuperm_ctr_layout_t* l, cuperm_ctr_gemm_shape_t* s)
{
    gemm_shape(p, l, &l->in[CTR_A], &l->in[CTR_B], s);
}

/* A ranked list of at most max layouts (best[0..*n), cheapest first; keep_ranked). */
typedef struct {
    cuperm_ctr_layout_t* best;
    int* n;
    int max;
} ranked_list;

static double total_seconds(const cuperm_ctr_layout_t* l) { return l->inputSeconds + l->outputSeconds + l->gemmSeconds; }

/* Whether keep_ranked could change r for a layout of cost seconds: not when r is full and the cost
 * is not 0.1% below its last (then neither a place nor a same layout's replacement is open). */
static int ranked_may_take(const ranked_list* r, double seconds)
{
    return isfinite(seconds) && (*r->n < r->max || seconds < total_seconds(&r->best[*r->n - 1]) * 0.999);
}

static void keep_ranked(cuperm_ctr_layout_t* best, int* n, int max, const cuperm_ctr_layout_t* cand);

/* Pads the GEMM of l, whose inputs and output all live in the workspace, to extents of 16 bytes:
 * cuBLAS then runs its fast kernels (aligned_extent). Rows and columns past the extents hold
 * whatever the workspace held and only reach W's padding, which the output transpose never reads;
 * K's padding must add nothing, so the plan zeroes it in both inputs (cuperm_ctr_layout_zero_region).
 * Returns 0, changing nothing, where the extents are aligned already. */
static int pad_gemm(const cuperm_ctr_problem_t* p, cuperm_ctr_layout_t* l)
{
    const size_t ab = cupermDataTypeSize(p->op[CTR_A].type), cd = cupermDataTypeSize(p->op[CTR_D].type);
    const size_t elem = ab > cd ? ab : cd;
    int changed = 0;
    for (int g = CTR_GROUP_M; g <= CTR_GROUP_K; ++g) {
        l->pad[g] = aligned_extent(l->size[g], elem);
        changed |= l->pad[g] != l->size[g];
    }
    if (!changed) return 0;
    const cuperm_ctr_group_t rows = l->swapped ? CTR_GROUP_N : CTR_GROUP_M, cols = l->swapped ? CTR_GROUP_M : CTR_GROUP_N;
    l->m = l->pad[rows];
    l->n = l->pad[cols];
    l->k = l->pad[CTR_GROUP_K];
    l->ldD = l->pad[rows];
    l->batchStrideD = l->ldD * l->pad[cols];
    return 1;
}

/* Back to l's unpadded extents (pad_gemm's undo, for the search's next pairing). */
static void unpad_gemm(cuperm_ctr_layout_t* l)
{
    for (int g = 0; g < CTR_GROUPS; ++g) l->pad[g] = l->size[g];
    const cuperm_ctr_group_t rows = l->swapped ? CTR_GROUP_N : CTR_GROUP_M, cols = l->swapped ? CTR_GROUP_M : CTR_GROUP_N;
    l->m = l->size[rows];
    l->n = l->size[cols];
    l->k = l->size[CTR_GROUP_K];
    if (l->out == CTR_OUT_DIRECT) return; /* D's own strides */
    l->ldD = l->size[rows];
    l->batchStrideD = l->ldD * l->size[cols];
}

/* K's padding in input `which` laid out as in (cuperm_ctr_layout_zero_region). */
static int zero_region(const cuperm_ctr_layout_t* l, const cuperm_ctr_problem_t* p, int which,
                       const cuperm_ctr_input_layout_t* in, int64_t region[4])
{
    const int64_t k = l->size[CTR_GROUP_K], kp = l->pad[CTR_GROUP_K];
    if (in->path == CTR_IN_DIRECT || kp == k) return 0;
    /* the operand's entries: its fast and slow groups, then its batch (looped modes are never padded) */
    const int64_t entries = cuperm_ctr_operand_volume(&p->op[which]) / (l->size[in->fast] * l->size[in->slow]);
    if (in->fast == CTR_GROUP_K) { /* rows k .. kp - 1 of every column */
        region[0] = k;
        region[1] = in->ld;
        region[2] = kp - k;
        region[3] = l->pad[in->slow] * entries;
    } else { /* columns k .. kp - 1 of every entry */
        region[0] = k * in->ld;
        region[1] = in->ld * kp;
        region[2] = (kp - k) * in->ld;
        region[3] = entries;
    }
    return 1;
}

int cuperm_ctr_layout_zero_region(const cuperm_ctr_layout_t* l, const cuperm_ctr_problem_t* p, int which,
                                  int64_t region[4])
{
    return zero_region(l, p, which, &l->in[which], region);
}

/* The ways of zeroing a region of K padding (r, in elements of e bytes), priced: a launch, the
 * bytes each writes at the memory's bandwidth, and a 2-D memset's time per row. */
static void zero_price(const int64_t r[4], double e, const cuperm_ctr_cost_model_t* model, int forced,
                       cuperm_ctr_zero_t* z)
{
    const double rows = (double)r[3];
    const double price[3] = {
        INFINITY,
        2e-6 + rows * model->zeroRowSeconds + e * (double)r[2] * rows / model->bandwidth, /* MEMSET2D */
        2e-6 + e * (double)r[1] * rows / model->bandwidth};                               /* SLICE */
    z->kind = forced == CTR_ZERO_SLICE ? CTR_ZERO_SLICE
              : forced == CTR_ZERO_MEMSET2D || price[CTR_ZERO_MEMSET2D] <= price[CTR_ZERO_SLICE] ? CTR_ZERO_MEMSET2D
                                                                                              : CTR_ZERO_SLICE;
    z->seconds = price[z->kind];
    for (int i = 0; i < 4; ++i) z->region[i] = r[i];
}

int cuperm_ctr_zero_kind_named(const char* name)
{
    static const char* const names[] = {"", "memset2d", "slice"};
    for (int k = CTR_ZERO_MEMSET2D; name && k <= CTR_ZERO_SLICE; ++k)
        if (strcmp(name, names[k]) == 0) return k;
    return CTR_ZERO_NONE;
}

/* How input `which`, laid out as in, gets its K padding zeroed (cuperm_ctr_layout_zero). */
static cuperm_ctr_zero_kind_t zero_of(const cuperm_ctr_layout_t* l, const cuperm_ctr_problem_t* p, int which,
                                      const cuperm_ctr_input_layout_t* in, const cuperm_ctr_cost_model_t* model,
                                      cuperm_ctr_zero_t* z)
{
    int64_t r[4];
    memset(z, 0, sizeof *z);
    if (!zero_region(l, p, which, in, r)) return CTR_ZERO_NONE;
    zero_price(r, (double)cupermDataTypeSize(p->op[which].type), model, model->zeroKind, z);
    return z->kind;
}

cuperm_ctr_zero_kind_t cuperm_ctr_layout_zero(const cuperm_ctr_layout_t* l, const cuperm_ctr_problem_t* p, int which,
                                              const cuperm_ctr_cost_model_t* model, cuperm_ctr_zero_t* z)
{
    return zero_of(l, p, which, &l->in[which], model, z);
}

/* The zeroing of a padded GEMM's K padding in both inputs laid out as in[]: each the cheapest way. */
static double zeroing_seconds(const cuperm_ctr_problem_t* p, const cuperm_ctr_layout_t* l,
                              const cuperm_ctr_input_layout_t* in[2], const cuperm_ctr_cost_model_t* model)
{
    double seconds = 0.0;
    for (int x = 0; x < 2; ++x) {
        cuperm_ctr_zero_t z;
        if (zero_of(l, p, x, in[x], model, &z)) seconds += z.seconds;
    }
    return seconds;
}

typedef struct price_memo price_memo;
static double gemm_price(price_memo* memo, const cuperm_ctr_cost_model_t* model, const cuperm_ctr_gemm_shape_t* s);

/* The four candidates of layout l's role orders: each input read with its free group or K fast,
 * the output's path, and the GEMM of every pairing; a pairing that can enter the ranking is
 * completed in l and kept. Each transpose is priced once, and only for a pairing whose GEMM plus
 * its transposes' floors could enter the ranking (prices >= floors: the ranking is the one full
 * prices give). opFloor: each operand's transpose floor (a transpose moves the whole operand; the
 * output transpose moves D). */
static void price_pairings(const cuperm_ctr_problem_t* p, const cuperm_ctr_cost_model_t* model, price_memo* memo,
                           const double* opFloor, cuperm_ctr_layout_t* l, const ranked_list* r)
{
    l->m = l->size[l->swapped ? CTR_GROUP_N : CTR_GROUP_M];
    l->n = l->size[l->swapped ? CTR_GROUP_M : CTR_GROUP_N];
    l->k = l->size[CTR_GROUP_K];
    l->batch = l->size[CTR_GROUP_L];
    l->calls = l->size[CTR_ROLE_O];
    cuperm_ctr_input_layout_t in[2][2];
    role_fusion_t fz[2][CTR_GROUPS]; /* per input; both its choices read the same three groups' */
    for (int g = 0; g < CTR_GROUPS; ++g) l->pad[g] = l->size[g];
    for (int w = 0; w < 2; ++w) {
        const int which = w == 0 ? CTR_A : CTR_B;
        operand_fusions(p, l, which, which == CTR_A ? CTR_GROUP_M : CTR_GROUP_N, CTR_GROUP_K, fz[w]);
        for (int c = 0; c < 2; ++c) describe_input(p, l, which, c, fz[w], &in[w][c]);
    }
    double output = describe_output(p, model, l);
    for (int c = 0; c < 4; ++c) {
        cuperm_ctr_input_layout_t *a = &in[0][c & 1], *b = &in[1][c >> 1];
        /* Every matrix in the workspace: the GEMM's extents padded (pad_gemm), its K padding zeroed
         * (priced with the GEMM). The previous pairing's padding is undone first. */
        cuperm_ctr_input_layout_t padded[2];
        double zeroing = 0.0;
        unpad_gemm(l);
        if (!model->denseWorkspace && a->path != CTR_IN_DIRECT && b->path != CTR_IN_DIRECT && l->out != CTR_OUT_DIRECT &&
            l->count[CTR_ROLE_O] == 0 && pad_gemm(p, l)) {
            describe_input(p, l, CTR_A, c & 1, fz[0], &padded[0]);
            describe_input(p, l, CTR_B, c >> 1, fz[1], &padded[1]);
            a = &padded[0];
            b = &padded[1];
            zeroing = zeroing_seconds(p, l, (const cuperm_ctr_input_layout_t*[2]){a, b}, model);
        }
        cuperm_ctr_gemm_shape_t s;
        gemm_shape(p, l, a, b, &s);
        if (model->denseWorkspace) s.misaligned = 0;
        /* A pointer-array batch's arrays are built by one small kernel first. */
        const double gemm = gemm_price(memo, model, &s) + (s.pointers ? 3e-6 : 0.0) + zeroing;
        /* Transposes cost >= 0: a pairing whose GEMM alone cannot enter the ranking goes before
         * its transposes are priced (the ranking stays the one full prices give). */
        if (!ranked_may_take(r, gemm)) continue;
        /* Nor one whose transposes at their floors already keep it out. */
        const double floors = input_floor(a, opFloor[CTR_A]) + input_floor(b, opFloor[CTR_B]) +
                              (isnan(output) ? opFloor[CTR_D] : output);
        if (!ranked_may_take(r, floors + gemm)) continue;
        const double inputs = settle_input(p, l, model, a, CTR_A) + settle_input(p, l, model, b, CTR_B);
        if (isnan(output)) output = output_cost(p, l, model);
        l->outputSeconds = output;
        if (ranked_may_take(r, inputs + l->outputSeconds + gemm)) { /* total_seconds' sum, in its order */
            l->in[CTR_A] = *a;
            l->in[CTR_B] = *b;
            l->inputSeconds = inputs;
            l->gemmSeconds = gemm;
            keep_ranked(r->best, r->n, r->max, l);
        }
    }
    unpad_gemm(l);
}

static size_t align_up(size_t x) { return (x + WS_ALIGN - 1) / WS_ALIGN * WS_ALIGN; }

/* Elements of a workspace matrix holding `volume` elements of fast x slow (x entries), its columns
 * ld apart and padded to paddedSlow of them. */
static size_t padded_volume(int64_t volume, int64_t fast, int64_t slow, int64_t ld, int64_t paddedSlow)
{
    return fast > 0 && slow > 0 ? (size_t)(volume / (fast * slow) * ld * paddedSlow) : (size_t)volume;
}

static void place_workspace(const cuperm_ctr_problem_t* p, cuperm_ctr_layout_t* l)
{
    const cuperm_ctr_group_t rows = l->swapped ? CTR_GROUP_N : CTR_GROUP_M, cols = l->swapped ? CTR_GROUP_M : CTR_GROUP_N;
    size_t off = 0;
    for (int i = 0; i < 4; ++i) {
        size_t bytes = 0;
        if (i == 3 && l->calls > 1) bytes = 3 * sizeof(void*) * (size_t)(l->calls * l->batch);
        if (i < 2 && l->in[i].path != CTR_IN_DIRECT) {
            const cuperm_ctr_input_layout_t* in = &l->in[i];
            bytes = padded_volume(cuperm_ctr_operand_volume(&p->op[i]), l->size[in->fast], l->size[in->slow], in->ld,
                                  l->pad[in->slow]) * cupermDataTypeSize(p->op[i].type);
        }
        if (i == 2 && l->out != CTR_OUT_DIRECT)
            bytes = padded_volume(cuperm_ctr_operand_volume(&p->op[CTR_D]), l->size[rows], l->size[cols], l->ldD,
                                  l->pad[cols]) * cupermDataTypeSize(p->op[CTR_D].type);
        l->wsOffset[i] = off;
        l->wsBytes[i] = bytes;
        off += align_up(bytes);
    }
    l->workspaceBytes = off;
}

/* ---- role assignments ------------------------------------------------------------ */

static void set_roles(const cuperm_ctr_problem_t* p, cuperm_ctr_layout_t* l, const int* role)
{
    for (int r = 0; r < CTR_ROLES; ++r) {
        l->count[r] = 0;
        l->size[r] = 1;
    }
    for (int i = 0; i < p->nmodes; ++i) {
        const int r = role[i];
        l->role[i] = r;
        l->order[r][l->count[r]++] = i;
        l->size[r] *= p->modes[i].extent;
    }
}

/* Same decomposition: roles, orders, operand order, input and output paths. */
static int layout_same(const cuperm_ctr_layout_t* a, const cuperm_ctr_layout_t* b)
{
    if (a->swapped != b->swapped || a->out != b->out) return 0;
    for (int x = 0; x < 2; ++x)
        if (a->in[x].path != b->in[x].path || a->in[x].fast != b->in[x].fast) return 0;
    for (int r = 0; r < CTR_ROLES; ++r) {
        if (a->count[r] != b->count[r]) return 0;
        if (memcmp(a->order[r], b->order[r], sizeof(int) * (size_t)a->count[r])) return 0;
    }
    return 1;
}

/* Inserts cand into the cost-ordered list best[0..*n) of at most max distinct layouts. A
 * candidate goes before another only if cheaper by 0.1%: ties keep the earlier, simpler one. */
static void keep_ranked(cuperm_ctr_layout_t* best, int* n, int max, const cuperm_ctr_layout_t* cand)
{
    const double cost = total_seconds(cand);
    if (!isfinite(cost)) return;
    for (int i = 0; i < *n; ++i)
        if (layout_same(&best[i], cand)) {
            if (!(cost < total_seconds(&best[i]) * 0.999)) return;
            memmove(&best[i], &best[i + 1], sizeof *best * (size_t)(*n - i - 1)); /* re-placed below */
            --*n;
            break;
        }
    int at = *n;
    while (at > 0 && cost < total_seconds(&best[at - 1]) * 0.999) --at;
    if (at >= max) return;
    const int moved = (*n < max ? *n : max - 1) - at;
    memmove(&best[at + 1], &best[at], sizeof *best * (size_t)moved);
    best[at] = *cand;
    if (*n < max) ++*n;
}

/* ---- transpose and GEMM prices, once per search -------------------------------------------
 * The candidates of one search share most of their transposes (each operand has a few ways to
 * be rewritten, and every pairing of them is a candidate), and pricing one plans it. A search
 * keeps the prices it has asked for: the transposes packed (only their rank's entries) in an
 * arena, found through an open-addressed table of their hashes. Its GEMM shapes repeat too (role
 * orders that differ only where the GEMM does not look): their prices are kept the same way.
 * Small enough (~70 KB) to come from the heap's free lists rather than fresh pages. */

enum { PRICE_SLOTS = 512, PRICE_ENTRIES = 256, PRICE_ARENA = 48 << 10 }; /* TCCG48, random: <= 85 transposes, 19 KB */
enum { GEMM_SLOTS = 256, GEMM_ENTRIES = 128 };

typedef struct {
    uint64_t hash;
    uint32_t offset, bytes; /* the packed transpose in the arena */
    double seconds;
} price_entry;

typedef struct {
    cuperm_ctr_gemm_shape_t shape;
    double seconds;
} gemm_entry;

struct price_memo {
    const cuperm_ctr_cost_model_t* model;
    uint16_t slot[PRICE_SLOTS]; /* 0: empty, else an entry's index + 1 */
    int entries;
    uint32_t used;
    price_entry entry[PRICE_ENTRIES];
    unsigned char arena[PRICE_ARENA];
    uint16_t gemmSlot[GEMM_SLOTS]; /* as slot, for gemm[] */
    int gemmEntries;
    gemm_entry gemm[GEMM_ENTRIES];
};

/* The fields a transpose's price depends on, packed (entries past its rank are not set by the
 * callers); returns the bytes written to out (at most sizeof(cuperm_ctr_transpose_t)). */
static size_t pack_transpose(const cuperm_ctr_transpose_t* t, unsigned char* out)
{
    const size_t n = (size_t)t->rank;
    size_t at = 0;
    memcpy(out + at, &t->rank, sizeof t->rank), at += sizeof t->rank;
    memcpy(out + at, &t->type, sizeof t->type), at += sizeof t->type;
    memcpy(out + at, t->extents, n * sizeof *t->extents), at += n * sizeof *t->extents;
    memcpy(out + at, t->perm, n * sizeof *t->perm), at += n * sizeof *t->perm;
    memcpy(out + at, t->inStrides, n * sizeof *t->inStrides), at += n * sizeof *t->inStrides;
    memcpy(out + at, t->outStrides, n * sizeof *t->outStrides), at += n * sizeof *t->outStrides;
    return at;
}

static double memo_seconds(void* ctx, const cuperm_ctr_transpose_t* t)
{
    price_memo* m = ctx;
    unsigned char key[sizeof(cuperm_ctr_transpose_t)];
    const size_t bytes = pack_transpose(t, key);
    const uint64_t h = cuperm_hash_bytes(key, bytes);
    for (uint64_t i = h, probe = 0; probe < PRICE_SLOTS; ++i, ++probe) {
        uint16_t* slot = &m->slot[i & (PRICE_SLOTS - 1)];
        if (*slot == 0) {
            const double s = m->model->transpose_seconds(m->model->ctx, t);
            if (m->entries < PRICE_ENTRIES && m->used + bytes <= PRICE_ARENA) { /* else price it next time too */
                price_entry* e = &m->entry[m->entries];
                *e = (price_entry){h, m->used, (uint32_t)bytes, s};
                memcpy(m->arena + m->used, key, bytes);
                m->used += (uint32_t)bytes;
                *slot = (uint16_t)++m->entries;
            }
            return s;
        }
        const price_entry* e = &m->entry[*slot - 1];
        if (e->hash == h && e->bytes == bytes && !memcmp(m->arena + e->offset, key, bytes)) return e->seconds;
    }
    return m->model->transpose_seconds(m->model->ctx, t);
}

/* cuperm_ctr_gemm_seconds of s, through the search's memo when it has one (s zeroed before it
 * was filled: shapes compare as bytes). */
static double gemm_price(price_memo* m, const cuperm_ctr_cost_model_t* model, const cuperm_ctr_gemm_shape_t* s)
{
    if (!m) return cuperm_ctr_gemm_seconds(model, s);
    const uint64_t h = cuperm_hash_bytes(s, sizeof *s);
    for (uint64_t i = h, probe = 0; probe < GEMM_SLOTS; ++i, ++probe) {
        uint16_t* slot = &m->gemmSlot[i & (GEMM_SLOTS - 1)];
        if (*slot == 0) {
            const double seconds = cuperm_ctr_gemm_seconds(model, s);
            if (m->gemmEntries < GEMM_ENTRIES) { /* else priced again next time */
                gemm_entry* e = &m->gemm[m->gemmEntries];
                memcpy(&e->shape, s, sizeof *s); /* bytes, padding included (an assignment may skip it) */
                e->seconds = seconds;
                *slot = (uint16_t)++m->gemmEntries;
            }
            return seconds;
        }
        const gemm_entry* e = &m->gemm[*slot - 1];
        if (!memcmp(&e->shape, s, sizeof *s)) return e->seconds;
    }
    return cuperm_ctr_gemm_seconds(model, s);
}

size_t cuperm_ctr_search_scratch_bytes(void) { return sizeof(struct price_memo); }

int cuperm_ctr_layout_rank(const cuperm_ctr_problem_t* p, const cuperm_ctr_cost_model_t* model, cuperm_ctr_layout_t* best, int max)
{
    /* Prices through the search's memo (without it, when out of memory: the same prices, slower). */
    void* const own = model->scratch ? NULL : malloc(sizeof(struct price_memo));
    price_memo* memo = model->scratch ? model->scratch : own;
    cuperm_ctr_cost_model_t memoModel = *model;
    if (memo) {
        memo->model = model;
        memset(memo->slot, 0, sizeof memo->slot);
        memset(memo->gemmSlot, 0, sizeof memo->gemmSlot);
        memo->entries = 0;
        memo->gemmEntries = 0;
        memo->used = 0;
        memoModel.transpose_seconds = memo_seconds;
        memoModel.ctx = memo;
        model = &memoModel;
    }
    /* Candidate orders of each role: as laid out in each operand holding it. */
    static const int sources[CTR_ROLES][3] = {
        {CTR_A, CTR_D, -1}, {CTR_B, CTR_D, -1}, {CTR_A, CTR_B, -1}, {CTR_A, CTR_B, CTR_D}, {CTR_D, -1, -1}};
    static const int nsources[CTR_ROLES] = {2, 2, 2, 3, 1};
    int roles[6][CTR_MAX_MODES];
    const int nroles = cuperm_ctr_role_candidates(p, roles, 6);
    double opFloor[CTR_OPERANDS];
    for (int w = 0; w < CTR_OPERANDS; ++w)
        opFloor[w] = transpose_floor(model, (double)cuperm_ctr_operand_volume(&p->op[w]), p->op[w].type);
    cuperm_ctr_layout_t cand;
    int n = 0;
    ranked_list ranked = {best, &n, max};
    memset(&cand, 0, sizeof cand);
    cuperm_ctr_fold_operators(p, &cand.ops);
    for (int rc = 0; rc < nroles; ++rc) {
        set_roles(p, &cand, roles[rc]);
        /* Each role's distinct orders among its sources (sources that agree give one candidate),
         * in the order the sources first give them. */
        int orders[CTR_ROLES][3][CTR_MAX_MODES], norders[CTR_ROLES];
        for (int r = 0; r < CTR_ROLES; ++r) {
            norders[r] = 0;
            for (int s = 0; s < nsources[r]; ++s) {
                if (!role_order_from(p, &cand, r, sources[r][s])) continue;
                const size_t bytes = sizeof(int) * (size_t)cand.count[r];
                int seen = 0;
                for (int u = 0; u < norders[r] && !seen; ++u) seen = !memcmp(orders[r][u], cand.order[r], bytes);
                if (!seen) memcpy(orders[r][norders[r]++], cand.order[r], bytes);
            }
        }
        for (int sw = 0; sw < 2; ++sw)
            for (int um = 0; um < norders[0]; ++um)
                for (int un = 0; un < norders[1]; ++un)
                    for (int uk = 0; uk < norders[2]; ++uk)
                        for (int ul = 0; ul < norders[3]; ++ul)
                            for (int uo = 0; uo < norders[4]; ++uo) {
                                const int pick[CTR_ROLES] = {um, un, uk, ul, uo};
                                for (int r = 0; r < CTR_ROLES; ++r)
                                    memcpy(cand.order[r], orders[r][pick[r]], sizeof(int) * (size_t)cand.count[r]);
                                cand.swapped = sw;
                                /* Each input read in place or rewritten, with either group fast. */
                                price_pairings(p, model, memo, opFloor, &cand, &ranked);
                            }
    }
    for (int i = 0; i < n; ++i) place_workspace(p, &best[i]);
    free(own);
    return n;
}

cupermStatus_t cuperm_ctr_layout_choose(const cuperm_ctr_problem_t* p, const cuperm_ctr_cost_model_t* model, cuperm_ctr_layout_t* out)
{
    if (cuperm_ctr_layout_rank(p, model, out, 1) == 0)
        return cuperm_fail_in("cupermPlanContraction", CUPERM_STATUS_INTERNAL_ERROR, "no GEMM layout could be priced (the transpose "
                        "cost model rejected every candidate)");
    return CUPERM_STATUS_SUCCESS;
}

/* ---- description --------------------------------------------------------------- */

/* "(l1,l2,...)": the group's mode labels, fastest first. */
static void put_group(const cuperm_ctr_problem_t* p, const cuperm_ctr_layout_t* l, int g, char* buf, size_t size)
{
    size_t n = 0;
    buf[0] = '\0';
    for (int i = 0; i < l->count[g] && n + 16 < size; ++i)
        n += (size_t)snprintf(buf + n, size - n, i ? ",%d" : "%d", (int)p->modes[l->order[g][i]].label);
}

int cuperm_ctr_layout_describe(const cuperm_ctr_problem_t* p, const cuperm_ctr_layout_t* l, char* buf, size_t size)
{
    static const char* inPath[] = {"in place", "transposed", "operator kernel"};
    static const char* outPath[] = {"cuBLAS writes D", "transpose W->D", "operator kernel W->D"};
    char g[CTR_ROLES][160];
    for (int i = 0; i < CTR_ROLES; ++i) put_group(p, l, i, g[i], sizeof g[i]);
    if (l->kind == CTR_KIND_GETT) { /* the kernel and its tiles follow (exec/contraction/build.c) */
        char predicted[48] = "";
        if (l->gemmSeconds > 0) snprintf(predicted, sizeof predicted, "; predicted %.3g us", 1e6 * l->gemmSeconds);
        return snprintf(buf, size,
                        "GETT (A and B read in place through offset tables, D written in place) m=%lld n=%lld "
                        "k=%lld batch=%lld (M(%s) N(%s) K(%s) batch(%s))%s",
                        (long long)l->m, (long long)l->n, (long long)l->k, (long long)l->batch, g[0], g[1], g[2],
                        g[3], predicted);
    }
    const int first = l->swapped ? CTR_B : CTR_A, second = l->swapped ? CTR_A : CTR_B;
    const cuperm_ctr_group_t rows = l->swapped ? CTR_GROUP_N : CTR_GROUP_M, cols = l->swapped ? CTR_GROUP_M : CTR_GROUP_N;
    char padded[96] = "";
    if (l->m != l->size[rows] || l->n != l->size[cols] || l->k != l->size[CTR_GROUP_K])
        snprintf(padded, sizeof padded, " (padded from %lld x %lld x %lld%s)", (long long)l->size[rows],
                 (long long)l->size[cols], (long long)l->size[CTR_GROUP_K],
                 l->k != l->size[CTR_GROUP_K] ? ", K's padding zeroed" : "");
    return snprintf(buf, size,
                    "%lld x GEMM m=%lld n=%lld k=%lld%s batch=%lld (M(%s) N(%s) K(%s) batch(%s) loop(%s)), cuBLAS %s(%c) x %s(%c); "
                    "A %s [fast %s], B %s [fast %s], D: %s%s; predicted %.3g us transposes + %.3g us GEMM",
                    (long long)l->calls, (long long)l->m, (long long)l->n, (long long)l->k, padded, (long long)l->batch,
                    g[0], g[1], g[2], g[3], g[4], cuperm_ctr_operand_name(first), l->in[first].cublasOp, cuperm_ctr_operand_name(second),
                    l->in[second].cublasOp, inPath[l->in[CTR_A].path],
                    cuperm_ctr_group_name(l->in[CTR_A].fast), inPath[l->in[CTR_B].path],
                    cuperm_ctr_group_name(l->in[CTR_B].fast), outPath[l->out],
                    l->inplaceOpD ? " + opD pass" : "",
                    1e6 * (l->inputSeconds + l->outputSeconds), 1e6 * l->gemmSeconds);
}
