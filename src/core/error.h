/* Failure reporting: every failing entry point records a thread-local message
 * naming the argument and the rule it broke, then returns its status. */
#ifndef CUPERM_HOST_ERRORS_H
#define CUPERM_HOST_ERRORS_H

#include "cuperm.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Internal functions that libcuperm.so exports for libcuperm_dist.so (src/dist/), so that
 * both share one error state, one registry and one plan cache. Not public API. */
#if defined(__GNUC__)
#  define CUPERM_INTERNAL_API __attribute__((visibility("default")))
#else
#  define CUPERM_INTERNAL_API
#endif

#if defined(__GNUC__)
#  define CUPERM_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#  define CUPERM_PRINTF(f, a)
#endif

/** Records the formatted message for this thread and returns status. */
CUPERM_INTERNAL_API cupermStatus_t cuperm_fail(cupermStatus_t status, const char* fmt, ...) CUPERM_PRINTF(2, 3);

/** The same, the message prefixed with the entry point: "fn: ...". */
CUPERM_INTERNAL_API cupermStatus_t cuperm_fail_in(const char* fn, cupermStatus_t status, const char* fmt, ...)
    CUPERM_PRINTF(3, 4);

#ifdef __cplusplus
}
#endif

#endif
