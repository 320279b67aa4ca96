#include "timing.h"

#include <stdio.h>
#include <stdlib.h>

#include "copy_kernel.h"
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

typedef struct {
    bench_timed_fn run;
    void* ctx;
    const void* in;
    void* out;
    size_t bytes;
    cudaStream_t stream;
    int sms; /* the device's multiprocessors (the copy kernel's grid) */
    char why[256]; /* the failing run's message */
} work;

static int run_execs(work* w, int n)
{
    for (int i = 0; i < n; ++i)
        if (w->run(w->ctx, w->stream, w->why, sizeof w->why) != 0) return -1;
    return 0;
}

/* The reference copies: cudaMemcpyAsync (kernel 0) or the benchmark's copy kernel (1). */
static cudaError_t run_copies(const work* w, int kernel, int n)
{
    for (int i = 0; i < n; ++i) {
        cudaError_t e = kernel ? bench_copy_kernel(w->out, w->in, w->bytes, w->sms, w->stream)
                               : cudaMemcpyAsync(w->out, w->in, w->bytes, cudaMemcpyDeviceToDevice, w->stream);
        if (e != cudaSuccess) return e;
    }
    return cudaSuccess;
}

/* n runs of timed part k: the operation (0) or a copy (1, 2). */
static int run_part(work* w, int k, int n, char* err, size_t err_size)
{
    if (k == 0) {
        if (run_execs(w, n) == 0) return 0;
        snprintf(err, err_size, "%s", w->why[0] ? w->why : "the timed operation failed");
        return -1;
    }
    cudaError_t e = run_copies(w, k - 1, n);
    if (e == cudaSuccess) return 0;
    snprintf(err, err_size, "reference copy: %s", cudaGetErrorString(e));
    return -1;
}

enum { PARTS = 3 }; /* the operation, cudaMemcpyAsync, the copy kernel */

/* The operation's and the copy kernel's n runs captured as one CUDA graph each, so that a batch's
 * runs follow each other on the GPU without the host's launch gaps: small tensors move faster than
 * the host launches (1-4 MB copies took 4-5 us a launch on the H100 machine, the bytes under 1 us).
 * cudaMemcpyAsync stays a direct launch: captured, it became a copy-engine copy 17% slower on
 * DRAM-sized tensors (H100), which would have weakened the reference. 0, or -1 with every graph[k]
 * NULL when a part cannot be captured (the batches then launch the runs one by one). */
static int capture_parts(work* w, int n, cudaGraphExec_t graph[PARTS])
{
    char why[256];
    for (int k = 0; k < PARTS; ++k) {
        if (k == 1) continue; /* cudaMemcpyAsync */
        cudaGraph_t g = NULL;
        if (cudaStreamBeginCapture(w->stream, cudaStreamCaptureModeThreadLocal) != cudaSuccess) goto fail;
        const int rc = run_part(w, k, n, why, sizeof why);
        const cudaError_t e = cudaStreamEndCapture(w->stream, &g);
        const int ok = !rc && e == cudaSuccess && cudaGraphInstantiate(&graph[k], g, 0) == cudaSuccess;
        if (g) cudaGraphDestroy(g);
        if (!ok) goto fail;
    }
    return 0;
fail:
    cudaGetLastError();
    for (int k = 0; k < PARTS; ++k)
        if (graph[k]) cudaGraphExecDestroy(graph[k]), graph[k] = NULL;
    w->why[0] = 0;
    return -1;
}

