/* The one table of cuperm's element types for tests and tools: short name (as
 * cuperm-bench's --dtype takes it), enum name, size, kind, IEEE layout and the
 * size of the alpha/beta scalars cupermExecute takes for the type (dtype_scalar_size). */
#ifndef CUPERM_SUPPORT_DTYPE_H
#define CUPERM_SUPPORT_DTYPE_H

#include <stddef.h>

#include "cuperm.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { DTYPE_INT, DTYPE_FLOAT, DTYPE_COMPLEX } dtype_kind;

typedef struct {
    const char* name;      /* "f64", "f32", ... */
    const char* enum_name; /* "R_64F", "R_32F", ... (CUPERM_ prefix dropped) */
    cupermDataType_t type;
    size_t size;           /* bytes per element */
    dtype_kind kind;
    int exponent_bits;     /* floating types: IEEE layout of one real component */
    int mantissa_bits;     /* (0 for integers) */
} dtype_info;

/* Every type, in the order tests iterate them (R_8I, R_8U, R_16I, ... C_64F). */
extern const cupermDataType_t dtype_all[];
extern const int dtype_count;

/* The type named name ("f64" or "R_64F"), or NULL. */
const dtype_info* dtype_find(const char* name);
/* The entry of type, or NULL for a value that is not a cupermDataType_t. */
const dtype_info* dtype_of(cupermDataType_t type);
/* "R_64F" etc., "?" for an unknown value. */
const char* dtype_enum_name(cupermDataType_t type);
/* "f64, f32, ..." for help texts. */
const char* dtype_names(void);

/* Bytes per element (0 for an unknown value), without linking the library. */
size_t dtype_size(cupermDataType_t type);
/* Bytes of alpha and beta for type: 4 (float) for f16/bf16, else the element size. */
size_t dtype_scalar_size(cupermDataType_t type);
int dtype_is_float(cupermDataType_t type); /* real or complex floating point */
int dtype_is_complex(cupermDataType_t type);

/* Writes value as the scalar type cupermExecute expects for type (float for f16/bf16,
 * complex with zero imaginary part for complex types, the element type itself
 * otherwise, integers converted by C's rules) into buf. */
void dtype_scalar(cupermDataType_t type, double value, unsigned char buf[16]);

#ifdef __cplusplus
}
#endif

#endif
