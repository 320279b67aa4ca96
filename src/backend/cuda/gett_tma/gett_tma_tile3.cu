// The Hopper GETT kernels of block tile 3 (core/gett_tma_params.h): 16 instantiations.
#include "backend/cuda/gett_tma/gett_tma_kernel.cuh"

template <> const cuperm::gett_tma::TileLaunchers& cuperm::gett_tma::launchers<3>()
{
    static const TileLaunchers t = make_launchers<TileOf<3>::type>();
    return t;
}
