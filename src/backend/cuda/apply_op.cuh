// The elementwise operators of cupermOperator_t on one value, in the arithmetic they use
// (float for 16-bit and 32-bit reals, double, the complex types): one definition for the
// transpose kernels (transpose/element_ops.cuh) and the GETT kernels (gett/, their loaded tiles
// and epilogues).
#pragma once

#include <cuComplex.h>

#include "cuperm.h"

namespace cuperm {

template <typename R>
__device__ __forceinline__ R apply_op(cupermOperator_t op, R p, R x)
{
    switch (op) {
    case CUPERM_OP_NEGATE: return -x;
    case CUPERM_OP_ABS: return x < R(0) ? -x : x;
    case CUPERM_OP_RELU: return x > R(0) ? x : R(0);
    case CUPERM_OP_LEAKY_RELU: return x > R(0) ? x : p * x;
    case CUPERM_OP_ELU: return x > R(0) ? x : p * expm1(x); // exp(x) - 1 would cancel near 0
    case CUPERM_OP_SIGMOID: return R(1) / (R(1) + exp(-x));
    case CUPERM_OP_TANH: return tanh(x);
    case CUPERM_OP_EXP: return exp(x);
    case CUPERM_OP_SQRT: return sqrt(x);
    default: return x; // identity, and conj of a real number
    }
}
// Complex types take identity, negate and conj (the planners reject the rest).
template <>
__device__ __forceinline__ cuFloatComplex apply_op(cupermOperator_t op, cuFloatComplex, cuFloatComplex x)
{
    if (op == CUPERM_OP_NEGATE) return make_cuFloatComplex(-x.x, -x.y);
    if (op == CUPERM_OP_CONJ) return cuConjf(x);
    return x;
}
template <>
__device__ __forceinline__ cuDoubleComplex apply_op(cupermOperator_t op, cuDoubleComplex, cuDoubleComplex x)
{
    if (op == CUPERM_OP_NEGATE) return make_cuDoubleComplex(-x.x, -x.y);
    if (op == CUPERM_OP_CONJ) return cuConj(x);
    return x;
}

} // namespace cuperm
