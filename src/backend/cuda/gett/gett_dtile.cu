// The D-tile GETT kernel: contractions with a short K (at most 64), whose cost is writing D.
//
// A block (persistent: as many as an SM holds, CTR_DTILE_BLOCKS_PER_SM, walking the tiles) owns
// tm x tn outputs at a time: tm consecutive m and tn consecutive n, with M and N ordered by
// D's strides and the tile made of D's leading modes (plan/contraction/gett_dtile.h), so the
// block's piece of D is contiguous or made of long runs. It
//   1. gathers its A panel (tm x K) and B panel (tn x K) through the offset tables into shared
//      memory, k contiguous, zero past the extents, 16-32 bytes in flight per thread;
//   2. multiplies them with mma.sync.m16n8k16 (fp32 accumulators): the padded tile is split into
//      16 x 8 fragments, at most 8 per warp, each a dot product over the whole K;
//   3. stages alpha x the accumulators in shared memory (over the panels) in lines along D's
//      fastest direction;
//   4. writes D (= staged + beta C) line by line in W-element vectors where the plan found
//      W-aligned contiguous runs along that direction (W = 1: element by element).
// Every element of D (and of C, which may be D) is read and written by one thread once.
// Status: correct, but instruction-bound and slower than TTGT on the H100, so plans take it only
// with CUPERM_GETT_DTILE=1 (bench/results/gett-h100/dtile/).
#include "backend/cuda/gett/gett.h"
#include "backend/cuda/gett/gett_elements.cuh"
#include "core/gett_dtile_shape.h"

#include <stdint.h>

