/* Poison and verify: outputs are filled with a byte pattern before a run so a
 * skipped element shows, and the bytes around a tensor's elements (padding,
 * guard zones) are checked untouched afterwards. */
#ifndef CUPERM_SUPPORT_POISON_H
#define CUPERM_SUPPORT_POISON_H

#include <stddef.h>
#include <stdint.h>

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Every byte 0xff: a NaN in every floating type, -1 in every integer type. */
#define POISON_BYTE 0xff

/* The position-dependent byte pattern of guard zones: byte i of a buffer. */
unsigned char poison_pattern_byte(size_t i);
/* Writes the pattern over p[0, bytes). */
void poison_pattern(unsigned char* p, size_t bytes);

/* POISON_BYTE over bytes bytes of device memory, on stream s. */
cudaError_t poison_device(void* p, size_t bytes, cudaStream_t s);

/* calloc'ed span bytes, 1 at the offset of every element of a strided tensor (dense
 * column-major if strides is NULL), 0 elsewhere; NULL when out of memory. */
unsigned char* poison_element_mask(int rank, const int64_t* extents, const int64_t* strides, int64_t span);

/* Whether any byte changed outside the elements that may change. before/after are
 * whole allocations of bytes bytes; origin is the byte offset of element 0; mask
 * (span elements of es bytes, NULL: nothing may change) marks the elements that may.
 * Returns 1 and the first offending byte's offset relative to origin in *where. */
int poison_changed_outside(const unsigned char* before, const unsigned char* after, size_t bytes, size_t origin,
                           size_t es, const unsigned char* mask, int64_t span, int64_t* where);

#ifdef __cplusplus
}
#endif

#endif
