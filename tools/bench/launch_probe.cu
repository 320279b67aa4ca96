// Empty kernels for cuperm-host-overhead: the host cost of a launch with a few bytes of
// parameters, and with the parameters cuperm's tile kernels take (cuperm_tile_params_t and
// its divisors, passed by value), so that a cached cupermExecute can be split into the launch
// itself, the size of what it passes, and the library's own work.
#include <cuda.h>

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

// The same empty kernel through the driver: its CUfunction found once (cudaGetFuncBySymbol), then
// cuLaunchKernel (from cudaGetDriverEntryPointByVersion) per call, the runtime's lookup skipped.
extern "C" cudaError_t probe_launch_driver(void* p, cudaStream_t stream)
{
    typedef CUresult (*launch_t)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                                 CUstream, void**, void**);
    static cudaFunction_t fn;
    static launch_t launch;
    if (!launch) {
        enum cudaDriverEntryPointQueryResult q;
        if (cudaGetFuncBySymbol(&fn, (const void*)probe_small) != cudaSuccess ||
            cudaGetDriverEntryPointByVersion("cuLaunchKernel", (void**)&launch, 12000, cudaEnableDefault, &q) !=
                cudaSuccess || q != cudaDriverEntryPointSuccess)
            return cudaErrorUnknown;
    }
    void* args[] = {&p};
    return launch((CUfunction)fn, 1, 1, 1, 32, 1, 1, 0, (CUstream)stream, args, NULL) == CUDA_SUCCESS ? cudaSuccess
                                                                                                    : cudaErrorUnknown;
}

// cudaLaunchKernel with the same kernel: what <<<>>> compiles to, spelled out.
extern "C" cudaError_t probe_launch_runtime(void* p, cudaStream_t stream)
{
    void* args[] = {&p};
    return cudaLaunchKernel((const void*)probe_small, dim3(1), dim3(32), args, 0, stream);
}
