#include "plan/transpose/whole_dims.h"

#include <string.h>

#include "core/index_math.h"

#include "plan/transpose/model.h"
#include "plan/transpose/select.h"

/* Per element: the tile, two 32-bit offsets and a 16-bit slot; with a split, two 16-bit
 * indices more (packed.cu lays them out in this order). */
static int entry_bytes(int elem, int split) { return elem + 4 + 4 + 2 + (split ? 4 : 0); }

/* 48 KB of shared memory a block (the most without opt-in), four blocks per SM: tiles of
 * 2048 elements ran the worst cases faster than 27 KB tiles with eight blocks per SM (17^6,
 * 1.20x against 1.04x the best tile launch; H100). */
#define SMEM_BUDGET (48 * 1024)

int cuperm_whole_dims_max_volume(int elem)
{
    const int v = SMEM_BUDGET / entry_bytes(elem, 1) - 16;
    return v < CUPERM_WHOLE_DIMS_MAX_VOLUME ? v : CUPERM_WHOLE_DIMS_MAX_VOLUME;
}

int cuperm_whole_dims_smem_bytes(const cuperm_tile_params_t* t, int elem)
{
    const int v = (int)t->a_volume;
    if (t->wd_span == 3) return cuperm_runs_layout(v, t->span_in_run, t->span_out_run, elem).total;
    if (t->wd_span) return cuperm_span_smem_bytes(v, elem, t->span_inner, t->wd_span == 2);
    return (cuperm_whole_dims_tile_elems(v, elem) * elem + 15) / 16 * 16 + v * (entry_bytes(0, t->wd_split >= 0));
}

/* The run of a side over the tile's dimensions taken in `order` (count n). */
static int64_t run_of(const cuperm_dim_t* dim, const int* order, int n, int output_side)
{
    int64_t run = 1;
    for (int i = 0; i < n; ++i) {
        const cuperm_dim_t* d = &dim[order[i]];
        if ((output_side ? d->out_stride : d->in_stride) != run) break;
        run *= d->extent;
    }
    return run;
}

int64_t cuperm_whole_dims_run(const cuperm_tile_params_t* t, int output_side)
{
    int order[CUPERM_MAX_RANK];
    for (int i = 0; i < t->a_end; ++i) order[i] = output_side ? t->wd_out_order[i] : i;
    /* a split dimension ends the run: the chunk's next element is another tile's */
    int n = t->a_end;
    for (int i = 0; i < t->a_end; ++i)
        if (order[i] == t->wd_split) {
            n = i + 1;
            break;
        }
    return run_of(t->dim, order, n, output_side);
}

/* Position of the first dimension in `order` (all n of p's) that is not in the tile, or -1. */
static int next_of(const int* order, int n, const int* in_tile)
{
    for (int i = 0; i < n; ++i)
        if (!in_tile[order[i]]) return order[i];
    return -1;
}

/* The contiguous run of a side over the tile's dimensions so far, and whether the next
 * dimension on that side would lengthen it. */
static int64_t side_run(const cuperm_problem_t* p, const int* order, const int* in_tile, int output_side,
                        int* open)
{
    int64_t run = 1;
    *open = 0;
    for (int i = 0; i < p->rank; ++i) {
        const cuperm_dim_t* d = &p->dim[order[i]];
        if ((output_side ? d->out_stride : d->in_stride) != run) return run;
        if (!in_tile[order[i]]) {
            *open = 1;
            return run;
        }
        run *= d->extent;
    }
    return run;
}

/* Dimensions by output stride (then input stride: the canonical order), into order[]. */
static void output_order(const cuperm_problem_t* p, int* order)
{
    for (int d = 0; d < p->rank; ++d) order[d] = d;
    for (int i = 1; i < p->rank; ++i) {
        const int x = order[i];
        int j = i;
        for (; j > 0 && p->dim[x].out_stride < p->dim[order[j - 1]].out_stride; --j) order[j] = order[j - 1];
        order[j] = x;
    }
}

/* A WHOLE_DIMS launch of the tile in_tile[] marks (volume elements; dimension split, when >= 0, in
 * chunks of part) into *L; 0 where it is one dimension, the whole tensor in one tile, or offsets inside
 * it pass 32 bits. */
