/* Block arithmetic of distributed tensors (see layout.h). */
#include "dist/layout.h"

#include <string.h>

#include "core/error.h"
#include "core/layout.h"

#define INVALID CUPERM_STATUS_INVALID_VALUE

cupermStatus_t cuperm_dist_layout_init(cuperm_dist_layout_t* l, const cupermDistTensorDescriptor_t* d,
                                       int comm_size, const char* name)
{
    if (!d) return cuperm_fail(INVALID, "%s is NULL (it must point to a cupermDistTensorDescriptor_t)", name);
    memset(l, 0, sizeof *l);
    if (comm_size < 1) return cuperm_fail(INVALID, "%s: the communicator size %d is not >= 1", name, comm_size);
    if (d->rank < 1 || d->rank > CUPERM_MAX_RANK)
        return cuperm_fail(INVALID, "%s->rank = %d is not in 1..%d", name, d->rank, CUPERM_MAX_RANK);
    if (!d->extents) return cuperm_fail(INVALID, "%s->extents is NULL", name);
    l->rank = d->rank;
    for (int m = 0; m < d->rank; ++m) {
        if (d->extents[m] < 1)
            return cuperm_fail(INVALID, "%s->extents[%d] = %lld is not >= 1", name, m, (long long)d->extents[m]);
        l->extents[m] = d->extents[m];
        l->grid_of_mode[m] = -1;
    }
    l->type = d->type;
    l->elem_size = (int)cupermDataTypeSize(d->type);
    if (!l->elem_size) return cuperm_fail(INVALID, "%s->type = %d is not a cupermDataType_t", name, (int)d->type);
    if (d->gridRank < 1 || d->gridRank > d->rank)
        return cuperm_fail(INVALID, "%s->gridRank = %d is not in 1..rank (%d): name the distributed modes "
                           "(a tensor on one rank has gridRank 1 and gridDims {1})", name, d->gridRank, d->rank);
    if (!d->distModes) return cuperm_fail(INVALID, "%s->distModes is NULL", name);
    if (!d->gridDims) return cuperm_fail(INVALID, "%s->gridDims is NULL", name);
    l->grid_rank = d->gridRank;
    int64_t procs = 1;
    for (int g = 0; g < d->gridRank; ++g) {
        const int m = d->distModes[g];
        if (m < 0 || m >= d->rank)
            return cuperm_fail(INVALID, "%s->distModes[%d] = %d is not a mode (0..%d)", name, g, m, d->rank - 1);
        if (l->grid_of_mode[m] >= 0)
            return cuperm_fail(INVALID, "%s->distModes[%d] = %d repeats distModes[%d]: modes must be distinct",
                               name, g, m, l->grid_of_mode[m]);
        l->grid_of_mode[m] = g;
        l->modes[g] = m;
        if (d->gridDims[g] < 1)
            return cuperm_fail(INVALID, "%s->gridDims[%d] = %d is not >= 1", name, g, d->gridDims[g]);
        l->grid[g] = d->gridDims[g];
        procs *= d->gridDims[g];
        if (procs > comm_size) break;
    }
    if (procs != comm_size)
        return cuperm_fail(INVALID, "%s->gridDims: the process grid has %s%lld ranks but the communicator has %d "
                           "(their product must equal ncclCommCount)", name, procs > comm_size ? "more than " : "",
                           (long long)procs, comm_size);
    for (int g = 0; g < d->gridRank; ++g) {
        const int64_t n = l->extents[l->modes[g]], p = l->grid[g];
        const int64_t least = (n + p - 1) / p;
        if (!d->blockSizes) {
            l->block[g] = least;
            continue;
        }
        const int64_t b = d->blockSizes[g];
        if (b < 1) return cuperm_fail(INVALID, "%s->blockSizes[%d] = %lld is not >= 1", name, g, (long long)b);
        if (b < least)
            return cuperm_fail(INVALID, "%s->blockSizes[%d] = %lld is too small: %d ranks of blocks of %lld do not "
                               "cover extent %lld of mode %d (the rule: blockSizes[g] * gridDims[g] >= extent, "
                               "so at least %lld)", name, g, (long long)b, (int)p, (long long)b, (long long)n,
                               l->modes[g], (long long)least);
        l->block[g] = b;
    }
    l->comm_size = comm_size;
    if (d->localStrides) {
        l->has_strides = 1;
        for (int m = 0; m < d->rank; ++m) {
            if (d->localStrides[m] < 1)
                return cuperm_fail(INVALID, "%s->localStrides[%d] = %lld is not >= 1", name, m,
                                   (long long)d->localStrides[m]);
            l->strides[m] = d->localStrides[m];
        }
    }
    return CUPERM_STATUS_SUCCESS;
}

