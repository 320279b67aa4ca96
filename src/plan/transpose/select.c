#include "plan/transpose/select.h"

#include <string.h>

#include "core/index_math.h"
#include "plan/transpose/model.h"
#include "plan/transpose/row_tiles.h"
#include "plan/transpose/whole_dims.h"

/* The numbers the rules below use come from the handle's tuning table
 * (core/tuning.h, tt here; core/tuning.c says where each came from); what stays
 * here are the kernels' contracts (threads, items per thread, 16 KB vector tiles,
 * the swizzle's minimum sides). */

static void finish_tile_launch(cuperm_launch_t* L, const cuperm_transpose_tuning_t* tt);

static int imin(int a, int b) { return a < b ? a : b; }

static int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

/* Padding per shared-memory row that keeps column reads conflict-free: one
 * 4-byte word for small elements, one element otherwise. */
static int smem_pad_elems(int elem) { return elem >= 4 ? 1 : 4 / elem; }

void cuperm_tile_params_init(cuperm_tile_params_t* t, const cuperm_dim_t* dims, int rank, int a_end,
                             int b_end, int tile_a_log2, int tile_b_log2, int elem)
{
    memset(t, 0, sizeof *t);
    t->rank = rank;
    t->a_end = a_end;
    t->b_end = b_end;
    memcpy(t->dim, dims, (size_t)rank * sizeof *dims);
    t->wd_split = -1;
    t->a_volume = t->b_volume = 1;
    for (int d = 0; d < a_end; ++d) t->a_volume *= dims[d].extent;
    for (int d = a_end; d < b_end; ++d) t->b_volume *= dims[d].extent;
    int64_t outer = 1;
    for (int d = b_end; d < rank; ++d) outer *= dims[d].extent;
    t->tile_a_log2 = tile_a_log2;
    t->tile_b_log2 = tile_b_log2;
    t->smem_row = (1 << tile_a_log2) + smem_pad_elems(elem);
    t->a_tiles = ceil_div(t->a_volume, (int64_t)1 << tile_a_log2);
    t->b_tiles = ceil_div(t->b_volume, (int64_t)1 << tile_b_log2);
    t->num_tiles = t->a_tiles * t->b_tiles * outer;
}

int cuperm_tile_smem_bytes(cuperm_launch_kind_t kind, const cuperm_tile_params_t* t, int elem)
{
    int ta = 1 << t->tile_a_log2, tb = 1 << t->tile_b_log2;
    if (t->pipelined) return 2 * cuperm_tile_pipe_buffer_bytes(ta, tb, t->smem_row, elem);
    int tables = 2 * (ta + tb) * (int)sizeof(int64_t);
    if (kind == CUPERM_LAUNCH_ROWS) return tables;
    return tables + tb * t->smem_row * elem;
}

static int tile_elems_log2(int elem) { return cuperm_log2_ceil((int64_t)CUPERM_THREADS * CUPERM_TILE_ITEMS(elem)); }


/* Log2 of a block's threads: the longest scalar tile side the kernels' fast paths take. */
static int block_side_log2(void) { return cuperm_log2_ceil(CUPERM_THREADS); }

int cuperm_tile_sides_within_block(int la, int lb) { return la <= block_side_log2() && lb <= block_side_log2(); }

/* choose_tile's rule for a tile of 2^total elements. */
static void choose_tile_of(int64_t va, int64_t vb, int elem, int total, const cuperm_transpose_tuning_t* tt, int* la,
                           int* lb)
{
    const int side_max = block_side_log2();
    const int ca = cuperm_log2_ceil(va), cb = cuperm_log2_ceil(vb);
    const int a_bytes = (elem <= 2 && tt->tile_a_small_bytes ? tt->tile_a_small_bytes : tt->tile_a_min_bytes) / elem;
    int a = imin(cuperm_log2_ceil(a_bytes < tt->tile_a_min_elems ? tt->tile_a_min_elems : a_bytes), ca);
    int b = imin(imin(total - a, side_max), cb);
    a = imin(imin(total - b, side_max), ca);
    /* One group is short (8 x 24 x M f32, 1,0,2): the tile stays smaller than 2^total rather than
     * put the other side past a block, which the kernels move on their any-shape path. 8 x 512 ran
     * at 35-42% of copy on the 1 GB f32 tensors measured, 8 x 256 (the half-size fast path) at
     * 61-84 (bench/results/block-sides-h200/); 1-byte 9 x 4 tiles likewise (reshape_for_warps). */
    *la = a;
    *lb = b;
}

/* Tile extents (log2) along groups of va and vb elements. A gets at least
 * tt->tile_a_min_bytes (sm_90: 128) of consecutive elements, and at least
 * tt->tile_a_min_elems (32), when the group is that long; then B takes
 * what the tile has left, and A grows again if B's group is short. A side
 * stays within one block width, so the kernels' fast paths apply (a
 * smaller tile where a group is short). */
static void choose_tile(int64_t va, int64_t vb, int elem, const cuperm_transpose_tuning_t* tt, int* la, int* lb)
{
    choose_tile_of(va, vb, elem, tile_elems_log2(elem), tt, la, lb);
    if (!tt->tiled_wide_small_tiles || elem > 2) return;
    /* Wide tiles (CUPERM_TILE_ITEMS_WIDE elements a thread) where both sides then stay within a
     * block: a longer side would leave the kernels' lean path for the generic one, which is what
     * made the few tiles with a group of 16 elements or fewer lose (bench/results/items32-h100/). */
    const int wide = cuperm_log2_ceil((int64_t)CUPERM_THREADS * CUPERM_TILE_ITEMS_WIDE);
    int wa, wb;
    choose_tile_of(va, vb, elem, wide, tt, &wa, &wb);
    if (cuperm_tile_sides_within_block(wa, wb) && wa + wb == wide) {
        *la = wa;
        *lb = wb;
    }
}

/* Log2 of the elements in a vector of vec_bytes (16, 8 or 4), for the element
 * sizes the vector paths serve (1, 2 and 4 bytes); 0 otherwise (a 4-byte
 * element is no vector of 4 bytes). */
static int vec_log2_for(int elem, int vec_bytes)
{
    return elem > 4 ? 0 : cuperm_log2_ceil(vec_bytes / elem);
}

/* Shifted 16-byte vectors (tile_vec.cuh, move_tile_shifted) need less: elements of 1 or 2
 * bytes, group A (dims[0, na)) one contiguous run in the input and group B (dims[na, na + nb))
 * one in the output. A tile's rows and columns are then runs that may start anywhere in a
 * vector; the kernel reads and writes them by aligned 16-byte vectors whatever the extents,
 * the other strides and the pointers' alignment. */
static int shifted_vectors_fit(const cuperm_dim_t* dims, int na, int nb, int elem)
{
    if (elem > 2 || na < 1 || nb < 1 || dims[0].in_stride != 1 || dims[na].out_stride != 1) return 0;
    for (int d = 1; d < na; ++d)
        if (dims[d].in_stride != dims[d - 1].in_stride * dims[d - 1].extent) return 0;
    for (int d = na + 1; d < na + nb; ++d)
        if (dims[d].out_stride != dims[d - 1].out_stride * dims[d - 1].extent) return 0;
    return 1;
}

/* 2 (write by lanes) where the tuning asks for it and the tile has 8 vectors per column, else 1. */
static int shifted_variant(const cuperm_tile_params_t* t, const cuperm_transpose_tuning_t* tt)
{
    return tt->tiled_shifted_lane_writes && t->tile_b_log2 - t->vec_log2 == 3 ? 2 : 1;
}

/* The fraction of a group's tiles' slots that hold elements. */
static double tile_fill(int64_t volume, int log2_tile)
{
    int64_t t = (int64_t)1 << log2_tile;
    return (double)volume / (double)(ceil_div(volume, t) * t);
}

/* Vector tiles hold 16 KB (the kernels' contract: CUPERM_THREADS x 64 bytes, tile_vec.cuh):
 * log2 of their elements. */
static int vec_tile_log2(int elem) { return 14 - cuperm_log2_ceil(elem); }

