/* Device timing with CUDA events: warm-up, adaptive batches, median of batches,
 * the output poisoned before each batch, and two same-bytes D2D copies timed in the
 * same batches (rotating order), the faster of which is the reference bandwidth:
 * cudaMemcpyAsync, and a copy kernel. A batch's runs of the operation and of the copy
 * kernel are one CUDA graph's replay where they can be captured, so that small tensors
 * are timed on the GPU, not at the host's launch rate; cudaMemcpyAsync is launched
 * directly (its fastest form on DRAM-sized tensors). */
#ifndef CUPERM_BENCH_TIMING_H
#define CUPERM_BENCH_TIMING_H

#include <stddef.h>

#include <cuda_runtime_api.h>

#include "cuperm.h"
#include "support/poison.h"

typedef struct {
    double exec_ms;  /* median time of one execution */
    double copy_ms;  /* the faster of the two copies below: the reference */
    double memcpy_ms;      /* median time of one cudaMemcpyAsync D2D of the same bytes */
    double copy_kernel_ms; /* median time of one run of the benchmark's copy kernel (copy_kernel.cu) */
    int batches;     /* timed batches */
    int inner;       /* executions (and copies of each kind) per batch */
    int graphs;      /* 1: the operation's and copy kernel's runs replayed as CUDA graphs; 0: launched one by one */
} bench_timing;

/* Times cupermExecute(plan, alpha, in, beta, out) against the copies of bytes from in to out
 * within about target_ms. Returns 0, or -1 with err set. */
int bench_time_plan(cupermPlan_t plan, const void* alpha, const void* beta, const void* in,
                    void* out, size_t bytes, cudaStream_t stream, double target_ms,
                    bench_timing* result, char* err, size_t err_size);

/* One run of the timed operation on stream: 0, or -1 with why set. */
typedef int (*bench_timed_fn)(void* ctx, cudaStream_t stream, char* why, size_t why_size);

/* cupermExecute(plan, alpha, in, beta, out) as a bench_timed_fn (ctx: a bench_plan_run). */
typedef struct {
    cupermPlan_t plan;
    const void *alpha, *beta, *in;
    void* out;
} bench_plan_run;
int bench_run_plan(void* ctx, cudaStream_t stream, char* why, size_t why_size);

/* The same for any operation that reads in and writes the bytes of out (a comparison library's). */
int bench_time_run(bench_timed_fn run, void* ctx, const void* in, void* out, size_t bytes, cudaStream_t stream,
                   double target_ms, bench_timing* result, char* err, size_t err_size);

/* Outputs are poisoned with POISON_BYTE (support/poison.h) before checks and
 * timed batches: a kernel that skips an element shows. */

#endif
