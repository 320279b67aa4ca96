#include "plan/contraction/error.h"

#include <stdarg.h>
#include <stdio.h>

cupermStatus_t cuperm_ctr_fail(cupermStatus_t status, const char* fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return cuperm_fail(status, "cupermPlanContraction: %s", msg);
}
