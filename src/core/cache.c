#include "core/cache.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/hash.h"

struct cuperm_cache {
    pthread_mutex_t lock;
    size_t key_bytes, value_bytes, entry_bytes;
    int capacity, next, count;
    unsigned char* entries; /* capacity x [uint64 hash | int used | key | value] */
};

enum { HEADER = 16 }; /* hash (8 bytes) and a used flag, keeping key and value 8-byte aligned */

static size_t round8(size_t n) { return (n + 7) & ~(size_t)7; }

cuperm_cache_t* cuperm_cache_create(size_t key_bytes, size_t value_bytes, int capacity)
{
    cuperm_cache_t* c = calloc(1, sizeof *c);
    if (!c) return NULL;
    c->key_bytes = key_bytes;
    c->value_bytes = value_bytes;
    c->entry_bytes = HEADER + round8(key_bytes) + round8(value_bytes);
    c->capacity = capacity;
    c->entries = calloc((size_t)capacity, c->entry_bytes);
    if (!c->entries || pthread_mutex_init(&c->lock, NULL) != 0) {
        free(c->entries);
        free(c);
        return NULL;
    }
    return c;
}

void cuperm_cache_destroy(cuperm_cache_t* c)
{
    if (!c) return;
    pthread_mutex_destroy(&c->lock);
    free(c->entries);
    free(c);
}

static unsigned char* entry(const cuperm_cache_t* c, int i) { return c->entries + (size_t)i * c->entry_bytes; }
static unsigned char* key_of(unsigned char* e) { return e + HEADER; }
static unsigned char* value_of(const cuperm_cache_t* c, unsigned char* e) { return e + HEADER + round8(c->key_bytes); }

/* The entry holding key, or NULL; under the lock. */
static unsigned char* lookup(const cuperm_cache_t* c, const void* key, uint64_t h)
{
    for (int i = 0; i < c->capacity; ++i) {
        unsigned char* e = entry(c, i);
        uint64_t eh;
        int used;
        memcpy(&eh, e, 8);
        memcpy(&used, e + 8, sizeof used);
        if (used && eh == h && !memcmp(key_of(e), key, c->key_bytes)) return e;
    }
    return NULL;
}

int cuperm_cache_get(cuperm_cache_t* c, const void* key, void* value)
{
    pthread_mutex_lock(&c->lock);
    unsigned char* e = c->count ? lookup(c, key, cuperm_hash_bytes(key, c->key_bytes)) : NULL;
    if (e) memcpy(value, value_of(c, e), c->value_bytes);
    pthread_mutex_unlock(&c->lock);
    return e != NULL;
}

void cuperm_cache_put(cuperm_cache_t* c, const void* key, const void* value,
                      int (*keep_old)(const void* old_value, const void* new_value))
{
    const uint64_t h = cuperm_hash_bytes(key, c->key_bytes);
    pthread_mutex_lock(&c->lock);
    unsigned char* e = lookup(c, key, h);
    if (e && keep_old && keep_old(value_of(c, e), value)) {
        pthread_mutex_unlock(&c->lock);
        return;
    }
    if (!e) {
        e = entry(c, c->next);
        c->next = (c->next + 1) % c->capacity;
        int used;
        memcpy(&used, e + 8, sizeof used);
        if (!used) ++c->count;
    }
    const int one = 1;
    memcpy(e, &h, 8);
    memcpy(e + 8, &one, sizeof one);
    memcpy(key_of(e), key, c->key_bytes);
    memcpy(value_of(c, e), value, c->value_bytes);
    pthread_mutex_unlock(&c->lock);
}

void cuperm_cache_foreach(cuperm_cache_t* c, void (*fn)(void* ctx, const void* key, const void* value), void* ctx)
{
    pthread_mutex_lock(&c->lock);
    for (int i = 0; i < c->capacity; ++i) {
        unsigned char* e = entry(c, i);
        int used;
        memcpy(&used, e + 8, sizeof used);
        if (used) fn(ctx, key_of(e), value_of(c, e));
    }
    pthread_mutex_unlock(&c->lock);
}
