// The tile walk shared by the TILED and ROWS kernels (see cuperm_tile_params_t).
//
// Each block takes tiles in turn. For a tile it first builds four small
// offset tables in shared memory (input and output offsets of its A and B
// indices), so the per-element work is two table reads and two adds, never a
// division. TILED stages the tile through shared memory: read with x (A, the
// input's contiguous group) fastest, written with y (B, the output's) fastest,
// both coalesced; rows are padded so the column-wise pass is conflict-free.
// ROWS (same fastest dimension on both sides) moves elements directly.
#pragma once

#include <type_traits>

#include "core/index_math.h"
#include "backend/cuda/transpose/launch.h"
#include "backend/cuda/transpose/tile_lean.cuh"
#include "backend/cuda/transpose/tile_shifted.cuh"
#include "backend/cuda/transpose/tile_vec.cuh"
#include "backend/cuda/transpose/type_dispatch.cuh"

namespace cuperm {

constexpr int kTileThreads = CUPERM_THREADS;

// Elements per thread per tile; the planner sizes tiles to match (see plan_select.c).
template <typename T>
constexpr int tile_items() { return CUPERM_TILE_ITEMS(sizeof(T)); }

// Where tile t lies: its sides' valid extents and its origin's offsets in the input and output.
struct TileSpan {
    int na, nb;
    int64_t in_base, out_base;
};

// Tile t's origin, and its four offset tables (input and output offsets of its A and B indices)
// filled by the block's threads; the caller synchronises before reading them. kSpread (the tables
// of move_tile_lean_spread): b_in and a_out thread-major (cuperm_spread_slot), and on an edge tile the
// slots past the edge repeat its last index, so that every tile's entries come in whole runs.
template <typename Off, bool kSpread = false>
__device__ __forceinline__ TileSpan build_tile_tables(const cuperm_tile_params_t& p, const cuperm_tile_divs_t& dv,
                                                      int64_t t, Off* a_in, Off* a_out, Off* b_in, Off* b_out)
{
    const int ta = 1 << p.tile_a_log2, tb = 1 << p.tile_b_log2;
    int64_t a0, b0;
    TileSpan sp;
    cuperm_tile_origin(&p, &dv, t, &a0, &b0, &sp.in_base, &sp.out_base);
    sp.na = (int)min((int64_t)ta, p.a_volume - a0);
    sp.nb = (int)min((int64_t)tb, p.b_volume - b0);
    if constexpr (kSpread) {
        const int xs_log2 = kTileThreadsLog2 - p.tile_b_log2, ys_log2 = kTileThreadsLog2 - p.tile_a_log2;
        const int n = ta >> xs_log2; // a thread's indices on each side (ta * tb / threads)
        for (int i = threadIdx.x; i < ta + tb; i += kTileThreads) {
            int64_t oi, oo;
            if (i < ta) {
                cuperm_group_offsets(p.dim, dv.dim, 0, p.a_end, a0 + min(i, sp.na - 1), &oi, &oo);
                a_in[i] = (Off)oi, a_out[cuperm_spread_slot(i, xs_log2, n)] = (Off)oo;
            } else {
                cuperm_group_offsets(p.dim, dv.dim, p.a_end, p.b_end, b0 + min(i - ta, sp.nb - 1), &oi, &oo);
                b_in[cuperm_spread_slot(i - ta, ys_log2, n)] = (Off)oi, b_out[i - ta] = (Off)oo;
            }
        }
    } else {
        for (int i = threadIdx.x; i < ta + tb; i += kTileThreads) {
            if constexpr (std::is_same_v<Off, int64_t>) {
                if (i < sp.na)
                    cuperm_group_offsets(p.dim, dv.dim, 0, p.a_end, a0 + i, &a_in[i], &a_out[i]);
                else if (i >= ta && i - ta < sp.nb)
                    cuperm_group_offsets(p.dim, dv.dim, p.a_end, p.b_end, b0 + (i - ta), &b_in[i - ta], &b_out[i - ta]);
            } else { // 32-bit entries (the launcher checked that they fit)
                int64_t oi, oo;
                if (i < sp.na) {
                    cuperm_group_offsets(p.dim, dv.dim, 0, p.a_end, a0 + i, &oi, &oo);
                    a_in[i] = (Off)oi, a_out[i] = (Off)oo;
                } else if (i >= ta && i - ta < sp.nb) {
                    cuperm_group_offsets(p.dim, dv.dim, p.a_end, p.b_end, b0 + (i - ta), &oi, &oo);
                    b_in[i - ta] = (Off)oi, b_out[i - ta] = (Off)oo;
                }
            }
        }
    }
    return sp;
}

// Writes a staged tile from shared memory: each thread takes one y (B, the output's contiguous
// group) and kItems columns x0 + k * xstep, so a warp's stores run along the output. v: kItems
// values of scratch, the caller's (stage_and_write's own values: an array of its own here made
// the 8-byte fast path spill 72 bytes under its 64-register bound). kChunk: values read from shared
// memory and stored per round (kItems: all at once); fewer keep fewer registers live where nothing
// else holds the values (the pipelined kernel, whose loads went to shared memory, not registers).
template <int kItems, int kChunk = kItems, typename Op>
__device__ __forceinline__ void write_staged_tile(const cuperm_tile_params_t& p, typename Op::value_type* tout,
                                                  int na, int nb, const int64_t* a_out, const int64_t* b_out,
                                                  const typename Op::value_type* tile,
                                                  typename Op::value_type* v, const Op& op)
{
    static_assert(kItems % kChunk == 0, "whole rounds");
    using T = typename Op::value_type;
    const int lb = p.tile_b_log2;
    const int y = threadIdx.x & ((1 << lb) - 1), x0 = threadIdx.x >> lb, xstep = kTileThreads >> lb;
    const bool y_ok = y < nb;
    const int64_t bo = y_ok ? b_out[y] : 0;
#pragma unroll
    for (int c = 0; c < kItems; c += kChunk) {
        const int xc = x0 + c * xstep;
#pragma unroll
        for (int k = 0; k < kChunk; ++k) {
            const int xx = xc + k * xstep;
            if (y_ok && xx < na) v[k] = tile[y * p.smem_row + xx];
        }
        if constexpr (Op::kMovesBits) {
#pragma unroll
            for (int k = 0; k < kChunk; ++k) {
                const int xx = xc + k * xstep;
                if (y_ok && xx < na) {
                    T* o = tout + bo + a_out[xx];
                    *o = op(v[k], o);
                }
            }
        } else {
            store_run<kChunk>(
                op, [&](int k) { return tout + bo + a_out[xc + k * xstep]; }, [&](int k) { return v[k]; },
                [&](int k) { return y_ok && xc + k * xstep < na; });
        }
    }
}

// Staged second half of a fast tile: values v (one x, rows y0 + k*ystep) go
// to shared memory, then each thread takes one y and writes along x.
template <int kItems, typename Op>
__device__ __forceinline__ void stage_and_write(const cuperm_tile_params_t& p, typename Op::value_type* tout, int na,
                                                int nb, int x, int y0, int ystep, const int64_t* a_out,
                                                const int64_t* b_out, typename Op::value_type* tile,
                                                typename Op::value_type* v, const Op& op)
{
    const bool x_ok = x < na;
#pragma unroll
    for (int k = 0; k < kItems; ++k) {
        const int y = y0 + k * ystep;
        if (x_ok && y < nb) tile[y * p.smem_row + x] = v[k];
    }
    __syncthreads();
    write_staged_tile<kItems>(p, tout, na, nb, a_out, b_out, tile, v, op);
}

// The common case (both tile sides at most one block wide and the tile exactly kTileThreads *
// items elements) for elements of 8 and 16 bytes: each thread keeps one x (reads) or one y
// (writes) and the loops unroll fully, putting all loads in flight at once. Every access is
// checked against the tile's edge. These tiles are memory-bound, and move_tile_lean's straight-line
// form, which lifts the smaller elements, ran f64 1-6 points of copy slower on several shapes
// (bench/results/lean-tiles-h100/), so they keep this form.
template <bool kStaged, int kItems, typename Op>
__device__ __forceinline__ void move_tile_checked(const cuperm_tile_params_t& p, const TileView<Op>& tv, const Op& op)
{
    using T = typename Op::value_type;
    const int la = p.tile_a_log2;
    const int x = threadIdx.x & ((1 << la) - 1), y0 = threadIdx.x >> la, ystep = kTileThreads >> la;
    const bool x_ok = x < tv.na;
    const int64_t ai = x_ok ? tv.a_in[x] : 0;
    T v[kItems];
#pragma unroll
    for (int k = 0; k < kItems; ++k) {
        const int y = y0 + k * ystep;
        if (x_ok && y < tv.nb) v[k] = tv.in[ai + tv.b_in[y]];
    }
    if constexpr (!kStaged) { // same fastest dimension: store straight back
        const int64_t ao = x_ok ? tv.a_out[x] : 0;
        if constexpr (Op::kMovesBits) {
#pragma unroll
            for (int k = 0; k < kItems; ++k) {
                const int y = y0 + k * ystep;
                if (x_ok && y < tv.nb) {
                    T* o = tv.out + ao + tv.b_out[y];
                    *o = op(v[k], o);
                }
            }
        } else {
            store_run<kItems>(
                op, [&](int k) { return tv.out + ao + tv.b_out[y0 + k * ystep]; }, [&](int k) { return v[k]; },
                [&](int k) { return x_ok && y0 + k * ystep < tv.nb; });
        }
    } else {
        stage_and_write<kItems>(p, tv.out, tv.na, tv.nb, x, y0, ystep, tv.a_out, tv.b_out, tv.tile, v, op);
    }
}

// The fast path's forms: move_tile_lean (tile_lean.cuh) for elements of up to 4 bytes, whose
// tiles were issue-bound in the checked form; move_tile_lean_spread for 8- and 16-byte ones where
// the plan says so (kLean: cuperm_tile_params_t.lean); move_tile_checked for the others.
// kWide: a wide staged tile (CUPERM_TILE_ITEMS_WIDE elements a thread).
template <bool kStaged, bool kWide, bool kLean, typename Op, typename Off>
__device__ __forceinline__ void move_tile_fast(const cuperm_tile_params_t& p, const TileView<Op, Off>& tv, const Op& op)
{
    using T = typename Op::value_type;
    static_assert(!kLean || (sizeof(T) >= 8 && kStaged && !kWide), "the lean form of staged 8- and 16-byte tiles");
    if constexpr (kLean) {
        if (tv.na == 1 << p.tile_a_log2 && tv.nb == 1 << p.tile_b_log2)
            move_tile_lean_spread<true>(p, tv, op);
        else
            move_tile_lean_spread<false>(p, tv, op);
    } else if constexpr (sizeof(T) <= 4) {
        constexpr int n = kWide ? CUPERM_TILE_ITEMS_WIDE : tile_items<T>();
        if (tv.na == 1 << p.tile_a_log2 && tv.nb == 1 << p.tile_b_log2)
            move_tile_lean<n, kStaged, true>(p, tv, op);
        else
            move_tile_lean<n, kStaged, false>(p, tv, op);
    } else {
        static_assert(!kWide, "wide tiles are planned for 1- and 2-byte elements only");
        move_tile_checked<kStaged, tile_items<T>()>(p, tv, op);
    }
}

// Any tile shape (tiny groups make one side narrower than a warp).
template <bool kStaged, typename Op>
__device__ __forceinline__ void move_tile_any(const cuperm_tile_params_t& p, const TileView<Op>& tv, const Op& op)
{
    const int ta = 1 << p.tile_a_log2, tb = 1 << p.tile_b_log2, elems = ta * tb;
    if constexpr (!kStaged) {
        for (int e = threadIdx.x; e < elems; e += kTileThreads) {
            const int x = e & (ta - 1), y = e >> p.tile_a_log2;
            if (x < tv.na && y < tv.nb) {
                typename Op::value_type* o = tv.out + tv.a_out[x] + tv.b_out[y];
                *o = op(tv.in[tv.a_in[x] + tv.b_in[y]], o);
            }
        }
    } else {
        for (int e = threadIdx.x; e < elems; e += kTileThreads) {
            const int x = e & (ta - 1), y = e >> p.tile_a_log2;
            if (x < tv.na && y < tv.nb) tv.tile[y * p.smem_row + x] = tv.in[tv.a_in[x] + tv.b_in[y]];
        }
        __syncthreads();
        for (int e = threadIdx.x; e < elems; e += kTileThreads) {
            const int y = e & (tb - 1), x = e >> p.tile_b_log2;
            if (x < tv.na && y < tv.nb) {
                typename Op::value_type* o = tv.out + tv.a_out[x] + tv.b_out[y];
                *o = op(tv.tile[y * p.smem_row + x], o);
            }
        }
    }
}

// The ways through a tile. Each is a kernel of its own, so registers are
// allocated for the path that runs, not for the most demanding one:
// that is what lets the vector and fast paths keep more blocks resident.
// kFastSmall: the fast path's forms on tiles of CUPERM_TILE_ITEMS_SMALL elements a thread (a quarter),
// so that a tensor whose standard tiles would leave SMs idle spreads over more blocks.
// kFastHalf: the same on tiles of half the fast path's elements, for tiles whose standard size would
// put a side past a block (a short group on the other side), which the any-shape path would take.
// kFastLean: the fast path's lean form for 8- and 16-byte elements (cuperm_tile_params_t.lean).
enum class TilePath { kVec, kVec8, kVec4, kShift, kShiftLanes, kFast, kAny, kFastWide, kFastSmall, kFastHalf, kFastLean };

// Resident blocks per SM the compiler must allow for (registers <= 64K / (256 * n)). The lean form
// of 8- and 16-byte tiles fits 5 (48 registers, no spills, sm_90), the reason it exists.
template <TilePath kPath, typename T>
constexpr int tile_min_blocks()
{
    return kPath == TilePath::kFastSmall ? CUPERM_SMALL_TILE_BLOCKS(sizeof(T)) : kPath == TilePath::kFastLean ? 5 : 4;
}

template <bool kStaged, TilePath kPath, typename Op, typename Off>
__device__ __forceinline__ void move_tile(const cuperm_tile_params_t& p, const TileView<Op, Off>& tv, const Op& op)
{
    if constexpr (kPath == TilePath::kVec || kPath == TilePath::kVec8 || kPath == TilePath::kVec4) {
        using VT = std::conditional_t<kPath == TilePath::kVec, uint4,
                                      std::conditional_t<kPath == TilePath::kVec8, uint2, uint32_t>>;
        if constexpr (kStaged) {
            if (tv.na == 1 << p.tile_a_log2 && tv.nb == 1 << p.tile_b_log2)
                move_tile_vec<VT, true>(p, tv, op);
            else
                move_tile_vec<VT, false>(p, tv, op);
        } else
            move_rows_vec(p, tv, op); // planned with 16-byte vectors only
    } else if constexpr (kPath == TilePath::kShift || kPath == TilePath::kShiftLanes) {
        static_assert(kStaged, "shifted vectors are planned for staged tiles only");
        move_tile_shifted<kPath == TilePath::kShiftLanes>(p, tv, op);
    } else if constexpr (kPath == TilePath::kFast || kPath == TilePath::kFastWide || kPath == TilePath::kFastLean) {
        move_tile_fast<kStaged, kPath == TilePath::kFastWide, kPath == TilePath::kFastLean>(p, tv, op);
    } else if constexpr (kPath == TilePath::kFastSmall || kPath == TilePath::kFastHalf) {
        constexpr int n = kPath == TilePath::kFastSmall ? CUPERM_TILE_ITEMS_SMALL(sizeof(typename Op::value_type))
                                                        : CUPERM_TILE_ITEMS(sizeof(typename Op::value_type)) / 2;
        if constexpr (sizeof(typename Op::value_type) > 4)
            move_tile_checked<kStaged, n>(p, tv, op);
        else if (tv.na == 1 << p.tile_a_log2 && tv.nb == 1 << p.tile_b_log2)
            move_tile_lean<n, kStaged, true>(p, tv, op);
        else
            move_tile_lean<n, kStaged, false>(p, tv, op);
    } else {
        move_tile_any<kStaged>(p, tv, op);
    }
}

// Off: the offset tables' entry type (uint32_t where cuperm_tile_offsets_fit_u32, else int64_t).
template <bool kStaged, TilePath kPath, typename Op, typename Off>
__global__ void __launch_bounds__(kTileThreads, tile_min_blocks<kPath, typename Op::value_type>())
tile_kernel(const cuperm_tile_params_t p, const cuperm_tile_divs_t dv, const typename Op::value_type* __restrict__ in,
            typename Op::value_type* __restrict__ out, Op op)
{
    using T = typename Op::value_type;
    extern __shared__ __align__(16) unsigned char smem[];
    const int ta = 1 << p.tile_a_log2, tb = 1 << p.tile_b_log2;
    Off* a_in = reinterpret_cast<Off*>(smem);
    Off* a_out = a_in + ta;
    Off* b_in = a_out + ta;
    Off* b_out = b_in + tb;
    // The tile sits where the host's layout puts it (cuperm_tile_smem_bytes sizes the tables at
    // 8 bytes an entry). With 8-byte entries that is the end of b_out, written so: it keeps those
    // kernels' PTX exactly as before the 32-bit tables (bench/results/lean-tiles-h100/).
    T* tile;
    if constexpr (std::is_same_v<Off, int64_t>)
        tile = reinterpret_cast<T*>(b_out + tb);
    else
        tile = reinterpret_cast<T*>(reinterpret_cast<int64_t*>(a_in) + 2 * (ta + tb));
    const T* in_hi = nullptr; // the input's footprint ends here (the shifted path reads by vectors)
    if constexpr (kPath == TilePath::kShift || kPath == TilePath::kShiftLanes) {
        int64_t last = 0;
        for (int d = 0; d < p.rank; ++d) last += (p.dim[d].extent - 1) * p.dim[d].in_stride;
        in_hi = in + last + 1;
    }

    for (int64_t t = blockIdx.x; t < p.num_tiles; t += gridDim.x) {
        const TileSpan sp = build_tile_tables<Off, kPath == TilePath::kFastLean>(p, dv, t, a_in, a_out, b_in, b_out);
        const int na = sp.na, nb = sp.nb;
        const int64_t in_base = sp.in_base, out_base = sp.out_base;
        __syncthreads();
        const TileView<Op, Off> tv{in + in_base, out + out_base, na, nb, a_in, a_out, b_in, b_out, tile, in, in_hi};
        move_tile<kStaged, kPath>(p, tv, op);
        __syncthreads(); // tables and tile are rewritten by the next tile
    }
}

// A kernel of the tile walks: the launch's tile parameters and their divisors, input, output, op.
template <typename Op>
using TileWalkKernel = void (*)(cuperm_tile_params_t, cuperm_tile_divs_t, const typename Op::value_type*,
                                typename Op::value_type*, Op);

// Launches such a kernel on l's grid and shared memory (opting in past 48 KB).
template <typename Op>
cudaError_t launch_tile_walk(TileWalkKernel<Op> kernel, const cuperm_launch_t* l, const void* in, void* out,
                             const Op& op, cudaStream_t stream)
{
    using T = typename Op::value_type;
    if (l->smem_bytes > 48 * 1024) {
        cudaError_t err = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, l->smem_bytes);
        if (err != cudaSuccess) return err;
    }
    cuperm_tile_divs_t dv;
    cuperm_tile_divisors(&l->tile, &dv); // a few divisions per launch instead of one per index per thread
    kernel<<<(unsigned)l->blocks, kTileThreads, (size_t)l->smem_bytes, stream>>>(
        l->tile, dv, static_cast<const T*>(in), static_cast<T*>(out), op);
    return cudaGetLastError();
}