/* The kernel's swizzle needs at least S = 128 / vec_bytes vectors along each
 * side of a vector tile (tile_vec.cuh), so A spans 2^la_min to 2^la_max. */
static void vec_tile_range(int elem, int vec_bytes, int* la_min, int* la_max)
{
    const int side_min = cuperm_log2_ceil(vec_bytes / elem) + cuperm_log2_ceil(128 / vec_bytes);
    *la_min = side_min;
    *la_max = vec_tile_log2(elem) - side_min;
}

/* Rows of tt->vec_row_bytes (sm_90: 256; 128 for 1-byte elements) unless a
 * group is shorter: then that side shrinks to the group, as far as the swizzle
 * allows, and the other side takes the rest. */
static void vec_tile(int64_t va, int64_t vb, int elem, int vec_bytes, const cuperm_transpose_tuning_t* tt, int* la,
                     int* lb)
{
    const int total = vec_tile_log2(elem);
    int lo, hi;
    vec_tile_range(elem, vec_bytes, &lo, &hi);
    const int row = elem == 1 ? tt->vec_row_bytes_1byte
                    : elem == 2 && tt->vec_row_bytes_2byte ? tt->vec_row_bytes_2byte : tt->vec_row_bytes;
    int a = cuperm_log2_ceil(row / elem);
    if (a < lo) a = lo;
    if (cuperm_log2_ceil(va) < a) a = cuperm_log2_ceil(va) > lo ? cuperm_log2_ceil(va) : lo;
    if (cuperm_log2_ceil(vb) < total - a) a = total - (cuperm_log2_ceil(vb) > lo ? cuperm_log2_ceil(vb) : lo);
    *la = a;
    *lb = total - a;
}

/* Blocks of a copy of L's volume at unroll 16-byte vectors a thread. */
static int64_t copy_blocks(const cuperm_launch_t* L, int unroll)
{
    return ceil_div(L->volume, (int64_t)CUPERM_THREADS * unroll * (L->elem_size < 16 ? 16 / L->elem_size : 1));
}

/* Contiguous on both sides, unroll vectors a thread. The launcher sizes the grid from the pointers'
 * alignment (16-byte vectors when they share it); this is the vector count. */
static void plan_copy(cuperm_launch_t* L, int unroll)
{
    L->kind = CUPERM_LAUNCH_COPY;
    L->copy_unroll = unroll;
    L->blocks = copy_blocks(L, unroll);
}

/* A copy's vectors a thread on dev: tt->copy_unroll_l2 where input and output fit in L2 together and
 * that many a thread still give every SM a block (a latency-bound copy, where fewer, longer blocks
 * cost less), else tt->copy_unroll (beyond L2, a grid of one vector a thread keeps the DRAM traffic
 * in flight as compact as cudaMemcpyAsync's; below a block an SM, it spreads over more SMs). */
static void copy_form(cuperm_launch_t* L, const cuperm_device_info_t* dev, const cuperm_transpose_tuning_t* tt)
{
    const int l2_unroll = tt->copy_unroll_l2 == 1 ? 1 : CUPERM_COPY_UNROLL_MAX;
    const int in_l2 = 2.0 * (double)L->volume * (double)L->elem_size <= (double)dev->l2_bytes;
    const int unroll = in_l2 && copy_blocks(L, l2_unroll) >= dev->sm_count ? l2_unroll : tt->copy_unroll;
    plan_copy(L, unroll == 1 ? 1 : CUPERM_COPY_UNROLL_MAX);
}

/* Rows of dim 0, one per B index, dims[1..) in the order given. */
static void rows_launch(const cuperm_dim_t* dims, int rank, int elem, const cuperm_transpose_tuning_t* tt,
                        cuperm_launch_t* L)
{
    int la, lb;
    int64_t rows = L->volume / dims[0].extent;
    L->kind = CUPERM_LAUNCH_ROWS;
    /* 16-byte vectors only (the rows kernel has no others; 8-byte ones ran a
     * 6 x 4-byte row case at 76% of copy instead of the scalar rows' 100%, H100). */
    const int lv = vec_log2_for(elem, 16);
    if (lv && cuperm_dims_vectors_fit(dims, rank, 0, 0, 1 << lv)) {
        /* 16 KB a tile: rows of up to 2^rows_vec_max_log2 vectors (sm_90: 32) */
        la = imin(cuperm_log2_ceil(dims[0].extent), lv + tt->rows_vec_max_log2);
        lb = vec_tile_log2(elem) - la;
        cuperm_tile_params_init(&L->tile, dims, rank, 1, rank, la, lb, elem);
        L->tile.vec_log2 = lv;
        finish_tile_launch(L, tt);
        return;
    }
    /* Both sides run along dim 0, so a tile spans as much of a row as a block
     * can (up to 256 elements): on the H100 that beat the square-ish tiles of
     * choose_tile by up to 17% whenever rows were long (measure mode, random
     * and perm720 suites), and B takes what the tile has left. */
    const int total = tile_elems_log2(elem), ca = cuperm_log2_ceil(dims[0].extent);
    int side_max = block_side_log2();
    /* Small elements: shorter sides ran faster (see tt->rows_small_side_log2), for 1-byte ones a
     * warp's 32 elements where the whole row fits the longer side. */
    if (elem <= 2 && tt->rows_small_side_log2) {
        side_max = tt->rows_small_side_log2;
        if (elem == 1 && tt->rows_1byte_short_side_log2 && ca <= side_max) side_max = tt->rows_1byte_short_side_log2;
    }
    la = imin(ca, side_max);
    /* Of the sides down to a minimum, the one whose tiles leave the least of the row idle (a row of
     * 89 fills 96 in tiles of 32, 128 in one of 128), the longer unless a shorter fills by
     * tt->align_margin more: 2-byte rows that fit one tile side (rows_2byte_min_side_log2), rows of
     * 8- and 16-byte elements of any length (rows_wide_min_side_log2). */
    const int min_side = elem == 2 && ca <= side_max ? tt->rows_2byte_min_side_log2
                         : elem >= 8                  ? tt->rows_wide_min_side_log2
                                                      : 0;
    for (int s = la - 1; min_side && s >= min_side; --s)
        if (tile_fill(dims[0].extent, s) > tile_fill(dims[0].extent, la) * (1 + tt->align_margin)) la = s;
    lb = imin(total - la, cuperm_log2_ceil(rows));
    if (la + lb < total) la = imin(imin(total - lb, side_max + 1), ca);
    cuperm_tile_params_init(&L->tile, dims, rank, 1, rank, la, lb, elem);
    finish_tile_launch(L, tt);
}

/* dims[1..rank) of a rows launch sorted by the other side's stride than the one they are sorted
 * by (by output stride when they are in input order, else by input stride) into out; 0 when
 * that order is the same. */
static int other_row_order(const cuperm_dim_t* dims, int rank, cuperm_dim_t* out)
{
    int by_input = 1;
    for (int i = 2; i < rank && by_input; ++i) by_input = dims[i - 1].in_stride <= dims[i].in_stride;
    memcpy(out, dims, (size_t)rank * sizeof *dims);
    for (int i = 2; i < rank; ++i) { /* insertion sort of out[1..) */
        cuperm_dim_t x = out[i];
        int j = i;
        for (; j > 1 && (by_input ? x.out_stride < out[j - 1].out_stride : x.in_stride < out[j - 1].in_stride); --j)
            out[j] = out[j - 1];
        out[j] = x;
    }
    return memcmp(out, dims, (size_t)rank * sizeof *dims) != 0;
}

/* dims[1..rank) of a rows launch with the output's next dimension first and the input's next
 * second, the rest by input stride, into out; 0 when that order is one of the two above. A tile
 * of a few hundred rows then holds a row's neighbours on both sides, so the partial sectors that
 * short rows leave at their ends complete within the tile on both sides. */
