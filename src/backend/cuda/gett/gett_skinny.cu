// GETT for a skinny side: N of at most 32 (B of at most 32 x 512 elements), the table kernel's
// offset tables, so any strides of A, B, C and D.
//
// Such a contraction moves A and D and little else (TCCG 1-8: D[m, 24] = A[m, k] B[k, 24] with
// m of 10^5-10^6): it is bound by memory, and the table kernel's 128 x 128 tiles spend 4/5 of
// their work on columns that do not exist. Here B stays in shared memory for the whole run (it is
// loaded once a block, k contiguous, rows padded to an odd number of 16-byte chunks so that
// ldmatrix meets no bank conflicts), and persistent blocks stream A through a 4-stage cp.async
// ring of 128 x 32 tiles that runs across tile boundaries: the loads of the next tile's first
// steps are in flight while this tile's last steps multiply and its outputs go out. A tile's loads
// are the table kernel's (load_tile: vector runs along A's contiguous direction, element gathers
// elsewhere); each of the 8 warps multiplies 16 rows by the 32 columns (mma.sync m16n8k16, fp32
// accumulators: 16 registers). The epilogue (gett_skinny_epilogue.cuh) stages alpha x the tile in
// shared memory and writes it along D's contiguous direction, C read by the same thread (C may be
// D). Where A's and D's unit-stride modes are different M modes, the plan's M order leads with 8
// of A's and 8 or 16 of D's (gett_index.h: gett_split_*), so that a tile reads A in runs and
// writes D in runs, as 16-byte vectors where D's and C's strides allow.
//
// Operators: opA over each landed A tile (the table kernel's tile_op), opB as B is loaded, opC and
// opD in the epilogue. Batched modes: items are (batch index, M tile); a block reloads B when its
// next item has another batch index.
#include "backend/cuda/gett/gett_skinny_epilogue.cuh"

