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
// vec_shifted == 2 writes differently (write_columns_by_lanes): each lane gathers an aligned
// chunk of a column as the aligned path does and shifts it with the lane before's, and partial
// vectors go out by aligned pieces. Not measured yet: off unless the tuning table asks for it.
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

__device__ __forceinline__ uint4 shfl_up_vec(const uint4& v)
{
    return make_uint4(__shfl_up_sync(0xffffffffu, v.x, 1), __shfl_up_sync(0xffffffffu, v.y, 1),
                      __shfl_up_sync(0xffffffffu, v.z, 1), __shfl_up_sync(0xffffffffu, v.w, 1));
}

// Bytes [lo, hi) of v to o (16-byte aligned), by the largest aligned pieces (cuperm_vector_piece).
template <typename T>
__device__ __forceinline__ void store_vector_part(T* o, const uint4& v, int lo, int hi)
{
    const uint32_t w[4] = {v.x, v.y, v.z, v.w};
    unsigned char* b = reinterpret_cast<unsigned char*>(o);
#pragma unroll
    for (int i = 0; i < 2; ++i)
        if (cuperm_vector_piece(lo, hi, 8 * i, 8)) *reinterpret_cast<uint2*>(b + 8 * i) = make_uint2(w[2 * i], w[2 * i + 1]);
#pragma unroll
    for (int i = 0; i < 4; ++i)
        if (cuperm_vector_piece(lo, hi, 4 * i, 4)) *reinterpret_cast<uint32_t*>(b + 4 * i) = w[i];
#pragma unroll
    for (int i = 0; i < 8; ++i)
        if (cuperm_vector_piece(lo, hi, 2 * i, 2))
            *reinterpret_cast<uint16_t*>(b + 2 * i) = (uint16_t)(w[i / 2] >> (16 * (i % 2)));
    if constexpr (sizeof(T) == 1) {
#pragma unroll
        for (int i = 0; i < 16; ++i)
            if (cuperm_vector_piece(lo, hi, i, 1)) b[i] = (unsigned char)(w[i / 4] >> (8 * (i % 4)));
    }
}

// Output vector g of a column (elements [jlo, jhi) of it are the tile's) to o: whole, or its
// pieces; with an operator that reads the destination, only the tile's own elements are read.
template <typename Op>
__device__ __forceinline__ void store_column_vector(typename Op::value_type* o, const uint4& v, int jlo, int jhi,
                                                    const Op& op)
{
    using T = typename Op::value_type;
    constexpr int V = 16 / sizeof(T);
    if (jlo >= jhi) return;
    if (jlo == 0 && jhi == V) {
        *reinterpret_cast<uint4*>(o) = apply_vec(v, o, op);
        return;
    }
    uint4 r = v;
    if constexpr (!Op::kMovesBits) {
        uint32_t w[4] = {};
#pragma unroll
        for (int j = 0; j < V; ++j)
            if (j >= jlo && j < jhi) vec_put(w, j, op(vec_get<T>(v, j), o + j));
        r = VecWords<uint4>::join(w);
    }
    store_vector_part(o, r, jlo * (int)sizeof(T), jhi * (int)sizeof(T));
}

// The write pass of vec_shifted == 2 (the planner gives it tiles of 8 whole vectors per column,
// tile_b = 8 V): a column's 8 chunks are the lanes iy of one warp step. Each lane gathers its
// chunk as move_tile_vec does (constant offsets), takes the chunk before from the lane before,
// and shifts the two into the column's aligned output vector iy; lane 7 also stores vector 8,
// the last chunk's tail. Partial vectors (a column's first and last) go out by aligned pieces.
template <typename Op>
__device__ __forceinline__ void write_columns_by_lanes(const cuperm_tile_params_t& p, const TileView<Op>& tv,
                                                       const Op& op)
{
    using T = typename Op::value_type;
    constexpr int V = 16 / sizeof(T), lV = V == 16 ? 4 : 3;
    constexpr int kPer = kVecBytesPerThread / 16;
    constexpr int S = 8, lS = 3, lX = 2;
    const int CV = (1 << p.tile_a_log2); // elements per shared-memory row
    const T* tile = tv.tile;
#pragma unroll 2
    for (int k = 0; k < kPer; ++k) {
        const int q = threadIdx.x + k * CUPERM_THREADS, iy = q & (S - 1), x = ((q >> 5) << lX) | ((q >> lS) & 3);
        const bool ok = x < tv.na;
        const T* col = tile + ((((x >> lV) ^ iy) << lV) | (x & (V - 1))); // rows of chunk iy share swizzle iy
        uint32_t w[4] = {};
#pragma unroll
        for (int j = 0; j < V; ++j) vec_put(w, j, col[(iy * V + j) * CV]);
        const uint4 own = VecWords<uint4>::join(w);
        const uint4 prev = shfl_up_vec(own); // every lane: the shuffle is warp-wide
        if (!ok) continue;
        T* column = tv.out + tv.a_out[x] + tv.b_out[0];
        const int shift = shift_of(column), b = shift * (int)sizeof(T);
        T* base = column - shift; // 16-byte aligned: output vector g starts at base + g V
        int jlo, jhi;
        cuperm_granule_part(shift, tv.nb, V, iy, &jlo, &jhi);
        store_column_vector(base + iy * V, b ? shift_bytes(prev, own, 16 - b) : own, jlo, jhi, op);
        if (iy == S - 1 && b) {
            cuperm_granule_part(shift, tv.nb, V, S, &jlo, &jhi);
            store_column_vector(base + S * V, shift_bytes(own, own, 16 - b), jlo, jhi, op);
        }
    }
}

// kLanes: the write pass of vec_shifted == 2 (write_columns_by_lanes).
template <bool kLanes, typename Op>
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
        if (ok && c * V < tv.na) rows[y * C + (c ^ cuperm_vec_swizzle(y, lV, S))] = shift_bytes(raw, next, shift * sizeof(T));
    }
    __syncthreads();
    if constexpr (kLanes) {
        write_columns_by_lanes(p, tv, op);
        return;
    }
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
        auto elem = [&](int y) { return at[(y * C + ((x >> lV) ^ cuperm_vec_swizzle(y, lV, S))) * V]; };
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
