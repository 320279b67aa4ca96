/*
 * Live-object registry: what cupermHandle_t, cupermPlan_t and
 * cupermContractionPlan_t values really are.
 *
 * The public types are opaque tokens, not addresses: a token names a slot of
 * this table and the slot's generation when the object was registered. A
 * destroyed object's slot gets a new generation, so a stale or foreign token is
 * rejected without reading freed memory, and a token never resolves to a later
 * object that happens to reuse a slot or an address (a plain pointer with a
 * magic word can do neither).
 *
 * It is the library's one piece of process state, like a file-descriptor
 * table: objects from every handle and thread live in it. Registering and
 * releasing take a mutex; resolving is a lock-free read of an atomic
 * generation word, so concurrent executes do not contend.
 */
#ifndef CUPERM_RUNTIME_REGISTRY_H
#define CUPERM_RUNTIME_REGISTRY_H

#include <stdint.h>

#include "core/error.h"
#include "cuperm.h"

typedef enum {
    CUPERM_OBJ_HANDLE = 1,
    CUPERM_OBJ_TRANSPOSE_PLAN = 2,
    CUPERM_OBJ_CONTRACTION_PLAN = 3,
    CUPERM_OBJ_DIST_PLAN = 4,            /* src/dist: a distributed transpose (redistribution) plan */
    CUPERM_OBJ_DIST_CONTRACTION_PLAN = 5 /* src/dist: a distributed contraction plan */
} cuperm_obj_kind_t;

/** Registers obj; *token receives its public value. ALLOC_FAILED when the table is full. */
CUPERM_INTERNAL_API cupermStatus_t cuperm_registry_add(cuperm_obj_kind_t kind, void* obj, uintptr_t* token);

/** The object a token names if it is live and of this kind, else NULL. */
CUPERM_INTERNAL_API void* cuperm_registry_get(cuperm_obj_kind_t kind, uintptr_t token);

/** Unregisters a token and returns its object (NULL if it was not live and of this kind):
 *  the caller frees it. After this, the token resolves to nothing, forever. */
CUPERM_INTERNAL_API void* cuperm_registry_remove(cuperm_obj_kind_t kind, uintptr_t token);

/** The live object of this kind that token names (take = 0), or unregisters it and returns it
 *  (take = 1, as cuperm_registry_remove). Otherwise INVALID_VALUE with the message
 *  "[fn: ]name is NULL" for a NULL token or "[fn: ]name is not a live what (destroyed or
 *  foreign)" for a stale, foreign or other-kind one; fn may be NULL (no prefix). */
CUPERM_INTERNAL_API cupermStatus_t cuperm_registry_lookup(cuperm_obj_kind_t kind, uintptr_t token, int take,
                                                          const char* fn, const char* name, const char* what,
                                                          void** out);

#endif
