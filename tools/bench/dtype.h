/* Element types the benchmark runs, by their short command-line names. */
#ifndef CUPERM_BENCH_DTYPE_H
#define CUPERM_BENCH_DTYPE_H

#include <stddef.h>

#include "cuperm.h"

typedef enum { BENCH_KIND_INT, BENCH_KIND_FLOAT, BENCH_KIND_COMPLEX } bench_kind;

typedef struct {
    const char* name; /* "f64", "f32", ... */
    cupermDataType_t type;
    size_t size;          /* bytes per element */
    bench_kind kind;
    int exponent_bits;    /* floating types: IEEE layout of one real component */
    int mantissa_bits;
} bench_dtype;

/* The type named name, or NULL. */
const bench_dtype* bench_dtype_find(const char* name);

/* Writes value as the scalar type cupermExecute expects for t (float for f16/bf16,
 * complex with zero imaginary part for complex types, the element type itself
 * otherwise) into buf. */
void bench_dtype_scalar(const bench_dtype* t, double value, unsigned char buf[16]);

/* "f64, f32, ..." for help texts. */
const char* bench_dtype_names(void);

#endif
