/* Every element a planned transpose launch moves, in the kernels' own index math
 * (core/index_math.h): the CPU tests emulate launches with it. */
#ifndef CUPERM_TEST_LAUNCH_WALK_H
#define CUPERM_TEST_LAUNCH_WALK_H

#include "core/index_math.h"

/* Calls f(out_offset, in_offset, ctx) for each element of launch l, tile by tile as the
 * kernels walk them; stops early and returns f's value when it is nonzero, else 0. */
static inline int launch_walk(const cuperm_launch_t* l, int (*f)(int64_t out, int64_t in, void* ctx), void* ctx)
{
    if (l->kind == CUPERM_LAUNCH_COPY) {
        for (int64_t i = 0; i < l->volume; ++i)
            if (f(i, i, ctx)) return 1;
        return 0;
    }
    const cuperm_tile_params_t* p = &l->tile;
    const int64_t ta = (int64_t)1 << p->tile_a_log2, tb = (int64_t)1 << p->tile_b_log2;
    cuperm_tile_divs_t dv; /* as the launchers make them */
    cuperm_tile_divisors(p, &dv);
    for (int64_t t = 0; t < p->num_tiles; ++t) {
        int64_t a0, b0, ib, ob;
        cuperm_tile_origin(p, &dv, t, &a0, &b0, &ib, &ob);
        for (int64_t y = 0; y < tb && b0 + y < p->b_volume; ++y) {
            int64_t bi, bo;
            cuperm_group_offsets(p->dim, dv.dim, p->a_end, p->b_end, b0 + y, &bi, &bo);
            for (int64_t x = 0; x < ta && a0 + x < p->a_volume; ++x) {
                int64_t ai, ao;
                cuperm_group_offsets(p->dim, dv.dim, 0, p->a_end, a0 + x, &ai, &ao);
                const int r = f(ob + ao + bo, ib + ai + bi, ctx);
                if (r) return r;
            }
        }
    }
    return 0;
}

#endif
