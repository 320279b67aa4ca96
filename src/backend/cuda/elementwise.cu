#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "backend/cuda/elementwise.h"

namespace cuperm {
namespace {

/* Values are computed in float (16- and 32-bit types) or double, complex as pairs. */
template <class T> struct Traits;
template <> struct Traits<float> {
    using Compute = float;
    static __device__ float load(float x) { return x; }
    static __device__ float store(float x) { return x; }
};
template <> struct Traits<double> {
    using Compute = double;
    static __device__ double load(double x) { return x; }
    static __device__ double store(double x) { return x; }
};
template <> struct Traits<__half> {
    using Compute = float;
    static __device__ float load(__half x) { return __half2float(x); }
    static __device__ __half store(float x) { return __float2half_rn(x); }
};
template <> struct Traits<__nv_bfloat16> {
    using Compute = float;
    static __device__ float load(__nv_bfloat16 x) { return __bfloat162float(x); }
    static __device__ __nv_bfloat16 store(float x) { return __float2bfloat16_rn(x); }
};
template <> struct Traits<float2> {
    using Compute = float2;
    static __device__ float2 load(float2 x) { return x; }
    static __device__ float2 store(float2 x) { return x; }
};
template <> struct Traits<double2> {
    using Compute = double2;
    static __device__ double2 load(double2 x) { return x; }
    static __device__ double2 store(double2 x) { return x; }
};

template <class R> __device__ R apply(cupermOperator_t op, double param, R x)
{
    const R p = (R)param;
    switch (op) {
    case CUPERM_OP_NEGATE: return -x;
    case CUPERM_OP_ABS: return x < R(0) ? -x : x;
    case CUPERM_OP_RELU: return x > R(0) ? x : R(0);
    case CUPERM_OP_LEAKY_RELU: return x > R(0) ? x : p * x;
    case CUPERM_OP_ELU: return x > R(0) ? x : p * expm1(x); /* exp(x) - 1 cancels near 0 */
    case CUPERM_OP_SIGMOID: return R(1) / (R(1) + exp(-x));
    case CUPERM_OP_TANH: return tanh(x);
    case CUPERM_OP_EXP: return exp(x);
    case CUPERM_OP_SQRT: return sqrt(x);
    default: return x; /* identity; conj of a real number */
    }
}
template <> __device__ float2 apply(cupermOperator_t op, double, float2 x)
{
    if (op == CUPERM_OP_NEGATE) return make_float2(-x.x, -x.y);
    if (op == CUPERM_OP_CONJ) return make_float2(x.x, -x.y);
    return x;
}
template <> __device__ double2 apply(cupermOperator_t op, double, double2 x)
{
    if (op == CUPERM_OP_NEGATE) return make_double2(-x.x, -x.y);
    if (op == CUPERM_OP_CONJ) return make_double2(x.x, -x.y);
    return x;
}

template <class R> __device__ R axpy(R x, double bre, double, R c) { return x + (R)bre * c; }
template <> __device__ float2 axpy(float2 x, double bre, double bim, float2 c)
{
    const float br = (float)bre, bi = (float)bim;
    return make_float2(x.x + br * c.x - bi * c.y, x.y + br * c.y + bi * c.x);
}
template <> __device__ double2 axpy(double2 x, double bre, double bim, double2 c)
{
    return make_double2(x.x + bre * c.x - bim * c.y, x.y + bre * c.y + bim * c.x);
}

/* Offsets in all three tensors of linear index i (dimension 0 fastest). */
struct Offsets {
    int64_t out, in, c;
};
__device__ Offsets offsets(const cuperm_ctr_ew_params_t& p, int64_t i)
{
    Offsets o = {0, 0, 0};
    for (int d = 0; d < p.rank; ++d) {
        const int64_t e = p.extents[d];
        const int64_t q = i / e, x = i - q * e;
        o.out += x * p.outStrides[d];
        o.in += x * p.inStrides[d];
        o.c += x * p.cStrides[d];
        i = q;
    }
    return o;
}

template <class T>
__global__ void elementwise(const cuperm_ctr_ew_params_t p, int64_t volume, const T* in,
                            const T* c, T* out, double bre, double bim)
{
    using R = typename Traits<T>::Compute;
    const int64_t step = (int64_t)gridDim.x * blockDim.x;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < volume; i += step) {
        const Offsets o = offsets(p, i);
        R v = apply<R>(p.opIn, p.paramIn, Traits<T>::load(in[o.in]));
        if (c) v = axpy<R>(v, bre, bim, apply<R>(p.opC, p.paramC, Traits<T>::load(c[o.c])));
        out[o.out] = Traits<T>::store(apply<R>(p.opOut, p.paramOut, v));
    }
}

template <class T>
cudaError_t launch(const cuperm_ctr_ew_params_t* p, const void* in, const void* c, void* out, const double beta[2],
                   cudaStream_t stream)
{
    int64_t volume = 1;
    for (int d = 0; d < p->rank; ++d) volume *= p->extents[d];
    const int threads = 256;
    const int64_t blocks = (volume + threads - 1) / threads;
    const unsigned grid = (unsigned)(blocks < 65536 ? blocks : 65536);
    elementwise<T><<<grid, threads, 0, stream>>>(*p, volume, (const T*)in, (const T*)c, (T*)out,
                                                 beta[0], beta[1]);
    return cudaGetLastError();
}

} // namespace
} // namespace cuperm

using namespace cuperm;

extern "C" cudaError_t cuperm_ctr_ew_launch(const cuperm_ctr_ew_params_t* p, const void* in, const void* c, void* out,
                                     const double beta[2], cudaStream_t stream)
{
    switch (p->type) {
    case CUPERM_R_32F: return launch<float>(p, in, c, out, beta, stream);
    case CUPERM_R_64F: return launch<double>(p, in, c, out, beta, stream);
    case CUPERM_R_16F: return launch<__half>(p, in, c, out, beta, stream);
    case CUPERM_R_16BF: return launch<__nv_bfloat16>(p, in, c, out, beta, stream);
    case CUPERM_C_32F: return launch<float2>(p, in, c, out, beta, stream);
    case CUPERM_C_64F: return launch<double2>(p, in, c, out, beta, stream);
    default: return cudaErrorInvalidValue;
    }
}
