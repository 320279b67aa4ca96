#include <stdlib.h>

#include "host/errors.h"
#include "runtime/objects.h"
#include "contraction/ctr_hook.h"

static int attribute(enum cudaDeviceAttr attr, int device)
{
    int v = 0;
    if (cudaDeviceGetAttribute(&v, attr, device) != cudaSuccess) v = 0;
    return v;
}

cupermStatus_t cupermCreate(cupermHandle_t* handle)
{
    if (!handle) return cuperm_fail(CUPERM_STATUS_INVALID_VALUE, "handle is NULL");
    *handle = NULL;
    int device;
    cudaError_t err = cudaGetDevice(&device);
    if (err != cudaSuccess) {
        cudaGetLastError();
        return cuperm_fail(CUPERM_STATUS_CUDA_ERROR, "cupermCreate: no usable CUDA device (%s)",
                           cudaGetErrorString(err));
    }
    cupermHandle_t h = calloc(1, sizeof *h);
    if (!h) return cuperm_fail(CUPERM_STATUS_ALLOC_FAILED, "cupermCreate: out of host memory");
    h->plan_cache = cuperm_plan_cache_create();
    if (!h->plan_cache) {
        free(h);
        return cuperm_fail(CUPERM_STATUS_ALLOC_FAILED, "cupermCreate: out of host memory");
    }
    h->magic = CUPERM_HANDLE_MAGIC;
    cuperm_device_info_t* d = &h->dev;
    d->ordinal = device;
    d->cc_major = attribute(cudaDevAttrComputeCapabilityMajor, device);
    d->cc_minor = attribute(cudaDevAttrComputeCapabilityMinor, device);
    d->sm_count = attribute(cudaDevAttrMultiProcessorCount, device);
    d->l2_bytes = attribute(cudaDevAttrL2CacheSize, device);
    d->smem_per_block = attribute(cudaDevAttrMaxSharedMemoryPerBlock, device);
    /* Double data rate: two transfers per clock over the whole bus. */
    double clock_hz = 1e3 * attribute(cudaDevAttrMemoryClockRate, device);
    double bus_bytes = attribute(cudaDevAttrGlobalMemoryBusWidth, device) / 8.0;
    d->dram_bytes_per_second = clock_hz * bus_bytes > 0 ? 2.0 * clock_hz * bus_bytes : 2e12;
    *handle = h;
    return CUPERM_STATUS_SUCCESS;
}

cupermStatus_t cupermDestroy(cupermHandle_t handle)
{
    if (!handle) return cuperm_fail(CUPERM_STATUS_INVALID_VALUE, "handle is NULL");
    if (handle->magic != CUPERM_HANDLE_MAGIC)
        return cuperm_fail(CUPERM_STATUS_INVALID_VALUE, "handle is not a live cuperm handle");
    handle->magic = CUPERM_DEAD_MAGIC;
    ctr_state_destroy(handle->contraction);
    cuperm_plan_cache_destroy(handle->plan_cache);
    free(handle);
    return CUPERM_STATUS_SUCCESS;
}