namespace cuperm {
namespace gett {
namespace dtile {

constexpr int THREADS = 256, WARPS = THREADS / 32;
static_assert(CTR_DTILE_FRAGMENTS == 8 * WARPS, "8 fragments a warp");
// Runs of W elements a thread loads before it stores them: 16 or 32 bytes in flight.
template <int W> constexpr int inflight() { return W >= 4 ? 4 : 8; }

// Panel of rowsPad x kp 16-bit elements (row r, k contiguous, ld halves a row) of operand X:
// element (r, c) = X[rowOff[r] + kOff[c]] for r < rows and c < k, else 0. The loads take runs of
// W elements along the operand's fast direction (K when kFast, else the rows), contiguous and
// W-aligned in memory where the plan's run width says so: one vector load each, then W shared
// stores (one 2W-byte store when the run lies along K). Threads walk the runs with additions only
// (a division per element made the kernel issue-bound), inflight<W>() runs loaded before any store.
// W 16-bit elements packed in registers (a short array would take a register per element).
template <int W> struct Run { typedef typename VecOf<2 * W>::type type; };
template <> struct Run<1> { typedef unsigned short type; };

template <typename OFF, int W>
__device__ __forceinline__ void load_panel(unsigned short* P, const unsigned short* X, const OFF* rowOff,
                                           const OFF* kOff, int rows, int rowsPad, int k, int kp, int ld,
                                           bool kFast, int tid)
{
    typedef typename Run<W>::type V;
    // Run q of line `line`: kFast: line = row, q along K; else line = k, q along the rows. The
    // launch makes W divide the valid extent along the runs, so a run is wholly inside or outside.
    const int perLine = (kFast ? kp : rowsPad) / W, lines = kFast ? rowsPad : kp, total = perLine * lines;
    const int dLine = THREADS / perLine, dQ = THREADS % perLine;
    const int rl = kFast, rq = kFast ? 0 : W, cl = !kFast, cq = kFast ? W : 0; // (row, k) = line x (rl, cl) + q x (rq, cq)
    int line = tid / perLine, q = tid % perLine;
    constexpr int INFLIGHT = inflight<W>();
    for (int base = tid; base < total; base += THREADS * INFLIGHT) {
        V v[INFLIGHT];
        int at[INFLIGHT];
#pragma unroll
        for (int u = 0; u < INFLIGHT; ++u) {
            const int r0 = line * rl + q * rq, c0 = line * cl + q * cq;
            at[u] = base + u * THREADS < total ? r0 * ld + c0 : -1;
            v[u] = at[u] >= 0 && r0 < rows && c0 < k ? *reinterpret_cast<const V*>(X + rowOff[r0] + kOff[c0]) : V();
            line += dLine, q += dQ;
            if (q >= perLine) q -= perLine, ++line;
        }
#pragma unroll
        for (int u = 0; u < INFLIGHT; ++u) {
            if (at[u] < 0) continue;
            if (kFast) {
                *reinterpret_cast<V*>(P + at[u]) = v[u];
            } else {
                unsigned short e[W];
                memcpy(e, &v[u], sizeof v[u]);
#pragma unroll
                for (int j = 0; j < W; ++j) P[at[u] + j * ld] = e[j];
            }
        }
    }
}

template <typename OFF>
__device__ __forceinline__ void load_panel_w(int w, unsigned short* P, const unsigned short* X, const OFF* rowOff,
                                             const OFF* kOff, int rows, int rowsPad, int k, int kp, int ld,
                                             bool kFast, int tid)
{
    switch (w) {
    case 8: load_panel<OFF, 8>(P, X, rowOff, kOff, rows, rowsPad, k, kp, ld, kFast, tid); break;
    case 4: load_panel<OFF, 4>(P, X, rowOff, kOff, rows, rowsPad, k, kp, ld, kFast, tid); break;
    case 2: load_panel<OFF, 2>(P, X, rowOff, kOff, rows, rowsPad, k, kp, ld, kFast, tid); break;
    default: load_panel<OFF, 1>(P, X, rowOff, kOff, rows, rowsPad, k, kp, ld, kFast, tid); break;
    }
}

// W staged floats from S into v.
template <int W> __device__ __forceinline__ void staged(const float* S, float (&v)[W])
{
    if constexpr (W >= 4) {
#pragma unroll
        for (int h = 0; h < W; h += 4) {
            const float4 x = *reinterpret_cast<const float4*>(S + h);
            v[h] = x.x, v[h + 1] = x.y, v[h + 2] = x.z, v[h + 3] = x.w;
        }
    } else if constexpr (W == 2) {
        const float2 x = *reinterpret_cast<const float2*>(S);
        v[0] = x.x, v[1] = x.y;
    } else {
        v[0] = S[0];
    }
}

struct Store {
    const float* S; // staging: line s at S + s * pitch
    int pitch, fast, slow, fastValid, slowValid;
    float beta;
    int useBeta;
};

// Writes the tile from the staging: W-element groups along the fast direction, one per thread
// at a time, each one vector (the launch makes W divide the valid extents: no partial groups).
template <typename TD, int W, typename OFF>
__device__ __forceinline__ void write_tile(const Store& t, typename Conv<TD>::raw* D, const OFF* dF, const OFF* dS,
                                           const typename Conv<TD>::raw* C, const OFF* cF, const OFF* cS, int tid)
{
    typedef typename Conv<TD>::raw R;
    const int groups = t.fast / W, total = groups * t.slow, dS_ = THREADS / groups, dG = THREADS % groups;
    int s = tid / groups, gi = tid % groups; // group gi of line s, stepped by additions
    for (int idx = tid; idx < total; idx += THREADS, s += dS_, gi += dG, gi >= groups ? (gi -= groups, ++s) : 0) {
        const int f0 = gi * W;
        if (s >= t.slowValid || f0 >= t.fastValid) continue;
        float v[W];
        staged<W>(t.S + s * t.pitch + f0, v);
        const OFF ds = dS[s];
        if (t.useBeta) {
            const OFF cs = cS[s];
#pragma unroll
            for (int j = 0; j < W; ++j) v[j] += t.beta * Conv<TD>::load(C[cF[f0 + j] + cs]);
        }
        if constexpr (W == 1) {
            D[dF[f0] + ds] = Conv<TD>::store(v[0]);
        } else {
            R y[W];
            Conv<TD>::template store_run<W>(v, y);
            vec_store<R, W>(D + dF[f0] + ds, y);
        }
    }
}

template <typename TAB, typename TD, typename OFF, int MF>
static __global__ void __launch_bounds__(THREADS, CTR_DTILE_BLOCKS_PER_SM)
    kernel(const cuperm_gett_params_t q, const unsigned short* A, const unsigned short* B, const void* C, void* D,
           float alpha, float beta, int useBeta, int wa, int wb, int wd)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    typedef typename Conv<TD>::raw R;
    constexpr int NFT = 8 / MF; // N fragments a warp holds at most
    extern __shared__ __align__(16) unsigned char smem[];
    const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32, g = lane / 4, t4 = lane % 4;
    const int tm = q.dtileM, tn = q.dtileN, kp = q.dtileK, ld = cuperm_ctr_dtile_ld(kp);
    const int rowsM = cuperm_ctr_dtile_rows_m(tm), rowsN = cuperm_ctr_dtile_rows_n(tn);
    unsigned short* As = reinterpret_cast<unsigned short*>(smem);
    unsigned short* Bs = As + rowsM * ld;
    const unsigned* A32 = reinterpret_cast<const unsigned*>(As);
    const unsigned* B32 = reinterpret_cast<const unsigned*>(Bs);
    const int fragsM = rowsM / 16, fragsN = rowsN / 8;
    // The warp grid: M fragments (padded to a power of two) in steps of MF, N in steps of nf.
    const int nf = min(cuperm_ctr_dtile_pow2(fragsN), NFT), warpsN = cuperm_ctr_dtile_pow2(fragsN) / nf;
    const int fm0 = warp / warpsN * MF, fn0 = warp % warpsN * nf;
    const bool mFast = q.dMFast != 0;
    const int pitch = cuperm_ctr_dtile_pitch(mFast ? tm : tn, mFast);
    float* S = reinterpret_cast<float*>(smem);

