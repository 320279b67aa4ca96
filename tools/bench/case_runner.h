/* One case end to end: buffers, plans (heuristic and/or measured, creation timed),
 * the element-by-element check of the first execution, and the timing. */
#ifndef CUPERM_BENCH_CASE_RUNNER_H
#define CUPERM_BENCH_CASE_RUNNER_H

#include <stddef.h>

#include <cuda_runtime_api.h>

#include "args.h"
#include "bench_case.h"
#include "cutensor_dl.h"
#include "support/dtype.h"
#include "results.h"
#include "suites.h"

/* Device and host buffers, grown as cases need and reused across cases. */
typedef struct {
    void *d_in, *d_out;
    size_t d_cap;
    unsigned char *h_in, *h_out, *h_init;
    size_t h_cap;
    cudaStream_t stream;
    int threads;
    bench_cutensor* ct; /* --compare cutensor: the library, opened once per run (else NULL) */
} bench_buffers;

void bench_buffers_free(bench_buffers* b);

/* Runs case c (index in its suite) with type t in opt's modes, appending one result
 * per mode to out (*n_out advances). Returns -1 when the CUDA context is no longer
 * usable; failures of one case are recorded in its results instead. */
int bench_run_case(const bench_suite* suite, const bench_options* opt, const dtype_info* t,
                   long index, const bench_case* c, bench_buffers* b, bench_result* out,
                   int* n_out);

#endif
