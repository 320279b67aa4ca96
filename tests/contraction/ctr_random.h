/* Random contraction problems for the CPU and GPU tests: every mode class,
 * random mode orders, padded strides in random memory orders. */
#ifndef CUPERM_TEST_CTR_RANDOM_H
#define CUPERM_TEST_CTR_RANDOM_H

#include "common/rng.h"
#include "cuperm.h"

typedef struct {
    int32_t modes[4][CUPERM_MAX_RANK];
    int64_t extents[4][CUPERM_MAX_RANK];
    int64_t strides[4][CUPERM_MAX_RANK];
    cupermTensorDescriptor_t desc[4]; /* A, B, C, D pointing into the arrays above */
    double work;                      /* product of all extents: the reference's cost */
} ctr_random_case;

typedef struct {
    int maxRank;        /* per operand, <= 8 */
    int64_t maxExtent;  /* extents are drawn from 1..maxExtent */
    double maxWork;     /* redraw extents until the product of all extents is below this */
    int cAliasD;        /* 1: C gets D's strides (so C may alias D) */
} ctr_random_options;

void ctr_random_draw(test_rng_t* r, const ctr_random_options* o, ctr_random_case* c);

/* "A[a,b] B[b,c] -> D[a,c] strides ..." for failure messages. */
void ctr_random_print(const ctr_random_case* c, char* buf, size_t size);

#endif
