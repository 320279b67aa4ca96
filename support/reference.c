#include "support/reference.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "support/dtype.h"
#include "support/half.h"

void ref_load(cupermDataType_t type, const void* p, double v[2])
{
    v[1] = 0;
    switch (type) {
    case CUPERM_R_16F: v[0] = ref_half_to_float(*(const uint16_t*)p); break;
    case CUPERM_R_16BF: v[0] = ref_bf16_to_float(*(const uint16_t*)p); break;
    case CUPERM_R_32F: v[0] = *(const float*)p; break;
    case CUPERM_R_64F: v[0] = *(const double*)p; break;
    case CUPERM_C_32F: v[0] = ((const float*)p)[0]; v[1] = ((const float*)p)[1]; break;
    case CUPERM_C_64F: v[0] = ((const double*)p)[0]; v[1] = ((const double*)p)[1]; break;
    default: v[0] = 0; break;
    }
}

void ref_store(cupermDataType_t type, void* p, const double v[2])
{
    switch (type) {
    case CUPERM_R_16F: *(uint16_t*)p = ref_float_to_half((float)v[0]); break;
    case CUPERM_R_16BF: *(uint16_t*)p = ref_float_to_bf16((float)v[0]); break;
    case CUPERM_R_32F: *(float*)p = (float)v[0]; break;
    case CUPERM_R_64F: *(double*)p = v[0]; break;
    case CUPERM_C_32F: ((float*)p)[0] = (float)v[0]; ((float*)p)[1] = (float)v[1]; break;
    case CUPERM_C_64F: ((double*)p)[0] = v[0]; ((double*)p)[1] = v[1]; break;
    default: break;
    }
}

int64_t ref_span(int rank, const int64_t* extents, const int64_t* strides)
{
    int64_t span = 1, dense = 1;
    for (int d = 0; d < rank; ++d) {
        span += (extents[d] - 1) * (strides ? strides[d] : dense);
        dense *= extents[d];
    }
    return span;
}

/* Scalars as doubles: the 16-bit float types take float scalars. */
static void load_scalar(cupermDataType_t type, const void* s, double v[2])
{
    if (type == CUPERM_R_16F || type == CUPERM_R_16BF) {
        v[0] = *(const float*)s;
        v[1] = 0;
    } else {
        ref_load(type, s, v);
    }
}

static uint64_t load_bits(const void* p, size_t n)
{
    uint64_t v = 0;
    memcpy(&v, p, n < sizeof v ? n : sizeof v); /* little-endian: the low bytes */
    return v;
}

static int scalar_is(cupermDataType_t type, const void* s, double want)
{
    if (dtype_is_float(type)) {
        double v[2];
        load_scalar(type, s, v);
        return v[0] == want && v[1] == 0;
    }
    return load_bits(s, dtype_size(type)) == (uint64_t)want;
}

void ref_transpose(cupermDataType_t type, int rank, const int64_t* extents, const int* perm,
                   const int64_t* in_strides, const int64_t* out_strides, const void* alpha,
                   const void* in, const void* beta, void* out, double* mag)
{
    const size_t es = dtype_size(type);
    int64_t si[CUPERM_MAX_RANK], so[CUPERM_MAX_RANK], idx[CUPERM_MAX_RANK] = {0};
    int64_t dense_in = 1, dense_out = 1, volume = 1;
    for (int d = 0; d < rank; ++d) {
        si[d] = in_strides ? in_strides[d] : dense_in;
        dense_in *= extents[d];
        volume *= extents[d];
    }
    for (int r = 0; r < rank; ++r) { /* stride of output dim r belongs to input dim perm[r] */
        so[perm[r]] = out_strides ? out_strides[r] : dense_out;
        dense_out *= extents[perm[r]];
    }
    const int use_beta = !scalar_is(type, beta, 0);
    const int plain = !use_beta && scalar_is(type, alpha, 1);
    double a[2], b[2];
    load_scalar(type, alpha, a);
    load_scalar(type, beta, b);
    const uint64_t ai = load_bits(alpha, es), bi = load_bits(beta, es);
    const unsigned char* src = in;
    unsigned char* dst = out;

    int64_t io = 0, oo = 0;
    for (int64_t n = 0; n < volume; ++n) {
        const void* x = src + io * es;
        void* y = dst + oo * es;
        if (plain) {
            memcpy(y, x, es);
        } else if (dtype_is_float(type)) {
            double xv[2], yv[2] = {0, 0}, r[2];
            ref_load(type, x, xv);
            if (use_beta) ref_load(type, y, yv);
            r[0] = a[0] * xv[0] - a[1] * xv[1] + b[0] * yv[0] - b[1] * yv[1];
            r[1] = a[0] * xv[1] + a[1] * xv[0] + b[0] * yv[1] + b[1] * yv[0];
            if (mag)
                mag[oo] = hypot(a[0], a[1]) * hypot(xv[0], xv[1]) + hypot(b[0], b[1]) * hypot(yv[0], yv[1]);
            ref_store(type, y, r);
        } else { /* integers wrap */
            uint64_t r = ai * load_bits(x, es) + (use_beta ? bi * load_bits(y, es) : 0);
            memcpy(y, &r, es);
        }
        for (int d = 0; d < rank; ++d) {
            io += si[d];
            oo += so[d];
            if (++idx[d] < extents[d]) break;
            io -= si[d] * extents[d];
            oo -= so[d] * extents[d];
            idx[d] = 0;
        }
    }
}

