/*
 * The one cache module of the library: a bounded, thread-safe map from keys to values,
 * both fixed-size byte blocks compared as bytes (callers zero their padding). Round-robin
 * replacement: cheap, and fair to every problem. Transposes keep their measured plans in
 * one, contractions their layout decisions; a GETT or distributed engine keeps its own
 * the same way.
 */
#ifndef CUPERM_CORE_CACHE_H
#define CUPERM_CORE_CACHE_H

#include <stddef.h>

typedef struct cuperm_cache cuperm_cache_t;

/** NULL when out of host memory. */
cuperm_cache_t* cuperm_cache_create(size_t key_bytes, size_t value_bytes, int capacity);
void cuperm_cache_destroy(cuperm_cache_t* cache);

/** Copies the value of key into *value; 1 on a hit, 0 (value untouched) otherwise. */
int cuperm_cache_get(cuperm_cache_t* cache, const void* key, void* value);

/** Stores a copy of value for key, replacing the entry of an equal key unless
 *  keep_old(old, new) says the old value is better (keep_old may be NULL). */
void cuperm_cache_put(cuperm_cache_t* cache, const void* key, const void* value,
                      int (*keep_old)(const void* old_value, const void* new_value));

/** Calls fn(ctx, key, value) for every entry, under the cache's lock (fn must not use the
 *  cache). For saving a cache's contents (exec/plan_file.c). */
void cuperm_cache_foreach(cuperm_cache_t* cache, void (*fn)(void* ctx, const void* key, const void* value), void* ctx);

#endif