static int paired_row_order(const cuperm_dim_t* dims, int rank, cuperm_dim_t* out)
{
    if (rank < 4) return 0; /* with two row dimensions it is one of the two orders */
    memcpy(out, dims, (size_t)rank * sizeof *dims);
    for (int i = 2; i < rank; ++i) { /* input order first */
        cuperm_dim_t x = out[i];
        int j = i;
        for (; j > 1 && x.in_stride < out[j - 1].in_stride; --j) out[j] = out[j - 1];
        out[j] = x;
    }
    int o = 1; /* the output's next dimension, moved to the front */
    for (int i = 2; i < rank; ++i)
        if (out[i].out_stride < out[o].out_stride) o = i;
    if (o == 1) return 0; /* the input order already starts with it */
    const cuperm_dim_t x = out[o];
    memmove(&out[2], &out[1], (size_t)(o - 1) * sizeof *out);
    out[1] = x;
    cuperm_dim_t other[CUPERM_MAX_RANK];
    other_row_order(out, rank, other); /* out is not in input order: other = input order */
    cuperm_dim_t by_output[CUPERM_MAX_RANK];
    if (!other_row_order(other, rank, by_output)) return 1;
    return memcmp(out, by_output, (size_t)rank * sizeof *out) != 0;
}

/* A plan's alignment cost must beat the rules' plan by tt->align_margin (sm_90: 2%)
 * to replace it: where both align equally (every power-of-two shape) the rules stand. */

/* Same fastest dimension on both sides. The row dimensions (B) are ordered by
 * input stride, so a tile's rows lie together in the input; when the rows are
 * not whole sectors, rows that neighbour in the output then land in tiles far
 * apart and their shared sectors are written twice, far apart in time. So rows
 * that are not whole sectors go in output order (a partial sector read twice costs
 * less than one written in two halves): on 264 changed plans 0.970x the time by
 * geomean, held-out primes f64 0.921x (worst 52.7 -> 86.3% of copy), slowest 1.15x
 * (H100, bench/results/rows-output-order-h100/). Whole-sector rows
 * take it where the alignment cost (cuperm_sector_cost) says the output side loses
 * more. Measure mode times both orders and the paired one (cuperm_candidate_launches). */
static void plan_rows(const cuperm_problem_t* p, int elem, const cuperm_transpose_tuning_t* tt, cuperm_launch_t* L)
{
    rows_launch(p->dim, p->rank, elem, tt, L);
    if (p->rank < 3) return;
    cuperm_dim_t dims[CUPERM_MAX_RANK]; /* p->dim is in input order (canonical) */
    if (!other_row_order(p->dim, p->rank, dims)) return;
    cuperm_launch_t alt = *L;
    rows_launch(dims, p->rank, elem, tt, &alt);
    const int whole_sectors = p->dim[0].extent * elem % 32 == 0; /* 32-byte sectors */
    if (!whole_sectors || cuperm_sector_cost(&alt, tt) < cuperm_sector_cost(L, tt) * (1 - tt->align_margin)) *L = alt;
}

/* Next dimension for a group: the unused one with the smallest stride on the
 * group's side (input for A, output for B), or -1. */
static int next_dim(const cuperm_problem_t* p, const int* used, int output_side)
{
    int best = -1;
    for (int d = 0; d < p->rank; ++d) {
        if (used[d]) continue;
        int64_t s = output_side ? p->dim[d].out_stride : p->dim[d].in_stride;
        int64_t t = best < 0 ? 0 : output_side ? p->dim[best].out_stride : p->dim[best].in_stride;
        if (best < 0 || s < t) best = d;
    }
    return best;
}

/* A group of dimensions being grown: its dimensions, volume, and the length
 * of its contiguous run on its own side (input for A, output for B). */
typedef struct {
    int dims[CUPERM_MAX_RANK];
    int n;
    int64_t volume, run;
    int output_side;
} dim_group_t;

static int64_t side_stride(const cuperm_dim_t* d, int output_side) { return output_side ? d->out_stride : d->in_stride; }

/* Whether adding dimension d lengthens g's contiguous run. */
static int group_extends(const dim_group_t* g, const cuperm_problem_t* p, int d)
{
    return g->run == g->volume && side_stride(&p->dim[d], g->output_side) == g->volume;
}

static void group_add(dim_group_t* g, const cuperm_problem_t* p, int* used, int d)
{
    const int64_t extent = p->dim[d].extent;
    if (g->n == 0 || group_extends(g, p, d)) g->run *= extent;
    g->dims[g->n++] = d;
    g->volume *= extent;
    used[d] = 1;
}

/* Different fastest dimensions: group A starts at the input's fastest
 * dimension, B at the output's; they grow one dimension at a time, each with
 * the next dimension on its own side, until each spans enough elements that
 * tiles fill up and waste little at the edges (tt->group_grow_until elements,
 * sm_90: 1024). The groups take turns, except that a group whose contiguous run
 * is shorter than tt->short_run_bytes (sm_90: 128) picks out of turn
 * when its next dimension lengthens that run (of two such, the shorter): so a
 * short dimension next on both sides goes to the run that needs it. On the
 * H100 that lifted a rank-8 case of extents 59 and 2 whose 2-element output
 * run had lost its next dimension to a 59-element input run from 41% to 95%
 * of copy; letting long runs claim dimensions too lost 30 points elsewhere. A
 * group may take a dimension that is not contiguous with it: reads (or
 * writes) then come in runs of the group's contiguous part, which beats a
 * tile too small to fill a warp. The rest are outer dimensions. */
/* Groups p's dimensions by the rules above into dims: A = dims[0, *na), B =
 * dims[*na, *na + *nb), then the outer ones in input order. At the i-th
 * dimension that is next on both sides (a tie), the rules' choice is reversed
 * where bit i of flip is set. Returns the number of ties met. */
static int group_dims(const cuperm_problem_t* p, int elem, const cuperm_transpose_tuning_t* tt, unsigned flip,
                      cuperm_dim_t* dims, int* na, int* nb, int64_t* va, int64_t* vb)
{
    const int n = p->rank;
    const int64_t grow_until = tt->group_grow_until;
    int used[CUPERM_MAX_RANK] = {0}, ties = 0;
    dim_group_t A = {.volume = 1, .run = 1, .output_side = 0}, B = {.volume = 1, .run = 1, .output_side = 1};
    group_add(&A, p, used, 0); /* dimensions are sorted by input stride */
    group_add(&B, p, used, cuperm_problem_out_fastest(p));
    const int64_t short_run = (tt->short_run_bytes + elem - 1) / elem;
    for (int b_turn = 0;;) {
        const int da = A.volume < grow_until ? next_dim(p, used, 0) : -1;
        const int db = B.volume < grow_until ? next_dim(p, used, 1) : -1;
        if (da < 0 && db < 0) break;
        const int ea = da >= 0 && A.run < short_run && group_extends(&A, p, da);
        const int eb = db >= 0 && B.run < short_run && group_extends(&B, p, db);
        int take_b;
        if (ea || eb) {
            take_b = ea && eb ? B.run < A.run : eb;
        } else {
            take_b = da < 0 || (db >= 0 && b_turn);
        }
        if (da >= 0 && da == db) {
            if (ties < 32 && (flip >> ties & 1u)) take_b = !take_b;
            ++ties;
        }
        if (take_b) group_add(&B, p, used, db);
        else group_add(&A, p, used, da);
        b_turn = !take_b; /* the other group's turn next */
    }
    int k = 0;
    for (int i = 0; i < A.n; ++i) dims[k++] = p->dim[A.dims[i]];
    for (int i = 0; i < B.n; ++i) dims[k++] = p->dim[B.dims[i]];
    for (int d = 0; d < n; ++d)
        if (!used[d]) dims[k++] = p->dim[d];
    *na = A.n;
    *nb = B.n;
    *va = A.volume;
    *vb = B.volume;
    return ties;
}

