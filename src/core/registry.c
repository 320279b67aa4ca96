#include "core/registry.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "core/error.h"

/* Token bits: [63:32] generation, [31:3] slot + 1, [2:0] kind. */
#define KIND_BITS 3u
#define SLOT_BITS 29u
#define CHUNK_SLOTS 256u
#define MAX_CHUNKS 65536u /* 16 M live objects */

typedef struct {
    _Atomic uint64_t state; /* (generation << KIND_BITS) | kind while live, | 0 while free */
    void* _Atomic obj;
    uint32_t next_free;     /* free list link (slot + 1, 0 ends), under the lock */
} slot_t;

static slot_t* _Atomic chunks[MAX_CHUNKS];
static uint32_t used_slots;  /* slots ever handed out; under the lock */
static uint32_t free_head;   /* slot + 1 of the first free slot, 0 if none; under the lock */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static slot_t* slot_at(uint32_t index)
{
    slot_t* chunk = atomic_load_explicit(&chunks[index / CHUNK_SLOTS], memory_order_acquire);
    return chunk ? &chunk[index % CHUNK_SLOTS] : NULL;
}

static uintptr_t make_token(uint32_t index, uint64_t state)
{
    return (uintptr_t)((state >> KIND_BITS) << 32 | (uint64_t)(index + 1) << KIND_BITS |
                       (state & ((1u << KIND_BITS) - 1)));
}

/* The slot a token names and the state it expects there, or NULL. */
static slot_t* decode(uintptr_t token, uint64_t* expect)
{
    const uint64_t t = (uint64_t)token;
    const uint32_t plus1 = (uint32_t)(t >> KIND_BITS) & ((1u << SLOT_BITS) - 1);
    if (plus1 == 0 || plus1 - 1 >= (uint64_t)MAX_CHUNKS * CHUNK_SLOTS) return NULL;
    *expect = (t >> 32) << KIND_BITS | (t & ((1u << KIND_BITS) - 1));
    return slot_at(plus1 - 1);
}

cupermStatus_t cuperm_registry_add(cuperm_obj_kind_t kind, void* obj, uintptr_t* token)
{
    if (!obj) /* a live token always resolves to an object */
        return cuperm_fail(CUPERM_STATUS_INTERNAL_ERROR, "internal error: registering a NULL object (kind %d)", (int)kind);
    pthread_mutex_lock(&lock);
    uint32_t index;
    if (free_head) {
        index = free_head - 1;
        free_head = slot_at(index)->next_free;
    } else {
        index = used_slots;
        if (index >= MAX_CHUNKS * CHUNK_SLOTS) {
            pthread_mutex_unlock(&lock);
            return cuperm_fail(CUPERM_STATUS_ALLOC_FAILED, "more than %u cuperm objects are alive at once",
                               MAX_CHUNKS * CHUNK_SLOTS);
        }
        if (index % CHUNK_SLOTS == 0) {
            slot_t* chunk = calloc(CHUNK_SLOTS, sizeof *chunk);
            if (!chunk) {
                pthread_mutex_unlock(&lock);
                return cuperm_fail(CUPERM_STATUS_ALLOC_FAILED, "out of host memory (object registry)");
            }
            atomic_store_explicit(&chunks[index / CHUNK_SLOTS], chunk, memory_order_release);
        }
        ++used_slots;
    }
    slot_t* s = slot_at(index);
    const uint64_t generation = atomic_load_explicit(&s->state, memory_order_relaxed) >> KIND_BITS;
    const uint64_t state = generation << KIND_BITS | (uint64_t)kind;
    atomic_store_explicit(&s->obj, obj, memory_order_relaxed);
    atomic_store_explicit(&s->state, state, memory_order_release);
    pthread_mutex_unlock(&lock);
    *token = make_token(index, state);
    return CUPERM_STATUS_SUCCESS;
}

void* cuperm_registry_get(cuperm_obj_kind_t kind, uintptr_t token)
{
    uint64_t expect;
    slot_t* s = decode(token, &expect);
    if (!s || (expect & ((1u << KIND_BITS) - 1)) != (uint64_t)kind) return NULL;
    if (atomic_load_explicit(&s->state, memory_order_acquire) != expect) return NULL;
    return atomic_load_explicit(&s->obj, memory_order_relaxed);
}

void* cuperm_registry_remove(cuperm_obj_kind_t kind, uintptr_t token)
{
    uint64_t expect;
    slot_t* s = decode(token, &expect);
    if (!s || (expect & ((1u << KIND_BITS) - 1)) != (uint64_t)kind) return NULL;
    pthread_mutex_lock(&lock);
    void* obj = NULL;
    if (atomic_load_explicit(&s->state, memory_order_relaxed) == expect) {
        obj = atomic_load_explicit(&s->obj, memory_order_relaxed);
        /* Next generation, free: every token of this slot so far is now stale. Generations
         * wrap after 2^32 reuses of one slot. */
        const uint64_t next = ((expect >> KIND_BITS) + 1) & 0xffffffffu;
        atomic_store_explicit(&s->obj, NULL, memory_order_relaxed);
        atomic_store_explicit(&s->state, next << KIND_BITS, memory_order_release);
        const uint32_t index = (uint32_t)(((uint64_t)token >> KIND_BITS) & ((1u << SLOT_BITS) - 1)) - 1;
        s->next_free = free_head;
        free_head = index + 1;
    }
    pthread_mutex_unlock(&lock);
    return obj;
}

cupermStatus_t cuperm_registry_lookup(cuperm_obj_kind_t kind, uintptr_t token, int take, const char* fn,
                                      const char* name, const char* what, void** out)
{
    const char* sep = fn ? ": " : "";
    if (!fn) fn = "";
    if (!token) return cuperm_fail(CUPERM_STATUS_INVALID_VALUE, "%s%s%s is NULL", fn, sep, name);
    *out = take ? cuperm_registry_remove(kind, token) : cuperm_registry_get(kind, token);
    if (!*out)
        return cuperm_fail(CUPERM_STATUS_INVALID_VALUE, "%s%s%s is not a live %s (destroyed or foreign)", fn, sep,
                           name, what);
    return CUPERM_STATUS_SUCCESS;
}
