// WHOLE_DIMS: tiles of whole dimensions (plan/transpose/whole_dims.h). Each block builds the
// tile's tables once (cuperm_whole_dims_entry: input offsets in input order, output offsets
// and source slots in output order), then walks tiles in turn: every thread loads up to
// eight elements along the input's contiguous runs into shared memory, slot k holding
// input element k, and stores up to eight along the output's, reading slot[j]. So both
// passes move the runs of their own side, however short each side's fastest dimension.
#include "backend/cuda/transpose/tile_kernel.cuh"

namespace cuperm {

constexpr int kWholeDimsItems = CUPERM_WHOLE_DIMS_MAX_VOLUME / kTileThreads;

// Where slot s lives in shared memory: its 128-byte bank row keeps it, its place in the row is
// XORed with the row number's digits in the same base. The write pass reads slots a fixed
// stride apart (the output-fastest dimension's place in input order, 16 or 256 for 16^6):
// unswizzled, a warp's 8-byte reads 16 elements apart all hit one bank (16^6 ran at 74% of
// copy against the tile kernels' 96). Within each row this is a bijection.
template <typename T>
__device__ __forceinline__ int swizzle(int s)
{
    constexpr int lg = sizeof(T) >= 16 ? 3 : sizeof(T) == 8 ? 4 : sizeof(T) == 4 ? 5 : sizeof(T) == 2 ? 6 : 7;
    return s ^ (((s >> lg) ^ (s >> (2 * lg)) ^ (s >> (3 * lg))) & ((1 << lg) - 1));
}

template <typename Op>
__global__ void __launch_bounds__(kTileThreads)
whole_dims_kernel(const cuperm_tile_params_t p, const cuperm_tile_divs_t dv, const typename Op::value_type* __restrict__ in,
              typename Op::value_type* __restrict__ out, Op op)
{
    using T = typename Op::value_type;
    extern __shared__ __align__(16) unsigned char smem[];
    const int v = (int)p.a_volume;
    const bool split = p.wd_split >= 0;
    // Layout (cuperm_whole_dims_smem_bytes): tile (swizzled), in_off, out_off, slot[, in_split, out_split].
    T* tile = reinterpret_cast<T*>(smem);
    const size_t tile_bytes = (size_t)cuperm_whole_dims_tile_elems(v, (int)sizeof(T)) * sizeof(T);
    int32_t* in_off = reinterpret_cast<int32_t*>(smem + (tile_bytes + 15) / 16 * 16);
    int32_t* out_off = in_off + v;
    uint16_t* slot = reinterpret_cast<uint16_t*>(out_off + v);
    uint16_t* in_split = slot + v;
    uint16_t* out_split = in_split + v;
    for (int k = threadIdx.x; k < v; k += kTileThreads) {
        uint32_t io, is, oo, s, os;
        cuperm_whole_dims_entry(&p, &dv, (uint32_t)k, &io, &is, &oo, &s, &os);
        in_off[k] = (int32_t)io;
        out_off[k] = (int32_t)oo;
        slot[k] = (uint16_t)s;
        if (split) {
            in_split[k] = (uint16_t)is;
            out_split[k] = (uint16_t)os;
        }
    }
    __syncthreads();
    for (int64_t t = blockIdx.x; t < p.num_tiles; t += gridDim.x) {
        int64_t in_base, out_base;
        cuperm_group_offsets(p.dim, dv.dim, p.a_end, p.rank, t, &in_base, &out_base);
        const int64_t len = cuperm_whole_dims_split_len(&p, &dv, t); // the split's chunk may be short
        T r[kWholeDimsItems];
#pragma unroll
        for (int i = 0; i < kWholeDimsItems; ++i) {
            const int k = threadIdx.x + i * kTileThreads;
            if (k < v && (!split || in_split[k] < len)) r[i] = in[in_base + in_off[k]];
        }
#pragma unroll
        for (int i = 0; i < kWholeDimsItems; ++i) {
            const int k = threadIdx.x + i * kTileThreads;
            if (k < v && (!split || in_split[k] < len)) tile[swizzle<T>(k)] = r[i];
        }
        __syncthreads();
        if constexpr (Op::kMovesBits) {
#pragma unroll
            for (int i = 0; i < kWholeDimsItems; ++i) {
                const int j = threadIdx.x + i * kTileThreads;
                if (j < v && (!split || out_split[j] < len)) {
                    T* o = out + out_base + out_off[j];
                    *o = op(tile[swizzle<T>(slot[j])], o);
                }
            }
        } else {
            store_run<kWholeDimsItems>(
                op, [&](int i) { return out + out_base + out_off[threadIdx.x + i * kTileThreads]; },
                [&](int i) { return tile[swizzle<T>(slot[threadIdx.x + i * kTileThreads])]; },
                [&](int i) {
                    const int j = threadIdx.x + i * kTileThreads;
                    return j < v && (!split || out_split[j] < len);
                });
        }
        __syncthreads(); // the tile is refilled by the next one
    }
}

// The span form (cuperm_tile_params_t.wd_span; core/index_math.h: cuperm_span_*): every tile is one
// contiguous span on both sides. The read pass copies it by aligned 16-byte vectors into shared memory
// as it lies in the input (the partial granules at its ends element by element); the write pass builds
// each aligned 16-byte granule of the output span from the elements the slots name and stores it whole
// (its partial granules element by element). So 1- and 2-byte elements move 16 bytes an access on both
// sides, where the kernel above moves one element (batches of small transposes ran at 5-12% of copy).
// Two copies of the span: a block issues the next tile's loads before it writes the current tile out
// and stores them into the other copy after, one barrier a tile. Both copies and the slots are skewed
// (cuperm_span_skew) so that the write pass's strided reads spread over the banks.
// Granules a thread loads into registers at once: 16 KB spans less a granule for the head
// (cuperm_whole_dims_span_launch) in one round of 256 threads; larger spans load the rest a round at a time.
constexpr int kSpanReadUnroll = 4;

struct SpanLoads {
    uint4 x[kSpanReadUnroll];
};

// Tile t's input span: its base and head (elements before it in its first granule) and length.
template <typename T> struct SpanTile {
    const T* src;
    T* dst;
    int n, hin, hout;
};

template <typename T>
__device__ __forceinline__ SpanTile<T> span_tile(const cuperm_tile_params_t& p, const cuperm_tile_divs_t& dv,
                                                 int64_t t, const T* in, T* out)
{
    int64_t in_base, out_base;
    cuperm_group_offsets(p.dim, dv.dim, p.a_end, p.rank, t, &in_base, &out_base);
    SpanTile<T> s;
    s.n = (int)(p.wd_split >= 0 ? p.span_inner * cuperm_whole_dims_split_len(&p, &dv, t) : p.a_volume);
    s.src = in + in_base;
    s.dst = out + out_base;
    s.hin = (int)(reinterpret_cast<uintptr_t>(s.src) % 16) / (int)sizeof(T);
    s.hout = (int)(reinterpret_cast<uintptr_t>(s.dst) % 16) / (int)sizeof(T);
    return s;
}

// Whether granule v of a span (head h, n elements of N a granule) lies wholly inside it.
__device__ __forceinline__ bool span_whole(int v, int h, int n, int N) { return v * N >= h && v * N - h + N <= n; }

// The thread's whole input granules of tile s into registers (issued, not waited for).
template <typename T>
__device__ __forceinline__ void span_issue(const SpanTile<T>& s, SpanLoads& l)
{
    constexpr int N = 16 / (int)sizeof(T);
    const int g = cuperm_granules_of(s.hin, s.n, N);
    const uint4* srcv = reinterpret_cast<const uint4*>(s.src - s.hin);
#pragma unroll
    for (int i = 0; i < kSpanReadUnroll; ++i) {
        const int v = threadIdx.x + i * kTileThreads;
        if (v < g && span_whole(v, s.hin, s.n, N)) l.x[i] = __ldg(srcv + v);
    }
}

// Granule v of tile s into span copy `copy`: whole (x, loaded), or its elements in the span.
template <typename T>
__device__ __forceinline__ void span_put(const SpanTile<T>& s, int v, const uint4& x, unsigned char* copy)
{
    constexpr int E = (int)sizeof(T), N = 16 / E;
    if (span_whole(v, s.hin, s.n, N)) {
        uint32_t* w = reinterpret_cast<uint32_t*>(copy + cuperm_span_skew(16 * v));
        w[0] = x.x, w[1] = x.y, w[2] = x.z, w[3] = x.w;
    } else {
        int lo, hi;
        cuperm_granule_part(s.hin, s.n, N, v, &lo, &hi);
        for (int e = lo; e < hi; ++e)
            *reinterpret_cast<T*>(copy + cuperm_span_skew(E * (v * N + e))) = s.src[v * N - s.hin + e];
    }
}

// The loaded granules, the partial ones element by element, then any past the registers' rounds
// (cuperm_whole_dims_span_launch sizes tiles to none; an inner block of 16 KB or more has some), into `copy`.
template <typename T>
__device__ __forceinline__ void span_store(const SpanTile<T>& s, const SpanLoads& l, unsigned char* copy)
{
    constexpr int N = 16 / (int)sizeof(T);
    const int g = cuperm_granules_of(s.hin, s.n, N);
    const uint4* srcv = reinterpret_cast<const uint4*>(s.src - s.hin);
#pragma unroll
    for (int i = 0; i < kSpanReadUnroll; ++i) {
        const int v = threadIdx.x + i * kTileThreads;
        if (v < g) span_put(s, v, l.x[i], copy);
    }
    for (int v = threadIdx.x + kSpanReadUnroll * kTileThreads; v < g; v += kTileThreads)
        span_put(s, v, span_whole(v, s.hin, s.n, N) ? __ldg(srcv + v) : make_uint4(0, 0, 0, 0), copy);
}

template <typename T>
__device__ __forceinline__ T span_source(const unsigned char* copy, const uint16_t* slot, int hin, int inner,
                                         cuperm_span_cursor_t* c)
{
    const int k = cuperm_span_next_source(c, slot, inner);
    return *reinterpret_cast<const T*>(copy + cuperm_span_skew((int)sizeof(T) * (hin + k)));
}

// N elements x into output granule *o through op (reading *o where op needs it), one 16-byte store.
template <typename Op>
__device__ __forceinline__ void span_put_out(typename Op::value_type (&x)[16 / sizeof(typename Op::value_type)],
                                             uint4* o, const Op& op)
{
    using T = typename Op::value_type;
    constexpr int N = 16 / (int)sizeof(T);
    if constexpr (!Op::kMovesBits) {
        uint4 yv = make_uint4(0, 0, 0, 0);
        if (op.reads_out()) yv = *o;
        T y[N];
        memcpy(y, &yv, sizeof yv);
#pragma unroll
        for (int i = 0; i < N; ++i) x[i] = op(x[i], &y[i]);
    }
    uint4 xv;
    memcpy(&xv, x, sizeof xv);
    *o = xv;
}

// Whole output granule v from copy: its N sources' bytes from the gather table (one or two 16-byte
// reads), N element reads, one 16-byte store.
template <typename Op>
__device__ __forceinline__ void span_gather(const unsigned char* copy, const uint16_t* table, int g, int v,
                                            uint4* dstv, const Op& op)
{
    using T = typename Op::value_type;
    constexpr int E = (int)sizeof(T), N = 16 / E, per = E == 4 ? 4 : 8; // entries a table piece
    uint16_t at[N];
#pragma unroll
    for (int c = 0; c < N / per; ++c) {
        const uint16_t* piece = table + cuperm_span_gather_at(v, c * per, E, g);
        if constexpr (per == 8) {
            const uint4 w = *reinterpret_cast<const uint4*>(piece);
            memcpy(at + c * per, &w, sizeof w);
        } else {
            const uint2 w = *reinterpret_cast<const uint2*>(piece);
            memcpy(at + c * per, &w, sizeof w);
        }
    }
    T x[N];
#pragma unroll
    for (int i = 0; i < N; ++i) x[i] = *reinterpret_cast<const T*>(copy + at[i]);
    span_put_out(x, dstv + v, op);
}

// Tile s out of span copy `copy`: each thread's granules kTileThreads apart, whole ones as vectors.
template <typename Op>
__device__ __forceinline__ void span_write(const SpanTile<typename Op::value_type>& s, const unsigned char* copy,
                                           const uint16_t* slot, int inner, int step_q, int step_r, const Op& op)
{
    using T = typename Op::value_type;
    constexpr int N = 16 / (int)sizeof(T), step = kTileThreads * N;
    const int gout = cuperm_granules_of(s.hout, s.n, N);
    uint4* dstv = reinterpret_cast<uint4*>(s.dst - s.hout);
    int v = threadIdx.x, j = v * N - s.hout;
    if (j < 0) { // the head granule (partial; v = 0 < gout)
        int lo, hi;
        cuperm_granule_part(s.hout, s.n, N, v, &lo, &hi);
        cuperm_span_cursor_t c = cuperm_span_cursor(j + lo, inner);
        for (int e = lo; e < hi; ++e) {
            T* o = s.dst + j + e;
            *o = op(span_source<T>(copy, slot, s.hin, inner, &c), o);
        }
        v += kTileThreads, j += step;
    }
    cuperm_span_cursor_t c = cuperm_span_cursor(j, inner);
    for (; v < gout; v += kTileThreads, j += step) {
        cuperm_span_cursor_t e = c;
        if (j + N <= s.n) {
            T x[N];
#pragma unroll
            for (int i = 0; i < N; ++i) x[i] = span_source<T>(copy, slot, s.hin, inner, &e);
            if constexpr (!Op::kMovesBits) {
                uint4 yv = make_uint4(0, 0, 0, 0);
                if (op.reads_out()) yv = dstv[v];
                T y[N];
                memcpy(y, &yv, sizeof yv);
#pragma unroll
                for (int i = 0; i < N; ++i) x[i] = op(x[i], &y[i]);
            }
            uint4 xv;
            memcpy(&xv, x, sizeof xv);
            dstv[v] = xv;
        } else { // the tail granule
            for (int i = 0; i < s.n - j; ++i) {
                T* o = s.dst + j + i;
                *o = op(span_source<T>(copy, slot, s.hin, inner, &e), o);
            }
        }
        cuperm_span_advance(&c, step_q, step_r, inner);
    }
}

// Tile s out of span copy `copy` where its heads are those of the block's gather table (g granules):
// the whole granules' sources from the table, the head and tail granules' by the cursor.
template <typename Op>
__device__ __forceinline__ void span_write_gathered(const SpanTile<typename Op::value_type>& s,
                                                    const unsigned char* copy, const uint16_t* slot, int inner,
                                                    const uint16_t* table, int g, const Op& op)
{
    using T = typename Op::value_type;
    constexpr int N = 16 / (int)sizeof(T), step = kTileThreads * N;
    const int gout = cuperm_granules_of(s.hout, s.n, N);
    uint4* dstv = reinterpret_cast<uint4*>(s.dst - s.hout);
    int v = threadIdx.x, j = v * N - s.hout;
    if (j < 0) { // the head granule (partial; v = 0 < gout)
        int lo, hi;
        cuperm_granule_part(s.hout, s.n, N, v, &lo, &hi);
        cuperm_span_cursor_t c = cuperm_span_cursor(j + lo, inner);
        for (int e = lo; e < hi; ++e) {
            T* o = s.dst + j + e;
            *o = op(span_source<T>(copy, slot, s.hin, inner, &c), o);
        }
        v += kTileThreads, j += step;
    }
    for (; v < gout && j + N <= s.n; v += kTileThreads, j += step) span_gather(copy, table, g, v, dstv, op);
    if (v < gout) { // the tail granule
        cuperm_span_cursor_t c = cuperm_span_cursor(j, inner);
        for (int i = 0; i < s.n - j; ++i) {
            T* o = s.dst + j + i;
            *o = op(span_source<T>(copy, slot, s.hin, inner, &c), o);
        }
    }
}

// kGather: the launch's gather table (wd_span == 2; 1- and 2-byte elements, cuperm_whole_dims_span_launch),
// four blocks an SM at 64 registers. Without it the kernel is the cursor's alone, with no minimum of blocks
// (0): a bound of 4 blocks, or of 1, changed ptxas's code for 4-byte spans, 10-14% slower on the H200.
template <typename Op, bool kGather>
__global__ void __launch_bounds__(kTileThreads, kGather ? 4 : 0)
whole_dims_span_kernel(const cuperm_tile_params_t p, const cuperm_tile_divs_t dv,
                       const typename Op::value_type* __restrict__ in, typename Op::value_type* __restrict__ out, Op op)
{
    using T = typename Op::value_type;
    constexpr int E = (int)sizeof(T), N = 16 / E; // elements a granule
    static_assert(E * N == 16 && E <= 4, "elements of 1, 2 or 4 bytes: the skew keeps 4-byte alignment");
    extern __shared__ __align__(16) unsigned char smem[];
    const int inner = p.span_inner, copy_bytes = cuperm_span_data_bytes(p.a_volume, E);
    const int g = cuperm_span_gather_granules(p.a_volume, E); // the gather table's, between copies and slots
    uint16_t* table = reinterpret_cast<uint16_t*>(smem + 2 * copy_bytes);
    uint16_t* slot = reinterpret_cast<uint16_t*>(smem + 2 * copy_bytes + (kGather ? cuperm_span_gather_bytes(p.a_volume, E) : 0));
    for (int r = threadIdx.x; r < inner; r += kTileThreads) {
        uint32_t io, is, oo, s, os;
        cuperm_whole_dims_entry(&p, &dv, (uint32_t)r, &io, &is, &oo, &s, &os);
        slot[cuperm_span_slot_at(r)] = (uint16_t)s;
    }
    const int step = kTileThreads * N; // elements between a thread's granules
    const int step_q = step / inner, step_r = step - step_q * inner;
    int64_t t = blockIdx.x;
    if (t >= p.num_tiles) return;
    SpanTile<T> cur = span_tile(p, dv, t, in, out);
    SpanLoads l;
    span_issue(cur, l);
    // The gather table for the heads of the block's first tile, which the tiles of a split dimension
    // share where its chunks are whole granules (cuperm_whole_dims_span_launch sizes them so).
    const int hin = cur.hin, hout = cur.hout;
    if constexpr (kGather) {
        __syncthreads(); // the slots
        for (int v = threadIdx.x; v < g; v += kTileThreads)
            cuperm_span_gather_fill(table, g, v, hin, hout, (int)p.a_volume, E, slot, inner);
    }
    span_store(cur, l, smem);
    for (int b = 0;; b ^= 1) {
        __syncthreads(); // copy b holds tile t; everyone is done with copy b ^ 1
        const int64_t next = t + gridDim.x;
        SpanTile<T> nx;
        if (next < p.num_tiles) {
            nx = span_tile(p, dv, next, in, out);
            span_issue(nx, l);
        }
        if (kGather && cur.hin == hin && cur.hout == hout)
            span_write_gathered(cur, smem + b * copy_bytes, slot, inner, table, g, op);
        else
            span_write(cur, smem + b * copy_bytes, slot, inner, step_q, step_r, op);
        if (next >= p.num_tiles) break;
        span_store(nx, l, smem + (b ^ 1) * copy_bytes);
        cur = nx, t = next;
    }
}

// The runs form (wd_span == 3; core/index_math.h: cuperm_runs_*): any whole-dims tile of 1- or 2-byte
// elements, read as its input runs and written as its output runs, each by aligned 16-byte vectors from
// wherever it starts. Batches of small transposes whose outer dimensions are permuted too (4 x 21 x M x 7
// bytes, perm 1,0,3,2) have no one span on both sides; their tiles move runs of 4-38 bytes a lane at a time.
// Every tile's runs start at the same places within their granules (the planner keeps the outer strides
// whole granules), so a block fills the runs' offsets and heads and the gather table once, for its first
// tile, and every full tile reads them; the split's short last chunk goes element by element.
constexpr int kRunsReadRounds = CUPERM_RUNS_MAX_READ_GRANULES / kTileThreads; // the planner keeps R G within these

struct RunsReads {
    int32_t at[kRunsReadRounds]; // the granule's first element, from the tile's base (may be negative)
    uint8_t lo[kRunsReadRounds], hi[kRunsReadRounds]; // the run's elements in it (hi = 0: no granule)
};

template <typename Op>
__global__ void __launch_bounds__(kTileThreads, CUPERM_RUNS_MAX_BLOCKS_PER_SM)
whole_dims_runs_kernel(const cuperm_tile_params_t p, const cuperm_tile_divs_t dv,
                       const typename Op::value_type* __restrict__ in, typename Op::value_type* __restrict__ out, Op op)
{
    using T = typename Op::value_type;
    constexpr int E = (int)sizeof(T), N = 16 / E;
    static_assert(E <= 2, "1- and 2-byte elements");
    extern __shared__ __align__(16) unsigned char smem[];
    const int lr = p.span_in_run, lw = p.span_out_run, V = (int)p.a_volume;
    const cuperm_runs_layout_t L = cuperm_runs_layout(V, lr, lw, E);
    uint16_t* table = reinterpret_cast<uint16_t*>(smem + L.table);
    int32_t* in_gran = reinterpret_cast<int32_t*>(smem + L.in_gran);
    int32_t* out_gran = reinterpret_cast<int32_t*>(smem + L.out_gran);
    uint8_t* hin = smem + L.hin;
    uint8_t* hout = smem + L.hout;
    uint16_t* srun = reinterpret_cast<uint16_t*>(smem + L.srun);
    uint16_t* sq = reinterpret_cast<uint16_t*>(smem + L.sq);
    int64_t t = blockIdx.x;
    if (t >= p.num_tiles) return;
    int64_t ib, ob;
    cuperm_group_offsets(p.dim, dv.dim, p.a_end, p.rank, t, &ib, &ob);
    const uintptr_t in0 = reinterpret_cast<uintptr_t>(in + ib), out0 = reinterpret_cast<uintptr_t>(out + ob);
    uint32_t io, is, oo, s, os;
    for (int r = threadIdx.x; r < L.R; r += kTileThreads) {
        cuperm_whole_dims_entry(&p, &dv, (uint32_t)(r * lr), &io, &is, &oo, &s, &os);
        const int h = (int)((in0 + (uintptr_t)io * E) % 16) / E;
        hin[r] = (uint8_t)h;
        in_gran[r] = (int32_t)io - h;
    }
    for (int q = threadIdx.x; q < L.Q; q += kTileThreads) {
        cuperm_whole_dims_entry(&p, &dv, (uint32_t)(q * lw), &io, &is, &oo, &s, &os);
        const int h = (int)((out0 + (uintptr_t)oo * E) % 16) / E;
        hout[q] = (uint8_t)h;
        out_gran[q] = (int32_t)oo - h;
        sq[q] = (uint16_t)s;
    }
    for (int j = threadIdx.x; j < lw; j += kTileThreads) {
        cuperm_whole_dims_entry(&p, &dv, (uint32_t)j, &io, &is, &oo, &s, &os);
        srun[j] = (uint16_t)s;
    }
    __syncthreads();
    const int qg = L.Q * L.Go;
    for (int f = threadIdx.x; f < qg; f += kTileThreads) cuperm_runs_gather_fill(table, &L, f, lr, lw, E, hin, hout, srun, sq);
    __syncthreads(); // srun and sq lie where the first tile's loads go
    // This thread's input granules, the same in every tile.
    RunsReads rd;
#pragma unroll
    for (int i = 0; i < kRunsReadRounds; ++i) {
        const int f = threadIdx.x + i * kTileThreads, r = f / L.G, v = f - r * L.G;
        rd.at[i] = 0, rd.lo[i] = rd.hi[i] = 0;
        if (f < L.R * L.G && v < cuperm_granules_of(hin[r], lr, N)) {
            int lo, hi;
            cuperm_granule_part(hin[r], lr, N, v, &lo, &hi);
            rd.at[i] = in_gran[r] + v * N;
            rd.lo[i] = (uint8_t)lo, rd.hi[i] = (uint8_t)hi;
        }
    }
    const uintptr_t in_lo = reinterpret_cast<uintptr_t>(in),
                    in_hi = reinterpret_cast<uintptr_t>(in + cuperm_whole_dims_in_extent(&p));
    const int64_t part = p.wd_split >= 0 ? p.dim[p.wd_split].extent : 0;
    // Granule i of tile base ib: loaded whole where all of it lies in the input, else its run's elements.
    auto whole_at = [&](int64_t base, int i) {
        const uintptr_t g = reinterpret_cast<uintptr_t>(in + base + rd.at[i]);
        return g >= in_lo && g + 16 <= in_hi;
    };
    auto issue = [&](int64_t base, uint4 (&x)[kRunsReadRounds]) {
#pragma unroll
        for (int i = 0; i < kRunsReadRounds; ++i)
            if (rd.hi[i] && whole_at(base, i)) x[i] = __ldg(reinterpret_cast<const uint4*>(in + base + rd.at[i]));
    };
    auto put = [&](int64_t base, const uint4 (&x)[kRunsReadRounds], unsigned char* copy) {
#pragma unroll
        for (int i = 0; i < kRunsReadRounds; ++i) {
            if (!rd.hi[i]) continue;
            const int f = threadIdx.x + i * kTileThreads;
            if (whole_at(base, i)) {
                uint32_t* w = reinterpret_cast<uint32_t*>(copy + cuperm_span_skew(16 * f));
                w[0] = x[i].x, w[1] = x[i].y, w[2] = x[i].z, w[3] = x[i].w;
            } else {
                for (int e = rd.lo[i]; e < rd.hi[i]; ++e)
                    *reinterpret_cast<T*>(copy + cuperm_span_skew(16 * f + E * e)) = in[base + rd.at[i] + e];
            }
        }
    };
    const int step_q = kTileThreads / L.Go, step_r = kTileThreads - step_q * L.Go;
    auto write = [&](int64_t base, const unsigned char* copy) {
        int q = threadIdx.x / L.Go, v = threadIdx.x - q * L.Go;
        for (int f = threadIdx.x; f < qg; f += kTileThreads) {
            const int h = hout[q], j0 = v * N - h;
            if (j0 < lw) {
                uint16_t at[N];
                constexpr int per = 8; // entries a 16-byte table piece (cuperm_span_gather_at)
#pragma unroll
                for (int c = 0; c < N / per; ++c) {
                    const uint4 w = *reinterpret_cast<const uint4*>(table + cuperm_span_gather_at(f, c * per, E, qg));
                    memcpy(at + c * per, &w, sizeof w);
                }
                T x[N];
#pragma unroll
                for (int e = 0; e < N; ++e) x[e] = *reinterpret_cast<const T*>(copy + at[e]);
                T* dst = out + base + out_gran[q] + v * N;
                if (j0 >= 0 && j0 + N <= lw) {
                    span_put_out(x, reinterpret_cast<uint4*>(dst), op);
                } else {
                    int lo, hi;
                    cuperm_granule_part(h, lw, N, v, &lo, &hi);
                    for (int e = lo; e < hi; ++e) dst[e] = op(x[e], dst + e);
                }
            }
            q += step_q, v += step_r;
            if (v >= L.Go) v -= L.Go, ++q;
        }
    };
    // A tile of the split's short last chunk: element by element, input to output.
    auto write_short = [&](int64_t ibase, int64_t obase, int64_t len) {
        for (int j = threadIdx.x; j < V; j += kTileThreads) {
            uint32_t a, b, o, sl, osp;
            cuperm_whole_dims_entry(&p, &dv, (uint32_t)j, &a, &b, &o, &sl, &osp);
            if ((int64_t)osp >= len) continue;
            uint32_t ii, isp, x, y, z;
            cuperm_whole_dims_entry(&p, &dv, sl, &ii, &isp, &x, &y, &z);
            T* dst = out + obase + o;
            *dst = op(in[ibase + ii], dst);
        }
    };
    auto short_tile = [&](int64_t tt, int64_t* len) {
        *len = p.wd_split >= 0 ? cuperm_whole_dims_split_len(&p, &dv, tt) : part;
        return p.wd_split >= 0 && *len < part;
    };
    uint4 x[kRunsReadRounds];
    int64_t len;
    bool cur_short = short_tile(t, &len);
    if (!cur_short) {
        issue(ib, x);
        put(ib, x, smem);
    }
    for (int b = 0;; b ^= 1) {
        __syncthreads(); // copy b holds tile t (and the table is filled); everyone is done with copy b ^ 1
        const int64_t next = t + gridDim.x;
        int64_t nib = 0, nob = 0, nlen = 0;
        bool next_short = false;
        if (next < p.num_tiles) {
            cuperm_group_offsets(p.dim, dv.dim, p.a_end, p.rank, next, &nib, &nob);
            next_short = short_tile(next, &nlen);
            if (!next_short) issue(nib, x);
        }
        if (cur_short) write_short(ib, ob, len);
        else write(ob, smem + b * L.copy);
        if (next >= p.num_tiles) break;
        if (!next_short) put(nib, x, smem + (b ^ 1) * L.copy);
        t = next, ib = nib, ob = nob, len = nlen, cur_short = next_short;
    }
}

} // namespace cuperm

