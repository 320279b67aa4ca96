// ROW_TILES: the same fastest dimension on both sides, rows too short for the rows kernel
// (plan/transpose/row_tiles.h). The rows kernel walks rows in one side's order, so on the other
// side every row is a run of its own; a row tile holds whole rows of side_a indices of the input's
// next dimensions (A) by side_b of the output's (B), read as runs of n * side_a elements and
// written as runs of n * side_b. The block's threads are numbered over the tile's elements as they
// lie on each side (cuperm_row_digits_t), so no lane idles at a row's end whatever its length.
// Rows that are whole vectors (plan/transpose/row_tiles.c) move V elements an access: the digits
// then count vectors. row_tiles.cu launches the scalar kernels, row_tiles_vec.cu the vector ones
// (two translation units: they build in parallel).
#pragma once

#include <cuda_pipeline.h>

#include "backend/cuda/transpose/tile_kernel.cuh"

namespace cuperm {

// V elements that move as one access (16 or 8 bytes; V = 1: the element itself).
template <typename T, int V>
struct alignas(sizeof(T) * V) RowVec {
    T v[V];
};

// A row of the tile in one pass's order (cuperm_row_tile_row): where it lies on the pass's side
// from the tile's origin, and its first slot in shared memory (-1: outside an edge tile). One
// shared-memory load an element gives both.
template <typename Off>
struct alignas(2 * sizeof(Off)) RowEntry {
    Off off;
    int32_t slot;
};

// The kernel's shared memory (cuperm_row_tile_smem_bytes' layout): the tile's origins, its sides'
// offset tables, the passes' row tables, the tile.
template <typename T, typename Off, int V>
struct RowTileSmem {
    int64_t* base; // [0]: the tile's input origin, [1]: its output origin
    Off *a_in, *a_out, *b_in, *b_out;
    RowEntry<Off>*read_rows, *write_rows;
    T* tile;

    __device__ static RowTileSmem at(unsigned char* b, const cuperm_tile_params_t& p)
    {
        const int sa = p.rt_side_a, sb = p.rt_side_b;
        Off* t = reinterpret_cast<Off*>(b + 32);
        RowEntry<Off>* rows = reinterpret_cast<RowEntry<Off>*>(b + 32 + 16 * (sa + sb));
        return {reinterpret_cast<int64_t*>(b), t, t + sa, t + 2 * sa, t + 2 * sa + sb, rows, rows + sa * sb,
                reinterpret_cast<T*>(b + 32 + 16 * (sa + sb) + 32 * sa * sb)};
    }

    // Tile t's origins, its sides' tables, then (after a barrier) each pass's row table: where each
    // row lies from the origin on the pass's side and its first slot (-1: outside an edge tile). The
    // caller synchronises before reading them.
    __device__ void build(const cuperm_tile_params_t& p, const cuperm_tile_divs_t& dv, int64_t t) const
    {
        const int sa = p.rt_side_a, sb = p.rt_side_b, nrows = sa * sb;
        int64_t a0, b0, in_base, out_base;
        cuperm_row_tile_origin(&p, &dv, t, &a0, &b0, &in_base, &out_base);
        const int na = (int)min((int64_t)sa, p.a_volume - a0), nb = (int)min((int64_t)sb, p.b_volume - b0);
        if (threadIdx.x == 0) base[0] = in_base, base[1] = out_base;
        for (int i = threadIdx.x; i < sa + sb; i += kTileThreads) {
            int64_t oi, oo;
            if (i < na) {
                cuperm_group_offsets(p.dim, dv.dim, 1, p.a_end, a0 + i, &oi, &oo);
                a_in[i] = (Off)oi, a_out[i] = (Off)oo;
            } else if (i >= sa && i - sa < nb) {
                cuperm_group_offsets(p.dim, dv.dim, p.a_end, p.b_end, b0 + (i - sa), &oi, &oo);
                b_in[i - sa] = (Off)oi, b_out[i - sa] = (Off)oo;
            }
        }
        __syncthreads();
        for (int i = threadIdx.x; i < 2 * nrows; i += kTileThreads) {
            const int w = i >= nrows, q = i - w * nrows;
            int a, b, slot;
            cuperm_row_tile_row(&p, q, w, &a, &b, &slot);
            const bool ok = a < na && b < nb;
            RowEntry<Off> en;
            en.off = ok ? (w ? a_out[a] + b_out[b] : a_in[a] + b_in[b]) : 0;
            en.slot = ok ? slot : -1;
            (w ? write_rows : read_rows)[q] = en;
        }
    }

    // The read pass: every element (vector) of the tile this thread takes (digits d0, one block
    // stride apart) started on its way from the input into its slot. cp.async holds no register, so
    // a block has its whole tile in flight at once (values held in registers between load and
    // shared-memory store ran these tiles at 46-55% of copy: 3 blocks an SM, 8 values a thread; this
    // form 0.79-0.92 of that time, bench/results/row-tiles-h200/).
    __device__ void start_loads(const T* in, cuperm_row_digits_t d, const cuperm_row_digits_t& step, int n,
                                int total) const
    {
        const T* tin = as_base(in + base[0]);
#pragma unroll 4
        for (int e = threadIdx.x; e < total; e += kTileThreads) {
            const RowEntry<Off> en = read_rows[d.q];
            if (en.slot >= 0) {
                const int r = d.r * V;
                __pipeline_memcpy_async(tile + en.slot + r, tin + (en.off + (Off)r), sizeof(T) * V);
            }
            cuperm_row_digits_advance(&d, &step, n);
        }
    }

