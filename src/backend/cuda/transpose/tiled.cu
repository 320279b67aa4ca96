// Orthogonal fastest dimensions: tiles staged through shared memory.
#include "backend/cuda/transpose/tile_pipelined.cuh"

extern "C" cudaError_t cuperm_launch_tiled(const cuperm_launch_t* l, cupermDataType_t type,
                                           const cuperm_scalars_t* s, const void* in, void* out,
                                           cudaStream_t stream)
{
    if (l->tile.pipelined) return cuperm::launch_pipelined_tiles(l, type, s, in, out, stream);
    return cuperm::launch_tiles<true>(l, type, s, in, out, stream);
}
