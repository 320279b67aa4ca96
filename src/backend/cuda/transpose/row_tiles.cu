// ROW_TILES: the same fastest dimension on both sides, rows too short for the rows kernel
// (plan/transpose/row_tiles.h). The rows kernel walks rows in one side's order, so on the other
// side every row is a run of its own; a row tile holds whole rows of side_a indices of the input's
// next dimensions (A) by side_b of the output's (B), read as runs of n * side_a elements and
// written as runs of n * side_b. The block's threads are numbered over the tile's elements as they
// lie on each side (cuperm_row_digits_t), so no lane idles at a row's end whatever its length.
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

// One round of the read pass: kItems elements a thread from digits d (advanced past them), all
// loads first, then their stores to shared memory. kWhole: every element of the round lies in the
// tile, so nothing is checked.
template <bool kWhole, int kItems, typename T, typename Off>
__device__ __forceinline__ void read_round(const T* tin, T* tile, const RowEntry<Off>* rows, cuperm_row_digits_t& d,
                                           const cuperm_row_digits_t& step, int n, int e0, int total)
{
    T v[kItems];
    int slot[kItems];
#pragma unroll
    for (int k = 0; k < kItems; ++k) {
        const bool in_tile = kWhole || e0 + k * kTileThreads < total; // past it, d.q is past the table
        const RowEntry<Off> en = in_tile ? rows[d.q] : RowEntry<Off>{0, -1};
        slot[k] = en.slot >= 0 ? en.slot + d.r : -1;
        if (slot[k] >= 0) v[k] = load_ro(tin + (en.off + (Off)d.r));
        cuperm_row_digits_advance(&d, &step, n);
    }
#pragma unroll
    for (int k = 0; k < kItems; ++k)
        if (slot[k] >= 0) tile[slot[k]] = v[k];
}

// Off: the offset tables' entry type (uint32_t where cuperm_tile_offsets_fit_u32, else int64_t).
template <typename Op, typename Off>
__global__ void __launch_bounds__(kTileThreads, 3)
row_tile_kernel(const cuperm_tile_params_t p, const cuperm_tile_divs_t dv, const typename Op::value_type* __restrict__ in,
                typename Op::value_type* __restrict__ out, Op op)
{
    using T = typename Op::value_type;
    // loads in flight a thread: 8 elements of up to 8 bytes, 4 of 16 (16 of 4 bytes, as the tile
    // kernels take, need 96-128 registers here: 2 blocks an SM)
    constexpr int kItems = sizeof(T) >= 16 ? 4 : 8;
    extern __shared__ __align__(16) unsigned char smem[];
    const int n = (int)p.dim[0].extent, sa = p.rt_side_a, sb = p.rt_side_b, nrows = sa * sb;
    // layout (cuperm_row_tiles_smem_bytes): the sides' tables, the passes' row tables, the tile
    Off* a_in = reinterpret_cast<Off*>(smem);
    Off* a_out = a_in + sa;
    Off* b_in = a_out + sa;
    Off* b_out = b_in + sb;
    RowEntry<Off>* read_rows = reinterpret_cast<RowEntry<Off>*>(smem + 2 * (sa + sb) * sizeof(int64_t));
    RowEntry<Off>* write_rows = reinterpret_cast<RowEntry<Off>*>(read_rows + nrows);
    T* tile = reinterpret_cast<T*>(smem + 2 * (sa + sb) * sizeof(int64_t) + 2 * nrows * 16);
    const int total = n * nrows;
    const cuperm_row_digits_t d0 = cuperm_row_digits(threadIdx.x, n), step = cuperm_row_digits(kTileThreads, n);

    for (int64_t t = blockIdx.x; t < p.num_tiles; t += gridDim.x) {
        int64_t a0, b0, in_base, out_base;
        cuperm_row_tile_origin(&p, &dv, t, &a0, &b0, &in_base, &out_base);
        const int na = (int)min((int64_t)sa, p.a_volume - a0), nb = (int)min((int64_t)sb, p.b_volume - b0);
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
        __syncthreads();
        const T* tin = as_base(in + in_base);
        const bool whole = na == sa && nb == sb;
        cuperm_row_digits_t d = d0;
        for (int e0 = threadIdx.x; e0 < total; e0 += kTileThreads * kItems) {
            if (whole && e0 + (kItems - 1) * kTileThreads < total)
                read_round<true, kItems>(tin, tile, read_rows, d, step, n, e0, total);
            else
                read_round<false, kItems>(tin, tile, read_rows, d, step, n, e0, total);
        }
        __syncthreads();
        T* tout = as_base(out + out_base);
        d = d0;
#pragma unroll 4
        for (int e = threadIdx.x; e < total; e += kTileThreads) {
            const RowEntry<Off> en = write_rows[d.q];
            if (en.slot >= 0) {
                T* o = tout + (en.off + (Off)d.r);
                *o = op(tile[en.slot + d.r], o);
            }
            cuperm_row_digits_advance(&d, &step, n);
        }
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
