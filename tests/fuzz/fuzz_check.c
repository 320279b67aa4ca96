/* cuperm-fuzz: host data, the reference, the error bound, the element and footprint checks. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "support/poison.h"
#include "support/reference.h"
#include "fuzz/fuzz.h"

static int64_t stride_of(const cupermTensorDescriptor_t* t, int dim)
{
    if (t->strides) return t->strides[dim];
    int64_t s = 1;
    for (int i = 0; i < dim; ++i) s *= t->extents[i];
    return s;
}

static void buffer_init(fuzz_buffer* b, cupermDataType_t type, int64_t n)
{
    b->type = type;
    b->es = cupermDataTypeSize(type);
    b->n = n;
    b->bytes = ((2 * FUZZ_GUARD + (size_t)n * b->es) + 255) / 256 * 256;
    b->host = malloc(b->bytes);
    poison_pattern(b->host, b->bytes); /* D's bytes outside its elements, and every guard zone */
    const int64_t ge = FUZZ_GUARD / (int64_t)sizeof(ctr_cplx);
    b->valuesAlloc = calloc((size_t)(n + 2 * ge), sizeof(ctr_cplx));
    b->values = b->valuesAlloc + ge;
}

static void buffer_free(fuzz_buffer* b)
{
    free(b->host);
    free(b->valuesAlloc);
    memset(b, 0, sizeof *b);
}

static unsigned char* elem(const fuzz_buffer* b, int64_t i) { return b->host + FUZZ_GUARD + (size_t)i * b->es; }

static void reload(fuzz_buffer* b, int64_t i)
{
    double v[2];
    ref_load(b->type, elem(b, i), v);
    b->values[i] = v[0] + I * v[1];
}

/* Random values in [-1, 1) rounded to the type; positive (for sqrt) or the near-zero
 * negatives of the ELU cases on request. */
static void fill_value(rng_t* r, fuzz_buffer* b, int64_t i, int positive, int nearZero)
{
    double v[2] = {rng_unit(r), dtype_is_complex(b->type) ? rng_unit(r) : 0.0};
    if (positive) v[0] = fabs(v[0]) + 0.01;
    if (nearZero == 1) v[0] = -(1e-4 + 1.9e-3 * fabs(v[0])); /* [-2e-3, -1e-4] */
    if (nearZero == 2) v[0] = 0.1 + 0.9 * fabs(v[0]);        /* [0.1, 1] */
    ref_store(b->type, elem(b, i), v);
    reload(b, i);
}

static void for_each_offset(const cupermTensorDescriptor_t* d, void (*f)(int64_t off, const int64_t* idx, void* ctx),
                            void* ctx)
{
    int64_t idx[CUPERM_MAX_RANK] = {0};
    for (;;) {
        int64_t off = 0;
        for (int i = 0; i < d->rank; ++i) off += idx[i] * stride_of(d, i);
        f(off, idx, ctx);
        int i = 0;
        while (i < d->rank && ++idx[i] == d->extents[i]) idx[i++] = 0;
        if (i == d->rank) break;
    }
}

int fuzz_ctr_prepare(const fuzz_ctr_case* k, fuzz_ctr_data* d)
{
    memset(d, 0, sizeof *d);
    rng_t r = {k->dataSeed};
    const cupermTensorDescriptor_t* desc = k->c.desc;
    for (int t = 0; t < 4; ++t) {
        if (t == 2 && k->aliasCD) continue;
        buffer_init(&d->buf[t], desc[t].type, k->base[t] + ctr_ref_span(&desc[t]));
    }
    d->spanD = ctr_ref_span(&desc[3]);
    d->mask = poison_element_mask(desc[3].rank, desc[3].extents, desc[3].strides, d->spanD);
    for (int t = 0; t < 2; ++t)
        for (int64_t i = 0; i < d->buf[t].n; ++i)
            fill_value(&r, &d->buf[t], i, desc[t].op == CUPERM_OP_SQRT, k->dataKind ? t + 1 : 0);
    const int sqrtC = desc[2].op == CUPERM_OP_SQRT;
    if (!k->aliasCD) {
        fuzz_buffer* c = &d->buf[2];
        for (int64_t i = 0; i < c->n; ++i) {
            if (k->betaZero) memset(elem(c, i), POISON_BYTE, c->es); /* beta = 0 must not read C */
            else fill_value(&r, c, i, sqrtC, 0);
            reload(c, i);
        }
    }
    /* D: the pattern everywhere; its elements hold C (C == D, beta != 0) or NaN. */
    fuzz_buffer* D = &d->buf[3];
    for (int64_t off = 0; off < d->spanD; ++off) {
        if (!d->mask[off]) continue;
        const int64_t i = k->base[3] + off;
        if (k->aliasCD && !k->betaZero) fill_value(&r, D, i, sqrtC, 0);
        else memset(elem(D, i), POISON_BYTE, D->es);
    }
    for (int64_t i = 0; i < D->n; ++i) reload(D, i);

    d->K = fuzz_ctr_k(k);
    d->vref = calloc((size_t)d->spanD, sizeof(ctr_cplx));
    d->want = calloc((size_t)d->spanD, sizeof(ctr_cplx));
    d->mag = calloc((size_t)d->spanD, sizeof(double));
    cupermTensorDescriptor_t Dv = desc[3];
    Dv.op = CUPERM_OP_IDENTITY;
    const ctr_cplx* c = k->aliasCD ? D->values + k->base[3] : d->buf[2].values + k->base[2];
    ctr_ref_contract(&desc[0], &desc[1], &desc[2], &Dv, d->buf[0].values + k->base[0],
                     d->buf[1].values + k->base[1], c, k->alpha, k->beta, d->vref, d->mag);
    const int cplx = dtype_is_complex(desc[3].type);
    for (int64_t off = 0; off < d->spanD; ++off)
        if (d->mask[off]) d->want[off] = ctr_ref_op(desc[3].op, desc[3].opParam, cplx, d->vref[off]);
    return 0;
}

