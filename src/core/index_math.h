/* Index math shared by the host planner, the CPU tests and the kernels. */
#ifndef CUPERM_COMMON_INDEX_MATH_H
#define CUPERM_COMMON_INDEX_MATH_H

#include <stdint.h>

#include "core/fastdiv.h"
#include "core/hd.h"
#include "core/kernel_params.h"

/* The smallest l with 2^l >= v (0 for v <= 1): tile sides and takes as shifts. One count of
 * leading zeros, not a loop: the planners call it for volumes of up to 2^40 thousands of times
 * per contraction plan (a loop took 4% of model planning). */
CUPERM_HD int cuperm_log2_ceil(int64_t v)
{
    if (v <= 1) return 0;
#ifdef __CUDA_ARCH__
    return 64 - __clzll((long long)(v - 1));
#else
    return 64 - __builtin_clzll((unsigned long long)(v - 1));
#endif
}

/* The slot of index i of a tile side in a table stored thread-major, for threads that each take n
 * indices 2^step_log2 apart (thread q: q, q + 2^step_log2, ..., q + (n - 1) 2^step_log2; the side
 * holds n << step_log2): a thread's n entries are consecutive, for 16-byte loads, while a warp's
 * lanes take neighbouring indices in each access (move_tile_lean_spread). */
CUPERM_HD int cuperm_spread_slot(int i, int step_log2, int n)
{
    return (i & ((1 << step_log2) - 1)) * n + (i >> step_log2);
}

/* How many of such a thread's n indices lie below an edge that is `left` indices past its first
 * (an edge tile's predicates as one count, in one register). */
CUPERM_HD int cuperm_spread_count(int left, int step_log2, int n)
{
    const int k = (left + (1 << step_log2) - 1) >> step_log2, m = k < n ? k : n;
    return m > 0 ? m : 0;
}

/*
 * The library's linear-index decoder (cuperm_group_offsets is its two-view form): offsets, in `views` tensors, of linear index
 * idx over n dimensions, the first varying fastest. Dimension d is the record
 * rec[d * pitch ...] = {extent, stride in view 0, stride in view 1, ...} (cuperm_dim_t:
 * pitch 3, views input and output; cuperm_dim3_t: pitch 4, three views), div[d] its
 * extent's cuperm_fastdiv_make. idx must be below the volume: the last dimension takes
 * what is left, without a division.
 */
CUPERM_HD void cuperm_decode(const int64_t* rec, int pitch, int views, const cuperm_fastdiv_t* div, int n,
                             int64_t idx, int64_t* off)
{
    for (int v = 0; v < views; ++v) off[v] = 0;
    for (int d = 0; d < n; ++d) {
        int64_t q = 0, r = idx;
        if (d + 1 < n) cuperm_divmod_fast(idx, rec[d * pitch], div[d], &q, &r);
        for (int v = 0; v < views; ++v) off[v] += r * rec[d * pitch + 1 + v];
        idx = q;
    }
}

/* Input and output offsets of linear index idx over dim[begin, end) (div: the extents'
 * magic numbers, indexed like dim). The same walk as cuperm_decode, written out for two
 * views: the tile kernels build their offset tables with it, and the generic loop (views
 * and pitch as variables) costs them registers: 35 of 76 tile kernels spilled with it,
 * 3 with this one (sm_90, ptxas). */
CUPERM_HD void cuperm_group_offsets(const cuperm_dim_t* dim, const cuperm_fastdiv_t* div, int begin, int end,
                                    int64_t idx, int64_t* in_off, int64_t* out_off)
{
    int64_t oi = 0, oo = 0;
    for (int d = begin; d < end; ++d) {
        int64_t q = 0, r = idx;
        if (d + 1 < end) cuperm_divmod_fast(idx, dim[d].extent, div[d], &q, &r);
        oi += r * dim[d].in_stride;
        oo += r * dim[d].out_stride;
        idx = q;
    }
    *in_off = oi;
    *out_off = oo;
}