/* The tile launch of a grouping: tile shape, vector path, walk order. */
static void tiled_launch(const cuperm_dim_t* dims, int n, int na, int nb, int64_t va, int64_t vb, int elem,
                         const cuperm_transpose_tuning_t* tt, cuperm_launch_t* L)
{
    int la, lb;
    L->kind = CUPERM_LAUNCH_TILED;
    choose_tile(va, vb, elem, tt, &la, &lb);
    cuperm_tile_params_init(&L->tile, dims, n, na, na + nb, la, lb, elem);
    /* 16-byte vectors where the extents allow, else (tiled_min_vec_bytes <= 8)
     * 8-byte ones: on the H100 the latter lifted 4-byte tensors of even extents
     * by 6-19 points of copy; else (tiled_min_vec_bytes = 4) 4-byte ones for 1- and
     * 2-byte elements, which otherwise move one element per access; else, for elements of
     * at most tt->tiled_shifted_max_elem bytes, shifted 16-byte ones (any extent). Vector
     * tiles have a fixed size, so they may fill worse than the scalar tile; they still win
     * unless they fill less than tt->vec_min_relative_fill of it. */
    const double scalar_fill = tile_fill(va, la) * tile_fill(vb, lb);
    static const struct { int bytes, shifted; } kVectors[] = {{16, 0}, {8, 0}, {4, 0}, {16, 1}};
    const int shift_ok = elem <= tt->tiled_shifted_max_elem && shifted_vectors_fit(dims, na, nb, elem);
    for (size_t i = 0; i < sizeof kVectors / sizeof kVectors[0]; ++i) {
        const int vec_bytes = kVectors[i].bytes, shifted = kVectors[i].shifted;
        if (!shifted && vec_bytes < tt->tiled_min_vec_bytes) continue;
        const int lv = vec_log2_for(elem, vec_bytes);
        if (!lv || (shifted ? !shift_ok : !cuperm_dims_vectors_fit(dims, n, 0, na, 1 << lv))) continue;
        int vla, vlb;
        vec_tile(va, vb, elem, vec_bytes, tt, &vla, &vlb);
        if (tile_fill(va, vla) * tile_fill(vb, vlb) < tt->vec_min_relative_fill * scalar_fill) continue;
        cuperm_tile_params_init(&L->tile, dims, n, na, na + nb, vla, vlb, elem);
        L->tile.vec_log2 = lv;
        L->tile.vec_shifted = shifted ? shifted_variant(&L->tile, tt) : 0;
        break;
    }
    /* Outer dimensions are walked in input order (tiles that continue each
     * other's reads run one after the other) unless the writes are the side that
     * wastes more of its sectors: then in output order. */
    double in_eff, out_eff;
    finish_tile_launch(L, tt);
    cuperm_sector_efficiency(L, &in_eff, &out_eff);
    if (out_eff + tt->sector_eff_tolerance < in_eff) {
        cuperm_dim_t* o = L->tile.dim;
        for (int i = na + nb + 1; i < n; ++i) {
            cuperm_dim_t x = o[i];
            int j = i;
            for (; j > na + nb && x.out_stride < o[j - 1].out_stride; --j) o[j] = o[j - 1];
            o[j] = x;
        }
    }
}

/* Launch h on t's dimensions with a tile of 2^la x 2^lb elements, into *c. */
static void retiled_launch(const cuperm_launch_t* h, const cuperm_tile_params_t* t, int la, int lb,
                           const cuperm_transpose_tuning_t* tt, cuperm_launch_t* c)
{
    *c = *h;
    cuperm_tile_params_init(&c->tile, t->dim, t->rank, t->a_end, t->b_end, la, lb, h->elem_size);
    finish_tile_launch(c, tt);
}

/* The reshapes of a tile that keep its size, nearest first. They keep the kernels' fast path only
 * where both sides stay within a block; reshaped_launch allows sides up to tt->tile_side_max_log2
 * (measure mode times those too). */
static const int kReshapes[][2] = {{1, -1}, {-1, 1}, {2, -2}, {-2, 2}, {3, -3}, {-3, 3}};

/* Launch h with the tile of t's dimensions reshaped by kReshapes[i] into *c; 0 when a side would
 * leave [0, tile_side_max_log2] or outgrow its group. */
static int reshaped_launch(const cuperm_launch_t* h, const cuperm_tile_params_t* t, size_t i,
                           const cuperm_transpose_tuning_t* tt, cuperm_launch_t* c)
{
    const int la = t->tile_a_log2 + kReshapes[i][0], lb = t->tile_b_log2 + kReshapes[i][1];
    if (la < 0 || lb < 0 || la > tt->tile_side_max_log2 || lb > tt->tile_side_max_log2) return 0;
    if (la > cuperm_log2_ceil(t->a_volume) || lb > cuperm_log2_ceil(t->b_volume)) return 0;
    retiled_launch(h, t, la, lb, tt, c);
    return 1;
}

/* A warp of the scalar tile kernels takes 32 consecutive indices of its pass's fast side, or
 * 2^l of them and 32 / 2^l of the other side when that side of the tile is 2^l < 32. When the
 * output's run is a few B elements continued by A's first dimension (24,25,35,3,2,30,27,2
 * 7,0,5,4,6,2,1,3: 2 elements, then 24 of A), a tile 64 wide along B stores 16-byte halves of
 * sectors, and one 8 or 16 wide stores whole ones. Where the rules' tile's stores fill less than
 * tt->warp_reshape_below of their sectors (cuperm_warp_efficiency), the reshape of the tile (same
 * size, within its fill, both sides within a block) whose loads and stores fill the most takes its
 * place. A side past a block would take the any-shape path: 9 x 4 tiles of 1-byte elements ran at
 * 0.31-0.39x the speed of the in-block reshape on 71 of the 73 changed DRAM-sized plans measured
 * (21^6 and mixed i8, H100; bench/results/block-sides-h100/). */
static void reshape_for_warps(cuperm_launch_t* L, const cuperm_transpose_tuning_t* tt)
{
    if (L->kind != CUPERM_LAUNCH_TILED || L->tile.vec_log2 || tt->warp_reshape_below <= 0) return;
    double in_eff, out_eff;
    cuperm_warp_efficiency(L, NULL, &out_eff); /* the stores alone decide whether to look further */
    if (out_eff >= tt->warp_reshape_below) return;
    cuperm_warp_efficiency(L, &in_eff, &out_eff);
    double best = in_eff < out_eff ? in_eff : out_eff;
    const cuperm_launch_t rules = *L;
    const cuperm_tile_params_t* t = &rules.tile;
    const double fill = tile_fill(t->a_volume, t->tile_a_log2) * tile_fill(t->b_volume, t->tile_b_log2);
    for (size_t i = 0; i < sizeof kReshapes / sizeof kReshapes[0]; ++i) { /* nearest first: ties keep them */
        cuperm_launch_t c;
        if (!reshaped_launch(&rules, t, i, tt, &c)) continue;
        if (tile_fill(t->a_volume, c.tile.tile_a_log2) * tile_fill(t->b_volume, c.tile.tile_b_log2) <
            tt->warp_reshape_min_fill * fill)
            continue;
        if (c.smem_bytes > 48 * 1024) continue; /* the per-block limit without opt-in on every GPU */
        if (!cuperm_tile_sides_within_block(c.tile.tile_a_log2, c.tile.tile_b_log2)) continue;
        cuperm_warp_efficiency(&c, &in_eff, &out_eff);
        const double w = in_eff < out_eff ? in_eff : out_eff;
        if (w > best) {
            best = w;
            *L = c;
        }
    }
}

/* A group longer than its tile side leaves only its last tile partly empty, and how empty follows the
 * side: 131 elements fill 3 tiles of 64 at 68% and 9 of 16 at 91%. Where the rules' scalar tile is
 * full inside (cuperm_tile_inner_fill: a group shorter than its side is the pipelined kernel's case)
 * and fills its slots tt->fill_reshape_margin less than a reshape of it that is full inside too (same
 * size, both sides within a block, A and B sides of tt->fill_reshape_min_a_bytes and _b_bytes at
 * least: B sides of 128 bytes lost), the reshape that fills them most takes its place (nearest
 * first on ties). */
