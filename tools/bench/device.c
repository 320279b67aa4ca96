#include "device.h"

#include <cuda_runtime_api.h>
#include <string.h>

#include "cuperm.h"

int bench_device_query(bench_device* d, char* err, size_t err_size)
{
    int dev;
    struct cudaDeviceProp prop;
    cudaError_t e = cudaGetDevice(&dev);
    if (e == cudaSuccess) e = cudaGetDeviceProperties(&prop, dev);
    if (e != cudaSuccess) {
        /* The words cupermCreate uses for the two common causes (exec/handle.c). */
        const char* why = e == cudaErrorInsufficientDriver ? "no NVIDIA driver was found, or it is older than this "
                                                             "CUDA runtime"
                          : e == cudaErrorNoDevice ? "no NVIDIA GPU was found"
                                                   : cudaGetErrorString(e);
        snprintf(err, err_size, "no usable GPU: %s", why);
        return -1;
    }
    memset(d, 0, sizeof *d);
    snprintf(d->name, sizeof d->name, "%s", prop.name);
    d->sm_count = prop.multiProcessorCount;
    d->l2_bytes = (size_t)prop.l2CacheSize;
    d->global_bytes = prop.totalGlobalMem;
    cudaRuntimeGetVersion(&d->runtime_version);
    cudaDriverGetVersion(&d->driver_version);
    return 0;
}

void bench_device_print(FILE* f, const bench_device* d)
{
    int v = cupermGetVersion();
    fprintf(f, "GPU: %s (%d SMs, L2 %.0f MB, %.1f GiB), CUDA runtime %d.%d, driver %d.%d, "
               "cuperm %d.%d.%d\n",
            d->name, d->sm_count, (double)d->l2_bytes / 1e6, (double)d->global_bytes / 1073741824.0,
            d->runtime_version / 1000, d->runtime_version % 1000 / 10, d->driver_version / 1000,
            d->driver_version % 1000 / 10, v / 10000, v / 100 % 100, v % 100);
}
