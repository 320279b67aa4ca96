/* Reads alpha and beta from the caller's host pointers. */
#ifndef CUPERM_HOST_SCALARS_H
#define CUPERM_HOST_SCALARS_H

#include "cuperm.h"
#include "core/error.h"
#include "core/scalar_values.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Bytes of one scalar of type's scalar type (float for the 16-bit floats). */
CUPERM_INTERNAL_API size_t cuperm_scalar_size(cupermDataType_t type);

/** Copies *alpha and *beta and classifies them (plain move, beta used). */
CUPERM_INTERNAL_API void cuperm_read_scalars(cupermDataType_t type, const void* alpha, const void* beta,
                         cuperm_scalars_t* s);

/** Attaches operators (NULL or all IDENTITY: none) and reclassifies the move. */
void cuperm_scalars_set_ops(cuperm_scalars_t* s, const cuperm_ops_t* ops);

#ifdef __cplusplus
}
#endif

#endif