int cuperm_dist_coord(const cuperm_dist_layout_t* l, int r, int g)
{
    int below = 1;
    for (int i = 0; i < g; ++i) below *= l->grid[i];
    return (r / below) % l->grid[g];
}

static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }
static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }

int64_t cuperm_dist_owned(const cuperm_dist_layout_t* l, int r, cuperm_dist_box_t* box)
{
    int64_t vol = 1;
    for (int m = 0; m < l->rank; ++m) {
        const int g = l->grid_of_mode[m];
        if (g < 0) {
            box->lo[m] = 0;
            box->hi[m] = l->extents[m];
        } else {
            const int64_t c = cuperm_dist_coord(l, r, g);
            box->lo[m] = min64(c * l->block[g], l->extents[m]);
            box->hi[m] = min64((c + 1) * l->block[g], l->extents[m]);
        }
        vol *= box->hi[m] - box->lo[m];
    }
    for (int g = 0; g < l->grid_rank && vol; ++g) {
        const int64_t n = l->replicated_extent[g], c = cuperm_dist_coord(l, r, g);
        if (n && c * l->block[g] >= n) { /* the other tensor's block along g is empty */
            for (int m = 0; m < l->rank; ++m) box->hi[m] = box->lo[m];
            vol = 0;
        }
    }
    return vol;
}

void cuperm_dist_local_strides(const cuperm_dist_layout_t* l, int r, int64_t* strides)
{
    if (l->has_strides) {
        memcpy(strides, l->strides, sizeof(int64_t) * (size_t)l->rank);
        return;
    }
    cuperm_dist_box_t own;
    cuperm_dist_owned(l, r, &own);
    int64_t extents[CUPERM_MAX_RANK] = {0}; /* zeroed for gcc, which cannot see the loop fill it */
    for (int m = 0; m < l->rank; ++m) extents[m] = max64(own.hi[m] - own.lo[m], 1); /* empty: strides stay positive */
    cuperm_dense_strides(l->rank, extents, strides);
}

int64_t cuperm_dist_local_span(const cuperm_dist_layout_t* l, int r)
{
    cuperm_dist_box_t own;
    if (!cuperm_dist_owned(l, r, &own)) return 0;
    int64_t strides[CUPERM_MAX_RANK], extents[CUPERM_MAX_RANK];
    cuperm_dist_local_strides(l, r, strides);
    for (int m = 0; m < l->rank; ++m) extents[m] = own.hi[m] - own.lo[m];
    return 1 + cuperm_max_offset(l->rank, extents, strides);
}

int64_t cuperm_dist_exchange_box(const cuperm_dist_layout_t* in, int s, const cuperm_dist_layout_t* out, int d,
                                 const int* perm, cuperm_dist_box_t* box)
{
    cuperm_dist_box_t a, b;
    cuperm_dist_owned(in, s, &a);
    cuperm_dist_owned(out, d, &b);
    int64_t vol = 1;
    for (int r = 0; r < out->rank; ++r) {
        const int m = perm[r];
        box->lo[m] = max64(a.lo[m], b.lo[r]);
        box->hi[m] = max64(box->lo[m], min64(a.hi[m], b.hi[r]));
    }
    for (int m = 0; m < in->rank; ++m) vol *= box->hi[m] - box->lo[m];
    return vol;
}

