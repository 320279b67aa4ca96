/*
 * What contractions keep in a cuperm handle: a cuBLAS handle (created on first
 * use) and a cache of layout decisions keyed by the validated problem. One
 * mutex guards both; cuBLAS calls run under it because a cuBLAS handle holds
 * one stream and one workspace at a time.
 */
#ifndef CUPERM_CTR_STATE_H
#define CUPERM_CTR_STATE_H

#include <cublas_v2.h>
#include <pthread.h>

#include "ctr_hook.h"
#include "ctr_layout.h"

#define CTR_CACHE_ENTRIES 32

typedef struct {
    int used;
    int measured;          /* part of the key: measured and model plans are cached apart */
    double seconds;        /* measured: the chosen layout's median time */
    ctr_problem key;
    ctr_layout layout;
} ctr_cache_entry;

typedef struct ctr_state {
    pthread_mutex_t lock;
    cublasHandle_t blas; /* NULL until the first contraction runs */
    ctr_cache_entry cache[CTR_CACHE_ENTRIES];
    int nextVictim;
} ctr_state;

/* The handle's state, created on first use (thread-safe). */
cupermStatus_t ctr_state_get(cupermHandle_t handle, ctr_state** state);

/* Cache lookup / insertion by problem and plan mode (measured or not); both take the lock.
 * seconds: the measured time of a measured entry (0 for model entries). */
int ctr_state_lookup(ctr_state* s, const ctr_problem* key, int measured, ctr_layout* layout, double* seconds);
void ctr_state_insert(ctr_state* s, const ctr_problem* key, int measured, const ctr_layout* layout,
                      double seconds);

#endif
