// The Hopper GETT's epilogue: D = alpha acc + beta C written through D's strides in D's own
// order. wgmma leaves each thread a scatter of (row, column pair) accumulators; written
// straight out (CUTLASS's DefaultEpilogue) a warp's store touches up to 32 sectors with 2 bytes
// each whenever D's unit-stride mode is not the tile's column pair. Here the consumer
// warpgroups stage the tile's fp32 accumulators in shared memory, then walk the tile in the
// order of D's strides (the tile dimensions sorted by D's stride, given by the host as Walk),
// so consecutive threads store (and load C at) consecutive addresses, 16 bytes a thread where
// the strides allow. H100 effects, both ways: bench/results/gett-h100/tma/.
//
// The tile takes m0 x m1 indices of M's first two modes and n0 x n1 of N's (core/
// gett_tma_params.h), all powers of two: a tile-local index is four bit fields.
#pragma once

#include "cute/tensor.hpp"
#include "cutlass/arch/barrier.h"
#include "cutlass/array.h"
#include "cutlass/epilogue/collective/detail.hpp"

namespace cuperm {
namespace gett_tma {

// The tile walk in D's order (the planner's cuperm_ctr_tma_set_tile): shift[d] is where tile
// dimension d (0: M's first mode, 1: M's second, 2: N's first, 3: N's second) sits in the
// walk's linear index; vec: runs of 16 bytes along the innermost dimension are stored (and C's
// loaded) as one vector (the params' walkVector, and the base pointers 16-byte aligned).
struct Walk {
    int shift[4];
    int vec;
};

// log2 of a power of two (tile takes).
constexpr int log2_of(int v) { return v <= 1 ? 0 : 1 + log2_of(v / 2); }

template <class ElementC_, class StrideC_, class StrideD_, class ThreadEpilogueOp_, int kM0, int kM1, int kN0,
          int kN1>
class StagedEpilogue {
public:
    using EpilogueSchedule = cutlass::gemm::EpilogueDefault;
    using DispatchPolicy = EpilogueSchedule;
    using ThreadEpilogueOp = ThreadEpilogueOp_;
    using ElementOutput = typename ThreadEpilogueOp::ElementOutput;
    using ElementAccumulator = typename ThreadEpilogueOp::ElementAccumulator;
    using ElementCompute = typename ThreadEpilogueOp::ElementCompute;
    using ElementScalar = ElementCompute;
    using ElementC = ElementC_;
    using StrideC = StrideC_;
    using ElementD = typename ThreadEpilogueOp::ElementD;
    using StrideD = StrideD_;
    using GmemTiledCopyC = void;
    using GmemTiledCopyD = void;

    static constexpr int kTileM = kM0 * kM1, kTileN = kN0 * kN1, kElems = kTileM * kTileN;
    static constexpr int kLogM0 = log2_of(kM0), kLogN0 = log2_of(kN0);
    static_assert((1 << log2_of(kM0)) == kM0 && (1 << log2_of(kM1)) == kM1 && (1 << log2_of(kN0)) == kN0 &&
                      (1 << log2_of(kN1)) == kN1,
                  "tile takes are powers of two");

    // One padding word per 32 staged words: the accumulator scatter's power-of-two distances
    // then fall on different banks.
    CUTLASS_HOST_DEVICE static constexpr int padded(int pos) { return pos + (pos >> 5); }
    struct SharedStorage {
        alignas(16) float staged[kElems + kElems / 32];
    };
    using TensorStorage = SharedStorage;

    struct Arguments {
        typename ThreadEpilogueOp::Params thread{};
        ElementC const* ptr_C = nullptr;
        StrideC dC{};
        ElementD* ptr_D = nullptr;
        StrideD dD{};
        Walk walk{};
    };
    using Params = Arguments;

    template <class ProblemShape>
    static constexpr Params to_underlying_arguments(ProblemShape const&, Arguments const& args, void*)
    {
        return args;
    }
    template <class ProblemShape> static size_t get_workspace_size(ProblemShape const&, Arguments const&) { return 0; }
    template <class ProblemShape>
    static cutlass::Status initialize_workspace(ProblemShape const&, Arguments const&, void*, cudaStream_t,
                                                cutlass::CudaHostAdapter* = nullptr)
    {
        return cutlass::Status::kSuccess;
    }
    template <class ProblemShape> static bool can_implement(ProblemShape const&, Arguments const&) { return true; }

    CUTLASS_HOST_DEVICE
    StagedEpilogue(Params const& p, SharedStorage const& = SharedStorage()) : params(p), epilogue_op(p.thread) {}

    CUTLASS_DEVICE bool is_source_needed() { return epilogue_op.is_source_needed(); }

