// One Hopper GETT instantiation (see gett_tma.h): CUTLASS's sm90 CollectiveBuilder mainloop
// (TMA loads through CuTe multi-mode strides, warp-specialised wgmma pipeline, stage count
// from the shared memory the epilogue leaves; cooperative: both consumer warpgroups on one
// tile) and a staged epilogue (gett_tma_epilogue.cuh: D written in the order of its strides,
// C read likewise). Extents: the problem shape's; tiles past them are filled by TMA's
// out-of-bounds zeros and predicated in the epilogue.
#pragma once

#include <type_traits>

#include "cute/tensor.hpp"
#include "cutlass/epilogue/collective/collective_epilogue.hpp"
#include "cutlass/epilogue/thread/linear_combination.h"
#include "cutlass/gemm/collective/collective_builder.hpp"
#include "cutlass/gemm/device/gemm_universal_adapter.h"
#include "cutlass/gemm/kernel/gemm_universal.hpp"

#include "backend/cuda/gett_tma/gett_tma.h"
#include "backend/cuda/gett_tma/gett_tma_epilogue.cuh"

namespace cuperm {
namespace gett_tma {

using I = int64_t;
using cute::Int;
using cute::Shape;
using cute::Stride;

// Modes per group as the params block holds them; the major mode's stride is static 1 (how
// the CollectiveBuilder tells the operand's layout), the rest are run-time strides.
using Group = Stride<I, I, I>;
using MajorGroup = Stride<Int<1>, I, I>;
using Batch = Stride<I, I>;
using ProblemShape = Shape<Shape<int, int, int>, Shape<int, int, int>, Shape<int, int, int>, Shape<int, int>>;
template <bool kMajorK> using StrideA = Stride<std::conditional_t<kMajorK, Group, MajorGroup>,
                                               std::conditional_t<kMajorK, MajorGroup, Group>, Batch>;
template <bool kMajorK> using StrideB = StrideA<kMajorK>; // (N, K, L) as A's (M, K, L)
using StrideCD = Stride<Group, Group, Batch>;

template <class S> inline S group(const int64_t* s) { return S(s[0], s[1], s[2]); }
template <> inline MajorGroup group<MajorGroup>(const int64_t* s) { return MajorGroup(Int<1>{}, s[1], s[2]); }

// Block tile id (core/gett_tma_params.h's list): the indices it takes from each mode, and
// those as a CuTe tiler.
template <int a, int b> struct Take { using type = Shape<Int<a>, Int<b>>; };
template <int a> struct Take<a, 1> { using type = Shape<Int<a>>; };
template <int id> struct TileOf;
#define CUPERM_TMA_TILE_SHAPE(id, name, m0, m1, n0, n1, k0, k1, rate)                                              \
    template <> struct TileOf<id> {                                                                         \
        using type = Shape<typename Take<m0, m1>::type, typename Take<n0, n1>::type, typename Take<k0, k1>::type>; \
        static constexpr int kM0 = m0, kM1 = m1, kN0 = n0, kN1 = n1;                                           \
    };
CUPERM_TMA_TILES(CUPERM_TMA_TILE_SHAPE)
#undef CUPERM_TMA_TILE_SHAPE

template <class AB, class CD, bool kAK, bool kBK, class Tile>
struct Gett {
    using TileShape = typename Tile::type;
    using Output = cutlass::epilogue::thread::LinearCombination<CD, 1, float, float>;
    using Epilogue = cutlass::epilogue::collective::detail::Sm90TmaWarpSpecializedAdapter<
        StagedEpilogue<CD, StrideCD, StrideCD, Output, Tile::kM0, Tile::kM1, Tile::kN0, Tile::kN1>>;
    static constexpr int kAlign = 128 / cutlass::sizeof_bits<AB>::value; // TMA: 16-byte rows
    using Mainloop = typename cutlass::gemm::collective::CollectiveBuilder<
        cutlass::arch::Sm90, cutlass::arch::OpClassTensorOp, AB, StrideA<kAK>, kAlign, AB, StrideB<kBK>, kAlign, float,
        TileShape, Shape<cute::_1, cute::_2, cute::_1>,
        cutlass::gemm::collective::StageCountAutoCarveout<static_cast<int>(sizeof(typename Epilogue::SharedStorage))>,
        cutlass::gemm::KernelTmaWarpSpecializedCooperative>::CollectiveOp;
    using Kernel = cutlass::gemm::kernel::GemmUniversal<ProblemShape, Mainloop, Epilogue>;
    using Device = cutlass::gemm::device::GemmUniversalAdapter<Kernel>;

