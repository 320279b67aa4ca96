/* Random contraction problems for the CPU and GPU tests: every mode class,
 * random mode orders, padded strides in random memory orders. */
#ifndef CUPERM_TEST_CTR_RANDOM_H
#define CUPERM_TEST_CTR_RANDOM_H

#include "support/rng.h"
#include "cuperm.h"

typedef struct {
    int32_t modes[4][CUPERM_MAX_RANK];
    int64_t extents[4][CUPERM_MAX_RANK];
    int64_t strides[4][CUPERM_MAX_RANK];
    cupermTensorDescriptor_t desc[4]; /* A, B, C, D pointing into the arrays above */
    double work;                      /* product of all extents: the reference's cost */
    int64_t offset[4];                /* elements from the buffer start to the operand's first
                                         element: the origin of a sub-tensor view (viewPct), else 0.
                                         A buffer needs offset + ctr_ref_span(desc) elements. */
} ctr_random_case;

typedef struct {
    int maxRank;        /* per operand, <= 8 */
    int64_t maxExtent;  /* extents are drawn from 1..maxExtent */
    double maxWork;     /* redraw extents until the product of all extents is below this */
    int cAliasD;        /* 1: C gets D's strides (so C may alias D) */
    /* Extensions; zero (as in the callers that predate them) keeps the original draws. */
    int minRank;        /* A, B and D get at least this many modes each (<= maxRank) */
    int fuzzExtents;    /* 1: extents 1, small primes or 1..16, now and then up to maxExtent;
                           the largest is shrunk (not redrawn) until the work fits maxWork */
    int broadcastPct;   /* percent chance that A, B and C (C only without cAliasD) each get
                           stride-0 (broadcast) modes; D never does */
    int viewPct;        /* percent chance per operand to be a sub-tensor view of a larger
                           tensor (random origin in offset[], strides of the larger one) */
} ctr_random_options;

void ctr_random_draw(rng_t* r, const ctr_random_options* o, ctr_random_case* c);

/* Every mode with stride 1 in some operand gets extent e in every operand; then each operand
 * is made dense again in its old memory order (broadcast modes stay stride 0) and views are
 * dropped (offsets 0): the shape the Hopper GETT kernels' TMA loads take when e * element size
 * is a multiple of 16 bytes. */
void ctr_random_unit_modes_to(ctr_random_case* c, int64_t e);

/* Descriptors of A, B and D (dense, column-major, type t) from mode strings such as "dega", each
 * mode's extent ext[letter - 'a']; the arrays hold the modes and extents the descriptors point to. */
typedef struct {
    int32_t modes[3][CUPERM_MAX_RANK];
    int64_t extents[3][CUPERM_MAX_RANK];
    cupermTensorDescriptor_t d[3];
} ctr_lettered;
void ctr_lettered_init(ctr_lettered* o, const char* a, const char* b, const char* d, const int64_t* ext,
                       cupermDataType_t t);

/* "A[a,b] B[b,c] -> D[a,c] strides ..." for failure messages. */
void ctr_random_print(const ctr_random_case* c, char* buf, size_t size);

#endif
