/* cuperm-device-rates: the device attributes the library derives its bandwidth from (src/exec/handle.c:
 * memory clock x bus width x 2), for fitting models to sweeps run on that device
 * (tools/bench/contraction_gemm_fit.py --bandwidth). */
#include <cuda_runtime.h>
#include <stdio.h>

int main(void)
{
    int clk = 0, bus = 0, sms = 0;
    if (cudaDeviceGetAttribute(&clk, cudaDevAttrMemoryClockRate, 0) != cudaSuccess ||
        cudaDeviceGetAttribute(&bus, cudaDevAttrGlobalMemoryBusWidth, 0) != cudaSuccess ||
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0) != cudaSuccess) {
        fprintf(stderr, "cuperm-device-rates: no CUDA device\n");
        return 1;
    }
    printf("memory clock %d kHz, bus %d bits, %d SMs: dram_bytes_per_second %.4g\n", clk, bus, sms,
           2.0 * clk * 1e3 * bus / 8.0);
    return 0;
}
