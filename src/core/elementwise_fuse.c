#include "core/kernel_params.h"

void cuperm_ctr_ew_fuse(cuperm_ctr_ew_params_t* p)
{
    int n = 0;
    for (int i = 0; i < p->rank; ++i) {
        if (p->extents[i] == 1) continue;
        if (n > 0) {
            const int j = n - 1;
            const int64_t e = p->extents[j];
            if (p->outStrides[i] == p->outStrides[j] * e && p->inStrides[i] == p->inStrides[j] * e &&
                p->cStrides[i] == p->cStrides[j] * e) {
                p->extents[j] *= p->extents[i];
                continue;
            }
        }
        p->extents[n] = p->extents[i];
        p->outStrides[n] = p->outStrides[i];
        p->inStrides[n] = p->inStrides[i];
        p->cStrides[n] = p->cStrides[i];
        ++n;
    }
    if (n == 0) {
        p->extents[0] = 1;
        p->outStrides[0] = p->inStrides[0] = p->cStrides[0] = 0;
        n = 1;
    }
    p->rank = n;
}
