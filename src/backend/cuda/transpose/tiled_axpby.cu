// The tiled kernels for alpha * x + beta * y (cuperm_launch_tiled in tiled.cu has the others).
#include "backend/cuda/transpose/tile_kernel.cuh"

extern "C" cudaError_t cuperm_launch_tiled_axpby(const cuperm_launch_t* l, cupermDataType_t type,
                                                 const cuperm_scalars_t* s, const void* in, void* out,
                                                 cudaStream_t stream)
{
    return cuperm::launch_tiles<true, cuperm::OpSet::kAxpby>(l, type, s, in, out, stream);
}
