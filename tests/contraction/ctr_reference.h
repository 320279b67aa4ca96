/*
 * CPU reference for contractions, straight from the definition: every element
 * of D as a sum over the contracted modes, accumulated in double (complex
 * double for complex types), operators applied in double.
 */
#ifndef CUPERM_TEST_CTR_REFERENCE_H
#define CUPERM_TEST_CTR_REFERENCE_H

#include <complex.h>

#include "cuperm.h"

typedef double _Complex ctr_cplx;

/* op(x) in double; complexType selects the complex meaning of conj. */
ctr_cplx ctr_ref_op(cupermOperator_t op, double param, int complexType, ctr_cplx x);

/*
 * d[offD] = opD(alpha * sum opA(a[offA]) * opB(b[offB]) + beta * opC(c[offC])) for
 * every index of D; arrays are indexed by element offset (descriptor strides,
 * dense column-major if NULL). c is not read when beta == 0. If mag is non-NULL
 * it receives, per D offset, |alpha| * sum |opA(a) opB(b)| + |beta opC(c)|: the
 * scale rounding errors are measured against.
 */
void ctr_ref_contract(const cupermTensorDescriptor_t* A, const cupermTensorDescriptor_t* B,
                      const cupermTensorDescriptor_t* C, const cupermTensorDescriptor_t* D,
                      const ctr_cplx* a, const ctr_cplx* b, const ctr_cplx* c, ctr_cplx alpha,
                      ctr_cplx beta, ctr_cplx* d, double* mag);

/* Offset one past the last element of a descriptor's tensor. */
int64_t ctr_ref_span(const cupermTensorDescriptor_t* t);

#endif