/* n runs of part k: its graph's launch where there is one, else the runs one by one. */
static int launch_part(work* w, const cudaGraphExec_t graph[PARTS], int k, int n, char* err, size_t err_size)
{
    if (!graph[k]) return run_part(w, k, n, err, err_size);
    const cudaError_t e = cudaGraphLaunch(graph[k], w->stream);
    if (e == cudaSuccess) return 0;
    snprintf(err, err_size, "cudaGraphLaunch: %s", cudaGetErrorString(e));
    return -1;
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
    work w = {run, ctx, in, out, bytes, stream, 0, ""};
    cudaEvent_t ev[PARTS + 1] = {0};
    cudaGraphExec_t graph[PARTS] = {0};
    double* ms[PARTS] = {0};
    int rc = -1, dev;
    CUDA_TRY(cudaGetDevice(&dev));
    CUDA_TRY(cudaDeviceGetAttribute(&w.sms, cudaDevAttrMultiProcessorCount, dev));
    for (int i = 0; i <= PARTS; ++i) CUDA_TRY(cudaEventCreate(&ev[i]));

    /* Warm-up, then one of each timed alone to size the batches. */
    for (int k = 0; k < PARTS; ++k)
        if (run_part(&w, k, WARMUP_RUNS, err, err_size)) goto fail;
    CUDA_TRY(cudaEventRecord(ev[0], stream));
    for (int k = 0; k < PARTS; ++k) {
        if (run_part(&w, k, 1, err, err_size)) goto fail;
        CUDA_TRY(cudaEventRecord(ev[k + 1], stream));
    }
    CUDA_TRY(cudaEventSynchronize(ev[PARTS]));
    float t[PARTS], total = 0.0f, fastest = 1e30f;
    for (int k = 0; k < PARTS; ++k) {
        CUDA_TRY(cudaEventElapsedTime(&t[k], ev[k], ev[k + 1]));
        total += t[k];
        if (t[k] < fastest) fastest = t[k];
    }
    if (fastest < 1e-4f) fastest = 1e-4f;
    int inner = (int)(MIN_BATCH_MS / fastest) + 1;
    int batches = (int)(target_ms / (inner * (double)total));
    if (batches < MIN_BATCHES) batches = MIN_BATCHES;
    if (batches > MAX_BATCHES) batches = MAX_BATCHES;

    for (int k = 0; k < PARTS; ++k)
        if (!(ms[k] = malloc(sizeof(double) * (size_t)batches))) {
            snprintf(err, err_size, "out of host memory");
            goto fail;
        }
    result->graphs = capture_parts(&w, inner, graph) == 0;
    for (int k = 0; k < PARTS && result->graphs; ++k) /* the graphs' first launch (upload) untimed */
        if (graph[k] && launch_part(&w, graph, k, inner, err, err_size)) goto fail;
    for (int b = 0; b < batches; ++b) {
        /* Rotate which goes first so none always inherits another's cache state. */
        CUDA_TRY(cudaMemsetAsync(out, POISON_BYTE, bytes, stream));
        CUDA_TRY(cudaEventRecord(ev[0], stream));
        for (int i = 0; i < PARTS; ++i) {
            if (launch_part(&w, graph, (b + i) % PARTS, inner, err, err_size)) goto fail;
            CUDA_TRY(cudaEventRecord(ev[i + 1], stream));
        }
        CUDA_TRY(cudaEventSynchronize(ev[PARTS]));
        for (int i = 0; i < PARTS; ++i) {
            float elapsed;
            CUDA_TRY(cudaEventElapsedTime(&elapsed, ev[i], ev[i + 1]));
            ms[(b + i) % PARTS][b] = elapsed / inner;
        }
    }
    result->exec_ms = bench_stats_of(ms[0], (size_t)batches).median;
    result->memcpy_ms = bench_stats_of(ms[1], (size_t)batches).median;
    result->copy_kernel_ms = bench_stats_of(ms[2], (size_t)batches).median;
    result->copy_ms = result->memcpy_ms < result->copy_kernel_ms ? result->memcpy_ms : result->copy_kernel_ms;
    result->batches = batches;
    result->inner = inner;
    rc = 0;
fail:
    for (int k = 0; k < PARTS; ++k) {
        free(ms[k]);
        if (graph[k]) cudaGraphExecDestroy(graph[k]);
    }
    for (int i = 0; i <= PARTS; ++i)
        if (ev[i]) cudaEventDestroy(ev[i]);
    return rc;
}
