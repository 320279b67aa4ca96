#include "agreement.h"

#include <math.h>

#include "support/dtype.h"
#include "support/reference.h"

double bench_value(cupermDataType_t type, const void* base, int64_t i)
{
    double v[2];
    ref_load(type, (const unsigned char*)base + (size_t)i * dtype_size(type), v);
    return v[0];
}

double bench_agreement(cupermDataType_t type, const void* mine, const void* theirs, int64_t n, double K,
                       double accEps, double outEps)
{
    double top = 0, diff = 0;
    for (int64_t i = 0; i < n; ++i) {
        const double x = bench_value(type, mine, i), y = bench_value(type, theirs, i);
        top = fmax(top, fabs(x));
        diff = isnan(x) || isnan(y) ? INFINITY : fmax(diff, fabs(x - y));
    }
    const double tol = 4 * outEps + 4 * accEps * sqrt(K > 1 ? K : 1);
    return top > 0 ? diff / top / tol : diff > 0 ? INFINITY : 0;
}