    // A vector x to o, through op (the destination's old vector read first where op reads it).
    template <typename Op>
    __device__ static void store(T* o, const RowVec<T, V>& x, const Op& op)
    {
        RowVec<T, V>* v = reinterpret_cast<RowVec<T, V>*>(o);
        if constexpr (Op::kMovesBits) {
            *v = x;
        } else {
            RowVec<T, V> y = {}, r;
            if (op.reads_out()) y = *v;
#pragma unroll
            for (int j = 0; j < V; ++j) r.v[j] = op(x.v[j], &y.v[j]);
            *v = r;
        }
    }

    // The write pass, in the output's order.
    template <typename Op>
    __device__ void write(T* out, cuperm_row_digits_t d, const cuperm_row_digits_t& step, int n, int total,
                          const Op& op) const
    {
        T* tout = as_base(out + base[1]);
#pragma unroll 4
        for (int e = threadIdx.x; e < total; e += kTileThreads) {
            const RowEntry<Off> en = write_rows[d.q];
            if (en.slot >= 0) {
                if constexpr (V == 1) {
                    T* o = tout + (en.off + (Off)d.r);
                    *o = op(tile[en.slot + d.r], o);
                } else {
                    const int r = d.r * V;
                    store(tout + (en.off + (Off)r), *reinterpret_cast<const RowVec<T, V>*>(tile + en.slot + r), op);
                }
            }
            cuperm_row_digits_advance(&d, &step, n);
        }
    }
};

// One tile a block at a time (a grid of one block a tile, CUPERM_ROW_TILE_BLOCKS resident an SM):
// its tables, its loads, its stores. A persistent grid whose blocks loaded tile t + gridDim.x into
// a second buffer while writing tile t ran slower (f64 0.96x, f32 0.93x the rows launch's time by
// geomean, against 0.92x and 0.88x: bench/results/row-tiles-h200/).
// Off: the offset tables' entry type (uint32_t where cuperm_tile_offsets_fit_u32, else int64_t).
// V: elements an access (1, or the plan's vector where both pointers are aligned to it).
template <typename Op, typename Off, int V>
__global__ void __launch_bounds__(kTileThreads, CUPERM_ROW_TILE_BLOCKS)
row_tile_kernel(const cuperm_tile_params_t p, const cuperm_tile_divs_t dv, const typename Op::value_type* __restrict__ in,
                typename Op::value_type* __restrict__ out, Op op)
{
    using T = typename Op::value_type;
    static_assert(sizeof(T) * V == 4 || sizeof(T) * V == 8 || sizeof(T) * V == 16, "cp.async moves 4, 8 or 16 bytes");
    extern __shared__ __align__(16) unsigned char smem[];
    const int n = (int)p.dim[0].extent / V, total = n * p.rt_side_a * p.rt_side_b; // n: accesses a row
    const cuperm_row_digits_t d0 = cuperm_row_digits(threadIdx.x, n), step = cuperm_row_digits(kTileThreads, n);
    const RowTileSmem<T, Off, V> b = RowTileSmem<T, Off, V>::at(smem, p);
    for (int64_t t = blockIdx.x; t < p.num_tiles; t += gridDim.x) {
        b.build(p, dv, t);
        __syncthreads();
        b.start_loads(in, d0, step, n, total);
        __pipeline_commit();
        __pipeline_wait_prior(0);
        __syncthreads();
        b.write(out, d0, step, n, total, op);
        __syncthreads(); // the tables and the tile are rewritten by the next tile
    }
}

// Launches the kernel of V elements an access for l (elements of 4, 8 or 16 bytes: the planner
// makes no other row tiles).
template <int V>
cudaError_t launch_row_tiles(const cuperm_launch_t* l, cupermDataType_t type, const cuperm_scalars_t* s,
                             const void* in, void* out, cudaStream_t stream)
{
    return dispatch_op(type, s, [&](auto op) -> cudaError_t {
        using Op = decltype(op);
        constexpr int elem = (int)sizeof(typename Op::value_type);
        if constexpr (elem >= 4 && elem * V <= 16)
            return with_offsets(&l->tile, [&](auto off) {
                return launch_tile_walk<Op>(row_tile_kernel<Op, decltype(off), V>, l, in, out, op, stream);
            });
        return cudaErrorInvalidValue; // the planner makes no other
    });
}

// row_tiles_vec.cu: the plan's vector kernel (l->tile.vec_log2 > 0, pointers aligned to it).
cudaError_t launch_row_tiles_vec(const cuperm_launch_t* l, cupermDataType_t type, const cuperm_scalars_t* s,
                                 const void* in, void* out, cudaStream_t stream);

} // namespace cuperm