void fuzz_ctr_release(fuzz_ctr_data* d)
{
    for (int t = 0; t < 4; ++t) buffer_free(&d->buf[t]);
    free(d->vref);
    free(d->want);
    free(d->mag);
    free(d->mask);
    memset(d, 0, sizeof *d);
}

void fuzz_load_d(const fuzz_ctr_case* k, const fuzz_ctr_data* d, const unsigned char* alloc, ctr_cplx* got)
{
    const fuzz_buffer* D = &d->buf[3];
    for (int64_t off = 0; off < d->spanD; ++off) {
        if (!d->mask[off]) continue;
        double v[2];
        ref_load(D->type, alloc + FUZZ_GUARD + (size_t)(k->base[3] + off) * D->es, v);
        got[off] = v[0] + I * v[1];
    }
}

/* ---- the error bound ------------------------------------------------------------- */

static double unit_roundoff(cupermDataType_t t)
{
    switch (t) {
    case CUPERM_R_16F: return 0x1p-11;
    case CUPERM_R_16BF: return 0x1p-8;
    case CUPERM_R_64F:
    case CUPERM_C_64F: return 0x1p-53;
    default: return 0x1p-24;
    }
}

/* Spacing of the subnormals (the smallest subnormal). */
static double subnormal(cupermDataType_t t)
{
    switch (t) {
    case CUPERM_R_16F: return 0x1p-24;
    case CUPERM_R_16BF: return 0x1p-133;
    case CUPERM_R_64F:
    case CUPERM_C_64F: return 0x1p-1074;
    default: return 0x1p-149;
    }
}

fuzz_precision fuzz_precision_of(const fuzz_ctr_case* k)
{
    const cupermDataType_t ab = k->c.desc[0].type, cd = k->c.desc[3].type;
    const int dbl = ab == CUPERM_R_64F || ab == CUPERM_C_64F;
    fuzz_precision p;
    double subIn = subnormal(ab);
    p.uAcc = dbl ? 0x1p-53 : 0x1p-24;
    double subAcc = dbl ? 0x1p-1074 : 0x1p-149;
    if (k->compute == CUPERM_COMPUTE_16F) {
        p.uAcc = 0x1p-11;
        subAcc = 0x1p-24;
    }
    switch (k->compute) {
    /* TF32 keeps 10 mantissa bits: 2^-11 when rounded, 2^-10 if the tensor cores truncate. */
    case CUPERM_COMPUTE_32F_FAST_TF32: p.uIn = 0x1p-10; break;
    case CUPERM_COMPUTE_32F_FAST_16F: p.uIn = 0x1p-11; subIn = 0x1p-24; break;
    case CUPERM_COMPUTE_32F_FAST_16BF: p.uIn = 0x1p-8; subIn = 0x1p-133; break;
    default: p.uIn = 0; break;
    }
    /* Complex GEMMs may run as three real products of sums (the 3M/Gauss method): a fast mode
     * then rounds a_re + a_im and b_re + b_im, whose product is up to 2 |a| |b|, twice the
     * input term of the four-product method (seen: C_32F, FAST_16F, 1.09x the plain bound). */
    if (ab == CUPERM_C_32F || ab == CUPERM_C_64F) p.uIn *= 2;
    p.uAB = unit_roundoff(ab);
    p.uCD = unit_roundoff(cd);
    p.uEv = 4 * (dbl ? 0x1p-53 : 0x1p-24);
    /* A rounded input loses up to a subnormal spacing, times the other factor (|op(x)| <= e)
     * and |alpha| <= 1.5: at most 5 spacings per product. */
    p.sub = subAcc + subnormal(cd) + 5 * subIn;
    return p;
}

fuzz_precision fuzz_precision_double(void)
{
    fuzz_precision p = {0x1p-53, 0, 0, 0x1p-53, 4 * 0x1p-53, 0x1p-1074};
    return p;
}

