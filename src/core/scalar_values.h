/* alpha and beta, copied from the caller's host pointers into their type, and the
 * elementwise operators of out = opOut(alpha * opIn(in) + beta * opC(out)). */
#ifndef CUPERM_KERNELS_SCALARS_H
#define CUPERM_KERNELS_SCALARS_H

#include "cuperm.h"

/* Operators of one transpose (floating types only; all IDENTITY for a plain move). */
typedef struct {
    cupermOperator_t in, c, out;
    double param_in, param_c, param_out; /* slope of LEAKY_RELU, alpha of ELU */
} cuperm_ops_t;

typedef struct {
    unsigned char alpha[16]; /* bytes of the scalar type (memcpy in and out) */
    unsigned char beta[16];
    int plain;    /* alpha == 1, beta == 0, no operator: move bits, whatever the type */
    int use_beta; /* beta != 0: out is read */
    int has_ops;  /* some operator is not the identity */
    cuperm_ops_t ops;
} cuperm_scalars_t;

#endif
