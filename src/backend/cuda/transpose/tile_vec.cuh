// Tile paths for elements of 1, 2 and 4 bytes that move 16-byte vectors on
// both sides (8-byte ones when the extents are multiples of half as many
// elements only; for 1- and 2-byte elements 4-byte ones, when only a quarter
// as many divide them), so the per-element cost of offsets and instructions
// shrinks by the vector width. The planner enables them (cuperm_tile_params_t.vec_log2)
// when every stride but the fastest one's is a multiple of the vector width;
// the launcher when both pointers are aligned to the vector.
//
// TILED: a tile is 16 KB: 64 rows (B) of 256 bytes (A), or 128 of 128 for
// 1-byte elements. Reads load one chunk (vector) of a row per thread; chunks
// are stored XOR-swizzled, so the write pass, in which a warp gathers column
// vectors, touches 32 distinct banks. Both passes are coalesced in runs of 128
// bytes or more. Vectors live in uint4 / uint2 / uint32_t registers; elements
// are packed and unpacked with shifts, which keeps small types out of local memory.
#pragma once

#include "core/index_math.h"
#include "backend/cuda/transpose/element_ops.cuh"
#include "backend/cuda/transpose/tile_access.cuh"

namespace cuperm {

// One tile as the tile paths see it: the tile's origin in and out, its extents na x nb (clipped
// at the tensor's edge), the four offset tables (entries of type Off: 32-bit where the
// launcher found every offset below 2^32, cuperm_tile_offsets_fit_u32) and the shared-memory
// staging area. Passed by reference to force-inlined functions only, so it never leaves registers.
template <typename Op, typename Off = int64_t>
struct TileView {
    const typename Op::value_type* in;
    typename Op::value_type* out;
    int na, nb;
    const Off *a_in, *a_out, *b_in, *b_out;
    typename Op::value_type* tile;
    const typename Op::value_type *in_lo, *in_hi; // the input's footprint (shifted vectors only)
};

// Bytes each thread moves per pass: 4 vectors of 16 bytes, 8 of 8 or 16 of 4.
constexpr int kVecBytesPerThread = 64;

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

// A vector register type as 32-bit words.
template <typename VT> struct VecWords;
template <> struct VecWords<uint4> {
    static constexpr int kWords = 4;
    __device__ static void split(const uint4& v, uint32_t (&w)[4]) { w[0] = v.x; w[1] = v.y; w[2] = v.z; w[3] = v.w; }
    __device__ static uint4 join(const uint32_t (&w)[4]) { return make_uint4(w[0], w[1], w[2], w[3]); }
};
template <> struct VecWords<uint2> {
    static constexpr int kWords = 2;
    __device__ static void split(const uint2& v, uint32_t (&w)[2]) { w[0] = v.x; w[1] = v.y; }
    __device__ static uint2 join(const uint32_t (&w)[2]) { return make_uint2(w[0], w[1]); }
};
template <> struct VecWords<uint32_t> {
    static constexpr int kWords = 1;
    __device__ static void split(const uint32_t& v, uint32_t (&w)[1]) { w[0] = v; }
    __device__ static uint32_t join(const uint32_t (&w)[1]) { return w[0]; }
};

// Element j of a vector of Ts (j a compile-time constant after unrolling).
template <typename T, typename VT>
__device__ __forceinline__ T vec_get(const VT& v, int j)
{
    uint32_t w[VecWords<VT>::kWords];
    VecWords<VT>::split(v, w);
    constexpr int per_word = 4 / sizeof(T);
    const uint32_t word = w[j / per_word];
    if constexpr (sizeof(T) == 4) return from_bits<T>(word);
    else return from_bits<T>((word >> (8 * sizeof(T) * (j % per_word))) & ((1u << (8 * sizeof(T))) - 1));
}

template <typename T, int N>
__device__ __forceinline__ void vec_put(uint32_t (&w)[N], int j, T x)
{
    constexpr int per_word = 4 / sizeof(T);
    w[j / per_word] |= bits_of(x) << (8 * sizeof(T) * (j % per_word));
}

// out-of-place op on a loaded vector (beta may read the destination o).
template <typename Op, typename VT>
__device__ __forceinline__ VT apply_vec(const VT& v, typename Op::value_type* o, const Op& op)
{
    using T = typename Op::value_type;
    if constexpr (Op::kMovesBits) {
        return v;
    } else {
        uint32_t w[VecWords<VT>::kWords] = {};
#pragma unroll
        for (int j = 0; j < (int)(sizeof(VT) / sizeof(T)); ++j) vec_put(w, j, op(vec_get<T>(v, j), o + j));
        return VecWords<VT>::join(w);
    }
}

// The same with the destination's old vector y already in registers (ignored unless the operator
// reads it).
template <typename Op, typename VT>
__device__ __forceinline__ VT apply_vec_to(const VT& v, const VT& y, const Op& op)
{
    using T = typename Op::value_type;
    uint32_t w[VecWords<VT>::kWords] = {};
#pragma unroll
    for (int j = 0; j < (int)(sizeof(VT) / sizeof(T)); ++j) {
        const T old = vec_get<T>(y, j);
        vec_put(w, j, op(vec_get<T>(v, j), &old));
    }
    return VecWords<VT>::join(w);
}

// store_run (element_ops.cuh) for vectors of an operator that computes: where it reads the
// destination, the n old vectors are loaded before the first store.
template <int n, typename VT, typename Op, typename Addr, typename Val, typename Ok>
__device__ __forceinline__ void store_vec_run(const Op& op, Addr&& addr, Val&& val, Ok&& ok)
{
    VT y[n] = {};
    if (op.reads_out()) {
#pragma unroll
        for (int k = 0; k < n; ++k)
            if (ok(k)) y[k] = *reinterpret_cast<const VT*>(addr(k));
    }
#pragma unroll
    for (int k = 0; k < n; ++k)
        if (ok(k)) *reinterpret_cast<VT*>(addr(k)) = apply_vec_to(val(k), y[k], op);
}

// ROWS: both sides contiguous along x; 16-byte vectors move straight through.
template <typename Op>
__device__ __forceinline__ void move_rows_vec(const cuperm_tile_params_t& p, const TileView<Op>& tv, const Op& op)
{
    using T = typename Op::value_type;
    constexpr int kPer = kVecBytesPerThread / sizeof(uint4);
    const int lxv = p.tile_a_log2 - p.vec_log2; // log2 of vectors per row
    uint4 r[kPer];
#pragma unroll
    for (int k = 0; k < kPer; ++k) {
        const int q = threadIdx.x + k * CUPERM_THREADS;
        const int x = (q & ((1 << lxv) - 1)) << p.vec_log2, y = q >> lxv;
        if (x < tv.na && y < tv.nb) r[k] = *reinterpret_cast<const uint4*>(tv.in + tv.a_in[x] + tv.b_in[y]);
    }
    if constexpr (Op::kMovesBits) {
#pragma unroll
        for (int k = 0; k < kPer; ++k) {
            const int q = threadIdx.x + k * CUPERM_THREADS;
            const int x = (q & ((1 << lxv) - 1)) << p.vec_log2, y = q >> lxv;
            if (x < tv.na && y < tv.nb) {
                T* o = tv.out + tv.a_out[x] + tv.b_out[y];
                *reinterpret_cast<uint4*>(o) = apply_vec(r[k], o, op);
            }
        }
    } else {
        auto x_of = [&](int k) { return (int)((threadIdx.x + k * CUPERM_THREADS) & ((1 << lxv) - 1)) << p.vec_log2; };
        auto y_of = [&](int k) { return (int)(threadIdx.x + k * CUPERM_THREADS) >> lxv; };
        store_vec_run<kPer, uint4>(
            op, [&](int k) { return tv.out + tv.a_out[x_of(k)] + tv.b_out[y_of(k)]; }, [&](int k) { return r[k]; },
            [&](int k) { return x_of(k) < tv.na && y_of(k) < tv.nb; });
    }
}

// TILED: see the file comment. A tile is (1 << tile_b_log2) rows of
// C = (1 << tile_a_log2) / V chunks (vectors of V elements). Reads: each thread keeps one chunk
// column and takes kPer consecutive rows (their table entries in 16-byte loads). In the write
// pass a warp gathers S column vectors for each of 32 / S neighbouring columns:
// S = 128 / vector bytes (8 for 16-byte vectors, 16 for 8-byte, 32 for 4-byte
// ones), so that with chunks of row y XOR-swizzled by (y / V) % S the warp
// touches all 32 banks. The planner keeps C >= S, at least S column vectors per column, and the
// tile at exactly 16 KB (CUPERM_THREADS * kVecBytesPerThread), so the rows of the read pass are
// the tile's. As in move_tile_lean: whole tiles (kWhole) run unchecked, edge tiles on clamped
// table indices with predicated global accesses, on 32-bit tables where they fit. The checked
// form this replaced spent ~52 instructions an element on f16 with 4-byte vectors (ncu,
// bench/results/lean-tiles-h100/).
template <typename VT, bool kWhole, typename Op, typename Off>
__device__ __forceinline__ void move_tile_vec(const cuperm_tile_params_t& p, const TileView<Op, Off>& tv, const Op& op)
{
    using T = typename Op::value_type;
    constexpr int V = sizeof(VT) / sizeof(T), lV = V == 16 ? 4 : V == 8 ? 3 : V == 4 ? 2 : 1;
    constexpr int kPer = kVecBytesPerThread / sizeof(VT);
    constexpr int S = 128 / sizeof(VT), lS = sizeof(VT) == 16 ? 3 : sizeof(VT) == 8 ? 4 : 5;
    static_assert(S == 1 << lS, "S column vectors of 32 / S columns: one warp");
    const int lC = p.tile_a_log2 - lV, C = 1 << lC; // chunks per row
    const int lm = p.tile_b_log2 - lV - lS;         // log2 of a column's groups of S column vectors
    const int na = tv.na, nb = tv.nb;
    VT* rows = reinterpret_cast<VT*>(tv.tile);

    const int cx = threadIdx.x & (C - 1), x = cx * V, y0 = (threadIdx.x >> lC) * kPer;
    const bool x_ok = kWhole || x < na;
    const T* in = as_base(tv.in + tv.a_in[kWhole ? x : min(x, na - 1)]);
    Off e[kPer];
    load_run<kWhole>(tv.b_in, y0, nb, e);
    VT r[kPer] = {};
#pragma unroll
    for (int k = 0; k < kPer; ++k)
        if (kWhole || (x_ok && y0 + k < nb)) r[k] = __ldg(reinterpret_cast<const VT*>(in + e[k]));
    // Row y0 + k's swizzle is y0's XOR k's: y0 is a multiple of kPer, so the two share no bit.
    VT* put = rows + y0 * C;
    const int cx0 = cx ^ cuperm_vec_swizzle(y0, lV, S);
#pragma unroll
    for (int k = 0; k < kPer; ++k) // rows past an edge tile's end hold values never written out
        put[k * C + (cx0 ^ cuperm_vec_swizzle(k, lV, S))] = r[k];
    __syncthreads();

    const int iy = threadIdx.x & (S - 1); // the swizzle of every row this thread gathers
    T* out = as_base(tv.out);
    if constexpr (Op::kMovesBits) {
        // Not fully unrolled: a gathered vector holds V registers before packing.
#pragma unroll 4
        for (int k = 0; k < kPer; ++k) {
            int xw, y;
            cuperm_vec_gather(threadIdx.x, k, lS, lm, lV, &xw, &y);
            const T* col = reinterpret_cast<const T*>(rows + y * C + ((xw >> lV) ^ iy)) + (xw & (V - 1));
            uint32_t w[VecWords<VT>::kWords] = {};
#pragma unroll
            for (int j = 0; j < V; ++j) vec_put(w, j, col[j * C * V]);
            // two 32-bit offsets added to the pointer one by one: the compiler would otherwise sum
            // them in 64 bits first
            T* o = as_base(out + tv.a_out[kWhole ? xw : min(xw, na - 1)]) + tv.b_out[kWhole ? y : min(y, nb - 1)];
            if (kWhole || (xw < na && y < nb)) *reinterpret_cast<VT*>(o) = apply_vec(VecWords<VT>::join(w), o, op);
        }
    } else { // four vectors at a time, their old values loaded together (store_vec_run)
        constexpr int kRun = kPer < 4 ? kPer : 4;
#pragma unroll 1
        for (int k0 = 0; k0 < kPer; k0 += kRun) {
            int xw[kRun], y[kRun];
#pragma unroll
            for (int i = 0; i < kRun; ++i) cuperm_vec_gather(threadIdx.x, k0 + i, lS, lm, lV, &xw[i], &y[i]);
            auto gather = [&](int i) {
                const T* col = reinterpret_cast<const T*>(rows + y[i] * C + ((xw[i] >> lV) ^ iy)) + (xw[i] & (V - 1));
                uint32_t w[VecWords<VT>::kWords] = {};
#pragma unroll
                for (int j = 0; j < V; ++j) vec_put(w, j, col[j * C * V]);
                return VecWords<VT>::join(w);
            };
            auto dest = [&](int i) {
                return as_base(out + tv.a_out[kWhole ? xw[i] : min(xw[i], na - 1)]) +
                       tv.b_out[kWhole ? y[i] : min(y[i], nb - 1)];
            };
            store_vec_run<kRun, VT>(op, dest, gather, [&](int i) { return kWhole || (xw[i] < na && y[i] < nb); });
        }
    }
}

} // namespace cuperm
