#pragma once
// Probe (issue 15): CUTLASS sm90 GETT on TCCG cases against the same-shape cuBLAS GEMM.
// Each instantiation (inst.cu) is one A/B major combination and one block tile; main.cu
// maps a TCCG case onto M, N, K groups of up to 3 modes and times every tile.
#include "cute/tensor.hpp"
#include "cutlass/cutlass.h"
#include "cutlass/numeric_types.h"
#include <cuda_runtime.h>
#include <cublas_v2.h>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>
#include <algorithm>
using namespace cute;
using hf = cutlass::half_t;
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("CUDA %s at %d\n", cudaGetErrorString(e_), __LINE__); exit(1);} } while (0)

using I = int64_t;
using S3 = Stride<I, I, I>;
using S3u = Stride<Int<1>, I, I>;
using PS = Shape<Shape<int,int,int>, Shape<int,int,int>, Shape<int,int,int>, Shape<int>>;
template <bool AK> using SA = Stride<std::conditional_t<AK, S3, S3u>, std::conditional_t<AK, S3u, S3>, Stride<I>>;
template <bool BK> using SB = Stride<std::conditional_t<BK, S3, S3u>, std::conditional_t<BK, S3u, S3>, Stride<I>>;
using SC = Stride<S3, S3, Stride<I>>;

template <class T> inline auto mk3(const I* s) { return make_stride(s[0], s[1], s[2]); }
template <> inline auto mk3<S3u>(const I* s) { return make_stride(Int<1>{}, s[1], s[2]); }

template <bool AK, bool BK, class Tile>
cutlass::Status run(PS ps, const hf* a, const I* aM, const I* aK, const hf* b, const I* bN, const I* bK,
                    hf* d, const I* dM, const I* dN, cudaStream_t st);

using TFlat = Shape<Shape<_128>, Shape<_128>, Shape<_64>>;
using THier = Shape<Shape<_8, _16>, Shape<_8, _16>, Shape<_8, _8>>;
using TMid = Shape<Shape<_32, _4>, Shape<_32, _4>, Shape<_16, _4>>;
using TKh = Shape<Shape<_128>, Shape<_128>, Shape<_8, _8>>;
typedef cutlass::Status (*RunFn)(PS, const hf*, const I*, const I*, const hf*, const I*, const I*, hf*, const I*, const I*, cudaStream_t);
