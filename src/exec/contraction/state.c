#include "exec/contraction/state.h"

#include <stdlib.h>
#include <string.h>

#include "core/cache.h"
#include "core/error.h"
#include "exec/handle.h"
#include "exec/memory.h"

/* Measured and model plans are cached apart; keys are compared as bytes (the problem is
 * zeroed before it is filled, so its padding is too). */
typedef struct {
    cuperm_ctr_problem_t problem;
    int measured;
    int algo; /* cupermContractionAlgo_t */
} decision_key;

typedef struct {
    cuperm_ctr_layout_t layout;
    double seconds; /* measured: the chosen layout's median time */
} decision;

static void make_key(decision_key* k, const cuperm_ctr_problem_t* p, int measured, cupermContractionAlgo_t algo)
{
    memset(k, 0, sizeof *k);
    memcpy(&k->problem, p, sizeof *p); /* the bytes, padding included */
    k->measured = measured;
    k->algo = (int)algo;
}

static cupermStatus_t state_make(void** out)
{
    cuperm_ctr_state_t* s = calloc(1, sizeof *s);
    if (s) s->decisions = cuperm_cache_create(sizeof(decision_key), sizeof(decision), CTR_CACHE_ENTRIES);
    if (!s || !s->decisions) {
        free(s);
        return cuperm_fail(CUPERM_STATUS_ALLOC_FAILED, "contraction state: out of host memory");
    }
    pthread_mutex_init(&s->lock, NULL);
    *out = s;
    return CUPERM_STATUS_SUCCESS;
}

static void state_destroy(void* state)
{
    cuperm_ctr_state_t* s = state;
    if (!s) return;
    for (int i = 0; i < s->idleCount; ++i) cublasDestroy(s->idle[i]);
    if (s->lt) cublasLtDestroy(s->lt);
    free(atomic_load(&s->spareScratch));
    if (s->tableStream) { /* every plan is gone; their tables' frees may still be queued */
        cudaStreamSynchronize(s->tableStream);
        cudaStreamDestroy(s->tableStream);
        cudaGetLastError();
    }
    cuperm_cache_destroy(s->decisions);
    pthread_mutex_destroy(&s->lock);
    free(s);
}

cupermStatus_t cuperm_ctr_state_get(cuperm_handle_t* handle, cuperm_ctr_state_t** state)
{
    return cuperm_handle_engine(handle, CUPERM_ENGINE_CONTRACTION, state_make, state_destroy, (void**)state);
}

void* cuperm_ctr_scratch_take(cuperm_ctr_state_t* s)
{
    void* scratch = atomic_exchange(&s->spareScratch, NULL);
    return scratch ? scratch : malloc(cuperm_ctr_search_scratch_bytes());
}

void cuperm_ctr_scratch_release(cuperm_ctr_state_t* s, void* scratch)
{
    void* expected = NULL;
    if (scratch && !atomic_compare_exchange_strong(&s->spareScratch, &expected, scratch)) free(scratch);
}

cupermStatus_t cuperm_ctr_blas_acquire(cuperm_ctr_state_t* s, cublasHandle_t* blas)
{
    *blas = NULL;
    pthread_mutex_lock(&s->lock);
    if (s->idleCount > 0) *blas = s->idle[--s->idleCount];
    pthread_mutex_unlock(&s->lock);
    if (*blas) return CUPERM_STATUS_SUCCESS;
    cublasStatus_t st = cublasCreate(blas);
    /* Mixed-precision GEMMs (fp16 / bf16 out, fp32 compute) keep fp32 in split-K reductions: by
     * default cuBLAS may reduce in the output type, and bf16 contractions then missed the fp32-
     * accumulation bound on the H100 (bench/results/small-contractions-h100/bf16-reductions/). */
    if (st == CUBLAS_STATUS_SUCCESS)
        st = cublasSetMathMode(*blas, CUBLAS_DEFAULT_MATH | CUBLAS_MATH_DISALLOW_REDUCED_PRECISION_REDUCTION);
    if (st == CUBLAS_STATUS_SUCCESS) return CUPERM_STATUS_SUCCESS;
    if (*blas) cublasDestroy(*blas);
    *blas = NULL;
    return cuperm_fail(CUPERM_STATUS_LIBRARY_ERROR, "cupermContract: cublasCreate failed: %s",
                       cublasGetStatusString(st));
}

