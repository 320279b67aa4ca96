#include "plan/transpose/validate.h"

#include "core/error.h"
#include "core/layout.h"

#define INVALID CUPERM_STATUS_INVALID_VALUE

/* Largest offset reachable through n dimensions, or -1 if it overflows int64. */
static int64_t max_offset(int n, const int64_t* extent, const int64_t* stride)
{
    int64_t sum = 0;
    for (int d = 0; d < n; ++d) {
        int64_t term;
        if (__builtin_mul_overflow(extent[d] - 1, stride[d], &term) ||
            __builtin_add_overflow(sum, term, &sum))
            return -1;
    }
    return sum;
}

static cupermStatus_t check_span(const char* name, int n, const int64_t* extent,
                                 const int64_t* stride, size_t elem)
{
    int64_t m = max_offset(n, extent, stride), bytes;
    if (m < 0 || __builtin_mul_overflow(m + 1, (int64_t)elem, &bytes))
        return cuperm_fail(INVALID, "%s: the tensor's byte span overflows int64", name);
    return CUPERM_STATUS_SUCCESS;
}

/* One side's strides (dense when NULL): each at least min, and the span they reach within int64. */
static cupermStatus_t check_strides(const char* name, const char* side, int64_t min, int n, const int64_t* extent,
                                    const int64_t* stride, size_t elem)
{
    if (stride) {
        for (int d = 0; d < n; ++d)
            if (stride[d] < min)
                return cuperm_fail(INVALID, "%s[%d] = %lld: %s strides must be >= %lld", name, d,
                                   (long long)stride[d], side, (long long)min);
    }
    int64_t dense[CUPERM_MAX_RANK];
    cuperm_dense_strides(n, extent, dense);
    return check_span(name, n, extent, stride ? stride : dense, elem);
}

/* Output elements are distinct when, with dimensions sorted by stride, each
 * stride exceeds the largest offset the smaller ones reach. Exact for every
 * padded or sliced view; conservative for exotic interleavings. */
static cupermStatus_t check_no_overlap(int n, const int64_t* extent, const int64_t* stride)
{
    int order[CUPERM_MAX_RANK], m = 0;
    for (int r = 0; r < n; ++r) {
        if (extent[r] == 1) continue;
        int j = m++;
        for (; j > 0 && stride[order[j - 1]] > stride[r]; --j) order[j] = order[j - 1];
        order[j] = r;
    }
    int64_t reach = 0; /* fits: the whole span was checked first */
    for (int k = 0; k < m; ++k) {
        int r = order[k];
        if (stride[r] <= reach)
            return cuperm_fail(INVALID,
                               "outStrides: output elements overlap (outStrides[%d] = %lld is not "
                               "larger than %lld, the largest offset the smaller strides reach)",
                               r, (long long)stride[r], (long long)reach);
        reach += (extent[r] - 1) * stride[r];
    }
    return CUPERM_STATUS_SUCCESS;
}

cupermStatus_t cuperm_validate_transpose(int rank, const int64_t* extents, const int* perm,
                                         cupermDataType_t type, const int64_t* in_strides,
                                         const int64_t* out_strides)
{
    if (rank < 1 || rank > CUPERM_MAX_RANK)
        return cuperm_fail(INVALID, "rank = %d: it must be between 1 and %d", rank, CUPERM_MAX_RANK);
    if (!extents) return cuperm_fail(INVALID, "extents is NULL");
    if (!perm) return cuperm_fail(INVALID, "perm is NULL");
    size_t elem = cupermDataTypeSize(type);
    if (elem == 0) return cuperm_fail(INVALID, "type = %d is not a cupermDataType_t", (int)type);

    int64_t volume = 1;
    for (int d = 0; d < rank; ++d) {
        if (extents[d] < 1)
            return cuperm_fail(INVALID,
                               "extents[%d] = %lld: extents must be >= 1 (zero-volume tensors are "
                               "rejected)",
                               d, (long long)extents[d]);
        if (__builtin_mul_overflow(volume, extents[d], &volume))
            return cuperm_fail(INVALID, "extents: the volume overflows int64");
    }

    int seen[CUPERM_MAX_RANK] = {0};
    for (int r = 0; r < rank; ++r) {
        if (perm[r] < 0 || perm[r] >= rank)
            return cuperm_fail(INVALID, "perm[%d] = %d: entries must be in [0, %d)", r, perm[r], rank);
        if (seen[perm[r]]++)
            return cuperm_fail(INVALID, "perm[%d] = %d repeats an earlier entry: perm must be a permutation",
                               r, perm[r]);
    }

    int64_t out_extents[CUPERM_MAX_RANK];
    for (int r = 0; r < rank; ++r) out_extents[r] = extents[perm[r]];

    cupermStatus_t st = check_strides("inStrides", "input", 0, rank, extents, in_strides, elem);
    if (!st) st = check_strides("outStrides", "output", 1, rank, out_extents, out_strides, elem);
    if (st) return st;
    if (out_strides) return check_no_overlap(rank, out_extents, out_strides);
    return CUPERM_STATUS_SUCCESS;
}
