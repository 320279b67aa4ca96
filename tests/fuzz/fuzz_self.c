/*
 * cuperm-fuzz --self-test (CPU): the checker must pass correct results and flag wrong ones.
 *  - random cases of every type: the reference rounded to D's type passes; a NaN, an element
 *    taken from a neighbouring index, and the result without its beta term are flagged
 *    whenever they are off by more than a few percent of the element's magnitude;
 *  - the ELU cases: opA / opD evaluated in float as exp(x) - 1 (cancellation near 0) are
 *    flagged, the same with expm1 passes;
 *  - the footprint check: a byte before D's base, in a hole of D's span, or in the guard
 *    after it is reported at its offset; a byte of an element is not.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "support/reference.h"
#include "fuzz/fuzz.h"
#include "support/poison.h"

static int failures;

#define EXPECT(cond, ...)                                  \
    do {                                                   \
        if (!(cond)) {                                     \
            ++failures;                                    \
            printf("self-test FAILED: " __VA_ARGS__);      \
            printf("\n");                                  \
        }                                                  \
    } while (0)

static ctr_cplx round_to(cupermDataType_t t, ctr_cplx v)
{
    unsigned char b[16];
    double x[2] = {creal(v), cimag(v)};
    ref_store(t, b, x);
    ref_load(t, b, x);
    return x[0] + I * x[1];
}

static int64_t first_element(const fuzz_ctr_data* d, int64_t from)
{
    for (int64_t o = from; o < d->spanD; ++o)
        if (d->mask[o]) return o;
    return -1;
}

/* Tolerance (relative to mag) beyond which a corruption must be flagged. */
static double must_flag_threshold(const fuzz_ctr_case* k, double K)
{
    const cupermTensorDescriptor_t* D = &k->c.desc[3];
    double thr = D->type == CUPERM_R_16BF ? 0.05 : 0.02;
    if (k->compute == CUPERM_COMPUTE_16F) thr += 1.5 * (K + 2) * 0x1p-11; /* fp16 sums: loose by nature */
    if (D->op == CUPERM_OP_ELU || D->op == CUPERM_OP_LEAKY_RELU) thr *= fmax(1.0, D->opParam);
    return thr;
}

