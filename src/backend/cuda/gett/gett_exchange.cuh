// The D-tile kernel's direct path (gett_dtile_packed.cu) stores 16-byte pieces of D from the
// accumulators of mma.sync m16n8k16: a piece's pairs sit in L neighbouring lanes, which exchange them
// by shuffles first. Also included by tools/probe/dwrite.cu, the probe of the fragment path.
#pragma once

namespace cuperm {
namespace gett {

// The direct path's exchange among the L lanes that hold a piece's pairs: before, lane t's w[m] is
// pair t of piece m (of the L a step stores); after, lane u's w[m] is pair m of piece u. Its own
// inverse, so it also takes C's pieces, loaded whole, back to the accumulators' pairs.
__device__ __forceinline__ void exchange(unsigned (&w)[4], int u) // 16-bit elements: a pair is a word
{
    // blocks of 2 across lanes u ^ 2, then single words across u ^ 1
#pragma unroll
    for (int m = 0; m < 2; ++m) {
        const unsigned r = __shfl_xor_sync(~0u, u & 2 ? w[m] : w[m + 2], 2);
        if (u & 2) w[m] = r;
        else w[m + 2] = r;
    }
#pragma unroll
    for (int m = 0; m < 4; m += 2) {
        const unsigned r = __shfl_xor_sync(~0u, u & 1 ? w[m] : w[m + 1], 1);
        if (u & 1) w[m] = r;
        else w[m + 1] = r;
    }
}
__device__ __forceinline__ void exchange(float2 (&w)[2], int u) // fp32: a pair is two words
{
    const float2 send = u ? w[0] : w[1];
    const float2 r = make_float2(__shfl_xor_sync(~0u, send.x, 1), __shfl_xor_sync(~0u, send.y, 1));
    if (u) w[0] = r;
    else w[1] = r;
}

} // namespace gett
} // namespace cuperm
