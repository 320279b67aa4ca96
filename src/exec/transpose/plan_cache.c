#include "exec/transpose/plan_cache.h"

#include <stdlib.h>
#include <string.h>

#include "core/cache.h"
#include "exec/transpose/plan.h"

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

static int keep_measured(const void* old_plan, const void* new_plan)
{
    /* a measured plan stays against a heuristic one */
    return ((const cuperm_transpose_plan_t*)old_plan)->measured && !((const cuperm_transpose_plan_t*)new_plan)->measured;
}

cuperm_plan_cache_t* cuperm_plan_cache_create(void)
{
    return cuperm_cache_create(sizeof(cuperm_plan_key_t), sizeof(cuperm_transpose_plan_t), CUPERM_PLAN_CACHE_SIZE);
}

void cuperm_plan_cache_destroy(cuperm_plan_cache_t* c) { cuperm_cache_destroy(c); }

int cuperm_plan_cache_find(cuperm_plan_cache_t* c, const cuperm_plan_key_t* key, int measured_only,
                           struct cuperm_transpose_plan* plan)
{
    cuperm_transpose_plan_t found;
    if (!cuperm_cache_get(c, key, &found) || (measured_only && !found.measured)) return 0;
    *plan = found;
    return 1;
}

void cuperm_plan_cache_store(cuperm_plan_cache_t* c, const cuperm_plan_key_t* key,
                             const struct cuperm_transpose_plan* plan)
{
    cuperm_cache_put(c, key, plan, keep_measured);
}

typedef struct {
    void (*fn)(void* ctx, const cuperm_plan_key_t* key, const struct cuperm_transpose_plan* plan);
    void* ctx;
} foreach_ctx;

static void visit_measured(void* ctx, const void* key, const void* value)
{
    const foreach_ctx* f = ctx;
    cuperm_plan_key_t k;
    cuperm_transpose_plan_t plan; /* copies: cache entries are not aligned for these types */
    memcpy(&k, key, sizeof k);
    memcpy(&plan, value, sizeof plan);
    if (plan.measured) f->fn(f->ctx, &k, &plan);
}

void cuperm_plan_cache_foreach_measured(cuperm_plan_cache_t* c,
                                        void (*fn)(void* ctx, const cuperm_plan_key_t* key,
                                                   const struct cuperm_transpose_plan* plan),
                                        void* ctx)
{
    foreach_ctx f = {fn, ctx};
    cuperm_cache_foreach(c, visit_measured, &f);
}
