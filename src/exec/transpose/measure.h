/* Measure mode: times the planner's candidates on the device. */
#ifndef CUPERM_RUNTIME_MEASURE_H
#define CUPERM_RUNTIME_MEASURE_H

#include "core/kernel_params.h"
#include "core/device_info.h"
#include "core/scalar_values.h"

/** Launches l (any kind) with scalars s; CUDA_ERROR with a message on failure. */
cupermStatus_t cuperm_launch_plan(const cuperm_launch_t* l, cupermDataType_t type,
                                  const cuperm_scalars_t* s, const void* in, void* out,
                                  cudaStream_t stream);

/** A type of the given size, for plain moves (which look only at the size). */
cupermDataType_t cuperm_bits_type(int bytes);

/** Median time of a plain move by launch l on (in, out), after one warm-up run. */
cupermStatus_t cuperm_time_launch(const cuperm_launch_t* l, cupermDataType_t type, const void* in, void* out,
                                  cudaStream_t stream, int repeats, double* seconds);

/** Times the n candidates on (in, out): *best is the fastest, *seconds its median time. */
cupermStatus_t cuperm_measure_best(const cuperm_launch_t* cand, int n, cupermDataType_t type, const void* in,
                                   void* out, cudaStream_t stream, int* best, double* seconds);

#endif
