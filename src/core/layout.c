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

static int dim_before(const cuperm_dim_t* a, const cuperm_dim_t* b)
{
    if (a->in_stride != b->in_stride) return a->in_stride < b->in_stride;
    return a->out_stride < b->out_stride;
}

void cuperm_problem_canonicalize(cuperm_problem_t* p)
{
    /* Unit extents contribute no offset: drop them. */
    int n = 0;
    for (int d = 0; d < p->rank; ++d)
        if (p->dim[d].extent != 1) p->dim[n++] = p->dim[d];
    if (n == 0) {
        p->rank = 1;
        p->dim[0] = (cuperm_dim_t){1, 1, 1};
        return;
    }

    /* Insertion sort: stable, and ranks are small. */
    for (int i = 1; i < n; ++i) {
        cuperm_dim_t x = p->dim[i];
        int j = i;
        for (; j > 0 && dim_before(&x, &p->dim[j - 1]); --j) p->dim[j] = p->dim[j - 1];
        p->dim[j] = x;
    }

    /* Fuse d+1 into d when stepping off the end of d lands on d+1 on both sides. */
    int m = 0;
    for (int d = 1; d < n; ++d) {
        cuperm_dim_t* f = &p->dim[m];
        const cuperm_dim_t* g = &p->dim[d];
        if (g->in_stride == f->in_stride * f->extent && g->out_stride == f->out_stride * f->extent)
            f->extent *= g->extent;
        else
            p->dim[++m] = *g;
    }
    p->rank = m + 1;
}

int64_t cuperm_problem_volume(const cuperm_problem_t* p)
{
    int64_t v = 1;
    for (int d = 0; d < p->rank; ++d) v *= p->dim[d].extent;
    return v;
}

int cuperm_problem_out_fastest(const cuperm_problem_t* p)
{
    int best = 0;
    for (int d = 1; d < p->rank; ++d)
        if (p->dim[d].out_stride < p->dim[best].out_stride) best = d;
    return best;
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

int cuperm_problem_pack(const cuperm_problem_t* p, int elem, cuperm_problem_t* packed, int* packed_elem)
{
    const cuperm_dim_t* d0 = &p->dim[0];
    const int64_t bytes = d0->extent * elem;
    if (p->rank < 2 || d0->in_stride != 1 || d0->out_stride != 1 || d0->extent < 2 || bytes > 16 ||
        (bytes & (bytes - 1)))
        return 0;
    packed->rank = p->rank - 1;
    for (int d = 1; d < p->rank; ++d) {
        const cuperm_dim_t* g = &p->dim[d];
        if (g->in_stride % d0->extent || g->out_stride % d0->extent) return 0;
        packed->dim[d - 1] = (cuperm_dim_t){g->extent, g->in_stride / d0->extent, g->out_stride / d0->extent};
    }
    cuperm_problem_canonicalize(packed);
    *packed_elem = (int)bytes;
    return 1;
}
