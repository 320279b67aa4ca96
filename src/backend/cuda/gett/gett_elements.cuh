// Element conversions, vector accesses and the mma.sync step shared by the tensor-core GETT
// kernels (gett_mma.cuh: the table kernel; gett_dtile.cu: the D-tile kernel).
#pragma once

#include <stdint.h>
#include <string.h>

#include <cuda_bf16.h>
#include <cuda_fp16.h>

namespace cuperm {
namespace gett {

// ---- element conversions (16-bit values travel as raw unsigned short) ----------------------

template <typename T> struct Conv;
template <> struct Conv<float> {
    typedef float raw;
    static __device__ __forceinline__ float load(float v) { return v; }
    static __device__ __forceinline__ float store(float v) { return v; }
    template <int W> static __device__ __forceinline__ void store_run(const float (&v)[W], float (&y)[W])
    {
#pragma unroll
        for (int j = 0; j < W; ++j) y[j] = v[j];
    }
};
template <> struct Conv<__half> {
    typedef unsigned short raw;
    static __device__ __forceinline__ float load(unsigned short v) { return __half2float(__ushort_as_half(v)); }
    static __device__ __forceinline__ unsigned short store(float v) { return __half_as_ushort(__float2half_rn(v)); }
    template <int W> static __device__ __forceinline__ void store_run(const float (&v)[W], unsigned short (&y)[W])
    {
#pragma unroll
        for (int j = 0; j < W; j += 2) { // one packed conversion per pair
            const __half2 h = __floats2half2_rn(v[j], v[j + 1]);
            y[j] = __half_as_ushort(__low2half(h)), y[j + 1] = __half_as_ushort(__high2half(h));
        }
    }
};
template <> struct Conv<__nv_bfloat16> {
    typedef unsigned short raw;
    static __device__ __forceinline__ float load(unsigned short v)
    {
        return __bfloat162float(__ushort_as_bfloat16(v));
    }
    static __device__ __forceinline__ unsigned short store(float v)
    {
        return __bfloat16_as_ushort(__float2bfloat16_rn(v));
    }
    template <int W> static __device__ __forceinline__ void store_run(const float (&v)[W], unsigned short (&y)[W])
    {
#pragma unroll
        for (int j = 0; j < W; j += 2) { // one packed conversion per pair
            const __nv_bfloat162 h = __floats2bfloat162_rn(v[j], v[j + 1]);
            y[j] = __bfloat16_as_ushort(__low2bfloat16(h)), y[j + 1] = __bfloat16_as_ushort(__high2bfloat16(h));
        }
    }
};

// W raw elements as one vector access of W * sizeof(R) bytes (two when that is 32 bytes).
template <int BYTES> struct VecOf;
template <> struct VecOf<4> { typedef unsigned type; };
template <> struct VecOf<8> { typedef uint2 type; };
template <> struct VecOf<16> { typedef uint4 type; };

template <typename R, int W> __device__ __forceinline__ void vec_load(const R* p, R (&v)[W])
{
    constexpr int BYTES = W * (int)sizeof(R) > 16 ? 16 : W * (int)sizeof(R);
    constexpr int PER = BYTES / (int)sizeof(R);
    typedef typename VecOf<BYTES>::type V;
#pragma unroll
    for (int h = 0; h < W / PER; ++h) {
        const V x = *reinterpret_cast<const V*>(p + h * PER);
        memcpy(&v[h * PER], &x, BYTES);
    }
}

template <typename R, int W> __device__ __forceinline__ void vec_store(R* p, const R (&v)[W])
{
    constexpr int BYTES = W * (int)sizeof(R) > 16 ? 16 : W * (int)sizeof(R);
    constexpr int PER = BYTES / (int)sizeof(R);
    typedef typename VecOf<BYTES>::type V;
#pragma unroll
    for (int h = 0; h < W / PER; ++h) {
        V x;
        memcpy(&x, &v[h * PER], BYTES);
        *reinterpret_cast<V*>(p + h * PER) = x;
    }
}

// d += a b on a 16 x 8 x 16 tile (row-major A, col-major B, fp32 accumulators).
template <typename TAB> __device__ __forceinline__ void mma(float (&d)[4], const unsigned (&a)[4], unsigned b0,
                                                            unsigned b1);
template <> __device__ __forceinline__ void mma<__half>(float (&d)[4], const unsigned (&a)[4], unsigned b0, unsigned b1)
{
    asm("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
                 "{%0, %1, %2, %3};\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}
template <>
__device__ __forceinline__ void mma<__nv_bfloat16>(float (&d)[4], const unsigned (&a)[4], unsigned b0, unsigned b1)
{
    asm("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
                 "{%0, %1, %2, %3};\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

// d = a b: the addend is zero operands, not cleared accumulators (no instructions to clear them).
template <typename TAB> __device__ __forceinline__ void mma_first(float (&d)[4], const unsigned (&a)[4], unsigned b0,
                                                                  unsigned b1);
template <>
__device__ __forceinline__ void mma_first<__half>(float (&d)[4], const unsigned (&a)[4], unsigned b0, unsigned b1)
{
    asm("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
        "{%10, %10, %10, %10};\n"
        : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1), "f"(0.0f));
}
template <>
__device__ __forceinline__ void mma_first<__nv_bfloat16>(float (&d)[4], const unsigned (&a)[4], unsigned b0,
                                                         unsigned b1)
{
    asm("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
        "{%10, %10, %10, %10};\n"
        : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1), "f"(0.0f));
}

} // namespace gett
} // namespace cuperm