/*
 * The bound. With s = sum_k opA(a_k) opB(b_k) and v = alpha s + beta opC(c) exact (the
 * double reference, vref), and mag = |alpha| sum_k |opA(a_k) opB(b_k)| + |beta opC(c)|:
 *  - each operator value is evaluated with relative error <= uEv, may be stored back in
 *    A/B's type (<= uAB) and rounded for the fast tensor-core modes (<= uIn); a product of two
 *    such factors is off by <= 2 (uIn + uAB + uEv) relative, i.e. 2 (uIn + uAB + uEv) mag in all
 *    (opC's evaluation error is covered by the same term);
 *  - the K-term dot product in uAcc arithmetic errs by <= K uAcc sum |p_k| (gamma_K, first
 *    order); scaling by alpha and adding beta opC(c) are two more roundings: (K + 2) uAcc mag;
 *  - the result may be rounded to C/D's type up to three times (GEMM output in the workspace,
 *    the transpose or operator pass, the store into D): 3 uCD mag;
 *  - below the normal range each of the K + 2 operations may lose a subnormal spacing of the
 *    accumulation or C/D type, and an input rounded to fp16 loses up to one fp16 spacing
 *    times the other factor: floor = (K + 2) sub.
 * So |v_gpu - v| <= e_v = ((K + 2) uAcc + 2 (uIn + uAB + uEv) + 3 uCD) mag + floor, and
 *   |opD(v_gpu) - opD(v)| <= L e_v + (uCD + uEv) |opD(v)| + floor,
 * with L the Lipschitz constant of opD on [v - e_v, v + e_v]: 1 for identity, negate, abs,
 * relu and tanh; max(1, |param|) for leaky relu and ELU; 1/4 for sigmoid; exp(|v| + e_v) for
 * exp; the last terms are opD's evaluation and the final rounding to D's type. Complex types:
 * every real component against the complex magnitudes.
 */
double fuzz_bound(const fuzz_precision* p, double K, double mag, double vref, double wantAbs,
                  cupermOperator_t opD, double opParam)
{
    const double floor_ = (K + 2) * p->sub;
    const double ev = ((K + 2) * p->uAcc + 2 * (p->uIn + p->uAB + p->uEv) + 3 * p->uCD) * mag + floor_;
    double L = 1;
    switch (opD) {
    case CUPERM_OP_LEAKY_RELU:
    case CUPERM_OP_ELU: L = fmax(1.0, fabs(opParam)); break;
    case CUPERM_OP_SIGMOID: L = 0.25; break;
    case CUPERM_OP_EXP: L = exp(fabs(vref) + ev); break;
    case CUPERM_OP_SQRT: L = vref > ev ? 0.5 / sqrt(vref - ev) : INFINITY; break; /* never generated on D */
    default: L = 1; break;
    }
    return L * ev + (p->uCD + p->uEv) * wantAbs + floor_;
}

typedef struct {
    const fuzz_ctr_case* k;
    const fuzz_ctr_data* d;
    const fuzz_precision* p;
    const ctr_cplx* got;
    int64_t bad;
    char* msg;
    size_t msglen;
} check_ctx;

static void check_one(int64_t off, const int64_t* idx, void* vctx)
{
    check_ctx* c = vctx;
    const cupermTensorDescriptor_t* D = &c->k->c.desc[3];
    const ctr_cplx w = c->d->want[off], g = c->got[off];
    const int wantFinite = isfinite(creal(w)) && isfinite(cimag(w));
    const int gotFinite = isfinite(creal(g)) && isfinite(cimag(g));
    double bound = 0;
    int ok;
    if (!wantFinite) {
        ok = 1; /* never generated; nothing to compare against */
    } else if (!gotFinite) {
        ok = 0;
    } else {
        bound = fuzz_bound(c->p, c->d->K, c->d->mag[off], cabs(c->d->vref[off]), cabs(w), D->op, D->opParam);
        ok = fabs(creal(g) - creal(w)) <= bound && fabs(cimag(g) - cimag(w)) <= bound;
    }
    if (ok) return;
    if (c->bad++ == 0 && c->msg) {
        int n = snprintf(c->msg, c->msglen, "D[");
        for (int i = 0; i < D->rank && n < (int)c->msglen; ++i)
            n += snprintf(c->msg + n, c->msglen - (size_t)n, "%s%lld", i ? "," : "", (long long)idx[i]);
        if (n < (int)c->msglen)
            snprintf(c->msg + n, c->msglen - (size_t)n,
                     "] (offset %lld): got %.9g%+.9gi, want %.9g%+.9gi (pre-opD %.9g%+.9gi), |diff| %.3g > bound "
                     "%.3g (mag %.3g)",
                     (long long)off, creal(g), cimag(g), creal(w), cimag(w), creal(c->d->vref[off]),
                     cimag(c->d->vref[off]), cabs(g - w), bound, c->d->mag[off]);
    }
}

int64_t fuzz_check_values(const fuzz_ctr_case* k, const fuzz_ctr_data* d, const fuzz_precision* p,
                          const ctr_cplx* got, char* msg, size_t msglen)
{
    check_ctx c = {k, d, p, got, 0, msg, msglen};
    for_each_offset(&k->c.desc[3], check_one, &c);
    return c.bad;
}
