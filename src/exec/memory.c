/* The handle's device memory pool (see memory.h). */
#include "exec/memory.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    pthread_mutex_t lock;
    int made;          /* the pool was tried (made or found unsupported) */
    int have;          /* pool is usable */
    cudaMemPool_t pool;
} memory_state;

static cupermStatus_t memory_make(void** out)
{
    memory_state* m = calloc(1, sizeof *m);
    if (!m) return cuperm_fail(CUPERM_STATUS_ALLOC_FAILED, "device memory pool: out of host memory");
    pthread_mutex_init(&m->lock, NULL);
    *out = m;
    return CUPERM_STATUS_SUCCESS;
}

static void memory_destroy(void* state)
{
    memory_state* m = state;
    /* Pointers still owed to the pool (frees still queued) keep it alive until they complete. */
    if (m->have) cudaMemPoolDestroy(m->pool);
    cudaGetLastError();
    pthread_mutex_destroy(&m->lock);
    free(m);
}

/* The pool of h's device, made on first use; 0 where the device has none. */
static int pool_for(memory_state* m, int device)
{
    pthread_mutex_lock(&m->lock);
    if (!m->made) {
        m->made = 1;
        int pools = 0;
        struct cudaMemPoolProps props;
        memset(&props, 0, sizeof props);
        props.allocType = cudaMemAllocationTypePinned;
        props.location.type = cudaMemLocationTypeDevice;
        props.location.id = device;
        if (cudaDeviceGetAttribute(&pools, cudaDevAttrMemoryPoolsSupported, device) == cudaSuccess && pools &&
            cudaMemPoolCreate(&m->pool, &props) == cudaSuccess) {
            uint64_t keep = UINT64_MAX;
            m->have = cudaMemPoolSetAttribute(m->pool, cudaMemPoolAttrReleaseThreshold, &keep) == cudaSuccess;
            if (!m->have) cudaMemPoolDestroy(m->pool);
        }
        cudaGetLastError();
    }
    const int have = m->have;
    pthread_mutex_unlock(&m->lock);
    return have;
}

cudaError_t cuperm_memory_alloc(cuperm_handle_t* h, size_t bytes, cudaStream_t stream, void** ptr)
{
    *ptr = NULL;
    memory_state* m = NULL;
    if (cuperm_handle_engine(h, CUPERM_ENGINE_MEMORY, memory_make, memory_destroy, (void**)&m) != CUPERM_STATUS_SUCCESS)
        return cudaErrorMemoryAllocation;
    const cudaError_t e = pool_for(m, h->dev.ordinal) ? cudaMallocFromPoolAsync(ptr, bytes, m->pool, stream)
                                                      : cudaMallocAsync(ptr, bytes, stream);
    if (e != cudaSuccess) {
        cudaGetLastError();
        *ptr = NULL;
    }
    return e;
}

cudaError_t cuperm_memory_free(void* ptr, cudaStream_t stream)
{
    return ptr ? cudaFreeAsync(ptr, stream) : cudaSuccess;
}
