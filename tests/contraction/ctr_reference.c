#include "contraction/ctr_reference.h"

#include <math.h>
#include <string.h>

#include "support/dtype.h"

ctr_cplx ctr_ref_op(cupermOperator_t op, double param, int complexType, ctr_cplx x)
{
    if (complexType) {
        switch (op) {
        case CUPERM_OP_NEGATE: return -x;
        case CUPERM_OP_CONJ: return conj(x);
        default: return x;
        }
    }
    const double r = creal(x);
    switch (op) {
    case CUPERM_OP_IDENTITY: case CUPERM_OP_CONJ: return r;
    case CUPERM_OP_NEGATE: return -r;
    case CUPERM_OP_ABS: return fabs(r);
    case CUPERM_OP_RELU: return r > 0 ? r : 0.0;
    case CUPERM_OP_LEAKY_RELU: return r > 0 ? r : param * r;
    case CUPERM_OP_ELU: return r > 0 ? r : param * expm1(r); /* no cancellation near 0 */
    case CUPERM_OP_SIGMOID: return 1.0 / (1.0 + exp(-r));
    case CUPERM_OP_TANH: return tanh(r);
    case CUPERM_OP_EXP: return exp(r);
    case CUPERM_OP_SQRT: return sqrt(r);
    }
    return NAN;
}

static int64_t stride_of(const cupermTensorDescriptor_t* t, int dim)
{
    if (t->strides) return t->strides[dim];
    int64_t s = 1;
    for (int i = 0; i < dim; ++i) s *= t->extents[i];
    return s;
}

int64_t ctr_ref_span(const cupermTensorDescriptor_t* t)
{
    int64_t off = 0;
    for (int i = 0; i < t->rank; ++i) off += (t->extents[i] - 1) * stride_of(t, i);
    return off + 1;
}

#define MAXL (4 * CUPERM_MAX_RANK)

typedef struct {
    int n;
    int32_t label[MAXL];
    int64_t extent[MAXL];
    int64_t stride[4][MAXL]; /* per operand A, B, C, D; 0 where the label is absent */
} label_table;

static int add_labels(label_table* t, const cupermTensorDescriptor_t* d, int which)
{
    for (int i = 0; i < d->rank; ++i) {
        int j = 0;
        while (j < t->n && t->label[j] != d->modes[i]) ++j;
        if (j == t->n) {
            t->label[j] = d->modes[i];
            t->extent[j] = d->extents[i];
            t->n++;
        }
        t->stride[which][j] = stride_of(d, i);
    }
    return 0;
}

void ctr_ref_contract(const cupermTensorDescriptor_t* A, const cupermTensorDescriptor_t* B,
                      const cupermTensorDescriptor_t* C, const cupermTensorDescriptor_t* D,
                      const ctr_cplx* a, const ctr_cplx* b, const ctr_cplx* c, ctr_cplx alpha,
                      ctr_cplx beta, ctr_cplx* d, double* mag)
{
    /* Labels of D first (the outer loop), then the contracted ones. */
    label_table t;
    memset(&t, 0, sizeof t);
    add_labels(&t, D, 3);
    add_labels(&t, C, 2);
    const int nFree = t.n;
    add_labels(&t, A, 0);
    add_labels(&t, B, 1);
    const int cplxAB = dtype_is_complex(A->type), cplxCD = dtype_is_complex(D->type);
    int64_t idx[MAXL] = {0};
    for (;;) {
        int64_t offC = 0, offD = 0;
        for (int i = 0; i < nFree; ++i) {
            offC += idx[i] * t.stride[2][i];
            offD += idx[i] * t.stride[3][i];
        }
        /* Sum over the contracted labels. */
        ctr_cplx sum = 0;
        double absSum = 0;
        for (int i = nFree; i < t.n; ++i) idx[i] = 0;
        for (;;) {
            int64_t offA = 0, offB = 0;
            for (int i = 0; i < t.n; ++i) {
                offA += idx[i] * t.stride[0][i];
                offB += idx[i] * t.stride[1][i];
            }
            const ctr_cplx x = ctr_ref_op(A->op, A->opParam, cplxAB, a[offA]) *
                               ctr_ref_op(B->op, B->opParam, cplxAB, b[offB]);
            sum += x;
            absSum += cabs(x);
            int i = nFree;
            while (i < t.n && ++idx[i] == t.extent[i]) idx[i++] = 0;
            if (i == t.n) break;
        }
        ctr_cplx v = alpha * sum;
        double m = cabs(alpha) * absSum;
        if (beta != 0) {
            const ctr_cplx y = beta * ctr_ref_op(C->op, C->opParam, cplxCD, c[offC]);
            v += y;
            m += cabs(y);
        }
        d[offD] = ctr_ref_op(D->op, D->opParam, cplxCD, v);
        if (mag) m = fmax(m, cabs(d[offD]));
        if (mag) mag[offD] = m;
        int i = 0;
        while (i < nFree && ++idx[i] == t.extent[i]) idx[i++] = 0;
        if (i == nFree) break;
    }
}
