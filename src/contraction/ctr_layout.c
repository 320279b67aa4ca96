#include "ctr_layout.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ctr_error.h"
#include "ctr_types.h"

#define WS_ALIGN 256

/* ---- operators ---------------------------------------------------------- */

void ctr_fold_operators(const ctr_problem* p, ctr_folded_ops* f)
{
    f->alphaSign = 1.0;
    f->betaSign = 1.0;
    for (int w = 0; w < CTR_OPERANDS; ++w) {
        cupermOperator_t op = p->op[w].op;
        const int complexType = ctr_type_is_complex(p->op[w].type);
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

/* ---- mode groups in an operand -------------------------------------------- */

/* Modes of group g ordered by their stride in operand `which` (ties: dimension order). */
static int group_order_from(const ctr_problem* p, ctr_group g, int which, int* order)
{
    int n = 0;
    for (int i = 0; i < p->nmodes; ++i)
        if (p->modes[i].group == g) order[n++] = i;
    const ctr_operand* t = &p->op[which];
    for (int i = 1; i < n; ++i)
        for (int j = i; j > 0; --j) {
            const ctr_mode *x = &p->modes[order[j]], *y = &p->modes[order[j - 1]];
            const int64_t sx = t->strides[x->pos[which]], sy = t->strides[y->pos[which]];
            if (sx > sy || (sx == sy && x->pos[which] > y->pos[which])) break;
            const int s = order[j]; order[j] = order[j - 1]; order[j - 1] = s;
        }
    return n;
}

/* Whether group g's modes, in the layout's order, fuse into one dimension of `which`. */
static int group_fuses(const ctr_problem* p, const ctr_layout* l, ctr_group g, int which, int64_t* base)
{
    const int n = p->groupCount[g];
    *base = 0;
    if (n == 0) return 1;
    const ctr_operand* t = &p->op[which];
    int64_t expect = t->strides[p->modes[l->order[g][0]].pos[which]];
    *base = expect;
    for (int i = 0; i < n; ++i) {
        const ctr_mode* m = &p->modes[l->order[g][i]];
        const int64_t s = t->strides[m->pos[which]];
        if (s != expect) return 0;
        expect = s * m->extent;
    }
    return 1;
}

/* Can cuBLAS read (or write) `which` in place with `fast` as its stride-1 group? */
static int operand_ready(const ctr_problem* p, const ctr_layout* l, int which, ctr_group fast,
                         ctr_group slow, int64_t* ld, int64_t* batchStride)
{
    int64_t bf, bs, bl;
    if (!group_fuses(p, l, fast, which, &bf) || !group_fuses(p, l, slow, which, &bs) ||
        !group_fuses(p, l, CTR_GROUP_L, which, &bl))
        return 0;
    const int64_t rows = p->groupSize[fast], cols = p->groupSize[slow];
    if (rows > 1 && bf != 1) return 0;
    if (cols > 1) {
        if (bs < rows || bs < 1) return 0;
        *ld = bs;
    } else {
        *ld = rows;
    }
    *batchStride = p->groupSize[CTR_GROUP_L] > 1 ? bl : *ld * cols;
    return 1;
}

/* ---- transposes a layout runs ---------------------------------------------- */

/* Non-unit dimensions of an operand: compact index of each original dimension (-1 for unit). */
static int compact_dims(const ctr_operand* t, int* compact, int64_t* extents, int64_t* strides)
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

static void scalar_transpose(ctr_transpose* t)
{
    t->rank = 1;
    t->extents[0] = 1;
    t->perm[0] = 0;
    t->inStrides[0] = 1;
    t->outStrides[0] = 1;
}

/* Operand `which` into the dense workspace layout [fast][slow][batch]. */
void ctr_layout_input_transpose(const ctr_problem* p, const ctr_layout* l, int which, ctr_transpose* t)
{
    const ctr_input_layout* in = &l->in[which];
    int compact[CUPERM_MAX_RANK];
    memset(t, 0, sizeof *t);
    t->type = p->op[which].type;
    t->rank = compact_dims(&p->op[which], compact, t->extents, t->inStrides);
    if (t->rank == 0) { scalar_transpose(t); return; }
    const ctr_group groups[3] = {in->fast, in->slow, CTR_GROUP_L};
    int r = 0;
    int64_t dense = 1;
    for (int gi = 0; gi < 3; ++gi)
        for (int i = 0; i < p->groupCount[groups[gi]]; ++i) {
            const ctr_mode* m = &p->modes[l->order[groups[gi]][i]];
            t->perm[r] = compact[m->pos[which]];
            t->outStrides[r] = dense;
            dense *= m->extent;
            ++r;
        }
}

/* Index of each mode-table entry in W = [rows][cols][batch], and W's dense strides. */
static void w_positions(const ctr_problem* p, const ctr_layout* l, int* wIndex, int64_t* wStride)
{
    const ctr_group rows = l->swapped ? CTR_GROUP_N : CTR_GROUP_M;
    const ctr_group cols = l->swapped ? CTR_GROUP_M : CTR_GROUP_N;
    const ctr_group groups[3] = {rows, cols, CTR_GROUP_L};
    int r = 0;
    int64_t dense = 1;
    for (int gi = 0; gi < 3; ++gi)
        for (int i = 0; i < p->groupCount[groups[gi]]; ++i) {
            const int mi = l->order[groups[gi]][i];
            wIndex[mi] = r++;
            wStride[mi] = dense;
            dense *= p->modes[mi].extent;
        }
}

static int mode_of_dim(const ctr_problem* p, int which, int dim)
{
    for (int i = 0; i < p->nmodes; ++i)
        if (p->modes[i].pos[which] == dim) return i;
    return -1;
}

/* W = [rows][cols][batch] (dense) into D. */
void ctr_layout_output_transpose(const ctr_problem* p, const ctr_layout* l, ctr_transpose* t)
{
    int wIndex[CTR_MAX_MODES];
    int64_t wStride[CTR_MAX_MODES];
    w_positions(p, l, wIndex, wStride);
    memset(t, 0, sizeof *t);
    t->type = p->op[CTR_D].type;
    const ctr_operand* D = &p->op[CTR_D];
    /* Input dimensions: W's, in W order. */
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

void ctr_layout_w_strides_for_d(const ctr_problem* p, const ctr_layout* l, int64_t* strides)
{
    int wIndex[CTR_MAX_MODES];
    int64_t wStride[CTR_MAX_MODES];
    w_positions(p, l, wIndex, wStride);
    const ctr_operand* D = &p->op[CTR_D];
    for (int d = 0; d < D->rank; ++d) {
        const int mi = D->extents[d] == 1 ? -1 : mode_of_dim(p, CTR_D, d);
        strides[d] = mi < 0 ? 0 : wStride[mi];
    }
}

void ctr_copy_c_to_d(const ctr_problem* p, ctr_transpose* t)
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

/* ---- pricing ----------------------------------------------------------------- */

static double transpose_cost(const ctr_cost_model* model, const ctr_transpose* t)
{
    const double s = model->transpose_seconds(model->ctx, t);
    return s < 0 ? INFINITY : s;
}

/* The operator kernel: a gather that writes in order; reads are coalesced only if the
 * output's fastest dimension is also stride-1 in the input. */
static double elementwise_cost(const ctr_cost_model* model, const ctr_transpose* t, size_t inBytes,
                               size_t outBytes, size_t extraBytes)
{
    int64_t volume = 1;
    for (int r = 0; r < t->rank; ++r) volume *= t->extents[r];
    const int coalesced = t->rank == 0 || t->inStrides[t->perm[0]] == 1;
    const double bytes = (double)volume * (double)(inBytes + outBytes + extraBytes);
    return 3e-6 + bytes / model->bandwidth * (coalesced ? 1.0 : 3.0);
}

static double price_input(const ctr_problem* p, const ctr_cost_model* model, ctr_layout* l, int which)
{
    const ctr_group g2 = which == CTR_A ? CTR_GROUP_M : CTR_GROUP_N;
    const ctr_group choices[2][2] = {{g2, CTR_GROUP_K}, {CTR_GROUP_K, g2}};
    const int first = (which == CTR_A) != l->swapped; /* cuBLAS's first operand */
    const cupermOperator_t op = l->ops.op[which];
    const size_t bytes = cupermDataTypeSize(p->op[which].type);
    ctr_input_layout best = {0};
    best.seconds = INFINITY;
    for (int c = 0; c < 2; ++c) {
        ctr_input_layout cand = {0};
        cand.fast = choices[c][0];
        cand.slow = choices[c][1];
        /* cuBLAS's 'T' reads the operand with its inner (K) dimension along the wrong axis. */
        const int transposed = first ? cand.fast == CTR_GROUP_K : cand.fast != CTR_GROUP_K;
        const int foldable = op == CUPERM_OP_IDENTITY || (op == CUPERM_OP_CONJ && transposed);
        cand.cublasOp = !transposed ? 'N' : op == CUPERM_OP_CONJ ? 'C' : 'T';
        const int ready = operand_ready(p, l, which, cand.fast, cand.slow, &cand.ld, &cand.batchStride);
        l->in[which] = cand;
        ctr_transpose t;
        ctr_layout_input_transpose(p, l, which, &t);
        if (ready && foldable) {
            cand.path = CTR_IN_DIRECT;
            cand.seconds = 0.0;
        } else {
            cand.ld = p->groupSize[cand.fast];
            cand.batchStride = cand.ld * p->groupSize[cand.slow];
            if (foldable) {
                cand.path = CTR_IN_TRANSPOSE;
                cand.seconds = transpose_cost(model, &t);
            } else {
                cand.path = CTR_IN_ELEMENTWISE;
                cand.cublasOp = transposed ? 'T' : 'N'; /* the kernel applies conj itself */
                cand.seconds = elementwise_cost(model, &t, bytes, bytes, 0);
            }
        }
        if (cand.seconds < best.seconds) best = cand;
    }
    l->in[which] = best;
    return best.seconds;
}

static double price_output(const ctr_problem* p, const ctr_cost_model* model, ctr_layout* l)
{
    const ctr_group rows = l->swapped ? CTR_GROUP_N : CTR_GROUP_M;
    const ctr_group cols = l->swapped ? CTR_GROUP_M : CTR_GROUP_N;
    const size_t bytes = cupermDataTypeSize(p->op[CTR_D].type);
    const int opC = l->ops.op[CTR_C] != CUPERM_OP_IDENTITY, opD = l->ops.op[CTR_D] != CUPERM_OP_IDENTITY;
    int64_t volD = p->groupSize[rows] * p->groupSize[cols] * p->groupSize[CTR_GROUP_L];
    const double inplace = 3e-6 + 2.0 * (double)volD * (double)bytes / model->bandwidth;
    ctr_transpose t;
    ctr_layout_output_transpose(p, l, &t);
    l->inplaceOpD = 0;
    if (!opC && operand_ready(p, l, CTR_D, rows, cols, &l->ldD, &l->batchStrideD)) {
        l->out = CTR_OUT_DIRECT;
        l->inplaceOpD = opD;
        return opD ? inplace : 0.0;
    }
    l->ldD = p->groupSize[rows];
    l->batchStrideD = l->ldD * p->groupSize[cols];
    if (!opC && !opD) {
        l->out = CTR_OUT_TRANSPOSE;
        return transpose_cost(model, &t);
    }
    l->out = CTR_OUT_EPILOGUE;
    return elementwise_cost(model, &t, bytes, bytes, bytes);
}

static void gemm_shape(const ctr_problem* p, const ctr_layout* l, ctr_gemm_shape* s)
{
    s->m = p->groupSize[l->swapped ? CTR_GROUP_N : CTR_GROUP_M];
    s->n = p->groupSize[l->swapped ? CTR_GROUP_M : CTR_GROUP_N];
    s->k = p->groupSize[CTR_GROUP_K];
    s->batch = p->groupSize[CTR_GROUP_L];
    s->abType = p->op[CTR_A].type;
    s->cdType = p->op[CTR_D].type;
    s->compute = p->compute;
}

static double price(const ctr_problem* p, const ctr_cost_model* model, ctr_layout* l)
{
    ctr_gemm_shape s;
    gemm_shape(p, l, &s);
    l->m = s.m; l->n = s.n; l->k = s.k; l->batch = s.batch;
    l->inputSeconds = price_input(p, model, l, CTR_A) + price_input(p, model, l, CTR_B);
    l->outputSeconds = price_output(p, model, l);
    l->gemmSeconds = ctr_gemm_seconds(model, &s);
    return l->inputSeconds + l->outputSeconds + l->gemmSeconds;
}

static size_t align_up(size_t x) { return (x + WS_ALIGN - 1) / WS_ALIGN * WS_ALIGN; }

static void place_workspace(const ctr_problem* p, ctr_layout* l)
{
    size_t off = 0;
    for (int i = 0; i < 3; ++i) {
        size_t bytes = 0;
        if (i < 2 && l->in[i].path != CTR_IN_DIRECT) {
            const ctr_group other = i == CTR_A ? CTR_GROUP_M : CTR_GROUP_N;
            bytes = (size_t)(p->groupSize[other] * p->groupSize[CTR_GROUP_K] * p->groupSize[CTR_GROUP_L]) *
                    cupermDataTypeSize(p->op[i].type);
        }
        if (i == 2 && l->out != CTR_OUT_DIRECT)
            bytes = (size_t)(l->m * l->n * l->batch) * cupermDataTypeSize(p->op[CTR_D].type);
        l->wsOffset[i] = off;
        l->wsBytes[i] = bytes;
        off += align_up(bytes);
    }
    l->workspaceBytes = off;
}

cupermStatus_t ctr_layout_choose(const ctr_problem* p, const ctr_cost_model* model, ctr_layout* out)
{
    /* Candidate orders of each group: as laid out in each operand holding it. */
    static const int sources[CTR_GROUPS][3] = {
        {CTR_A, CTR_D, -1}, {CTR_B, CTR_D, -1}, {CTR_A, CTR_B, -1}, {CTR_A, CTR_B, CTR_D}};
    static const int nsources[CTR_GROUPS] = {2, 2, 2, 3};
    ctr_layout cand;
    double bestCost = INFINITY;
    memset(&cand, 0, sizeof cand);
    ctr_fold_operators(p, &cand.ops);
    for (int sw = 0; sw < 2; ++sw)
        for (int sm = 0; sm < nsources[0]; ++sm)
            for (int sn = 0; sn < nsources[1]; ++sn)
                for (int sk = 0; sk < nsources[2]; ++sk)
                    for (int sl = 0; sl < nsources[3]; ++sl) {
                        const int pick[CTR_GROUPS] = {sm, sn, sk, sl};
                        cand.swapped = sw;
                        for (int g = 0; g < CTR_GROUPS; ++g) {
                            const int which = sources[g][pick[g]];
                            group_order_from(p, (ctr_group)g, which, cand.order[g]);
                        }
                        const double cost = price(p, model, &cand);
                        /* Strictly cheaper by 0.1%: ties keep the earlier, simpler candidate. */
                        if (cost < bestCost * 0.999) {
                            bestCost = cost;
                            *out = cand;
                        }
                    }
    if (!isfinite(bestCost))
        return ctr_fail(CUPERM_STATUS_INTERNAL_ERROR, "no GEMM layout could be priced (the transpose "
                        "cost model rejected every candidate)");
    place_workspace(p, out);
    return CUPERM_STATUS_SUCCESS;
}

/* ---- description --------------------------------------------------------------- */

/* "(l1,l2,...)": the group's mode labels, fastest first. */
static void put_group(const ctr_problem* p, const ctr_layout* l, ctr_group g, char* buf, size_t size)
{
    size_t n = 0;
    buf[0] = '\0';
    for (int i = 0; i < p->groupCount[g] && n + 16 < size; ++i)
        n += (size_t)snprintf(buf + n, size - n, i ? ",%d" : "%d", (int)p->modes[l->order[g][i]].label);
}

int ctr_layout_describe(const ctr_problem* p, const ctr_layout* l, char* buf, size_t size)
{
    static const char* inPath[] = {"in place", "transposed", "operator kernel"};
    static const char* outPath[] = {"cuBLAS writes D", "transpose W->D", "operator kernel W->D"};
    char g[CTR_GROUPS][160];
    for (int i = 0; i < CTR_GROUPS; ++i) put_group(p, l, (ctr_group)i, g[i], sizeof g[i]);
    const int first = l->swapped ? CTR_B : CTR_A, second = l->swapped ? CTR_A : CTR_B;
    return snprintf(buf, size,
                    "GEMM m=%lld n=%lld k=%lld batch=%lld (M(%s) N(%s) K(%s) L(%s)), cuBLAS %s(%c) x %s(%c); "
                    "A %s [fast %s], B %s [fast %s], D: %s%s; predicted %.3g us transposes + %.3g us GEMM",
                    (long long)l->m, (long long)l->n, (long long)l->k, (long long)l->batch, g[0], g[1],
                    g[2], g[3], ctr_operand_name(first), l->in[first].cublasOp, ctr_operand_name(second),
                    l->in[second].cublasOp, inPath[l->in[CTR_A].path],
                    ctr_group_name(l->in[CTR_A].fast), inPath[l->in[CTR_B].path],
                    ctr_group_name(l->in[CTR_B].fast), outPath[l->out],
                    l->inplaceOpD ? " + opD pass" : "",
                    1e6 * (l->inputSeconds + l->outputSeconds), 1e6 * l->gemmSeconds);
}
