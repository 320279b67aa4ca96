/* CUDA event timer: warm-up runs, then batches of runs timed with a pair of
 * events, the median batch divided by its runs. Every event it creates is
 * destroyed on every path, errors included. */
#ifndef CUPERM_SUPPORT_TIMER_H
#define CUPERM_SUPPORT_TIMER_H

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One run of the timed work on stream s: 0, or nonzero on error (the timer stops). */
typedef int (*timer_run_fn)(void* ctx, cudaStream_t s);

typedef struct {
    int warmup;          /* untimed runs first */
    double min_batch_ms; /* > 0: one run is timed alone, and a batch gets
                            (int)(min_batch_ms / max(that, 1e-3)) + 1 runs if that is shorter;
                            0: a batch is one run */
    double target_ms;    /* > 0 (with min_batch_ms): batches = target_ms / (batch time + 1e-3),
                            within [min_batches, max_batches]; 0: min_batches batches */
    int min_batches, max_batches;
    void (*before_batch)(void* ctx, cudaStream_t s); /* NULL, or called before each batch, untimed */
} timer_options;

/* Median milliseconds of one run into *ms: 0, or -1 if an event call or a run failed
 * (*ms then -1). */
int timer_median_ms(timer_run_fn run, void* ctx, cudaStream_t s, const timer_options* o, double* ms);

#ifdef __cplusplus
}
#endif

#endif
