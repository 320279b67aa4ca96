#include "core/layout.h"

#include <string.h>

void cuperm_dense_strides(int rank, const int64_t* extents, int64_t* strides)
{
    int64_t s = 1;
    for (int d = 0; d < rank; ++d) {
        strides[d] = s;
        s *= extents[d];
    }
}

void cuperm_problem_init(cuperm_problem_t* p, int rank, const int64_t* extents, const int* perm,
                         const int64_t* in_strides, const int64_t* out_strides)
{
    int64_t in_dense[CUPERM_MAX_RANK], out_extents[CUPERM_MAX_RANK], out_dense[CUPERM_MAX_RANK];
    for (int r = 0; r < rank; ++r) out_extents[r] = extents[perm[r]];
    cuperm_dense_strides(rank, extents, in_dense);
    cuperm_dense_strides(rank, out_extents, out_dense);
    if (!in_strides) in_strides = in_dense;
    if (!out_strides) out_strides = out_dense;

    memset(p, 0, sizeof *p);
    p->rank = rank;
    for (int d = 0; d < rank; ++d) {
        p->dim[d].extent = extents[d];
        p->dim[d].in_stride = in_strides[d];
    }
    for (int r = 0; r < rank; ++r) p->dim[perm[r]].out_stride = out_strides[r];
}

/* Orders p's dimensions by one side's stride (the other's breaks ties, then the original
 * position), then drops unit extents (they contribute no offset) and fuses neighbours
 * contiguous on both sides. */
static void canonicalize_by(cuperm_problem_t* p, int by_output)
{
    int64_t in[CUPERM_MAX_RANK] = {0}, out[CUPERM_MAX_RANK] = {0};
    int order[CUPERM_MAX_RANK];
    cuperm_problem_t src = *p;
    for (int d = 0; d < p->rank; ++d) {
        in[d] = p->dim[d].in_stride;
        out[d] = p->dim[d].out_stride;
        order[d] = d;
    }
    cuperm_sort_by_key(order, p->rank, by_output ? out : in, by_output ? in : out);
    for (int d = 0; d < p->rank; ++d) p->dim[d] = src.dim[order[d]];
    p->rank = cuperm_dims_fuse((int64_t*)p->dim, CUPERM_DIM_PITCH, 2, p->rank);
    if (p->rank == 0) {
        p->rank = 1;
        p->dim[0] = (cuperm_dim_t){1, 1, 1};
    }
}

void cuperm_problem_canonicalize(cuperm_problem_t* p)
{
    canonicalize_by(p, 0);
}

void cuperm_problem_by_output(cuperm_problem_t* p)
{
    canonicalize_by(p, 1);
}

int64_t cuperm_problem_volume(const cuperm_problem_t* p)
{
    int64_t v = 1;
    for (int d = 0; d < p->rank; ++d) v *= p->dim[d].extent;
    return v;
}

int cuperm_dims_vectors_fit(const cuperm_dim_t* dims, int n, int in_first, int out_first, int64_t v)
{
    if (dims[in_first].in_stride != 1 || dims[in_first].extent % v) return 0;
    if (dims[out_first].out_stride != 1 || dims[out_first].extent % v) return 0;
    for (int d = 0; d < n; ++d) {
        if (d != in_first && dims[d].in_stride % v) return 0;
        if (d != out_first && dims[d].out_stride % v) return 0;
    }
    return 1;
}

int cuperm_problem_out_fastest(const cuperm_problem_t* p)
{
    int best = 0;
    for (int d = 1; d < p->rank; ++d)
        if (p->dim[d].out_stride < p->dim[best].out_stride) best = d;
    return best;
}

int64_t cuperm_max_offset(int n, const int64_t* extents, const int64_t* strides)
{
    int64_t m = 0;
    for (int d = 0; d < n; ++d) m += (extents[d] - 1) * strides[d];
    return m;
}

int cuperm_fused_prefix(int n, const int64_t* extents, const int64_t* strides)
{
    int k = 1;
    while (k < n && strides[k] == strides[k - 1] * extents[k - 1]) ++k;
    return n < 1 ? 0 : k;
}

