#include "plan/transpose/model.h"

#include "core/index_math.h"
#include "plan/transpose/whole_dims.h"

#include <math.h>
#include <string.h>

_Static_assert((int)CUPERM_MODEL_CLASSES == (int)CUPERM_TRANSPOSE_MODEL_CLASSES,
               "the tuning tables hold one efficiency per model class");

/* Elements of group [begin, end) that lie contiguously on one side, from the
 * group's first dimension on, but no more than the tile covers. */
static int64_t contiguous_run(const cuperm_tile_params_t* t, int begin, int end, int output_side,
                              int64_t tile)
{
    int64_t run = 1;
    for (int d = begin; d < end && run < tile; ++d) {
        int64_t stride = output_side ? t->dim[d].out_stride : t->dim[d].in_stride;
        if (stride != run) break;
        run *= t->dim[d].extent;
    }
    return run < tile ? run : tile;
}

/* The largest power of two dividing every value OR-ed into bits (0 if none was nonzero):
 * the power-of-two part of their gcd, which is all that a gcd with 32 keeps. */
static int64_t low_bit(uint64_t bits) { return (int64_t)(bits & (~bits + 1)); }
static uint64_t magnitude(int64_t v) { return v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v; }

/* Mean number of 32-byte sectors that `bytes` consecutive bytes touch when they
 * start at a multiple of g bytes, every start modulo 32 equally likely. With
 * bytes - 1 = 32 q + r, a run from start s touches q + 1 sectors, one more when
 * s >= 32 - r: summed over the n = 32 / g starts in closed form (the same integer
 * sum the starts would add up to). */
static double run_sectors(int64_t bytes, int64_t g)
{
    if (bytes <= 0) return 0;
    g = g ? low_bit(magnitude(g)) : 32; /* gcd(g, 32) */
    if (g > 32) g = 32;
    const int64_t n = 32 / g, q = (bytes - 1) / 32, r = (bytes - 1) % 32;
    const int64_t late = n - (32 - r + g - 1) / g; /* starts at or past 32 - r */
    return (double)(n * (q + 1) + (late > 0 ? late : 0)) / (double)n;
}

/* One side's sector efficiency: the contiguous run of dims [begin, end) on that
 * side, cut every tile_side elements, starting on multiples of the other strides.
 * When the run covers the whole group and the tile holds all of it, the run goes
 * on into the other group's dims [obegin, oend) (the tile's rows lie back to
 * back), cut every volume * other_tile elements. */
static double side_efficiency(const cuperm_tile_params_t* t, int begin, int end, int obegin, int oend,
                              int output_side, int64_t tile_side, int64_t other_tile, int elem)
{
    int64_t run = 1, cut = tile_side;
    char in_run[CUPERM_MAX_RANK] = {0};
    int k = begin;
    for (; k < end; ++k) {
        const int64_t stride = output_side ? t->dim[k].out_stride : t->dim[k].in_stride;
        if (stride != run) break;
        run *= t->dim[k].extent;
        in_run[k] = 1;
    }
    if (k == begin) { /* not even the first dimension is contiguous: runs of one element */
        in_run[begin] = 1;
    } else if (k == end && run <= tile_side) {
        const int64_t group = run;
        for (int d = obegin; d < oend; ++d) {
            const int64_t stride = output_side ? t->dim[d].out_stride : t->dim[d].in_stride;
            if (stride != run) break;
            run *= t->dim[d].extent;
            in_run[d] = 1;
        }
        cut = group * other_tile;
    }
    /* Runs start on multiples of the other strides' gcd; only its power of two matters here
     * (run_sectors takes its gcd with 32), so the strides are OR-ed, not divided. */
    uint64_t bits = 0;
    for (int d = 0; d < t->rank; ++d)
        if (!in_run[d]) bits |= magnitude(output_side ? t->dim[d].out_stride : t->dim[d].in_stride);
    int64_t pieces = 1, piece = run, tail = 0;
    if (run > cut) {
        bits |= magnitude(cut);
        pieces = run / cut;
        piece = cut;
        tail = run % cut;
    }
    const int64_t g = low_bit(bits);
    const int64_t gb = g ? g * elem : 32;
    const double sectors = (double)pieces * run_sectors(piece * elem, gb) + run_sectors(tail * elem, gb);
    return (double)(run * elem) / (32.0 * sectors);
}

