/* Checks, before any launch, that pointers are usable by the plan's device. */
#ifndef CUPERM_RUNTIME_DEVICE_CHECK_H
#define CUPERM_RUNTIME_DEVICE_CHECK_H

#include "cuperm.h"

/** SUCCESS if the current device is device; INVALID_VALUE otherwise. */
cupermStatus_t cuperm_check_current_device(int device, const char* what);

/** SUCCESS if ptr is device memory of device, managed memory, or mapped host memory; else
 *  INVALID_VALUE, the message naming the API function fn and the argument name. */
cupermStatus_t cuperm_check_device_pointer(const void* ptr, int device, const char* fn, const char* name);

#endif
