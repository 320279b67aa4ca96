#include "exec/contraction/state.h"

#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "exec/handle.h"

static cupermStatus_t state_make(void** out)
{
    cuperm_ctr_state_t* s = calloc(1, sizeof *s);
    if (!s) return cuperm_fail(CUPERM_STATUS_ALLOC_FAILED, "contraction state: out of host memory");
    pthread_mutex_init(&s->lock, NULL);
    *out = s;
    return CUPERM_STATUS_SUCCESS;
}

static void state_destroy(void* state)
{
    cuperm_ctr_state_t* s = state;
    if (!s) return;
    for (int i = 0; i < s->idleCount; ++i) cublasDestroy(s->idle[i]);
    pthread_mutex_destroy(&s->lock);
    free(s);
}

cupermStatus_t cuperm_ctr_state_get(cuperm_handle_t* handle, cuperm_ctr_state_t** state)
{
    return cuperm_handle_engine(handle, CUPERM_ENGINE_CONTRACTION, state_make, state_destroy, (void**)state);
}

cupermStatus_t cuperm_ctr_blas_acquire(cuperm_ctr_state_t* s, cublasHandle_t* blas)
{
    *blas = NULL;
    pthread_mutex_lock(&s->lock);
    if (s->idleCount > 0) *blas = s->idle[--s->idleCount];
    pthread_mutex_unlock(&s->lock);
    if (*blas) return CUPERM_STATUS_SUCCESS;
    const cublasStatus_t st = cublasCreate(blas);
    if (st == CUBLAS_STATUS_SUCCESS) return CUPERM_STATUS_SUCCESS;
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

int cuperm_ctr_state_lookup(cuperm_ctr_state_t* s, const cuperm_ctr_problem_t* key, int measured, cuperm_ctr_layout_t* layout, double* seconds)
{
    int found = 0;
    pthread_mutex_lock(&s->lock);
    for (int i = 0; i < CTR_CACHE_ENTRIES && !found; ++i)
        if (s->cache[i].used && s->cache[i].measured == measured &&
            memcmp(&s->cache[i].key, key, sizeof *key) == 0) {
            *layout = s->cache[i].layout;
            *seconds = s->cache[i].seconds;
            found = 1;
        }
    pthread_mutex_unlock(&s->lock);
    return found;
}

void cuperm_ctr_state_insert(cuperm_ctr_state_t* s, const cuperm_ctr_problem_t* key, int measured, const cuperm_ctr_layout_t* layout,
                      double seconds)
{
    pthread_mutex_lock(&s->lock);
    cuperm_ctr_cache_entry_t* e = &s->cache[s->nextVictim];
    s->nextVictim = (s->nextVictim + 1) % CTR_CACHE_ENTRIES; /* round robin: oldest goes first */
    e->used = 1;
    e->measured = measured;
    e->seconds = seconds;
    e->key = *key;
    e->layout = *layout;
    pthread_mutex_unlock(&s->lock);
}
