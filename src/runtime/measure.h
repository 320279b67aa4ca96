/* Measure mode: times the planner's candidates on the device. */
#ifndef CUPERM_RUNTIME_MEASURE_H
#define CUPERM_RUNTIME_MEASURE_H

#include "common/kernel_params.h"
#include "host/device_info.h"
#include "kernels/scalars.h"

/** Launches l (any kind) with scalars s; CUDA_ERROR with a message on failure. */
cupermStatus_t cuperm_launch_plan(const cuperm_launch_t* l, cupermDataType_t type,
                                  const cuperm_scalars_t* s, const void* in, void* out,
                                  cudaStream_t stream);

/** Replaces *l by the fastest candidate on (in, out) and stores its median time. */
cupermStatus_t cuperm_measure_best(cuperm_launch_t* l, const cuperm_device_info_t* dev,
                                   cupermDataType_t type, const void* in, void* out,
                                   cudaStream_t stream, double* seconds);

#endif
