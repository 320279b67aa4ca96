#define _POSIX_C_SOURCE 200809L /* sysconf */
#include "contraction/ctr_reference.h"

#include <math.h>
#include <pthread.h>
#include <string.h>
#include <unistd.h>

#include "support/dtype.h"

/* The real types' meaning of op (conj is the identity). */
static double op_real(cupermOperator_t op, double param, double r)
{
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

ctr_cplx ctr_ref_op(cupermOperator_t op, double param, int complexType, ctr_cplx x)
{
    if (complexType) {
        switch (op) {
        case CUPERM_OP_NEGATE: return -x;
        case CUPERM_OP_CONJ: return conj(x);
        default: return x;
        }
    }
    return op_real(op, param, creal(x));
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

/* One call's problem, shared by the threads that split D's elements. */
typedef struct {
    const cupermTensorDescriptor_t *A, *B, *C, *D;
    const ctr_cplx *a, *b, *c;
    ctr_cplx alpha, beta, *d;
    double* mag;
    label_table t;
    int nFree;
    int64_t begin, end; /* this thread's range of D's elements, in the order of D's labels */
} job;

/* D's elements [begin, end): each a sum over the contracted labels, the first fastest (the
 * order, and so every rounding, the same whatever the split); offsets stepped, not recomputed. */
static void* run_job(void* arg)
{
    const job* j = arg;
    const label_table* t = &j->t;
    const int nFree = j->nFree, n = t->n;
    const int cplxAB = dtype_is_complex(j->A->type), cplxCD = dtype_is_complex(j->D->type);
    const int plain = (j->A->op == CUPERM_OP_IDENTITY || j->A->op == CUPERM_OP_CONJ) &&
                      (j->B->op == CUPERM_OP_IDENTITY || j->B->op == CUPERM_OP_CONJ); /* real: no op to apply */
    for (int64_t e = j->begin; e < j->end; ++e) {
        int64_t rest = e, offA = 0, offB = 0, offC = 0, offD = 0;
        for (int i = 0; i < nFree; ++i) {
            const int64_t x = rest % t->extent[i];
            rest /= t->extent[i];
            offA += x * t->stride[0][i], offB += x * t->stride[1][i];
            offC += x * t->stride[2][i], offD += x * t->stride[3][i];
        }
        int64_t idx[MAXL] = {0};
        ctr_cplx sum = 0;
        double absSum = 0, real = 0;
        for (;;) {
            if (cplxAB) {
                const ctr_cplx x = ctr_ref_op(j->A->op, j->A->opParam, 1, j->a[offA]) *
                                   ctr_ref_op(j->B->op, j->B->opParam, 1, j->b[offB]);
                sum += x;
                absSum += cabs(x);
            } else if (plain) {
                const double x = creal(j->a[offA]) * creal(j->b[offB]);
                real += x;
                absSum += fabs(x);
            } else {
                const double x = op_real(j->A->op, j->A->opParam, creal(j->a[offA])) *
                                 op_real(j->B->op, j->B->opParam, creal(j->b[offB]));
                real += x;
                absSum += fabs(x);
            }
            int i = nFree;
            for (; i < n; ++i) {
                offA += t->stride[0][i], offB += t->stride[1][i];
                if (++idx[i] < t->extent[i]) break;
                offA -= t->extent[i] * t->stride[0][i], offB -= t->extent[i] * t->stride[1][i];
                idx[i] = 0;
            }
            if (i == n) break;
        }
        if (!cplxAB) sum = real;
        ctr_cplx v = j->alpha * sum;
        double m = cabs(j->alpha) * absSum;
        if (j->beta != 0) {
            const ctr_cplx y = j->beta * ctr_ref_op(j->C->op, j->C->opParam, cplxCD, j->c[offC]);
            v += y;
            m += cabs(y);
        }
        j->d[offD] = ctr_ref_op(j->D->op, j->D->opParam, cplxCD, v);
        if (j->mag) j->mag[offD] = fmax(m, cabs(j->d[offD]));
    }
    return NULL;
}

void ctr_ref_contract(const cupermTensorDescriptor_t* A, const cupermTensorDescriptor_t* B,
                      const cupermTensorDescriptor_t* C, const cupermTensorDescriptor_t* D,
                      const ctr_cplx* a, const ctr_cplx* b, const ctr_cplx* c, ctr_cplx alpha,
                      ctr_cplx beta, ctr_cplx* d, double* mag)
{
    /* Labels of D first (the outer loop), then the contracted ones. */
    job proto = {A, B, C, D, a, b, c, alpha, beta, d, mag};
    add_labels(&proto.t, D, 3);
    add_labels(&proto.t, C, 2);
    proto.nFree = proto.t.n;
    add_labels(&proto.t, A, 0);
    add_labels(&proto.t, B, 1);
    int64_t outputs = 1, work = 1;
    for (int i = 0; i < proto.t.n; ++i) *(i < proto.nFree ? &outputs : &work) *= proto.t.extent[i];
    /* Threads (the tests' large cases take seconds a contraction on one core): each a contiguous
     * range of D, none for less than about 2^22 multiply-adds. */
    const long cores = sysconf(_SC_NPROCESSORS_ONLN);
    int64_t want = outputs * work >> 22;
    if (want > outputs) want = outputs;
    const int threads = (int)(want < 1 ? 1 : want < cores ? want : cores < 1 ? 1 : cores > 64 ? 64 : cores);
    job jobs[64];
    pthread_t ids[64];
    int started[64] = {0};
    for (int i = 0; i < threads; ++i) {
        jobs[i] = proto;
        jobs[i].begin = outputs * i / threads, jobs[i].end = outputs * (i + 1) / threads;
        if (i > 0) started[i] = pthread_create(&ids[i], NULL, run_job, &jobs[i]) == 0;
        if (i > 0 && !started[i]) run_job(&jobs[i]); /* no thread: this one does the range */
    }
    run_job(&jobs[0]);
    for (int i = 1; i < threads; ++i)
        if (started[i]) pthread_join(ids[i], NULL);
}