/* Element offsets of pointer-array entry i in first, second and output (kernel and host). */
CUPERM_HD void cuperm_ctr_ptr_offsets(const cuperm_ctr_ptr_params_t* p, int64_t i, int64_t off[3])
{
    cuperm_decode((const int64_t*)p->dim, CUPERM_DIM3_PITCH, 3, p->div, p->rank, i, off);
}

/* The magic numbers of every divisor of p's tile walk (host, at launch). */
CUPERM_HD void cuperm_tile_divisors(const cuperm_tile_params_t* p, cuperm_tile_divs_t* dv)
{
    for (int d = 0; d < CUPERM_MAX_RANK; ++d) dv->dim[d] = cuperm_fastdiv_make(d < p->rank ? p->dim[d].extent : 0);
    dv->a_tiles = cuperm_fastdiv_make(p->a_tiles);
    dv->b_tiles = cuperm_fastdiv_make(p->b_tiles);
    dv->plane = cuperm_fastdiv_make(p->a_tiles * p->b_tiles);
    dv->band_plane = cuperm_fastdiv_make(p->band_tiles * p->b_tiles);
    dv->band = cuperm_fastdiv_make(p->band_tiles);
    dv->last_band = cuperm_fastdiv_make(p->band_tiles > 0 ? p->a_tiles % p->band_tiles : 0);
}

/* Whether a tile walk's offset tables may hold 32-bit entries (host, at launch): the
 * tables hold offsets within groups A and B, and the kernels add an A entry to a B entry,
 * so on each side the span of dim[0, b_end) must stay below 2^32 (strides >= 0). */
CUPERM_HD int cuperm_tile_offsets_fit_u32(const cuperm_tile_params_t* p)
{
    const uint64_t limit = UINT32_MAX;
    uint64_t in_span = 0, out_span = 0;
    for (int d = 0; d < p->b_end; ++d) {
        const int64_t e = p->dim[d].extent - 1, si = p->dim[d].in_stride, so = p->dim[d].out_stride;
        if (e < 0 || si < 0 || so < 0) return 0;
        if (e == 0) continue;
        if ((uint64_t)si > limit / (uint64_t)e || (uint64_t)so > limit / (uint64_t)e) return 0;
        in_span += (uint64_t)(e * si);
        out_span += (uint64_t)(e * so);
        if (in_span > limit || out_span > limit) return 0;
    }
    return 1;
}

/* Where tile number t starts: its first A and B indices and the offsets of its
 * outer-dimension combination (walk order: cuperm_tile_params_t; dv: cuperm_tile_divisors). */
CUPERM_HD void cuperm_tile_origin(const cuperm_tile_params_t* p, const cuperm_tile_divs_t* dv, int64_t t,
                                  int64_t* a0, int64_t* b0, int64_t* in_base, int64_t* out_base)
{
    int64_t ta, tb;
    if (p->band_tiles > 0 && p->band_tiles < p->a_tiles) {
        int64_t r, band, within;
        cuperm_divmod_fast(t, p->a_tiles * p->b_tiles, dv->plane, &t, &r);
        cuperm_divmod_fast(r, p->band_tiles * p->b_tiles, dv->band_plane, &band, &within);
        const int64_t a_first = band * p->band_tiles, left = p->a_tiles - a_first;
        /* Only the last band can be narrower: a_tiles % band_tiles wide. */
        if (left < p->band_tiles)
            cuperm_divmod_fast(within, left, dv->last_band, &tb, &ta);
        else
            cuperm_divmod_fast(within, p->band_tiles, dv->band, &tb, &ta);
        ta += a_first;
    } else {
        cuperm_divmod_fast(t, p->a_tiles, dv->a_tiles, &t, &ta);
        cuperm_divmod_fast(t, p->b_tiles, dv->b_tiles, &t, &tb);
    }
    *a0 = ta << p->tile_a_log2;
    *b0 = tb << p->tile_b_log2;
    cuperm_group_offsets(p->dim, dv->dim, p->b_end, p->rank, t, in_base, out_base);
}

/* Where ROW_TILES tile number t starts (cuperm_tile_params_t, ROW_TILES): its first A and B
 * indices and the offsets of its outer-dimension combination; tiles are walked A-fastest. */
