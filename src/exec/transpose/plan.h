/*
 * Transpose plans inside the library: the object behind a cupermPlan_t token,
 * and how contraction steps (and the entry points in api/) make, measure and
 * run one. No tokens and no argument checks beyond the planning rules here.
 */
#ifndef CUPERM_EXEC_TRANSPOSE_PLAN_H
#define CUPERM_EXEC_TRANSPOSE_PLAN_H

#include "core/error.h"
#include "cuperm.h"
#include "exec/handle.h"
#include "core/scalar_values.h"
#include "plan/transpose/select.h"

typedef struct cuperm_transpose_plan {
    int device;
    cupermDataType_t type;
    int measured;
    const char* tuning; /* the handle's tuning table name (static) */
    cuperm_ops_t ops;   /* operators of the move (all IDENTITY unless asked for) */
    cuperm_host_plan_t host;
} cuperm_transpose_plan_t;

/** Validates and plans heuristically, ignoring the measured-plan cache. */
cupermStatus_t cuperm_transpose_plan_make(cuperm_handle_t* h, cuperm_transpose_plan_t* plan, int rank,
                                          const int64_t* extents, const int* perm, cupermDataType_t type,
                                          const int64_t* in_strides, const int64_t* out_strides);

/** Validates and plans heuristically (a measured plan for the same arguments wins). */
CUPERM_INTERNAL_API cupermStatus_t cuperm_transpose_plan_init(cuperm_handle_t* h, cuperm_transpose_plan_t* plan, int rank,
                                          const int64_t* extents, const int* perm, cupermDataType_t type,
                                          const int64_t* in_strides, const int64_t* out_strides);

/** The model's time of the plan cuperm_transpose_plan_init would make; negative if invalid. */
CUPERM_INTERNAL_API double cuperm_transpose_predict(cuperm_handle_t* h, int rank, const int64_t* extents, const int* perm,
                                cupermDataType_t type, const int64_t* in_strides, const int64_t* out_strides);

/** The floor under cuperm_transpose_predict on h: every transpose reading and writing B bytes is
 *  predicted at least *t0 + B / *rate seconds (*rate 0: no floor known). */
void cuperm_transpose_predict_floor(const cuperm_handle_t* h, double* t0, double* rate);

/** Replaces plan's launch by the fastest candidate timed on (in, out) (plan made by
 *  cuperm_transpose_plan_make for the same arguments); cached in the handle. */
cupermStatus_t cuperm_transpose_plan_measure(cuperm_handle_t* h, cuperm_transpose_plan_t* plan, int rank,
                                             const int64_t* extents, const int* perm, cupermDataType_t type,
                                             const int64_t* in_strides, const int64_t* out_strides, const void* in,
                                             void* out, cudaStream_t stream);

/** Enqueues the plan: alpha and beta are host scalars of the plan type's scalar type. */
CUPERM_INTERNAL_API cupermStatus_t cuperm_transpose_run(const cuperm_transpose_plan_t* plan, const void* alpha, const void* in,
                                    const void* beta, void* out, cudaStream_t stream);

#endif
