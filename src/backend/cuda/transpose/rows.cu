// Same fastest dimension on both sides: rows move directly, coalesced.
#include "backend/cuda/transpose/tile_kernel.cuh"

extern "C" cudaError_t cuperm_launch_rows(const cuperm_launch_t* l, cupermDataType_t type,
                                          const cuperm_scalars_t* s, const void* in, void* out,
                                          cudaStream_t stream)
{
    return cuperm::launch_tiles<false>(l, type, s, in, out, stream);
}
