#include "plan/transpose/row_tiles.h"

#include <string.h>

#include "core/index_math.h"

static int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }
static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

/* The chunk size of at most cap that cuts v indices most evenly: ceil(v / k) for the fewest chunks
 * k that fit cap, so the last tile falls short of the others by less than k indices. */
static int64_t even_chunk(int64_t v, int64_t cap) { return cap >= v ? v : ceil_div(v, ceil_div(v, cap)); }

/* What a run of this many bytes is worth against a long one: a line (128 bytes) less. A run of one
 * row is what the rows launch leaves; a side that short is the case the tile exists to avoid. */
static double run_share(double bytes) { return bytes / (bytes + 128.0); }

/* Log2 of the widest vector, of at most 16 bytes, that fits the row (cuperm_dims_vectors_fit): with
 * pointers aligned to it (the launcher checks) each vector the kernel moves is contiguous and aligned
 * on both sides and in shared memory, where rows start whole vectors apart (cuperm_row_tile_stride)
 * in a 16-byte-aligned tile. */
static int row_vec_log2(const cuperm_dim_t* dims, int rank, int elem)
{
    int lv = 0;
    while ((elem << (lv + 1)) <= 16) ++lv;
    while (lv > 0 && !cuperm_dims_vectors_fit(dims, rank, 0, 0, (int64_t)1 << lv)) --lv;
    return lv;
}

/* A tile side may not pass a block's threads, nor its rows 256: the tables stay within 12 KB. */
#define SIDE_MAX CUPERM_THREADS
#define ROWS_MAX 256

int cuperm_row_tiles_launch(const cuperm_problem_t* p, int elem, int64_t max_row_bytes,
                            const cuperm_transpose_tuning_t* tt, cuperm_launch_t* L)
{
    const int rank = p->rank;
    if (tt->row_tiles_tile_bytes <= 0 || rank < 3 || (elem != 4 && elem != 8 && elem != 16)) return 0;
    if (cuperm_problem_out_fastest(p) != 0 || p->dim[0].in_stride != 1 || p->dim[0].out_stride != 1) return 0;
    const int64_t n = p->dim[0].extent, rows_max = min64(tt->row_tiles_tile_bytes / elem / n, ROWS_MAX);
    if (n < 2 || n * elem >= max_row_bytes || rows_max < 4) return 0;

    /* canonical: dims in input order; the output's order of dims 1.. by insertion */
    int out_order[CUPERM_MAX_RANK];
    for (int d = 1, m = 0; d < rank; ++d, ++m) {
        int j = m;
        for (; j > 0 && p->dim[out_order[j - 1]].out_stride > p->dim[d].out_stride; --j) out_order[j] = out_order[j - 1];
        out_order[j] = d;
    }
    int group[CUPERM_MAX_RANK] = {0}; /* 1: A, 2: B */
    int64_t va = 1, vb = 1;
    for (int d = 1; d < rank && d != out_order[0] && va < rows_max && p->dim[d].in_stride == n * va; ++d)
        group[d] = 1, va *= p->dim[d].extent;
    for (int i = 0; i < rank - 1; ++i) {
        const int d = out_order[i];
        if (group[d] || vb >= rows_max || p->dim[d].out_stride != n * vb) break;
        group[d] = 2, vb *= p->dim[d].extent;
    }
    if (va < 2 || vb < 2) return 0;

    /* The sides: the most rows a tile holds on average (tail tiles count short), weighted by each
     * side's run against a line (run_share); on a tie the longer B side (the writes). */
    int64_t sa = 0, sb = 0;
    double best = 0;
    for (int64_t c = min64(min64(va, rows_max), SIDE_MAX); c >= 1; --c) {
        if (even_chunk(va, c) != c) continue;
        const int64_t b = even_chunk(vb, min64(rows_max / c, SIDE_MAX));
        const double rows = (double)va * (double)vb / ((double)ceil_div(va, c) * (double)ceil_div(vb, b));
        const double score = rows * run_share((double)(n * c * elem)) * run_share((double)(n * b * elem));
        if (score > best * (1 + 1e-9) || (score >= best * (1 - 1e-9) && b > sb)) best = score, sa = c, sb = b;
    }
    if (sa < 1 || sb < 1) return 0;

    cuperm_dim_t dims[CUPERM_MAX_RANK];
    int k = 0;
    dims[k++] = p->dim[0];
    for (int d = 1; d < rank; ++d)
        if (group[d] == 1) dims[k++] = p->dim[d];
    const int a_end = k;
    for (int i = 0; i < rank - 1; ++i)
        if (group[out_order[i]] == 2) dims[k++] = p->dim[out_order[i]];
    const int b_end = k;
    int64_t outer = 1;
    for (int d = 1; d < rank; ++d)
        if (!group[d]) dims[k++] = p->dim[d], outer *= p->dim[d].extent;

    memset(L, 0, sizeof *L);
    L->kind = CUPERM_LAUNCH_ROW_TILES;
    L->elem_size = elem;
    L->threads = CUPERM_THREADS;
    L->volume = cuperm_problem_volume(p);
    cuperm_tile_params_t* t = &L->tile;
    t->rank = rank;
    t->a_end = a_end;
    t->b_end = b_end;
    memcpy(t->dim, dims, (size_t)rank * sizeof *dims);
    t->wd_split = -1;
    t->a_volume = va;
    t->b_volume = vb;
    t->rt_side_a = (int)sa;
    t->rt_side_b = (int)sb;
    t->a_tiles = ceil_div(va, sa);
    t->b_tiles = ceil_div(vb, sb);
    t->num_tiles = t->a_tiles * t->b_tiles * outer;
    t->smem_row = cuperm_row_tile_stride((int)n, (int)sa, elem);
    t->vec_log2 = row_vec_log2(dims, rank, elem);
    L->blocks = t->num_tiles < 0x7fffffff ? t->num_tiles : 0x7fffffff;
    L->smem_bytes = cuperm_row_tile_smem_bytes(t, elem);
    return 1;
}