CUPERM_HD void cuperm_row_tile_origin(const cuperm_tile_params_t* p, const cuperm_tile_divs_t* dv, int64_t t,
                                      int64_t* a0, int64_t* b0, int64_t* in_base, int64_t* out_base)
{
    int64_t at, bt;
    cuperm_divmod_fast(t, p->a_tiles, dv->a_tiles, &t, &at);
    cuperm_divmod_fast(t, p->b_tiles, dv->b_tiles, &t, &bt);
    *a0 = at * p->rt_side_a;
    *b0 = bt * p->rt_side_b;
    cuperm_group_offsets(p->dim, dv->dim, p->b_end, p->rank, t, in_base, out_base);
}

/* Element e of a ROW_TILES pass as two digits: r along the row (radix n) and q, the row in the
 * pass's order (cuperm_row_tile_row): the block's threads advance by its stride with one carry, no
 * division. With vectors (vec_log2 > 0) e counts vectors, and n is a row's vectors. */
typedef struct {
    int r, q;
} cuperm_row_digits_t;

/* The digits of element e (division: once per kernel, for a thread's first element and the stride). */
CUPERM_HD cuperm_row_digits_t cuperm_row_digits(int e, int n)
{
    const cuperm_row_digits_t d = {e % n, e / n};
    return d;
}

/* The digits of element e + s from those of e and s (cuperm_row_digits(s, n)). */
CUPERM_HD void cuperm_row_digits_advance(cuperm_row_digits_t* d, const cuperm_row_digits_t* s, int n)
{
    d->r += s->r;
    const int carry = d->r >= n;
    if (carry) d->r -= n;
    d->q += s->q + carry;
}

/* Row q of a ROW_TILES tile in a pass's order: the read pass numbers rows A-fastest (q = b * side_a
 * + a), the write pass B-fastest (q = a * side_b + b), so each pass's neighbouring rows lie back to
 * back on its side. Its A and B indices, and the shared-memory slot of its first element. */
CUPERM_HD void cuperm_row_tile_row(const cuperm_tile_params_t* p, int q, int write_pass, int* a, int* b, int* slot)
{
    const int fast = write_pass ? p->rt_side_b : p->rt_side_a, lo = q % fast, hi = q / fast;
    *a = write_pass ? hi : lo;
    *b = write_pass ? lo : hi;
    *slot = *b * p->smem_row + *a * (int)p->dim[0].extent;
}

/* Shared memory of a ROW_TILES kernel's block (row_tiles.cuh): the tile's input and output origins
 * (32 bytes), its sides' four offset tables (8 bytes an entry), the two passes' row tables (16 bytes
 * a row), the tile. */
CUPERM_HD int cuperm_row_tile_smem_bytes(const cuperm_tile_params_t* p, int elem)
{
    const int sa = p->rt_side_a, sb = p->rt_side_b;
    return 32 + 16 * (sa + sb) + 32 * sa * sb + (p->smem_row * sb * elem + 15) / 16 * 16;
}

/* The shared-memory stride between a ROW_TILES tile's B indices, in elements: row (r, a, b) sits at
 * b * stride + a * n + r, and the stride is congruent to n modulo a bank row (128 bytes), so the
 * write pass's lanes, which step from one B index to the next after a row, read consecutive banks
 * as they would in one contiguous run; the read pass's lanes write consecutive slots. */
CUPERM_HD int cuperm_row_tile_stride(int n, int side_a, int elem)
{
    const int bank_row = elem >= 128 ? 1 : 128 / elem, dense = n * side_a;
    return dense + (((n - dense) % bank_row) + bank_row) % bank_row;
}

/* One entry of a WHOLE_DIMS tile's tables (index k < a_volume, dv: cuperm_tile_divisors):
 * element k in input order (A's dimensions first to last) lies at *in_off from the tile's
 * input origin and has index *in_split along the split dimension (0 when none); element k
 * in output order (A's dimensions in wd_out_order) lies at *out_off from the tile's
 * output origin, is element *slot in input order and has index *out_split. The kernel reads
 * in input order into shared memory (slot k holds input element k) and writes in output
 * order from slot *slot, so both passes run along their side's contiguous dimensions.
 * 32-bit throughout: a tile holds at most CUPERM_WHOLE_DIMS_MAX_VOLUME elements and its
 * offsets fit in 31 bits (cuperm_whole_dims_launch checks). Every block builds these tables
 * before it moves anything; in 64-bit arithmetic that made whole-dims launches on L2-resident
 * tensors 15-22% slower (bench/results/whole-dims-tables-h100/). */
