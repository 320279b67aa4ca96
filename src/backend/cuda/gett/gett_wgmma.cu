// The table kernel's Hopper form (wgmma.mma_async, sm_90a), warp-specialised: producer warpgroups
// gather A's and B's tiles (the table kernel's cp.async loads through the offset tables) into a ring
// of stages, two consumer warpgroups multiply them on wgmma and write D. The stages pass between the
// roles on mbarriers, so no warp waits on a block barrier in the main loop; the loads run ahead of
// the multiplies by up to STAGES steps, across the blocks' tiles (persistent blocks walk tiles x
// batch indices); the epilogue stages through its own shared memory, so the producers fill the ring
// for the next tile while the consumers write this one. Session 59's form, where every warp loaded
// and multiplied, was bound by per-step overhead on an H200 (a block barrier, the waits, the loads'
// address arithmetic every 32 k, spills at its two-blocks-an-SM register bound:
// bench/results/gett-h100/wgmma-h200/); this one runs TCCG48 1.14x faster by geomean
// (bench/results/gett-h100/wgmma-ws-h200/), and it is still slower than TTGT.
//
// Block: 512 threads, one an SM. Warpgroups 0 and 1 produce (one alone took 2.3x the time on TCCG 12
// and 20-27: the loads' address arithmetic is the producers' work, and four warps, one a scheduler,
// did not keep up); warpgroups 2 and 3 each own 64 rows x all 128 columns of the 128 x 128 tile (m64n128k16,
// 64 fp32 accumulators a thread). The operand tiles sit in wgmma's canonical layouts (gett_index.h:
// gett_wg_*): k-major tiles in the 64-byte swizzle, mn-major ones in 128-byte-swizzle atoms, read
// through shared-memory descriptors (wgmma transposes mn-major 16-bit operands itself). The epilogue
// writes the mma.sync table kernel's 32 x 32 pieces with its code.
// Stage s: full[s] completes when every producer thread's copies into it have landed (each thread's
// cp.async arrival), empty[s] when every consumer warp's MMAs reading it are done.
//
// Built for sm_90a only (the object library cuperm_gett_wgmma_objs); plans on a compute capability
// 9.0 device take it where the handle asks for it (CUPERM_GETT_WGMMA=1) and no operator is left to
// apply (gett.h: cuperm_gett_wgmma_takes; the table kernel applies those).
#include "backend/cuda/gett/gett_mbarrier.cuh"
#include "backend/cuda/gett/gett_mma.cuh"

namespace cuperm {
namespace gett {
namespace wg {

constexpr int PIPE_ALIGN = 1024; // the 128-byte swizzle's repeat: every tile starts on it
// A's and B's K offsets staged in shared memory after the pipeline, up to this many bytes for both:
// read from global memory, each step's loads waited on an L2 round trip before they could issue
// (46% of the warps' stall cycles on TCCG 20, Nsight Compute on an H200). Steps past the staged
// part read them from global memory.
constexpr int K_TABLE_BYTES = 40 * 1024;

template <typename OFF> __host__ __device__ constexpr int staged_k(int k)
{
    return k < K_TABLE_BYTES / (2 * (int)sizeof(OFF)) ? k : K_TABLE_BYTES / (2 * (int)sizeof(OFF));
}

__device__ __forceinline__ void fence_proxy_async() { asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory"); }
__device__ __forceinline__ void wgmma_fence() { asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory"); }
__device__ __forceinline__ void wgmma_commit() { asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory"); }
template <int N> __device__ __forceinline__ void wgmma_wait()
{
    asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(N) : "memory");
}

// Keeps the compiler from moving accumulator reads or writes across the asynchronous MMAs.
__device__ __forceinline__ void fence_accumulators(float (&d)[64])
{
#pragma unroll
    for (int i = 0; i < 64; ++i) asm volatile("" : "+f"(d[i])::"memory");
}

#define GETT_WGMMA_M64N128K16(PTX_TYPE)                                                                      \
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %66, 0;\n"                                                  \
                 "wgmma.mma_async.sync.aligned.m64n128k16.f32." PTX_TYPE "." PTX_TYPE " "                          \
                 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}, "\
                 "%64, %65, p, 1, 1, %67, %68;\n}\n"                                                             \
                 :                                                                                               \
              "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),\
              "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),\
              "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),\
              "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),\
              "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),\
              "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),\
              "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),\
              "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])                                                                                                  \
                 : "l"(da), "l"(db), "r"(1), "n"(TA ? 1 : 0), "n"(TB ? 1 : 0))