namespace cuperm {
namespace gett {
namespace skinny {

// A's loads ask L2 for 128 bytes a miss: a tile's runs along A are 16-64 bytes, the rest of the line
// is the next tile's (TCCG 1-8 on an H200: 2-8% faster than without).
constexpr int L2_FETCH = 128;

// K padded to the A tiles' depth: the products of a tile's last step read B that far.
__host__ __device__ constexpr int kp_of(int k) { return (k + BK - 1) / BK * BK; }

// Bytes per row of the resident B: K padded, plus 16 bytes (an odd count of 16-byte chunks).
__host__ __device__ constexpr int b_pitch(int k) { return (kp_of(k) + 8) * 2; }

// A's offsets staged in shared memory (8 bytes each, either offset width): the K table once a block,
// each step's tile rows a step before its loads; their global reads would stall every load issue.
// Likewise D's and C's N tables, read by every element the epilogue writes, and their M rows of a
// tile, a ring slot a stage: copied with the loads of the tile's last step by the threads the A rows
// leave idle, so they land with it (read into registers at that step, they stalled its warps at
// the store and the block at the epilogue's barrier: 14% and 21% of TCCG 6's stall samples).
// The regions whose size does not depend on K first, at constant offsets (no registers for their
// addresses: the kernel is at its register bound); then B's rows and the K table.
constexpr int SM_STAGE = GETT_STAGES * GETT_TILE_BYTES;      // GETT_STAGES A tiles
constexpr int SM_ROWS = SM_STAGE + EPI_FLOATS * 4;           // after the epilogue's staging: a row slot a stage
constexpr int SM_DN = SM_ROWS + GETT_STAGES * BM * 8;        // D's N table, then C's
constexpr int SM_DM = SM_DN + 2 * NP * 8;                    // D's rows of a tile a stage, then C's
constexpr int SM_B = SM_DM + 2 * GETT_STAGES * BM * 8;       // B's NP rows of K, then A's K table
static_assert(SM_B % 16 == 0, "B's rows 16-byte aligned (ldmatrix)");

__host__ constexpr int smem_bytes(int k) { return SM_B + NP * b_pitch(k) + kp_of(k) * 8; }
// The blocks an SM of the persistent grid fit in Hopper's 228 KB of shared memory an SM (1 KB a
// block reserved) at the largest K.
static_assert(CUPERM_GETT_SKINNY_BLOCKS_PER_SM * (smem_bytes(CUPERM_GETT_SKINNY_MAX_K) + 1024) <= 228 * 1024,
              "the skinny kernel's blocks an SM fit in shared memory");

// B(k, n) of batch index l into the resident rows (n, k), k contiguous; zeros past K and N (the
// products of padded k meet zeros on both sides: the A tiles are zero-filled there too).
template <typename TAB, typename OFF, bool OPS>
__device__ __forceinline__ void load_b(unsigned char* sB, int pitch, const cuperm_gett_params_t& q,
                                       const unsigned short* B, int l, int tid)
{
    typedef Conv<TAB> CV;
    const unsigned short* Bl = B + static_cast<const OFF*>(q.bL)[l];
    const OFF* bK = static_cast<const OFF*>(q.bK);
    const OFF* bN = static_cast<const OFF*>(q.bN);
    const int kp = kp_of(q.k);
    const bool op = OPS && q.op[1] != CUPERM_OP_IDENTITY;
    // Element gathers, 8 in flight a thread; (n, k) of element tid + i * THREADS stepped, not divided,
    // and stepped again for the stores (arrays of them would cost registers the kernel lacks).
    int n = tid / kp, k = tid - n * kp;
#pragma unroll 1
    while (n < NP) {
        unsigned short v[8];
        const int n0 = n, k0 = k;
#pragma unroll
        for (int j = 0; j < 8; ++j) {
            v[j] = n < q.n && k < q.k ? __ldg(Bl + bK[k] + bN[n]) : (unsigned short)0;
            for (k += THREADS; k >= kp; k -= kp) ++n;
        }
        n = n0, k = k0;
#pragma unroll
        for (int j = 0; j < 8; ++j) {
            if (n >= NP) break;
            if (op && n < q.n && k < q.k) v[j] = CV::store(op_value(q.op[1], (float)q.opParam[1], CV::load(v[j])));
            *reinterpret_cast<unsigned short*>(sB + n * pitch + 2 * k) = v[j];
            for (k += THREADS; k >= kp; k -= kp) ++n;
        }
    }
}

// The block's items: a contiguous range of (batch index, M tile) pairs, so that a block changes
// batch index (and reloads B) as rarely as possible. A cursor walks them a step (32 of K) at a time,
// dividing once an item (a 64-bit division per step cost more than the step's loads).
struct Walk {
    long long first, count;
    int kTiles, mTiles;
};

template <typename OFF> struct Cursor {
    long long j;   // the item (0 .. count - 1 of the block's)
    int kt, stage; // its step of K; the pipeline buffer of this step
    int l, tm;     // its batch index and M tile
    OFF base;      // the cursor's operand's offset at batch index l (the loads' A, the products' D),
                   // read an item ahead of its use (the offset width: registers are at the bound)
    __device__ void at_item(const Walk& wk, const OFF* lTab)
    {
        if (j >= wk.count) return;
        const long long it = wk.first + j;
        l = (int)(it / wk.mTiles);
        tm = (int)(it - (long long)l * wk.mTiles);
        base = lTab[l];
    }
    __device__ void start(const Walk& wk, const OFF* lTab)
    {
        j = 0, kt = 0, stage = 0;
        at_item(wk, lTab);
    }
    __device__ void next(const Walk& wk, const OFF* lTab)
    {
        stage = stage + 1 == GETT_STAGES ? 0 : stage + 1;
        if (++kt == wk.kTiles) {
            kt = 0, ++j;
            at_item(wk, lTab);
        }
    }
};

// One M table's entry of tile row r into its slot (0 past M) by a cp.async of the current group.
template <typename OFF>
__device__ __forceinline__ void copy_row(OFF* slot, const void* table, int m, bool ok)
{
    const OFF* src = static_cast<const OFF*>(table) + (ok ? m : 0);
    cp_async<(int)sizeof(OFF)>(smem_addr(slot), src, ok ? (int)sizeof(OFF) : 0);
}

// The A tile of the step at cursor c into its buffer (nothing past the block's items), and at its
// item's last step the tile's D rows (C's with beta) into their slots of the stage, then advances c.
template <bool AK, typename OFF>
__device__ __forceinline__ void issue(unsigned char* pipe, const Walk& wk, Cursor<OFF>& c, const cuperm_gett_params_t& q,
                                      const unsigned short* A, const OFF* sRows, const OFF* sK, OFF* sDM, int useBeta,
                                      int wa, int tid)
{
    if (c.j < wk.count) {
        const int m0 = c.tm * BM;
        load_tile<AK, OFF, L2_FETCH>(pipe + c.stage * GETT_TILE_BYTES, A + c.base, sRows + c.stage * BM,
                      min(BM, q.m - m0), sK, c.kt * BK, q.k, wa, tid);
        if (c.kt == wk.kTiles - 1 && tid >= BM) {
            const int r = tid - BM, m = m0 + r;
            copy_row<OFF>(sDM + c.stage * BM + r, q.dM, m, m < q.m);
            if (useBeta) copy_row<OFF>(sDM + (GETT_STAGES + c.stage) * BM + r, q.cM, m, m < q.m);
        }
    }
    cp_async_commit(); // one group per step, empty past the end: the waits count steps
    c.next(wk, static_cast<const OFF*>(q.aL));
}

// The M tile of the steps whose A rows are staged: row offsets depend on the item's M tile alone.
// The rows of step s go into slot s % GETT_STAGES of the row ring by a cp.async issued with step
// s - ROW_LEAD's group (ROW_LEAD = 2 GETT_STAGES - 2: that group has landed, and a barrier passed,
// when step s's loads are issued; the slot was last read when step s - GETT_STAGES's loads were
// issued, before the barrier that precedes the copy). So no thread waits for a row offset: a
// global load into a register, stored a step later, stalled every warp at the store (TCCG 6 on an
// H200: 27% of the stall samples) and then the whole block at the epilogue's barrier.
constexpr int ROW_LEAD = 2 * GETT_STAGES - 2;

struct RowCursor {
    long long j; // the item (0 .. count - 1 of the block's)
    int kt, tm;  // its step of K and M tile
    __device__ void start(const Walk& wk)
    {
        j = 0, kt = 0;
        tm = (int)(wk.first % wk.mTiles);
    }
    __device__ void next(const Walk& wk)
    {
        if (++kt == wk.kTiles) {
            kt = 0, ++j;
            if (++tm == wk.mTiles) tm = 0;
        }
    }
    // Row tid's A offset (0 past the block's items and M) into its slot, synchronously (prologue)
    // or as a cp.async of the current group.
    template <typename OFF>
    __device__ __forceinline__ void store(const Walk& wk, const cuperm_gett_params_t& q, OFF* slot, int tid) const
    {
        const int m = tm * BM + tid;
        if (tid < BM) slot[tid] = j < wk.count && m < q.m ? static_cast<const OFF*>(q.aM)[m] : OFF(0);
    }
    template <typename OFF>
    __device__ __forceinline__ void copy(const Walk& wk, const cuperm_gett_params_t& q, OFF* slot, int tid) const
    {
        const int m = tm * BM + tid;
        if (tid < BM) copy_row<OFF>(slot + tid, q.aM, m, j < wk.count && m < q.m);
    }
};

template <typename TAB, bool AK, typename OFF, bool OPS>
static __global__ void __launch_bounds__(THREADS, CUPERM_GETT_SKINNY_BLOCKS_PER_SM)
    kernel(const cuperm_gett_params_t q, const unsigned short* A, const unsigned short* B, const void* C, void* D,
           float alpha, float beta, int useBeta, Widths w)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    extern __shared__ __align__(128) unsigned char smem[];
    unsigned char* pipe = smem;
    unsigned char* sB = smem + SM_B;
    const int pitch = b_pitch(q.k);
    float* st = reinterpret_cast<float*>(smem + SM_STAGE);
    OFF* sRows = reinterpret_cast<OFF*>(smem + SM_ROWS);
    OFF *sDN = reinterpret_cast<OFF*>(smem + SM_DN), *sCN = sDN + NP;
    OFF* sDM = reinterpret_cast<OFF*>(smem + SM_DM); // GETT_STAGES slots of D's rows, then of C's
    OFF* sK = reinterpret_cast<OFF*>(sB + NP * pitch);

