// The Hopper GETT kernels of block tile 1 (core/gett_tma_params.h): 16 instantiations.
#include "backend/cuda/gett_tma/gett_tma_kernel.cuh"

template <> const cuperm::gett_tma::TileLaunchers& cuperm::gett_tma::launchers<1>()
{
    static const TileLaunchers t = make_launchers<TileOf<1>::type>();
    return t;
}
