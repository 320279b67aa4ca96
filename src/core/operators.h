/* Which elementwise operators a data type takes: one rule for transposes and contractions. */
#ifndef CUPERM_CORE_OPERATORS_H
#define CUPERM_CORE_OPERATORS_H

#include "cuperm.h"

/**
 * SUCCESS if type takes op (with param); otherwise INVALID_VALUE (not an operator, or a
 * non-finite parameter) or NOT_SUPPORTED (an operator the type does not take), with a message
 * "<prefix><name> ..." naming the rule.
 */
cupermStatus_t cuperm_check_operator(cupermDataType_t type, cupermOperator_t op, double param, const char* prefix,
                                     const char* name);

/** "identity", "relu", ... (static). */
const char* cuperm_operator_name(cupermOperator_t op);

#endif