/* One side's sector efficiency of a ROW_TILES launch: runs of whole rows of the side's group, cut
 * every rt_side_a (input) or rt_side_b (output) indices, starting on multiples of the other strides
 * and of the cut. */
static double row_tile_side_efficiency(const cuperm_tile_params_t* t, int output_side, int elem)
{
    const int64_t n = t->dim[0].extent, vol = output_side ? t->b_volume : t->a_volume;
    const int64_t side = output_side ? t->rt_side_b : t->rt_side_a;
    const int begin = output_side ? t->a_end : 1, end = output_side ? t->b_end : t->a_end;
    uint64_t bits = magnitude(n * side);
    for (int d = 1; d < t->rank; ++d)
        if (d < begin || d >= end) bits |= magnitude(output_side ? t->dim[d].out_stride : t->dim[d].in_stride);
    const int64_t gb = low_bit(bits) * elem;
    const double sectors =
        (double)(vol / side) * run_sectors(n * side * elem, gb) + run_sectors(n * (vol % side) * elem, gb);
    return (double)(n * vol * elem) / (32.0 * sectors);
}

void cuperm_sector_efficiency(const cuperm_launch_t* l, double* in_eff, double* out_eff)
{
    const cuperm_tile_params_t* t = &l->tile;
    const int64_t ta = (int64_t)1 << t->tile_a_log2, tb = (int64_t)1 << t->tile_b_log2;
    *in_eff = *out_eff = 1;
    if (l->kind == CUPERM_LAUNCH_COPY) return;
    if (l->kind == CUPERM_LAUNCH_WHOLE_DIMS) { /* one side at a time, the tile's dimensions in that side's order */
        cuperm_tile_params_t o = *t;
        for (int i = 0; i < t->a_end; ++i) o.dim[i] = t->dim[t->wd_out_order[i]];
        const int64_t v = t->a_volume;
        *in_eff = side_efficiency(t, 0, t->a_end, t->a_end, t->a_end, 0, v, 1, l->elem_size);
        *out_eff = side_efficiency(&o, 0, t->a_end, t->a_end, t->a_end, 1, v, 1, l->elem_size);
        return;
    }
    if (l->kind == CUPERM_LAUNCH_ROW_TILES) {
        *in_eff = row_tile_side_efficiency(t, 0, l->elem_size);
        *out_eff = row_tile_side_efficiency(t, 1, l->elem_size);
        return;
    }
    if (l->kind == CUPERM_LAUNCH_ROWS) { /* dim 0 on both sides, then the rows (B) when a tile holds whole rows */
        *in_eff = side_efficiency(t, 0, t->a_end, t->a_end, t->b_end, 0, ta, tb, l->elem_size);
        *out_eff = side_efficiency(t, 0, t->a_end, t->a_end, t->b_end, 1, ta, tb, l->elem_size);
        return;
    }
    *in_eff = side_efficiency(t, 0, t->a_end, t->a_end, t->b_end, 0, ta, tb, l->elem_size);
    *out_eff = side_efficiency(t, t->a_end, t->b_end, 0, t->a_end, 1, tb, ta, l->elem_size);
}

/* Offsets on one side of indices 0, 1, ..., n - 1 of group [begin, end), by counting (no division:
 * the planner prices every tile launch this way). */
static void group_offsets_counted(const cuperm_tile_params_t* t, int begin, int end, int n, int output_side,
                                  int64_t* off)
{
    int64_t digit[CUPERM_MAX_RANK] = {0}, cur = 0;
    for (int i = 0; i < n; ++i) {
        off[i] = cur;
        for (int d = begin; d < end; ++d) {
            const int64_t stride = output_side ? t->dim[d].out_stride : t->dim[d].in_stride;
            if (++digit[d] < t->dim[d].extent) {
                cur += stride;
                break;
            }
            cur -= (t->dim[d].extent - 1) * stride;
            digit[d] = 0;
        }
    }
}

/* Sectors one warp instruction of a pass touches, over the fewest its bytes could touch. Lane l
 * takes index l mod 2^lx of its fast axis (x: the pass's contiguous group) and index
 * (l >> lx) * spacing of the other, as the tile kernels number their threads. */
