// What a kernel does with each element: a plain move, or alpha*x + beta*y in
// the type's arithmetic. Integer types wrap (two's complement), half types
// compute in float, complex types multiply as complex numbers.
#pragma once

#include <cuComplex.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <stdint.h>
#include <string.h>

#include <type_traits>

#include "backend/cuda/apply_op.cuh"
#include "core/scalar_values.h"

namespace cuperm {

// Moves bits: any type of the same size, alpha = 1, beta = 0.
template <typename T>
struct CopyOp {
    using value_type = T;
    static constexpr bool kMovesBits = true; // lets vector paths skip unpacking
    __device__ __forceinline__ T operator()(T x, const T*) const { return x; }
    __device__ __forceinline__ constexpr bool reads_out() const { return false; }
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
// cuComplex's products and sums by overload, so that one template serves both widths.
__device__ __forceinline__ cuFloatComplex cmul(cuFloatComplex a, cuFloatComplex x) { return cuCmulf(a, x); }
__device__ __forceinline__ cuDoubleComplex cmul(cuDoubleComplex a, cuDoubleComplex x) { return cuCmul(a, x); }
__device__ __forceinline__ cuFloatComplex cadd(cuFloatComplex a, cuFloatComplex b) { return cuCaddf(a, b); }
__device__ __forceinline__ cuDoubleComplex cadd(cuDoubleComplex a, cuDoubleComplex b) { return cuCadd(a, b); }

template <typename C>
struct ComplexArith {
    using scalar = C;
    __device__ static C ax(C a, C x) { return cmul(a, x); }
    __device__ static C axpby(C a, C x, C b, C y) { return cadd(cmul(a, x), cmul(b, y)); }
};
template <> struct Arith<cuFloatComplex> : ComplexArith<cuFloatComplex> {};
template <> struct Arith<cuDoubleComplex> : ComplexArith<cuDoubleComplex> {};

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
    __device__ __forceinline__ bool reads_out() const { return use_beta; }
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


template <typename R> R host_param(double p) { return (R)p; }
template <> inline cuFloatComplex host_param(double) { return make_cuFloatComplex(0, 0); }
template <> inline cuDoubleComplex host_param(double) { return make_cuDoubleComplex(0, 0); }

// ---- elementwise operators: out = opOut(alpha * opIn(x) + beta * opC(y)) --------------------

// Values in the arithmetic the operators use: float for the 16-bit floats and float, double for
// double, complex pairs for the complex types.
template <typename T> struct OpValue { // float, double and the complex types compute as they are
    using R = T;
    __device__ static T load(T x) { return x; }
    __device__ static T store(T x) { return x; }
};
template <> struct OpValue<__half> {
    using R = float;
    __device__ static float load(__half x) { return __half2float(x); }
    __device__ static __half store(float x) { return __float2half_rn(x); }
};
template <> struct OpValue<__nv_bfloat16> {
    using R = float;
    __device__ static float load(__nv_bfloat16 x) { return __bfloat162float(x); }
    __device__ static __nv_bfloat16 store(float x) { return __float2bfloat16_rn(x); }
};
// The scalar arithmetic of the operator path, in R (float, double or a complex type).
template <typename R> struct OpArith {
    __device__ static R axpby(R a, R x, R b, R y, bool use_b)
    {
        if constexpr (std::is_same_v<R, cuFloatComplex> || std::is_same_v<R, cuDoubleComplex>)
            return use_b ? cadd(cmul(a, x), cmul(b, y)) : cmul(a, x);
        else
            return use_b ? a * x + b * y : a * x;
    }
};

// Instantiated for the floating types only, and only used when some operator is not the
// identity: plain moves and alpha/beta alone keep CopyOp and AxpbyOp.
template <typename T>
struct OperatorOp {
    using value_type = T;
    static constexpr bool kMovesBits = false;
    using R = typename OpValue<T>::R;
    R alpha, beta, p_in, p_c, p_out;
    cupermOperator_t op_in, op_c, op_out;
    bool use_beta;
    __device__ __forceinline__ T operator()(T x, const T* y) const
    {
        const R v = apply_op<R>(op_in, p_in, OpValue<T>::load(x));
        const R c = use_beta ? apply_op<R>(op_c, p_c, OpValue<T>::load(*y)) : v;
        return OpValue<T>::store(apply_op<R>(op_out, p_out, OpArith<R>::axpby(alpha, v, beta, c, use_beta)));
    }
    __device__ __forceinline__ bool reads_out() const { return use_beta; }
};

template <typename T>
OperatorOp<T> make_operator(const cuperm_scalars_t* s)
{
    using R = typename OperatorOp<T>::R;
    using S = typename Arith<T>::scalar;
    static_assert(sizeof(S) == sizeof(R), "the scalar type is the operator arithmetic's");
    OperatorOp<T> op;
    memcpy(&op.alpha, s->alpha, sizeof op.alpha);
    memcpy(&op.beta, s->beta, sizeof op.beta);
    op.use_beta = s->use_beta != 0;
    op.op_in = s->ops.in;
    op.op_c = s->ops.c;
    op.op_out = s->ops.out;
    // Parameters are real (complex types take no parameterised operator).
    op.p_in = host_param<R>(s->ops.param_in);
    op.p_c = host_param<R>(s->ops.param_c);
    op.p_out = host_param<R>(s->ops.param_out);
    return op;
}

// ---- writing a thread's run of results -------------------------------------------------------

// *addr(k) = op(val(k), old *addr(k)) for each k < n with ok(k). Where the operator reads the
// destination (beta != 0) the old values are loaded kYRun at a time before their stores: the
// compiler cannot tell that a store leaves a later load's address alone, so `*o = op(v, o)` in a
// loop waits out one load's latency per element (out = 2 in + out ran at 16% of a copy's
// bandwidth for 1-byte elements and 32% for 2-byte ones, against 43% and 67% for plain copies,
// H100). Eight at a time, not all: with all 16 held the staged tile kernels spilled at their
// 64-register bound. Plain copies (CopyOp) keep their own loops at the call sites: through this
// function their code changed, and the copy kernels are the ones the tuning was measured on.
template <int n, typename Op, typename Addr, typename Val, typename Ok>
__device__ __forceinline__ void store_run(const Op& op, Addr&& addr, Val&& val, Ok&& ok)
{
    using T = typename Op::value_type;
    constexpr int kYRun = n < 8 ? n : 8;
    static_assert(n % kYRun == 0, "whole runs");
    if (op.reads_out()) {
#pragma unroll
        for (int j = 0; j < n; j += kYRun) {
            T y[kYRun];
#pragma unroll
            for (int k = 0; k < kYRun; ++k)
                if (ok(j + k)) y[k] = *addr(j + k);
#pragma unroll
            for (int k = 0; k < kYRun; ++k)
                if (ok(j + k)) *addr(j + k) = op(val(j + k), &y[k]);
        }
    } else {
#pragma unroll
        for (int k = 0; k < n; ++k)
            if (ok(k)) {
                T* o = addr(k);
                *o = op(val(k), o);
            }
    }
}

} // namespace cuperm
