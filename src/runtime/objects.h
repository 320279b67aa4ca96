/*
 * The objects behind the public tokens cupermHandle_t and cupermPlan_t (see
 * runtime/registry.h: a token is not an address). Entry points resolve a token
 * to one of these first; everything below them works on these structs.
 */
#ifndef CUPERM_RUNTIME_OBJECTS_H
#define CUPERM_RUNTIME_OBJECTS_H

#include <stdatomic.h>

#include "common/kernel_params.h"
#include "cuperm.h"
#include "host/device_info.h"
#include "host/plan_select.h"
#include "runtime/plan_cache.h"

struct ctr_state; /* contractions' per-handle state (src/contraction/ctr_state.h) */

typedef struct cuperm_handle {
    cuperm_device_info_t dev;
    cuperm_plan_cache_t* plan_cache;  /* measured transpose plans */
    struct ctr_state* contraction;    /* created on first use by the contraction code */
    atomic_int refs;                  /* the public token's reference plus one per live contraction plan */
} cuperm_handle_t;

typedef struct cuperm_transpose_plan {
    int device;
    cupermDataType_t type;
    int measured;
    cuperm_host_plan_t host;
} cuperm_transpose_plan_t;

/** The live handle a token names, or NULL. */
cuperm_handle_t* cuperm_handle_resolve(cupermHandle_t token);
/** Resolves a token or fails with INVALID_VALUE and a message naming fn. */
cupermStatus_t cuperm_handle_get(cupermHandle_t token, const char* fn, cuperm_handle_t** out);

/** References that keep a handle's state alive after cupermDestroy (contraction plans hold one). */
void cuperm_handle_retain(cuperm_handle_t* h);
void cuperm_handle_release(cuperm_handle_t* h);

/* Transposes inside the library (contraction steps): no token, no argument checks beyond
 * the planning rules, errors reported under the caller's name. */

/** Validates and plans heuristically (a measured plan for the same arguments wins). */
cupermStatus_t cuperm_transpose_plan_init(cuperm_handle_t* h, cuperm_transpose_plan_t* plan, int rank,
                                          const int64_t* extents, const int* perm, cupermDataType_t type,
                                          const int64_t* in_strides, const int64_t* out_strides);

/** The model's time of the plan cuperm_transpose_plan_init would make; negative if invalid. */
double cuperm_transpose_predict(cuperm_handle_t* h, int rank, const int64_t* extents, const int* perm,
                                cupermDataType_t type, const int64_t* in_strides, const int64_t* out_strides);

/** Enqueues the plan: alpha and beta are host scalars of the plan type's scalar type. */
cupermStatus_t cuperm_transpose_run(const cuperm_transpose_plan_t* plan, const void* alpha, const void* in,
                                    const void* beta, void* out, cudaStream_t stream);

#endif
