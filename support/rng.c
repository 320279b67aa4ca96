#include "support/rng.h"

#include <string.h>

#include "support/dtype.h"
#include "support/reference.h"

uint64_t rng_next(rng_t* r)
{
    uint64_t z = (r->state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

int64_t rng_range(rng_t* r, int64_t lo, int64_t hi)
{
    return lo + (int64_t)(rng_next(r) % (uint64_t)(hi - lo + 1));
}

double rng_unit(rng_t* r) { return (double)(rng_next(r) >> 11) * 0x1p-52 - 1.0; }

double rng_uniform(rng_t* r) { return (double)(rng_next(r) >> 11) * 0x1p-53; }

void rng_permutation(rng_t* r, int n, int* perm)
{
    for (int i = 0; i < n; ++i) perm[i] = i;
    for (int i = n - 1; i > 0; --i) {
        int j = (int)rng_range(r, 0, i), t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }
}

void rng_fill(rng_t* r, cupermDataType_t type, int64_t n, void* buf)
{
    size_t es = dtype_size(type);
    unsigned char* b = buf;
    if (!dtype_is_float(type)) { /* random bits, eight bytes at a time */
        int64_t bytes = n * (int64_t)es, i = 0;
        for (; i + 8 <= bytes; i += 8) {
            uint64_t x = rng_next(r);
            memcpy(b + i, &x, 8);
        }
        uint64_t x = rng_next(r);
        memcpy(b + i, &x, (size_t)(bytes - i));
        return;
    }
    for (int64_t i = 0; i < n; ++i) {
        double v[2] = {rng_unit(r), rng_unit(r)};
        ref_store(type, b + i * es, v);
    }
}

void rng_scalar(rng_t* r, cupermDataType_t type, void* s)
{
    double v[2] = {2 * rng_unit(r), 2 * rng_unit(r)};
    switch (type) {
    case CUPERM_R_16F:
    case CUPERM_R_16BF:
    case CUPERM_R_32F: *(float*)s = (float)v[0]; break;
    case CUPERM_R_64F: *(double*)s = v[0]; break;
    case CUPERM_C_32F: ((float*)s)[0] = (float)v[0]; ((float*)s)[1] = (float)v[1]; break;
    case CUPERM_C_64F: ((double*)s)[0] = v[0]; ((double*)s)[1] = v[1]; break;
    default: {
        uint64_t bits = rng_next(r);
        memcpy(s, &bits, dtype_size(type));
    }
    }
}
