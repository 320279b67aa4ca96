/*
 * The library's one GPU timer (measure modes of every engine): CUDA events around runs of
 * an enqueue function on a stream, a warm-up run first, the median of several samples.
 */
#ifndef CUPERM_BACKEND_CUDA_TIMER_H
#define CUPERM_BACKEND_CUDA_TIMER_H

#include <cuda_runtime_api.h>

#include "cuperm.h"

/* Enqueues one run of what is timed on stream. */
typedef cupermStatus_t (*cuperm_timed_fn)(void* ctx, cudaStream_t stream);

typedef struct {
    cudaEvent_t ev[2];
} cuperm_timer_t;

/** Creates the events; CUDA_ERROR with a message naming who asked (`what`) on failure. */
cupermStatus_t cuperm_timer_open(cuperm_timer_t* t, const char* what);
void cuperm_timer_close(cuperm_timer_t* t);

/**
 * Median seconds per run: one warm-up run, then `samples` samples (at most 64), each of as
 * many back-to-back runs (up to max_inner) as last about min_sample_ms by the faster of the
 * warm-up and one more run (min_sample_ms <= 0: one run a sample, no extra run). The stream is
 * synchronised.
 */
cupermStatus_t cuperm_timer_median(cuperm_timer_t* t, cuperm_timed_fn fn, void* ctx, cudaStream_t stream,
                                   int samples, float min_sample_ms, int max_inner, double* seconds);

#endif
