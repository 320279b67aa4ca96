/* A build without the Hopper GETT kernels (CUPERM_GETT_TMA off): plans never map onto them. */
#include "backend/cuda/gett_tma/gett_tma.h"

int cuperm_gett_tma_built(void) { return 0; }

cudaError_t cuperm_gett_tma_launch(const cuperm_gett_tma_params_t* q, const void* A, const void* B, const void* C,
                                   void* D, float alpha, float beta, cudaStream_t stream)
{
    (void)q, (void)A, (void)B, (void)C, (void)D, (void)alpha, (void)beta, (void)stream;
    return cudaErrorNotSupported;
}