static void reshape_for_fill(cuperm_launch_t* L, const cuperm_transpose_tuning_t* tt)
{
    if (L->kind != CUPERM_LAUNCH_TILED || L->tile.vec_log2 || tt->fill_reshape_margin <= 0 ||
        cuperm_tile_inner_fill(L) < 1)
        return;
    const cuperm_launch_t rules = *L;
    const cuperm_tile_params_t* t = &rules.tile;
    const int elem = rules.elem_size;
    double best = tile_fill(t->a_volume, t->tile_a_log2) * tile_fill(t->b_volume, t->tile_b_log2) *
                  (1 + tt->fill_reshape_margin);
    for (size_t i = 0; i < sizeof kReshapes / sizeof kReshapes[0]; ++i) {
        cuperm_launch_t c;
        if (!reshaped_launch(&rules, t, i, tt, &c)) continue;
        const int la = c.tile.tile_a_log2, lb = c.tile.tile_b_log2;
        const int small_side = ((int64_t)elem << la) < tt->fill_reshape_min_a_bytes ||
                               ((int64_t)elem << lb) < tt->fill_reshape_min_b_bytes;
        if (!cuperm_tile_sides_within_block(la, lb) || small_side || cuperm_tile_inner_fill(&c) < 1)
            continue;
        const double fill = tile_fill(t->a_volume, la) * tile_fill(t->b_volume, lb);
        if (fill > best) {
            best = fill;
            *L = c;
        }
    }
}

/* Alignment-aware grouping: a dimension next on both sides goes where the rules
 * give it (ties and runs of tt->short_run_bytes or more: to A) unless giving it to the
 * other side lowers the alignment cost (cuperm_sector_cost: both sides' sector
 * waste, writes weighted more, and the tile fill) by tt->align_margin. So a
 * 17-element (136-byte) output run that starts anywhere in a sector takes the
 * shared 17-element dimension when the input run is as long: 289 elements
 * waste 1% of their sectors where 17 waste 15%. The first two ties are tried
 * both ways (at most four groupings; planning stays in microseconds). The chosen
 * tile is then reshaped if its warps store half sectors (reshape_for_warps). */
static void plan_tiled(const cuperm_problem_t* p, int elem, const cuperm_transpose_tuning_t* tt, cuperm_launch_t* L)
{
    cuperm_dim_t dims[CUPERM_MAX_RANK];
    int na, nb;
    int64_t va, vb;
    const int ties = group_dims(p, elem, tt, 0, dims, &na, &nb, &va, &vb);
    tiled_launch(dims, p->rank, na, nb, va, vb, elem, tt, L);
    const unsigned variants = 1u << (ties < 2 ? ties : 2);
    double best = ties ? cuperm_sector_cost(L, tt) * (1 - tt->align_margin) : 0;
    for (unsigned flip = 1; flip < variants; ++flip) {
        cuperm_launch_t alt = *L;
        group_dims(p, elem, tt, flip, dims, &na, &nb, &va, &vb);
        tiled_launch(dims, p->rank, na, nb, va, vb, elem, tt, &alt);
        const double cost = cuperm_sector_cost(&alt, tt);
        if (cost < best) {
            best = cost;
            *L = alt;
        }
    }
    reshape_for_fill(L, tt);
    reshape_for_warps(L, tt);
}

void cuperm_select_launch(const cuperm_problem_t* p, int elem, const cuperm_tuning_t* tuning, cuperm_launch_t* L)
{
    const cuperm_transpose_tuning_t* tt = &tuning->transpose;
    memset(L, 0, sizeof *L);
    L->elem_size = elem;
    L->volume = cuperm_problem_volume(p);
    L->threads = CUPERM_THREADS;
    if (p->rank == 1 && p->dim[0].in_stride == 1 && p->dim[0].out_stride == 1) {
        plan_copy(L, CUPERM_COPY_UNROLL_MAX); /* the device's form: copy_form */
        return;
    }
    if (cuperm_problem_out_fastest(p) == 0)
        plan_rows(p, elem, tt, L);
    else
        plan_tiled(p, elem, tt, L);
    finish_tile_launch(L, tt);
}

/* The model's time of launch L; with its footprint term (model.c: cuperm_launch_footprint) or not. */
static double predict(const cuperm_launch_t* L, const cuperm_device_info_t* dev, const cuperm_tuning_t* tuning,
                      int footprint)
{
    cuperm_model_features_t f;
    cuperm_model_features(L, &f);
    if (footprint) f.bytes *= cuperm_launch_footprint(L, tuning->transpose.model_dram_atom_bytes);
    return cuperm_model_seconds(&f, dev->dram_bytes_per_second, &tuning->transpose);
}

double cuperm_predict_seconds(const cuperm_launch_t* L, const cuperm_device_info_t* dev, const cuperm_tuning_t* tuning)
{
    return predict(L, dev, tuning, 1);
}

/* The tile walk: bands of tt->walk_band_tiles A tiles (sm_90: 8) where a plane has more A tiles
 * than B tiles, else A-fastest. Walking A-fastest, tiles that neighbour along B (they write
 * neighbouring output: shared sectors and DRAM pages) run a_tiles apart; a band brings them
 * band_tiles apart, at the price of splitting the input's reads at each band's edge, which then
 * continue band x b_tiles tiles later. With few A tiles the A-fastest walk keeps B neighbours
 * close anyway and the band only splits the reads (23^6 f64, 17 A tiles: the band 1.37x slower);
 * with many, the band wins whether sectors are shared or not (3661 A tiles over 8 B tiles: 0.58x).
 * Until session 48 the walk was banded wherever the writes left sectors partly filled (session 6,
 * H100: 17^6 median 86.5 -> 89.9% of copy). Both walks of every planned tile launch timed (the
 * band's time over A-fastest's, each rule's choice over the faster of the two, geomean / worst /
 * cases more than 5% slower): 697 H100 cases of session 8, 1.012 / 1.30 / 59 -> 1.009 / 1.14 / 43;
 * 512 H200 cases of sessions 45-46, 1.018 / 1.49 / 50 -> 1.009 / 1.22 / 18; 146 H200 cases of
 * session 48, 1.025 / 1.37 / 23 -> 1.017 / 1.18 / 17 (bench/results/walk-tiles-h200/). A single
 * B tile makes the two walks one order: A-fastest, without the band's index arithmetic. */
static int64_t choose_band(const cuperm_launch_t* L, const cuperm_transpose_tuning_t* tt)
{
    const cuperm_tile_params_t* t = &L->tile;
    const int64_t band = tt->walk_band_tiles;
    if (L->kind != CUPERM_LAUNCH_TILED || t->a_tiles <= band || t->b_tiles < 2) return 0;
    return t->a_tiles > t->b_tiles ? band : 0;
}

/* Whether L is a staged scalar tile launch whose sides stay within a block: the tiles whose kernels
 * have more than one form (pipelined or not, lean or checked). */
static int scalar_tile_within_block(const cuperm_launch_t* L)
{
    const cuperm_tile_params_t* t = &L->tile;
    return L->kind == CUPERM_LAUNCH_TILED && !t->vec_log2 && !t->vec_shifted &&
           cuperm_tile_sides_within_block(t->tile_a_log2, t->tile_b_log2);
}

/* Whether a launch's kernel has a lean and a checked form for it to choose from: 8- and 16-byte
 * elements in standard scalar tiles within a block. */
static int has_lean_form(const cuperm_launch_t* L)
{
    return (L->elem_size == 8 || L->elem_size == 16) && scalar_tile_within_block(L) &&
           L->tile.tile_a_log2 + L->tile.tile_b_log2 == tile_elems_log2(L->elem_size);
}

/* Whether such a launch takes the lean form: where its stores fill their sectors
 * (tt->lean_min_store_eff), or where each warp instruction's stores fill theirs and the tile's B
 * side is long (tt->lean_partial_min_b_bytes): tiles with shorter B sides whose stores leave sectors
 * partly written ran slower lean (5 blocks an SM) than checked (4). */
static int lean_form(const cuperm_launch_t* L, const cuperm_transpose_tuning_t* tt)
{
    if (!has_lean_form(L)) return 0;
    double load_eff, store_eff, warp_store_eff;
    cuperm_sector_efficiency(L, &load_eff, &store_eff);
    if (store_eff >= tt->lean_min_store_eff) return 1;
    cuperm_warp_efficiency(L, NULL, &warp_store_eff);
    return tt->lean_partial_min_b_bytes > 0 && warp_store_eff >= 1.0 &&
           ((int64_t)L->elem_size << L->tile.tile_b_log2) >= tt->lean_partial_min_b_bytes;
}

