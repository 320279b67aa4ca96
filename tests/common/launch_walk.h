/* Every element a planned transpose launch moves, in the kernels' own index math
 * (core/index_math.h): the CPU tests emulate launches with it. */
#ifndef CUPERM_TEST_LAUNCH_WALK_H
#define CUPERM_TEST_LAUNCH_WALK_H

#include <stdlib.h>

#include "core/index_math.h"

/* A WHOLE_DIMS launch as its kernel runs it (whole_dims.cu): tables from cuperm_whole_dims_entry, the
 * write pass of every tile; an element written from a slot its read pass did not fill
 * (another split index) makes it return -1. */
static inline int whole_dims_walk(const cuperm_launch_t* l, int (*f)(int64_t out, int64_t in, void* ctx), void* ctx)
{
    const cuperm_tile_params_t* p = &l->tile;
    const int64_t v = p->a_volume;
    cuperm_tile_divs_t dv;
    cuperm_tile_divisors(p, &dv);
    uint32_t* tab = (uint32_t*)malloc((size_t)v * 5 * sizeof *tab);
    if (!tab) return -1;
    uint32_t *in_off = tab, *in_split = tab + v, *out_off = tab + 2 * v, *slot = tab + 3 * v, *out_split = tab + 4 * v;
    for (int64_t k = 0; k < v; ++k)
        cuperm_whole_dims_entry(p, &dv, (uint32_t)k, &in_off[k], &in_split[k], &out_off[k], &slot[k], &out_split[k]);
    int r = 0;
    for (int64_t t = 0; t < p->num_tiles && !r; ++t) {
        int64_t ib, ob;
        cuperm_group_offsets(p->dim, dv.dim, p->a_end, p->rank, t, &ib, &ob);
        const int64_t len = cuperm_whole_dims_split_len(p, &dv, t);
        for (int64_t j = 0; j < v && !r; ++j) {
            if (out_split[j] >= len) continue;
            if (slot[j] >= v || in_split[slot[j]] != out_split[j]) r = -1;
            else r = f(ob + out_off[j], ib + in_off[slot[j]], ctx);
        }
    }
    free(tab);
    return r;
}

/* A WHOLE_DIMS launch in spans (wd_span) as its kernel runs it (whole_dims.cu: whole_dims_span_kernel),
 * with the input and output pointers in_mis and out_mis elements past a 16-byte boundary: per tile the
 * read pass's granules into the span's shared copy (input offsets), then each thread's granules of the
 * write pass, its cursor stepped as the kernel steps it and, in launches with a gather table
 * (wd_span == 2), its whole granules' sources read from the block's table where the tile's heads are
 * those of the block's first tile (tiles[1] counts such tiles, tiles[0] the others; tiles may be NULL). An element taken from a slot the read pass did
 * not fill, or outside the copy, makes it return -1. */