static void random_cases(int n)
{
    int flaggedNb = 0, mustNb = 0, flaggedBeta = 0, mustBeta = 0;
    for (int i = 0; i < n; ++i) {
        fuzz_ctr_case k;
        fuzz_ctr_draw(777, i, &k);
        fuzz_ctr_data d;
        fuzz_ctr_prepare(&k, &d);
        const cupermTensorDescriptor_t* D = &k.c.desc[3];
        const fuzz_precision p = fuzz_precision_of(&k);
        const double thr = must_flag_threshold(&k, d.K);
        ctr_cplx* got = calloc((size_t)d.spanD, sizeof(ctr_cplx));
        ctr_cplx* bad = calloc((size_t)d.spanD, sizeof(ctr_cplx));
        for (int64_t o = 0; o < d.spanD; ++o)
            if (d.mask[o]) got[o] = round_to(D->type, d.want[o]);
        char msg[700];
        /* correct */
        int64_t nbad = fuzz_check_values(&k, &d, &p, got, msg, sizeof msg);
        EXPECT(nbad == 0, "case %d: the rounded reference is flagged: %s", i, msg);
        /* NaN */
        const int64_t e = first_element(&d, rng_range(&(rng_t){(uint64_t)i}, 0, d.spanD - 1));
        const int64_t e0 = e >= 0 ? e : first_element(&d, 0);
        memcpy(bad, got, (size_t)d.spanD * sizeof(ctr_cplx));
        bad[e0] = NAN;
        EXPECT(fuzz_check_values(&k, &d, &p, bad, NULL, 0) == 1, "case %d: a NaN is not flagged", i);
        /* an element of a neighbouring index */
        int64_t nb = -1;
        {
            int64_t idx[CUPERM_MAX_RANK], rem = e0;
            (void)rem;
            /* find e0's index by walking all indices */
            int64_t cur[CUPERM_MAX_RANK] = {0};
            for (;;) {
                int64_t off = 0;
                for (int j = 0; j < D->rank; ++j) off += cur[j] * (D->strides ? D->strides[j] : 0);
                if (!D->strides) {
                    int64_t s = 1;
                    off = 0;
                    for (int j = 0; j < D->rank; ++j) {
                        off += cur[j] * s;
                        s *= D->extents[j];
                    }
                }
                if (off == e0) {
                    memcpy(idx, cur, sizeof cur);
                    break;
                }
                int j = 0;
                while (j < D->rank && ++cur[j] == D->extents[j]) cur[j++] = 0;
                if (j == D->rank) break;
            }
            for (int j = 0; j < D->rank && nb < 0; ++j) {
                if (D->extents[j] == 1) continue;
                const int64_t s = D->strides ? D->strides[j] : -1;
                int64_t stride = s;
                if (s < 0) {
                    stride = 1;
                    for (int q = 0; q < j; ++q) stride *= D->extents[q];
                }
                nb = idx[j] + 1 < D->extents[j] ? e0 + stride : e0 - stride;
            }
        }
        if (nb >= 0) {
            memcpy(bad, got, (size_t)d.spanD * sizeof(ctr_cplx));
            bad[e0] = got[nb];
            const int flagged = fuzz_check_values(&k, &d, &p, bad, NULL, 0) > 0;
            const double diff = cabs(d.want[e0] - d.want[nb]);
            if (diff > thr * d.mag[e0] + 1e-30) {
                ++mustNb;
                flaggedNb += flagged;
                EXPECT(flagged, "case %d: element from a neighbouring index (off by %.3g, mag %.3g) not flagged", i,
                       diff, d.mag[e0]);
            }
        }
        /* without the beta term */
        if (!k.betaZero) {
            cupermTensorDescriptor_t Dv = *D;
            Dv.op = CUPERM_OP_IDENTITY;
            ctr_cplx* v = calloc((size_t)d.spanD, sizeof(ctr_cplx));
            ctr_ref_contract(&k.c.desc[0], &k.c.desc[1], &k.c.desc[2], &Dv, d.buf[0].values + k.base[0],
                             d.buf[1].values + k.base[1], NULL, k.alpha, 0, v, NULL);
            int must = 0;
            for (int64_t o = 0; o < d.spanD; ++o) {
                if (!d.mask[o]) continue;
                bad[o] = round_to(D->type, ctr_ref_op(D->op, D->opParam, D->type == CUPERM_C_32F || D->type == CUPERM_C_64F, v[o]));
                must |= cabs(bad[o] - d.want[o]) > thr * d.mag[o] + 1e-30;
            }
            const int flagged = fuzz_check_values(&k, &d, &p, bad, NULL, 0) > 0;
            if (must) {
                ++mustBeta;
                flaggedBeta += flagged;
                EXPECT(flagged, "case %d: result without its beta term not flagged", i);
            }
            free(v);
        }
        /* footprint */
        const fuzz_buffer* B = &d.buf[3];
        unsigned char* after = malloc(B->bytes);
        const size_t origin = FUZZ_GUARD + (size_t)k.base[3] * B->es;
        int64_t where = 0;
        memcpy(after, B->host, B->bytes);
        after[origin + (size_t)e0 * B->es] ^= 0x10;
        EXPECT(!poison_changed_outside(B->host, after, B->bytes, origin, B->es, d.mask, d.spanD, &where),
               "case %d: a write to an element is reported", i);
        memcpy(after, B->host, B->bytes);
        after[origin - 2 * B->es] ^= 1;
        EXPECT(poison_changed_outside(B->host, after, B->bytes, origin, B->es, d.mask, d.spanD, &where) &&
                   where == -2 * (int64_t)B->es,
               "case %d: a write 2 elements before D's base is not reported at -2 elements", i);
        memcpy(after, B->host, B->bytes);
        after[B->bytes - 1] ^= 1;
        EXPECT(poison_changed_outside(B->host, after, B->bytes, origin, B->es, d.mask, d.spanD, &where),
               "case %d: a write after D's span is not reported", i);
        for (int64_t o = 0; o < d.spanD; ++o) {
            if (d.mask[o]) continue;
            memcpy(after, B->host, B->bytes);
            after[origin + (size_t)o * B->es] ^= 1;
            EXPECT(poison_changed_outside(B->host, after, B->bytes, origin, B->es, d.mask, d.spanD, &where) &&
                       where == o * (int64_t)B->es,
                   "case %d: a write to a hole of D's span is not reported", i);
            break;
        }
        free(after);
        free(got);
        free(bad);
        fuzz_ctr_release(&d);
    }
    printf("self-test: %d random cases; neighbour-index elements flagged %d/%d, missing beta flagged %d/%d\n", n,
           flaggedNb, mustNb, flaggedBeta, mustBeta);
    EXPECT(mustNb > n / 2 && mustBeta > n / 4, "too few corruptions large enough to test (%d, %d)", mustNb, mustBeta);
}