CUPERM_HD void cuperm_whole_dims_entry(const cuperm_tile_params_t* p, const cuperm_tile_divs_t* dv, uint32_t k,
                                       uint32_t* in_off, uint32_t* in_split, uint32_t* out_off, uint32_t* slot,
                                       uint32_t* out_split)
{
    uint32_t idx = k, oi = 0, is = 0;
    for (int d = 0; d < p->a_end; ++d) {
        uint32_t q = 0, r = idx;
        if (d + 1 < p->a_end) {
            q = cuperm_fastdiv_quot(idx, dv->dim[d]);
            r = idx - q * (uint32_t)p->dim[d].extent;
        }
        oi += r * (uint32_t)p->dim[d].in_stride;
        if (d == p->wd_split) is = r;
        idx = q;
    }
    uint32_t oo = 0, s = 0, os = 0;
    idx = k;
    for (int i = 0; i < p->a_end; ++i) {
        const int d = p->wd_out_order[i];
        uint32_t q = 0, r = idx;
        if (i + 1 < p->a_end) {
            q = cuperm_fastdiv_quot(idx, dv->dim[d]);
            r = idx - q * (uint32_t)p->dim[d].extent;
        }
        oo += r * (uint32_t)p->dim[d].out_stride;
        s += r * (uint32_t)p->wd_place[d];
        if (d == p->wd_split) os = r;
        idx = q;
    }
    *in_off = oi, *in_split = is, *out_off = oo, *slot = s, *out_split = os;
}

/* Elements a WHOLE_DIMS tile's shared-memory array holds: its volume rounded up to whole
 * 128-byte bank rows, within which the kernel swizzles (whole_dims.cu). */
CUPERM_HD int cuperm_whole_dims_tile_elems(int volume, int elem)
{
    const int row = elem >= 128 ? 1 : 128 / elem;
    return (volume + row - 1) / row * row;
}

/* Elements of a WHOLE_DIMS tile's split dimension that outer combination t covers (the last
 * chunk may be shorter); the whole part when there is no split. */
CUPERM_HD int64_t cuperm_whole_dims_split_len(const cuperm_tile_params_t* p, const cuperm_tile_divs_t* dv, int64_t t)
{
    if (p->wd_split < 0) return INT64_MAX;
    int64_t q, chunk;
    cuperm_divmod_fast(t, p->dim[p->a_end].extent, dv->dim[p->a_end], &q, &chunk);
    const int64_t part = p->dim[p->wd_split].extent, left = p->split_extent - chunk * part;
    return left < part ? left : part;
}

/*
 * WHOLE_DIMS in spans (cuperm_tile_params_t.wd_span; whole_dims.cu: whole_dims_span_kernel). A tile is
 * one contiguous span of n elements on both sides: inner blocks of span_inner elements, output element
 * j = g * inner + r being input element g * inner + slot[r] (slot: cuperm_whole_dims_entry's, output
 * order's first block). In shared memory the span lies as in the input from the start of the 16-byte
 * granule of its first element (its head: the elements before it there), then the slots.
 */
/* Where byte b of a span's copy (counted from its first granule) lies in shared memory: a word of
 * padding after every 128 bytes, so that reads a power-of-two multiple of words apart fall in
 * different banks (lanes reading one element of a 2-byte 8 x 60 transpose each sat 32 words apart
 * in one bank). Granules stay whole, 4-byte aligned. */
CUPERM_HD int cuperm_span_skew(int b) { return b + ((b >> 7) << 2); }

/* Where slot r lies: the same padding (a 16-bit slot each, lanes reading slots 16 apart). */
CUPERM_HD int cuperm_span_slot_at(int r) { return r + ((r >> 6) << 1); }