static inline int whole_dims_span_walk(const cuperm_launch_t* l, int in_mis, int out_mis, int64_t tiles[2],
                                       int (*f)(int64_t out, int64_t in, void* ctx), void* ctx)
{
    const cuperm_tile_params_t* p = &l->tile;
    const int E = l->elem_size, N = 16 / E, inner = p->span_inner, step = CUPERM_THREADS * N;
    const int step_q = step / inner, step_r = step - step_q * inner;
    const int copy = cuperm_span_data_bytes(p->a_volume, E); /* bytes: elements at their skewed places */
    const int g = cuperm_span_gather_granules(p->a_volume, E), gbytes = cuperm_span_gather_bytes(p->a_volume, E);
    const int table_on = p->wd_span == 2;
    if (cuperm_span_smem_bytes(p->a_volume, E, inner, table_on) > l->smem_bytes || l->blocks < 1)
        return -1; /* the launch's shared memory */
    cuperm_tile_divs_t dv;
    cuperm_tile_divisors(p, &dv);
    uint16_t* slot = (uint16_t*)malloc((size_t)cuperm_span_slot_at(inner) * sizeof *slot);
    uint16_t* table = (uint16_t*)malloc((size_t)gbytes);
    int64_t* data = (int64_t*)malloc((size_t)copy * sizeof *data);
    int r = !slot || !table || !data || 16 % E ? -1 : 0;
    for (int k = 0; k < inner && !r; ++k) {
        uint32_t io, is, oo, s, os;
        cuperm_whole_dims_entry(p, &dv, (uint32_t)k, &io, &is, &oo, &s, &os);
        slot[cuperm_span_slot_at(k)] = (uint16_t)s;
    }
    int hin0 = 0, hout0 = 0;
    /* block by block (blockIdx.x = t0), each block's tiles in turn, as the kernel walks them */
    for (int64_t t0 = 0; t0 < l->blocks && t0 < p->num_tiles && !r; ++t0)
    for (int64_t t = t0; t < p->num_tiles && !r; t += l->blocks) {
        int64_t ib, ob;
        cuperm_group_offsets(p->dim, dv.dim, p->a_end, p->rank, t, &ib, &ob);
        const int n = (int)(p->wd_split >= 0 ? inner * cuperm_whole_dims_split_len(p, &dv, t) : p->a_volume);
        const int hin = (int)((in_mis + ib) % N), hout = (int)((out_mis + ob) % N);
        if (t == t0) { /* the block's gather table, for the heads of its first tile */
            hin0 = hin, hout0 = hout;
            for (int v = 0; v < g; ++v)
                cuperm_span_gather_fill(table, g, v, hin0, hout0, (int)p->a_volume, E, slot, inner);
        }
        const int gathered = table_on && hin == hin0 && hout == hout0;
        if (tiles) ++tiles[gathered];
        for (int i = 0; i < copy; ++i) data[i] = -1;
        for (int v = 0; v < cuperm_granules_of(hin, n, N); ++v) {
            int lo, hi;
            cuperm_granule_part(hin, n, N, v, &lo, &hi);
            for (int e = lo; e < hi; ++e) {
                const int at = cuperm_span_skew(E * (v * N + e));
                if (at + E > copy || data[at] >= 0) r = -1; /* outside the copy, or two elements in one place */
                else data[at] = ib + v * N - hin + e;
            }
        }
        const int gout = cuperm_granules_of(hout, n, N);
        for (int th = 0; th < CUPERM_THREADS && !r; ++th) {
            int v = th, j = v * N - hout;
            cuperm_span_cursor_t c;
            if (j < 0) { /* the head granule */
                int lo, hi;
                cuperm_granule_part(hout, n, N, v, &lo, &hi);
                c = cuperm_span_cursor(j + lo, inner);
                for (int e = lo; e < hi && !r; ++e) {
                    const int k = cuperm_span_skew(E * (hin + cuperm_span_next_source(&c, slot, inner)));
                    r = k < 0 || k >= copy || data[k] < 0 ? -1 : f(ob + j + e, data[k], ctx);
                }
                v += CUPERM_THREADS, j += step;
            }
            c = cuperm_span_cursor(j, inner);
            for (; v < gout && !r; v += CUPERM_THREADS, j += step) {
                cuperm_span_cursor_t e = c;
                const int m = j + N <= n ? N : n - j; /* a whole granule, or the tail's elements */
                for (int i = 0; i < m && !r; ++i) {
                    int k = cuperm_span_skew(E * (hin + cuperm_span_next_source(&e, slot, inner)));
                    if (gathered && m == N) k = table[cuperm_span_gather_at(v, i, E, g)];
                    r = k < 0 || k >= copy || data[k] < 0 ? -1 : f(ob + j + i, data[k], ctx);
                }
                cuperm_span_advance(&c, step_q, step_r, inner);
            }
        }
    }
    free(slot);
    free(table);
    free(data);
    return r;
}

/* A WHOLE_DIMS launch in runs (wd_span == 3) as its kernel runs it (whole_dims.cu: whole_dims_runs_kernel),
 * with the pointers in_mis and out_mis elements past a 16-byte boundary: the run tables and gather table of
 * tile 0's heads (the kernel fills them per block, from the block's first tile's); per full tile the read pass's granules into the copy (whole where the
 * granule lies inside the input's extent, else the run's elements), then every output granule from the
 * table; a short split chunk element by element. counts[0] counts full tiles, counts[1] short ones, counts[2]
 * granules read whole past their run's ends (may be NULL). A tile whose heads differ from its block's first
 * tile's, an element taken from a byte the read pass did not fill, or a table entry outside the copy makes
 * it return -1. */
