#include "reference.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "parallel.h"
#include "support/reference.h"
#include "support/rng.h"

/* ---- random fill ---------------------------------------------------------- */

/* Fixed-size chunks, each with its own seed, make the data independent of the
 * thread count. */
#define FILL_CHUNK ((size_t)1 << 18)

typedef struct {
    unsigned char* data;
    size_t count;
    const dtype_info* t;
    uint64_t seed;
} fill_ctx;

/* One real floating component as raw bits: exponent within 8 of the bias. */
static uint64_t random_float_bits(rng_t* rng, int exponent_bits, int mantissa_bits)
{
    uint64_t r = rng_next(rng);
    uint64_t bias = ((uint64_t)1 << (exponent_bits - 1)) - 1;
    uint64_t exponent = bias - 8 + (r % 17);
    uint64_t mantissa = (r >> 8) & (((uint64_t)1 << mantissa_bits) - 1);
    uint64_t sign = (r >> 63) & 1;
    return (sign << (exponent_bits + mantissa_bits)) | (exponent << mantissa_bits) | mantissa;
}

/* Stores the low bytes of bits, in host (little-endian on every CUDA host) order. */
static void store_bits(unsigned char* dst, uint64_t bits, size_t bytes)
{
    memcpy(dst, &bits, bytes);
}

static void fill_range(size_t chunk_begin, size_t chunk_end, int worker, void* arg)
{
    (void)worker;
    fill_ctx* f = arg;
    size_t size = f->t->size;
    for (size_t chunk = chunk_begin; chunk < chunk_end; ++chunk) {
        rng_t rng = {f->seed * 0x100000001B3ull + chunk};
        size_t end = (chunk + 1) * FILL_CHUNK;
        if (end > f->count) end = f->count;
        for (size_t i = chunk * FILL_CHUNK; i < end; ++i) {
            unsigned char* dst = f->data + i * size;
            switch (f->t->kind) {
            case DTYPE_INT:
                for (size_t b = 0; b < size; b += 8) {
                    uint64_t r = rng_next(&rng);
                    memcpy(dst + b, &r, size - b < 8 ? size - b : 8);
                }
                break;
            case DTYPE_FLOAT:
                store_bits(dst, random_float_bits(&rng, f->t->exponent_bits, f->t->mantissa_bits),
                           size);
                break;
            case DTYPE_COMPLEX: {
                size_t half = size / 2;
                store_bits(dst, random_float_bits(&rng, f->t->exponent_bits, f->t->mantissa_bits),
                           half);
                store_bits(dst + half,
                           random_float_bits(&rng, f->t->exponent_bits, f->t->mantissa_bits), half);
                break;
            }
            }
        }
    }
}

void bench_fill_random(void* data, size_t count, const dtype_info* t, uint64_t seed, int threads)
{
    fill_ctx f = {data, count, t, seed};
    size_t chunks = (count + FILL_CHUNK - 1) / FILL_CHUNK;
    bench_parallel_for(chunks, 1, threads, fill_range, &f);
}

/* ---- reference check ------------------------------------------------------ */

typedef struct {
    const bench_case* c;
    const dtype_info* t;
    const unsigned char* in;
    const unsigned char* out;
    const unsigned char* out_init;
    double alpha, beta;
    double eps, tiny;                   /* floating types: the unit roundoff and smallest subnormal */
    int64_t out_extent[BENCH_MAX_RANK]; /* output dimension r: extent ... */
    int64_t in_stride[BENCH_MAX_RANK];  /* ... and its stride in the input */
    int64_t mismatches[64];             /* per worker */
    int64_t first[64];                  /* per worker, output index or -1 */
} verify_ctx;

/* Whether out_elem equals the reference for output element j whose input is in_elem: bits for
 * (1, 0); integers wrap as the kernels' arithmetic does; floats within a few ulps of the type
 * (a fused multiply-add and the final rounding) of |alpha*x| + |beta*y|, plus its smallest
 * subnormal. */
static int element_ok(const verify_ctx* v, const unsigned char* in_elem,
                      const unsigned char* out_elem, size_t j)
{
    const size_t size = v->t->size;
    if (v->alpha == 1 && v->beta == 0) return memcmp(in_elem, out_elem, size) == 0;
    if (v->t->kind == DTYPE_INT) {
        uint64_t x = 0, y = 0;
        memcpy(&x, in_elem, size); /* little-endian: the low bytes */
        if (v->beta != 0) memcpy(&y, v->out_init + j * size, size);
        const uint64_t want = (uint64_t)v->alpha * x + (uint64_t)v->beta * y;
        return memcmp(&want, out_elem, size) == 0;
    }
    double x[2], got[2], y[2] = {0, 0};
    ref_load(v->t->type, in_elem, x);
    ref_load(v->t->type, out_elem, got);
    if (v->beta != 0) ref_load(v->t->type, v->out_init + j * size, y);
    const double expected = v->alpha * x[0] + v->beta * y[0];
    return fabs(got[0] - expected) <= 4 * v->eps * (fabs(v->alpha * x[0]) + fabs(v->beta * y[0])) + v->tiny;
}