void cuperm_dist_operand_layout(const cuperm_dist_layout_t* d, const int32_t* modes_d, const cuperm_dist_layout_t* x,
                                const int32_t* modes_x, cuperm_dist_layout_t* out)
{
    memset(out, 0, sizeof *out);
    out->rank = x->rank;
    out->type = x->type;
    out->elem_size = x->elem_size;
    out->comm_size = d->comm_size;
    for (int m = 0; m < x->rank; ++m) {
        out->extents[m] = x->extents[m];
        out->grid_of_mode[m] = -1;
    }
    out->grid_rank = d->grid_rank;
    for (int g = 0; g < d->grid_rank; ++g) {
        out->grid[g] = d->grid[g];
        out->block[g] = d->block[g];
        out->modes[g] = -1;
        out->replicated_extent[g] = d->extents[d->modes[g]];
        for (int m = 0; m < x->rank; ++m)
            if (modes_x[m] == modes_d[d->modes[g]]) {
                out->modes[g] = m;
                out->grid_of_mode[m] = g;
                out->replicated_extent[g] = 0;
            }
    }
}

int64_t cuperm_dist_mix(int64_t h, int64_t v)
{
    uint64_t x = ((uint64_t)h ^ (uint64_t)v) * 0x100000001b3ull;
    x ^= x >> 29;
    return (int64_t)(x & ((1ull << 62) - 1));
}

int64_t cuperm_dist_layout_hash(const cuperm_dist_layout_t* l, int64_t seed)
{
    int64_t h = cuperm_dist_mix((int64_t)0xcbf29ce484222325ull, seed);
    h = cuperm_dist_mix(h, l->rank);
    h = cuperm_dist_mix(h, (int64_t)l->type);
    h = cuperm_dist_mix(h, l->grid_rank);
    for (int m = 0; m < l->rank; ++m) h = cuperm_dist_mix(h, l->extents[m]);
    for (int g = 0; g < l->grid_rank; ++g) {
        h = cuperm_dist_mix(h, l->modes[g]);
        h = cuperm_dist_mix(h, l->grid[g]);
        h = cuperm_dist_mix(h, l->block[g]);
    }
    return h;
}

int cuperm_dist_split_mode(const cuperm_dist_box_t* box, int rank, const int* perm)
{
    int pos_out[CUPERM_MAX_RANK], below = 0;
    for (int r = 0; r < rank; ++r) { /* output position of each input mode, counting modes that vary */
        pos_out[perm[r]] = below;
        below += box->hi[perm[r]] - box->lo[perm[r]] > 1;
    }
    int j = -1, best = -1, pos_in = 0;
    int64_t best_e = 0;
    for (int m = 0; m < rank; ++m) {
        const int64_t e = box->hi[m] - box->lo[m];
        if (e <= 1) continue;
        const int score = pos_in < pos_out[m] ? pos_in : pos_out[m];
        if (score > best || (score == best && e > best_e)) j = m, best = score, best_e = e;
        ++pos_in;
    }
    return j;
}

int cuperm_dist_split(const cuperm_dist_box_t* box, int rank, const int* perm, int k, cuperm_dist_box_t* chunks)
{
    const int j = cuperm_dist_split_mode(box, rank, perm);
    const int64_t e = j < 0 ? 1 : box->hi[j] - box->lo[j];
    const int n = j < 0 || k < 1 ? 1 : (int)min64(k, e);
    for (int c = 0; c < n; ++c) {
        chunks[c] = *box;
        if (n > 1) {
            chunks[c].lo[j] = box->lo[j] + e * c / n;
            chunks[c].hi[j] = box->lo[j] + e * (c + 1) / n;
        }
    }
    return n;
}