static double warp_pass_efficiency(const cuperm_tile_params_t* t, int output_side, int elem, int spacing)
{
    const int fast_a = !output_side; /* reads run along A, writes along B */
    const int lx = fast_a ? t->tile_a_log2 : t->tile_b_log2;
    const int64_t vx = fast_a ? t->a_volume : t->b_volume, vy = fast_a ? t->b_volume : t->a_volume;
    const int xs = lx < 5 ? 1 << lx : 32, ys = 32 / xs; /* lanes along x, rows of lanes along y */
    const int nx = vx < xs ? (int)vx : xs;
    int64_t xoff[32], yoff[32], sectors[32];
    group_offsets_counted(t, fast_a ? 0 : t->a_end, fast_a ? t->a_end : t->b_end, nx, output_side, xoff);
    const int ybegin = fast_a ? t->a_end : 0, yend = fast_a ? t->b_end : t->a_end;
    cuperm_fastdiv_t div[CUPERM_MAX_RANK];
    for (int d = ybegin; d < yend; ++d) div[d] = cuperm_fastdiv_make(t->dim[d].extent);
    int ny = 0;
    for (; ny < ys && (int64_t)ny * spacing < vy; ++ny) { /* as the kernels build their tables */
        int64_t in_off, out_off;
        cuperm_group_offsets(t->dim, div, ybegin, yend, (int64_t)ny * spacing, &in_off, &out_off);
        yoff[ny] = output_side ? out_off : in_off;
    }
    int n = 0;
    for (int y = 0; y < ny; ++y)
        for (int x = 0; x < nx; ++x) {
            const int64_t s = (xoff[x] + yoff[y]) * elem >> 5;
            int seen = 0;
            for (int k = 0; k < n && !seen; ++k) seen = sectors[k] == s;
            if (!seen) sectors[n++] = s;
        }
    return n ? (double)((nx * ny * elem + 31) / 32) / (double)n : 1.0;
}

void cuperm_warp_efficiency(const cuperm_launch_t* l, double* in_eff, double* out_eff)
{
    if (in_eff) *in_eff = 1;
    *out_eff = 1;
    const cuperm_tile_params_t* t = &l->tile;
    if (l->kind != CUPERM_LAUNCH_TILED || t->vec_log2) return;
    /* move_tile_checked and move_tile_lean_spread (8 bytes and more) give a thread rows 1 apart,
     * move_tile_lean n apart */
    const int spacing = l->elem_size >= 8 ? 1 : CUPERM_TILE_ITEMS(l->elem_size);
    if (in_eff) *in_eff = warp_pass_efficiency(t, 0, l->elem_size, spacing);
    *out_eff = warp_pass_efficiency(t, 1, l->elem_size, spacing);
}

double cuperm_tile_fill(const cuperm_launch_t* l)
{
    if (l->kind == CUPERM_LAUNCH_COPY) return 1;
    const cuperm_tile_params_t* t = &l->tile;
    const double slots = l->kind == CUPERM_LAUNCH_WHOLE_DIMS ? (double)t->num_tiles * (double)t->a_volume
                         : l->kind == CUPERM_LAUNCH_ROW_TILES
                             ? (double)t->num_tiles * (double)t->dim[0].extent * t->rt_side_a * t->rt_side_b
                             : (double)t->num_tiles * (double)((int64_t)1 << t->tile_a_log2) *
                                   (double)((int64_t)1 << t->tile_b_log2);
    return (double)l->volume / slots;
}

double cuperm_tile_inner_fill(const cuperm_launch_t* l)
{
    if (l->kind != CUPERM_LAUNCH_TILED) return 1;
    const cuperm_tile_params_t* t = &l->tile;
    const double a = (double)t->a_volume / (double)((int64_t)1 << t->tile_a_log2),
                 b = (double)t->b_volume / (double)((int64_t)1 << t->tile_b_log2);
    return (a < 1 ? a : 1) * (b < 1 ? b : 1);
}

static int64_t dim_stride(const cuperm_dim_t* d, int output_side) { return output_side ? d->out_stride : d->in_stride; }

