#include "runtime/measure.h"

#include <stdlib.h>

#include "host/errors.h"
#include "host/plan_select.h"

enum { kMaxCandidates = 9, kRepeats = 5 };

static int cmp_float(const void* a, const void* b)
{
    float x = *(const float*)a, y = *(const float*)b;
    return (x > y) - (x < y);
}

static cupermStatus_t cuda_fail(cudaError_t err, const char* what)
{
    return cuperm_fail(CUPERM_STATUS_CUDA_ERROR, "measure: %s failed (%s)", what, cudaGetErrorString(err));
}

/* Median of kRepeats timed launches after one warm-up. */
static cupermStatus_t time_launch(const cuperm_launch_t* l, cupermDataType_t type, const void* in,
                                  void* out, cudaStream_t stream, cudaEvent_t ev[2], float* ms)
{
    cuperm_scalars_t s = {.plain = 1};
    float t[kRepeats];
    cupermStatus_t st = cuperm_launch_plan(l, type, &s, in, out, stream);
    for (int r = 0; r < kRepeats && !st; ++r) {
        cudaEventRecord(ev[0], stream);
        st = cuperm_launch_plan(l, type, &s, in, out, stream);
        cudaEventRecord(ev[1], stream);
        cudaError_t err = cudaEventSynchronize(ev[1]);
        if (err != cudaSuccess) return cuda_fail(err, "cudaEventSynchronize");
        cudaEventElapsedTime(&t[r], ev[0], ev[1]);
    }
    if (st) return st;
    qsort(t, kRepeats, sizeof t[0], cmp_float);
    *ms = t[kRepeats / 2];
    return CUPERM_STATUS_SUCCESS;
}

cupermStatus_t cuperm_measure_best(cuperm_launch_t* l, const cuperm_device_info_t* dev,
                                   cupermDataType_t type, const void* in, void* out,
                                   cudaStream_t stream, double* seconds)
{
    (void)dev;
    cuperm_launch_t cand[kMaxCandidates];
    int n = cuperm_candidate_launches(l, cand, kMaxCandidates);
    cudaEvent_t ev[2];
    cudaError_t err = cudaEventCreate(&ev[0]);
    if (err != cudaSuccess) return cuda_fail(err, "cudaEventCreate");
    err = cudaEventCreate(&ev[1]);
    if (err != cudaSuccess) {
        cudaEventDestroy(ev[0]);
        return cuda_fail(err, "cudaEventCreate");
    }
    cupermStatus_t st = CUPERM_STATUS_SUCCESS;
    float best_ms = 0;
    int best = -1;
    for (int i = 0; i < n && !st; ++i) {
        float ms = 0;
        st = time_launch(&cand[i], type, in, out, stream, ev, &ms);
        if (!st && (best < 0 || ms < best_ms)) {
            best = i;
            best_ms = ms;
        }
    }
    cudaEventDestroy(ev[0]);
    cudaEventDestroy(ev[1]);
    if (st) return st;
    *l = cand[best];
    *seconds = best_ms * 1e-3;
    return CUPERM_STATUS_SUCCESS;
}
