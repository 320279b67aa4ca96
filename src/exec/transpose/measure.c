#include "exec/transpose/measure.h"

#include <stdlib.h>

#include "core/error.h"
#include "plan/transpose/select.h"

enum { kRepeats = 5, kMaxRepeats = 64 };

static int cmp_float(const void* a, const void* b)
{
    float x = *(const float*)a, y = *(const float*)b;
    return (x > y) - (x < y);
}

static cupermStatus_t cuda_fail(cudaError_t err, const char* what)
{
    return cuperm_fail(CUPERM_STATUS_CUDA_ERROR, "measure: %s failed (%s)", what, cudaGetErrorString(err));
}

cupermDataType_t cuperm_bits_type(int bytes)
{
    switch (bytes) {
    case 1: return CUPERM_R_8U;
    case 2: return CUPERM_R_16I;
    case 4: return CUPERM_R_32U;
    case 8: return CUPERM_R_64U;
    default: return CUPERM_C_64F;
    }
}

static cupermStatus_t time_with(const cuperm_launch_t* l, cupermDataType_t type, const void* in, void* out,
                                cudaStream_t stream, cudaEvent_t ev[2], int repeats, double* seconds)
{
    cuperm_scalars_t s = {.plain = 1};
    float t[kMaxRepeats];
    if (repeats > kMaxRepeats) repeats = kMaxRepeats;
    cupermStatus_t st = cuperm_launch_plan(l, type, &s, in, out, stream);
    for (int r = 0; r < repeats && !st; ++r) {
        cudaEventRecord(ev[0], stream);
        st = cuperm_launch_plan(l, type, &s, in, out, stream);
        cudaEventRecord(ev[1], stream);
        cudaError_t err = cudaEventSynchronize(ev[1]);
        if (err != cudaSuccess) return cuda_fail(err, "cudaEventSynchronize");
        cudaEventElapsedTime(&t[r], ev[0], ev[1]);
    }
    if (st) return st;
    qsort(t, (size_t)repeats, sizeof t[0], cmp_float);
    *seconds = t[repeats / 2] * 1e-3;
    return CUPERM_STATUS_SUCCESS;
}

static cupermStatus_t events_create(cudaEvent_t ev[2])
{
    cudaError_t err = cudaEventCreate(&ev[0]);
    if (err != cudaSuccess) return cuda_fail(err, "cudaEventCreate");
    err = cudaEventCreate(&ev[1]);
    if (err != cudaSuccess) {
        cudaEventDestroy(ev[0]);
        return cuda_fail(err, "cudaEventCreate");
    }
    return CUPERM_STATUS_SUCCESS;
}

static void events_destroy(cudaEvent_t ev[2])
{
    cudaEventDestroy(ev[0]);
    cudaEventDestroy(ev[1]);
}

cupermStatus_t cuperm_time_launch(const cuperm_launch_t* l, cupermDataType_t type, const void* in, void* out,
                                  cudaStream_t stream, int repeats, double* seconds)
{
    cudaEvent_t ev[2];
    cupermStatus_t st = events_create(ev);
    if (st) return st;
    st = time_with(l, type, in, out, stream, ev, repeats, seconds);
    events_destroy(ev);
    return st;
}

cupermStatus_t cuperm_measure_best(const cuperm_launch_t* cand, int n, cupermDataType_t type, const void* in,
                                   void* out, cudaStream_t stream, int* best, double* seconds)
{
    cudaEvent_t ev[2];
    cupermStatus_t st = events_create(ev);
    if (st) return st;
    *best = -1;
    for (int i = 0; i < n && !st; ++i) {
        double t = 0;
        st = time_with(&cand[i], type, in, out, stream, ev, kRepeats, &t);
        if (!st && (*best < 0 || t < *seconds)) {
            *best = i;
            *seconds = t;
        }
    }
    events_destroy(ev);
    return st;
}
