#include "contraction/ctr_cpu_exec.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/index_math.h"
#include "support/reference.h"
#include "plan/contraction/types.h"

double ctr_mock_transpose_seconds(void* prices, const cuperm_ctr_transpose_t* t)
{
    const ctr_mock_prices* p = prices;
    if (p->random) return 1e-6 * (double)rng_range(p->random, 1, 100);
    double v = 1;
    for (int r = 0; r < t->rank; ++r) v *= (double)t->extents[r];
    return 5e-6 + 2.0 * v * (double)cupermDataTypeSize(t->type) / 2e12;
}

/* out = alpha * perm(in) + beta * out with the lead's reference transpose, in complex double. */
static void run_transpose(const cuperm_ctr_transpose_t* t, const ctr_cplx* in, ctr_cplx* out, ctr_cplx alpha,
                          ctr_cplx beta)
{
    ref_transpose(CUPERM_C_64F, t->rank, t->extents, t->perm, t->inStrides, t->outStrides, &alpha, in,
                  &beta, out, NULL);
}

/* Calls f on every offset of an operand (all its dimensions). */
static void for_each_offset(const cuperm_ctr_operand_t* t, void (*f)(int64_t off, void* ctx), void* ctx)
{
    int64_t idx[CUPERM_MAX_RANK] = {0};
    for (;;) {
        int64_t off = 0;
        for (int i = 0; i < t->rank; ++i) off += idx[i] * t->strides[i];
        f(off, ctx);
        int i = 0;
        while (i < t->rank && ++idx[i] == t->extents[i]) idx[i++] = 0;
        if (i == t->rank) break;
    }
}

typedef struct {
    ctr_cplx* d;
    cupermOperator_t op;
    double param;
    int complexType;
} opd_ctx;

static void apply_opd(int64_t off, void* vctx)
{
    opd_ctx* c = vctx;
    c->d[off] = ctr_ref_op(c->op, c->param, c->complexType, c->d[off]);
}

/* n workspace elements of NaN: what the plan never writes must never reach D. */
static ctr_cplx* poisoned(int64_t n)
{
    ctr_cplx* w = malloc(sizeof(ctr_cplx) * (size_t)(n > 0 ? n : 1));
    for (int64_t i = 0; i < n; ++i) w[i] = NAN + NAN * I;
    return w;
}

static ctr_cplx gemm_elem(const ctr_cplx* x, char op, int64_t row, int64_t col, int64_t ld)
{
    /* op(X)[row, col]: 'N' stores X as rows x cols, 'T'/'C' as its transpose. */
    if (op == 'N') return x[row + col * ld];
    const ctr_cplx v = x[col + row * ld];
    return op == 'C' ? conj(v) : v;
}

