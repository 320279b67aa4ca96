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
constexpr int kSpanReadUnroll = 4; // granules a thread loads before it stores them: 16 KB spans

template <typename Op>
__global__ void __launch_bounds__(kTileThreads)
whole_dims_span_kernel(const cuperm_tile_params_t p, const cuperm_tile_divs_t dv,
                       const typename Op::value_type* __restrict__ in, typename Op::value_type* __restrict__ out, Op op)
{
    using T = typename Op::value_type;
    constexpr int E = (int)sizeof(T), N = 16 / E; // elements a granule
    static_assert(E * N == 16, "elements of 1, 2, 4, 8 or 16 bytes");
    extern __shared__ __align__(16) unsigned char smem[];
    const int inner = p.span_inner;
    uint4* data = reinterpret_cast<uint4*>(smem);
    uint16_t* slot = reinterpret_cast<uint16_t*>(smem + cuperm_span_data_bytes(p.a_volume, E));
    for (int r = threadIdx.x; r < inner; r += kTileThreads) {
        uint32_t io, is, oo, s, os;
        cuperm_whole_dims_entry(&p, &dv, (uint32_t)r, &io, &is, &oo, &s, &os);
        slot[r] = (uint16_t)s;
    }
    const int step = kTileThreads * N; // elements between a thread's granules
    const int step_q = step / inner, step_r = step - step_q * inner;
    __syncthreads();
    for (int64_t t = blockIdx.x; t < p.num_tiles; t += gridDim.x) {
        int64_t in_base, out_base;
        cuperm_group_offsets(p.dim, dv.dim, p.a_end, p.rank, t, &in_base, &out_base);
        const int n = (int)(p.wd_split >= 0 ? inner * cuperm_whole_dims_split_len(&p, &dv, t) : p.a_volume);

        const T* src = in + in_base;
        const int hin = (int)(reinterpret_cast<uintptr_t>(src) % 16) / E;
        const int gin = cuperm_granules_of(hin, n, N);
        const uint4* srcv = reinterpret_cast<const uint4*>(src - hin);
        for (int v0 = threadIdx.x; v0 < gin; v0 += kTileThreads * kSpanReadUnroll) {
            uint4 x[kSpanReadUnroll];
#pragma unroll
            for (int i = 0; i < kSpanReadUnroll; ++i) {
                const int v = v0 + i * kTileThreads, j = v * N - hin;
                if (v < gin && j >= 0 && j + N <= n) x[i] = __ldg(srcv + v);
            }
#pragma unroll
            for (int i = 0; i < kSpanReadUnroll; ++i) {
                const int v = v0 + i * kTileThreads, j = v * N - hin;
                if (v >= gin) break;
                if (j >= 0 && j + N <= n) {
                    data[v] = x[i];
                } else {
                    int lo, hi;
                    cuperm_granule_part(hin, n, N, v, &lo, &hi);
                    for (int e = lo; e < hi; ++e) reinterpret_cast<T*>(data)[v * N + e] = src[j + e];
                }
            }
        }
        __syncthreads();

        T* dst = out + out_base;
        const int hout = (int)(reinterpret_cast<uintptr_t>(dst) % 16) / E;
        const int gout = cuperm_granules_of(hout, n, N);
        uint4* dstv = reinterpret_cast<uint4*>(dst - hout);
        const T* tile = reinterpret_cast<const T*>(data) + hin; // input element k of the span at tile[k]
        int v = threadIdx.x, j = v * N - hout;
        if (j < 0) { // the head granule (partial; v = 0 < gout)
            int lo, hi;
            cuperm_granule_part(hout, n, N, v, &lo, &hi);
            cuperm_span_cursor_t c = cuperm_span_cursor(j + lo, inner);
            for (int e = lo; e < hi; ++e) {
                T* o = dst + j + e;
                *o = op(tile[cuperm_span_next_source(&c, slot, inner)], o);
            }
            v += kTileThreads, j += step;
        }
        cuperm_span_cursor_t c = cuperm_span_cursor(j, inner);
        for (; v < gout; v += kTileThreads, j += step) {
            cuperm_span_cursor_t e = c;
            if (j + N <= n) {
                T x[N];
#pragma unroll
                for (int i = 0; i < N; ++i) x[i] = tile[cuperm_span_next_source(&e, slot, inner)];
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
                for (int i = 0; i < n - j; ++i) {
                    T* o = dst + j + i;
                    *o = op(tile[cuperm_span_next_source(&e, slot, inner)], o);
                }
            }
            cuperm_span_advance(&c, step_q, step_r, inner);
        }
        __syncthreads(); // the span is refilled by the next tile
    }
}

} // namespace cuperm

extern "C" cudaError_t cuperm_launch_whole_dims(const cuperm_launch_t* l, cupermDataType_t type,
                                            const cuperm_scalars_t* s, const void* in, void* out,
                                            cudaStream_t stream)
{
    return cuperm::dispatch_op(type, s, [&](auto op) {
        using Op = decltype(op);
        if (l->tile.wd_span)
            return cuperm::launch_tile_walk<Op>(cuperm::whole_dims_span_kernel<Op>, l, in, out, op, stream);
        return cuperm::launch_tile_walk<Op>(cuperm::whole_dims_kernel<Op>, l, in, out, op, stream);
    });
}
