/* Contraction problems from mode letters for the planner's CPU tests: extents by letter
 * (EXT(X('a') = 24, ...)), column-major operands, C = D. */
#ifndef CUPERM_TESTS_CTR_LETTERED_PROBLEM_H
#define CUPERM_TESTS_CTR_LETTERED_PROBLEM_H

#include "contraction/ctr_random.h"
#include "plan/contraction/problem.h"

#define EXT(...) ((const int64_t[26]){__VA_ARGS__})
#define X(c) [(c) - 'a']
/* TCCG 31-48's extents (a, d, g 24; b, c, e, f 16). */
#define TCCG31_48_EXTENTS EXT(X('a') = 24, X('b') = 16, X('c') = 16, X('d') = 24, X('e') = 16, X('f') = 16, X('g') = 24)

typedef struct {
    ctr_lettered l;
    cuperm_ctr_problem_t p;
} ctr_made;

/* A problem from mode strings (A, B, D of type ab, C = D), extents by letter. */
static inline cupermStatus_t ctr_make(ctr_made* o, const char* a, const char* b, const char* d, const int64_t* ext,
                                      cupermDataType_t ab)
{
    ctr_lettered_init(&o->l, a, b, d, ext, ab);
    return cuperm_ctr_problem_init(&o->p, &o->l.d[0], &o->l.d[1], &o->l.d[2], &o->l.d[2], CUPERM_COMPUTE_DEFAULT);
}

#endif
