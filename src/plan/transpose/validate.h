/* Argument validation for transpose planning: pure host logic, run before
 * anything touches the device. */
#ifndef CUPERM_HOST_VALIDATE_H
#define CUPERM_HOST_VALIDATE_H

#include "cuperm.h"

#ifdef __cplusplus
extern "C" {
#endif

/** SUCCESS, or INVALID_VALUE with a message naming the argument and the rule. */
cupermStatus_t cuperm_validate_transpose(int rank, const int64_t* extents, const int* perm,
                                         cupermDataType_t type, const int64_t* in_strides,
                                         const int64_t* out_strides);

#ifdef __cplusplus
}
#endif

#endif
