#include "support/timer.h"

#include <stdlib.h>

static int cmp_double(const void* a, const void* b)
{
    const double x = *(const double*)a, y = *(const double*)b;
    return (x > y) - (x < y);
}

/* Milliseconds of n runs between two events. */
static int time_runs(timer_run_fn run, void* ctx, cudaStream_t s, cudaEvent_t e0, cudaEvent_t e1, int n,
                     float* ms)
{
    if (cudaEventRecord(e0, s) != cudaSuccess) return -1;
    for (int i = 0; i < n; ++i)
        if (run(ctx, s)) return -1;
    if (cudaEventRecord(e1, s) != cudaSuccess || cudaEventSynchronize(e1) != cudaSuccess ||
        cudaEventElapsedTime(ms, e0, e1) != cudaSuccess)
        return -1;
    return 0;
}

int timer_median_ms(timer_run_fn run, void* ctx, cudaStream_t s, const timer_options* o, double* ms)
{
    cudaEvent_t e0 = NULL, e1 = NULL;
    double* t = NULL;
    int rc = -1;
    *ms = -1;
    if (cudaEventCreate(&e0) != cudaSuccess || cudaEventCreate(&e1) != cudaSuccess) goto out;
    for (int i = 0; i < o->warmup; ++i)
        if (run(ctx, s)) goto out;
    int inner = 1, batches = o->min_batches;
    if (o->min_batch_ms > 0) {
        float one = 0;
        if (time_runs(run, ctx, s, e0, e1, 1, &one)) goto out;
        if (one < o->min_batch_ms) inner = (int)(o->min_batch_ms / (one > 1e-3f ? one : 1e-3f)) + 1;
        if (o->target_ms > 0) batches = (int)(o->target_ms / (one * inner + 1e-3));
    }
    if (batches < o->min_batches) batches = o->min_batches;
    if (o->max_batches > 0 && batches > o->max_batches) batches = o->max_batches;
    if (batches < 1) batches = 1;
    t = malloc(sizeof(double) * (size_t)batches);
    if (!t) goto out;
    for (int b = 0; b < batches; ++b) {
        if (o->before_batch) o->before_batch(ctx, s);
        float batch = 0;
        if (time_runs(run, ctx, s, e0, e1, inner, &batch)) goto out;
        t[b] = (double)batch / inner;
    }
    qsort(t, (size_t)batches, sizeof(double), cmp_double);
    *ms = t[batches / 2];
    rc = 0;
out:
    free(t);
    if (e0) cudaEventDestroy(e0);
    if (e1) cudaEventDestroy(e1);
    return rc;
}