/* The ELU regression cases computed in float, with exp(x) - 1 or with expm1. */
static float elu_f(float x, float a, int useExpm1) { return x > 0 ? x : a * (useExpm1 ? expm1f(x) : expf(x) - 1.0f); }

static void elu_cases(void)
{
    for (int which = 3; which <= 4; ++which) {
        fuzz_ctr_case k;
        fuzz_ctr_regression(which, &k);
        fuzz_ctr_data d;
        fuzz_ctr_prepare(&k, &d);
        const fuzz_precision p = fuzz_precision_of(&k);
        const ctr_cplx *a = d.buf[0].values + k.base[0], *b = d.buf[1].values + k.base[1];
        for (int useExpm1 = 0; useExpm1 <= 1; ++useExpm1) {
            ctr_cplx got[64];
            for (int i = 0; i < 8; ++i)
                for (int j = 0; j < 8; ++j) {
                    float s = 0;
                    for (int q = 0; q < 16; ++q) {
                        float x = (float)creal(a[i + 8 * q]);
                        if (which == 3) x = elu_f(x, 1.0f, useExpm1);
                        s += x * (float)creal(b[q + 16 * j]);
                    }
                    if (which == 4) s = elu_f(s, 1.0f, useExpm1);
                    got[i + 8 * j] = s;
                }
            char msg[700];
            const int64_t bad = fuzz_check_values(&k, &d, &p, got, msg, sizeof msg);
            if (useExpm1) EXPECT(bad == 0, "ELU case %d with expm1f flagged: %s", which, msg);
            else EXPECT(bad > 0, "ELU case %d with expf(x) - 1 not flagged", which);
            if (!useExpm1) printf("self-test: ELU case %d with expf(x) - 1: %lld of 64 elements flagged\n", which, (long long)bad);
        }
        fuzz_ctr_release(&d);
    }
}


/* ---- a plausible low-precision execution: sequential sums in the accumulation type ---- */

typedef struct {
    cupermDataType_t ab, cd;
    int acc;   /* 16: fp16, 32: fp32, 64: double */
    int fast;  /* 0, or the compute type rounding the inputs */
} emu_types;

static double rnd_type(cupermDataType_t t, double x)
{
    switch (t) {
    case CUPERM_R_16F: return ref_half_to_float(ref_float_to_half((float)x));
    case CUPERM_R_16BF: return ref_bf16_to_float(ref_float_to_bf16((float)x));
    case CUPERM_R_32F:
    case CUPERM_C_32F: return (float)x;
    default: return x;
    }
}

static double rnd_acc(const emu_types* e, double x)
{
    return e->acc == 16 ? rnd_type(CUPERM_R_16F, x) : e->acc == 32 ? (double)(float)x : x;
}