    const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
    const long long items = (long long)q.mTiles * q.batch;
    Walk wk;
    wk.first = items * blockIdx.x / gridDim.x;
    wk.count = items * (blockIdx.x + 1) / gridDim.x - wk.first;
    wk.kTiles = (q.k + BK - 1) / BK;
    wk.mTiles = q.mTiles;
    if (wk.count == 0) return;

    // Cursors: the products' (c), the loads' (GETT_STAGES - 1 steps ahead) and the row offsets'
    // (ROW_LEAD steps ahead: the first GETT_STAGES steps' rows are stored before the first loads,
    // the next ones' once those loads have read their slots, then one step's a loop iteration).
    Cursor<OFF> in, c;
    RowCursor rows;
    const OFF *aL = static_cast<const OFF*>(q.aL), *dL = static_cast<const OFF*>(q.dL);
    in.start(wk, aL);
    c.start(wk, dL);
    rows.start(wk);
    for (int i = tid; i < q.k; i += THREADS) sK[i] = static_cast<const OFF*>(q.aK)[i];
    if (tid < q.n) {
        sDN[tid] = static_cast<const OFF*>(q.dN)[tid];
        if (useBeta) sCN[tid] = static_cast<const OFF*>(q.cN)[tid];
    }
    for (int s = 0; s < GETT_STAGES; ++s, rows.next(wk)) rows.store<OFF>(wk, q, sRows + s * BM, tid);
    __syncthreads();
#pragma unroll
    for (int s = 0; s < GETT_STAGES - 1; ++s) issue<AK, OFF>(pipe, wk, in, q, A, sRows, sK, sDM, useBeta, w.a, tid);
    __syncthreads(); // steps 0 .. GETT_STAGES - 3's slots are read
    for (int s = GETT_STAGES; s < ROW_LEAD; ++s, rows.next(wk)) rows.store<OFF>(wk, q, sRows + (s % GETT_STAGES) * BM, tid);
    load_b<TAB, OFF, OPS>(sB, pitch, q, B, c.l, tid); // ordered before its readers by the first step's barrier

