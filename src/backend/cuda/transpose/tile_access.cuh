// Access helpers of the tile paths that run on 32-bit offset tables (tile_lean.cuh, the vector
// tiles of tile_vec.cuh): what keeps an element's address one multiply-add from a base pointer
// and a thread's table entries in 16-byte shared-memory loads.
#pragma once

#include <type_traits>

namespace cuperm {

// p itself, hidden from the optimiser, and known to point to global memory: an element's
// address is then one multiply-add from p (a 32-bit offset widened), where the compiler would
// otherwise fold p's own 64-bit offset into every element's index and redo the 64-bit sum and
// scaling per element.
template <typename P>
__device__ __forceinline__ P* as_base(P* p)
{
    asm("" : "+l"(p));
    __builtin_assume(__isGlobal(p));
    return p;
}

// *p through the read-only data path (ld.global.nc), for any element type: as_base hides the
// kernel's __restrict__ from the compiler, which would otherwise emit a plain load.
template <typename T>
__device__ __forceinline__ T load_ro(const T* p)
{
    using U = std::conditional_t<sizeof(T) == 1, unsigned char,
              std::conditional_t<sizeof(T) == 2, unsigned short,
              std::conditional_t<sizeof(T) == 4, unsigned int,
              std::conditional_t<sizeof(T) == 8, unsigned long long, uint4>>>>;
    static_assert(sizeof(U) == sizeof(T), "an element of 1, 2, 4, 8 or 16 bytes");
    const U u = __ldg(reinterpret_cast<const U*>(p));
    T x;
    memcpy(&x, &u, sizeof x);
    return x;
}

// n consecutive table entries from t (16-byte aligned): 16 bytes per shared-memory load.
template <int n, typename Off>
__device__ __forceinline__ void load_entries(const Off* t, Off (&e)[n])
{
    constexpr int per = 16 / sizeof(Off);
    static_assert(n % per == 0, "whole 16-byte loads");
#pragma unroll
    for (int c = 0; c < n / per; ++c) {
        const uint4 w = reinterpret_cast<const uint4*>(t)[c];
        memcpy(&e[c * per], &w, sizeof w);
    }
}

// Entries i0 .. i0 + n - 1 of table t: on a whole tile in 16-byte loads, on an edge tile with
// each index clamped to the last valid one (count entries), so no thread reads past them.
template <bool kWhole, int n, typename Off>
__device__ __forceinline__ void load_run(const Off* t, int i0, int count, Off (&e)[n])
{
    if constexpr (kWhole) {
        load_entries(t + i0, e);
    } else {
#pragma unroll
        for (int k = 0; k < n; ++k) e[k] = t[min(i0 + k, count - 1)];
    }
}

} // namespace cuperm
