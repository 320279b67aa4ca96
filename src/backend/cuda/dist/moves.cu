#include <nccl_device.h>

#include "backend/cuda/dist/lsa_team.cuh"
#include "backend/cuda/dist/moves.h"
#include "backend/cuda/transpose/type_dispatch.cuh"
#include "core/index_math.h"
#include "core/scalars.h"

namespace cuperm {
namespace dist {

constexpr int kThreads = 512;
// Elements a thread loads before it stores: the gathers are L2 latencies, so each thread
// keeps several in flight. 8 (no spills, 90-114 registers) ran 1-15% slower on 2 x H200
// (bench/results/dist-h200x2/session33/unroll8-dropped/).
constexpr int kUnroll = 4;

// The move in shared memory: every thread decodes through its dimensions.
__device__ __forceinline__ void load_move(const cuperm_dist_move_t* g, cuperm_dist_move_t* s)
{
    static_assert(sizeof(cuperm_dist_move_t) % sizeof(int64_t) == 0, "copied as 8-byte words");
    constexpr int kWords = sizeof(cuperm_dist_move_t) / sizeof(int64_t);
    __syncthreads(); // the previous move's readers are done
    for (int w = threadIdx.x; w < kWords; w += blockDim.x)
        reinterpret_cast<int64_t*>(s)[w] = reinterpret_cast<const int64_t*>(g)[w];
    __syncthreads();
}

// The moves list[begin, end), each walked as moves.h says (CTA i takes the same elements of
// every move on every rank).
template <typename Op>
__device__ __forceinline__ void run_moves(const cuperm_dist_move_t* list, int begin, int end, const void* in,
                                          void* out, const Op& op, cuperm_dist_move_t* m_shared)
{
    using T = typename Op::value_type;
    const cuperm_dist_move_t& m = *m_shared;
    const int64_t step = (int64_t)gridDim.x * blockDim.x;
    for (int j = begin; j < end; ++j) {
        load_move(list + j, m_shared);
        const T* src = reinterpret_cast<const T*>(m.src ? m.src : static_cast<const char*>(in)) + m.src_offset;
        T* dst = reinterpret_cast<T*>(m.dst ? m.dst : static_cast<char*>(out)) + m.dst_offset;
        for (int64_t e0 = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; e0 < m.volume; e0 += step * kUnroll) {
            T v[kUnroll];
            int64_t to[kUnroll];
#pragma unroll
            for (int u = 0; u < kUnroll; ++u) {
                const int64_t e = e0 + u * step;
                int64_t from = 0;
                to[u] = -1;
                if (e < m.volume) {
                    cuperm_group_offsets(m.dim, m.div, 0, m.rank, e, &from, &to[u]);
                    v[u] = src[from];
                }
            }
#pragma unroll
            for (int u = 0; u < kUnroll; ++u)
                if (to[u] >= 0) dst[to[u]] = m.scaled ? op(v[u], dst + to[u]) : v[u];
        }
    }
}

template <typename Op>
static __global__ void __launch_bounds__(kThreads)
    moves(ncclDevComm dev, const cuperm_dist_move_t* list, int stores, int n, const void* in, void* out, Op op)
{
    __shared__ cuperm_dist_move_t m;
    ncclLsaBarrierSession<ncclCoopCta> bar(ncclCoopCta(), dev, ncclTeamTagLsa(), 1 + blockIdx.x);
    // Every receiver's stream has reached this kernel: what ran before it there is done.
    bar.sync(ncclCoopCta(), cuda::memory_order_acq_rel);
    run_moves(list, 0, stores, in, out, op, &m);
    // Release this CTA's stores and acquire the peers' CTA blockIdx.x's: after it, what they
    // stored into this rank's window is what this CTA unpacks.
    bar.sync(ncclCoopCta(), cuda::memory_order_acq_rel);
    run_moves(list, stores, n, in, out, op, &m);
}

} // namespace dist
} // namespace cuperm

extern "C" cudaError_t cuperm_dist_moves_launch(const cuperm_dist_lsa_barrier_t* b, const cuperm_dist_move_t* moves,
                                                int stores, int n, cupermDataType_t type, const void* alpha,
                                                const void* in, const void* beta, void* out, cudaStream_t stream)
{
    cuperm_scalars_t s;
    cuperm_read_scalars(type, alpha, beta, &s);
    return cuperm::dispatch_op(type, &s, [&](auto op) {
        cuperm::dist::moves<<<(unsigned)b->ctas, cuperm::dist::kThreads, 0, stream>>>(b->dev, moves, stores, n, in,
                                                                                       out, op);
        return cudaGetLastError();
    });
}