    // ldmatrix lane addresses: A rows warp * 16.. (k 0 and 16 of a stage), B columns 0.. (k 0).
    int aLd[2], bLd;
    for (int ks = 0; ks < 2; ++ks) {
        int row, k;
        gett_ldsm_lane(0, AK, lane, warp * 16, ks * 16, &row, &k);
        aLd[ks] = gett_tile_byte(AK, row, k);
    }
    {
        int row, k;
        gett_ldsm_lane(1, 1, lane, 0, 0, &row, &k);
        bLd = row * pitch + 2 * k;
    }
    const unsigned pipeAddr = smem_addr(pipe), bAddr = smem_addr(sB) + bLd;
    const bool inputOps = OPS && q.op[0] != CUPERM_OP_IDENTITY;
    const bool f32 = q.cdType == CUPERM_R_32F;
    const bool runs = q.mSplitA > 1 && w.d >= RUN && (!useBeta || w.c >= RUN); // write_runs
    const int fbLog = __ffs(q.mSplitB) - 1;

    float acc[4][4];
#pragma unroll
    for (int nt = 0; nt < 4; ++nt)
#pragma unroll
        for (int v = 0; v < 4; ++v) acc[nt][v] = 0.0f;

#pragma unroll 1
    while (c.j < wk.count) {
        cp_async_wait<GETT_STAGES - 2>(); // this step has landed (this thread's copies) ...
        __syncthreads();                  // ... everyone's; everyone is done with the last step's buffer
        unsigned char* tile = pipe + c.stage * GETT_TILE_BYTES;
        if (inputOps) {
            tile_op<TAB, AK>(tile, c.kt * BK, q.k, q.op[0], (float)q.opParam[0], tid);
            __syncthreads();
        }
        // step c + ROW_LEAD's rows into the slot of step c + 2 (its loads went out last iteration),
        // in the group of the loads issued next
        rows.copy<OFF>(wk, q, sRows + ((c.stage + ROW_LEAD) % GETT_STAGES) * BM, tid);
        rows.next(wk);
        issue<AK, OFF>(pipe, wk, in, q, A, sRows, sK, sDM, useBeta, w.a, tid);
        const bool last = c.kt == wk.kTiles - 1;               // the item's last step: its tile goes out

        const unsigned stage = pipeAddr + (unsigned)(c.stage * GETT_TILE_BYTES);
#pragma unroll
        for (int ks = 0; ks < 2; ++ks) {
            unsigned af[4], bf[2][4];
            ldsm_x4<!AK>(af, stage + aLd[ks]);
            const unsigned kb = (unsigned)(2 * (c.kt * BK + ks * 16));
            ldsm_x4<false>(bf[0], bAddr + kb);
            ldsm_x4<false>(bf[1], bAddr + kb + 16 * pitch);
#pragma unroll
            for (int nt = 0; nt < 4; ++nt) mma<TAB>(acc[nt], af, bf[nt / 2][(nt % 2) * 2], bf[nt / 2][(nt % 2) * 2 + 1]);
        }

        if (last) { // stage alpha x acc, write the tile
#pragma unroll
            for (int nt = 0; nt < 4; ++nt)
#pragma unroll
                for (int v = 0; v < 4; ++v) {
                    int r, col;
                    gett_acc_pos(lane, 0, nt, v, &r, &col);
                    r += warp * 16;
                    st[runs ? runs_slot(fbLog, r, col)
                            : q.dMFast ? col * EPI_PITCH + r : r * EPI_PITCH_N + col] = alpha * acc[nt][v];
                    acc[nt][v] = 0.0f;
                }
            __syncthreads(); // the staging is whole; every warp is done with B
            const int l = c.l, m0 = c.tm * BM;
            // built here from kernel parameters (constant memory), not held in registers across the loop
            const Epi e = {min(BM, q.m - m0), q.n, beta, useBeta, w.c, q.op[2], q.op[3], (float)q.opParam[2],
                           (float)q.opParam[3]};
            const OFF* dRows = sDM + c.stage * BM; // landed with this step's A tile
            const TileOffsets<OFF> o = {dRows, dRows + GETT_STAGES * BM, sDN, sCN, c.base,
                                        useBeta ? static_cast<const OFF*>(q.cL)[l] : OFF(0)};
            if (runs) {
                if (f32) write_runs<float, OPS, OFF>(st, q, o, e, D, C, tid);
                else write_runs<TAB, OPS, OFF>(st, q, o, e, D, C, tid);
            } else if (f32) {
                if (q.dMFast) write_tile<float, true, OPS, OFF>(st, q, o, e, D, C, tid);
                else write_tile<float, false, OPS, OFF>(st, q, o, e, D, C, tid);
            } else {
                if (q.dMFast) write_tile<TAB, true, OPS, OFF>(st, q, o, e, D, C, tid);
                else write_tile<TAB, false, OPS, OFF>(st, q, o, e, D, C, tid);
            }
            c.next(wk, dL);
            // The next item's B, ordered before its readers by the next barrier; the staging's
            // next writer also comes after that barrier.
            if (c.j < wk.count && c.l != l) load_b<TAB, OFF, OPS>(sB, pitch, q, B, c.l, tid);
        } else {
            c.next(wk, dL);
        }
    }
    cp_async_wait<0>();
#else
    __trap(); // mma.sync, ldmatrix and cp.async need sm_80 (cuperm_gett_available())
#endif
}

template <typename TAB, bool AK, typename OFF, bool OPS>
static cudaError_t launch_one(const cuperm_gett_params_t* q, const void* A, const void* B, const void* C, void* D,
                              float alpha, float beta, int useBeta, const Widths& w, cudaStream_t stream)
{
    auto* k = kernel<TAB, AK, OFF, OPS>;
    const int bytes = smem_bytes(q->k);
    cudaError_t e = cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes);
    if (e != cudaSuccess) return e;
    k<<<q->gridBlocks, THREADS, bytes, stream>>>(*q, static_cast<const unsigned short*>(A),
                                                 static_cast<const unsigned short*>(B), C, D, alpha, beta, useBeta, w);
    return cudaGetLastError();
}

template <typename TAB, typename OFF, bool OPS>
static cudaError_t launch_ak(const cuperm_gett_params_t* q, const void* A, const void* B, const void* C, void* D,
                             float alpha, float beta, int useBeta, const Widths& w, cudaStream_t stream)
{
    if (q->aKFast) return launch_one<TAB, true, OFF, OPS>(q, A, B, C, D, alpha, beta, useBeta, w, stream);
    return launch_one<TAB, false, OFF, OPS>(q, A, B, C, D, alpha, beta, useBeta, w, stream);
}

template <typename TAB, bool OPS>
static cudaError_t launch_off(const cuperm_gett_params_t* q, const void* A, const void* B, const void* C, void* D,
                              float alpha, float beta, int useBeta, const Widths& w, cudaStream_t stream)
{
    if (q->off32) return launch_ak<TAB, int32_t, OPS>(q, A, B, C, D, alpha, beta, useBeta, w, stream);
    return launch_ak<TAB, int64_t, OPS>(q, A, B, C, D, alpha, beta, useBeta, w, stream);
}

template <bool OPS>
static cudaError_t launch_types(const cuperm_gett_params_t* q, const void* A, const void* B, const void* C, void* D,
                                float alpha, float beta, int useBeta, const Widths& w, cudaStream_t stream)
{
    if (q->abType == CUPERM_R_16F) return launch_off<__half, OPS>(q, A, B, C, D, alpha, beta, useBeta, w, stream);
    return launch_off<__nv_bfloat16, OPS>(q, A, B, C, D, alpha, beta, useBeta, w, stream);
}

} // namespace skinny
} // namespace gett
} // namespace cuperm

extern "C" cudaError_t cuperm_gett_skinny_launch(const cuperm_gett_params_t* q, const void* A, const void* B,
                                                 const void* C, void* D, float alpha, float beta, int useBeta,
                                                 cudaStream_t stream)
{
    using namespace cuperm::gett;
    if ((long long)q->mTiles * q->batch == 0 || q->gridBlocks < 1) return cudaSuccess;
    int wv[4];
    cuperm_gett_effective_widths(q, A, B, useBeta ? C : nullptr, D, wv);
    const Widths w = {wv[0], wv[1], wv[2], wv[3]};
    if (cuperm_gett_has_operators(q))
        return skinny::launch_types<true>(q, A, B, C, D, alpha, beta, useBeta, w, stream);
    return skinny::launch_types<false>(q, A, B, C, D, alpha, beta, useBeta, w, stream);
}
