#include "tt_reference.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cuda_runtime_api.h>

void tt_reference_transpose(int rank, const int* dim, const int* perm, size_t elem, const void* in, void* out)
{
    size_t volume = 1, in_stride[32], step = 1;
    for (int d = 0; d < rank; ++d) {
        in_stride[d] = step;
        step *= (size_t)dim[d];
        volume *= (size_t)dim[d];
    }
    int j[32] = {0};
    for (size_t o = 0; o < volume; ++o) {
        size_t src = 0;
        for (int r = 0; r < rank; ++r) src += (size_t)j[r] * in_stride[perm[r]];
        memcpy((char*)out + o * elem, (const char*)in + src * elem, elem);
        for (int r = 0; r < rank && ++j[r] == dim[perm[r]]; ++r) j[r] = 0;  /* odometer over out dims */
    }
}

void tt_random_bytes(void* p, size_t n, unsigned long long* state)
{
    unsigned char* b = p;
    for (size_t i = 0; i < n; ++i) {
        *state = *state * 6364136223846793005ull + 1442695040888963407ull;
        b[i] = (unsigned char)(*state >> 56);
    }
}

int tt_have_gpu(void)
{
    int n = 0;
    cudaError_t err = cudaGetDeviceCount(&n);
    if (err != cudaSuccess || n == 0) {
        printf("no usable GPU (%s): skipping\n", err != cudaSuccess ? cudaGetErrorString(err) : "0 devices");
        return 0;
    }
    return 1;
}
