/*
 * The engine behind the cuTT and LibreTT entry points: argument checks in
 * cuTT's terms, a table from integer handles to cuperm plans, one cuperm
 * handle per device, and the thread's last error message.
 *
 * cuTT's API names plans by integers and keeps no context object, so this
 * table (guarded by a mutex) is process-wide state by necessity.
 */
#ifndef CUPERM_TT_CORE_H
#define CUPERM_TT_CORE_H

#include <stddef.h>
#include <cuda_runtime_api.h>

#define TT_HIDDEN __attribute__((visibility("hidden")))

/* Result codes shared by cuttResult and librettResult (same values in both). */
typedef enum {
    TT_SUCCESS,
    TT_INVALID_PLAN,
    TT_INVALID_PARAMETER,
    TT_INVALID_DEVICE,
    TT_INTERNAL_ERROR,
    TT_UNDEFINED_ERROR
} tt_result;

/* Plans (measuring on idata/odata when measure != 0); api names the caller in messages. */
TT_HIDDEN tt_result tt_plan(const char* api, unsigned* handle, int rank, const int* dim, const int* perm,
                            size_t elem_size, cudaStream_t stream, int measure, const void* idata,
                            void* odata);
TT_HIDDEN tt_result tt_execute(const char* api, unsigned handle, const void* idata, void* odata);
TT_HIDDEN tt_result tt_destroy(const char* api, unsigned handle);
TT_HIDDEN const char* tt_last_error(void);

#endif
