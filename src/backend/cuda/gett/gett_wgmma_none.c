/* The table GETT kernel's Hopper form in a build whose CUDA architectures leave out compute
 * capability 9.0 (src/CMakeLists.txt): not built, so plans never ask for it. */
#include "backend/cuda/gett/gett.h"

cudaError_t cuperm_gett_wgmma_launch(const cuperm_gett_params_t* q, const void* A, const void* B, const void* C,
                                     void* D, float alpha, float beta, int useBeta, cudaStream_t stream)
{
    (void)q, (void)A, (void)B, (void)C, (void)D, (void)alpha, (void)beta, (void)useBeta, (void)stream;
    return cudaErrorNotSupported;
}

int cuperm_gett_wgmma_built(void) { return 0; }