static int whole_dims_tile(const cuperm_problem_t* p, int elem, const int* in_tile, int split, int64_t part,
                           int64_t volume, const int* out_order, cuperm_launch_t* L)
{
    const int n = p->rank;
    int ns = 0;
    for (int d = 0; d < n; ++d) ns += in_tile[d];
    if (ns < 2 || (ns == n && split < 0)) return 0; /* one dimension, or the whole tensor in one tile */
    /* Offsets inside a tile are 32-bit in the kernel's tables. */
    int64_t max_in = 0, max_out = 0;
    for (int d = 0; d < n; ++d)
        if (in_tile[d]) {
            const int64_t e = (d == split ? part : p->dim[d].extent) - 1;
            max_in += e * p->dim[d].in_stride;
            max_out += e * p->dim[d].out_stride;
        }
    if (max_in > INT32_MAX || max_out > INT32_MAX) return 0;

    /* The tile's dimensions in input order, then the split's chunks, then the rest. */
    cuperm_dim_t dims[CUPERM_MAX_RANK];
    int pos[CUPERM_MAX_RANK], k = 0;
    for (int d = 0; d < n; ++d)
        if (in_tile[d]) {
            pos[d] = k;
            dims[k] = p->dim[d];
            if (d == split) dims[k].extent = part;
            ++k;
        }
    if (split >= 0) {
        dims[k].extent = (p->dim[split].extent + part - 1) / part;
        dims[k].in_stride = part * p->dim[split].in_stride;
        dims[k].out_stride = part * p->dim[split].out_stride;
        ++k;
    }
    for (int d = 0; d < n; ++d)
        if (!in_tile[d]) dims[k++] = p->dim[d];
    memset(L, 0, sizeof *L);
    L->kind = CUPERM_LAUNCH_WHOLE_DIMS;
    L->elem_size = elem;
    L->threads = CUPERM_THREADS;
    L->volume = cuperm_problem_volume(p);
    int la = 0;
    while (((int64_t)1 << la) < volume) ++la;
    cuperm_tile_params_init(&L->tile, dims, k, ns, ns, la, 0, elem);
    cuperm_tile_params_t* t = &L->tile;
    t->a_volume = volume;
    t->a_tiles = 1;
    t->wd_split = split >= 0 ? pos[split] : -1;
    t->split_extent = split >= 0 ? p->dim[split].extent : 0;
    for (int i = 0, j = 0; i < n; ++i)
        if (in_tile[out_order[i]]) t->wd_out_order[j++] = (int8_t)pos[out_order[i]];
    for (int i = 0, place = 1; i < ns; place *= (int)t->dim[i].extent, ++i) t->wd_place[i] = place;
    L->blocks = t->num_tiles < 0x7fffffff ? t->num_tiles : 0x7fffffff;
    L->smem_bytes = cuperm_whole_dims_smem_bytes(t, elem);
    return 1;
}

