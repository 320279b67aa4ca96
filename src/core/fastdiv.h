/* Division by a divisor fixed on the host: a multiply-high and two shifts instead of
 * the GPU's emulated integer division (Granlund and Montgomery, "Division by invariant
 * integers using multiplication", 1994, figure 4.1). Exact for every 32-bit dividend and
 * every divisor 1 .. 2^32 - 1; larger operands go through cuperm_divmod_fast's fallback. */
#ifndef CUPERM_CORE_FASTDIV_H
#define CUPERM_CORE_FASTDIV_H

#include <stdint.h>

#include "core/hd.h"

/* The divisor itself is not stored: callers keep it (an extent) next to this. */
typedef struct {
    uint32_t mul;       /* m' = floor(2^32 (2^l - d) / d) + 1, l = ceil(log2 d) */
    uint16_t s1, s2;    /* min(l, 1), max(l - 1, 0) */
} cuperm_fastdiv_t;

/* The magic numbers of d (host side, once per plan or launch). d outside 1 .. 2^32 - 1
 * gives a record the fast path never reads (cuperm_divmod_fast checks the operands). */
CUPERM_HD cuperm_fastdiv_t cuperm_fastdiv_make(int64_t d)
{
    cuperm_fastdiv_t f = {0, 0, 0};
    if (d < 1 || d > (int64_t)UINT32_MAX) return f;
    uint32_t l = 0;
    while (((uint64_t)1 << l) < (uint64_t)d) ++l;
    f.mul = (uint32_t)((((uint64_t)1 << l) - (uint64_t)d) * ((uint64_t)1 << 32) / (uint64_t)d) + 1u;
    f.s1 = (uint16_t)(l < 1 ? l : 1);
    f.s2 = (uint16_t)(l < 1 ? 0 : l - 1);
    return f;
}

CUPERM_HD uint32_t cuperm_mulhi32(uint32_t a, uint32_t b)
{
#if defined(__CUDA_ARCH__)
    return __umulhi(a, b);
#else
    return (uint32_t)(((uint64_t)a * b) >> 32);
#endif
}

/* n / d for n < 2^32 and f = cuperm_fastdiv_make(d). t <= n, so nothing overflows. */
CUPERM_HD uint32_t cuperm_fastdiv_quot(uint32_t n, cuperm_fastdiv_t f)
{
    const uint32_t t = cuperm_mulhi32(n, f.mul);
    return (t + ((n - t) >> f.s1)) >> f.s2;
}

/* q = n / d, r = n % d for 0 <= n and 1 <= d. 32-bit operands take the multiply; larger
 * ones (a group of more than 2^32 elements, an extent of 2^32 or more) keep a 64-bit
 * division: exact, and rare enough that a 64-bit magic would only grow the parameter
 * blocks. f must be cuperm_fastdiv_make(d). */
CUPERM_HD void cuperm_divmod_fast(int64_t n, int64_t d, cuperm_fastdiv_t f, int64_t* q, int64_t* r)
{
    if (((uint64_t)n | (uint64_t)d) >> 32 == 0) {
        const uint32_t q32 = cuperm_fastdiv_quot((uint32_t)n, f);
        *q = q32;
        *r = (int64_t)((uint32_t)n - q32 * (uint32_t)d);
    } else {
        *q = n / d;
        *r = n - *q * d;
    }
}

#endif
