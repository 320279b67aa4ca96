// A Hopper GETT assembled from CUTLASS 3.x sm90 collectives: the mainloop loads A and B
// tiles with TMA through hierarchical (multi-mode) strides and multiplies on wgmma
// (warp-specialised, CollectiveBuilder's choice); the default epilogue writes D through
// its strides with per-thread stores, so an interleaved D needs no transpose.
#pragma once

#include "cute/tensor.hpp"
#include "cutlass/epilogue/collective/collective_epilogue.hpp"
#include "cutlass/epilogue/collective/default_epilogue.hpp"
#include "cutlass/epilogue/thread/linear_combination.h"
#include "cutlass/gemm/collective/collective_builder.hpp"
#include "cutlass/gemm/device/gemm_universal_adapter.h"
#include "cutlass/gemm/kernel/gemm_universal.hpp"

namespace probe {

template <class ProblemShape, class ElementAB, class StrideA, class StrideB, class ElementCD, class StrideCD,
          class TileShape, class ClusterShape = cute::Shape<cute::_1, cute::_2, cute::_1>>
struct TmaGett {
    using Output = cutlass::epilogue::thread::LinearCombination<ElementCD, 1, float, float>;
    using Epilogue = cutlass::epilogue::collective::detail::Sm90TmaWarpSpecializedAdapter<
        cutlass::epilogue::collective::DefaultEpilogue<ElementCD, StrideCD, StrideCD, Output,
                                                       cutlass::gemm::EpilogueDefault>>;
    static constexpr int kAlign = 128 / cutlass::sizeof_bits<ElementAB>::value; // 16-byte TMA rows
    using Mainloop = typename cutlass::gemm::collective::CollectiveBuilder<
        cutlass::arch::Sm90, cutlass::arch::OpClassTensorOp, ElementAB, StrideA, kAlign, ElementAB, StrideB, kAlign,
        float, TileShape, ClusterShape,
        cutlass::gemm::collective::StageCountAutoCarveout<static_cast<int>(sizeof(typename Epilogue::SharedStorage))>,
        cutlass::gemm::collective::KernelScheduleAuto>::CollectiveOp;
    using Kernel = cutlass::gemm::kernel::GemmUniversal<ProblemShape, Mainloop, Epilogue>;
    using Device = cutlass::gemm::device::GemmUniversalAdapter<Kernel>;

    static cutlass::Status run(ProblemShape shape, const ElementAB* a, StrideA sa, const ElementAB* b, StrideB sb,
                               const ElementCD* c, ElementCD* d, StrideCD sd, float alpha, float beta,
                               cudaStream_t stream)
    {
        typename Device::Arguments args{cutlass::gemm::GemmUniversalMode::kBatched, shape, {a, sa, b, sb},
                                        {{alpha, beta}, c, sd, d, sd}};
        Device op;
        cutlass::Status s = op.can_implement(args);
        if (s != cutlass::Status::kSuccess) return s;
        return op(args, nullptr, stream); // this kernel family needs no workspace
    }
};

} // namespace probe