void cuperm_ctr_blas_release(cuperm_ctr_state_t* s, cublasHandle_t blas)
{
    pthread_mutex_lock(&s->lock);
    if (s->idleCount < CTR_BLAS_POOL) {
        s->idle[s->idleCount++] = blas;
        blas = NULL;
    }
    pthread_mutex_unlock(&s->lock);
    if (blas) cublasDestroy(blas);
}

cublasLtHandle_t cuperm_ctr_lt_handle(cuperm_ctr_state_t* s)
{
    pthread_mutex_lock(&s->lock);
    if (!s->lt && cublasLtCreate(&s->lt) != CUBLAS_STATUS_SUCCESS) s->lt = NULL;
    cublasLtHandle_t lt = s->lt;
    pthread_mutex_unlock(&s->lock);
    return lt;
}

cudaError_t cuperm_ctr_tables_upload(cuperm_ctr_state_t* s, cuperm_handle_t* h, const void* host, size_t bytes,
                                     void** dev)
{
    *dev = NULL;
    pthread_mutex_lock(&s->lock);
    cudaError_t e = s->tableStream ? cudaSuccess : cudaStreamCreateWithFlags(&s->tableStream, cudaStreamNonBlocking);
    pthread_mutex_unlock(&s->lock);
    /* The synchronization makes the tables complete for any stream the plan later runs on and
     * lets the caller free host. */
    if (!e) e = cuperm_memory_alloc(h, bytes, s->tableStream, dev);
    if (!e) e = cudaMemcpyAsync(*dev, host, bytes, cudaMemcpyHostToDevice, s->tableStream);
    if (s->tableStream) {
        const cudaError_t sync = cudaStreamSynchronize(s->tableStream);
        if (!e) e = sync;
    }
    if (e && *dev) {
        cuperm_memory_free(*dev, s->tableStream);
        *dev = NULL;
    }
    return e;
}

void cuperm_ctr_tables_free(cuperm_ctr_state_t* s, void* dev)
{
    /* back to the pool at once: no plan run is in flight (the caller's rule) */
    cuperm_memory_free(dev, s->tableStream);
}

int cuperm_ctr_state_lookup(cuperm_ctr_state_t* s, const cuperm_ctr_problem_t* key, int measured,
                            cupermContractionAlgo_t algo, cuperm_ctr_layout_t* layout, double* seconds)
{
    decision_key k;
    make_key(&k, key, measured, algo);
    decision d;
    if (!cuperm_cache_get(s->decisions, &k, &d)) return 0;
    *layout = d.layout;
    *seconds = d.seconds;
    return 1;
}

void cuperm_ctr_state_insert(cuperm_ctr_state_t* s, const cuperm_ctr_problem_t* key, int measured,
                             cupermContractionAlgo_t algo, const cuperm_ctr_layout_t* layout, double seconds)
{
    decision_key k;
    make_key(&k, key, measured, algo);
    decision d;
    memset(&d, 0, sizeof d);
    d.layout = *layout;
    d.seconds = seconds;
    cuperm_cache_put(s->decisions, &k, &d, NULL);
}

typedef struct {
    void (*fn)(void* ctx, const cuperm_ctr_problem_t* problem, const cuperm_ctr_layout_t* layout, double seconds);
    void* ctx;
} foreach_ctx;

static void visit_measured(void* ctx, const void* key, const void* value)
{
    const foreach_ctx* f = ctx;
    decision_key k;
    decision d; /* copies: cache entries are 8-byte aligned, not necessarily more */
    memcpy(&k, key, sizeof k);
    memcpy(&d, value, sizeof d);
    if (k.measured && k.algo == CUPERM_ALGO_DEFAULT) f->fn(f->ctx, &k.problem, &d.layout, d.seconds);
}

void cuperm_ctr_state_foreach_measured(cuperm_ctr_state_t* s,
                                       void (*fn)(void* ctx, const cuperm_ctr_problem_t* problem,
                                                  const cuperm_ctr_layout_t* layout, double seconds),
                                       void* ctx)
{
    foreach_ctx f = {fn, ctx};
    cuperm_cache_foreach(s->decisions, visit_measured, &f);
}
