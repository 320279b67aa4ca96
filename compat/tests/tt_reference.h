/* Helpers for the cuTT/LibreTT programs: a CPU reference transpose and a random fill. */
#ifndef TT_REFERENCE_H
#define TT_REFERENCE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Column-major out[j] = in[i] with i[perm[r]] = j[r]; elements of elem bytes. */
void tt_reference_transpose(int rank, const int* dim, const int* perm, size_t elem, const void* in, void* out);

/* Fills n bytes with pseudo-random values from *state (never all zero). */
void tt_random_bytes(void* p, size_t n, unsigned long long* state);

/* Whether a GPU is usable; prints why not otherwise. */
int tt_have_gpu(void);

#ifdef __cplusplus
}
#endif

#endif