/* Bytes of one copy of a span of up to `volume` elements and its head, skewed, in 16-byte units;
 * the kernel keeps two (the next tile's loads land in one while the other goes out), then the
 * gather table (cuperm_span_gather_bytes), then the slots of `inner` elements. */
CUPERM_HD int cuperm_span_data_bytes(int64_t volume, int elem)
{
    return (cuperm_span_skew((int)(volume * elem + 16)) + 15) / 16 * 16;
}

/* The gather table (launches with wd_span == 2): for each whole output granule v of a span whose heads
 * are those of the block's first tile, the skewed byte in the copy of each of its 16 / elem elements
 * (16-bit entries), so the write pass reads a granule's sources with one or two 16-byte loads instead
 * of stepping the cursor an element at a time. Granules up to cuperm_span_gather_granules(volume,
 * elem), any head. */
CUPERM_HD int cuperm_span_gather_granules(int64_t volume, int elem)
{
    return (int)(volume * elem / 16) + 2;
}

/* Entries come in pieces of up to 8 (16 bytes), stored piece-major: a warp's lanes, on neighbouring
 * granules, read neighbouring pieces. Entry e of granule v of a table of g granules: */
CUPERM_HD int cuperm_span_gather_at(int v, int e, int elem, int g)
{
    const int per = elem == 4 ? 4 : 8; /* entries a piece */
    return ((e / per) * g + v) * per + e % per;
}

CUPERM_HD int cuperm_span_gather_bytes(int64_t volume, int elem)
{
    return (cuperm_span_gather_granules(volume, elem) * (16 / elem) * 2 + 15) / 16 * 16;
}

/* Shared memory of a span launch: two copies, the gather table where it has one (gathered), the slots. */
CUPERM_HD int cuperm_span_smem_bytes(int64_t volume, int elem, int inner, int gathered)
{
    return 2 * cuperm_span_data_bytes(volume, elem) + (gathered ? cuperm_span_gather_bytes(volume, elem) : 0) +
           (cuperm_span_slot_at(inner) * 2 + 15) / 16 * 16;
}

/* Where the write pass is: output element j = g * inner + r. */
typedef struct {
    int g, r;
} cuperm_span_cursor_t;

CUPERM_HD cuperm_span_cursor_t cuperm_span_cursor(int j, int inner)
{
    cuperm_span_cursor_t c;
    c.g = j / inner;
    c.r = j - c.g * inner;
    return c;
}

/* Forward by q * inner + r elements, r < inner: a thread's step between its vectors. */
CUPERM_HD void cuperm_span_advance(cuperm_span_cursor_t* c, int q, int r, int inner)
{
    c->g += q;
    c->r += r;
    if (c->r >= inner) c->r -= inner, ++c->g;
}

/* The input element (in the span) of the cursor's output element, from the slots at their skewed
 * places (cuperm_span_slot_at); the cursor moves to the next. */
CUPERM_HD int cuperm_span_next_source(cuperm_span_cursor_t* c, const uint16_t* slot, int inner)
{
    const int k = c->g * inner + slot[cuperm_span_slot_at(c->r)];
    if (++c->r == inner) c->r = 0, ++c->g;
    return k;
}

/* The gather table's entries of output granule v (heads hin, hout; n elements in the span), 16 / elem
 * of them from element e0 on, by the thread that builds them: the skewed byte of each element's
 * source in the copy, or 0 outside the span (such granules are never gathered). */
CUPERM_HD void cuperm_span_gather_fill(uint16_t* table, int g, int v, int hin, int hout, int n, int elem,
                                       const uint16_t* slot, int inner)
{
    const int N = 16 / elem, j0 = v * N - hout;
    cuperm_span_cursor_t c = cuperm_span_cursor(j0 > 0 ? j0 : 0, inner);
    for (int e = 0; e < N; ++e) {
        const int j = j0 + e;
        int at = 0;
        if (j >= 0 && j < n) at = cuperm_span_skew(elem * (hin + cuperm_span_next_source(&c, slot, inner)));
        table[cuperm_span_gather_at(v, e, elem, g)] = (uint16_t)at;
    }
}