    static cudaError_t run(const cuperm_gett_tma_params_t* q, const void* a, const void* b, const void* c, void* d,
                           float alpha, float beta, cudaStream_t stream)
    {
        const auto& e = q->extent;
        ProblemShape shape{{e[0][0], e[0][1], e[0][2]}, {e[1][0], e[1][1], e[1][2]}, {e[2][0], e[2][1], e[2][2]},
                           {e[3][0], e[3][1]}};
        using AM = std::conditional_t<kAK, Group, MajorGroup>;
        using AK = std::conditional_t<kAK, MajorGroup, Group>;
        using BN = std::conditional_t<kBK, Group, MajorGroup>;
        using BK = std::conditional_t<kBK, MajorGroup, Group>;
        const auto& s = q->stride; // [operand][group][mode]; operands A, B, C, D; groups M, N, K, L
        const StrideA<kAK> sa{group<AM>(s[0][0]), group<AK>(s[0][2]), Batch(s[0][3][0], s[0][3][1])};
        const StrideB<kBK> sb{group<BN>(s[1][1]), group<BK>(s[1][2]), Batch(s[1][3][0], s[1][3][1])};
        const StrideCD sc{group<Group>(s[2][0]), group<Group>(s[2][1]), Batch(s[2][3][0], s[2][3][1])};
        const StrideCD sd{group<Group>(s[3][0]), group<Group>(s[3][1]), Batch(s[3][3][0], s[3][3][1])};
        auto aligned = [](const void* p) { return reinterpret_cast<uintptr_t>(p) % 16 == 0; };
        const Walk walk{{q->walkShift[0], q->walkShift[1], q->walkShift[2], q->walkShift[3]},
                        q->walkVector[0] && aligned(d) && (!c || (q->walkVector[1] && aligned(c)))};
        typename Device::Arguments args{cutlass::gemm::GemmUniversalMode::kBatched,
                                        shape,
                                        {static_cast<const AB*>(a), sa, static_cast<const AB*>(b), sb},
                                        {{alpha, beta}, static_cast<const CD*>(c), sc, static_cast<CD*>(d), sd, walk}};
        Device op;
        if (op.can_implement(args) != cutlass::Status::kSuccess) return cudaErrorNotSupported;
        // This kernel family needs no workspace (no split-K, no stream-K).
        const cutlass::Status st = op(args, nullptr, stream);
        if (st != cutlass::Status::kSuccess) return cudaGetLastError() != cudaSuccess ? cudaErrorLaunchFailure : cudaErrorNotSupported;
        return cudaGetLastError();
    }
};

// The launchers of one tile: [A K-major][B K-major][type pair], type pairs as type_pair().
using Launch = cudaError_t (*)(const cuperm_gett_tma_params_t*, const void*, const void*, const void*, void*, float,
                               float, cudaStream_t);
constexpr int kTypePairs = 4;
inline int type_pair(cupermDataType_t ab, cupermDataType_t cd)
{
    return (ab == CUPERM_R_16BF ? 2 : 0) + (cd == CUPERM_R_32F ? 1 : 0);
}
struct TileLaunchers {
    Launch fn[2][2][kTypePairs];
};

template <class Tile, bool kAK, bool kBK>
constexpr void fill_types(TileLaunchers& t)
{
    t.fn[kAK][kBK][0] = &Gett<cutlass::half_t, cutlass::half_t, kAK, kBK, Tile>::run;
    t.fn[kAK][kBK][1] = &Gett<cutlass::half_t, float, kAK, kBK, Tile>::run;
    t.fn[kAK][kBK][2] = &Gett<cutlass::bfloat16_t, cutlass::bfloat16_t, kAK, kBK, Tile>::run;
    t.fn[kAK][kBK][3] = &Gett<cutlass::bfloat16_t, float, kAK, kBK, Tile>::run;
}

template <class Tile>
TileLaunchers make_launchers()
{
    TileLaunchers t{};
    fill_types<Tile, false, false>(t);
    fill_types<Tile, false, true>(t);
    fill_types<Tile, true, false>(t);
    fill_types<Tile, true, true>(t);
    return t;
}

// The launchers of tile id, defined by gett_tma_tile<id>.cu (one translation unit a tile: they
// build in parallel).
template <int id> const TileLaunchers& launchers();

} // namespace gett_tma
} // namespace cuperm