static double rnd_in(const emu_types* e, double x)
{
    switch (e->fast) {
    case CUPERM_COMPUTE_32F_FAST_TF32: { /* truncate to 11 significant bits (worse than rounding) */
        int ex;
        const double m = frexp(x, &ex);
        return ldexp(trunc(ldexp(m, 11)), ex - 11);
    }
    case CUPERM_COMPUTE_32F_FAST_16F: return rnd_type(CUPERM_R_16F, x);
    case CUPERM_COMPUTE_32F_FAST_16BF: return rnd_type(CUPERM_R_16BF, x);
    default: return x;
    }
}

/* An operator evaluated in the working precision (float or double), stored in type t. */
static ctr_cplx op_in(const emu_types* e, cupermDataType_t t, const cupermTensorDescriptor_t* d, ctr_cplx x)
{
    const int cplx = t == CUPERM_C_32F || t == CUPERM_C_64F;
    const ctr_cplx y = ctr_ref_op(d->op, d->opParam, cplx, x);
    const int dbl = t == CUPERM_R_64F || t == CUPERM_C_64F;
    double re = creal(y), im = cimag(y);
    if (!dbl) { re = (float)re; im = (float)im; }
    (void)e;
    return rnd_type(t, re) + I * rnd_type(t, im);
}

static ctr_cplx mul_acc(const emu_types* e, ctr_cplx a, ctr_cplx b)
{
    const double re = rnd_acc(e, rnd_acc(e, creal(a) * creal(b)) - rnd_acc(e, cimag(a) * cimag(b)));
    const double im = rnd_acc(e, rnd_acc(e, creal(a) * cimag(b)) + rnd_acc(e, cimag(a) * creal(b)));
    return re + I * im;
}

static ctr_cplx add_acc(const emu_types* e, ctr_cplx a, ctr_cplx b)
{
    return rnd_acc(e, creal(a) + creal(b)) + I * rnd_acc(e, cimag(a) + cimag(b));
}

static int64_t emu_stride(const cupermTensorDescriptor_t* t, int32_t label)
{
    int64_t dense = 1;
    for (int i = 0; i < t->rank; ++i) {
        if (t->modes[i] == label) return t->strides ? t->strides[i] : dense;
        dense *= t->extents[i];
    }
    return 0;
}

