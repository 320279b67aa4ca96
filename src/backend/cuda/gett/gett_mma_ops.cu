// The tensor-core GETT kernel's instances that apply operators (gett_mma.cuh, OPS = true): a
// translation unit of their own, so that a parallel build compiles them beside the plain ones.
#include "backend/cuda/gett/gett_mma.cuh"

cudaError_t cuperm::gett::launch_with_operators(const cuperm_gett_params_t* q, const void* A, const void* B,
                                                const void* C, void* D, float alpha, float beta, int useBeta,
                                                const Widths& w, cudaStream_t stream)
{
    return launch_types<true>(q, A, B, C, D, alpha, beta, useBeta, w, stream);
}
