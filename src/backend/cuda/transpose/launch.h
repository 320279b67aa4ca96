/* C entry points into the kernels: one per kernel family. Each validates
 * nothing (the runtime did) and returns the launch's cudaError_t. */
#ifndef CUPERM_KERNELS_LAUNCH_H
#define CUPERM_KERNELS_LAUNCH_H

#include <cuda_runtime_api.h>

#include "core/kernel_params.h"
#include "core/scalar_values.h"

#ifdef __cplusplus
extern "C" {
#endif

cudaError_t cuperm_launch_copy(const cuperm_launch_t* l, cupermDataType_t type,
                               const cuperm_scalars_t* s, const void* in, void* out,
                               cudaStream_t stream);
cudaError_t cuperm_launch_tiled(const cuperm_launch_t* l, cupermDataType_t type,
                                const cuperm_scalars_t* s, const void* in, void* out,
                                cudaStream_t stream);
cudaError_t cuperm_launch_whole_dims(const cuperm_launch_t* l, cupermDataType_t type,
                                 const cuperm_scalars_t* s, const void* in, void* out,
                                 cudaStream_t stream);
cudaError_t cuperm_launch_rows(const cuperm_launch_t* l, cupermDataType_t type,
                               const cuperm_scalars_t* s, const void* in, void* out,
                               cudaStream_t stream);
cudaError_t cuperm_launch_row_tiles(const cuperm_launch_t* l, cupermDataType_t type,
                                    const cuperm_scalars_t* s, const void* in, void* out,
                                    cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif
