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

} // namespace cuperm

extern "C" cudaError_t cuperm_launch_whole_dims(const cuperm_launch_t* l, cupermDataType_t type,
                                            const cuperm_scalars_t* s, const void* in, void* out,
                                            cudaStream_t stream)
{
    return cuperm::dispatch_op(type, s, [&](auto op) {
        using Op = decltype(op);
        return cuperm::launch_tile_walk<Op>(cuperm::whole_dims_kernel<Op>, l, in, out, op, stream);
    });
}
