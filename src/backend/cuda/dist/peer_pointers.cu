#include <nccl_device.h>

#include "backend/cuda/dist/peer_pointers.h"

namespace cuperm {

static __global__ void peer_pointers(ncclWindow_t win, int n, void** out)
{
    const int r = (int)(blockIdx.x * blockDim.x + threadIdx.x);
    if (r < n) out[r] = ncclGetPeerPointer(win, 0, r);
}

} // namespace cuperm

extern "C" int cuperm_dist_lsa_ranks(ncclComm_t comm)
{
    return ncclTeamLsa(comm).nRanks;
}

extern "C" cudaError_t cuperm_dist_peer_pointers_launch(ncclWindow_t win, int n, void** out, cudaStream_t stream)
{
    const int threads = 128;
    cuperm::peer_pointers<<<(unsigned)((n + threads - 1) / threads), threads, 0, stream>>>(win, n, out);
    return cudaGetLastError();
}
