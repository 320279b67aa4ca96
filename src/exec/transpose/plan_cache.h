/* A handle's cache of measured transpose plans, keyed by the planning
 * arguments, so that measuring a problem again costs a lookup, and heuristic
 * planning of a measured problem returns the measured choice.
 * Thread-safe: plan creation may run on several threads at once. */
#ifndef CUPERM_RUNTIME_PLAN_CACHE_H
#define CUPERM_RUNTIME_PLAN_CACHE_H

#include "cuperm.h"

struct cuperm_transpose_plan;

typedef struct {
    int rank;
    cupermDataType_t type;
    int has_in_strides, has_out_strides;
    int64_t extents[CUPERM_MAX_RANK];
    int perm[CUPERM_MAX_RANK];
    int64_t in_strides[CUPERM_MAX_RANK];
    int64_t out_strides[CUPERM_MAX_RANK];
} cuperm_plan_key_t;

#define CUPERM_PLAN_CACHE_SIZE 64

typedef struct cuperm_cache cuperm_plan_cache_t; /* core/cache.h: plans keyed by their arguments */

/** Builds a key from validated planning arguments (unused entries zeroed). */
void cuperm_plan_key_init(cuperm_plan_key_t* key, int rank, const int64_t* extents, const int* perm,
                          cupermDataType_t type, const int64_t* in_strides, const int64_t* out_strides);

cuperm_plan_cache_t* cuperm_plan_cache_create(void);
void cuperm_plan_cache_destroy(cuperm_plan_cache_t* cache);

/** Copies a cached plan for key into *plan; measured_only skips heuristic
 * entries. Returns 1 on a hit. */
int cuperm_plan_cache_find(cuperm_plan_cache_t* cache, const cuperm_plan_key_t* key, int measured_only,
                           struct cuperm_transpose_plan* plan);

/** Remembers plan for key; a measured plan replaces a heuristic one. */
void cuperm_plan_cache_store(cuperm_plan_cache_t* cache, const cuperm_plan_key_t* key,
                             const struct cuperm_transpose_plan* plan);

/** Calls fn for every measured plan (under the cache's lock: fn must not use the cache). */
void cuperm_plan_cache_foreach_measured(cuperm_plan_cache_t* cache,
                                        void (*fn)(void* ctx, const cuperm_plan_key_t* key,
                                                   const struct cuperm_transpose_plan* plan),
                                        void* ctx);

#endif
