/* The opaque objects behind cupermHandle_t and cupermPlan_t. */
#ifndef CUPERM_RUNTIME_OBJECTS_H
#define CUPERM_RUNTIME_OBJECTS_H

#include "common/kernel_params.h"
#include "cuperm.h"
#include "host/device_info.h"
#include "host/plan_select.h"
#include "runtime/plan_cache.h"

/* Tags that let entry points reject destroyed or foreign objects cheaply. */
#define CUPERM_HANDLE_MAGIC 0x63757065726d4831ull /* "cupermH1" */
#define CUPERM_PLAN_MAGIC 0x63757065726d5031ull   /* "cupermP1" */
#define CUPERM_DEAD_MAGIC 0xdeaddeaddeaddeadull

struct ctr_state; /* contractions' per-handle state (src/contraction/ctr_state.h) */

struct cupermHandle {
    uint64_t magic;
    cuperm_device_info_t dev;
    cuperm_plan_cache_t* plan_cache;  /* measured transpose plans */
    struct ctr_state* contraction; /* created on first use by the contraction code */
};

struct cupermPlan {
    uint64_t magic;
    cupermHandle_t handle;
    int device;
    cupermDataType_t type;
    int measured;
    cuperm_host_plan_t host;
};

#endif