int cuperm_whole_dims_launch(const cuperm_problem_t* p, int elem, const cuperm_transpose_tuning_t* tt,
                         cuperm_launch_t* L)
{
    const int n = p->rank;
    if (n < 2) return 0;
    int in_order[CUPERM_MAX_RANK], out_order[CUPERM_MAX_RANK], in_tile[CUPERM_MAX_RANK] = {0};
    for (int d = 0; d < n; ++d) in_order[d] = d; /* canonical: sorted by input stride */
    output_order(p, out_order);
    const int64_t vmax = cuperm_whole_dims_max_volume(elem);
    const int64_t target = (tt->whole_dims_run_bytes + elem - 1) / elem;
    int64_t volume = 1, part = 0;
    int split = -1;
    for (;;) {
        int open_in, open_out;
        const int64_t run_in = side_run(p, in_order, in_tile, 0, &open_in);
        const int64_t run_out = side_run(p, out_order, in_tile, 1, &open_out);
        const int grow_in = open_in && run_in < target, grow_out = open_out && run_out < target;
        if (!grow_in && !grow_out) break;
        const int output_side = grow_out && (!grow_in || run_out < run_in);
        const int d = next_of(output_side ? out_order : in_order, n, in_tile);
        const int64_t extent = p->dim[d].extent;
        if (volume * extent <= vmax) {
            in_tile[d] = 1;
            volume *= extent;
            continue;
        }
        split = d;
        break;
    }
    /* Both runs are long enough (or cannot grow): fill the tile with the next input
     * dimensions, so that every thread keeps several loads in flight (a tile of 225
     * elements ran at 43% of copy on the H100, one load per thread between barriers). */
    for (int i = 0; split < 0 && i < n; ++i) {
        const int d = in_order[i];
        if (in_tile[d]) continue;
        if (volume * p->dim[d].extent > vmax) split = d;
        else {
            in_tile[d] = 1;
            volume *= p->dim[d].extent;
        }
    }
    if (split >= 0) { /* a part of dimension split, in even chunks (the last at most one shorter) */
        const int64_t extent = p->dim[split].extent;
        part = vmax / volume;
        if (part >= 2) {
            const int64_t chunks = (extent + part - 1) / part;
            part = (extent + chunks - 1) / chunks;
            in_tile[split] = 1;
            volume *= part;
        } else {
            split = -1;
        }
    }
    return whole_dims_tile(p, elem, in_tile, split, part, volume, out_order, L);
}

/* Greatest common divisor of x > 0 and 16. */
static int64_t gcd16(int64_t x)
{
    int64_t g = 16;
    while (x % g) g >>= 1;
    return g;
}

/* The most indices of the batch dimension, up to `most`, whose span tile's shared memory (two copies,
 * the gather table where there is one, the slots: cuperm_span_smem_bytes) fits a block without opt-in;
 * at least 1. */
static int64_t span_part_fit(int64_t most, int64_t inner, int elem, int gathered, const cuperm_device_info_t* dev)
{
    int64_t lo = 1, hi = most > 1 ? most : 1;
    while (lo < hi) { /* the largest part in [lo, hi] that fits, or lo */
        const int64_t mid = lo + (hi - lo + 1) / 2;
        if (cuperm_span_smem_bytes(inner * mid, elem, (int)inner, gathered) <= dev->smem_per_block) lo = mid;
        else hi = mid - 1;
    }
    return lo;
}

