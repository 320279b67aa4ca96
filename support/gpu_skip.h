/* GPU test programs call this first: without a usable GPU it prints a SKIPPED line
 * and exits 77, which ctest reports as "Skipped". */
#ifndef CUPERM_SUPPORT_GPU_SKIP_H
#define CUPERM_SUPPORT_GPU_SKIP_H

#ifdef __cplusplus
extern "C" {
#endif

void require_gpu_or_skip(const char* test_name);

#ifdef __cplusplus
}
#endif

#endif
