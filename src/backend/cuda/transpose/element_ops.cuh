// What a kernel does with each element: a plain move, or alpha*x + beta*y in
// the type's arithmetic. Integer types wrap (two's complement), half types
// compute in float, complex types multiply as complex numbers.
#pragma once

#include <cuComplex.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <stdint.h>
#include <string.h>

#include "core/scalar_values.h"

namespace cuperm {

// Moves bits: any type of the same size, alpha = 1, beta = 0.
template <typename T>
struct CopyOp {
    using value_type = T;
    static constexpr bool kMovesBits = true; // lets vector paths skip unpacking
    __device__ __forceinline__ T operator()(T x, const T*) const { return x; }
};

template <typename T> struct Arith;

template <typename T, typename S>
struct RealArith {
    using scalar = S;
    __device__ static T ax(S a, T x) { return a * x; }
    __device__ static T axpby(S a, T x, S b, T y) { return a * x + b * y; }
};
template <> struct Arith<float> : RealArith<float, float> {};
template <> struct Arith<double> : RealArith<double, double> {};

template <typename T, typename W>
struct IntArith { // unsigned arithmetic of width W wraps instead of overflowing
    using scalar = T;
    __device__ static T ax(T a, T x) { return (T)((W)a * (W)x); }
    __device__ static T axpby(T a, T x, T b, T y) { return (T)((W)a * (W)x + (W)b * (W)y); }
};
template <> struct Arith<int8_t> : IntArith<int8_t, uint32_t> {};
template <> struct Arith<uint8_t> : IntArith<uint8_t, uint32_t> {};
template <> struct Arith<int16_t> : IntArith<int16_t, uint32_t> {};
template <> struct Arith<int32_t> : IntArith<int32_t, uint32_t> {};
template <> struct Arith<uint32_t> : IntArith<uint32_t, uint32_t> {};
template <> struct Arith<long long> : IntArith<long long, unsigned long long> {};
template <> struct Arith<unsigned long long> : IntArith<unsigned long long, unsigned long long> {};

template <> struct Arith<__half> {
    using scalar = float;
    __device__ static __half ax(float a, __half x) { return __float2half_rn(a * __half2float(x)); }
    __device__ static __half axpby(float a, __half x, float b, __half y)
    {
        return __float2half_rn(a * __half2float(x) + b * __half2float(y));
    }
};
template <> struct Arith<__nv_bfloat16> {
    using scalar = float;
    __device__ static __nv_bfloat16 ax(float a, __nv_bfloat16 x)
    {
        return __float2bfloat16_rn(a * __bfloat162float(x));
    }
    __device__ static __nv_bfloat16 axpby(float a, __nv_bfloat16 x, float b, __nv_bfloat16 y)
    {
        return __float2bfloat16_rn(a * __bfloat162float(x) + b * __bfloat162float(y));
    }
};
template <> struct Arith<cuFloatComplex> {
    using scalar = cuFloatComplex;
    __device__ static cuFloatComplex ax(cuFloatComplex a, cuFloatComplex x) { return cuCmulf(a, x); }
    __device__ static cuFloatComplex axpby(cuFloatComplex a, cuFloatComplex x, cuFloatComplex b,
                                           cuFloatComplex y)
    {
        return cuCaddf(cuCmulf(a, x), cuCmulf(b, y));
    }
};
template <> struct Arith<cuDoubleComplex> {
    using scalar = cuDoubleComplex;
    __device__ static cuDoubleComplex ax(cuDoubleComplex a, cuDoubleComplex x) { return cuCmul(a, x); }
    __device__ static cuDoubleComplex axpby(cuDoubleComplex a, cuDoubleComplex x, cuDoubleComplex b,
                                            cuDoubleComplex y)
    {
        return cuCadd(cuCmul(a, x), cuCmul(b, y));
    }
};

// alpha * x (+ beta * y when beta != 0; y is then read, otherwise never).
template <typename T>
struct AxpbyOp {
    using value_type = T;
    static constexpr bool kMovesBits = false;
    using S = typename Arith<T>::scalar;
    S alpha, beta;
    bool use_beta;
    __device__ __forceinline__ T operator()(T x, const T* y) const
    {
        return use_beta ? Arith<T>::axpby(alpha, x, beta, *y) : Arith<T>::ax(alpha, x);
    }
};

template <typename T>
AxpbyOp<T> make_axpby(const cuperm_scalars_t* s)
{
    AxpbyOp<T> op;
    static_assert(sizeof(typename Arith<T>::scalar) <= sizeof(s->alpha), "scalar too large");
    memcpy(&op.alpha, s->alpha, sizeof op.alpha);
    memcpy(&op.beta, s->beta, sizeof op.beta);
    op.use_beta = s->use_beta != 0;
    return op;
}

} // namespace cuperm
