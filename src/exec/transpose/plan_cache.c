#include "exec/transpose/plan_cache.h"

#include <stdlib.h>
#include <string.h>

#include "exec/transpose/plan.h"

typedef struct {
    int used;
    uint64_t hash;
    cuperm_plan_key_t key;
    struct cuperm_transpose_plan plan;
} entry_t;

struct cuperm_plan_cache {
    pthread_mutex_t lock;
    int next; /* replacement is round-robin: cheap, and fair to every problem */
    int count;
    entry_t entries[CUPERM_PLAN_CACHE_SIZE];
};

void cuperm_plan_key_init(cuperm_plan_key_t* key, int rank, const int64_t* extents, const int* perm,
                          cupermDataType_t type, const int64_t* in_strides, const int64_t* out_strides)
{
    memset(key, 0, sizeof *key); /* padding too: keys are hashed and compared as bytes */
    key->rank = rank;
    key->type = type;
    key->has_in_strides = in_strides != NULL;
    key->has_out_strides = out_strides != NULL;
    memcpy(key->extents, extents, (size_t)rank * sizeof *extents);
    memcpy(key->perm, perm, (size_t)rank * sizeof *perm);
    if (in_strides) memcpy(key->in_strides, in_strides, (size_t)rank * sizeof *in_strides);
    if (out_strides) memcpy(key->out_strides, out_strides, (size_t)rank * sizeof *out_strides);
}

static uint64_t hash_key(const cuperm_plan_key_t* key)
{
    const unsigned char* b = (const unsigned char*)key;
    uint64_t h = 0xcbf29ce484222325ull; /* FNV-1a */
    for (size_t i = 0; i < sizeof *key; ++i) h = (h ^ b[i]) * 0x100000001b3ull;
    return h;
}

cuperm_plan_cache_t* cuperm_plan_cache_create(void)
{
    cuperm_plan_cache_t* c = calloc(1, sizeof *c);
    if (c && pthread_mutex_init(&c->lock, NULL) != 0) {
        free(c);
        return NULL;
    }
    return c;
}

void cuperm_plan_cache_destroy(cuperm_plan_cache_t* c)
{
    if (!c) return;
    pthread_mutex_destroy(&c->lock);
    free(c);
}

static entry_t* lookup(cuperm_plan_cache_t* c, const cuperm_plan_key_t* key, uint64_t h)
{
    for (int i = 0; i < CUPERM_PLAN_CACHE_SIZE; ++i) {
        entry_t* e = &c->entries[i];
        if (e->used && e->hash == h && !memcmp(&e->key, key, sizeof *key)) return e;
    }
    return NULL;
}

int cuperm_plan_cache_find(cuperm_plan_cache_t* c, const cuperm_plan_key_t* key, int measured_only,
                           struct cuperm_transpose_plan* plan)
{
    pthread_mutex_lock(&c->lock);
    if (c->count == 0) { /* the common case: nothing measured yet, skip the hash */
        pthread_mutex_unlock(&c->lock);
        return 0;
    }
    entry_t* e = lookup(c, key, hash_key(key));
    int hit = e && (!measured_only || e->plan.measured);
    if (hit) *plan = e->plan;
    pthread_mutex_unlock(&c->lock);
    return hit;
}

void cuperm_plan_cache_store(cuperm_plan_cache_t* c, const cuperm_plan_key_t* key,
                             const struct cuperm_transpose_plan* plan)
{
    const uint64_t h = hash_key(key);
    pthread_mutex_lock(&c->lock);
    entry_t* e = lookup(c, key, h);
    if (!e) {
        e = &c->entries[c->next];
        c->next = (c->next + 1) % CUPERM_PLAN_CACHE_SIZE;
        if (!e->used) ++c->count;
    } else if (e->plan.measured && !plan->measured) {
        pthread_mutex_unlock(&c->lock); /* keep the better, measured plan */
        return;
    }
    e->used = 1;
    e->hash = h;
    e->key = *key;
    e->plan = *plan;
    pthread_mutex_unlock(&c->lock);
}