static inline int whole_dims_runs_walk(const cuperm_launch_t* l, int in_mis, int out_mis, int64_t counts[3],
                                       int (*f)(int64_t out, int64_t in, void* ctx), void* ctx)
{
    const cuperm_tile_params_t* p = &l->tile;
    const int E = l->elem_size, N = 16 / E, lr = p->span_in_run, lw = p->span_out_run, V = (int)p->a_volume;
    const cuperm_runs_layout_t L = cuperm_runs_layout(V, lr, lw, E);
    if (16 % E || V % lr || V % lw || L.total > l->smem_bytes || l->blocks < 1 ||
        L.R * L.G > CUPERM_RUNS_MAX_READ_GRANULES)
        return -1;
    cuperm_tile_divs_t dv;
    cuperm_tile_divisors(p, &dv);
    const int qg = L.Q * L.Go;
    unsigned char* smem = (unsigned char*)calloc((size_t)L.total, 1);
    int64_t* data = (int64_t*)malloc((size_t)L.copy * sizeof *data); /* input offset of each copy byte's element */
    int64_t* stamp = (int64_t*)calloc((size_t)L.copy, sizeof *stamp); /* ... filled by tile stamp[at] - 1 */
    int r = !smem || !data || !stamp ? -1 : 0;
    uint16_t* table = (uint16_t*)(smem + L.table);
    int32_t *in_gran = (int32_t*)(smem + L.in_gran), *out_gran = (int32_t*)(smem + L.out_gran);
    uint8_t *hin = smem + L.hin, *hout = smem + L.hout;
    uint16_t *srun = (uint16_t*)(smem + L.srun), *sq = (uint16_t*)(smem + L.sq);
    const int64_t in_extent = cuperm_whole_dims_in_extent(p), part = p->wd_split >= 0 ? p->dim[p->wd_split].extent : 0;
    uint32_t io, is, oo, s, os;
    for (int64_t t0 = 0; t0 < l->blocks && t0 < p->num_tiles && !r; ++t0)
        for (int64_t t = t0; t < p->num_tiles && !r; t += l->blocks) {
            int64_t ib, ob;
            cuperm_group_offsets(p->dim, dv.dim, p->a_end, p->rank, t, &ib, &ob);
            /* The heads; the tables from tile 0's, which every block's first tile must share (so every
             * block's tables are these: they depend on the heads alone), as every tile must. */
            for (int q = 0; q < L.Q && !r; ++q) {
                cuperm_whole_dims_entry(p, &dv, (uint32_t)(q * lw), &io, &is, &oo, &s, &os);
                const int h = (int)((out_mis + ob + oo) % N);
                if (t == 0) hout[q] = (uint8_t)h, out_gran[q] = (int32_t)oo - h, sq[q] = (uint16_t)s;
                else if (h != hout[q]) r = -1;
            }
            for (int k = 0; k < L.R && !r; ++k) {
                cuperm_whole_dims_entry(p, &dv, (uint32_t)(k * lr), &io, &is, &oo, &s, &os);
                const int h = (int)((in_mis + ib + io) % N);
                if (t == 0) hin[k] = (uint8_t)h, in_gran[k] = (int32_t)io - h;
                else if (h != hin[k]) r = -1;
            }
            if (t == 0 && !r) {
                for (int j = 0; j < lw; ++j) {
                    cuperm_whole_dims_entry(p, &dv, (uint32_t)j, &io, &is, &oo, &s, &os);
                    srun[j] = (uint16_t)s;
                }
                for (int g = 0; g < qg; ++g) cuperm_runs_gather_fill(table, &L, g, lr, lw, E, hin, hout, srun, sq);
            }
            const int64_t len = p->wd_split >= 0 ? cuperm_whole_dims_split_len(p, &dv, t) : part;
            if (p->wd_split >= 0 && len < part) { /* the short chunk */
                if (counts) ++counts[1];
                for (int j = 0; j < V && !r; ++j) {
                    uint32_t a, b, o, sl, osp;
                    cuperm_whole_dims_entry(p, &dv, (uint32_t)j, &a, &b, &o, &sl, &osp);
                    if ((int64_t)osp >= len) continue;
                    cuperm_whole_dims_entry(p, &dv, sl, &io, &is, &oo, &s, &os);
                    r = f(ob + o, ib + io, ctx);
                }
                continue;
            }
            if (counts) ++counts[0];
            for (int g = 0; g < L.R * L.G && !r; ++g) {
                const int k = g / L.G, v = g - k * L.G;
                if (v >= cuperm_granules_of(hin[k], lr, N)) continue;
                int lo, hi;
                cuperm_granule_part(hin[k], lr, N, v, &lo, &hi);
                const int64_t first = ib + in_gran[k] + v * N; /* the granule's first element (may precede the input) */
                const int whole = first >= 0 && first + N <= in_extent; /* as the kernel's whole_at */
                if (whole && counts && (lo > 0 || hi < N)) ++counts[2];
                for (int e = whole ? 0 : lo; e < (whole ? N : hi); ++e) {
                    const int at = cuperm_span_skew(16 * g + E * e);
                    if (at + E > L.copy) r = -1;
                    else data[at] = first + e, stamp[at] = t + 1;
                }
            }
            for (int g = 0; g < qg && !r; ++g) {
                const int q = g / L.Go, v = g - q * L.Go, j0 = v * N - hout[q];
                if (j0 >= lw) continue;
                int lo, hi;
                cuperm_granule_part(hout[q], lw, N, v, &lo, &hi);
                for (int e = lo; e < hi && !r; ++e) {
                    const int at = table[cuperm_span_gather_at(g, e, E, qg)];
                    r = at + E > L.copy || stamp[at] != t + 1 ? -1 : f(ob + out_gran[q] + v * N + e, data[at], ctx);
                }
            }
        }
    free(smem);
    free(data);
    free(stamp);
    return r;
}