cupermStatus_t cupermDistGetLocalBlock(const cupermDistTensorDescriptor_t* desc, int commRank, int commSize,
                                       int64_t* localExtents, int64_t* globalOffsets)
{
    cuperm_dist_layout_t l;
    cupermStatus_t st = cuperm_dist_layout_init(&l, desc, commSize, "desc");
    if (st) return st;
    if (commRank < 0 || commRank >= commSize)
        return cuperm_fail(INVALID, "commRank = %d is not in 0..commSize-1 (%d)", commRank, commSize - 1);
    if (!localExtents) return cuperm_fail(INVALID, "localExtents is NULL");
    cuperm_dist_box_t own;
    cuperm_dist_owned(&l, commRank, &own);
    for (int m = 0; m < l.rank; ++m) {
        localExtents[m] = own.hi[m] - own.lo[m];
        if (globalOffsets) globalOffsets[m] = own.lo[m];
    }
    return CUPERM_STATUS_SUCCESS;
}

int64_t cuperm_dist_corner_offset(const int64_t* lo, const int64_t* origin, const int64_t* str, const int* perm, int n)
{
    int64_t off = 0;
    for (int r = 0; r < n; ++r) off += (lo[perm ? perm[r] : r] - origin[r]) * str[r];
    return off;
}

int cuperm_dist_whole_view(const cuperm_dist_layout_t* in, const cuperm_dist_layout_t* out, const int* perm, int me,
                           const int64_t* out_strides, int64_t peer_stride, cuperm_dist_whole_t* w)
{
    const int n = in->rank;
    const int64_t* ostr = out_strides + (size_t)me * CUPERM_MAX_RANK;
    if (peer_stride < 1) return 0;
    for (int q = 0; q < out->comm_size; ++q)
        if (memcmp(out_strides + (size_t)q * CUPERM_MAX_RANK, ostr, sizeof(int64_t) * (size_t)n)) return 0;
    int64_t step[CUPERM_MAX_RANK]; /* ranks from one coordinate of grid dimension g to the next */
    for (int g = 0, below = 1; g < out->grid_rank; below *= out->grid[g++]) {
        const int m = out->modes[g];
        if (m < 0 || out->block[g] * out->grid[g] != out->extents[m]) return 0;
        step[g] = below;
    }
    cuperm_dist_box_t own;
    int64_t in_str[CUPERM_MAX_RANK];
    if (!cuperm_dist_owned(in, me, &own)) return 0;
    cuperm_dist_local_strides(in, me, in_str);
    int first = 0, d = 0;
    int64_t offset = 0;
    for (int r = 0; r < n; ++r) {
        const int k = perm[r]; /* out mode r is input mode k */
        const int g = out->grid_of_mode[r];
        const int64_t lo = own.lo[k], hi = own.hi[k];
        if (g < 0) {
            offset += lo * ostr[r];
            continue;
        }
        const int64_t b = out->block[g], c = lo / b;
        first += (int)(c * step[g]);
        offset += (lo - c * b) * ostr[r];
        if ((hi - 1) / b != c && (lo % b || hi % b)) return 0; /* part of a block at either end */
    }
    memset(w, 0, sizeof *w);
    for (int k = 0; k < n; ++k) {
        int r = 0;
        while (perm[r] != k) ++r;
        const int g = out->grid_of_mode[r];
        const int64_t e = own.hi[k] - own.lo[k], b = g < 0 ? e : out->block[g];
        w->extents[d] = e < b ? e : b;
        w->in_strides[d] = in_str[k];
        w->out_strides[d++] = ostr[r];
        if (e > b) { /* whole blocks: the count steps to the next receiver */
            w->extents[d] = e / b;
            w->in_strides[d] = in_str[k] * b;
            w->out_strides[d++] = step[g] * peer_stride;
        }
    }
    w->rank = d;
    w->first = first;
    w->offset = offset;
    return 1;
}