/*
 * WHOLE_DIMS in runs (wd_span == 3; whole_dims.cu: whole_dims_runs_kernel). Any whole-dims tile of V =
 * a_volume elements: R = V / span_in_run input runs (input-order elements r Lr .. r Lr + Lr - 1 lie
 * contiguous in the input, Lr = span_in_run) and Q = V / span_out_run output runs (Lw = span_out_run,
 * output order). The planner keeps every outer stride a multiple of 16 bytes, so every tile's runs start
 * at the same places within their granules as the block's first tile's: each block fills, once, its runs'
 * granule offsets and heads and a gather table that names, for every output granule, the skewed byte in
 * the copy of each of its elements' sources. Input run r's copy starts at granule r G of the copy (G =
 * cuperm_runs_granules(Lr, elem): its granules for any head); output run q's granules are q Go .. q Go + Go - 1
 * of the table (Go = cuperm_runs_granules(Lw, elem)).
 */
CUPERM_HD int cuperm_runs_granules(int run, int elem)
{
    const int N = 16 / elem;
    return (run + 2 * N - 2) / N;
}

/* Byte offsets in shared memory of the parts of a runs launch, each 16-byte aligned: two copies of the
 * input runs (skewed: cuperm_span_skew), the gather table (cuperm_span_gather_at's layout over Q Go
 * granules), input runs' granule offsets (int32, elements from the tile's base) and heads (uint8), the
 * output runs' likewise. The slots of one output run's elements (uint16, input order, srun) and of each
 * output run's first element (sq) serve the table's fill alone, before the first tile's loads land: they
 * lie where the copies will (an output run of a whole 8 KB tile of bytes would take 16 KB more). */
typedef struct {
    int R, Q, G, Go;
    int copy, table, in_gran, out_gran, hin, hout, srun, sq, total;
} cuperm_runs_layout_t;

CUPERM_HD int cuperm_align16(int b) { return (b + 15) / 16 * 16; }

CUPERM_HD cuperm_runs_layout_t cuperm_runs_layout(int volume, int in_run, int out_run, int elem)
{
    cuperm_runs_layout_t L;
    L.R = volume / in_run, L.Q = volume / out_run;
    L.G = cuperm_runs_granules(in_run, elem), L.Go = cuperm_runs_granules(out_run, elem);
    L.copy = cuperm_align16(cuperm_span_skew(16 * L.R * L.G));
    L.srun = 0;
    L.sq = cuperm_align16(2 * out_run);
    const int slots_end = L.sq + cuperm_align16(2 * L.Q);
    L.table = 2 * L.copy > slots_end ? 2 * L.copy : slots_end;
    L.in_gran = L.table + cuperm_align16(L.Q * L.Go * (16 / elem) * 2);
    L.out_gran = L.in_gran + cuperm_align16(4 * L.R);
    L.hin = L.out_gran + cuperm_align16(4 * L.Q);
    L.hout = L.hin + cuperm_align16(L.R);
    L.total = L.hout + cuperm_align16(L.Q);
    return L;
}

/* The gather table's entries of output granule f = q Go + v (16 / elem of them): the skewed byte in the
 * copy of each element's source, or 0 for elements outside run q (never stored). hin / hout: the runs'
 * heads; srun[j]: the input-order index of run 0's element j relative to the run's first (slots are
 * linear in the digits, so run q's element j is input element sq[q] + srun[j]). */
CUPERM_HD void cuperm_runs_gather_fill(uint16_t* table, const cuperm_runs_layout_t* L, int f, int in_run,
                                       int out_run, int elem, const uint8_t* hin, const uint8_t* hout,
                                       const uint16_t* srun, const uint16_t* sq)
{
    const int N = 16 / elem, q = f / L->Go, v = f - q * L->Go, j0 = v * N - hout[q];
    for (int e = 0; e < N; ++e) {
        const int j = j0 + e;
        int at = 0;
        if (j >= 0 && j < out_run) {
            const int s = sq[q] + srun[j], r = s / in_run, i = s - r * in_run;
            at = cuperm_span_skew(16 * L->G * r + elem * (hin[r] + i));
        }
        table[cuperm_span_gather_at(f, e, elem, L->Q * L->Go)] = (uint16_t)at;
    }
}

