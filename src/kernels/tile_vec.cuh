// Tile paths for elements of 1, 2 and 4 bytes that move 16-byte vectors on
// both sides, so the per-element cost of offsets and instructions shrinks by
// the vector width. The planner enables them (cuperm_tile_params_t.vec_log2)
// when every stride but the fastest one's is a multiple of the vector width;
// the launcher when both pointers are 16-byte aligned.
//
// TILED: a tile is 16 KB: 64 rows (B) of 256 bytes (A), or 128 of 128 for
// 1-byte elements. Reads load one 16-byte chunk of a row per thread; chunks
// are stored XOR-swizzled by (row / V) % 8, so the
// write pass, in which a warp gathers 8 column vectors for each of 4
// neighbouring columns, touches 32 distinct banks. Both passes are coalesced
// in runs of 128 bytes or more. Vectors live in uint4 registers; elements are packed and
// unpacked with shifts, which keeps small types out of local memory.
#pragma once

#include "common/index_math.h"
#include "host/plan_select.h"

namespace cuperm {

constexpr int kVecPerThread = 4; // 16-byte vectors per thread and pass: 64 bytes in flight

template <typename T>
__device__ __forceinline__ uint32_t bits_of(T x)
{
    uint32_t b = 0;
    memcpy(&b, &x, sizeof(T));
    return b;
}

template <typename T>
__device__ __forceinline__ T from_bits(uint32_t b)
{
    T x;
    memcpy(&x, &b, sizeof(T));
    return x;
}

// Element j of a vector of Ts (j a compile-time constant after unrolling).
template <typename T>
__device__ __forceinline__ T vec_get(const uint4& v, int j)
{
    const uint32_t w[4] = {v.x, v.y, v.z, v.w};
    constexpr int per_word = 4 / sizeof(T);
    const uint32_t word = w[j / per_word];
    if constexpr (sizeof(T) == 4) return from_bits<T>(word);
    else return from_bits<T>((word >> (8 * sizeof(T) * (j % per_word))) & ((1u << (8 * sizeof(T))) - 1));
}

template <typename T>
__device__ __forceinline__ void vec_put(uint32_t (&w)[4], int j, T x)
{
    constexpr int per_word = 4 / sizeof(T);
    w[j / per_word] |= bits_of(x) << (8 * sizeof(T) * (j % per_word));
}

// out-of-place op on a loaded vector (beta may read the destination o).
template <typename Op>
__device__ __forceinline__ uint4 apply_vec(const uint4& v, typename Op::value_type* o, const Op& op)
{
    using T = typename Op::value_type;
    if constexpr (Op::kMovesBits) {
        return v;
    } else {
        uint32_t w[4] = {0, 0, 0, 0};
#pragma unroll
        for (int j = 0; j < (int)(16 / sizeof(T)); ++j) vec_put(w, j, op(vec_get<T>(v, j), o + j));
        return make_uint4(w[0], w[1], w[2], w[3]);
    }
}

// ROWS: both sides contiguous along x; vectors move straight through.
template <typename Op>
__device__ __forceinline__ void move_rows_vec(const cuperm_tile_params_t& p, const typename Op::value_type* tin,
                                              typename Op::value_type* tout, int na, int nb, const int64_t* a_in,
                                              const int64_t* a_out, const int64_t* b_in, const int64_t* b_out,
                                              const Op& op)
{
    using T = typename Op::value_type;
    const int lxv = p.tile_a_log2 - p.vec_log2; // log2 of vectors per row
    uint4 r[kVecPerThread];
#pragma unroll
    for (int k = 0; k < kVecPerThread; ++k) {
        const int q = threadIdx.x + k * CUPERM_THREADS;
        const int x = (q & ((1 << lxv) - 1)) << p.vec_log2, y = q >> lxv;
        if (x < na && y < nb) r[k] = *reinterpret_cast<const uint4*>(tin + a_in[x] + b_in[y]);
    }
#pragma unroll
    for (int k = 0; k < kVecPerThread; ++k) {
        const int q = threadIdx.x + k * CUPERM_THREADS;
        const int x = (q & ((1 << lxv) - 1)) << p.vec_log2, y = q >> lxv;
        if (x < na && y < nb) {
            T* o = tout + a_out[x] + b_out[y];
            *reinterpret_cast<uint4*>(o) = apply_vec(r[k], o, op);
        }
    }
}

// TILED: see the file comment. A tile is (1 << tile_b_log2) rows of
// C = (1 << tile_a_log2) / V chunks; the planner keeps C >= 8 and at least 8
// column vectors per column, and the tile at 1024 vectors.
template <typename Op>
__device__ __forceinline__ void move_tile_vec(const cuperm_tile_params_t& p, const typename Op::value_type* tin,
                                              typename Op::value_type* tout, int na, int nb, const int64_t* a_in,
                                              const int64_t* a_out, const int64_t* b_in, const int64_t* b_out,
                                              typename Op::value_type* tile, const Op& op)
{
    using T = typename Op::value_type;
    constexpr int V = 16 / sizeof(T), lV = V == 16 ? 4 : V == 8 ? 3 : 2;
    const int lC = p.tile_a_log2 - lV, C = 1 << lC; // chunks per row
    const int ly = p.tile_b_log2 - lV;              // log2 of column vectors per column
    uint4* rows = reinterpret_cast<uint4*>(tile);
    uint4 r[kVecPerThread];
#pragma unroll
    for (int k = 0; k < kVecPerThread; ++k) {
        const int q = threadIdx.x + k * CUPERM_THREADS, x = (q & (C - 1)) * V, y = q >> lC;
        if (x < na && y < nb) r[k] = *reinterpret_cast<const uint4*>(tin + a_in[x] + b_in[y]);
    }
#pragma unroll
    for (int k = 0; k < kVecPerThread; ++k) {
        const int q = threadIdx.x + k * CUPERM_THREADS, cx = q & (C - 1), y = q >> lC;
        if (cx * V < na && y < nb) rows[y * C + (cx ^ ((y >> lV) & 7))] = r[k];
    }
    __syncthreads();
    // A warp: 8 column vectors (iy) for each of 4 neighbouring columns (xl).
    // Not fully unrolled: a gathered vector holds V registers before packing.
#pragma unroll 2
    for (int k = 0; k < kVecPerThread; ++k) {
        const int q = threadIdx.x + k * CUPERM_THREADS, iy = q & 7, xl = (q >> 3) & 3, hi = q >> 5;
        const int yv = ((hi & ((1 << (ly - 3)) - 1)) << 3) | iy, x = ((hi >> (ly - 3)) << 2) | xl;
        const int y = yv * V;
        if (x < na && y < nb) {
            // (row >> lV) & 7 == yv & 7 == iy for every row of this column vector
            const T* col = reinterpret_cast<const T*>(rows + ((x / V) ^ iy)) + (x % V);
            uint32_t w[4] = {0, 0, 0, 0};
#pragma unroll
            for (int j = 0; j < V; ++j) vec_put(w, j, col[(y + j) * C * V]);
            T* o = tout + a_out[x] + b_out[y];
            *reinterpret_cast<uint4*>(o) = apply_vec(make_uint4(w[0], w[1], w[2], w[3]), o, op);
        }
    }
}

} // namespace cuperm