int64_t cuperm_tile_dense_run(const cuperm_launch_t* l, int output_side)
{
    const cuperm_tile_params_t* t = &l->tile;
    if (l->kind != CUPERM_LAUNCH_TILED && l->kind != CUPERM_LAUNCH_ROWS) {
        cuperm_model_features_t f;
        cuperm_model_features(l, &f);
        return (int64_t)((output_side ? f.out_run_bytes : f.in_run_bytes) / l->elem_size);
    }
    /* A tile spans the first 2^l indices of each group's linear index (first dimension fastest): on
     * one side, the group starting with the unit stride covers min(2^l, its dense prefix) consecutive
     * addresses; the other group continues them when its first dimension's stride is that run. */
    const int begin[2] = {0, t->a_end}, end[2] = {t->a_end, t->b_end};
    const int64_t span[2] = {t->a_volume < ((int64_t)1 << t->tile_a_log2) ? t->a_volume : (int64_t)1 << t->tile_a_log2,
                             t->b_volume < ((int64_t)1 << t->tile_b_log2) ? t->b_volume : (int64_t)1 << t->tile_b_log2};
    int first = -1;
    for (int g = 0; g < 2; ++g)
        if (end[g] > begin[g] && dim_stride(&t->dim[begin[g]], output_side) == 1) first = g;
    int64_t run = 1;
    for (int k = 0; k < 2 && first >= 0; ++k) {
        const int g = k ? 1 - first : first;
        if (end[g] == begin[g] || dim_stride(&t->dim[begin[g]], output_side) != run) break;
        int64_t dense = 1;
        for (int d = begin[g]; d < end[g] && dim_stride(&t->dim[d], output_side) == run * dense; ++d)
            dense *= t->dim[d].extent;
        run *= dense < span[g] ? dense : span[g];
    }
    return run;
}

/* Atoms a run of r bytes starting b bytes into an atom touches, and those it leaves partly written. */
static void run_atoms(int64_t b, int64_t r, int64_t atom, double* touched, double* partial)
{
    const int64_t last = (b + r - 1) / atom;
    *touched += (double)(last + 1);
    *partial += last == 0 ? (r < atom) : (b != 0) + ((b + r) % atom != 0);
}