    template <class ProblemShapeMNKL, class BlockShapeMNK, class BlockCoordMNKL, class FrgEngine, class FrgLayout,
              class TiledMma, class ResidueMNK>
    CUTLASS_DEVICE void operator()(ProblemShapeMNKL problem_shape_mnkl, BlockShapeMNK blk_shape_MNK,
                                   BlockCoordMNKL blk_coord_mnkl, cute::Tensor<FrgEngine, FrgLayout> const& accumulators,
                                   TiledMma tiled_mma, ResidueMNK, int thread_idx, char* smem)
    {
        using namespace cute;
        using X = Underscore;
        constexpr int kThreads = decltype(size(tiled_mma))::value;
        static_assert(size<0>(BlockShapeMNK{}) == kTileM && size<1>(BlockShapeMNK{}) == kTileN, "tile and takes agree");
        static_assert(kElems % kThreads == 0, "the walk divides among the consumer threads");

        auto M = get<0>(problem_shape_mnkl);
        auto N = get<1>(problem_shape_mnkl);
        auto L = get<3>(problem_shape_mnkl);
        auto [m_coord, n_coord, k_coord, l_coord] = blk_coord_mnkl;
        Tensor gC = local_tile(make_tensor(make_gmem_ptr<ElementC>(params.ptr_C), make_shape(M, N, L), params.dC),
                               blk_shape_MNK, make_coord(_, _, _), Step<_1, _1, X>{})(_, _, m_coord, n_coord, l_coord);
        Tensor gD = local_tile(make_tensor(make_gmem_ptr(params.ptr_D), make_shape(M, N, L), params.dD), blk_shape_MNK,
                               make_coord(_, _, _), Step<_1, _1, X>{})(_, _, m_coord, n_coord, l_coord);
        auto shape_MN = make_shape(M, N);
        Tensor cD = local_tile(make_identity_tensor(shape_MN), take<0, 2>(blk_shape_MNK), make_coord(m_coord, n_coord));
        if (!elem_less(repeat_like(shape_MN, _0{}), shape_MN - cD(_0{}))) return; // the whole tile is outside

        const int s0 = params.walk.shift[0], s1 = params.walk.shift[1], s2 = params.walk.shift[2],
                  s3 = params.walk.shift[3];
        float* staged = reinterpret_cast<SharedStorage*>(smem)->staged;
        // The previous tile's walk (persistent kernel) may still read the stage.
        cutlass::arch::NamedBarrier::sync(kThreads, cutlass::arch::ReservedNamedBarriers::EpilogueBarrier);
        Tensor tCcT = tiled_mma.get_thread_slice(thread_idx).partition_C(
            make_identity_tensor(make_shape(Int<kTileM>{}, Int<kTileN>{}))); // tile-local (m, n) of each accumulator
        CUTLASS_PRAGMA_UNROLL
        for (int i = 0; i < size(accumulators); ++i) {
            const int m = get<0>(tCcT(i)), n = get<1>(tCcT(i));
            const int pos = ((m & (kM0 - 1)) << s0) | ((m >> kLogM0) << s1) | ((n & (kN0 - 1)) << s2) |
                            ((n >> kLogN0) << s3);
            staged[padded(pos)] = accumulators(i);
        }
        cutlass::arch::NamedBarrier::sync(kThreads, cutlass::arch::ReservedNamedBarriers::EpilogueBarrier);

        const bool source = epilogue_op.is_source_needed();
        auto m_of = [&](int pos) { return ((pos >> s0) & (kM0 - 1)) | (((pos >> s1) & (kM1 - 1)) << kLogM0); };
        auto n_of = [&](int pos) { return ((pos >> s2) & (kN0 - 1)) | (((pos >> s3) & (kN1 - 1)) << kLogN0); };
        auto store = [&](int pos) {
            const int m = m_of(pos), n = n_of(pos);
            if (!elem_less(cD(m, n), shape_MN)) return;
            const float acc = staged[padded(pos)];
            gD(m, n) = source ? epilogue_op(acc, gC(m, n)) : epilogue_op(acc);
        };
        if (!params.walk.vec) {
#pragma unroll 4
            for (int pos = thread_idx; pos < kElems; pos += kThreads) store(pos);
            return;
        }
        // Runs of kVec along the innermost dimension (a power of two it divides): a run inside
        // the problem moves as one vector, a run that crosses its edge element by element.
        constexpr int kVec = 16 / static_cast<int>(sizeof(ElementD));
        static_assert(kElems % (kVec * kThreads) == 0, "runs divide among the consumer threads");
        using VecD = cutlass::AlignedArray<ElementD, kVec>;
        using VecC = cutlass::AlignedArray<ElementC, kVec>;
#pragma unroll 2
        for (int pos = thread_idx * kVec; pos < kElems; pos += kThreads * kVec) {
            const int m = m_of(pos), n = n_of(pos);
            if (!elem_less(cD(m_of(pos + kVec - 1), n_of(pos + kVec - 1)), shape_MN) || !elem_less(cD(m, n), shape_MN)) {
                CUTLASS_PRAGMA_UNROLL
                for (int j = 0; j < kVec; ++j) store(pos + j);
                continue;
            }
            VecD out;
            if (source) {
                const VecC in = *reinterpret_cast<const VecC*>(&gC(m, n));
                CUTLASS_PRAGMA_UNROLL
                for (int j = 0; j < kVec; ++j) out[j] = epilogue_op(staged[padded(pos + j)], in[j]);
            } else {
                CUTLASS_PRAGMA_UNROLL
                for (int j = 0; j < kVec; ++j) out[j] = epilogue_op(staged[padded(pos + j)]);
            }
            *reinterpret_cast<VecD*>(&gD(m, n)) = out;
        }
    }

private:
    Params params;
    ThreadEpilogueOp epilogue_op;
};

} // namespace gett_tma
} // namespace cuperm
