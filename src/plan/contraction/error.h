/* Contraction planning errors go through the library's thread-local message. */
#ifndef CUPERM_CTR_ERROR_H
#define CUPERM_CTR_ERROR_H

#include "core/error.h"

/* cuperm_fail with the message prefixed by "cupermPlanContraction: ". */
cupermStatus_t cuperm_ctr_fail(cupermStatus_t status, const char* fmt, ...) CUPERM_PRINTF(2, 3);

#endif
