// The tensor-core GETT kernel's entry points and its plain instances (no operators); the
// kernel is gett_mma.cuh, the instances that apply operators are built by gett_mma_ops.cu.
#include "backend/cuda/gett/gett_mma.cuh"

namespace cuperm {
namespace gett {

static int aligned_width(int w, const void* p, int elemBytes)
{
    while (w > 1) {
        const int bytes = w * elemBytes < 16 ? w * elemBytes : 16;
        if ((uintptr_t)p % (uintptr_t)bytes == 0) break;
        w /= 2;
    }
    return w < 1 ? 1 : w;
}

} // namespace gett
} // namespace cuperm

extern "C" void cuperm_gett_effective_widths(const cuperm_gett_params_t* q, const void* A, const void* B, const void* C,
                                             const void* D, int out[4])
{
    using cuperm::gett::aligned_width;
    const int cd = q->cdType == CUPERM_R_32F ? 4 : 2;
    out[0] = aligned_width(q->vecA, A, 2);
    out[1] = aligned_width(q->vecB, B, 2);
    out[2] = C ? aligned_width(q->vecC, C, cd) : 1;
    out[3] = aligned_width(q->vecD, D, cd);
}

extern "C" cudaError_t cuperm_gett_launch(const cuperm_gett_params_t* q, const void* A, const void* B, const void* C,
                                          void* D, float alpha, float beta, int useBeta, cudaStream_t stream)
{
    using namespace cuperm::gett;
    if ((long long)q->mTiles * q->nTiles == 0 || q->batch == 0) return cudaSuccess;
    int wv[4];
    cuperm_gett_effective_widths(q, A, B, useBeta ? C : nullptr, D, wv);
    const Widths w = {wv[0], wv[1], wv[2], wv[3]};
    if (cuperm_gett_has_operators(q)) return launch_with_operators(q, A, B, C, D, alpha, beta, useBeta, w, stream);
    return launch_types<false>(q, A, B, C, D, alpha, beta, useBeta, w, stream);
}

extern "C" int cuperm_gett_available(void)
{
    cudaFuncAttributes a;
    // The PTX the loaded code came from must be sm_80+ (older PTX compiles the __trap() branch).
#ifdef GETT_ONE_INSTANCE
    if (cudaFuncGetAttributes(&a, cuperm::gett::kernel<__half, GETT_ONE_AK, GETT_ONE_BK, int32_t, false>) != cudaSuccess) {
#else
    if (cudaFuncGetAttributes(&a, cuperm::gett::kernel<__half, true, true, int32_t, false>) != cudaSuccess) {
#endif
        cudaGetLastError();
        return 0;
    }
    return a.ptxVersion >= 80;
}
