// Turns a runtime data type into the element operation the kernels are
// instantiated for: plain moves by element size, arithmetic by type.
#pragma once

#include <cuda_runtime.h>

#include "cuperm.h"
#include "backend/cuda/transpose/element_ops.cuh"

namespace cuperm {

template <typename T> struct TypeTag { using type = T; };

// The data types and the element types the kernels are instantiated for: one row a type.
template <cupermDataType_t kId, typename T, bool kFloating>
struct TypeRow {
    static constexpr cupermDataType_t id = kId;
    using type = T;
    static constexpr bool floating = kFloating; // takes elementwise operators
};
template <typename... Rows> struct TypeTable {};
using DataTypes = TypeTable<
    TypeRow<CUPERM_R_16F, __half, true>, TypeRow<CUPERM_R_16BF, __nv_bfloat16, true>,
    TypeRow<CUPERM_R_32F, float, true>, TypeRow<CUPERM_R_64F, double, true>,
    TypeRow<CUPERM_C_32F, cuFloatComplex, true>, TypeRow<CUPERM_C_64F, cuDoubleComplex, true>,
    TypeRow<CUPERM_R_8I, int8_t, false>, TypeRow<CUPERM_R_8U, uint8_t, false>,
    TypeRow<CUPERM_R_16I, int16_t, false>, TypeRow<CUPERM_R_32I, int32_t, false>,
    TypeRow<CUPERM_R_32U, uint32_t, false>, TypeRow<CUPERM_R_64I, long long, false>,
    TypeRow<CUPERM_R_64U, unsigned long long, false>>;

// One row: calls g when type is its data type (g is instantiated for floating rows only when
// kFloatingOnly).
template <bool kFloatingOnly, typename Row, typename G>
bool try_row(cupermDataType_t type, G& g, cudaError_t* err)
{
    if constexpr (kFloatingOnly && !Row::floating) {
        return false;
    } else {
        if (type != Row::id) return false;
        *err = g(TypeTag<typename Row::type>{});
        return true;
    }
}

// Calls g(TypeTag<T>{}) for the element type T of type (a floating type when kFloatingOnly);
// g returns a cudaError_t. cudaErrorInvalidValue for any other type.
template <bool kFloatingOnly, typename G, typename... Rows>
cudaError_t with_type(TypeTable<Rows...>, cupermDataType_t type, G&& g)
{
    cudaError_t err = cudaErrorInvalidValue;
    (void)(try_row<kFloatingOnly, Rows>(type, g, &err) || ...);
    return err;
}

// Calls f(op) with the op for (type, scalars); f launches and returns a cudaError_t.
template <typename F>
cudaError_t dispatch_op(cupermDataType_t type, const cuperm_scalars_t* s, F&& f)
{
    if (s->plain) {
        switch (cupermDataTypeSize(type)) {
        case 1: return f(CopyOp<uint8_t>{});
        case 2: return f(CopyOp<uint16_t>{});
        case 4: return f(CopyOp<uint32_t>{});
        case 8: return f(CopyOp<unsigned long long>{});
        case 16: return f(CopyOp<uint4>{});
        default: return cudaErrorInvalidValue;
        }
    }
    if (s->has_ops) // integer types take no operator
        return with_type<true>(DataTypes{}, type, [&](auto t) { return f(make_operator<typename decltype(t)::type>(s)); });
    return with_type<false>(DataTypes{}, type, [&](auto t) { return f(make_axpby<typename decltype(t)::type>(s)); });
}

} // namespace cuperm
