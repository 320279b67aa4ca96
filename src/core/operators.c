#include "core/operators.h"

#include <math.h>

#include "core/error.h"

const char* cuperm_operator_name(cupermOperator_t op)
{
    static const char* const names[] = {"identity", "negate", "abs",  "relu", "leaky_relu", "elu",
                                        "sigmoid",  "tanh",   "exp",  "sqrt", "conj"};
    return (unsigned)op <= CUPERM_OP_CONJ ? names[op] : "?";
}

static int is_complex(cupermDataType_t t) { return t == CUPERM_C_32F || t == CUPERM_C_64F; }

static int is_floating(cupermDataType_t t)
{
    return t == CUPERM_R_16F || t == CUPERM_R_16BF || t == CUPERM_R_32F || t == CUPERM_R_64F || is_complex(t);
}

cupermStatus_t cuperm_check_operator(cupermDataType_t type, cupermOperator_t op, double param, const char* prefix,
                                     const char* name)
{
    if ((unsigned)op > CUPERM_OP_CONJ)
        return cuperm_fail(CUPERM_STATUS_INVALID_VALUE, "%s%s is %d, not a cupermOperator_t", prefix, name, (int)op);
    if (op == CUPERM_OP_IDENTITY) return CUPERM_STATUS_SUCCESS;
    if (!is_floating(type))
        return cuperm_fail(CUPERM_STATUS_NOT_SUPPORTED, "%s%s %s is not supported for integer types (only "
                           "identity is)", prefix, name, cuperm_operator_name(op));
    if (is_complex(type) && op != CUPERM_OP_NEGATE && op != CUPERM_OP_CONJ)
        return cuperm_fail(CUPERM_STATUS_NOT_SUPPORTED, "%s%s %s is not supported for complex types (identity, "
                           "negate and conj are)", prefix, name, cuperm_operator_name(op));
    if ((op == CUPERM_OP_LEAKY_RELU || op == CUPERM_OP_ELU) && !isfinite(param))
        return cuperm_fail(CUPERM_STATUS_INVALID_VALUE, "%sopParam must be finite for %s", prefix,
                           cuperm_operator_name(op));
    return CUPERM_STATUS_SUCCESS;
}
