// Turns a runtime data type into the element operation the kernels are
// instantiated for: plain moves by element size, arithmetic by type.
#pragma once

#include <cuda_runtime.h>

#include "cuperm.h"
#include "backend/cuda/transpose/element_ops.cuh"

namespace cuperm {

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
    if (s->has_ops) {
        switch (type) {
        case CUPERM_R_16F: return f(make_operator<__half>(s));
        case CUPERM_R_16BF: return f(make_operator<__nv_bfloat16>(s));
        case CUPERM_R_32F: return f(make_operator<float>(s));
        case CUPERM_R_64F: return f(make_operator<double>(s));
        case CUPERM_C_32F: return f(make_operator<cuFloatComplex>(s));
        case CUPERM_C_64F: return f(make_operator<cuDoubleComplex>(s));
        default: return cudaErrorInvalidValue; // integer types take no operator
        }
    }
    switch (type) {
    case CUPERM_R_16F: return f(make_axpby<__half>(s));
    case CUPERM_R_16BF: return f(make_axpby<__nv_bfloat16>(s));
    case CUPERM_R_32F: return f(make_axpby<float>(s));
    case CUPERM_R_64F: return f(make_axpby<double>(s));
    case CUPERM_C_32F: return f(make_axpby<cuFloatComplex>(s));
    case CUPERM_C_64F: return f(make_axpby<cuDoubleComplex>(s));
    case CUPERM_R_8I: return f(make_axpby<int8_t>(s));
    case CUPERM_R_8U: return f(make_axpby<uint8_t>(s));
    case CUPERM_R_16I: return f(make_axpby<int16_t>(s));
    case CUPERM_R_32I: return f(make_axpby<int32_t>(s));
    case CUPERM_R_32U: return f(make_axpby<uint32_t>(s));
    case CUPERM_R_64I: return f(make_axpby<long long>(s));
    case CUPERM_R_64U: return f(make_axpby<unsigned long long>(s));
    }
    return cudaErrorInvalidValue;
}

} // namespace cuperm
