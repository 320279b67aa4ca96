// The tile kernels' fast path for 1-, 2- and 4-byte elements, and 8- and 16-byte ones where planned
// (move_tile_fast in tile_kernel.cuh): straight-line code with 32-bit offsets where the tables allow them.
//
// Its earlier form checked every access against the tile's edge; the compiler wrapped each
// access in a branch of its own and rebuilt the shared-memory and 64-bit global addresses inside
// it: about 65 instructions an element on sm_90 against 12 here, which made these tiles
// issue-bound (f16 and f32 31625 x 6325 took the same time, 38 and 71% of copy; ncu,
// bench/results/lean-tiles-h100/).
#pragma once

#include "core/kernel_params.h"
#include "backend/cuda/transpose/element_ops.cuh"
#include "backend/cuda/transpose/tile_vec.cuh"

namespace cuperm {

constexpr int kTileThreadsLog2 = 8;
static_assert(1 << kTileThreadsLog2 == CUPERM_THREADS, "the tile kernels' threads, as a power of two");

// move_tile_lean in one round (all n loads in flight at once), from its loads on.
template <bool kStaged, bool kWhole, int n, typename Op, typename Off>
__device__ __forceinline__ void move_tile_lean_once(const cuperm_tile_params_t& p, const TileView<Op, Off>& tv,
                                                    const Op& op, int x, int y0, bool x_ok,
                                                    const typename Op::value_type* in, Off (&e)[n],
                                                    typename Op::value_type (&v)[n])
{
    using T = typename Op::value_type;
    const int lb = p.tile_b_log2, row = p.smem_row, na = tv.na, nb = tv.nb;
    load_run<kWhole>(tv.b_in, y0, nb, e);
#pragma unroll
    for (int k = 0; k < n; ++k)
        if (kWhole || (x_ok && y0 + k < nb)) v[k] = load_ro(in + e[k]);
    if constexpr (!kStaged) { // same fastest dimension: store straight back
        T* out = as_base(tv.out + tv.a_out[kWhole ? x : min(x, na - 1)]);
        if constexpr (kWhole) load_entries(tv.b_out + y0, e);
        if constexpr (Op::kMovesBits) {
#pragma unroll
            for (int k = 0; k < n; ++k) {
                T* o = out + (kWhole ? e[k] : tv.b_out[min(y0 + k, nb - 1)]);
                if (kWhole || (x_ok && y0 + k < nb)) *o = op(v[k], o);
            }
        } else {
            store_run<n>(
                op, [&](int k) { return out + (kWhole ? e[k] : tv.b_out[min(y0 + k, nb - 1)]); },
                [&](int k) { return v[k]; }, [&](int k) { return kWhole || (x_ok && y0 + k < nb); });
        }
    } else {
        T* put = tv.tile + y0 * row + x; // rows past an edge tile's end hold values never read
#pragma unroll
        for (int k = 0; k < n; ++k) put[k * row] = v[k];
        __syncthreads();
        const int y = threadIdx.x & ((1 << lb) - 1), x0 = (threadIdx.x >> lb) * n;
        const bool y_ok = kWhole || y < nb;
        const T* get = tv.tile + y * row + x0;
#pragma unroll
        for (int k = 0; k < n; ++k) v[k] = get[k];
        T* out = as_base(tv.out + tv.b_out[kWhole ? y : min(y, nb - 1)]);
        load_run<kWhole>(tv.a_out, x0, na, e);
        if constexpr (Op::kMovesBits) {
#pragma unroll
            for (int k = 0; k < n; ++k) {
                T* o = out + e[k];
                if (kWhole || (y_ok && x0 + k < na)) *o = op(v[k], o);
            }
        } else {
            store_run<n>(
                op, [&](int k) { return out + e[k]; }, [&](int k) { return v[k]; },
                [&](int k) { return kWhole || (y_ok && x0 + k < na); });
        }
    }
}

// A tile of CUPERM_THREADS * n elements, both sides at most one block wide (n = CUPERM_TILE_ITEMS,
// or CUPERM_TILE_ITEMS_WIDE for wide staged tiles). Reads: each thread keeps one x and takes n
// consecutive rows; writes: one y and n consecutive columns; all of a thread's loads are in
// flight before its first shared-memory store. On a whole tile (kWhole: na, nb are the tile's
// sides) nothing is checked and the table entries come in 16-byte loads; on an edge tile the
// indices are clamped to the tile's last row and column and only the global accesses are
// predicated. Wide tiles of operators that compute (alpha, beta, element operators) run in
// rounds of 16 (their kernels spilled with 32 values live).
template <int n, bool kStaged, bool kWhole, typename Op, typename Off>
__device__ __forceinline__ void move_tile_lean(const cuperm_tile_params_t& p, const TileView<Op, Off>& tv, const Op& op)
{
    using T = typename Op::value_type;
    constexpr int r = Op::kMovesBits || n <= 16 ? n : 16; // elements a round
    static_assert(kStaged || r == n, "the rows path moves its elements in one round");
    const int la = p.tile_a_log2, lb = p.tile_b_log2, row = p.smem_row, na = tv.na, nb = tv.nb;
    const int x = threadIdx.x & ((1 << la) - 1), y0 = (threadIdx.x >> la) * n;
    const bool x_ok = kWhole || x < na;
    const T* in = as_base(tv.in + tv.a_in[kWhole ? x : min(x, na - 1)]);
    Off e[r];
    T v[r] = {};
    if constexpr (kStaged && r < n) { // the rounds of a wide tile: loads, then their stores
        T* put = tv.tile + y0 * row + x;
#pragma unroll
        for (int j = 0; j < n; j += r) {
            load_run<kWhole>(tv.b_in, y0 + j, nb, e);
#pragma unroll
            for (int k = 0; k < r; ++k)
                if (kWhole || (x_ok && y0 + j + k < nb)) v[k] = load_ro(in + e[k]);
#pragma unroll
            for (int k = 0; k < r; ++k) put[(j + k) * row] = v[k];
        }
        __syncthreads();
        const int y = threadIdx.x & ((1 << lb) - 1), x0 = (threadIdx.x >> lb) * n;
        const bool y_ok = kWhole || y < nb;
        const T* get = tv.tile + y * row + x0;
        T* out = as_base(tv.out + tv.b_out[kWhole ? y : min(y, nb - 1)]);
#pragma unroll
        for (int j = 0; j < n; j += r) {
            load_run<kWhole>(tv.a_out, x0 + j, na, e);
            store_run<r>(
                op, [&](int k) { return out + e[k]; }, [&](int k) { return get[j + k]; },
                [&](int k) { return kWhole || (y_ok && x0 + j + k < na); });
        }
    } else {
        move_tile_lean_once<kStaged, kWhole>(p, tv, op, x, y0, x_ok, in, e, v);
    }
}

// The lean form for elements of 8 and 16 bytes (staged tiles, copies; 48 registers, 5 blocks an
// SM, where move_tile_checked takes 64 and 4): as move_tile_lean_once, but a thread takes rows
// y0, y0 + ystep, ... on the read pass and columns x0, x0 + xstep, ... on the write pass, as
// move_tile_checked does, so that each warp instruction covers neighbouring rows (columns) of the
// tile. With a thread's n neighbouring columns, a warp whose stores span several columns left the
// sectors that neighbouring columns share to different instructions. The tables come from
// build_tile_tables<kSpread>: b_in and a_out thread-major (cuperm_spread_slot), so a thread's
// entries come in 16-byte loads, and whole on edge tiles too, whose slots past the edge repeat its
// last index. An edge tile's loads then read that element again (predicated loads made ptxas
// spill 130-190 bytes under the 48 registers), and only its stores are predicated. Where the plan
// takes it: select.c, lean_form (bench/results/lean-spread-h200/).
template <bool kWhole, typename Op, typename Off>
__device__ __forceinline__ void move_tile_lean_spread(const cuperm_tile_params_t& p, const TileView<Op, Off>& tv,
                                                      const Op&)
{
    using T = typename Op::value_type;
    static_assert(Op::kMovesBits, "copies only");
    constexpr int n = CUPERM_TILE_ITEMS(sizeof(T));
    const int la = p.tile_a_log2, lb = p.tile_b_log2, row = p.smem_row;
    const int ys_log2 = kTileThreadsLog2 - la, xs_log2 = kTileThreadsLog2 - lb; // threads along each side
    Off e[n];
    T v[n];
    {
        const int x = threadIdx.x & ((1 << la) - 1), y0 = threadIdx.x >> la;
        const T* in = as_base(tv.in + tv.a_in[x]);
        load_entries(tv.b_in + y0 * n, e);
#pragma unroll
        for (int k = 0; k < n; ++k) v[k] = load_ro(in + e[k]); // past an edge: the edge's last element
        T* put = tv.tile + y0 * row + x; // rows past an edge tile's end hold values never read
#pragma unroll
        for (int k = 0; k < n; ++k) put[(k << ys_log2) * row] = v[k];
    }
    __syncthreads();
    const int y = threadIdx.x & ((1 << lb) - 1), x0 = threadIdx.x >> lb;
    const int cols = kWhole ? n : y < tv.nb ? cuperm_spread_count(tv.na - x0, xs_log2, n) : 0;
    const T* get = tv.tile + y * row + x0;
#pragma unroll
    for (int k = 0; k < n; ++k) v[k] = get[k << xs_log2];
    T* out = as_base(tv.out + tv.b_out[y]);
    load_entries(tv.a_out + x0 * n, e);
#pragma unroll
    for (int k = 0; k < n; ++k)
        if (k < cols) out[e[k]] = v[k];
}

} // namespace cuperm
