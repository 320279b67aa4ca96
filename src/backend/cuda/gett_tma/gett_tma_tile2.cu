// The Hopper GETT kernels of block tile 2 (core/gett_tma_params.h): 16 instantiations.
#include "backend/cuda/gett_tma/gett_tma_kernel.cuh"

template <> const cuperm::gett_tma::TileLaunchers& cuperm::gett_tma::launchers<2>()
{
    static const TileLaunchers t = make_launchers<TileOf<2>::type>();
    return t;
}
