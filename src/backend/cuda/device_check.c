#include "backend/cuda/device_check.h"

#include "core/error.h"

cupermStatus_t cuperm_check_current_device(int device, const char* what)
{
    int current;
    cudaError_t err = cudaGetDevice(&current);
    if (err != cudaSuccess) {
        cudaGetLastError();
        return cuperm_fail(CUPERM_STATUS_CUDA_ERROR, "%s: cudaGetDevice failed (%s)", what,
                           cudaGetErrorString(err));
    }
    if (current != device)
        return cuperm_fail(CUPERM_STATUS_INVALID_VALUE,
                           "%s: the current device is %d but the plan was made for device %d", what,
                           current, device);
    return CUPERM_STATUS_SUCCESS;
}

cupermStatus_t cuperm_check_device_pointer(const void* ptr, int device, const char* fn, const char* name)
{
    struct cudaPointerAttributes a;
    cudaError_t err = cudaPointerGetAttributes(&a, ptr);
    if (err != cudaSuccess) {
        cudaGetLastError();
        return cuperm_fail_in(fn, CUPERM_STATUS_INVALID_VALUE, "%s = %p is not a pointer CUDA knows (%s)", name,
                           ptr, cudaGetErrorString(err));
    }
    switch (a.type) {
    case cudaMemoryTypeDevice:
        if (a.device != device)
            return cuperm_fail_in(fn, CUPERM_STATUS_INVALID_VALUE,
                                  "%s = %p is memory of device %d, but the plan runs on device %d", name,
                               ptr, a.device, device);
        return CUPERM_STATUS_SUCCESS;
    case cudaMemoryTypeManaged: return CUPERM_STATUS_SUCCESS;
    case cudaMemoryTypeHost:
        if (a.devicePointer) return CUPERM_STATUS_SUCCESS;
        break;
    default: break;
    }
    return cuperm_fail_in(fn, CUPERM_STATUS_INVALID_VALUE,
                          "%s = %p is not device-accessible memory (allocate it with cudaMalloc, "
                          "cudaMallocManaged or mapped cudaHostAlloc)",
                          name, ptr);
}