// d += A (64 x 16) B (16 x 128) from the two descriptors; TA / TB: the operand is mn-major.
template <typename TAB, bool TA, bool TB> struct Mma;
template <bool TA, bool TB> struct Mma<__half, TA, TB> {
    static __device__ __forceinline__ void run(float (&d)[64], unsigned long long da, unsigned long long db)
    {
        GETT_WGMMA_M64N128K16("f16");
    }
};
template <bool TA, bool TB> struct Mma<__nv_bfloat16, TA, TB> {
    static __device__ __forceinline__ void run(float (&d)[64], unsigned long long da, unsigned long long db)
    {
        GETT_WGMMA_M64N128K16("bf16");
    }
};
#undef GETT_WGMMA_M64N128K16

// The epilogue's round (0, 1) of 64 columns: warp gw of warpgroup group stages alpha x its 16 rows x
// 64 columns of accumulators into the round's eight 32 x 32 pieces (piece 2 band + half: rows 32 band
// .., columns 64 round + 32 half ..), along D's direction (gett_epi_slot); each warp then writes one.
__device__ __forceinline__ void stage_round(float* staging, const float (&acc)[64], int round, int group, int gw,
                                            int lane, int dMFast, float alpha)
{
    const int band = 2 * group + gw / 2;
#pragma unroll
    for (int j = 0; j < 8; ++j) { // the round's eight-column groups
        float* piece = staging + (2 * band + j / 4) * GETT_EPI_WARP_FLOATS;
#pragma unroll
        for (int v = 0; v < 4; ++v) {
            const int i = 4 * (8 * round + j) + v;
            int r, c;
            gett_wg_acc_pos(gw, lane, i, &r, &c);
            piece[gett_epi_slot(dMFast, r % 32, c % 32)] = alpha * acc[i];
        }
    }
}

constexpr int STAGES = 6;
constexpr int PRODUCERS = 256, CONSUMERS = 256, THREADS = PRODUCERS + CONSUMERS;
// Registers a thread after the roles part (setmaxnreg; the block starts at 65536 / THREADS = 128):
// the producers' loads need few, the consumers' 64 accumulators and epilogue many.
constexpr int PRODUCER_REGISTERS = 72, CONSUMER_REGISTERS = 184;
static_assert(PRODUCERS * PRODUCER_REGISTERS + CONSUMERS * CONSUMER_REGISTERS <= 65536, "one register file");
constexpr int CONSUMER_WARPS = CONSUMERS / 32;
constexpr int PIPE_BYTES = STAGES * GETT_STAGE_BYTES;
constexpr int STAGING_BYTES = CONSUMER_WARPS * GETT_EPI_WARP_FLOATS * 4; // a round's eight 32 x 32 pieces
constexpr int BARRIER_BYTES = 2 * STAGES * 8;
static_assert(GETT_THREADS == PRODUCERS, "a producer thread loads one thread's runs of gett_load_run");
static_assert(CONSUMERS == GETT_BM + GETT_BN, "a consumer thread stages one row or column of C and D");

// The pipeline, the epilogue's staging, the barriers, the K tables.
template <typename OFF> __host__ __device__ constexpr int smem_bytes(int k)
{
    return PIPE_ALIGN + PIPE_BYTES + STAGING_BYTES + BARRIER_BYTES + 2 * staged_k<OFF>(k) * (int)sizeof(OFF);
}
static_assert(smem_bytes<int64_t>(1 << 30) + 6 * 128 * 8 + 1024 <= 227 * 1024, "one block an SM fits");

