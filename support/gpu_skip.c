#include "support/gpu_skip.h"

#include <cuda_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>

void require_gpu_or_skip(const char* test_name)
{
    int n = 0;
    cudaError_t err = cudaGetDeviceCount(&n);
    if (err != cudaSuccess || n == 0) {
        printf("SKIPPED: %s needs a CUDA GPU (%s)\n", test_name,
               err != cudaSuccess ? cudaGetErrorString(err) : "no devices");
        fflush(stdout);
        exit(77);
    }
}
