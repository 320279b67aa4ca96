/*
 * Which (A/B type, C/D type, compute type) triples a contraction accepts,
 * and what each resolves to. Plain C.
 */
#ifndef CUPERM_CTR_TYPES_H
#define CUPERM_CTR_TYPES_H

#include "cuperm.h"

/* Resolves DEFAULT and checks the triple; sets the error message on failure. */
cupermStatus_t cuperm_ctr_types_resolve(cupermDataType_t abType, cupermDataType_t cdType,
                                 cupermComputeType_t requested, cupermComputeType_t* resolved);

int cuperm_ctr_type_is_complex(cupermDataType_t t);
int cuperm_ctr_type_is_float(cupermDataType_t t); /* a floating-point type contractions accept */
const char* cuperm_ctr_type_name(cupermDataType_t t);
const char* cuperm_ctr_compute_name(cupermComputeType_t c);

/* Bytes of the alpha/beta scalars for a D type: 4, 8 or 16. */
size_t cuperm_ctr_scalar_size(cupermDataType_t cdType);

#endif