int cuperm_whole_dims_span_launch(const cuperm_problem_t* p, int elem, const cuperm_device_info_t* dev,
                                  const cuperm_transpose_tuning_t* tt, cuperm_launch_t* L)
{
    const int n = p->rank;
    /* the kernel's skewed copy keeps elements 4-byte aligned, no more (cuperm_span_skew) */
    if (elem > 4 || elem > tt->span_max_elem || n < 3) return 0;
    int out_order[CUPERM_MAX_RANK];
    output_order(p, out_order);
    if (out_order[0] == 0) return 0; /* the same fastest dimension: rows, not spans */
    /* the inner block: dimensions 0 .. k - 1 (input order), the same set as out_order[0 .. k - 1] */
    int64_t inner = 1, out_run = 1;
    unsigned in_set = 0, out_set = 0;
    int k = 0;
    while (k < n) {
        const cuperm_dim_t *di = &p->dim[k], *dout = &p->dim[out_order[k]];
        if (di->in_stride != inner || dout->out_stride != out_run) return 0; /* not dense on a side */
        inner *= di->extent;
        out_run *= dout->extent;
        in_set |= 1u << k;
        out_set |= 1u << out_order[k];
        ++k;
        if (inner > tt->span_max_inner) return 0;
        if (in_set == out_set) break;
    }
    if (in_set != out_set || k >= n) return 0; /* no such block, or the whole tensor in one */
    /* the batch: dimension k, next and dense on both sides, in chunks of about span_tile_bytes */
    const cuperm_dim_t* b = &p->dim[k];
    const int batch = out_order[k] == k && b->in_stride == inner && b->out_stride == inner;
    const int gathered = elem <= tt->span_gather_max_elem && elem <= 2; /* the kernel has tables for these */
    int64_t part = 1;
    if (batch) {
        /* a granule left for the head: the kernel's one round of registers holds the span */
        const int64_t most = span_part_fit((tt->span_tile_bytes - 16) / (inner * elem), inner, elem, gathered, dev);
        /* with a gather table, chunks of whole granules where they fit: every chunk's heads are then those
         * of the block's first tile, and the table serves them all; not where that would take the tile
         * under span_min_tile_bytes (the rule's floor: 102 x 5 bytes, 16 matrices of 8,160 bytes instead of
         * 22, ran on tiles at 14% of copy against the spans' 67%, H200) */
        int64_t unit = gathered ? 16 / gcd16(inner * elem) : 1;
        if (most >= unit && most / unit * unit * inner * elem < tt->span_min_tile_bytes &&
            most * inner * elem >= tt->span_min_tile_bytes)
            unit = 1;
        const int64_t top = most >= unit ? most / unit * unit : most;
        part = top < b->extent ? top : b->extent;
        const int64_t chunks = (b->extent + part - 1) / part;
        part = (b->extent + chunks - 1) / chunks;
        if (chunks > 1 && top % unit == 0) part = (part + unit - 1) / unit * unit;
    } else if (inner * elem * 4 < tt->span_tile_bytes) {
        return 0; /* blocks of a few vectors between barriers */
    }
    const int split = batch && part < b->extent;
    cuperm_dim_t dims[CUPERM_MAX_RANK];
    int m = 0;
    for (int d = 0; d < k; ++d) dims[m++] = p->dim[d];
    if (batch) {
        dims[m] = *b;
        dims[m++].extent = part;
    }
    const int ns = m;
    if (split) {
        dims[m].extent = (b->extent + part - 1) / part;
        dims[m].in_stride = part * b->in_stride;
        dims[m].out_stride = part * b->out_stride;
        ++m;
    }
    for (int d = k + batch; d < n; ++d) dims[m++] = p->dim[d];
    memset(L, 0, sizeof *L);
    L->kind = CUPERM_LAUNCH_WHOLE_DIMS;
    L->elem_size = elem;
    L->threads = CUPERM_THREADS;
    L->volume = cuperm_problem_volume(p);
    const int64_t volume = inner * part;
    cuperm_tile_params_init(&L->tile, dims, m, ns, ns, cuperm_log2_ceil(volume), 0, elem);
    cuperm_tile_params_t* t = &L->tile;
    t->a_volume = volume;
    t->a_tiles = 1;
    t->wd_split = split ? k : -1;
    t->split_extent = split ? b->extent : 0;
    for (int i = 0; i < k; ++i) t->wd_out_order[i] = (int8_t)out_order[i]; /* positions 0 .. k - 1 kept */
    if (batch) t->wd_out_order[k] = (int8_t)k;
    for (int i = 0, place = 1; i < ns; place *= (int)t->dim[i].extent, ++i) t->wd_place[i] = place;
    t->wd_span = gathered ? 2 : 1;
    t->span_inner = (int)inner;
    const int64_t cap = (int64_t)(dev->sm_count > 0 ? dev->sm_count : 1) * tt->span_blocks_per_sm;
    L->blocks = t->num_tiles < cap ? t->num_tiles : cap;
    L->smem_bytes = cuperm_whole_dims_smem_bytes(t, elem);
    return L->smem_bytes <= dev->smem_per_block; /* within the limit without opt-in */
}

/* The runs form's grid: every block resident at once, each walking its share of the tiles. The blocks an SM
 * are the tuning's where their shared memory fits (a block's 1 KB of reserve included: a grid of more blocks
 * an SM than fit runs the rest as a second wave), never past the kernel's bound. */
static int64_t runs_blocks_cap(const cuperm_device_info_t* dev, const cuperm_transpose_tuning_t* tt, int smem_bytes)
{
    int per_sm = tt->runs_blocks_per_sm < CUPERM_RUNS_MAX_BLOCKS_PER_SM ? tt->runs_blocks_per_sm
                                                                        : CUPERM_RUNS_MAX_BLOCKS_PER_SM;
    if (dev->smem_per_sm > 0) {
        const int fit = dev->smem_per_sm / (smem_bytes + 1024);
        if (fit < per_sm) per_sm = fit;
    }
    if (per_sm < 1) per_sm = 1;
    return (int64_t)(dev->sm_count > 0 ? dev->sm_count : 1) * per_sm;
}

