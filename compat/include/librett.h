/*
 * LibreTT's C API (CUDA flavour), implemented by cuperm (libcuperm_cutt).
 *
 * Same types, result codes and signatures as LibreTT's librett.h, so LibreTT
 * codes compile unchanged and relink with -lcuperm_cutt. Conventions are
 * LibreTT's: column-major, int extents, output dimension i is input dimension
 * permutation[i], out-of-place. Unlike LibreTT's header this one is also plain C.
 * What differs is listed in docs/cutt-compat.md.
 */
#ifndef LIBRETT_H
#define LIBRETT_H

#include <stddef.h>
#include <cuda_runtime_api.h>

#if defined(__GNUC__)
#  define LIBRETT_API __attribute__((visibility("default")))
#else
#  define LIBRETT_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

typedef cudaStream_t librett_gpuStream_t;

/* Handle that names a plan. */
typedef unsigned int librettHandle;

typedef enum librettResult_t {
  LIBRETT_SUCCESS,            /* success */
  LIBRETT_INVALID_PLAN,       /* the handle names no live plan */
  LIBRETT_INVALID_PARAMETER,  /* an argument broke a rule (see librettGetLastErrorMessage) */
  LIBRETT_INVALID_DEVICE,     /* executed on a device other than the plan's */
  LIBRETT_INTERNAL_ERROR,     /* CUDA or cuperm failed (see librettGetLastErrorMessage) */
  LIBRETT_UNDEFINED_ERROR     /* anything else */
} librettResult;

/* No-ops, as in LibreTT built without Umpire. */
LIBRETT_API void librettInitialize(void);
LIBRETT_API void librettFinalize(void);

/* Plans the transpose of dim[] into dim[permutation[]] for sizeofType-byte elements on stream. */
LIBRETT_API librettResult librettPlan(librettHandle* handle, int rank, int* dim, int* permutation,
                                      size_t sizeofType, librett_gpuStream_t stream);

/* Like librettPlan, but times candidate kernels on idata/odata (odata is overwritten). */
LIBRETT_API librettResult librettPlanMeasure(librettHandle* handle, int rank, int* dim, int* permutation,
                                             size_t sizeofType, librett_gpuStream_t stream, void* idata,
                                             void* odata);

LIBRETT_API librettResult librettDestroy(librettHandle handle);

/* odata = transpose(idata), asynchronously on the plan's stream. */
LIBRETT_API librettResult librettExecute(librettHandle handle, void* idata, void* odata);

/* cuperm addition: why the last failing librett* call on this thread failed ("" if none). */
LIBRETT_API const char* librettGetLastErrorMessage(void);

#ifdef __cplusplus
}
#endif

#endif /* LIBRETT_H */
