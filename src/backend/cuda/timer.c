#include "backend/cuda/timer.h"

#include <stdlib.h>

#include "core/error.h"

enum { kMaxSamples = 64 };

static cupermStatus_t cuda_fail(cudaError_t e, const char* what)
{
    return cuperm_fail(CUPERM_STATUS_CUDA_ERROR, "measuring: %s failed (%s)", what, cudaGetErrorString(e));
}

cupermStatus_t cuperm_timer_open(cuperm_timer_t* t, const char* what)
{
    cudaError_t e = cudaEventCreate(&t->ev[0]);
    if (e != cudaSuccess) return cuda_fail(e, what);
    if ((e = cudaEventCreate(&t->ev[1])) != cudaSuccess) {
        cudaEventDestroy(t->ev[0]);
        return cuda_fail(e, what);
    }
    return CUPERM_STATUS_SUCCESS;
}

void cuperm_timer_close(cuperm_timer_t* t)
{
    cudaEventDestroy(t->ev[0]);
    cudaEventDestroy(t->ev[1]);
}

/* Milliseconds per run of `inner` back-to-back runs. */
static cupermStatus_t sample(cuperm_timer_t* t, cuperm_timed_fn fn, void* ctx, cudaStream_t stream, int inner,
                             float* ms)
{
    cupermStatus_t st = CUPERM_STATUS_SUCCESS;
    cudaEventRecord(t->ev[0], stream);
    for (int i = 0; i < inner && !st; ++i) st = fn(ctx, stream);
    cudaEventRecord(t->ev[1], stream);
    const cudaError_t e = cudaEventSynchronize(t->ev[1]);
    if (st) return st;
    if (e != cudaSuccess) return cuda_fail(e, "cudaEventSynchronize");
    cudaEventElapsedTime(ms, t->ev[0], t->ev[1]);
    *ms /= (float)inner;
    return CUPERM_STATUS_SUCCESS;
}

static int cmp_float(const void* a, const void* b)
{
    const float x = *(const float*)a, y = *(const float*)b;
    return (x > y) - (x < y);
}

cupermStatus_t cuperm_timer_median(cuperm_timer_t* t, cuperm_timed_fn fn, void* ctx, cudaStream_t stream,
                                   int samples, float min_sample_ms, int max_inner, double* seconds)
{
    float first = 0, ms[kMaxSamples];
    if (samples > kMaxSamples) samples = kMaxSamples;
    if (samples < 1) samples = 1;
    cupermStatus_t st = sample(t, fn, ctx, stream, 1, &first);
    if (st) return st;
    int inner = 1;
    if (min_sample_ms > 0) {
        /* Sized by a second, warm run: the first (cold caches, first launches) can take several
         * times as long, which left short plans one run a sample, each paying the host's enqueue
         * of its calls while the GPU waited. */
        float again = 0;
        if ((st = sample(t, fn, ctx, stream, 1, &again))) return st;
        const float one = again < first ? again : first;
        if (one < min_sample_ms) inner = (int)(min_sample_ms / (one > 1e-4f ? one : 1e-4f)) + 1;
    }
    if (inner > max_inner) inner = max_inner > 0 ? max_inner : 1;
    for (int s = 0; s < samples; ++s)
        if ((st = sample(t, fn, ctx, stream, inner, &ms[s]))) return st;
    qsort(ms, (size_t)samples, sizeof ms[0], cmp_float);
    *seconds = 1e-3 * ms[samples / 2];
    return CUPERM_STATUS_SUCCESS;
}
