// Tile paths for elements of 1, 2 and 4 bytes that move 16-byte vectors on
// both sides, so the per-element cost of offsets and instructions shrinks by
// the vector width. The planner enables them (cuperm_tile_params_t.vec_log2)
// when every stride but the fastest one's is a multiple of the vector width;
// the launcher when both pointers are 16-byte aligned.
//
// TILED: a tile is 128 rows (B) of 128 bytes (A). Reads load one 16-byte chunk
// of a row per thread; chunks are stored XOR-swizzled by (row / V) % 8, so the
// write pass, in which a warp gathers 8 column vectors for each of 4
// neighbouring columns, touches 32 distinct banks. Both passes are coalesced
// in 128-byte runs.
#pragma once

#include "common/index_math.h"
#include "host/plan_select.h"

namespace cuperm {

template <typename T>
struct alignas(16) Vec16 {
    T v[16 / sizeof(T)];
};

constexpr int kVecPerThread = 4; // 16-byte vectors per thread and pass: 64 bytes in flight

template <typename Op>
__device__ __forceinline__ void apply_vec(Vec16<typename Op::value_type>& w, typename Op::value_type* o,
                                          const Op& op)
{
#pragma unroll
    for (int j = 0; j < (int)(16 / sizeof(typename Op::value_type)); ++j) w.v[j] = op(w.v[j], o + j);
}

// ROWS: both sides contiguous along x; vectors move straight through.
template <typename Op>
__device__ __forceinline__ void move_rows_vec(const cuperm_tile_params_t& p, const typename Op::value_type* tin,
                                              typename Op::value_type* tout, int na, int nb, const int64_t* a_in,
                                              const int64_t* a_out, const int64_t* b_in, const int64_t* b_out,
                                              const Op& op)
{
    using T = typename Op::value_type;
    using V16 = Vec16<T>;
    const int lxv = p.tile_a_log2 - p.vec_log2; // log2 of vectors per row
    V16 r[kVecPerThread];
#pragma unroll
    for (int k = 0; k < kVecPerThread; ++k) {
        const int q = threadIdx.x + k * CUPERM_THREADS;
        const int x = (q & ((1 << lxv) - 1)) << p.vec_log2, y = q >> lxv;
        if (x < na && y < nb) r[k] = *reinterpret_cast<const V16*>(tin + a_in[x] + b_in[y]);
    }
#pragma unroll
    for (int k = 0; k < kVecPerThread; ++k) {
        const int q = threadIdx.x + k * CUPERM_THREADS;
        const int x = (q & ((1 << lxv) - 1)) << p.vec_log2, y = q >> lxv;
        if (x < na && y < nb) {
            T* o = tout + a_out[x] + b_out[y];
            apply_vec(r[k], o, op);
            *reinterpret_cast<V16*>(o) = r[k];
        }
    }
}

// TILED: see the file comment. tile_a_log2 = log2(128 / sizeof(T)), tile_b_log2 = 7.
template <typename Op>
__device__ __forceinline__ void move_tile_vec(const cuperm_tile_params_t& p, const typename Op::value_type* tin,
                                              typename Op::value_type* tout, int na, int nb, const int64_t* a_in,
                                              const int64_t* a_out, const int64_t* b_in, const int64_t* b_out,
                                              typename Op::value_type* tile, const Op& op)
{
    using T = typename Op::value_type;
    using V16 = Vec16<T>;
    constexpr int V = 16 / sizeof(T), lV = V == 16 ? 4 : V == 8 ? 3 : V == 4 ? 2 : V == 2 ? 1 : 0;
    V16* rows = reinterpret_cast<V16*>(tile); // 8 chunks per row
    V16 r[kVecPerThread];
#pragma unroll
    for (int k = 0; k < kVecPerThread; ++k) {
        const int q = threadIdx.x + k * CUPERM_THREADS, x = (q & 7) * V, y = q >> 3;
        if (x < na && y < nb) r[k] = *reinterpret_cast<const V16*>(tin + a_in[x] + b_in[y]);
    }
#pragma unroll
    for (int k = 0; k < kVecPerThread; ++k) {
        const int q = threadIdx.x + k * CUPERM_THREADS, cx = q & 7, y = q >> 3;
        if (cx * V < na && y < nb) rows[y * 8 + (cx ^ ((y >> lV) & 7))] = r[k];
    }
    __syncthreads();
    // A warp: 8 column vectors (iy) for each of 4 neighbouring columns (xl).
    constexpr int ly = 7 - lV; // log2 of column vectors per column (128 rows / V)
    // Not unrolled: a gathered vector holds V registers before packing, and the
    // shared-memory loads it waits on are short.
#pragma unroll 1
    for (int k = 0; k < kVecPerThread; ++k) {
        const int q = threadIdx.x + k * CUPERM_THREADS, iy = q & 7, xl = (q >> 3) & 3, hi = q >> 5;
        const int yv = ((hi & ((1 << (ly - 3)) - 1)) << 3) | iy, x = ((hi >> (ly - 3)) << 2) | xl;
        const int y = yv * V;
        if (x < na && y < nb) {
            const T* col = reinterpret_cast<const T*>(rows) + (x % V);
            const int chunk = (x / V) ^ iy; // (row >> lV) & 7 == yv & 7 == iy for every row of this vector
            V16 w;
#pragma unroll
            for (int j = 0; j < V; ++j) w.v[j] = col[((y + j) * 8 + chunk) * V];
            T* o = tout + a_out[x] + b_out[y];
            apply_vec(w, o, op);
            *reinterpret_cast<V16*>(o) = w;
        }
    }
}

} // namespace cuperm
