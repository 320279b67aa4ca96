/* Transpose plans inside the library: made, predicted, measured and run without tokens or
 * argument checks beyond the planning rules (the entry points in api/ check the rest). */
#include <stdint.h>
#include <string.h>

#include "backend/cuda/transpose/launch.h"
#include "core/error.h"
#include "core/scalars.h"
#include "exec/transpose/plan.h"
#include "exec/transpose/measure.h"
#include "plan/transpose/model.h"
#include "plan/transpose/select.h"
#include "plan/transpose/validate.h"

/* Validates, canonicalises and plans heuristically; no device calls. */
cupermStatus_t cuperm_transpose_plan_make(cuperm_handle_t* h, cuperm_transpose_plan_t* plan, int rank,
                                const int64_t* extents, const int* perm, cupermDataType_t type,
                                const int64_t* in_strides, const int64_t* out_strides)
{
    cupermStatus_t st = cuperm_validate_transpose(rank, extents, perm, type, in_strides, out_strides);
    if (st) return st;
    memset(plan, 0, sizeof *plan);
    plan->device = h->dev.ordinal;
    plan->type = type;
    plan->tuning = h->tuning->name;
    cuperm_plan_host(rank, extents, perm, (int)cupermDataTypeSize(type), in_strides, out_strides, &h->dev,
                     h->tuning, &plan->host);
    return CUPERM_STATUS_SUCCESS;
}

cupermStatus_t cuperm_transpose_plan_init(cuperm_handle_t* h, cuperm_transpose_plan_t* plan, int rank,
                                          const int64_t* extents, const int* perm, cupermDataType_t type,
                                          const int64_t* in_strides, const int64_t* out_strides)
{
    cupermStatus_t st = cuperm_transpose_plan_make(h, plan, rank, extents, perm, type, in_strides, out_strides);
    if (st) return st;
    /* A plan measured earlier for the same arguments beats the heuristic's. */
    cuperm_plan_key_t key;
    cuperm_plan_key_init(&key, rank, extents, perm, type, in_strides, out_strides);
    const cuperm_ops_t ops = plan->ops; /* the cache holds launches; operators are the caller's */
    cuperm_plan_cache_find(h->plan_cache, &key, 1, plan);
    plan->ops = ops;
    return CUPERM_STATUS_SUCCESS;
}

double cuperm_transpose_predict(cuperm_handle_t* h, int rank, const int64_t* extents, const int* perm,
                                cupermDataType_t type, const int64_t* in_strides, const int64_t* out_strides)
{
    if (cuperm_validate_transpose(rank, extents, perm, type, in_strides, out_strides)) return -1.0;
    return cuperm_plan_predict(rank, extents, perm, (int)cupermDataTypeSize(type), in_strides, out_strides, &h->dev,
                               h->tuning);
}

void cuperm_transpose_predict_floor(const cuperm_handle_t* h, double* t0, double* rate)
{
    *t0 = h->tuning->transpose.model_t0;
    *rate = cuperm_model_floor_rate(h->dev.dram_bytes_per_second, &h->tuning->transpose);
}

cupermStatus_t cuperm_transpose_plan_measure(cuperm_handle_t* h, cuperm_transpose_plan_t* plan, int rank,
                                             const int64_t* extents, const int* perm, cupermDataType_t type,
                                             const int64_t* in_strides, const int64_t* out_strides, const void* in,
                                             void* out, cudaStream_t stream)
{
    cuperm_plan_key_t key;
    cuperm_plan_key_init(&key, rank, extents, perm, type, in_strides, out_strides);
    const cuperm_ops_t ops = plan->ops;
    const int hit = cuperm_plan_cache_find(h->plan_cache, &key, 1, plan);
    plan->ops = ops;
    if (hit) return CUPERM_STATUS_SUCCESS;
    /* Time what execute will run on these buffers: the packed launch's candidates when it
     * applies to them, else the plain launch's. */
    const int wide = plan->host.has_packed ? plan->host.packed.elem_size : 0;
    const int packed = wide && (uintptr_t)in % (uintptr_t)wide == 0 && (uintptr_t)out % (uintptr_t)wide == 0;
    cuperm_launch_t cand[CUPERM_MAX_CANDIDATES];
    const int n = cuperm_plan_candidates(rank, extents, perm, (int)cupermDataTypeSize(type), in_strides,
                                         out_strides, &h->dev, h->tuning, packed, cand,
                                         CUPERM_MAX_CANDIDATES);
    int best = 0;
    cupermStatus_t st = cuperm_measure_best(cand, n, packed ? cuperm_bits_type(wide) : type, in, out, stream, &best,
                                            &plan->host.predicted_seconds);
    if (st) return st;
    *(packed ? &plan->host.packed : &plan->host.launch) = cand[best];
    plan->measured = 1;
    cuperm_plan_cache_store(h->plan_cache, &key, plan);
    return CUPERM_STATUS_SUCCESS;
}

cupermStatus_t cuperm_launch_plan(const cuperm_launch_t* l, cupermDataType_t type,
                                  const cuperm_scalars_t* s, const void* in, void* out,
                                  cudaStream_t stream)
{
    cudaError_t err = cudaErrorInvalidValue;
    switch (l->kind) {
    case CUPERM_LAUNCH_COPY: err = cuperm_launch_copy(l, type, s, in, out, stream); break;
    case CUPERM_LAUNCH_TILED: err = cuperm_launch_tiled(l, type, s, in, out, stream); break;
    case CUPERM_LAUNCH_ROWS: err = cuperm_launch_rows(l, type, s, in, out, stream); break;
    case CUPERM_LAUNCH_WHOLE_DIMS: err = cuperm_launch_whole_dims(l, type, s, in, out, stream); break;
    case CUPERM_LAUNCH_ROW_TILES: err = cuperm_launch_row_tiles(l, type, s, in, out, stream); break;
    }
    if (err != cudaSuccess)
        return cuperm_fail(CUPERM_STATUS_CUDA_ERROR, "transpose kernel launch failed (%s)",
                           cudaGetErrorString(err));
    return CUPERM_STATUS_SUCCESS;
}

cupermStatus_t cuperm_transpose_run(const cuperm_transpose_plan_t* plan, const void* alpha, const void* in,
                                    const void* beta, void* out, cudaStream_t stream)
{
    cuperm_scalars_t s;
    cuperm_read_scalars(plan->type, alpha, beta, &s);
    cuperm_scalars_set_ops(&s, &plan->ops);
    if (plan->host.has_packed && s.plain) {
        const uintptr_t wide = (uintptr_t)plan->host.packed.elem_size;
        if ((uintptr_t)in % wide == 0 && (uintptr_t)out % wide == 0)
            return cuperm_launch_plan(&plan->host.packed, cuperm_bits_type(plan->host.packed.elem_size), &s, in, out,
                                      stream);
    }
    return cuperm_launch_plan(&plan->host.launch, plan->type, &s, in, out, stream);
}

