/* Index math shared by the host planner, the CPU tests and the kernels. */
#ifndef CUPERM_COMMON_INDEX_MATH_H
#define CUPERM_COMMON_INDEX_MATH_H

#include <stdint.h>

#include "core/hd.h"
#include "core/kernel_params.h"

/* q = n / d and r = n % d, in 32 bits when both fit (far cheaper on the GPU). */
CUPERM_HD void cuperm_divmod(int64_t n, int64_t d, int64_t* q, int64_t* r)
{
    if (((uint64_t)n | (uint64_t)d) >> 32 == 0) {
        uint32_t q32 = (uint32_t)n / (uint32_t)d;
        *q = q32;
        *r = (int64_t)((uint32_t)n - q32 * (uint32_t)d);
    } else {
        *q = n / d;
        *r = n - *q * d;
    }
}

/* Input and output offsets of linear index idx over dim[begin, end), the first
 * dimension varying fastest. idx must be below the group's volume. */
CUPERM_HD void cuperm_group_offsets(const cuperm_dim_t* dim, int begin, int end, int64_t idx,
                                    int64_t* in_off, int64_t* out_off)
{
    int64_t oi = 0, oo = 0;
    for (int d = begin; d < end; ++d) {
        int64_t q, r;
        if (d + 1 == end) {
            q = 0;
            r = idx;
        } else {
            cuperm_divmod(idx, dim[d].extent, &q, &r);
        }
        oi += r * dim[d].in_stride;
        oo += r * dim[d].out_stride;
        idx = q;
    }
    *in_off = oi;
    *out_off = oo;
}

/* Where tile number t starts: its first A and B indices and the offsets of its
 * outer-dimension combination (walk order: cuperm_tile_params_t). */
CUPERM_HD void cuperm_tile_origin(const cuperm_tile_params_t* p, int64_t t, int64_t* a0,
                                  int64_t* b0, int64_t* in_base, int64_t* out_base)
{
    int64_t ta, tb;
    if (p->band_tiles > 0 && p->band_tiles < p->a_tiles) {
        int64_t r, band, within;
        cuperm_divmod(t, p->a_tiles * p->b_tiles, &t, &r);
        cuperm_divmod(r, p->band_tiles * p->b_tiles, &band, &within);
        const int64_t a_first = band * p->band_tiles, left = p->a_tiles - a_first;
        cuperm_divmod(within, left < p->band_tiles ? left : p->band_tiles, &tb, &ta);
        ta += a_first;
    } else {
        cuperm_divmod(t, p->a_tiles, &t, &ta);
        cuperm_divmod(t, p->b_tiles, &t, &tb);
    }
    *a0 = ta << p->tile_a_log2;
    *b0 = tb << p->tile_b_log2;
    cuperm_group_offsets(p->dim, p->b_end, p->rank, t, in_base, out_base);
}

#endif