template <bool kStaged, TilePath kPath, typename Op, typename Off = int64_t>
cudaError_t launch_tile_kernel(const cuperm_launch_t* l, const void* in, void* out, const Op& op,
                               cudaStream_t stream)
{
    return launch_tile_walk<Op>(tile_kernel<kStaged, kPath, Op, Off>, l, in, out, op, stream);
}

// f(uint32_t{}) where every table entry of the launch fits 32 bits (cuperm_tile_offsets_fit_u32),
// else f(int64_t{}): the offset type of the lean and vector paths' tables.
template <typename F>
cudaError_t with_offsets(const cuperm_tile_params_t* t, F&& f)
{
    return cuperm_tile_offsets_fit_u32(t) ? f(uint32_t{}) : f(int64_t{});
}

template <bool kStaged>
cudaError_t launch_tiles(const cuperm_launch_t* l, cupermDataType_t type, const cuperm_scalars_t* s,
                         const void* in, void* out, cudaStream_t stream)
{
    return dispatch_op(type, s, [&](auto op) {
        using Op = decltype(op);
        using T = typename Op::value_type;
        const int ta = 1 << l->tile.tile_a_log2, tb = 1 << l->tile.tile_b_log2;
        if constexpr (kStaged && sizeof(T) <= 2) { // any alignment: whole vectors where they fit
            if (l->tile.vec_shifted == 2) return launch_tile_kernel<kStaged, TilePath::kShiftLanes>(l, in, out, op, stream);
            if (l->tile.vec_shifted) return launch_tile_kernel<kStaged, TilePath::kShift>(l, in, out, op, stream);
        }
        if constexpr (sizeof(T) <= 4) {
            const uintptr_t vec_bytes = sizeof(T) << l->tile.vec_log2; // 16, 8 or 4 when vec_log2 > 0
            if (l->tile.vec_log2 > 0 && (uintptr_t)in % vec_bytes == 0 && (uintptr_t)out % vec_bytes == 0) {
                if constexpr (kStaged) /* rows are planned with 16-byte vectors only */
                    return with_offsets(&l->tile, [&](auto off) {
                        using Off = decltype(off);
                        if (vec_bytes == 8) return launch_tile_kernel<kStaged, TilePath::kVec8, Op, Off>(l, in, out, op, stream);
                        if constexpr (sizeof(T) <= 2) /* 4-byte vectors: 1- and 2-byte elements only */
                            if (vec_bytes == 4) return launch_tile_kernel<kStaged, TilePath::kVec4, Op, Off>(l, in, out, op, stream);
                        return launch_tile_kernel<kStaged, TilePath::kVec, Op, Off>(l, in, out, op, stream);
                    });
                return launch_tile_kernel<kStaged, TilePath::kVec>(l, in, out, op, stream);
            }
        }
        if constexpr (kStaged && sizeof(T) <= 2) /* wide scalar tiles (select.c: both sides within a block) */
            if (l->tile.vec_log2 == 0 && ta <= kTileThreads && tb <= kTileThreads &&
                ta * tb == kTileThreads * CUPERM_TILE_ITEMS_WIDE)
                return with_offsets(&l->tile, [&](auto off) {
                    return launch_tile_kernel<kStaged, TilePath::kFastWide, Op, decltype(off)>(l, in, out, op, stream);
                });
        if (ta <= kTileThreads && tb <= kTileThreads && ta * tb == kTileThreads * tile_items<T>()) {
            if constexpr (sizeof(T) <= 4) /* move_tile_lean */
                return with_offsets(&l->tile, [&](auto off) {
                    return launch_tile_kernel<kStaged, TilePath::kFast, Op, decltype(off)>(l, in, out, op, stream);
                });
            if constexpr (kStaged && sizeof(T) >= 8 && Op::kMovesBits) /* the plan's lean form (select.c) */
                if (l->tile.lean)
                    return with_offsets(&l->tile, [&](auto off) {
                        return launch_tile_kernel<kStaged, TilePath::kFastLean, Op, decltype(off)>(l, in, out, op, stream);
                    });
            return launch_tile_kernel<kStaged, TilePath::kFast>(l, in, out, op, stream);
        }
        if (ta <= kTileThreads && tb <= kTileThreads && ta * tb == kTileThreads * CUPERM_TILE_ITEMS_SMALL(sizeof(T))) {
            /* small tiles (select.c: tensors that would leave SMs idle) */
            if constexpr (sizeof(T) <= 4) /* move_tile_lean */
                return with_offsets(&l->tile, [&](auto off) {
                    return launch_tile_kernel<kStaged, TilePath::kFastSmall, Op, decltype(off)>(l, in, out, op, stream);
                });
            return launch_tile_kernel<kStaged, TilePath::kFastSmall>(l, in, out, op, stream);
        }
        if (ta <= kTileThreads && tb <= kTileThreads && ta * tb == kTileThreads * (tile_items<T>() / 2)) {
            /* half tiles (select.c: where the standard size would put a side past a block) */
            if constexpr (sizeof(T) <= 4) /* move_tile_lean */
                return with_offsets(&l->tile, [&](auto off) {
                    return launch_tile_kernel<kStaged, TilePath::kFastHalf, Op, decltype(off)>(l, in, out, op, stream);
                });
            return launch_tile_kernel<kStaged, TilePath::kFastHalf>(l, in, out, op, stream);
        }
        return launch_tile_kernel<kStaged, TilePath::kAny>(l, in, out, op, stream);
    });
}

} // namespace cuperm
