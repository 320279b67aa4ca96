/*
 * What contractions keep in a cuperm handle: a pool of cuBLAS handles and a
 * cache of layout decisions keyed by the validated problem (core/cache.h). A cuBLAS handle
 * holds one stream and one workspace at a time, so each GEMM takes a handle of
 * its own from the pool (created on demand) and gives it back: threads sharing a
 * cuperm handle never wait for each other's GEMMs. No work is submitted under a lock.
 */
#ifndef CUPERM_CTR_STATE_H
#define CUPERM_CTR_STATE_H

#include <cublasLt.h>
#include <cublas_v2.h>
#include <pthread.h>
#include <stdatomic.h>

#include "plan/contraction/layout.h"

struct cuperm_handle;

#define CTR_CACHE_ENTRIES 32
#define CTR_BLAS_POOL 16 /* idle cuBLAS handles kept; more are created (and destroyed) as needed */

typedef struct cuperm_ctr_state {
    pthread_mutex_t lock;                  /* guards the pool */
    cublasHandle_t idle[CTR_BLAS_POOL];
    int idleCount;
    cublasLtHandle_t lt;                   /* shared by all threads: cuBLASLt keeps no stream or workspace */
    struct cuperm_cache* decisions;        /* core/cache.h: (problem, mode) -> (layout, seconds) */
    void* _Atomic spareScratch;            /* a layout search's scratch, kept for the next search */
    cudaStream_t tableStream;              /* GETT offset tables' uploads (made on first use, under the lock) */
} cuperm_ctr_state_t;

/* The handle's state, created on first use (thread-safe). */
cupermStatus_t cuperm_ctr_state_get(struct cuperm_handle* handle, cuperm_ctr_state_t** state);

/* A cuBLAS handle for one GEMM's use (LIBRARY_ERROR if none can be created), and its return. */
cupermStatus_t cuperm_ctr_blas_acquire(cuperm_ctr_state_t* s, cublasHandle_t* blas);
void cuperm_ctr_blas_release(cuperm_ctr_state_t* s, cublasHandle_t blas);

/* The state's cuBLASLt handle, created on first use (thread-safe); NULL if it cannot be. */
cublasLtHandle_t cuperm_ctr_lt_handle(cuperm_ctr_state_t* s);

/* Cache lookup / insertion by problem, plan mode (measured or not) and algo; both take the lock.
 * seconds: the measured time of a measured entry (0 for model entries). */
int cuperm_ctr_state_lookup(cuperm_ctr_state_t* s, const cuperm_ctr_problem_t* key, int measured,
                            cupermContractionAlgo_t algo, cuperm_ctr_layout_t* layout, double* seconds);
void cuperm_ctr_state_insert(cuperm_ctr_state_t* s, const cuperm_ctr_problem_t* key, int measured,
                             cupermContractionAlgo_t algo, const cuperm_ctr_layout_t* layout, double seconds);

/* Scratch for one layout search (cuperm_ctr_cost_model_t.scratch): the state's spare when no
 * other search holds it, else fresh memory; NULL when out of memory (the search then allocates
 * its own). Give it back with cuperm_ctr_scratch_release. Lock-free. */
void* cuperm_ctr_scratch_take(cuperm_ctr_state_t* s);
void cuperm_ctr_scratch_release(cuperm_ctr_state_t* s, void* scratch);

/* Device memory for a plan's GETT offset tables, on h's device (the current device), filled
 * from host and complete when this returns: from the handle's pool (exec/memory.h) on the
 * state's stream, then one synchronization of that stream. */
cudaError_t cuperm_ctr_tables_upload(cuperm_ctr_state_t* s, struct cuperm_handle* h, const void* host, size_t bytes,
                                     void** dev);
void cuperm_ctr_tables_free(cuperm_ctr_state_t* s, void* dev);

/* Calls fn for every measured decision of CUPERM_ALGO_DEFAULT (the ones a plan-cache file keeps),
 * under the cache's lock: fn must not use the state. */
void cuperm_ctr_state_foreach_measured(cuperm_ctr_state_t* s,
                                       void (*fn)(void* ctx, const cuperm_ctr_problem_t* problem,
                                                  const cuperm_ctr_layout_t* layout, double seconds),
                                       void* ctx);

#endif
