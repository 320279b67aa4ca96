/* fp16 and bf16 on the host: round to nearest even from float, exact to float.
 * The one converter of tests and tools (tests/cpu/test_reference.c pins it to
 * known bit patterns). */
#ifndef CUPERM_SUPPORT_HALF_H
#define CUPERM_SUPPORT_HALF_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

uint16_t ref_float_to_half(float f);
float ref_half_to_float(uint16_t h);
uint16_t ref_float_to_bf16(float f);
float ref_bf16_to_float(uint16_t h);

#ifdef __cplusplus
}
#endif

#endif