/* Finishes a tile launch whose tile params are set. */
static void finish_tile_launch(cuperm_launch_t* L, const cuperm_transpose_tuning_t* tt)
{
    L->tile.band_tiles = choose_band(L, tt);
    L->tile.lean = lean_form(L, tt);
    const int64_t max_grid = 0x7fffffff;
    L->blocks = L->tile.num_tiles < max_grid ? L->tile.num_tiles : max_grid;
    L->smem_bytes = cuperm_tile_smem_bytes(L->kind, &L->tile, L->elem_size);
}

int cuperm_candidate_launches(const cuperm_launch_t* h, const cuperm_device_info_t* dev, const cuperm_tuning_t* tuning,
                              cuperm_launch_t* out, int max)
{
    const cuperm_transpose_tuning_t* tt = &tuning->transpose;
    int n = 0;
    if (max < 1) return 0;
    out[n++] = *h;
    if (h->kind == CUPERM_LAUNCH_COPY && n < max) { /* the other form: vectors a thread (copy_form) */
        out[n] = *h;
        plan_copy(&out[n++], h->copy_unroll == 1 ? CUPERM_COPY_UNROLL_MAX : 1);
    }
    if (h->kind == CUPERM_LAUNCH_COPY || h->kind == CUPERM_LAUNCH_WHOLE_DIMS) return n;
    cuperm_tile_params_t scalar = h->tile;
    if (scalar.vec_log2 && h->kind == CUPERM_LAUNCH_TILED) { /* the other vector tile shapes */
        const int vec_bytes = h->elem_size << scalar.vec_log2;
        int lo, hi;
        vec_tile_range(h->elem_size, vec_bytes, &lo, &hi);
        for (int la = lo; la <= hi && n < max; ++la) {
            if (la == scalar.tile_a_log2) continue;
            cuperm_launch_t c = *h;
            cuperm_tile_params_init(&c.tile, scalar.dim, scalar.rank, scalar.a_end, scalar.b_end, la,
                                    vec_tile_log2(h->elem_size) - la, h->elem_size);
            c.tile.vec_log2 = scalar.vec_log2;
            c.tile.vec_shifted = scalar.vec_shifted ? shifted_variant(&c.tile, tt) : 0;
            finish_tile_launch(&c, tt);
            out[n++] = c;
        }
    }
    if (scalar.vec_log2) { /* also try the scalar paths, in the scalar planner's tile shape */
        int la, lb;
        choose_tile(scalar.a_volume, scalar.b_volume, h->elem_size, tt, &la, &lb);
        cuperm_launch_t c = *h;
        cuperm_tile_params_init(&c.tile, scalar.dim, scalar.rank, scalar.a_end, scalar.b_end, la, lb,
                                h->elem_size);
        finish_tile_launch(&c, tt);
        if (n < max) out[n++] = c;
        scalar = c.tile;
    }
    /* Reshape the tile, keeping its size (and so the kernels' fast path), its sides
     * within 2^tile_side_max_log2 and its shared memory within the device's per-block
     * limit without opt-in. */
    for (size_t i = 0; i < sizeof kReshapes / sizeof kReshapes[0] && n < max; ++i) {
        cuperm_launch_t c;
        if (reshaped_launch(h, &scalar, i, tt, &c) && c.smem_bytes <= dev->smem_per_block) out[n++] = c;
    }
    /* A rows launch with its rows in the other order (by output stride, or back to input stride). */
    if (h->kind == CUPERM_LAUNCH_ROWS && n < max && h->tile.rank > 2) {
        cuperm_dim_t dims[CUPERM_MAX_RANK];
        if (other_row_order(h->tile.dim, h->tile.rank, dims)) {
            cuperm_launch_t c = *h;
            rows_launch(dims, h->tile.rank, h->elem_size, tt, &c);
            if (c.smem_bytes <= dev->smem_per_block) out[n++] = c;
        }
        if (n < max && paired_row_order(h->tile.dim, h->tile.rank, dims)) {
            cuperm_launch_t c = *h;
            rows_launch(dims, h->tile.rank, h->elem_size, tt, &c);
            if (c.smem_bytes <= dev->smem_per_block) out[n++] = c;
        }
    }
    /* The rules' launch with the other tile walk (banded or A-fastest). */
    if (h->kind == CUPERM_LAUNCH_TILED && n < max && (h->tile.band_tiles || h->tile.a_tiles > tt->walk_band_tiles)) {
        cuperm_launch_t c = *h;
        c.tile.band_tiles = h->tile.band_tiles ? 0 : tt->walk_band_tiles;
        out[n++] = c;
    }
    return n;
}

/* Whether elements of this size may pack part of a shared row (tuning data). */
static int part_pack(const cuperm_tuning_t* tuning, int elem)
{
    return elem < 31 && (tuning->transpose.rows_part_pack_elems >> elem & 1);
}

/* The canonical problem of a transpose; with packed, its packed form (0 if it has none). */
static int canonical_problem(int rank, const int64_t* extents, const int* perm, int elem, const int64_t* in_strides,
                             const int64_t* out_strides, int packed, const cuperm_tuning_t* tuning,
                             cuperm_problem_t* p, int* p_elem)
{
    cuperm_problem_t q;
    cuperm_problem_init(&q, rank, extents, perm, in_strides, out_strides);
    cuperm_problem_canonicalize(&q);
    *p_elem = elem;
    if (!packed) {
        *p = q;
        return 1;
    }
    return cuperm_problem_pack(&q, elem, part_pack(tuning, elem), p, p_elem);
}

/* The rules' tile cut to CUPERM_TILE_ITEMS_SMALL(elem) elements a thread (the small tiles' kernel
 * path: a quarter of the standard size, half of the tile a short group leaves), each halving off the
 * longer side (A on ties), into *c.
 * Vector tiles have no small form: a vector tile launch starts from the scalar planner's tile of
 * its groups (scalar small tiles beat 16 KB vector tiles on L2-sized tensors of 37-160 vector
 * tiles: 0.69-0.97x their time even on the any-shape path, bench/results/small-tiles-h100/
 * explore-graph-timing/). 0 where h has no such form (whole-dims, copies, vector rows, a tile
 * already that small, a side past a block). */
static int small_tile_launch(const cuperm_launch_t* h, const cuperm_transpose_tuning_t* tt, cuperm_launch_t* c)
{
    const cuperm_tile_params_t* t = &h->tile;
    if (h->kind != CUPERM_LAUNCH_TILED && (h->kind != CUPERM_LAUNCH_ROWS || t->vec_log2)) return 0;
    const int small = cuperm_log2_ceil((int64_t)CUPERM_THREADS * CUPERM_TILE_ITEMS_SMALL(h->elem_size));
    int la = t->tile_a_log2, lb = t->tile_b_log2;
    if (t->vec_log2) choose_tile(t->a_volume, t->b_volume, h->elem_size, tt, &la, &lb);
    if (la + lb < small + 1) return 0;
    while (la + lb > small) la >= lb ? --la : --lb;
    if (!cuperm_tile_sides_within_block(la, lb)) return 0;
    retiled_launch(h, t, la, lb, tt, c);
    return 1;
}

/* The rules' tile at half its size where its standard size puts a side past a block (a rows
 * launch of long rows and few of them: 512 x 8; scalar tiles stay within a block, choose_tile), the
 * long side halved, into *c: the kernels' half-size fast path instead of the any-shape one. 0 where
 * h has no such tile. */
static int half_tile_launch(const cuperm_launch_t* h, const cuperm_transpose_tuning_t* tt, cuperm_launch_t* c)
{
    const cuperm_tile_params_t* t = &h->tile;
    int la = t->tile_a_log2, lb = t->tile_b_log2;
    if ((h->kind != CUPERM_LAUNCH_TILED && h->kind != CUPERM_LAUNCH_ROWS) || t->vec_log2 ||
        la + lb != tile_elems_log2(h->elem_size) || cuperm_tile_sides_within_block(la, lb))
        return 0;
    la > block_side_log2() ? --la : --lb;
    if (!cuperm_tile_sides_within_block(la, lb)) return 0;
    retiled_launch(h, t, la, lb, tt, c);
    return 1;
}

