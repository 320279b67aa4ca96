#include "timing.h"

#include <stdio.h>
#include <stdlib.h>

#include "results.h"

/* A batch lasts at least this long, so event resolution (~0.5 us) stays below 0.1%. */
#define MIN_BATCH_MS 0.5
#define MIN_BATCHES 11
#define MAX_BATCHES 201
#define WARMUP_RUNS 3

#define CUDA_TRY(call)                                                                           \
    do {                                                                                         \
        cudaError_t e_ = (call);                                                                 \
        if (e_ != cudaSuccess) {                                                                 \
            snprintf(err, err_size, "%s: %s", #call, cudaGetErrorString(e_));                   \
            goto fail;                                                                           \
        }                                                                                        \
    } while (0)

#define RUN_TRY(call)                                                                            \
    do {                                                                                         \
        if ((call) != 0) {                                                                       \
            snprintf(err, err_size, "%s", w.why[0] ? w.why : "the timed operation failed");     \
            goto fail;                                                                           \
        }                                                                                        \
    } while (0)

typedef struct {
    bench_timed_fn run;
    void* ctx;
    const void* in;
    void* out;
    size_t bytes;
    cudaStream_t stream;
    char why[256]; /* the failing run's message */
} work;

static int run_execs(work* w, int n)
{
    for (int i = 0; i < n; ++i)
        if (w->run(w->ctx, w->stream, w->why, sizeof w->why) != 0) return -1;
    return 0;
}

static cudaError_t run_copies(const work* w, int n)
{
    for (int i = 0; i < n; ++i) {
        cudaError_t e =
            cudaMemcpyAsync(w->out, w->in, w->bytes, cudaMemcpyDeviceToDevice, w->stream);
        if (e != cudaSuccess) return e;
    }
    return cudaSuccess;
}

int bench_run_plan(void* ctx, cudaStream_t stream, char* why, size_t why_size)
{
    const bench_plan_run* r = ctx;
    cupermStatus_t s = cupermExecute(r->plan, r->alpha, r->in, r->beta, r->out, stream);
    if (s == CUPERM_STATUS_SUCCESS) return 0;
    snprintf(why, why_size, "cupermExecute: %s: %s", cupermGetErrorString(s), cupermGetLastErrorMessage());
    return -1;
}

int bench_time_plan(cupermPlan_t plan, const void* alpha, const void* beta, const void* in,
                    void* out, size_t bytes, cudaStream_t stream, double target_ms,
                    bench_timing* result, char* err, size_t err_size)
{
    bench_plan_run r = {plan, alpha, beta, in, out};
    return bench_time_run(bench_run_plan, &r, in, out, bytes, stream, target_ms, result, err, err_size);
}

int bench_time_run(bench_timed_fn run, void* ctx, const void* in, void* out, size_t bytes, cudaStream_t stream,
                   double target_ms, bench_timing* result, char* err, size_t err_size)
{
    work w = {run, ctx, in, out, bytes, stream, ""};
    cudaEvent_t ev[4] = {0};
    double *exec_ms = NULL, *copy_ms = NULL;
    int rc = -1;
    for (int i = 0; i < 4; ++i) CUDA_TRY(cudaEventCreate(&ev[i]));

    /* Warm-up, then one of each timed alone to size the batches. */
    RUN_TRY(run_execs(&w, WARMUP_RUNS));
    CUDA_TRY(run_copies(&w, WARMUP_RUNS));
    CUDA_TRY(cudaEventRecord(ev[0], stream));
    RUN_TRY(run_execs(&w, 1));
    CUDA_TRY(cudaEventRecord(ev[1], stream));
    CUDA_TRY(run_copies(&w, 1));
    CUDA_TRY(cudaEventRecord(ev[2], stream));
    CUDA_TRY(cudaEventSynchronize(ev[2]));
    float t_exec, t_copy;
    CUDA_TRY(cudaEventElapsedTime(&t_exec, ev[0], ev[1]));
    CUDA_TRY(cudaEventElapsedTime(&t_copy, ev[1], ev[2]));
    double fastest = t_exec < t_copy ? t_exec : t_copy;
    if (fastest < 1e-4) fastest = 1e-4;
    int inner = (int)(MIN_BATCH_MS / fastest) + 1;
    int batches = (int)(target_ms / (inner * (double)(t_exec + t_copy)));
    if (batches < MIN_BATCHES) batches = MIN_BATCHES;
    if (batches > MAX_BATCHES) batches = MAX_BATCHES;

    exec_ms = malloc(sizeof(double) * (size_t)batches);
    copy_ms = malloc(sizeof(double) * (size_t)batches);
    if (!exec_ms || !copy_ms) {
        snprintf(err, err_size, "out of host memory");
        goto fail;
    }
    for (int b = 0; b < batches; ++b) {
        /* Alternate which goes first so neither always inherits the other's cache state. */
        int exec_first = b % 2 == 0;
        CUDA_TRY(cudaMemsetAsync(out, POISON_BYTE, bytes, stream));
        for (int k = 0; k < 2; ++k) {
            cudaEvent_t start = ev[2 * k], stop = ev[2 * k + 1];
            CUDA_TRY(cudaEventRecord(start, stream));
            if ((k == 0) == exec_first) RUN_TRY(run_execs(&w, inner));
            else CUDA_TRY(run_copies(&w, inner));
            CUDA_TRY(cudaEventRecord(stop, stream));
        }
        CUDA_TRY(cudaEventSynchronize(ev[3]));
        float first, second;
        CUDA_TRY(cudaEventElapsedTime(&first, ev[0], ev[1]));
        CUDA_TRY(cudaEventElapsedTime(&second, ev[2], ev[3]));
        exec_ms[b] = (exec_first ? first : second) / inner;
        copy_ms[b] = (exec_first ? second : first) / inner;
    }
    result->exec_ms = bench_stats_of(exec_ms, (size_t)batches).median;
    result->copy_ms = bench_stats_of(copy_ms, (size_t)batches).median;
    result->batches = batches;
    result->inner = inner;
    rc = 0;
fail:
    free(exec_ms);
    free(copy_ms);
    for (int i = 0; i < 4; ++i)
        if (ev[i]) cudaEventDestroy(ev[i]);
    return rc;
}
