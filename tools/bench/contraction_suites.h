/* cuperm-bench's contraction suites (tccg48, random-contractions): cupermContract
 * against a plain cuBLAS GEMM of the same shape, with a roofline measured in the
 * same run. tools/bench/contraction_torch.py adds torch.einsum to the CSV. */
#ifndef CUPERM_BENCH_CONTRACTION_SUITES_H
#define CUPERM_BENCH_CONTRACTION_SUITES_H

#include <cuda_runtime_api.h>
#include <stdint.h>

#include "cuperm.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Device fill with uniform values in [-1, 1) (R_32F, R_64F, R_16F, R_16BF). */
cudaError_t bench_ctr_fill(void* p, int64_t n, cupermDataType_t type, uint64_t seed, cudaStream_t stream);

#ifndef __CUDACC__
#include "suites.h"
/* The run function of both contraction suites. */
int bench_run_contraction_suite(const bench_suite* suite, const bench_options* opt);
/* bench/cases/tccg48.txt, compiled in. */
extern const char bench_tccg48_text[];
#endif

#ifdef __cplusplus
}
#endif

#endif
