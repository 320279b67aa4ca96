#include "backend/cuda/gemm_pointers.h"
#include "core/index_math.h"

namespace cuperm {

/* static: no external stub symbol for the kernel */
static __global__ void build(const cuperm_ctr_ptr_params_t p, const char* first, const char* second, char* out, void** arrays)
{
    const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= p.count) return;
    int64_t off[3];
    cuperm_ctr_ptr_offsets(&p, i, off);
    arrays[i] = (void*)(first + off[0] * p.elemBytes[0]);
    arrays[p.count + i] = (void*)(second + off[1] * p.elemBytes[1]);
    arrays[2 * p.count + i] = (void*)(out + off[2] * p.elemBytes[2]);
}

} // namespace cuperm

extern "C" cudaError_t cuperm_ctr_ptr_launch(const cuperm_ctr_ptr_params_t* p, const void* first, const void* second, void* out,
                                      void** arrays, cudaStream_t stream)
{
    const int threads = 256;
    const int64_t blocks = (p->count + threads - 1) / threads;
    cuperm::build<<<(unsigned)blocks, threads, 0, stream>>>(*p, (const char*)first, (const char*)second, (char*)out, arrays);
    return cudaGetLastError();
}