    const OFF *aK = static_cast<const OFF*>(q.aK), *bK = static_cast<const OFF*>(q.bK);
    // Persistent blocks: each walks work items (tile, batch index), m tiles fastest, so that the
    // per-thread setup above (and the compiler's, hoisted from the loops below) is paid once.
    const long long tiles = (long long)q.mTiles * q.nTiles, items = tiles * q.batch;
    for (long long item = blockIdx.x; item < items; item += gridDim.x) {
        const int l = (int)(item / tiles), tile = (int)(item - l * tiles);
        const int mt = tile % q.mTiles, nt = tile / q.mTiles;
        const int m0 = mt * tm, n0 = nt * tn;
        const int mv = min(tm, q.m - m0), nv = min(tn, q.n - n0);
        const OFF *aM = static_cast<const OFF*>(q.aM) + m0, *bN = static_cast<const OFF*>(q.bN) + n0;
        const OFF *dM = static_cast<const OFF*>(q.dM) + m0, *dN = static_cast<const OFF*>(q.dN) + n0;
        const OFF *cM = static_cast<const OFF*>(q.cM) + m0, *cN = static_cast<const OFF*>(q.cN) + n0;
        load_panel_w<OFF>(wa, As, A + static_cast<const OFF*>(q.aL)[l], aM, aK, mv, rowsM, q.k, kp, ld, q.aKFast != 0,
                          tid);
        load_panel_w<OFF>(wb, Bs, B + static_cast<const OFF*>(q.bL)[l], bN, bK, nv, rowsN, q.k, kp, ld, q.bKFast != 0,
                          tid);
        __syncthreads();

        // Warp (wm, wn) of a WM x WN grid owns MF x NF fragments (16 x 8 each): its A fragments
        // serve all its N fragments, its B fragments all its M fragments.
        float acc[MF][NFT][4];
#pragma unroll
        for (int i = 0; i < MF; ++i)
#pragma unroll
            for (int j = 0; j < NFT; ++j) acc[i][j][0] = acc[i][j][1] = acc[i][j][2] = acc[i][j][3] = 0.0f;
        for (int k0 = 0; k0 < kp; k0 += 16) {
            const int ka = k0 / 2 + t4; // 32-bit word of (k0 + 2 t4) in a row
            // The side with fewer fragments is held in registers, the other streamed past it.
            unsigned bf[NFT][2];
            if constexpr (MF > NFT) {
#pragma unroll
                for (int j = 0; j < NFT; ++j) {
                    const int c = (fn0 + j) * 8 + g;
                    if (j < nf && fn0 + j < fragsN) bf[j][0] = B32[c * ld / 2 + ka], bf[j][1] = B32[c * ld / 2 + ka + 4];
                }
            }
#pragma unroll
            for (int i = 0; i < MF; ++i) {
                if (fm0 + i >= fragsM) continue;
                const int r = (fm0 + i) * 16 + g;
                const unsigned a[4] = {A32[r * ld / 2 + ka], A32[(r + 8) * ld / 2 + ka], A32[r * ld / 2 + ka + 4],
                                       A32[(r + 8) * ld / 2 + ka + 4]};
#pragma unroll
                for (int j = 0; j < NFT; ++j) {
                    if (j >= nf || fn0 + j >= fragsN) continue;
                    if constexpr (MF <= NFT) {
                        const int c = (fn0 + j) * 8 + g;
                        bf[j][0] = B32[c * ld / 2 + ka], bf[j][1] = B32[c * ld / 2 + ka + 4];
                    }
                    mma<TAB>(acc[i][j], a, bf[j][0], bf[j][1]);
                }
            }
        }
        __syncthreads(); // the panels become the staging

#pragma unroll
        for (int i = 0; i < MF; ++i)
#pragma unroll
            for (int j = 0; j < NFT; ++j) {
                if (fm0 + i >= fragsM || j >= nf || fn0 + j >= fragsN) continue;
                const int i0 = (fm0 + i) * 16 + g, j0 = (fn0 + j) * 8 + 2 * t4;
#pragma unroll
                for (int h = 0; h < 2; ++h) { // rows i0, i0 + 8: accumulators (2h, 2h + 1) at columns j0, j0 + 1
                    const int ii = i0 + 8 * h;
                    const float x0 = alpha * acc[i][j][2 * h], x1 = alpha * acc[i][j][2 * h + 1];
                    if (ii >= tm) continue;
                    if (mFast) {
                        if (j0 < tn) S[j0 * pitch + ii] = x0;
                        if (j0 + 1 < tn) S[(j0 + 1) * pitch + ii] = x1;
                    } else if (j0 + 1 < tn) {
                        *reinterpret_cast<float2*>(S + ii * pitch + j0) = make_float2(x0, x1);
                    } else if (j0 < tn) {
                        S[ii * pitch + j0] = x0;
                    }
                }
            }
        __syncthreads();

        const OFF dl = static_cast<const OFF*>(q.dL)[l], cl = useBeta ? static_cast<const OFF*>(q.cL)[l] : OFF(0);
        R* Dl = static_cast<R*>(D) + dl;
        const R* Cl = useBeta ? static_cast<const R*>(C) + cl : nullptr;
        const Store st = {S, pitch, mFast ? tm : tn, mFast ? tn : tm, mFast ? mv : nv, mFast ? nv : mv, beta, useBeta};
        const OFF *dF = mFast ? dM : dN, *dS = mFast ? dN : dM, *cF = mFast ? cM : cN, *cS = mFast ? cN : cM;
        switch (wd) { // D's width along its direction
        case 8: write_tile<TD, 8, OFF>(st, Dl, dF, dS, Cl, cF, cS, tid); break;
        case 4: write_tile<TD, 4, OFF>(st, Dl, dF, dS, Cl, cF, cS, tid); break;
        case 2: write_tile<TD, 2, OFF>(st, Dl, dF, dS, Cl, cF, cS, tid); break;
        default: write_tile<TD, 1, OFF>(st, Dl, dF, dS, Cl, cF, cS, tid); break;
        }
        __syncthreads(); // the staging becomes the next item's panels
    }
#else
    __trap(); // mma.sync needs sm_80; cuperm_gett_available() keeps plans off this path
#endif
}

template <typename TAB, typename TD, typename OFF, int MF>
static cudaError_t launch_mf(const cuperm_gett_params_t* q, const void* A, const void* B, const void* C, void* D,
                             float alpha, float beta, int useBeta, const int w[4], cudaStream_t stream)
{
    auto* k = kernel<TAB, TD, OFF, MF>;
    cudaError_t e = cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, q->smemBytes);
    if (e != cudaSuccess) return e;
    k<<<(unsigned)q->gridBlocks, THREADS, (size_t)q->smemBytes, stream>>>(*q, static_cast<const unsigned short*>(A),
                                                       static_cast<const unsigned short*>(B), C, D, alpha, beta,
                                                       useBeta, w[0], w[1], w[3]);
    return cudaGetLastError();
}

// MF: a warp's M fragments, as many as the tile has (a power of two), at most 8.
template <typename TAB, typename TD, typename OFF>
static cudaError_t launch(const cuperm_gett_params_t* q, const void* A, const void* B, const void* C, void* D,
                          float alpha, float beta, int useBeta, const int w[4], cudaStream_t stream)
{
    switch (cuperm_ctr_dtile_pow2(cuperm_ctr_dtile_rows_m(q->dtileM) / 16)) {
    case 1: return launch_mf<TAB, TD, OFF, 1>(q, A, B, C, D, alpha, beta, useBeta, w, stream);
    case 2: return launch_mf<TAB, TD, OFF, 2>(q, A, B, C, D, alpha, beta, useBeta, w, stream);
    case 4: return launch_mf<TAB, TD, OFF, 4>(q, A, B, C, D, alpha, beta, useBeta, w, stream);
    default: return launch_mf<TAB, TD, OFF, 8>(q, A, B, C, D, alpha, beta, useBeta, w, stream);
    }
}

template <typename TAB, typename TD>
static cudaError_t launch_off(const cuperm_gett_params_t* q, const void* A, const void* B, const void* C, void* D,
                              float alpha, float beta, int useBeta, const int w[4], cudaStream_t stream)
{
    if (q->off32) return launch<TAB, TD, int32_t>(q, A, B, C, D, alpha, beta, useBeta, w, stream);
    return launch<TAB, TD, int64_t>(q, A, B, C, D, alpha, beta, useBeta, w, stream);
}

template <typename TAB>
static cudaError_t launch_cd(const cuperm_gett_params_t* q, const void* A, const void* B, const void* C, void* D,
                             float alpha, float beta, int useBeta, const int w[4], cudaStream_t stream)
{
    if (q->cdType == CUPERM_R_32F) return launch_off<TAB, float>(q, A, B, C, D, alpha, beta, useBeta, w, stream);
    return launch_off<TAB, TAB>(q, A, B, C, D, alpha, beta, useBeta, w, stream);
}

} // namespace dtile
} // namespace gett
} // namespace cuperm

