#include "core/cache.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/hash.h"

/* Slots (hash, used) live apart from the entries: a lookup scans one small array and reads
 * an entry only on a hash match, so a fresh cache's large entries (a contraction decision
 * holds a 5 KB problem and its layout) are not touched page by page by every lookup. */
typedef struct {
    uint64_t hash;
    int used;
} slot_t;

struct cuperm_cache {
    pthread_mutex_t lock;
    size_t key_bytes, value_bytes, entry_bytes;
    int capacity, next, count;
    slot_t* slots;          /* capacity, zeroed */
    unsigned char* entries; /* capacity x [key | value], each 8-byte aligned; written before used */
};

static size_t round8(size_t n) { return (n + 7) & ~(size_t)7; }

cuperm_cache_t* cuperm_cache_create(size_t key_bytes, size_t value_bytes, int capacity)
{
    cuperm_cache_t* c = calloc(1, sizeof *c);
    if (!c) return NULL;
    c->key_bytes = key_bytes;
    c->value_bytes = value_bytes;
    c->entry_bytes = round8(key_bytes) + round8(value_bytes);
    c->capacity = capacity;
    c->slots = calloc((size_t)capacity, sizeof *c->slots);
    c->entries = malloc((size_t)capacity * c->entry_bytes);
    if (!c->slots || !c->entries || pthread_mutex_init(&c->lock, NULL) != 0) {
        free(c->slots);
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
    free(c->slots);
    free(c->entries);
    free(c);
}

static unsigned char* key_of(const cuperm_cache_t* c, int i) { return c->entries + (size_t)i * c->entry_bytes; }
static unsigned char* value_of(const cuperm_cache_t* c, int i) { return key_of(c, i) + round8(c->key_bytes); }

/* The index of the entry holding key, or -1; under the lock. */
static int lookup(const cuperm_cache_t* c, const void* key, uint64_t h)
{
    for (int i = 0; i < c->capacity; ++i)
        if (c->slots[i].used && c->slots[i].hash == h && !memcmp(key_of(c, i), key, c->key_bytes)) return i;
    return -1;
}

int cuperm_cache_get(cuperm_cache_t* c, const void* key, void* value)
{
    pthread_mutex_lock(&c->lock);
    const int i = c->count ? lookup(c, key, cuperm_hash_bytes(key, c->key_bytes)) : -1;
    if (i >= 0) memcpy(value, value_of(c, i), c->value_bytes);
    pthread_mutex_unlock(&c->lock);
    return i >= 0;
}

void cuperm_cache_put(cuperm_cache_t* c, const void* key, const void* value,
                      int (*keep_old)(const void* old_value, const void* new_value))
{
    const uint64_t h = cuperm_hash_bytes(key, c->key_bytes);
    pthread_mutex_lock(&c->lock);
    int i = lookup(c, key, h);
    if (i >= 0 && keep_old && keep_old(value_of(c, i), value)) {
        pthread_mutex_unlock(&c->lock);
        return;
    }
    if (i < 0) {
        i = c->next;
        c->next = (c->next + 1) % c->capacity;
        if (!c->slots[i].used) ++c->count;
    }
    c->slots[i] = (slot_t){h, 1};
    memcpy(key_of(c, i), key, c->key_bytes);
    memcpy(value_of(c, i), value, c->value_bytes);
    pthread_mutex_unlock(&c->lock);
}

void cuperm_cache_foreach(cuperm_cache_t* c, void (*fn)(void* ctx, const void* key, const void* value), void* ctx)
{
    pthread_mutex_lock(&c->lock);
    for (int i = 0; i < c->capacity; ++i)
        if (c->slots[i].used) fn(ctx, key_of(c, i), value_of(c, i));
    pthread_mutex_unlock(&c->lock);
}
