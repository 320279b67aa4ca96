/* How far two results of the same contraction are apart (cuperm-bench --compare): plain C,
 * tested without a GPU (tests/bench/test_bench_cases.c). */
#ifndef CUPERM_BENCH_AGREEMENT_H
#define CUPERM_BENCH_AGREEMENT_H

#include <stdint.h>

#include "cuperm.h"

/* Element i of an array of type, as a double (the real part of complex types). */
double bench_value(cupermDataType_t type, const void* base, int64_t i);

/* n elements of type in mine and theirs, both sums of K products accumulated with relative
 * precision accEps and rounded to the type (outEps): the largest |difference| over mine's
 * largest magnitude, divided by the tolerance 4 outEps + 4 accEps sqrt(K). <= 1 agrees; a NaN
 * in either (an element not written) gives infinity. */
double bench_agreement(cupermDataType_t type, const void* mine, const void* theirs, int64_t n, double K,
                       double accEps, double outEps);

#endif
