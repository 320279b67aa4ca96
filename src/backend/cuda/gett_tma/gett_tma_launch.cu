// The Hopper GETT's entry points: the launcher table over tiles, majors and types, and
// whether this build and device run it.
#include "backend/cuda/gett_tma/gett_tma.h"
#include "backend/cuda/gett_tma/gett_tma_kernel.cuh"

namespace {
using cuperm::gett_tma::TileLaunchers;
using Table = const TileLaunchers& (*)();
#define CUPERM_TMA_TILE_ENTRY(id, name, m0, m1, n0, n1, k0, k1, rate) &cuperm::gett_tma::launchers<id>,
const Table tiles[CUPERM_TMA_TILE_COUNT] = {CUPERM_TMA_TILES(CUPERM_TMA_TILE_ENTRY)};
#undef CUPERM_TMA_TILE_ENTRY
} // namespace

extern "C" cudaError_t cuperm_gett_tma_launch(const cuperm_gett_tma_params_t* q, const void* A, const void* B,
                                              const void* C, void* D, float alpha, float beta, cudaStream_t stream)
{
    if (q->tile < 0 || q->tile >= CUPERM_TMA_TILE_COUNT) return cudaErrorInvalidValue;
    for (int g = 0; g < CUPERM_TMA_GROUPS; ++g)
        for (int i = 0; i < CUPERM_TMA_MODES; ++i)
            if (q->extent[g][i] == 0) return cudaSuccess; /* nothing to compute */
    const int pair = cuperm::gett_tma::type_pair(q->abType, q->cdType);
    if (q->swapped) { /* D^T = B^T A^T: the kernels' first operand is B */
        const void* t = A;
        A = B;
        B = t;
    }
    return tiles[q->tile]().fn[q->aKMajor != 0][q->bKMajor != 0][pair](q, A, B, beta != 0.0f ? C : nullptr, D, alpha,
                                                                        beta, stream);
}

extern "C" int cuperm_gett_tma_built(void) { return 1; }