/* The pipelined form of a staged scalar tile launch of 4-, 8- or 16-byte elements whose sides stay
 * within a block, standard or small (the sizes its kernel is built for), into *c: the same tiles
 * and walk on a persistent grid of the kernel's resident blocks. 0 where h has no such form. */
static int pipelined_launch(const cuperm_launch_t* h, const cuperm_device_info_t* dev, cuperm_launch_t* c)
{
    const cuperm_tile_params_t* t = &h->tile;
    const int elem = h->elem_size, sides = t->tile_a_log2 + t->tile_b_log2;
    if (!scalar_tile_within_block(h) || t->pipelined || (elem != 4 && elem != 8 && elem != 16) ||
        (sides != tile_elems_log2(elem) &&
         sides != cuperm_log2_ceil((int64_t)CUPERM_THREADS * CUPERM_TILE_ITEMS_SMALL(elem))))
        return 0;
    *c = *h;
    c->tile.pipelined = 1;
    c->smem_bytes = cuperm_tile_smem_bytes(c->kind, &c->tile, elem);
    if (c->smem_bytes > dev->smem_per_block) return 0;
    const int64_t slots = (int64_t)dev->sm_count * CUPERM_PIPE_TILE_BLOCKS;
    c->blocks = t->num_tiles < slots ? t->num_tiles : slots;
    return 1;
}

/* A pipelined launch's plain form (the standard grid, one buffer) into *c. */
static void unpipelined_launch(const cuperm_launch_t* h, cuperm_launch_t* c)
{
    *c = *h;
    c->tile.pipelined = 0;
    const int64_t max_grid = 0x7fffffff;
    c->blocks = c->tile.num_tiles < max_grid ? c->tile.num_tiles : max_grid;
    c->smem_bytes = cuperm_tile_smem_bytes(c->kind, &c->tile, c->elem_size);
}

/* Resident blocks of the small tiles' kernels for elem-byte elements on dev: one wave. */
static int64_t small_tile_slots(const cuperm_device_info_t* dev, int elem)
{
    return (int64_t)dev->sm_count * CUPERM_SMALL_TILE_BLOCKS(elem);
}

/* Which launch heuristic_launch chose. */
typedef enum { PICK_RULES, PICK_SPANS, PICK_RUNS, PICK_WHOLE_DIMS, PICK_ROW_TILES, PICK_SMALL, PICK_HALF } pick_t;

/* The launch the planner runs for canonical problem p on dev: the rules' launch (a copy in the
 * device's form: copy_form); the span form of whole-dims where cuperm_whole_dims_span_preferred says
 * so; the whole-dims launch where cuperm_whole_dims_preferred says so; row
 * tiles in place of a rows launch whose tiles leave a quarter of their slots idle or more (below);
 * for a tensor whose tiles leave most of the device idle (an L2-sized tensor: 64-80 tiles of 4096
 * elements on 132 SMs),
 * the rules' tile cut to the small tiles' size (scalar, also for a vector tile launch) where those
 * tiles still fit one wave of the small kernels' resident blocks; else, for a tensor that fits
 * in L2, the rules' tile at half its size where its standard size would take the any-shape path
 * (half_tile_launch: 0.59-0.95x the time on the 11 such L2 cases measured,
 * bench/results/small-tiles-h100/half-tiles/). *rules and *wd (has_wd) are the contenders, for
 * the candidate list; with all_contenders 0, *wd is built only where it may be chosen. */
static pick_t heuristic_launch_plain(const cuperm_problem_t* p, int elem, const cuperm_device_info_t* dev,
                                     const cuperm_tuning_t* tuning, int all_contenders, cuperm_launch_t* L,
                                     cuperm_launch_t* rules, cuperm_launch_t* wd, int* has_wd)
{
    const cuperm_transpose_tuning_t* tt = &tuning->transpose;
    cuperm_select_launch(p, elem, tuning, rules);
    if (rules->kind == CUPERM_LAUNCH_COPY) {
        copy_form(rules, dev, tt);
        *L = *rules;
        *has_wd = 0;
        return PICK_RULES;
    }
    /* Batches of small transposes whose tiles cut a side into short runs move as contiguous spans. */
    if (elem <= tt->span_max_elem && cuperm_whole_dims_span_launch(p, elem, dev, tt, L) &&
        cuperm_whole_dims_span_preferred(rules, L, tt)) {
        *has_wd = all_contenders && cuperm_whole_dims_launch(p, elem, tt, wd);
        if (*has_wd) cuperm_whole_dims_fit_device(wd, dev, tt);
        return PICK_SPANS;
    }
    /* Batches of small transposes whose outer dimensions are permuted too move their runs by vectors. */
    if (elem <= tt->runs_rule_max_elem && rules->kind == CUPERM_LAUNCH_TILED && !rules->tile.vec_log2 &&
        cuperm_whole_dims_runs_launch(p, elem, dev, tt, L) && cuperm_whole_dims_runs_preferred(rules, L, tt)) {
        *has_wd = all_contenders && cuperm_whole_dims_launch(p, elem, tt, wd);
        if (*has_wd) cuperm_whole_dims_fit_device(wd, dev, tt);
        return PICK_RUNS;
    }
    /* The whole-dims launch is built only where it may replace the rules' (planning and pricing
     * run this for every transpose a contraction search prices), or for the candidate list. */
    *has_wd = (all_contenders || cuperm_whole_dims_may_replace(rules, tt)) &&
              cuperm_whole_dims_launch(p, elem, tt, wd);
    if (*has_wd) cuperm_whole_dims_fit_device(wd, dev, tt);
    if (*has_wd && cuperm_whole_dims_preferred(rules, wd, tt)) {
        *L = *wd;
        return PICK_WHOLE_DIMS;
    }
    /* A rows launch moves one row to a run on the side its row order does not follow, in tiles whose
     * side leaves a short row's last slots idle (17 elements in a side of 32); row tiles move runs of
     * many rows on both sides and number their threads over the rows' elements (by vectors where the
     * rows launch has them). Where the rows launch's tiles are at most tt->row_tiles_max_fill full,
     * they take its place (not for rows under tt->row_tiles_min_row_bytes: see core/tuning.c). */
    if (rules->kind == CUPERM_LAUNCH_ROWS && rules->tile.dim[0].extent * elem >= tt->row_tiles_min_row_bytes &&
        cuperm_tile_fill(rules) <= tt->row_tiles_max_fill &&
        cuperm_row_tiles_launch(p, elem, tt->row_tiles_max_row_bytes, tt, L))
        return PICK_ROW_TILES;
    /* A tensor of more elements than a wave of small tiles holds has more tiles than that. */
    const int64_t small_wave = small_tile_slots(dev, rules->elem_size) * CUPERM_THREADS *
                               CUPERM_TILE_ITEMS_SMALL(rules->elem_size);
    if (tt->small_tiles && rules->volume <= small_wave && small_tile_launch(rules, tt, L) &&
        L->tile.num_tiles <= small_tile_slots(dev, L->elem_size))
        return PICK_SMALL;
    /* measured on tensors whose input and output fit in L2 together; larger ones are not */
    if (tt->small_tiles && 2 * rules->volume * rules->elem_size <= (int64_t)dev->l2_bytes &&
        half_tile_launch(rules, tt, L))
        return PICK_HALF;
    *L = *rules;
    return PICK_RULES;
}

/* heuristic_launch_plain's launch, pipelined where the tuning table asks for it: a tensor whose
 * input and output fit in L2 together is latency-bound, and so is one a few times the L2 whose stores
 * fill their sectors (much of it stays in L2; partly written sectors go to DRAM as read-modify-write,
 * which the pipelined kernel's extra loads in flight slow), and one that leaves every tile partly
 * empty (fewer loads in flight a thread; a group that leaves only its last tile partly empty does
 * not); the pipelined kernel keeps a block's next tile loading while it writes (the contenders stay
 * plain). */