static int64_t gcd64(int64_t a, int64_t b)
{
    while (b) {
        const int64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

enum { FOOTPRINT_ATOMS = 4096 }; /* the coverage counted where neighbouring runs may share atoms */

double cuperm_footprint_traffic(const int64_t* extents, const int64_t* strides, int n, int elem, int atom, int write)
{
    if (atom <= 0 || elem <= 0) return 1.0;
    int64_t e[CUPERM_MAX_RANK], s[CUPERM_MAX_RANK];
    int m = 0;
    for (int i = 0; i < n; ++i) { /* the dimensions that move, by stride (insertion) */
        if (extents[i] <= 1) continue;
        if (strides[i] <= 0) return 1.0;
        int k = m++;
        for (; k > 0 && s[k - 1] > strides[i]; --k) e[k] = e[k - 1], s[k] = s[k - 1];
        e[k] = extents[i], s[k] = strides[i];
    }
    int64_t run = 1;
    int j = 0;
    while (j < m && s[j] == run) run *= e[j++];
    if (j == m || s[j] < run) return 1.0; /* dense, or overlapping runs */
    const int64_t R = run * elem, S = s[j] * elem, A = atom;
    double touched = 0, partial = 0, bytes = 0;
    if (S - R >= A || R >= (int64_t)FOOTPRINT_ATOMS * A / 2) {
        /* no atom holds two runs (or runs so long that one shared atom is noise): run by run, over
         * one period of the starts modulo an atom */
        const int64_t period = A / gcd64(S % A ? S % A : A, A), k_end = e[j] < period ? e[j] : period;
        for (int64_t k = 0; k < k_end; ++k) run_atoms(k * S % A, R, A, &touched, &partial);
        bytes = (double)(k_end * R);
    } else { /* neighbours may share atoms: the first runs' coverage, atom by atom */
        int32_t cov[FOOTPRINT_ATOMS];
        int64_t k_end = ((int64_t)FOOTPRINT_ATOMS * A - R) / S + 1;
        if (k_end > e[j]) k_end = e[j];
        const int64_t atoms = ((k_end - 1) * S + R + A - 1) / A;
        memset(cov, 0, sizeof(int32_t) * (size_t)atoms);
        for (int64_t k = 0; k < k_end; ++k)
            for (int64_t b = k * S; b < k * S + R;) {
                const int64_t a = b / A, end = (a + 1) * A < k * S + R ? (a + 1) * A : k * S + R;
                cov[a] += (int32_t)(end - b);
                b = end;
            }
        for (int64_t a = 0; a < atoms; ++a) {
            touched += cov[a] > 0;
            partial += cov[a] > 0 && cov[a] < A;
        }
        bytes = (double)(k_end * R);
    }
    return (double)A * (touched + (write ? partial : 0)) / bytes;
}

double cuperm_launch_footprint(const cuperm_launch_t* l, int atom)
{
    if (l->kind == CUPERM_LAUNCH_COPY || atom <= 0) return 1.0;
    const cuperm_tile_params_t* t = &l->tile;
    int64_t ext[CUPERM_MAX_RANK], in[CUPERM_MAX_RANK], out[CUPERM_MAX_RANK];
    for (int d = 0; d < t->rank; ++d) ext[d] = t->dim[d].extent, in[d] = t->dim[d].in_stride, out[d] = t->dim[d].out_stride;
    return 0.5 * (cuperm_footprint_traffic(ext, in, t->rank, l->elem_size, atom, 0) +
                  cuperm_footprint_traffic(ext, out, t->rank, l->elem_size, atom, 1));
}

double cuperm_sector_cost(const cuperm_launch_t* l, const cuperm_transpose_tuning_t* tuning)
{
    double in_eff, out_eff;
    cuperm_sector_efficiency(l, &in_eff, &out_eff);
    const double w = tuning->sector_write_weight;
    return (1.0 / in_eff + w / out_eff) / (1.0 + w) / pow(cuperm_tile_fill(l), tuning->sector_fill_exponent);
}

void cuperm_model_features(const cuperm_launch_t* l, cuperm_model_features_t* f)
{
    cuperm_sector_efficiency(l, &f->in_sector_eff, &f->out_sector_eff);
    f->bytes = 2.0 * (double)l->volume * l->elem_size;
    const cuperm_tile_params_t* t = &l->tile;
    const int64_t ta = (int64_t)1 << t->tile_a_log2, tb = (int64_t)1 << t->tile_b_log2;
    int64_t in = 0, out = 0, tile = ta * tb; /* elements of a tile */
    switch (l->kind) {
    case CUPERM_LAUNCH_COPY:
        f->cls = CUPERM_MODEL_COPY;
        f->run_bytes = f->in_run_bytes = f->out_run_bytes = (double)l->volume * l->elem_size;
        f->tile_bytes = f->tiles = 0;
        f->fill = 1;
        return;
    case CUPERM_LAUNCH_ROWS:
        f->cls = t->vec_log2 ? CUPERM_MODEL_ROWS_VEC : CUPERM_MODEL_ROWS;
        in = contiguous_run(t, 0, t->a_end, 0, ta);
        out = contiguous_run(t, 0, t->a_end, 1, ta);
        break;
    case CUPERM_LAUNCH_TILED:
        f->cls = t->vec_log2 ? CUPERM_MODEL_TILED_VEC : CUPERM_MODEL_TILED;
        in = contiguous_run(t, 0, t->a_end, 0, ta);
        out = contiguous_run(t, t->a_end, t->b_end, 1, tb);
        break;
    case CUPERM_LAUNCH_ROW_TILES: /* priced as a scalar tile (no fitted class of its own yet) */
        f->cls = CUPERM_MODEL_TILED;
        in = t->dim[0].extent * t->rt_side_a;
        out = t->dim[0].extent * t->rt_side_b;
        tile = t->dim[0].extent * t->rt_side_a * t->rt_side_b;
        break;
    case CUPERM_LAUNCH_WHOLE_DIMS: /* priced as a scalar tile (no fitted class of its own yet) */
        f->cls = CUPERM_MODEL_TILED;
        in = cuperm_whole_dims_run(t, 0);
        out = cuperm_whole_dims_run(t, 1);
        tile = t->a_volume;
        break;
    }
    f->in_run_bytes = (double)in * l->elem_size;
    f->out_run_bytes = (double)out * l->elem_size;
    f->run_bytes = f->in_run_bytes < f->out_run_bytes ? f->in_run_bytes : f->out_run_bytes;
    f->tile_bytes = (double)tile * l->elem_size;
    f->tiles = (double)t->num_tiles;
    f->fill = cuperm_tile_fill(l);
}

double cuperm_model_seconds(const cuperm_model_features_t* f, double peak, const cuperm_transpose_tuning_t* tuning)
{
    double run = f->run_bytes / tuning->model_run_bytes;
    double shape = run >= 1.0 ? 1.0 : pow(run, tuning->model_gamma);
    return tuning->model_t0 + f->bytes / (peak * tuning->model_efficiency[f->cls] * shape);
}

double cuperm_model_floor_rate(double peak, const cuperm_transpose_tuning_t* tuning)
{
    double best = 0.0;
    for (int c = 0; c < CUPERM_MODEL_CLASSES; ++c)
        if (tuning->model_efficiency[c] > best) best = tuning->model_efficiency[c];
    return peak * best;
}
