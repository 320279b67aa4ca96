// Contiguous on both sides: a grid-stride copy in 16-byte vectors where the
// two pointers share their alignment, element by element otherwise, kUnroll of
// them a thread (the plan's copy_unroll, 1 or CUPERM_COPY_UNROLL_MAX: select.c, copy_form).
#include <string.h>

#include <type_traits>

#include "backend/cuda/transpose/launch.h"
#include "backend/cuda/transpose/type_dispatch.cuh"

namespace cuperm {
namespace {

constexpr int kThreads = 256;

template <typename T, int V>
struct alignas(sizeof(T) * V) Vec {
    T v[V];
};

// Elements [0, head) and [head + nvec*V, n) one by one; [head, head + nvec*V) as vectors.
template <int V, int kUnroll, typename Op>
__global__ void __launch_bounds__(kThreads)
copy_kernel(const typename Op::value_type* __restrict__ in, typename Op::value_type* __restrict__ out,
            int64_t head, int64_t nvec, int64_t n, Op op)
{
    using T = typename Op::value_type;
    // Plain moves of 16-byte vectors go as one 128-bit word: as a struct of elements, a vector of
    // 1-byte elements was taken apart and rebuilt byte by byte.
    using VecT = std::conditional_t<Op::kMovesBits && sizeof(T) * V == 16, uint4, Vec<T, V>>;
    const VecT* vin = reinterpret_cast<const VecT*>(in + head);
    VecT* vout = reinterpret_cast<VecT*>(out + head);
    const int64_t step = (int64_t)gridDim.x * kThreads * kUnroll;
    for (int64_t base = (int64_t)blockIdx.x * kThreads * kUnroll + threadIdx.x; base < nvec; base += step) {
        VecT r[kUnroll];
#pragma unroll
        for (int k = 0; k < kUnroll; ++k) {
            int64_t i = base + (int64_t)k * kThreads;
            if (i < nvec) r[k] = vin[i];
        }
        VecT y[kUnroll]; // the old values where the operator reads them, loaded together (store_run)
        if (op.reads_out()) {
#pragma unroll
            for (int k = 0; k < kUnroll; ++k)
                if (base + (int64_t)k * kThreads < nvec) y[k] = vout[base + (int64_t)k * kThreads];
        }
#pragma unroll
        for (int k = 0; k < kUnroll; ++k) {
            int64_t i = base + (int64_t)k * kThreads;
            if (i >= nvec) continue;
            if constexpr (Op::kMovesBits) {
                vout[i] = r[k];
            } else {
                VecT w;
#pragma unroll
                for (int j = 0; j < V; ++j) w.v[j] = op(r[k].v[j], &y[k].v[j]);
                vout[i] = w;
            }
        }
    }
    if (blockIdx.x == 0) {
        const int64_t tail = head + nvec * V;
        for (int64_t i = threadIdx.x; i < head + (n - tail); i += kThreads) {
            int64_t e = i < head ? i : tail + (i - head);
            out[e] = op(in[e], &out[e]);
        }
    }
}

template <int kUnroll, typename Op>
cudaError_t launch(const cuperm_launch_t* l, const void* in_v, void* out_v, cudaStream_t stream, Op op)
{
    using T = typename Op::value_type;
    constexpr int V = sizeof(T) >= 16 ? 1 : 16 / sizeof(T);
    const T* in = static_cast<const T*>(in_v);
    T* out = static_cast<T*>(out_v);
    const uintptr_t ia = (uintptr_t)in, oa = (uintptr_t)out;
    const int64_t n = l->volume;
    int64_t head = 0, nvec = 0;
    bool vectorize = V > 1 && (ia % 16) == (oa % 16);
    if (vectorize) {
        head = (int64_t)(((16 - ia % 16) % 16) / sizeof(T));
        if (head > n) head = n;
        nvec = (n - head) / V;
    }
    const int64_t per_block = (int64_t)kThreads * kUnroll;
    int64_t work = vectorize ? nvec : n;
    int64_t blocks = (work + per_block - 1) / per_block;
    if (blocks < 1) blocks = 1;
    if (blocks > 0x7fffffff) blocks = 0x7fffffff;
    if (vectorize)
        copy_kernel<V, kUnroll, Op><<<(unsigned)blocks, kThreads, 0, stream>>>(in, out, head, nvec, n, op);
    else
        copy_kernel<1, kUnroll, Op><<<(unsigned)blocks, kThreads, 0, stream>>>(in, out, 0, n, n, op);
    return cudaGetLastError();
}

} // namespace
} // namespace cuperm

extern "C" cudaError_t cuperm_launch_copy(const cuperm_launch_t* l, cupermDataType_t type,
                                          const cuperm_scalars_t* s, const void* in, void* out,
                                          cudaStream_t stream)
{
    return cuperm::dispatch_op(type, s, [&](auto op) {
        return l->copy_unroll == 1 ? cuperm::launch<1>(l, in, out, stream, op)
                                   : cuperm::launch<CUPERM_COPY_UNROLL_MAX>(l, in, out, stream, op);
    });
}
