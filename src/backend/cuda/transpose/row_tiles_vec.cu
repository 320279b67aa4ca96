// ROW_TILES kernels of 8- and 16-byte vectors (row_tiles.cuh): 2 or 4 elements of 4 bytes, 2 of 8.
#include "backend/cuda/transpose/row_tiles.cuh"

namespace cuperm {

cudaError_t launch_row_tiles_vec(const cuperm_launch_t* l, cupermDataType_t type, const cuperm_scalars_t* s,
                                 const void* in, void* out, cudaStream_t stream)
{
    return l->tile.vec_log2 == 2 ? launch_row_tiles<4>(l, type, s, in, out, stream)
                                 : launch_row_tiles<2>(l, type, s, in, out, stream);
}

} // namespace cuperm
