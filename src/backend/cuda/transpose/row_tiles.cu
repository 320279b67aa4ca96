// ROW_TILES launches (row_tiles.cuh): the vector kernel where the plan has vectors and both
// pointers are aligned to them, else the scalar kernel (any pointer aligned to the element).
#include "backend/cuda/transpose/launch.h"
#include "backend/cuda/transpose/row_tiles.cuh"

extern "C" cudaError_t cuperm_launch_row_tiles(const cuperm_launch_t* l, cupermDataType_t type,
                                               const cuperm_scalars_t* s, const void* in, void* out,
                                               cudaStream_t stream)
{
    const uintptr_t vec_bytes = (uintptr_t)l->elem_size << l->tile.vec_log2;
    if (l->tile.vec_log2 > 0 && (uintptr_t)in % vec_bytes == 0 && (uintptr_t)out % vec_bytes == 0)
        return cuperm::launch_row_tiles_vec(l, type, s, in, out, stream);
    return cuperm::launch_row_tiles<1>(l, type, s, in, out, stream);
}