int ref_permute(int rank, const int* dims, const int* perm, size_t elem, const void* in, void* out)
{
    static const cupermDataType_t bits[] = {CUPERM_R_8U, CUPERM_R_16I, CUPERM_R_32U, CUPERM_R_64U, CUPERM_C_64F};
    int64_t extents[CUPERM_MAX_RANK];
    if (rank < 1 || rank > CUPERM_MAX_RANK) return -1;
    for (int d = 0; d < rank; ++d) extents[d] = dims[d];
    for (size_t i = 0; i < sizeof bits / sizeof bits[0]; ++i) {
        if (dtype_size(bits[i]) != elem) continue;
        const double one[2] = {1, 0}, zero[2] = {0, 0};
        unsigned char alpha[16] = {0}, beta[16] = {0};
        if (dtype_is_float(bits[i])) {
            ref_store(bits[i], alpha, one);
            ref_store(bits[i], beta, zero);
        } else {
            alpha[0] = 1;
        }
        ref_transpose(bits[i], rank, extents, perm, NULL, NULL, alpha, in, beta, out, NULL);
        return 0;
    }
    return -1;
}

static void tolerance(cupermDataType_t type, double* rel, double* abs_floor)
{
    switch (type) {
    case CUPERM_R_16F: *rel = 0x1p-9; *abs_floor = 0x1p-24; break;
    case CUPERM_R_16BF: *rel = 0x1p-6; *abs_floor = 1e-38; break;
    case CUPERM_R_32F:
    case CUPERM_C_32F: *rel = 0x1p-20; *abs_floor = 1e-38; break;
    default: *rel = 0x1p-48; *abs_floor = 1e-300; break;
    }
}

int64_t ref_check(cupermDataType_t type, int64_t n, const void* got, const void* want,
                  const double* mag, char* msg, size_t msglen)
{
    const size_t es = dtype_size(type);
    const unsigned char *g = got, *w = want;
    double rel, floor_;
    tolerance(type, &rel, &floor_);
    int64_t bad = 0;
    for (int64_t i = 0; i < n; ++i) {
        if (!memcmp(g + i * es, w + i * es, es)) continue;
        if (mag && dtype_is_float(type)) {
            double gv[2], wv[2];
            ref_load(type, g + i * es, gv);
            ref_load(type, w + i * es, wv);
            double lim = rel * mag[i] + floor_;
            if (fabs(gv[0] - wv[0]) <= lim && fabs(gv[1] - wv[1]) <= lim) continue;
        }
        if (bad++ == 0 && msg) {
            double gv[2] = {0, 0}, wv[2] = {0, 0};
            ref_load(type, g + i * es, gv);
            ref_load(type, w + i * es, wv);
            snprintf(msg, msglen, "element %lld: got bits %016llx (%g), want %016llx (%g)", (long long)i,
                     (unsigned long long)load_bits(g + i * es, es < 8 ? es : 8), gv[0],
                     (unsigned long long)load_bits(w + i * es, es < 8 ? es : 8), wv[0]);
        }
    }
    return bad;
}