/* Elements of a dimension's chunk that make its stride whole 16-byte granules on both sides. */
static int64_t granule_unit(const cuperm_dim_t* d, int elem)
{
    const int64_t ui = 16 / gcd16(d->in_stride * elem), uo = 16 / gcd16(d->out_stride * elem);
    return ui > uo ? ui : uo; /* powers of two: the larger is their lcm */
}

int cuperm_whole_dims_runs_launch(const cuperm_problem_t* p, int elem, const cuperm_device_info_t* dev,
                                  const cuperm_transpose_tuning_t* tt, cuperm_launch_t* L)
{
    const int n = p->rank;
    if (elem > 2 || elem > tt->runs_max_elem || n < 2) return 0; /* the kernel's gather table: 16 / elem entries */
    int in_order[CUPERM_MAX_RANK], out_order[CUPERM_MAX_RANK], in_tile[CUPERM_MAX_RANK] = {0};
    for (int d = 0; d < n; ++d) in_order[d] = d;
    output_order(p, out_order);
    const int64_t vmax = tt->runs_tile_bytes / elem, target = (tt->runs_run_bytes + elem - 1) / elem;
    int64_t volume = 1;
    /* The side whose run is shorter takes its next dimension, the other side's where that one does not
     * fit whole (4 x 21 x M x 7 perm 1,0,3,2: 7 joins 4 x 21 rather than M being cut), until both runs
     * are long or neither side's next dimension fits. */
    for (;;) {
        int open_in, open_out;
        const int64_t run_in = side_run(p, in_order, in_tile, 0, &open_in);
        const int64_t run_out = side_run(p, out_order, in_tile, 1, &open_out);
        const int grow[2] = {open_in && run_in < target, open_out && run_out < target};
        if (!grow[0] && !grow[1]) break;
        const int first = grow[1] && (!grow[0] || run_out < run_in);
        int added = 0;
        for (int k = 0; k < 2 && !added; ++k) {
            const int side = k ? !first : first;
            if (!grow[side]) continue;
            const int d = next_of(side ? out_order : in_order, n, in_tile);
            if (volume * p->dim[d].extent <= vmax) in_tile[d] = 1, volume *= p->dim[d].extent, added = 1;
        }
        if (!added) break;
    }
    /* Every tile's runs must start where the first tile's do: a dimension left out of the tile must be
     * whole granules apart on both sides. Those that are not join the tile; one that does not fit is
     * split, in chunks of whole granules. Then the tile fills with whole input dimensions, the first that
     * does not fit split where none is yet. */
    int split = -1;
    for (int i = 0; i < n; ++i) {
        const int d = in_order[i];
        if (in_tile[d] || granule_unit(&p->dim[d], elem) == 1) continue;
        if (volume * p->dim[d].extent <= vmax) in_tile[d] = 1, volume *= p->dim[d].extent;
        else if (split < 0) split = d;
        else return 0;
    }
    const int must_split = split >= 0; /* a misaligned dimension: else a split only grows the tile */
    for (int i = 0; i < n; ++i) {
        const int d = in_order[i];
        if (in_tile[d] || d == split) continue;
        if (volume * p->dim[d].extent > vmax) {
            if (split < 0) split = d;
            break;
        }
        in_tile[d] = 1;
        volume *= p->dim[d].extent;
    }
    int64_t part = 0;
    if (split >= 0) {
        const int64_t extent = p->dim[split].extent, unit = granule_unit(&p->dim[split], elem);
        part = vmax / volume / unit * unit;
        if (part < unit) part = unit;
        const int64_t chunks = (extent + part - 1) / part;
        part = ((extent + chunks - 1) / chunks + unit - 1) / unit * unit; /* even chunks, whole granules */
        /* A short last chunk goes element by element (34 = 20 + 14 in f16 4 x 34 x M x 38 perm 3,1,0,2 ran at
         * 10% of copy): where chunks are few, the whole dimension, or no split where none is needed. */
        int few = extent % part != 0 && (extent + part - 1) / part < tt->runs_min_chunks;
        for (int64_t d = part - unit; few && d >= unit; d -= unit) /* else the largest part that divides it */
            if (extent % d == 0) part = d, few = 0;
        if (part >= extent || (few && volume * extent <= 2 * vmax)) {
            in_tile[split] = 1, volume *= extent, split = -1;
        } else if (few) {
            if (must_split) return 0;
            split = -1;
        } else {
            in_tile[split] = 1, volume *= part;
        }
    }
    if (volume > UINT16_MAX || !whole_dims_tile(p, elem, in_tile, split, part, volume, out_order, L)) return 0;
    cuperm_tile_params_t* t = &L->tile;
    t->wd_span = 3;
    t->span_in_run = (int)cuperm_whole_dims_run(t, 0);
    t->span_out_run = (int)cuperm_whole_dims_run(t, 1);
    const cuperm_runs_layout_t lay = cuperm_runs_layout((int)volume, t->span_in_run, t->span_out_run, elem);
    /* a whole output granule at least; the input granules within the kernel's rounds of registers */
    if (t->span_out_run * elem < 16 || lay.R * lay.G > CUPERM_RUNS_MAX_READ_GRANULES) return 0;
    L->smem_bytes = lay.total;
    const int64_t cap = runs_blocks_cap(dev, tt, L->smem_bytes);
    L->blocks = t->num_tiles < cap ? t->num_tiles : cap;
    return L->smem_bytes <= dev->smem_per_block; /* within the limit without opt-in */
}