/* A ROW_TILES launch as its kernel runs it (row_tiles.cuh): per tile, each pass's row table (the row's
 * offsets from the tile's origin and its first slot, cuperm_row_tile_row), the read pass putting input
 * offsets in the slots by its threads' digits, the write pass taking them by its own (both advanced
 * by a block's stride), a vector of 1 << vec_log2 elements a digit; a slot the read pass did not
 * fill, or a vector not aligned to its size in the input, the output or the slots, makes it
 * return -1. */
static inline int row_tiles_walk(const cuperm_launch_t* l, int (*f)(int64_t out, int64_t in, void* ctx), void* ctx)
{
    const cuperm_tile_params_t* p = &l->tile;
    const int V = 1 << p->vec_log2, n = (int)p->dim[0].extent / V, nrows = p->rt_side_a * p->rt_side_b,
              total = n * nrows;
    cuperm_tile_divs_t dv;
    cuperm_tile_divisors(p, &dv);
    const int nslots = p->smem_row * p->rt_side_b;
    int64_t* slots = (int64_t*)malloc((size_t)nslots * sizeof *slots);
    int64_t* row_off = (int64_t*)malloc((size_t)nrows * sizeof *row_off);
    int* row_slot = (int*)malloc((size_t)nrows * sizeof *row_slot);
    int r = !slots || !row_off || !row_slot ? -1 : 0;
    const cuperm_row_digits_t step = cuperm_row_digits(CUPERM_THREADS, n);
    for (int64_t t = 0; t < p->num_tiles && !r; ++t) {
        int64_t a0, b0, ib, ob;
        cuperm_row_tile_origin(p, &dv, t, &a0, &b0, &ib, &ob);
        for (int i = 0; i < nslots; ++i) slots[i] = -1;
        for (int w = 0; w < 2 && !r; ++w) {
            for (int q = 0; q < nrows; ++q) { /* the pass's row table */
                int a, b;
                cuperm_row_tile_row(p, q, w, &a, &b, &row_slot[q]);
                int64_t ai, ao, bi, bo;
                if (a0 + a >= p->a_volume || b0 + b >= p->b_volume) {
                    row_slot[q] = -1;
                    continue;
                }
                cuperm_group_offsets(p->dim, dv.dim, 1, p->a_end, a0 + a, &ai, &ao);
                cuperm_group_offsets(p->dim, dv.dim, p->a_end, p->b_end, b0 + b, &bi, &bo);
                row_off[q] = w ? ao + bo : ai + bi;
            }
            for (int th = 0; th < CUPERM_THREADS && !r; ++th) {
                cuperm_row_digits_t d = cuperm_row_digits(th, n);
                for (int e = th; e < total && !r; e += CUPERM_THREADS, cuperm_row_digits_advance(&d, &step, n)) {
                    if (row_slot[d.q] < 0) continue;
                    const int s0 = row_slot[d.q] + d.r * V;
                    const int64_t g0 = (w ? ob : ib) + row_off[d.q] + d.r * V;
                    if (s0 < 0 || s0 + V > nslots || s0 % V || g0 % V) r = -1;
                    for (int j = 0; j < V && !r; ++j) {
                        if (!w) slots[s0 + j] = g0 + j;
                        else r = slots[s0 + j] < 0 ? -1 : f(g0 + j, slots[s0 + j], ctx);
                    }
                }
            }
        }
    }
    free(slots);
    free(row_off);
    free(row_slot);
    return r;
}

/* Calls f(out_offset, in_offset, ctx) for each element of launch l, tile by tile as the
 * kernels walk them; stops early and returns f's value when it is nonzero, else 0. */
static inline int launch_walk(const cuperm_launch_t* l, int (*f)(int64_t out, int64_t in, void* ctx), void* ctx)
{
    if (l->kind == CUPERM_LAUNCH_COPY) {
        for (int64_t i = 0; i < l->volume; ++i)
            if (f(i, i, ctx)) return 1;
        return 0;
    }
    if (l->kind == CUPERM_LAUNCH_WHOLE_DIMS)
        return l->tile.wd_span == 3 ? whole_dims_runs_walk(l, 0, 0, NULL, f, ctx)
               : l->tile.wd_span    ? whole_dims_span_walk(l, 0, 0, NULL, f, ctx)
                                    : whole_dims_walk(l, f, ctx);
    if (l->kind == CUPERM_LAUNCH_ROW_TILES) return row_tiles_walk(l, f, ctx);
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
