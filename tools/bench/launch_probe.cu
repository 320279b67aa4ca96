// Empty kernels for cuperm-host-overhead: the host cost of a launch with a few bytes of
// parameters, and with the parameters cuperm's tile kernels take (cuperm_tile_params_t and
// its divisors, passed by value), so that a cached cupermExecute can be split into the launch
// itself, the size of what it passes, and the library's own work.
#include "core/kernel_params.h"

__global__ void probe_small(int* p) { (void)p; }

__global__ void probe_tile_params(cuperm_tile_params_t t, cuperm_tile_divs_t dv) { (void)t, (void)dv; }

extern "C" size_t probe_tile_param_bytes(void) { return sizeof(cuperm_tile_params_t) + sizeof(cuperm_tile_divs_t); }

extern "C" cudaError_t probe_launch_small(void* p, cudaStream_t stream)
{
    probe_small<<<1, 32, 0, stream>>>(static_cast<int*>(p));
    return cudaGetLastError();
}

extern "C" cudaError_t probe_launch_tile_params(cudaStream_t stream)
{
    static const cuperm_tile_params_t t = {};
    static const cuperm_tile_divs_t dv = {};
    probe_tile_params<<<1, 32, 0, stream>>>(t, dv);
    return cudaGetLastError();
}
