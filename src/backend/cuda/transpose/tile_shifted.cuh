// The shifted vector tile: 16-byte vectors for 1- and 2-byte elements whatever the extents,
// strides and pointers' alignment (the planner's shifted_vectors_fit). Group A is one run of
// the input and group B one run of the output, so a tile's rows are runs of the input and its
// columns runs of the output, each starting anywhere in a vector (cuperm_granule_part).
//
// Reads load the aligned vectors that cover a row, one per lane, and shift each into place
// with the next lane's vector (a warp shuffle; a row's C chunks are C neighbouring lanes, the
// last of which loads the one extra vector a shifted row reaches into). Shared memory then
// holds the tile as move_tile_vec's does: rows of C chunks, XOR-swizzled by (row / V) % 8.
// Writes gather each aligned vector of an output column and store it whole; at a column's two
// ends a vector also holds elements of the neighbouring tiles, so only the tile's own
// elements are stored, one by one. Vectors that reach outside the input's footprint (its
// first and last bytes) are read element by element, so nothing outside it is touched.
#pragma once

#include "backend/cuda/transpose/tile_vec.cuh"

namespace cuperm {

// Elements from the last 16-byte boundary to p.
template <typename T>
__device__ __forceinline__ int shift_of(const T* p)
{
    return (int)(((uintptr_t)p & 15) / sizeof(T));
}

// Vector g of a run of n elements that starts shift elements after the aligned base: loaded
// whole when it lies inside [lo, hi), else only the run's elements; zero when it holds none
// of the run or ok is false.
template <typename T>
__device__ __forceinline__ uint4 load_run_vector(const T* base, int shift, int n, int g, const T* lo, const T* hi,
                                                 bool ok)
{
    constexpr int V = 16 / sizeof(T);
    int jlo, jhi;
    cuperm_granule_part(shift, n, V, g, &jlo, &jhi);
    const T* v = base + g * V;
    if (!ok || jlo >= jhi) return make_uint4(0, 0, 0, 0);
    if (v >= lo && v + V <= hi) return *reinterpret_cast<const uint4*>(v);
    uint32_t w[4] = {};
#pragma unroll
    for (int j = 0; j < V; ++j)
        if (j >= jlo && j < jhi) vec_put(w, j, v[j]);
    return VecWords<uint4>::join(w);
}

// Bytes [b, b + 16) of the 32 bytes lo:hi (b < 16).
__device__ __forceinline__ uint4 shift_bytes(const uint4& lo, const uint4& hi, int b)
{
    const uint32_t w[8] = {lo.x, lo.y, lo.z, lo.w, hi.x, hi.y, hi.z, hi.w};
    const int ws = b >> 2, bits = (b & 3) * 8;
    uint32_t o[5];
#pragma unroll
    for (int i = 0; i < 5; ++i) // w[i + ws] without indexing registers at run time
        o[i] = ws == 0 ? w[i] : ws == 1 ? w[i + 1] : ws == 2 ? w[i + 2] : w[min(i + 3, 7)];
    return make_uint4(__funnelshift_r(o[0], o[1], bits), __funnelshift_r(o[1], o[2], bits),
                      __funnelshift_r(o[2], o[3], bits), __funnelshift_r(o[3], o[4], bits));
}

__device__ __forceinline__ uint4 shfl_down_vec(const uint4& v)
{
    return make_uint4(__shfl_down_sync(0xffffffffu, v.x, 1), __shfl_down_sync(0xffffffffu, v.y, 1),
                      __shfl_down_sync(0xffffffffu, v.z, 1), __shfl_down_sync(0xffffffffu, v.w, 1));
}

template <typename Op>
__device__ __forceinline__ void move_tile_shifted(const cuperm_tile_params_t& p, const TileView<Op>& tv, const Op& op)
{
    using T = typename Op::value_type;
    static_assert(sizeof(T) <= 2, "shifted vectors serve 1- and 2-byte elements");
    constexpr int V = 16 / sizeof(T), lV = V == 16 ? 4 : 3;
    constexpr int kPer = kVecBytesPerThread / 16;
    constexpr int S = 8, lS = 3, lX = 2; // as move_tile_vec's 16-byte path
    const int lC = p.tile_a_log2 - lV, C = 1 << lC; // chunks per row: 8 to 32, so a row's lanes share a warp
    const int ly = p.tile_b_log2 - lV;              // log2 of whole vectors per column
    uint4* rows = reinterpret_cast<uint4*>(tv.tile);
    const T* row0 = tv.in + tv.a_in[0];
#pragma unroll
    for (int k = 0; k < kPer; ++k) {
        const int q = threadIdx.x + k * CUPERM_THREADS, c = q & (C - 1), y = q >> lC;
        const bool ok = y < tv.nb;
        const T* start = row0 + (ok ? tv.b_in[y] : 0);
        const int shift = shift_of(start);
        const T* base = start - shift;
        const uint4 raw = load_run_vector(base, shift, tv.na, c, tv.in_lo, tv.in_hi, ok);
        uint4 next = shfl_down_vec(raw); // every lane: the shuffle is warp-wide
        if (c == C - 1) next = load_run_vector(base, shift, tv.na, C, tv.in_lo, tv.in_hi, ok);
        if (ok && c * V < tv.na) rows[y * C + (c ^ ((y >> lV) & (S - 1)))] = shift_bytes(raw, next, shift * sizeof(T));
    }
    __syncthreads();
    const T* tile = tv.tile;
    // Vector g of column x: whole, or the tile's own elements of it.
    auto write = [&](int x, int g) {
        if (x >= tv.na) return;
        T* col = tv.out + tv.a_out[x] + tv.b_out[0];
        const int shift = shift_of(col);
        int jlo, jhi;
        cuperm_granule_part(shift, tv.nb, V, g, &jlo, &jhi);
        if (jlo >= jhi) return;
        const int y0 = g * V - shift;
        T* o = col + y0; // 16-byte aligned
        const T* at = tile + (x & (V - 1));
        auto elem = [&](int y) { return at[(y * C + ((x >> lV) ^ ((y >> lV) & (S - 1)))) * V]; };
        if (jlo == 0 && jhi == V) {
            uint32_t w[4] = {};
#pragma unroll
            for (int j = 0; j < V; ++j) vec_put(w, j, elem(y0 + j));
            *reinterpret_cast<uint4*>(o) = apply_vec(VecWords<uint4>::join(w), o, op);
        } else {
#pragma unroll
            for (int j = 0; j < V; ++j)
                if (j >= jlo && j < jhi) o[j] = op(elem(y0 + j), o + j);
        }
    };
    // Vectors 0 .. 2^ly - 1 of every column, in move_tile_vec's warp layout (8 consecutive
    // vectors of each of 4 neighbouring columns), then each column's last, partial one.
#pragma unroll 2
    for (int k = 0; k < kPer; ++k) {
        const int q = threadIdx.x + k * CUPERM_THREADS, iy = q & (S - 1), xl = (q >> lS) & ((1 << lX) - 1);
        const int hi = q >> 5;
        const int g = ((hi & ((1 << (ly - lS)) - 1)) << lS) | iy, x = ((hi >> (ly - lS)) << lX) | xl;
        write(x, g);
    }
    for (int x = threadIdx.x; x < (1 << p.tile_a_log2); x += CUPERM_THREADS) write(x, 1 << ly);
}

} // namespace cuperm
