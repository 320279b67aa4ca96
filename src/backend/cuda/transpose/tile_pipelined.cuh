// Staged tiles whose loads stay in flight while the block writes: the TILED kernel for 4-, 8- and
// 16-byte elements on a persistent grid (cuperm_tile_params_t.pipelined).
//
// tile_kernel holds a tile's values in registers between its loads and its shared-memory stores,
// so a block has loads in flight only between building a tile's tables and staging it, and its
// registers (64 for 8-byte elements) cap the resident blocks at 4 an SM. Here the loads go from
// global to shared memory by cp.async (no registers), into the second of two buffers (tables and
// tile): while a block writes tile t from one buffer, tile t + gridDim.x is already on its way into
// the other. Each block walks tiles blockIdx.x, + gridDim.x, ..., as tile_kernel's grid-stride loop
// does, so the tiles in flight at a time are still a window of consecutive tiles of the walk.
#pragma once

#include <cuda_pipeline.h>

#include "backend/cuda/transpose/tile_kernel.cuh"

namespace cuperm {

// One buffer (cuperm_tile_pipe_buffer_bytes' layout): where its tile lies, the tile's four offset
// tables, then the tile. The span lives here, not in registers: the kernel runs at its 64-register
// bound, and two tiles' spans held across the next tile's table build made it spill.
template <typename T>
struct PipeBuffer {
    TileSpan* span;
    int64_t *a_in, *a_out, *b_in, *b_out;
    T* tile;

    __device__ static PipeBuffer at(unsigned char* smem, int which, int ta, int tb, int smem_row)
    {
        static_assert(sizeof(TileSpan) <= CUPERM_PIPE_SPAN_BYTES, "the span's slot");
        unsigned char* b = smem + which * cuperm_tile_pipe_buffer_bytes(ta, tb, smem_row, (int)sizeof(T));
        int64_t* t = reinterpret_cast<int64_t*>(b + CUPERM_PIPE_SPAN_BYTES);
        return {reinterpret_cast<TileSpan*>(b), t, t + ta, t + 2 * ta, t + 2 * ta + tb,
                reinterpret_cast<T*>(t + 2 * (ta + tb))};
    }

    // Builds tile t's tables and span (every thread computes the span; one stores it). The caller
    // synchronises before reading them.
    __device__ void build(const cuperm_tile_params_t& p, const cuperm_tile_divs_t& dv, int64_t t) const
    {
        const TileSpan sp = build_tile_tables(p, dv, t, a_in, a_out, b_in, b_out);
        if (threadIdx.x == 0) *span = sp;
    }
};

// Starts the copies of b's tile into b.tile (its tables and span built and synchronised): each
// thread keeps one x (A, the input's contiguous group) and takes kItems rows y0 + k * ystep, as
// move_tile_checked does, so a warp's loads run along the input.
template <int kItems, typename T>
__device__ __forceinline__ void start_tile_loads(const cuperm_tile_params_t& p, const T* in, const PipeBuffer<T>& b)
{
    const int la = p.tile_a_log2;
    const int x = threadIdx.x & ((1 << la) - 1), y0 = threadIdx.x >> la, ystep = kTileThreads >> la;
    const TileSpan& sp = *b.span;
    if (x >= sp.na) return;
    const int nb = sp.nb;
    const T* src = in + sp.in_base + b.a_in[x];
    T* dst = b.tile + x;
#pragma unroll
    for (int k = 0; k < kItems; ++k) {
        const int y = y0 + k * ystep;
        if (y < nb) __pipeline_memcpy_async(dst + y * p.smem_row, src + b.b_in[y], sizeof(T));
    }
}

// kItems elements a thread: the tile is kTileThreads * kItems elements, both sides within a block.
template <int kItems, typename Op>
__global__ void __launch_bounds__(kTileThreads, CUPERM_PIPE_TILE_BLOCKS)
tile_pipelined_kernel(const cuperm_tile_params_t p, const cuperm_tile_divs_t dv,
                      const typename Op::value_type* __restrict__ in, typename Op::value_type* __restrict__ out, Op op)
{
    using T = typename Op::value_type;
    static_assert(sizeof(T) == 4 || sizeof(T) == 8 || sizeof(T) == 16, "cp.async moves 4, 8 or 16 bytes");
    extern __shared__ __align__(16) unsigned char smem[];
    const int ta = 1 << p.tile_a_log2, tb = 1 << p.tile_b_log2;
    // Buffers by arithmetic, not an array indexed by s (which would live in local memory).
    auto buf = [&](int which) { return PipeBuffer<T>::at(smem, which, ta, tb, p.smem_row); };
    int64_t t = blockIdx.x;
    if (t >= p.num_tiles) return;
    int s = 0;
    buf(0).build(p, dv, t);
    __syncthreads();
    start_tile_loads<kItems>(p, in, buf(0));
    __pipeline_commit();
    for (;;) {
        const int64_t next_t = t + gridDim.x;
        const bool more = next_t < p.num_tiles;
        // The other buffer's last reader, the write of the tile before this one, finished before
        // the barrier that ended the previous round.
        if (more) buf(s ^ 1).build(p, dv, next_t);
        __syncthreads();
        if (more) start_tile_loads<kItems>(p, in, buf(s ^ 1));
        __pipeline_commit();      // an empty group on the last tile keeps the wait below uniform
        __pipeline_wait_prior(1); // this thread's copies of tile t have landed ...
        __syncthreads();          // ... and every thread's
        const PipeBuffer<T> b = buf(s);
        const TileSpan cur = *b.span;
        // Half the values at a time: with the loads in shared memory, all kItems at once is what
        // spilled at the 64-register bound (4-byte copies, every 8-byte axpby and operator form).
        constexpr int kChunk = kItems > 1 ? kItems / 2 : 1;
        T v[kChunk];
        write_staged_tile<kItems, kChunk>(p, out + cur.out_base, cur.na, cur.nb, b.a_out, b.b_out, b.tile, v, op);
        if (!more) break;
        __syncthreads(); // buffer s is rebuilt for the tile after next
        t = next_t, s ^= 1;
    }
}

// A pipelined launch (planned for scalar tiles of 4-, 8- and 16-byte elements whose sides stay
// within a block, of the standard or the small size: plan/transpose/select.c).
inline cudaError_t launch_pipelined_tiles(const cuperm_launch_t* l, cupermDataType_t type, const cuperm_scalars_t* s,
                                          const void* in, void* out, cudaStream_t stream)
{
    return dispatch_op(type, s, [&](auto op) -> cudaError_t {
        using Op = decltype(op);
        constexpr int elem = (int)sizeof(typename Op::value_type);
        if constexpr (elem == 4 || elem == 8 || elem == 16) {
            constexpr int kStd = CUPERM_TILE_ITEMS(elem), kSmall = CUPERM_TILE_ITEMS_SMALL(elem);
            const int items = (1 << (l->tile.tile_a_log2 + l->tile.tile_b_log2)) / kTileThreads;
            if (items == kStd) return launch_tile_walk<Op>(tile_pipelined_kernel<kStd, Op>, l, in, out, op, stream);
            if (items == kSmall) return launch_tile_walk<Op>(tile_pipelined_kernel<kSmall, Op>, l, in, out, op, stream);
        }
        return cudaErrorInvalidValue; // the planner makes no other
    });
}

} // namespace cuperm