// Named barriers (0 is __syncthreads): the producers among themselves, the consumers among themselves.
constexpr int PRODUCER_BARRIER = 1, CONSUMER_BARRIER = 2;
__device__ __forceinline__ void named_barrier(int id, int threads)
{
    asm volatile("bar.sync %0, %1;\n" ::"r"(id), "r"(threads) : "memory");
}

// A work item: the block tile (gett_tile_of's order within a batch index) and the batch index.
struct Item {
    int l, m0, n0, rows, cols;
};
__device__ __forceinline__ Item item_of(const cuperm_gett_params_t& q, long long t)
{
    const long long perL = (long long)q.mTiles * q.nTiles;
    int tm, tn;
    gett_tile_of((int)(t % perL), q.mTiles, q.nTiles, &tm, &tn);
    Item it;
    it.l = (int)(t / perL);
    it.m0 = tm * GETT_BM, it.n0 = tn * GETT_BN;
    it.rows = min(GETT_BM, q.m - it.m0), it.cols = min(GETT_BN, q.n - it.n0);
    return it;
}

// A ring position: the stage and the parity of its current phase.
struct Ring {
    int stage = 0;
    unsigned phase = 0;
    __device__ __forceinline__ void next()
    {
        if (++stage == STAGES) stage = 0, phase ^= 1;
    }
};

// A producer thread's share of one operand tile in runs of 8 elements (load_tile_w's, thread tid of
// gett_load_run), with the row offsets and shared-memory places found once a tile: a K step then
// costs a K-table read and an add a run, where load_tile_w re-reads the row table and recomputes
// the places every step (the producers issue every load of the block).
template <bool KMAJ, typename OFF> struct Runs8 {
    static constexpr int W = 8, RUNS = 16 / W;
    OFF off[RUNS]; // k-major: each run's row offset; mn-major: off[0], the thread's row-run's
    int dst[RUNS]; // the run's bytes in the tile
    int kk[RUNS];  // the run's k in the step (k-major: one for all)
    int n[RUNS];   // k-major: W where the row is in the tile, else 0; mn-major: n[0], the row-run's elements in it

    __device__ __forceinline__ void init(const OFF* rowOff, int rows, int tid)
    {
#pragma unroll
        for (int i = 0; i < RUNS; ++i) {
            int row, k;
            gett_load_run(KMAJ, W, tid, i, &row, &k);
            dst[i] = WgTiles::byte(KMAJ, row, k), kk[i] = k;
            if (KMAJ) {
                n[i] = row < rows ? W : 0;
                off[i] = n[i] ? rowOff[row] : OFF(0);
            } else if (i == 0) {
                n[0] = min(max(rows - row, 0), W);
                off[0] = n[0] ? rowOff[row] : OFF(0);
            }
        }
    }
    __device__ __forceinline__ void issue(unsigned tile, const unsigned short* base, const OFF* __restrict__ kTab, int k0,
                                          int K) const
    {
        if (KMAJ) {
            const int k = k0 + kk[0], nk = min(max(K - k, 0), W);
            const OFF ko = nk > 0 ? kTab[k] : OFF(0);
#pragma unroll
            for (int i = 0; i < RUNS; ++i) {
                const int nn = n[i] ? nk : 0;
                load_run<W>(tile + dst[i], base + (nn > 0 ? off[i] + ko : OFF(0)), nn);
            }
        } else {
#pragma unroll
            for (int i = 0; i < RUNS; ++i) {
                const int k = k0 + kk[i], nn = k < K ? n[0] : 0;
                load_run<W>(tile + dst[i], base + (nn > 0 ? off[0] + kTab[k] : OFF(0)), nn);
            }
        }
    }
};

