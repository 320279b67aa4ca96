// The skinny GETT kernel's tile shape and epilogue (gett_skinny.cu): alpha x a 128-row tile of
// up to 32 columns, staged in shared memory, goes out with consecutive threads along D's
// contiguous direction (write_tile), or, for a split tile whose C and D take 8-element vectors
// along beta, run by run (write_runs); C read by the thread that writes D, so C may be D.
#ifndef CUPERM_BACKEND_GETT_SKINNY_EPILOGUE_CUH
#define CUPERM_BACKEND_GETT_SKINNY_EPILOGUE_CUH

#include "backend/cuda/gett/gett_mma.cuh"

namespace cuperm {
namespace gett {
namespace skinny {

constexpr int BM = GETT_BM, BK = GETT_BK, NP = CUPERM_GETT_SKINNY_MAX_N;
constexpr int EPI_PITCH = BM + 4; // staging floats per column (M fast) or ...
constexpr int EPI_PITCH_N = NP + 8; // ... per row (N fast): at most 2-way conflicts on the accumulator stores
// Split tiles (gett_index.h: gett_split_*): alpha_lo of GETT_SPLIT, beta_lo of q.mSplitB = 1 << fbLog.
static_assert(CUPERM_GETT_SKINNY_SPLIT == GETT_SPLIT && GETT_SPLIT == 1 << GETT_SPLIT_LOG, "one split");
constexpr int RUN = GETT_SPLIT_RUN;
constexpr int EPI_FLOATS_MN = BM * EPI_PITCH_N > NP * EPI_PITCH ? BM * EPI_PITCH_N : NP * EPI_PITCH;
constexpr int EPI_FLOATS = EPI_FLOATS_MN > NP * GETT_SPLIT_PITCH ? EPI_FLOATS_MN : NP * GETT_SPLIT_PITCH;
static_assert(THREADS == 256 && BM == 8 * 16, "8 warps of 16 rows");

// The epilogue's offsets for one tile: the M tables' rows of the tile (dM, cM) and the N tables
// (dN, cN) in shared memory, the batch index's (dL, cL) in registers; C's only with beta.
template <typename OFF> struct TileOffsets {
    const OFF *dM, *cM, *dN, *cN;
    OFF dL, cL;
};

// Writes a staged tile: consecutive threads along D's contiguous direction.
template <typename TCD, bool MF, bool OPS, typename OFF>
__device__ __forceinline__ void write_tile(const float* st, const cuperm_gett_params_t& q, const TileOffsets<OFF>& o,
                                           const Epi& e, void* D, const void* C, int tid)
{
    typedef Conv<TCD> CV;
    typedef typename CV::raw R;
    R* Dl = static_cast<R*>(D) + o.dL;
    const R* Cl = e.useBeta ? static_cast<const R*>(C) + o.cL : nullptr;
    const OFF *dM = o.dM, *cM = o.cM, *dN = o.dN, *cN = o.cN;
    if (MF) { // thread: one row, every 256 / 128 = 2nd column; rows walked along D's run
        const int m = gett_split_walk_row(q.mSplitA > 1, __ffs(q.mSplitB) - 1, tid % BM);
        if (m >= e.rows) return;
        const OFF dm = dM[m], cm = e.useBeta ? cM[m] : OFF(0);
#pragma unroll 4
        for (int n = tid / BM; n < e.cols; n += THREADS / BM) {
            float v = st[n * EPI_PITCH + m];
            if (e.useBeta) v = epi_value<OPS>(v, CV::load(Cl[cm + cN[n]]), e);
            else if (OPS) v = epi_value<OPS>(v, 0.0f, e);
            Dl[dm + dN[n]] = CV::store(v);
        }
    } else { // thread: one column, every 256 / 32 = 8th row
        const int n = tid % NP;
        if (n >= e.cols) return;
        const OFF dn = dN[n], cn = e.useBeta ? cN[n] : OFF(0);
#pragma unroll 4
        for (int m = tid / NP; m < e.rows; m += THREADS / NP) {
            float v = st[m * EPI_PITCH_N + n];
            if (e.useBeta) v = epi_value<OPS>(v, CV::load(Cl[cM[m] + cn]), e);
            else if (OPS) v = epi_value<OPS>(v, 0.0f, e);
            Dl[dM[m] + dn] = CV::store(v);
        }
    }
}

// The staging slot of tile row r, column col when a split tile goes out as runs.
__device__ __forceinline__ int runs_slot(int fbLog, int r, int col)
{
    int a, b;
    gett_split_ab(fbLog, r, &a, &b);
    return gett_split_slot(fbLog, a, b, col);
}

// Writes a split tile staged by runs_slot: a thread a run of RUN beta (one vector of D, and of C,
// both RUN-aligned: q.vecC and q.vecD, the pointers' alignment checked at launch) at a time,
// consecutive threads along beta then alpha then columns. Runs are whole: M, a multiple of 64,
// ends at a tile boundary or mid-tile between alpha_hi digits.
template <typename TCD, bool OPS, typename OFF>
__device__ __forceinline__ void write_runs(const float* st, const cuperm_gett_params_t& q, const TileOffsets<OFF>& o,
                                           const Epi& e, void* D, const void* C, int tid)
{
    typedef typename Conv<TCD>::raw R;
    R* Dl = static_cast<R*>(D) + o.dL;
    const R* Cl = e.useBeta ? static_cast<const R*>(C) + o.cL : nullptr;
    const int fbLog = __ffs(q.mSplitB) - 1, runs = BM / RUN * e.cols;
#pragma unroll 1
    for (int i = tid; i < runs; i += THREADS) {
        int col, a, b;
        gett_split_run(fbLog, i, &col, &a, &b);
        const int m = gett_split_row(fbLog, a, b);
        if (m >= e.rows) continue;
        float v[RUN];
        staged_run<RUN>(st + gett_split_slot(fbLog, a, b, col), v);
        vector_run<TCD, RUN, true, OPS>(v, m, col, e, Dl, Cl, o.cM, o.cN, o.dM, o.dN);
    }
}

} // namespace skinny
} // namespace gett
} // namespace cuperm

#endif
