#include "common/cases.h"

#include "support/reference.h"

void case_random_strides(rng_t* r, int rank, const int64_t* ext, int64_t pad, int64_t* strides)
{
    int order[CUPERM_MAX_RANK];
    rng_permutation(r, rank, order);
    /* Sometimes even the fastest dimension is strided; about two dimensions
     * are padded, so the span stays a small multiple of the volume. */
    int64_t s = rng_range(r, 1, 2);
    for (int k = 0; k < rank; ++k) {
        int d = order[k];
        strides[d] = s;
        s *= ext[d] + (rng_range(r, 0, rank - 1) < 2 ? rng_range(r, 0, pad) : 0);
    }
}

void case_random(rng_t* r, test_case_t* c, int min_rank, int max_rank, int64_t max_volume,
                 int strided)
{
    c->rank = (int)rng_range(r, min_rank, max_rank);
    int64_t vol = 1;
    for (int d = 0; d < c->rank; ++d) c->extents[d] = 1;
    /* Grow random dimensions while the volume allows: ranks above ~20 keep many 1s and 2s. */
    for (int tries = 0; tries < 4 * c->rank; ++tries) {
        int d = (int)rng_range(r, 0, c->rank - 1);
        int64_t grow = rng_range(r, 2, rng_range(r, 0, 3) == 0 ? 97 : 13);
        if (vol / c->extents[d] * (c->extents[d] * grow) > max_volume) continue;
        vol = vol / c->extents[d] * (c->extents[d] * grow);
        c->extents[d] *= grow;
    }
    rng_permutation(r, c->rank, c->perm);
    c->has_in_strides = strided && rng_range(r, 0, 1);
    c->has_out_strides = strided && rng_range(r, 0, 1);
    if (c->has_in_strides) case_random_strides(r, c->rank, c->extents, 3, c->in_strides);
    if (c->has_out_strides) {
        int64_t out_ext[CUPERM_MAX_RANK];
        for (int k = 0; k < c->rank; ++k) out_ext[k] = c->extents[c->perm[k]];
        case_random_strides(r, c->rank, out_ext, 3, c->out_strides);
    }
}

int64_t case_volume(const test_case_t* c)
{
    int64_t v = 1;
    for (int d = 0; d < c->rank; ++d) v *= c->extents[d];
    return v;
}

int64_t case_in_span(const test_case_t* c)
{
    return ref_span(c->rank, c->extents, c->has_in_strides ? c->in_strides : NULL);
}

int64_t case_out_span(const test_case_t* c)
{
    int64_t out_ext[CUPERM_MAX_RANK];
    for (int k = 0; k < c->rank; ++k) out_ext[k] = c->extents[c->perm[k]];
    return ref_span(c->rank, out_ext, c->has_out_strides ? c->out_strides : NULL);
}

static void print_list(FILE* f, const char* name, int n, const int64_t* v)
{
    fprintf(f, " %s=", name);
    for (int i = 0; i < n; ++i) fprintf(f, "%s%lld", i ? "," : "", (long long)v[i]);
}

void case_print(FILE* f, const test_case_t* c)
{
    int64_t p[CUPERM_MAX_RANK];
    for (int i = 0; i < c->rank; ++i) p[i] = c->perm[i];
    fprintf(f, "rank=%d", c->rank);
    print_list(f, "extents", c->rank, c->extents);
    print_list(f, "perm", c->rank, p);
    if (c->has_in_strides) print_list(f, "inStrides", c->rank, c->in_strides);
    if (c->has_out_strides) print_list(f, "outStrides", c->rank, c->out_strides);
    fprintf(f, "\n");
}

test_case_t case_from_shape(const test_shape_t* s)
{
    test_case_t c = {0};
    c.rank = s->rank;
    for (int d = 0; d < s->rank; ++d) {
        c.extents[d] = s->e[d];
        c.perm[d] = s->p[d];
    }
    return c;
}