template <typename TAB, bool AK, bool BK, typename OFF>
static __global__ void __launch_bounds__(THREADS, 1)
    kernel(const cuperm_gett_params_t q, const unsigned short* A, const unsigned short* B, const void* C, void* D,
           float alpha, float beta, int useBeta, Widths w)
{
#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
    extern __shared__ unsigned char smemRaw[]; // smem_bytes
    __shared__ OFF sAm[GETT_BM], sBn[GETT_BN], sCm[GETT_BM], sCn[GETT_BN], sDm[GETT_BM], sDn[GETT_BN];
    const unsigned raw = smem_addr(smemRaw);
    unsigned char* smem = smemRaw + ((PIPE_ALIGN - raw % PIPE_ALIGN) % PIPE_ALIGN);
    float* staging = reinterpret_cast<float*>(smem + PIPE_BYTES);
    uint64_t* full = reinterpret_cast<uint64_t*>(smem + PIPE_BYTES + STAGING_BYTES);
    uint64_t* empty = full + STAGES;
    OFF* sK = reinterpret_cast<OFF*>(empty + STAGES);

    const int tid = threadIdx.x;
    const int ks = staged_k<OFF>(q.k);
    for (int i = tid; i < 2 * ks; i += THREADS) sK[i] = i < ks ? tab<OFF>(q.aK)[i] : tab<OFF>(q.bK)[i - ks];
    if (tid == 0) {
        for (int s = 0; s < STAGES; ++s) mbar_init(&full[s], PRODUCERS), mbar_init(&empty[s], CONSUMER_WARPS);
        asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
    }
    __syncthreads(); // the last block-wide barrier: the roles part here

    const long long items = (long long)q.mTiles * q.nTiles * q.batch;
    const int kTiles = (q.k + GETT_BK - 1) / GETT_BK;
    Ring ring;
    if (tid < PRODUCERS) {
        asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;\n" ::"n"(PRODUCER_REGISTERS));
        const OFF* aKs = sK;
        const OFF* bKs = sK + ks;
        for (long long t = blockIdx.x; t < items; t += gridDim.x) {
            const Item it = item_of(q, t);
            named_barrier(PRODUCER_BARRIER, PRODUCERS); // every load of the last item has read sAm, sBn
            if (tid < GETT_BM) sAm[tid] = tid < it.rows ? tab<OFF>(q.aM)[it.m0 + tid] : OFF(0);
            else sBn[tid - GETT_BM] = tid - GETT_BM < it.cols ? tab<OFF>(q.bN)[it.n0 + tid - GETT_BM] : OFF(0);
            named_barrier(PRODUCER_BARRIER, PRODUCERS);
            const unsigned short* Al = A + tab<OFF>(q.aL)[it.l];
            const unsigned short* Bl = B + tab<OFF>(q.bL)[it.l];
            // The tile's K steps into the ring, each stage's loads by load(stage, A's and B's K table, k0).
            auto fill = [&](auto&& load) {
#pragma unroll 1
                for (int kt = 0; kt < kTiles; ++kt, ring.next()) {
                    mbar_wait(&empty[ring.stage], ring.phase ^ 1); // the consumers are done with its last fill
                    const bool staged = (kt + 1) * GETT_BK <= ks || ks == q.k;
                    load(smem + ring.stage * GETT_STAGE_BYTES, staged ? aKs : tab<OFF>(q.aK), staged ? bKs : tab<OFF>(q.bK),
                         kt * GETT_BK);
                    fence_proxy_async(); // this thread's plain shared stores (partial runs, gathers) to wgmma
                    mbar_arrive_cp_async(&full[ring.stage]);
                }
            };
            if (w.a == 8 && w.b == 8) {
                Runs8<AK, OFF> ra;
                Runs8<BK, OFF> rb;
                ra.init(sAm, it.rows, tid);
                rb.init(sBn, it.cols, tid);
                fill([&](unsigned char* st, const OFF* aK, const OFF* bK, int k0) {
                    ra.issue(smem_addr(st), Al, aK, k0, q.k);
                    rb.issue(smem_addr(st + GETT_TILE_BYTES), Bl, bK, k0, q.k);
                });
            } else {
                fill([&](unsigned char* st, const OFF* aK, const OFF* bK, int k0) {
                    load_tile<AK, OFF, 0, WgTiles>(st, Al, sAm, it.rows, aK, k0, q.k, w.a, tid);
                    load_tile<BK, OFF, 0, WgTiles>(st + GETT_TILE_BYTES, Bl, sBn, it.cols, bK, k0, q.k, w.b, tid);
                });
            }
        }
        cp_async_wait<0>(); // no copy outlives its thread
        return;
    }

    // Consumers: warp cw of warpgroup group (rows 64 group ..), warp gw within it.
    asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;\n" ::"n"(CONSUMER_REGISTERS));
    const int ct = tid - PRODUCERS, cw = ct / 32, lane = tid % 32;
    const int group = cw / 4, gw = cw % 4;
    const unsigned pipe = smem_addr(smem);
    const int aAt[2] = {gett_wg_operand_byte(AK, 64 * group, 0), gett_wg_operand_byte(AK, 64 * group, 1)};
    const int bAt[2] = {GETT_TILE_BYTES + gett_wg_operand_byte(BK, 0, 0), GETT_TILE_BYTES + gett_wg_operand_byte(BK, 0, 1)};
    for (long long t = blockIdx.x; t < items; t += gridDim.x) {
        const Item it = item_of(q, t);
        float acc[64];
#pragma unroll
        for (int i = 0; i < 64; ++i) acc[i] = 0.0f;
        int held = -1; // the stage whose MMAs may still be reading it
#pragma unroll 1
        for (int kt = 0; kt < kTiles; ++kt, ring.next()) {
            mbar_wait(&full[ring.stage], ring.phase);
            const unsigned stage = pipe + (unsigned)(ring.stage * GETT_STAGE_BYTES);
            fence_accumulators(acc);
            wgmma_fence();
#pragma unroll
            for (int k16 = 0; k16 < 2; ++k16)
                Mma<TAB, !AK, !BK>::run(acc, gett_wg_desc(stage + aAt[k16], AK), gett_wg_desc(stage + bAt[k16], BK));
            wgmma_commit();
            wgmma_wait<1>(); // the previous step's MMAs are done: its stage goes back to the producer
            fence_accumulators(acc);
            if (held >= 0 && lane == 0) mbar_arrive(&empty[held]);
            held = ring.stage;
        }
        wgmma_wait<0>();
        fence_accumulators(acc);
        if (held >= 0 && lane == 0) mbar_arrive(&empty[held]);

        // C's and D's offsets of this tile (the last item's pieces were all written: the barrier
        // that ended its epilogue), then two rounds of 64 columns (stage_round), each warp then
        // writing piece cw.
        if (ct < GETT_BM) {
            const bool ok = ct < it.rows;
            sCm[ct] = ok ? tab<OFF>(q.cM)[it.m0 + ct] : OFF(0);
            sDm[ct] = ok ? tab<OFF>(q.dM)[it.m0 + ct] : OFF(0);
        } else {
            const int j = ct - GETT_BM;
            const bool ok = j < it.cols;
            sCn[j] = ok ? tab<OFF>(q.cN)[it.n0 + j] : OFF(0);
            sDn[j] = ok ? tab<OFF>(q.dN)[it.n0 + j] : OFF(0);
        }
        const Epi e = {it.rows, it.cols, beta, useBeta, w.c, q.op[2], q.op[3], (float)q.opParam[2], (float)q.opParam[3]};
        const TileOut o = tile_out<OFF>(q, C, D, useBeta, it.l);
#pragma unroll
        for (int round = 0; round < 2; ++round) {
            stage_round(staging, acc, round, group, gw, lane, q.dMFast, alpha);
            named_barrier(CONSUMER_BARRIER, CONSUMERS);
            write_staged_piece<TAB, false>(q, w.d, staging + cw * GETT_EPI_WARP_FLOATS, 32 * (cw / 2),
                                           64 * round + 32 * (cw % 2), e, o, sCm, sCn, sDm, sDn, lane);
            named_barrier(CONSUMER_BARRIER, CONSUMERS); // the pieces (and the tables) are free again
        }
    }
#else
    __trap(); // wgmma needs sm_90a; plans take this kernel on compute capability 9.0 only
#endif
}

