#include "core/error.h"

#include <stdarg.h>
#include <stdio.h>

/* Thread-local by contract (cupermGetLastErrorMessage); the only state outside a handle. */
static _Thread_local char last_message[1024];

cupermStatus_t cuperm_fail(cupermStatus_t status, const char* fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(last_message, sizeof last_message, fmt, ap);
    va_end(ap);
    return status;
}

cupermStatus_t cuperm_fail_in(const char* fn, cupermStatus_t status, const char* fmt, ...)
{
    char msg[sizeof last_message - 64];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    snprintf(last_message, sizeof last_message, "%s: %s", fn, msg);
    return status;
}

const char* cupermGetLastErrorMessage(void) { return last_message; }

const char* cupermGetErrorString(cupermStatus_t status)
{
    switch (status) {
    case CUPERM_STATUS_SUCCESS: return "CUPERM_STATUS_SUCCESS";
    case CUPERM_STATUS_INVALID_VALUE: return "CUPERM_STATUS_INVALID_VALUE";
    case CUPERM_STATUS_NOT_SUPPORTED: return "CUPERM_STATUS_NOT_SUPPORTED";
    case CUPERM_STATUS_ALLOC_FAILED: return "CUPERM_STATUS_ALLOC_FAILED";
    case CUPERM_STATUS_CUDA_ERROR: return "CUPERM_STATUS_CUDA_ERROR";
    case CUPERM_STATUS_INTERNAL_ERROR: return "CUPERM_STATUS_INTERNAL_ERROR";
    case CUPERM_STATUS_ARCH_MISMATCH: return "CUPERM_STATUS_ARCH_MISMATCH";
    case CUPERM_STATUS_LIBRARY_ERROR: return "CUPERM_STATUS_LIBRARY_ERROR";
    }
    return "CUPERM_STATUS_<unknown>";
}

int cupermGetVersion(void) { return CUPERM_VERSION; }
