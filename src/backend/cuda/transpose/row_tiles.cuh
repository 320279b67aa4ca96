// ROW_TILES: the same fastest dimension on both sides, rows too short for the rows kernel
// (plan/transpose/row_tiles.h). The rows kernel walks rows in one side's order, so on the other
// side every row is a run of its own; a row tile holds whole rows of side_a indices of the input's
// next dimensions (A) by side_b of the output's (B), read as runs of n * side_a elements and
// written as runs of n * side_b. The block's threads are numbered over the tile's elements as they
// lie on each side (cuperm_row_digits_t), so no lane idles at a row's end whatever its length.
#include <cuda_pipeline.h>

#include "backend/cuda/transpose/tile_kernel.cuh"

namespace cuperm {

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
template <typename T, typename Off>
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

    // The read pass: every element of the tile this thread takes (digits d0, one block stride apart)
    // started on its way from the input into its slot. cp.async holds no register, so a block has its
    // whole tile in flight at once (values held in registers between load and shared-memory store ran
    // these tiles at 46-55% of copy: 3 blocks an SM, 8 values a thread; this form 0.79-0.92 of that
    // time, bench/results/row-tiles-h200/).
    __device__ void start_loads(const T* in, cuperm_row_digits_t d, const cuperm_row_digits_t& step, int n,
                                int total) const
    {
        const T* tin = as_base(in + base[0]);
#pragma unroll 4
        for (int e = threadIdx.x; e < total; e += kTileThreads) {
            const RowEntry<Off> en = read_rows[d.q];
            if (en.slot >= 0) {
                if constexpr (sizeof(T) >= 4)
                    __pipeline_memcpy_async(tile + en.slot + d.r, tin + (en.off + (Off)d.r), sizeof(T));
                else
                    tile[en.slot + d.r] = load_ro(tin + (en.off + (Off)d.r)); // never planned: cp.async moves 4-16 bytes
            }
            cuperm_row_digits_advance(&d, &step, n);
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
                T* o = tout + (en.off + (Off)d.r);
                *o = op(tile[en.slot + d.r], o);
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
template <typename Op, typename Off>
__global__ void __launch_bounds__(kTileThreads, CUPERM_ROW_TILE_BLOCKS)
row_tile_kernel(const cuperm_tile_params_t p, const cuperm_tile_divs_t dv, const typename Op::value_type* __restrict__ in,
                typename Op::value_type* __restrict__ out, Op op)
{
    using T = typename Op::value_type;
    extern __shared__ __align__(16) unsigned char smem[];
    const int n = (int)p.dim[0].extent, total = n * p.rt_side_a * p.rt_side_b;
    const cuperm_row_digits_t d0 = cuperm_row_digits(threadIdx.x, n), step = cuperm_row_digits(kTileThreads, n);
    const RowTileSmem<T, Off> b = RowTileSmem<T, Off>::at(smem, p);
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

} // namespace cuperm

extern "C" cudaError_t cuperm_launch_row_tiles(const cuperm_launch_t* l, cupermDataType_t type,
                                               const cuperm_scalars_t* s, const void* in, void* out,
                                               cudaStream_t stream)
{
    return cuperm::dispatch_op(type, s, [&](auto op) {
        using Op = decltype(op);
        return cuperm::with_offsets(&l->tile, [&](auto off) {
            return cuperm::launch_tile_walk<Op>(cuperm::row_tile_kernel<Op, decltype(off)>, l, in, out, op, stream);
        });
    });
}