template <typename TAB, bool AK, bool BK, typename OFF>
static cudaError_t launch_one(const cuperm_gett_params_t* q, const void* A, const void* B, const void* C, void* D,
                              float alpha, float beta, int useBeta, const Widths& w, cudaStream_t stream)
{
    auto* k = kernel<TAB, AK, BK, OFF>;
    const int smem = smem_bytes<OFF>(q->k);
    cudaError_t e = cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, smem_bytes<OFF>(1 << 30));
    if (e != cudaSuccess) return e;
    k<<<(unsigned)q->gridBlocks, THREADS, smem, stream>>>(*q, static_cast<const unsigned short*>(A),
                                                          static_cast<const unsigned short*>(B), C, D, alpha, beta,
                                                          useBeta, w);
    return cudaGetLastError();
}

template <typename TAB, typename OFF>
static cudaError_t launch_off(const cuperm_gett_params_t* q, const void* A, const void* B, const void* C, void* D,
                              float alpha, float beta, int useBeta, const Widths& w, cudaStream_t stream)
{
    if (q->aKFast && q->bKFast) return launch_one<TAB, true, true, OFF>(q, A, B, C, D, alpha, beta, useBeta, w, stream);
    if (q->aKFast) return launch_one<TAB, true, false, OFF>(q, A, B, C, D, alpha, beta, useBeta, w, stream);
    if (q->bKFast) return launch_one<TAB, false, true, OFF>(q, A, B, C, D, alpha, beta, useBeta, w, stream);
    return launch_one<TAB, false, false, OFF>(q, A, B, C, D, alpha, beta, useBeta, w, stream);
}

