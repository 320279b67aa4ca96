/*
 * Device memory a handle keeps for the calls that are given no workspace (and for plans' GETT
 * offset tables): a stream-ordered pool on the handle's device, made on first use, that keeps
 * what is given back (release threshold: everything) until the handle's last reference goes.
 * The device's default pool gives its memory back to the system at every synchronization, so
 * a call that took a few hundred MB of workspace from it paid to map them again next time
 * (about 1.3 ms per distributed contraction on 2 x H200: bench/results/dist-h200x2/session30).
 * Where the device has no memory pools, the device's current pool (cudaMallocAsync).
 */
#ifndef CUPERM_EXEC_MEMORY_H
#define CUPERM_EXEC_MEMORY_H

#include <cuda_runtime.h>

#include "exec/handle.h"

/** bytes of device memory on stream's order, from h's pool; the current device is h's. */
CUPERM_INTERNAL_API cudaError_t cuperm_memory_alloc(cuperm_handle_t* h, size_t bytes, cudaStream_t stream, void** ptr);

/** Gives ptr back on stream's order (after the work enqueued there); NULL is a no-op. */
CUPERM_INTERNAL_API cudaError_t cuperm_memory_free(void* ptr, cudaStream_t stream);

#endif