int cuperm_dims_fuse(int64_t* rec, int pitch, int views, int n)
{
    int m = -1;
    for (int d = 0; d < n; ++d) {
        const int64_t* g = rec + (size_t)d * (size_t)pitch;
        if (g[0] == 1) continue;
        int64_t* f = rec + (size_t)(m < 0 ? 0 : m) * (size_t)pitch;
        int fuses = m >= 0;
        for (int v = 1; v <= views && fuses; ++v) fuses = g[v] == f[v] * f[0];
        if (fuses) {
            f[0] *= g[0];
        } else {
            ++m;
            memmove(rec + (size_t)m * (size_t)pitch, g, sizeof(int64_t) * (size_t)pitch);
        }
    }
    return m + 1;
}

void cuperm_offset_table(int n, const int64_t* extents, const int64_t* strides, int64_t* table)
{
    /* Dimension by dimension: the table of the first d dimensions, repeated once per index of
     * dimension d with its offset added (add loops the compiler vectorizes; no division). */
    for (int d = 0; d < n; ++d)
        if (extents[d] < 1) return; /* no entries */
    int64_t filled = 1;
    table[0] = 0;
    for (int d = 0; d < n; ++d) {
        for (int64_t i = 1; i < extents[d]; ++i) {
            int64_t* to = table + i * filled;
            const int64_t add = i * strides[d];
            for (int64_t j = 0; j < filled; ++j) to[j] = table[j] + add;
        }
        filled *= extents[d];
    }
}

void cuperm_sort_by_key(int* order, int n, const int64_t* key, const int64_t* tie)
{
    for (int i = 1; i < n; ++i) { /* insertion sort: groups are small */
        const int x = order[i];
        int j = i;
        for (; j > 0; --j) {
            const int y = order[j - 1];
            const int before = key[x] != key[y]                  ? key[x] < key[y]
                               : tie && tie[x] != tie[y]         ? tie[x] < tie[y]
                                                                 : x < y;
            if (!before) break;
            order[j] = y;
        }
        order[j] = x;
    }
}

int64_t cuperm_problem_max_in_offset(const cuperm_problem_t* p)
{
    int64_t m = 0;
    for (int d = 0; d < p->rank; ++d) m += (p->dim[d].extent - 1) * p->dim[d].in_stride;
    return m;
}

int64_t cuperm_problem_max_out_offset(const cuperm_problem_t* p)
{
    int64_t m = 0;
    for (int d = 0; d < p->rank; ++d) m += (p->dim[d].extent - 1) * p->dim[d].out_stride;
    return m;
}

int cuperm_problem_pack(const cuperm_problem_t* p, int elem, int partial, cuperm_problem_t* packed, int* packed_elem)
{
    const cuperm_dim_t* d0 = &p->dim[0];
    if (p->rank < 2 || d0->in_stride != 1 || d0->out_stride != 1 || d0->extent < 2) return 0;
    /* a elements of dimension 0 per wide element: all of them when they make a power of two of
     * at most 16 bytes, else the largest power of two dividing the extent below 16 bytes (where
     * 16 would divide it, the rows kernel moves 16-byte vectors of its own). */
    int64_t a = d0->extent;
    if (a * elem > 16 || ((a * elem) & (a * elem - 1))) {
        if (!partial) return 0;
        a = 1;
        while (d0->extent % (2 * a) == 0 && 2 * a * elem <= 16) a *= 2;
        if (a < 2 || a * elem == 16) return 0;
    }
    const int whole = a == d0->extent; /* dimension 0 disappears into the element */
    packed->rank = whole ? p->rank - 1 : p->rank;
    if (!whole) packed->dim[0] = (cuperm_dim_t){d0->extent / a, 1, 1};
    for (int d = 1; d < p->rank; ++d) {
        const cuperm_dim_t* g = &p->dim[d];
        if (g->in_stride % a || g->out_stride % a) return 0;
        packed->dim[d - whole] = (cuperm_dim_t){g->extent, g->in_stride / a, g->out_stride / a};
    }
    cuperm_problem_canonicalize(packed);
    *packed_elem = (int)(a * elem);
    return 1;
}