template <typename TAB>
static cudaError_t launch_tab(const cuperm_gett_params_t* q, const void* A, const void* B, const void* C, void* D,
                              float alpha, float beta, int useBeta, const Widths& w, cudaStream_t stream)
{
    if (q->off32) return launch_off<TAB, int32_t>(q, A, B, C, D, alpha, beta, useBeta, w, stream);
    return launch_off<TAB, int64_t>(q, A, B, C, D, alpha, beta, useBeta, w, stream);
}

} // namespace wg
} // namespace gett
} // namespace cuperm

extern "C" cudaError_t cuperm_gett_wgmma_launch(const cuperm_gett_params_t* q, const void* A, const void* B,
                                                const void* C, void* D, float alpha, float beta, int useBeta,
                                                cudaStream_t stream)
{
    using namespace cuperm::gett;
    if ((long long)q->mTiles * q->nTiles == 0 || q->batch == 0) return cudaSuccess;
    if (cuperm_gett_has_operators(q)) return cudaErrorNotSupported; // the table kernel applies operators
    if (q->gridBlocks < 1) return cudaErrorInvalidValue;
    int wv[4];
    cuperm_gett_effective_widths(q, A, B, useBeta ? C : nullptr, D, wv);
    const Widths w = {wv[0], wv[1], wv[2], wv[3]};
    if (q->abType == CUPERM_R_16F) return wg::launch_tab<__half>(q, A, B, C, D, alpha, beta, useBeta, w, stream);
    return wg::launch_tab<__nv_bfloat16>(q, A, B, C, D, alpha, beta, useBeta, w, stream);
}

extern "C" int cuperm_gett_wgmma_built(void) { return 1; }
