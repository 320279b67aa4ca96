// Word reads: the lean tile (tile_lean.cuh) for elements of 1 and 2 bytes whose tile rows are
// runs of the input (group A one unit-stride run, cuperm_tile_params_t.word_reads), reading
// each row by the aligned 4-byte words that cover it, wherever it starts.
//
// The scalar lean tile reads one element a lane, so a warp's load covers 32 or 64 bytes of a
// line: on the H100, 1- and 2-byte tiles of that form moved 42 and 60% of a copy's bandwidth
// where 4-byte ones, 128 bytes a load, moved 84% with the same instructions and occupancy
// (ncu, bench/results/word-reads-h100/). Words make every load 128 bytes of a row.
//
// Shared memory holds the words as loaded, row after row, one word more a row than the row's
// own (the tile's padded pitch), so row y's element x sits shift_y + x * sizeof(T) bytes into
// its row, shift_y being where the row starts in its first word. Words that reach outside the
// input's footprint are read byte by byte, so nothing outside it is touched. The write pass is
// the lean one: a thread takes one column y and n consecutive elements of it.
#pragma once

#include "core/index_math.h"
#include "core/kernel_params.h"
#include "backend/cuda/transpose/tile_access.cuh"
#include "backend/cuda/transpose/tile_vec.cuh"

namespace cuperm {

// The aligned word at w: whole when it lies inside the footprint [lo, hi), else only its bytes
// inside it (the others zero).
__device__ __forceinline__ uint32_t load_word(const unsigned char* w, const unsigned char* lo, const unsigned char* hi)
{
    if (w >= lo && w + 4 <= hi) return __ldg(reinterpret_cast<const unsigned int*>(w));
    uint32_t v = 0;
#pragma unroll
    for (int j = 0; j < 4; ++j)
        if (w + j >= lo && w + j < hi) v |= (uint32_t)__ldg(w + j) << (8 * j);
    return v;
}

// kWhole: na, nb are the tile's sides (nothing to check but the footprint).
template <bool kWhole, typename Op, typename Off>
__device__ __forceinline__ void move_tile_words(const cuperm_tile_params_t& p, const TileView<Op, Off>& tv, const Op& op)
{
    using T = typename Op::value_type;
    static_assert(sizeof(T) <= 2, "word reads serve 1- and 2-byte elements");
    constexpr int n = CUPERM_TILE_ITEMS(sizeof(T));
    // The rows' words between them: 64 n sizeof(T) of their own and one more a row (at most a
    // thread's share), so kLoads steps of kTileThreads flat words cover them (test_index_math).
    constexpr int kLoads = n * (int)sizeof(T) / 4 + 1;
    const int lb = p.tile_b_log2, na = tv.na, nb = tv.nb;
    const int words = cuperm_word_row_words((1 << p.tile_a_log2) * (int)sizeof(T));
    const uint32_t magic = cuperm_small_div_magic((uint32_t)words);
    const int run = na * (int)sizeof(T), flat = (kWhole ? 1 << lb : nb) * words;
    const unsigned char* row0 = reinterpret_cast<const unsigned char*>(tv.in + tv.a_in[0]);
    const unsigned char *lo = reinterpret_cast<const unsigned char*>(tv.in_lo),
                        *hi = reinterpret_cast<const unsigned char*>(tv.in_hi);
    uint32_t* smem_words = reinterpret_cast<uint32_t*>(tv.tile);
    uint32_t v[kLoads];
#pragma unroll
    for (int k = 0; k < kLoads; ++k) {
        const int q = threadIdx.x + k * CUPERM_THREADS;
        const int y = min((int)cuperm_small_div((uint32_t)q, magic), nb - 1), w = q - y * words;
        const unsigned char* start = row0 + (size_t)tv.b_in[y] * sizeof(T);
        const int shift = (int)((uintptr_t)start & 3);
        v[k] = 0;
        if (q < flat && 4 * w < shift + run) v[k] = load_word(start - shift + 4 * w, lo, hi);
    }
#pragma unroll
    for (int k = 0; k < kLoads; ++k) {
        const int q = threadIdx.x + k * CUPERM_THREADS;
        if (q < flat) smem_words[q] = v[k];
    }
    __syncthreads();
    const int y = threadIdx.x & ((1 << lb) - 1), x0 = (threadIdx.x >> lb) * n;
    const bool y_ok = kWhole || y < nb;
    const int yc = kWhole ? y : min(y, nb - 1);
    const int shift = (int)((uintptr_t)(row0 + (size_t)tv.b_in[yc] * sizeof(T)) & 3);
    const T* get = reinterpret_cast<const T*>(reinterpret_cast<const unsigned char*>(smem_words + yc * words) + shift) + x0;
    T vals[n];
#pragma unroll
    for (int k = 0; k < n; ++k) vals[k] = get[k]; // columns past an edge tile's end: never stored
    T* out = as_base(tv.out + tv.b_out[yc]);
    Off e[n];
    load_run<kWhole>(tv.a_out, x0, na, e);
#pragma unroll
    for (int k = 0; k < n; ++k) {
        T* o = out + e[k];
        if (kWhole || (y_ok && x0 + k < na)) *o = op(vals[k], o);
    }
}

} // namespace cuperm