static void emulate(const fuzz_ctr_case* k, const fuzz_ctr_data* d, ctr_cplx* got)
{
    const cupermTensorDescriptor_t *A = &k->c.desc[0], *B = &k->c.desc[1], *C = &k->c.desc[2], *D = &k->c.desc[3];
    emu_types e = {A->type, D->type, 32, 0};
    if (A->type == CUPERM_R_64F || A->type == CUPERM_C_64F) e.acc = 64;
    if (k->compute == CUPERM_COMPUTE_16F) e.acc = 16;
    if (k->compute >= CUPERM_COMPUTE_32F_FAST_TF32) e.fast = k->compute;
    int32_t label[4 * CUPERM_MAX_RANK];
    int64_t ext[4 * CUPERM_MAX_RANK], st[4][4 * CUPERM_MAX_RANK];
    int n = 0;
    for (int i = 0; i < D->rank; ++i) {
        label[n] = D->modes[i];
        ext[n++] = D->extents[i];
    }
    const int nFree = n;
    for (int i = 0; i < A->rank; ++i) { /* contracted: in A, not in D */
        int inD = 0;
        for (int j = 0; j < D->rank; ++j) inD |= D->modes[j] == A->modes[i];
        if (!inD) {
            label[n] = A->modes[i];
            ext[n++] = A->extents[i];
        }
    }
    const cupermTensorDescriptor_t* ops[4] = {A, B, C, D};
    for (int t = 0; t < 4; ++t)
        for (int i = 0; i < n; ++i) st[t][i] = emu_stride(ops[t], label[i]);
    const ctr_cplx *a = d->buf[0].values + k->base[0], *b = d->buf[1].values + k->base[1];
    const ctr_cplx* c = k->aliasCD ? d->buf[3].values + k->base[3] : d->buf[2].values + k->base[2];
    int64_t idx[4 * CUPERM_MAX_RANK] = {0};
    for (;;) {
        int64_t oc = 0, od = 0;
        for (int i = 0; i < nFree; ++i) { oc += idx[i] * st[2][i]; od += idx[i] * st[3][i]; }
        for (int i = nFree; i < n; ++i) idx[i] = 0;
        ctr_cplx sum = 0;
        for (;;) {
            int64_t oa = 0, ob = 0;
            for (int i = 0; i < n; ++i) { oa += idx[i] * st[0][i]; ob += idx[i] * st[1][i]; }
            ctr_cplx x = op_in(&e, A->type, A, a[oa]), y = op_in(&e, B->type, B, b[ob]);
            x = rnd_in(&e, creal(x)) + I * rnd_in(&e, cimag(x));
            y = rnd_in(&e, creal(y)) + I * rnd_in(&e, cimag(y));
            sum = add_acc(&e, sum, mul_acc(&e, x, y));
            int i = nFree;
            while (i < n && ++idx[i] == ext[i]) idx[i++] = 0;
            if (i == n) break;
        }
        ctr_cplx v = mul_acc(&e, rnd_acc(&e, creal(k->alpha)) + I * rnd_acc(&e, cimag(k->alpha)), sum);
        v = rnd_type(D->type, creal(v)) + I * rnd_type(D->type, cimag(v)); /* through the workspace */
        if (!k->betaZero) {
            const ctr_cplx y = op_in(&e, C->type, C, c[oc]);
            v = add_acc(&e, v, mul_acc(&e, k->beta, y));
        }
        got[od] = op_in(&e, D->type, D, v);
        int i = 0;
        while (i < nFree && ++idx[i] == ext[i]) idx[i++] = 0;
        if (i == nFree) break;
    }
}

static void emulated_cases(int n)
{
    int flagged = 0;
    double worst = 0;
    int worstCase = -1;
    for (int i = 0; i < n; ++i) {
        fuzz_ctr_case k;
        fuzz_ctr_draw(4242, i, &k);
        fuzz_ctr_data d;
        fuzz_ctr_prepare(&k, &d);
        const fuzz_precision p = fuzz_precision_of(&k);
        ctr_cplx* got = calloc((size_t)d.spanD, sizeof(ctr_cplx));
        emulate(&k, &d, got);
        for (int64_t o = 0; o < d.spanD; ++o) {
            if (!d.mask[o] || !isfinite(cabs(got[o]))) continue;
            const cupermTensorDescriptor_t* D = &k.c.desc[3];
            const double b = fuzz_bound(&p, d.K, d.mag[o], cabs(d.vref[o]), cabs(d.want[o]), D->op, D->opParam);
            const double r = fmax(fabs(creal(got[o] - d.want[o])), fabs(cimag(got[o] - d.want[o]))) / b;
            if (r > worst) {
                worst = r;
                worstCase = i;
            }
        }
        char msg[700];
        if (fuzz_check_values(&k, &d, &p, got, msg, sizeof msg)) {
            ++flagged;
            EXPECT(0, "emulated low-precision case %d flagged: %s", i, msg);
            if (flagged <= 3) fuzz_ctr_describe(stdout, &k);
        }
        free(got);
        fuzz_ctr_release(&d);
    }
    printf("self-test: %d cases emulated in their types' precision (sequential sums, truncated TF32): %d flagged, "
           "largest error %.2f of its bound (case %d)\n", n, flagged, worst, worstCase);
}

int fuzz_self_test(void)
{
    failures = 0;
    elu_cases();
    random_cases(300);
    emulated_cases(300);
    printf("self-test: %s (%d failures)\n", failures ? "FAILED" : "passed", failures);
    return failures ? 1 : 0;
}