void ctr_cpu_execute(const cuperm_ctr_problem_t* p, const cuperm_ctr_layout_t* l, const ctr_cplx* a, const ctr_cplx* b,
                     const ctr_cplx* c, ctr_cplx* d, ctr_cplx alpha, ctr_cplx beta)
{
    const ctr_cplx* in[2] = {a, b};
    ctr_cplx* ws[3] = {NULL, NULL, NULL};
    const int cplxAB = cuperm_ctr_type_is_complex(p->op[CTR_A].type);
    const int cplxCD = cuperm_ctr_type_is_complex(p->op[CTR_D].type);
    alpha *= l->ops.alphaSign;
    beta *= l->ops.betaSign;
    for (int x = 0; x < 2; ++x) {
        if (l->in[x].path == CTR_IN_DIRECT) continue;
        cuperm_ctr_transpose_t t;
        cuperm_ctr_layout_input_transpose(p, l, x, &t);
        /* the workspace slice as the plan sizes it, NaN where nothing is written (a padded GEMM's
         * rows and columns past its extents), K's padding zeroed as the plan's step does */
        const int64_t n = (int64_t)(l->wsBytes[x] / cupermDataTypeSize(p->op[x].type));
        ws[x] = poisoned(n);
        run_transpose(&t, in[x], ws[x], 1.0, 0.0);
        if (l->in[x].path == CTR_IN_ELEMENTWISE) /* inside the transpose on the GPU: NaN stays NaN */
            for (int64_t i = 0; i < n; ++i)
                ws[x][i] = ctr_ref_op(l->ops.op[x], p->op[x].opParam, cplxAB, ws[x][i]);
        int64_t z[4];
        if (cuperm_ctr_layout_zero_region(l, p, x, z))
            for (int64_t row = 0; row < z[3]; ++row)
                for (int64_t i = 0; i < z[2]; ++i) ws[x][z[0] + row * z[1] + i] = 0;
        in[x] = ws[x];
    }
    /* Where the GEMM writes, with which beta. */
    ctr_cplx* out = d;
    ctr_cplx gemmBeta = beta;
    if (l->out == CTR_OUT_DIRECT || l->out == CTR_OUT_TRANSPOSE) {
        if (beta != 0 && c != d) {
            cuperm_ctr_transpose_t t;
            cuperm_ctr_copy_c_to_d(p, &t);
            run_transpose(&t, c, d, 1.0, 0.0);
        }
    }
    if (l->out != CTR_OUT_DIRECT) {
        ws[2] = poisoned((int64_t)(l->wsBytes[2] / cupermDataTypeSize(p->op[CTR_D].type)));
        out = ws[2];
        gemmBeta = 0;
    }
    const int first = l->swapped ? CTR_B : CTR_A, second = l->swapped ? CTR_A : CTR_B;
    const cuperm_ctr_input_layout_t *P = &l->in[first], *Q = &l->in[second];
    cuperm_ctr_ptr_params_t ptr; /* the pointer kernel's decode, as the library's steps use it */
    cuperm_ctr_layout_pointers(p, l, &ptr);
    for (int64_t call = 0; call < l->calls; ++call) {
        int64_t off[3];
        cuperm_ctr_ptr_offsets(&ptr, call * l->batch, off);
        for (int64_t bt = 0; bt < l->batch; ++bt)
            for (int64_t j = 0; j < l->n; ++j)
                for (int64_t i = 0; i < l->m; ++i) {
                    ctr_cplx sum = 0;
                    for (int64_t k = 0; k < l->k; ++k)
                        sum += gemm_elem(in[first] + off[0] + bt * P->batchStride, P->cublasOp, i, k, P->ld) *
                               gemm_elem(in[second] + off[1] + bt * Q->batchStride, Q->cublasOp, k, j, Q->ld);
                    ctr_cplx* o = out + off[2] + i + j * l->ldD + bt * l->batchStrideD;
                    *o = alpha * sum + (gemmBeta != 0 ? gemmBeta * *o : 0);
                }
    }
    if (l->out == CTR_OUT_TRANSPOSE) {
        cuperm_ctr_transpose_t t;
        cuperm_ctr_layout_output_transpose(p, l, &t);
        run_transpose(&t, ws[2], d, 1.0, beta);
    } else if (l->out == CTR_OUT_EPILOGUE) {
        const cuperm_ctr_operand_t *C = &p->op[CTR_C], *D = &p->op[CTR_D];
        int64_t wStrides[CUPERM_MAX_RANK];
        cuperm_ctr_layout_w_strides_for_d(p, l, wStrides);
        int64_t idx[CUPERM_MAX_RANK] = {0};
        for (;;) {
            int64_t offW = 0, offC = 0, offD = 0;
            for (int i = 0; i < D->rank; ++i) {
                offW += idx[i] * wStrides[i];
                offC += idx[i] * C->strides[i];
                offD += idx[i] * D->strides[i];
            }
            ctr_cplx v = ws[2][offW];
            if (beta != 0) v += beta * ctr_ref_op(l->ops.op[CTR_C], C->opParam, cplxCD, c[offC]);
            d[offD] = ctr_ref_op(l->ops.op[CTR_D], D->opParam, cplxCD, v);
            int i = 0;
            while (i < D->rank && ++idx[i] == D->extents[i]) idx[i++] = 0;
            if (i == D->rank) break;
        }
    }
    if (l->inplaceOpD) {
        opd_ctx ctx = {d, l->ops.op[CTR_D], p->op[CTR_D].opParam, cplxCD};
        for_each_offset(&p->op[CTR_D], apply_opd, &ctx);
    }
    for (int i = 0; i < 3; ++i) free(ws[i]);
}