static void verify_range(size_t begin, size_t end, int worker, void* arg)
{
    verify_ctx* v = arg;
    int rank = v->c->rank;
    size_t size = v->t->size;
    int64_t idx[BENCH_MAX_RANK];
    int64_t offset = 0;
    size_t rest = begin;
    for (int r = 0; r < rank; ++r) {
        idx[r] = (int64_t)(rest % (size_t)v->out_extent[r]);
        rest /= (size_t)v->out_extent[r];
        offset += idx[r] * v->in_stride[r];
    }
    int64_t bad = 0, first = -1;
    for (size_t j = begin; j < end; ++j) {
        if (!element_ok(v, v->in + (size_t)offset * size, v->out + j * size, j)) {
            if (first < 0) first = (int64_t)j;
            ++bad;
        }
        /* Odometer step over the output's dimensions, tracking the input offset. */
        for (int r = 0; r < rank; ++r) {
            offset += v->in_stride[r];
            if (++idx[r] < v->out_extent[r]) break;
            offset -= idx[r] * v->in_stride[r];
            idx[r] = 0;
        }
    }
    v->mismatches[worker] = bad;
    v->first[worker] = first;
}

/* Integers: whole numbers 0-127, which every integer type holds as they are. */
static int small_whole(double x) { return x >= 0 && x <= 127 && x == floor(x); }

int bench_verify_supports(const dtype_info* t, double alpha, double beta)
{
    if (alpha == 1 && beta == 0) return 1;
    if (t->kind == DTYPE_INT) return small_whole(alpha) && small_whole(beta);
    return t->kind == DTYPE_FLOAT;
}

/* Input linear index of output element j, for the mismatch message. */
static int64_t input_index(const verify_ctx* v, int64_t j)
{
    int64_t offset = 0;
    for (int r = 0; r < v->c->rank; ++r) {
        offset += (j % v->out_extent[r]) * v->in_stride[r];
        j /= v->out_extent[r];
    }
    return offset;
}

static void hex(const unsigned char* p, size_t size, char* buf)
{
    for (size_t b = 0; b < size; ++b) sprintf(buf + 2 * b, "%02x", p[size - 1 - b]);
}

int64_t bench_verify_transpose(const bench_case* c, const dtype_info* t, const void* in,
                               const void* out, const void* out_init, double alpha, double beta,
                               int threads, bench_verify_report* report)
{
    verify_ctx v;
    memset(&v, 0, sizeof v);
    v.c = c;
    v.t = t;
    v.in = in;
    v.out = out;
    v.out_init = out_init;
    v.alpha = alpha;
    v.beta = beta;
    if (t->kind != DTYPE_INT) {
        v.eps = ldexp(1, -t->mantissa_bits);
        v.tiny = ldexp(1, 2 - (1 << (t->exponent_bits - 1)) - t->mantissa_bits);
    }
    int64_t stride[BENCH_MAX_RANK];
    for (int i = 0; i < c->rank; ++i) stride[i] = i ? stride[i - 1] * c->extents[i - 1] : 1;
    for (int r = 0; r < c->rank; ++r) {
        v.out_extent[r] = c->extents[c->perm[r]];
        v.in_stride[r] = stride[c->perm[r]];
    }
    if (threads > 64) threads = 64;
    size_t n = (size_t)bench_case_volume(c);
    bench_parallel_for(n, (size_t)1 << 16, threads, verify_range, &v);

    report->mismatches = 0;
    report->first_index = -1;
    report->detail[0] = '\0';
    for (int w = 0; w < 64; ++w) {
        report->mismatches += v.mismatches[w];
        if (v.mismatches[w] && report->first_index < 0) report->first_index = v.first[w];
    }
    if (report->first_index >= 0) {
        int64_t j = report->first_index, i = input_index(&v, j);
        char want[40], got[40];
        hex(v.in + (size_t)i * t->size, t->size, want);
        hex(v.out + (size_t)j * t->size, t->size, got);
        snprintf(report->detail, sizeof report->detail,
                 "output element %lld (from input element %lld): input bits 0x%s, got 0x%s",
                 (long long)j, (long long)i, want, got);
    }
    return report->mismatches;
}