/* One past the largest input offset of a WHOLE_DIMS launch's tensor (elements; the split's chunks counted
 * to split_extent, not to whole chunks): a granule inside [in, in + this) may be read whole, since every
 * byte of it lies in the caller's input. */
CUPERM_HD int64_t cuperm_whole_dims_in_extent(const cuperm_tile_params_t* p)
{
    int64_t last = 0;
    for (int d = 0; d < p->rank; ++d) {
        if (d == p->a_end && p->wd_split >= 0) continue; /* the chunks: counted with the split below */
        const int64_t e = d == p->wd_split ? p->split_extent : p->dim[d].extent;
        last += (e - 1) * p->dim[d].in_stride;
    }
    return last + 1;
}

/*
 * A run of n elements that starts `shift` elements into an aligned granule of v elements
 * (v a power of two, 0 <= shift < v), seen granule by granule: granule g holds the run's
 * elements g * v - shift + j for j in [*lo, *hi), and the run needs granules 0 up to
 * cuperm_granules_of(shift, n, v) - 1. The shifted vector tiles (tile_vec.cuh) read each
 * input row and write each output column this way, so a 16-byte access serves any start.
 */
CUPERM_HD int cuperm_granules_of(int shift, int n, int v) { return (shift + n + v - 1) / v; }

CUPERM_HD void cuperm_granule_part(int shift, int n, int v, int g, int* lo, int* hi)
{
    const int first = g * v - shift; /* run index of the granule's slot 0 */
    *lo = first < 0 ? -first : 0;
    *hi = n - first < v ? n - first : v;
}

/* Whether bytes [o, o + size) of a 16-byte vector (size 1, 2, 4 or 8, o a multiple of it) are
 * one of the largest aligned pieces that [lo, hi) splits into: inside [lo, hi), and the aligned
 * piece twice as large that holds it is not (the whole vector never is: [lo, hi) is partial).
 * Storing exactly those pieces writes [lo, hi) once, each piece with one aligned store (at most
 * 6 pieces; the shifted tiles' partial vectors, tile_shifted.cuh). */
CUPERM_HD int cuperm_vector_piece(int lo, int hi, int o, int size)
{
    if (o < lo || o + size > hi) return 0;
    if (size == 8) return 1;
    const int parent = o & ~(2 * size - 1);
    return parent < lo || parent + 2 * size > hi;
}

/* Row y's XOR swizzle of chunk slots in a vector tile (tile_vec.cuh, tile_shifted.cuh): chunk c of
 * row y sits in slot c ^ cuperm_vec_swizzle(y, lv, s). The 2^lv rows of a column vector share one
 * swizzle and s (= 128 / vector bytes) consecutive column vectors differ, so the write pass's warp,
 * which gathers s column vectors of each of 32 / s columns, touches 32 distinct banks. It reads
 * only y's bits from lv up: for y0 a multiple of 2^p and 0 <= k < 2^p it is y0's XOR k's. */
CUPERM_HD int cuperm_vec_swizzle(int y, int lv, int s) { return (y >> lv) & (s - 1); }

/* Column vector k of thread t in a vector tile's write pass (tile_vec.cuh): its column *x (an
 * element index along A) and first row *y. A warp takes 2^ls column vectors (of 2^lv rows) of each
 * of 2^(5 - ls) neighbouring columns; a column holds 2^lm groups of 2^ls column vectors. */
CUPERM_HD void cuperm_vec_gather(unsigned t, int k, int ls, int lm, int lv, int* x, int* y)
{
    const int lx = 5 - ls, hi = (int)(t >> 5) + k * (CUPERM_THREADS >> 5);
    const int xl = (int)((t >> ls) & ((1u << lx) - 1)), iy = (int)(t & ((1u << ls) - 1));
    *x = ((hi >> lm) << lx) | xl;
    *y = (((hi & ((1 << lm) - 1)) << ls) | iy) * (1 << lv);
}

#endif
