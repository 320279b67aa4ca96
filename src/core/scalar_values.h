/* alpha and beta, copied from the caller's host pointers into their type. */
#ifndef CUPERM_KERNELS_SCALARS_H
#define CUPERM_KERNELS_SCALARS_H

typedef struct {
    unsigned char alpha[16]; /* bytes of the scalar type (memcpy in and out) */
    unsigned char beta[16];
    int plain;    /* alpha == 1 and beta == 0: move bits, whatever the type */
    int use_beta; /* beta != 0: out is read */
} cuperm_scalars_t;

#endif
