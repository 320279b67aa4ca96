// One instantiation of the probe's GETT: compiled with -DAKV=0|1 (A K-major), -DBKV=0|1
// (B K-major) and -DTILE=TFlat|TMid|THier|TKh (probe.h).
#include "gett_tma.cuh"
#include "probe.h"

template <bool AK, bool BK, class Tile>
cutlass::Status run(PS ps, const hf* a, const I* aM, const I* aK, const hf* b, const I* bN, const I* bK, hf* d,
                    const I* dM, const I* dN, cudaStream_t st)
{
    using AMs = std::conditional_t<AK, S3, S3u>;
    using AKs = std::conditional_t<AK, S3u, S3>;
    using BNs = std::conditional_t<BK, S3, S3u>;
    using BKs = std::conditional_t<BK, S3u, S3>;
    SA<AK> sa = make_stride(mk3<AMs>(aM), mk3<AKs>(aK), make_stride(I(0)));
    SB<BK> sb = make_stride(mk3<BNs>(bN), mk3<BKs>(bK), make_stride(I(0)));
    SC sd = make_stride(mk3<S3>(dM), mk3<S3>(dN), make_stride(I(0)));
    return probe::TmaGett<PS, hf, SA<AK>, SB<BK>, hf, SC, Tile>::run(ps, a, sa, b, sb, d, d, sd, 1.f, 0.f, st);
}

template cutlass::Status run<AKV, BKV, TILE>(PS, const hf*, const I*, const I*, const hf*, const I*, const I*, hf*,
                                             const I*, const I*, cudaStream_t);