int cuperm_whole_dims_runs_preferred(const cuperm_launch_t* rules, const cuperm_launch_t* ru,
                                     const cuperm_transpose_tuning_t* tt)
{
    /* A scalar tile moves bytes a lane at a time; the runs form moves them by 16-byte vectors from runs of
     * tt->runs_rule_min_run_bytes or more (shorter ones read and write more partial granules than whole). */
    if (ru->kind != CUPERM_LAUNCH_WHOLE_DIMS || ru->tile.wd_span != 3 || rules->kind != CUPERM_LAUNCH_TILED ||
        rules->tile.vec_log2 || rules->elem_size > tt->runs_rule_max_elem)
        return 0;
    const int64_t min = (tt->runs_rule_min_run_bytes + ru->elem_size - 1) / ru->elem_size;
    /* each block fills its tables once (a division a table entry): with few tiles a block, that is most of
     * its work (16^6 bytes, 4 tiles a block: 1.2-2x the tiles' time; 19^6, 11: 0.76-0.84x) */
    const int enough_tiles = ru->tile.num_tiles >= (int64_t)tt->runs_rule_min_tiles_per_block * ru->blocks;
    /* a tile of a few hundred bytes is mostly barriers (28 x 28 bytes a tile: 2.5x the tiles' time) */
    const int big = ru->tile.a_volume * ru->elem_size >= tt->runs_rule_min_tile_bytes;
    if (ru->tile.span_in_run < min || ru->tile.span_out_run < min || !enough_tiles || !big) return 0;
    /* The runs form ran at 45-55% of copy where tiles ran at 30-55: it replaces tiles that leave most of
     * their slots or their warps' sectors idle (the share of slots filled times the lesser share of the
     * sectors a warp instruction touches that it uses), not those that fill both. */
    double in_eff, out_eff;
    cuperm_warp_efficiency(rules, &in_eff, &out_eff);
    return cuperm_tile_fill(rules) * (in_eff < out_eff ? in_eff : out_eff) <= tt->runs_rule_max_tile_eff;
}

int cuperm_whole_dims_span_preferred(const cuperm_launch_t* rules, const cuperm_launch_t* sp,
                                     const cuperm_transpose_tuning_t* tt)
{
    /* a vector launch moves 16 bytes an access already; a scalar one moves one element, and where a
     * side's run within the tile is short its accesses cannot coalesce into whole lines either (a
     * 2 x 256 tile of 2 x 62 bytes reads 512 contiguous bytes, a byte a thread) */
    if (sp->kind != CUPERM_LAUNCH_WHOLE_DIMS || !sp->tile.wd_span || rules->kind == CUPERM_LAUNCH_COPY ||
        rules->tile.vec_log2)
        return 0;
    if (sp->tile.a_volume * sp->elem_size < tt->span_min_tile_bytes) return 0;
    const double short_run = (double)tt->span_max_run_elems * rules->elem_size;
    cuperm_model_features_t f;
    cuperm_model_features(rules, &f);
    return f.in_run_bytes <= short_run || f.out_run_bytes <= short_run;
}

