#include "exec/handle.h"

#include "backend/cuda/cublaslt_gemm.h"
#include "exec/contraction/measure.h"
#include "plan/contraction/gett_tma.h"
#include "plan/contraction/layout.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/registry.h"

static int attribute(enum cudaDeviceAttr attr, int device)
{
    int v = 0;
    if (cudaDeviceGetAttribute(&v, attr, device) != cudaSuccess) v = 0;
    return v;
}

/* Why no device is usable, in words a user can act on. */
static cupermStatus_t no_device(cudaError_t err)
{
    if (err == cudaErrorInsufficientDriver || err == cudaErrorNoDevice)
        return cuperm_fail(CUPERM_STATUS_CUDA_ERROR, "cupermCreate: no usable CUDA device: %s (is an NVIDIA "
                           "driver installed and a GPU visible? nvidia-smi should list one)",
                           err == cudaErrorNoDevice ? "no NVIDIA GPU was found" :
                           "no NVIDIA driver was found, or it is older than this CUDA runtime");
    return cuperm_fail(CUPERM_STATUS_CUDA_ERROR, "cupermCreate: no usable CUDA device (%s)",
                       cudaGetErrorString(err));
}

cupermStatus_t cuperm_handle_create(cuperm_handle_t** out)
{
    int device, count = 0;
    cudaError_t err = cudaGetDeviceCount(&count);
    if (err == cudaSuccess && count == 0) err = cudaErrorNoDevice;
    if (err == cudaSuccess) err = cudaGetDevice(&device);
    if (err != cudaSuccess) {
        cudaGetLastError(); /* not sticky: it only says no device could be used */
        return no_device(err);
    }
    cuperm_handle_t* h = calloc(1, sizeof *h);
    if (!h) return cuperm_fail(CUPERM_STATUS_ALLOC_FAILED, "cupermCreate: out of host memory");
    h->plan_cache = cuperm_plan_cache_create();
    if (!h->plan_cache) {
        free(h);
        return cuperm_fail(CUPERM_STATUS_ALLOC_FAILED, "cupermCreate: out of host memory");
    }
    atomic_init(&h->refs, 1);
    cuperm_device_info_t* d = &h->dev;
    d->ordinal = device;
    d->cc_major = attribute(cudaDevAttrComputeCapabilityMajor, device);
    d->cc_minor = attribute(cudaDevAttrComputeCapabilityMinor, device);
    d->sm_count = attribute(cudaDevAttrMultiProcessorCount, device);
    d->l2_bytes = attribute(cudaDevAttrL2CacheSize, device);
    d->smem_per_block = attribute(cudaDevAttrMaxSharedMemoryPerBlock, device);
    d->smem_per_sm = attribute(cudaDevAttrMaxSharedMemoryPerMultiprocessor, device);
    /* Double data rate: two transfers per clock over the whole bus. */
    double clock_hz = 1e3 * attribute(cudaDevAttrMemoryClockRate, device);
    double bus_bytes = attribute(cudaDevAttrGlobalMemoryBusWidth, device) / 8.0;
    d->dram_bytes_per_second = clock_hz * bus_bytes > 0 ? 2.0 * clock_hz * bus_bytes : 2e12;
    h->tuning = cuperm_tuning_for(d);
    cuperm_handle_read_env(h);
    *out = h;
    return CUPERM_STATUS_SUCCESS;
}

/* Environment variable name as a whole decimal integer in [lo, hi]; anything else: fallback. */
static long env_long(const char* name, long lo, long hi, long fallback)
{
    const char* s = getenv(name);
    char* end = NULL;
    const long v = s ? strtol(s, &end, 10) : 0;
    return s && end != s && *end == '\0' && v >= lo && v <= hi ? v : fallback;
}

void cuperm_handle_read_env(cuperm_handle_t* h)
{
    const char* gett = getenv("CUPERM_GETT");
    h->gettTma = gett && strcmp(gett, "tma") == 0;
    h->gettForced = h->gettTma || (gett && strcmp(gett, "1") == 0);
    const char* wgmma = getenv("CUPERM_GETT_WGMMA");
    h->gettWgmma = wgmma && strcmp(wgmma, "1") == 0;
    const char* tile = getenv("CUPERM_GETT_TMA_TILE");
    h->gettTmaTile = tile ? cuperm_ctr_tma_tile_id(tile) : -1;
    const char* dense = getenv("CUPERM_CTR_DENSE_WORKSPACE");
    h->ctrDenseWorkspace = dense && strcmp(dense, "1") == 0;
    h->ctrZeroKind = cuperm_ctr_zero_kind_named(getenv("CUPERM_CTR_ZERO"));
    const char* calibration = getenv("CUPERM_CTR_TRANSPOSE_CALIBRATION");
    h->ctrRawTransposePrices = calibration && strcmp(calibration, "0") == 0;
    const char* packed = getenv("CUPERM_CTR_DTILE_PACKED_PRICE");
    h->ctrPackedUnpriced = packed && strcmp(packed, "0") == 0;
    const char* sample = getenv("CUPERM_CTR_MEASURE_SAMPLE_MS");
    char* stop = NULL;
    const double ms = sample ? strtod(sample, &stop) : 0;
    h->ctrMeasureSampleMs = sample && stop != sample && *stop == '\0' && ms > 0 && ms <= 100 ? ms : CTR_MEASURE_SAMPLE_MS;
    h->ltAfterRuns = env_long("CUPERM_LT_AFTER_RUNS", 0, LONG_MAX, CTR_LT_AFTER_RUNS);
    h->ltAlgo = (int)env_long("CUPERM_LT_ALGO", 0, CTR_LT_ALGOS - 1, 0);
    h->distStoreBlocks = (int)env_long("CUPERM_DIST_STORE_BLOCKS", 1, 64, 0);
}

cuperm_handle_t* cuperm_handle_resolve(cupermHandle_t token)
{
    return cuperm_registry_get(CUPERM_OBJ_HANDLE, (uintptr_t)token);
}

cupermStatus_t cuperm_handle_get(cupermHandle_t token, cuperm_handle_t** out)
{
    return cuperm_registry_lookup(CUPERM_OBJ_HANDLE, (uintptr_t)token, 0, NULL, "handle", "cuperm handle",
                                  (void**)out);
}

void cuperm_handle_retain(cuperm_handle_t* h) { atomic_fetch_add(&h->refs, 1); }

void cuperm_handle_release(cuperm_handle_t* h)
{
    if (atomic_fetch_sub(&h->refs, 1) != 1) return;
    for (int e = 0; e < CUPERM_ENGINES; ++e) {
        void* state = atomic_load(&h->engines[e].state);
        if (state) h->engines[e].destroy(state);
    }
    cuperm_plan_cache_destroy(h->plan_cache);
    free(h);
}

cupermStatus_t cuperm_handle_engine(cuperm_handle_t* h, cuperm_engine_t engine, cupermStatus_t (*make)(void** state),
                                    void (*destroy)(void* state), void** out)
{
    cuperm_engine_slot_t* slot = &h->engines[engine];
    void* s = atomic_load_explicit(&slot->state, memory_order_acquire);
    if (!s) {
        void* fresh = NULL;
        cupermStatus_t st = make(&fresh);
        if (st) return st;
        void* expected = NULL;
        if (atomic_compare_exchange_strong(&slot->state, &expected, fresh)) {
            /* Only the winner writes it; it is read when the last reference goes, which the
             * reference count orders after this. */
            slot->destroy = destroy;
            s = fresh;
        } else {
            destroy(fresh);
            s = expected;
        }
    }
    *out = s;
    return CUPERM_STATUS_SUCCESS;
}