extern "C" cudaError_t cuperm_gett_dtile_launch(const cuperm_gett_params_t* q, const void* A, const void* B,
                                                const void* C, void* D, float alpha, float beta, int useBeta,
                                                cudaStream_t stream)
{
    using namespace cuperm::gett::dtile;
    if ((long long)q->mTiles * q->nTiles == 0 || q->batch == 0 || q->gridBlocks == 0) return cudaSuccess;
    int w[4];
    cuperm_gett_effective_widths(q, A, B, useBeta ? C : nullptr, D, w);
    // Each width lowered until it divides the tile's side along its direction (tiles then start
    // at multiples of it, where the plan's runs start; K runs start at 0 in every tile) and the
    // group's extent (no run or group crosses an edge: the kernel has no partial ones).
    const int sides[4] = {q->aKFast ? q->dtileK : q->dtileM, q->bKFast ? q->dtileK : q->dtileN, 1,
                          q->dMFast ? q->dtileM : q->dtileN};
    const int extents[4] = {q->aKFast ? q->k : q->m, q->bKFast ? q->k : q->n, 1, q->dMFast ? q->m : q->n};
    for (int i = 0; i < 4; ++i)
        while (w[i] > 1 && (sides[i] % w[i] || extents[i] % w[i])) w[i] /= 2;
    if (q->abType == CUPERM_R_16F)
        return launch_cd<__half>(q, A, B, C, D, alpha, beta, useBeta, w, stream);
    return launch_cd<__nv_bfloat16>(q, A, B, C, D, alpha, beta, useBeta, w, stream);
}
