// The Hopper GETT kernels of block tile 0 (core/gett_tma_params.h): 16 instantiations.
#include "backend/cuda/gett_tma/gett_tma_kernel.cuh"

template <> const cuperm::gett_tma::TileLaunchers& cuperm::gett_tma::launchers<0>()
{
    static const TileLaunchers t = make_launchers<TileOf<0>::type>();
    return t;
}