extern "C" cudaError_t cuperm_launch_whole_dims(const cuperm_launch_t* l, cupermDataType_t type,
                                            const cuperm_scalars_t* s, const void* in, void* out,
                                            cudaStream_t stream)
{
    return cuperm::dispatch_op(type, s, [&](auto op) {
        using Op = decltype(op);
        if (l->tile.wd_span == 3) { // 1- and 2-byte elements only (cuperm_whole_dims_runs_launch)
            if constexpr (sizeof(typename Op::value_type) <= 2)
                return cuperm::launch_tile_walk<Op>(cuperm::whole_dims_runs_kernel<Op>, l, in, out, op, stream);
            else
                return cudaErrorInvalidValue;
        }
        if (l->tile.wd_span) { // 1-4-byte elements only (cuperm_whole_dims_span_launch)
            if constexpr (sizeof(typename Op::value_type) <= 2)
                if (l->tile.wd_span == 2) // with the gather table
                    return cuperm::launch_tile_walk<Op>(cuperm::whole_dims_span_kernel<Op, true>, l, in, out, op, stream);
            if constexpr (sizeof(typename Op::value_type) <= 4)
                return cuperm::launch_tile_walk<Op>(cuperm::whole_dims_span_kernel<Op, false>, l, in, out, op, stream);
            else
                return cudaErrorInvalidValue;
        }
        return cuperm::launch_tile_walk<Op>(cuperm::whole_dims_kernel<Op>, l, in, out, op, stream);
    });
}
