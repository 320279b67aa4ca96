/* Executes replayed as CUDA graphs (plan.h: cuperm_dist_execute). A store transport's execute is
 * a dozen launches, barriers and stream joins; enqueued one by one they cost the host 30-45 us,
 * which sets the pace of back-to-back small redistributions (2 x H200, bench/results/dist-h200x2/
 * session32/). The second execute with the same pointers and scalars captures the run into a graph;
 * later ones launch it (one host call). Only the store transports replay: their runs are this
 * library's kernels alone (window barriers and transposes), with no NCCL call to capture. */
#include <string.h>

#include "core/scalars.h"
#include "dist/plan.h"

static int replayable(const cuperm_dist_plan_t* p, const void* out)
{
    return (p->direct.used && out == p->direct.out) || cuperm_dist_stores(p->transport);
}

static int same_key(const cuperm_dist_replay_t* r, const void* in, const void* out, const void* ws,
                    const void* alpha, const void* beta, size_t sb)
{
    return r->seen && r->in == in && r->out == out && r->ws == ws && !memcmp(r->alpha, alpha, sb) &&
           !memcmp(r->beta, beta, sb);
}

void cuperm_dist_replays_clear(cuperm_dist_plan_t* p)
{
    for (int i = 0; i < CUPERM_DIST_REPLAYS; ++i)
        if (p->replays[i].exec) cudaGraphExecDestroy(p->replays[i].exec);
    memset(p->replays, 0, sizeof p->replays);
    p->replay_next = 0;
}

/* The run captured on the plan's capture stream (its side streams join the capture through the
 * run's own fork and join), instantiated with the link stream's priority kept. A failed capture
 * leaves NULL: the key then runs uncaptured. */
static cudaGraphExec_t capture(cuperm_dist_plan_t* p, const void* alpha, const void* in, const void* beta, void* out,
                               void* ws)
{
    if (!p->capture_stream && cudaStreamCreateWithFlags(&p->capture_stream, cudaStreamNonBlocking)) {
        cudaGetLastError();
        return NULL;
    }
    cudaGraph_t g = NULL;
    cudaGraphExec_t x = NULL;
    if (cudaStreamBeginCapture(p->capture_stream, cudaStreamCaptureModeThreadLocal)) {
        cudaGetLastError();
        return NULL;
    }
    const cupermStatus_t st = cuperm_dist_run(p, alpha, in, beta, out, ws, p->capture_stream);
    const cudaError_t e = cudaStreamEndCapture(p->capture_stream, &g);
    if (!st && !e && g && cudaGraphInstantiate(&x, g, cudaGraphInstantiateFlagUseNodePriority)) x = NULL;
    if (g) cudaGraphDestroy(g);
    cudaGetLastError(); /* a failed capture's error is not the caller's */
    return x;
}

cupermStatus_t cuperm_dist_execute(cuperm_dist_plan_t* p, const void* alpha, const void* in, const void* beta,
                                   void* out, void* ws, cudaStream_t stream)
{
    enum cudaStreamCaptureStatus cs = cudaStreamCaptureStatusNone;
    if (!replayable(p, out) || cudaStreamIsCapturing(stream, &cs) || cs != cudaStreamCaptureStatusNone)
        return cuperm_dist_run(p, alpha, in, beta, out, ws, stream); /* the caller's own capture takes it */
    const size_t sb = cuperm_scalar_size(p->type);
    cuperm_dist_replay_t* r = NULL;
    for (int i = 0; i < CUPERM_DIST_REPLAYS && !r; ++i)
        if (same_key(&p->replays[i], in, out, ws, alpha, beta, sb)) r = &p->replays[i];
    if (!r) { /* first sight: remember the key, run it as it is */
        r = &p->replays[p->replay_next];
        p->replay_next = (p->replay_next + 1) % CUPERM_DIST_REPLAYS;
        if (r->exec) cudaGraphExecDestroy(r->exec);
        *r = (cuperm_dist_replay_t){.in = in, .out = out, .ws = ws, .seen = 1};
        memcpy(r->alpha, alpha, sb);
        memcpy(r->beta, beta, sb);
        return cuperm_dist_run(p, alpha, in, beta, out, ws, stream);
    }
    if (r->seen++ == 1) r->exec = capture(p, alpha, in, beta, out, ws);
    if (!r->exec) return cuperm_dist_run(p, alpha, in, beta, out, ws, stream);
    const cudaError_t e = cudaGraphLaunch(r->exec, stream);
    return e ? cuperm_dist_cuda_fail(e, "cupermDistExecute: cudaGraphLaunch") : CUPERM_STATUS_SUCCESS;
}
