// The tile walk shared by the TILED and ROWS kernels (see cuperm_tile_params_t).
//
// Each block takes tiles in turn. For a tile it first builds four small
// offset tables in shared memory (input and output offsets of its A and B
// indices), so the per-element work is two table reads and two adds, never a
// division. TILED stages the tile through shared memory: read with x (A, the
// input's contiguous group) fastest, written with y (B, the output's) fastest,
// both coalesced; rows are padded so the column-wise pass is conflict-free.
// ROWS (same fastest dimension on both sides) moves elements directly.
#pragma once

#include "common/index_math.h"
#include "kernels/launch.h"
#include "kernels/type_dispatch.cuh"

namespace cuperm {

constexpr int kTileThreads = 256;

template <bool kStaged, typename Op>
__global__ void __launch_bounds__(kTileThreads)
tile_kernel(const cuperm_tile_params_t p, const typename Op::value_type* __restrict__ in,
            typename Op::value_type* __restrict__ out, Op op)
{
    using T = typename Op::value_type;
    extern __shared__ __align__(16) unsigned char smem[];
    const int ta = 1 << p.tile_a_log2, tb = 1 << p.tile_b_log2;
    int64_t* a_in = reinterpret_cast<int64_t*>(smem);
    int64_t* a_out = a_in + ta;
    int64_t* b_in = a_out + ta;
    int64_t* b_out = b_in + tb;
    T* tile = reinterpret_cast<T*>(b_out + tb);
    const int elems = ta * tb;

    for (int64_t t = blockIdx.x; t < p.num_tiles; t += gridDim.x) {
        int64_t a0, b0, in_base, out_base;
        cuperm_tile_origin(&p, t, &a0, &b0, &in_base, &out_base);
        const int na = (int)min((int64_t)ta, p.a_volume - a0);
        const int nb = (int)min((int64_t)tb, p.b_volume - b0);
        for (int i = threadIdx.x; i < ta + tb; i += kTileThreads) {
            if (i < na)
                cuperm_group_offsets(p.dim, 0, p.a_end, a0 + i, &a_in[i], &a_out[i]);
            else if (i >= ta && i - ta < nb)
                cuperm_group_offsets(p.dim, p.a_end, p.b_end, b0 + (i - ta), &b_in[i - ta], &b_out[i - ta]);
        }
        __syncthreads();
        const T* tin = in + in_base;
        T* tout = out + out_base;
        if (kStaged) {
#pragma unroll 4
            for (int e = threadIdx.x; e < elems; e += kTileThreads) {
                const int x = e & (ta - 1), y = e >> p.tile_a_log2;
                if (x < na && y < nb) tile[y * p.smem_row + x] = tin[a_in[x] + b_in[y]];
            }
            __syncthreads();
#pragma unroll 4
            for (int e = threadIdx.x; e < elems; e += kTileThreads) {
                const int y = e & (tb - 1), x = e >> p.tile_b_log2;
                if (x < na && y < nb) {
                    T* o = tout + a_out[x] + b_out[y];
                    *o = op(tile[y * p.smem_row + x], o);
                }
            }
        } else {
#pragma unroll 4
            for (int e = threadIdx.x; e < elems; e += kTileThreads) {
                const int x = e & (ta - 1), y = e >> p.tile_a_log2;
                if (x < na && y < nb) {
                    T* o = tout + a_out[x] + b_out[y];
                    *o = op(tin[a_in[x] + b_in[y]], o);
                }
            }
        }
        __syncthreads(); // tables and tile are rewritten by the next tile
    }
}

template <bool kStaged>
cudaError_t launch_tiles(const cuperm_launch_t* l, cupermDataType_t type, const cuperm_scalars_t* s,
                         const void* in, void* out, cudaStream_t stream)
{
    return dispatch_op(type, s, [&](auto op) {
        using Op = decltype(op);
        using T = typename Op::value_type;
        auto kernel = tile_kernel<kStaged, Op>;
        if (l->smem_bytes > 48 * 1024) {
            cudaError_t err =
                cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, l->smem_bytes);
            if (err != cudaSuccess) return err;
        }
        kernel<<<(unsigned)l->blocks, kTileThreads, (size_t)l->smem_bytes, stream>>>(
            l->tile, static_cast<const T*>(in), static_cast<T*>(out), op);
        return cudaGetLastError();
    });
}

} // namespace cuperm