void cuperm_whole_dims_fit_device(cuperm_launch_t* L, const cuperm_device_info_t* dev, const cuperm_transpose_tuning_t* tt)
{
    if (L->kind != CUPERM_LAUNCH_WHOLE_DIMS) return;
    const int64_t cap = L->tile.wd_span == 3 ? runs_blocks_cap(dev, tt, L->smem_bytes)
                        : (int64_t)(dev->sm_count > 0 ? dev->sm_count : 1) *
                              (L->tile.wd_span ? tt->span_blocks_per_sm : tt->whole_dims_blocks_per_sm);
    if (L->blocks > cap) L->blocks = cap;
}

int cuperm_whole_dims_may_replace(const cuperm_launch_t* rules, const cuperm_transpose_tuning_t* tt)
{
    /* It moves one element per thread and access, no vectors: a warp moves 32 or 64 bytes of
     * 1- and 2-byte elements (TTC-57 at 1 byte: 21% of copy median; the 1- and 2-byte plans whose
     * runs are short: 2-3x the rules' time, bench/results/whole-dims-small-elements-h200-dropped/). */
    if (rules->kind == CUPERM_LAUNCH_COPY || rules->kind == CUPERM_LAUNCH_WHOLE_DIMS || rules->elem_size < 4) return 0;
    const double short_run = tt->whole_dims_short_run_bytes;
    /* the runs a tile covers, across its groups (15^6 f32 1,0,3,2,4,5: 60 bytes along A, 900 with
     * B's first dimension), where both sides stay within a block (every scalar tile since session 58;
     * a rows launch with a side past one goes by its features below, as before) */
    if (rules->kind == CUPERM_LAUNCH_TILED &&
        cuperm_tile_sides_within_block(rules->tile.tile_a_log2, rules->tile.tile_b_log2)) {
        /* a tile a short group left smaller than the standard one (4 x 256 f32) moves few elements a
         * thread per table build */
        const int64_t tile_elems = (int64_t)1 << (rules->tile.tile_a_log2 + rules->tile.tile_b_log2);
        if (!rules->tile.vec_log2 && tile_elems < (int64_t)CUPERM_THREADS * CUPERM_TILE_ITEMS(rules->elem_size) &&
            tile_elems <= (int64_t)tt->whole_dims_max_tile_items * CUPERM_THREADS)
            return 1;
        return (double)cuperm_tile_dense_run(rules, 0) * rules->elem_size < short_run &&
               (double)cuperm_tile_dense_run(rules, 1) * rules->elem_size < short_run;
    }
    cuperm_model_features_t f;
    cuperm_model_features(rules, &f);
    if (f.in_run_bytes >= short_run || f.out_run_bytes >= short_run) return 0;
    /* a rows tile whose warps read rows of 8 elements or more that fill most of their sectors (15^6
     * f32 0,2,1,3,4,5: 15 of 16, 68%) keeps its place; shorter rows (3-7 elements) do not */
    return rules->kind != CUPERM_LAUNCH_ROWS || rules->tile.tile_a_log2 < tt->whole_dims_rows_min_side_log2 ||
           f.in_sector_eff < tt->whole_dims_rows_min_read_eff;
}

int cuperm_whole_dims_preferred(const cuperm_launch_t* rules, const cuperm_launch_t* wd,
                                const cuperm_transpose_tuning_t* tt)
{
    if (wd->kind != CUPERM_LAUNCH_WHOLE_DIMS || !cuperm_whole_dims_may_replace(rules, tt)) return 0;
    cuperm_model_features_t w;
    cuperm_model_features(wd, &w);
    /* the tables a block builds once must be used for several tiles */
    const int enough_tiles = wd->tile.num_tiles >= (int64_t)tt->whole_dims_min_tiles_per_block * wd->blocks;
    return w.run_bytes >= tt->whole_dims_run_bytes / 2 && enough_tiles;
}
