/*
 * cuTT's C API, implemented by cuperm (libcuperm_cutt).
 *
 * Source-compatible with cuTT 1.1 (github.com/ap-hynninen/cutt): the same types,
 * result codes and signatures, so a code written for cuTT compiles unchanged
 * and only relinks (-lcuperm_cutt instead of -lcutt). Conventions are cuTT's:
 * tensors are column-major (dim[0] is the stride-1 dimension), int extents,
 * output dimension i is input dimension permutation[i], out-of-place only.
 * What differs is listed in docs/cutt-compat.md.
 */
#ifndef CUTT_H
#define CUTT_H

#include <stddef.h>
#include <cuda_runtime_api.h>

#if defined(__GNUC__)
#  define CUTT_API __attribute__((visibility("default")))
#else
#  define CUTT_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Handle that names a plan. */
typedef unsigned int cuttHandle;

typedef enum cuttResult_t {
  CUTT_SUCCESS,            /* success */
  CUTT_INVALID_PLAN,       /* the handle names no live plan */
  CUTT_INVALID_PARAMETER,  /* an argument broke a rule (see cuttGetLastErrorMessage) */
  CUTT_INVALID_DEVICE,     /* executed on a device other than the plan's */
  CUTT_INTERNAL_ERROR,     /* CUDA or cuperm failed (see cuttGetLastErrorMessage) */
  CUTT_UNDEFINED_ERROR     /* anything else */
} cuttResult;

/* Kept for codes written against the Umpire-enabled fork; no-ops here. */
CUTT_API void cuttInitialize(void);
CUTT_API void cuttFinalize(void);

/*
 * Plans the transpose of a rank-dimensional tensor of extents dim[] into the
 * tensor of extents dim[permutation[0..rank-1]], for elements of sizeofType
 * bytes (4 or 8 in cuTT; cuperm also takes 1 and 2), to run on stream.
 * The plan belongs to the current device.
 */
CUTT_API cuttResult cuttPlan(cuttHandle* handle, int rank, int* dim, int* permutation, size_t sizeofType,
                             cudaStream_t stream);

/* Like cuttPlan, but times candidate kernels on idata/odata (odata is overwritten). */
CUTT_API cuttResult cuttPlanMeasure(cuttHandle* handle, int rank, int* dim, int* permutation,
                                    size_t sizeofType, cudaStream_t stream, void* idata, void* odata);

CUTT_API cuttResult cuttDestroy(cuttHandle handle);

/* odata = transpose(idata), asynchronously on the plan's stream. */
CUTT_API cuttResult cuttExecute(cuttHandle handle, void* idata, void* odata);

/* cuperm addition: why the last failing cutt* call on this thread failed ("" if none). */
CUTT_API const char* cuttGetLastErrorMessage(void);

#ifdef __cplusplus
}
#endif

#endif /* CUTT_H */
