// Same fastest dimension on both sides: rows move directly, coalesced. The alpha * x + beta * y
// instantiations compile in rows_axpby.cu (OpSet in type_dispatch.cuh: two files build in parallel).
#include "backend/cuda/transpose/tile_kernel.cuh"

extern "C" cudaError_t cuperm_launch_rows(const cuperm_launch_t* l, cupermDataType_t type,
                                          const cuperm_scalars_t* s, const void* in, void* out,
                                          cudaStream_t stream)
{
    if (cuperm::op_set_of(s) == cuperm::OpSet::kAxpby) return cuperm_launch_rows_axpby(l, type, s, in, out, stream);
    return cuperm::launch_tiles<false, cuperm::OpSet::kMovesAndOperators>(l, type, s, in, out, stream);
}
