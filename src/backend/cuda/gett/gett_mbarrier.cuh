// Shared-memory mbarriers (sm_90) for the GETT kernels' producer/consumer pipelines: init, arrive,
// wait on a phase's parity, and the two asynchronous arrivals (bytes of bulk copies; a thread's
// cp.async copies).
#ifndef CUPERM_BACKEND_GETT_MBARRIER_CUH
#define CUPERM_BACKEND_GETT_MBARRIER_CUH

#include <stdint.h>

namespace cuperm {
namespace gett {

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
__device__ __forceinline__ unsigned mbar_addr(const void* p) { return (unsigned)__cvta_generic_to_shared(p); }

__device__ __forceinline__ void mbar_init(uint64_t* b, unsigned count)
{
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(mbar_addr(b)), "r"(count) : "memory");
}
__device__ __forceinline__ void mbar_arrive(uint64_t* b)
{
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(mbar_addr(b)) : "memory");
}
// One arrival that also expects `bytes` of bulk copies (cp.async.bulk ... complete_tx) this phase.
__device__ __forceinline__ void mbar_expect(uint64_t* b, unsigned bytes)
{
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(mbar_addr(b)), "r"(bytes) : "memory");
}
// One arrival made when every cp.async this thread issued so far has landed (noinc: the arrival
// counts against the barrier's expected count).
__device__ __forceinline__ void mbar_arrive_cp_async(uint64_t* b)
{
    asm volatile("cp.async.mbarrier.arrive.noinc.shared::cta.b64 [%0];" ::"r"(mbar_addr(b)) : "memory");
}
// Until the phase of this parity has completed (a fresh barrier counts parity 1 as completed).
__device__ __forceinline__ void mbar_wait(uint64_t* b, unsigned parity)
{
    unsigned done = 0;
    while (!done)
        asm volatile("{\n\t.reg .pred p;\n\tmbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n\t"
                     "selp.u32 %0, 1, 0, p;\n\t}"
                     : "=r"(done)
                     : "r"(mbar_addr(b)), "r"(parity)
                     : "memory");
}
#endif

} // namespace gett
} // namespace cuperm

#endif
