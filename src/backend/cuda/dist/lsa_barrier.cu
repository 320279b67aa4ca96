#include <new>

#include <nccl_device.h>

#include "backend/cuda/dist/lsa_barrier.h"
#include "backend/cuda/dist/lsa_team.cuh"

namespace cuperm {

/* One CTA: thread i signals and waits for peer i (ncclLsaBarrierSession over the LSA team,
 * barrier 0 of dev). The system-scope fence first makes the stream's earlier kernels' stores,
 * over NVLink included, part of what the release publishes. */
static __global__ void __launch_bounds__(32) lsa_barrier(ncclDevComm dev)
{
    __threadfence_system();
    ncclLsaBarrierSession<ncclCoopCta> bar(ncclCoopCta(), dev, ncclTeamTagLsa(), 0);
    bar.sync(ncclCoopCta(), cuda::memory_order_acq_rel);
}

} // namespace cuperm

extern "C" ncclResult_t cuperm_dist_lsa_barrier_create(ncclComm_t comm, int ctas, cuperm_dist_lsa_barrier_t** out)
{
    *out = nullptr;
    auto* b = new (std::nothrow) cuperm_dist_lsa_barrier();
    if (!b) return ncclSystemError;
    ncclDevCommRequirements reqs = {}; /* 2.28 has no initializer macro: zero is "none" for every field */
    reqs.lsaBarrierCount = 1 + ctas;
    b->ctas = ctas;
    const ncclResult_t r = ncclDevCommCreate(comm, &reqs, &b->dev);
    if (r != ncclSuccess) {
        delete b;
        return r;
    }
    *out = b;
    return ncclSuccess;
}

extern "C" void cuperm_dist_lsa_barrier_destroy(ncclComm_t comm, cuperm_dist_lsa_barrier_t* b)
{
    if (!b) return;
    ncclDevCommDestroy(comm, &b->dev);
    delete b;
}

extern "C" cudaError_t cuperm_dist_lsa_barrier_launch(const cuperm_dist_lsa_barrier_t* b, cudaStream_t stream)
{
    cuperm::lsa_barrier<<<1, 32, 0, stream>>>(b->dev);
    return cudaGetLastError();
}