static pick_t heuristic_launch(const cuperm_problem_t* p, int elem, const cuperm_device_info_t* dev,
                               const cuperm_tuning_t* tuning, int all_contenders, cuperm_launch_t* L,
                               cuperm_launch_t* rules, cuperm_launch_t* wd, int* has_wd)
{
    const pick_t pick = heuristic_launch_plain(p, elem, dev, tuning, all_contenders, L, rules, wd, has_wd);
    const cuperm_transpose_tuning_t* tt = &tuning->transpose;
    const int min_elem = tt->pipelined_min_elem;
    cuperm_launch_t piped;
    const double in_out_bytes = 2.0 * (double)L->volume * (double)L->elem_size, l2 = (double)dev->l2_bytes;
    double load_eff, store_eff = 0;
    if (in_out_bytes > l2 && in_out_bytes <= tt->pipelined_max_l2_multiple * l2)
        cuperm_sector_efficiency(L, &load_eff, &store_eff);
    const int latency_bound = in_out_bytes <= l2 || store_eff >= tt->pipelined_min_store_eff ||
                              cuperm_tile_inner_fill(L) < tt->pipelined_max_fill;
    if (min_elem && L->elem_size >= min_elem && latency_bound && pipelined_launch(L, dev, &piped))
        *L = piped;
    return pick;
}

int cuperm_plan_candidates(int rank, const int64_t* extents, const int* perm, int elem, const int64_t* in_strides,
                           const int64_t* out_strides, const cuperm_device_info_t* dev,
                           const cuperm_tuning_t* tuning, int packed, cuperm_launch_t* out, int max)
{
    cuperm_problem_t p;
    int p_elem, has_wd;
    if (max < 1 || !canonical_problem(rank, extents, perm, elem, in_strides, out_strides, packed, tuning, &p, &p_elem))
        return 0;
    cuperm_launch_t chosen, rules, wd, small, piped;
    const pick_t pick = heuristic_launch(&p, p_elem, dev, tuning, 1, &chosen, &rules, &wd, &has_wd);
    /* the planner's choice first, then the rules' launch and its variants, then whole-dims, then
     * small tiles where they would fill up to two waves (measure mode times them near the rule),
     * then the other form (pipelined or not) of the choice and of the rules' and small launches */
    int n = 0;
    const int pipelined_rules = pick == PICK_RULES && chosen.tile.pipelined; /* rules follow: its twin */
    if (pick != PICK_RULES || pipelined_rules) out[n++] = chosen;
    const int rules_at = n;
    n += cuperm_candidate_launches(&rules, dev, tuning, out + n, max - n);
    if (has_wd && pick != PICK_WHOLE_DIMS && n < max) out[n++] = wd;
    if (pick != PICK_SPANS && n < max && cuperm_whole_dims_span_launch(&p, p_elem, dev, &tuning->transpose, &out[n]))
        ++n;
    if (pick != PICK_RUNS && n < max && cuperm_whole_dims_runs_launch(&p, p_elem, dev, &tuning->transpose, &out[n]))
        ++n;
    /* row tiles wherever they exist, so that measure mode (and the candidate timings the rule is read
     * from) sees where they pay; those of vectors in their scalar form too */
    int row_tiles_at = pick == PICK_ROW_TILES ? 0 : -1;
    if (pick != PICK_ROW_TILES && rules.kind == CUPERM_LAUNCH_ROWS && n < max &&
        cuperm_row_tiles_launch(&p, p_elem, tuning->transpose.row_tiles_max_row_bytes, &tuning->transpose, &out[n]))
        row_tiles_at = n++;
    if (row_tiles_at >= 0 && out[row_tiles_at].tile.vec_log2 && n < max) {
        out[n] = out[row_tiles_at];
        out[n++].tile.vec_log2 = 0;
    }
    int small_at = -1;
    if (pick != PICK_SMALL && n < max && small_tile_launch(&rules, &tuning->transpose, &small) &&
        small.tile.num_tiles <= 2 * small_tile_slots(dev, small.elem_size))
        small_at = n, out[n++] = small;
    if (pick != PICK_HALF && n < max && half_tile_launch(&rules, &tuning->transpose, &small)) out[n++] = small;
    const int twins_of[3] = {pipelined_rules ? -1 : 0, pick != PICK_RULES ? rules_at : -1, small_at};
    for (int i = 0; i < 3 && n < max; ++i) {
        if (twins_of[i] < 0 || twins_of[i] >= n) continue;
        const cuperm_launch_t* c = &out[twins_of[i]];
        if (c->tile.pipelined)
            unpipelined_launch(c, &piped), out[n++] = piped;
        else if (pipelined_launch(c, dev, &piped))
            out[n++] = piped;
    }
    /* and the first plain tile launch that has two kernel forms in its other one (lean or checked):
     * the rule keys on the stores' sectors, and the lean form also won on many tiles whose stores
     * leave sectors partly written (bench/results/lean-f64-h200/) */
    for (int i = 0; i < n && n < max; ++i)
        if (!out[i].tile.pipelined && has_lean_form(&out[i])) {
            out[n] = out[i];
            out[n].tile.lean = !out[i].tile.lean;
            ++n;
            break;
        }
    return n;
}

/* cuperm_plan_host's predicted_seconds alone, without the launch it does not price: the packed
 * form's when the problem packs, else the plain one's (what pricing a transpose needs). Without the
 * footprint term for now: the contraction search prices its transposes here, and many write padded
 * workspaces, so the term would move the chosen layout of 2,097 of 54,000 random contractions
 * (tools/model/check_same_ctr_plans.sh, session 62), none of them measured yet. */
double cuperm_plan_predict(int rank, const int64_t* extents, const int* perm, int elem, const int64_t* in_strides,
                           const int64_t* out_strides, const cuperm_device_info_t* dev, const cuperm_tuning_t* tuning)
{
    cuperm_problem_t p, packed;
    int packed_elem, has_wd;
    cuperm_problem_init(&p, rank, extents, perm, in_strides, out_strides);
    cuperm_problem_canonicalize(&p);
    cuperm_launch_t L, rules, wd;
    if (cuperm_problem_pack(&p, elem, part_pack(tuning, elem), &packed, &packed_elem))
        heuristic_launch(&packed, packed_elem, dev, tuning, 0, &L, &rules, &wd, &has_wd);
    else
        heuristic_launch(&p, elem, dev, tuning, 0, &L, &rules, &wd, &has_wd);
    return predict(&L, dev, tuning, 0);
}

/* The rules, not the model, choose among the candidates: on every candidate's
 * H100 time they pick one within 5% of the fastest more often than the fitted
 * models do (docs/model.md). */
void cuperm_plan_host(int rank, const int64_t* extents, const int* perm, int elem, const int64_t* in_strides,
                      const int64_t* out_strides, const cuperm_device_info_t* dev, const cuperm_tuning_t* tuning,
                      cuperm_host_plan_t* plan)
{
    cuperm_problem_t p, packed;
    int packed_elem;
    memset(plan, 0, sizeof *plan);
    cuperm_problem_init(&p, rank, extents, perm, in_strides, out_strides);
    plan->in_span_bytes = (cuperm_problem_max_in_offset(&p) + 1) * elem;
    plan->out_span_bytes = (cuperm_problem_max_out_offset(&p) + 1) * elem;
    cuperm_problem_canonicalize(&p);
    plan->fused_rank = p.rank;
    cuperm_launch_t rules, wd;
    int has_wd;
    heuristic_launch(&p, elem, dev, tuning, 0, &plan->launch, &rules, &wd, &has_wd);
    plan->predicted_seconds = cuperm_predict_seconds(&plan->launch, dev, tuning);
    if (cuperm_problem_pack(&p, elem, part_pack(tuning, elem), &packed, &packed_elem)) {
        plan->has_packed = 1;
        heuristic_launch(&packed, packed_elem, dev, tuning, 0, &plan->packed, &rules, &wd, &has_wd);
        plan->predicted_seconds = cuperm_predict_seconds(&plan->packed, dev, tuning);
    }
}
