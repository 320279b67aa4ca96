/* Handle entry points: the object lives in exec/handle.c; here it gets its token. */
#include "core/error.h"
#include "core/registry.h"
#include "exec/handle.h"
#include "exec/plan_cache_file.h"

cupermStatus_t cupermCreate(cupermHandle_t* handle)
{
    if (!handle) return cuperm_fail(CUPERM_STATUS_INVALID_VALUE, "handle is NULL");
    *handle = NULL;
    cuperm_handle_t* h;
    cupermStatus_t st = cuperm_handle_create(&h);
    if (st) return st;
    uintptr_t token;
    if ((st = cuperm_registry_add(CUPERM_OBJ_HANDLE, h, &token))) {
        cuperm_handle_release(h);
        return st;
    }
    *handle = (cupermHandle_t)token;
    return CUPERM_STATUS_SUCCESS;
}

cupermStatus_t cupermDestroy(cupermHandle_t handle)
{
    cuperm_handle_t* h;
    cupermStatus_t st = cuperm_registry_lookup(CUPERM_OBJ_HANDLE, (uintptr_t)handle, 1, NULL, "handle",
                                               "cuperm handle", (void**)&h);
    /* Live contraction plans keep the state they use until they are destroyed. */
    if (!st) cuperm_handle_release(h);
    return st;
}

cupermStatus_t cupermHandleWritePlanCache(cupermHandle_t handle, const char* path, int* entriesWritten)
{
    cuperm_handle_t* h;
    cupermStatus_t st = cuperm_handle_get(handle, &h);
    if (st) return st;
    if (!path) return cuperm_fail_in("cupermHandleWritePlanCache", CUPERM_STATUS_INVALID_VALUE, "path is NULL");
    return cuperm_plan_cache_file_write(h, path, entriesWritten);
}

cupermStatus_t cupermHandleReadPlanCache(cupermHandle_t handle, const char* path, int* entriesRead)
{
    cuperm_handle_t* h;
    cupermStatus_t st = cuperm_handle_get(handle, &h);
    if (st) return st;
    if (!path) return cuperm_fail_in("cupermHandleReadPlanCache", CUPERM_STATUS_INVALID_VALUE, "path is NULL");
    if (!entriesRead)
        return cuperm_fail_in("cupermHandleReadPlanCache", CUPERM_STATUS_INVALID_VALUE, "entriesRead is NULL");
    return cuperm_plan_cache_file_read(h, path, entriesRead);
}
