/* The heuristic planner: chooses a kernel and its parameters for a canonical
 * problem, and predicts the execution time. Plain C, no device calls. */
#ifndef CUPERM_HOST_PLAN_SELECT_H
#define CUPERM_HOST_PLAN_SELECT_H

#include "core/kernel_params.h"
#include "core/device_info.h"
#include "core/layout.h"
#include "core/tuning.h"

#ifdef __cplusplus
extern "C" {
#endif


/** What planning decides on the host, for validated arguments. */
typedef struct {
    int fused_rank;
    int64_t in_span_bytes, out_span_bytes; /* base pointer to the last element reached, inclusive */
    double predicted_seconds;
    cuperm_launch_t launch; /* any pointers, any scalars */
    /* Short rows shared by both sides, moved as wide elements: for plain moves
     * when both pointers are aligned to packed.elem_size. */
    int has_packed;
    cuperm_launch_t packed;
} cuperm_host_plan_t;

/* Every planner function takes the handle's tuning table (core/tuning.h:
 * cuperm_tuning_for(dev)), whose transpose part holds the rules' thresholds and
 * the model's coefficients; dev gives the device's own numbers (DRAM peak, shared
 * memory per block). */

/** Canonicalises the problem, chooses its launches and predicts their time. */
void cuperm_plan_host(int rank, const int64_t* extents, const int* perm, int elem, const int64_t* in_strides,
                      const int64_t* out_strides, const cuperm_device_info_t* dev, const cuperm_tuning_t* tuning,
                      cuperm_host_plan_t* plan);

/** cuperm_plan_host's predicted_seconds for the same arguments, computed alone (pricing). */
double cuperm_plan_predict(int rank, const int64_t* extents, const int* perm, int elem, const int64_t* in_strides,
                           const int64_t* out_strides, const cuperm_device_info_t* dev, const cuperm_tuning_t* tuning);

/** Fills launch for canonical problem p with elements of elem bytes. */
void cuperm_select_launch(const cuperm_problem_t* p, int elem, const cuperm_tuning_t* tuning, cuperm_launch_t* launch);

/** Whether a 2^la x 2^lb scalar tile keeps both sides within a block (else the kernels take their
 * any-shape path). */
int cuperm_tile_sides_within_block(int la, int lb);

/** Builds the tile walk for a given grouping and tile shape (exposed for tests). */
void cuperm_tile_params_init(cuperm_tile_params_t* t, const cuperm_dim_t* dims, int rank, int a_end,
                             int b_end, int tile_a_log2, int tile_b_log2, int elem);

/** The model's execution time estimate for a launch, in seconds. */
double cuperm_predict_seconds(const cuperm_launch_t* launch, const cuperm_device_info_t* dev,
                              const cuperm_tuning_t* tuning);

/** Most candidates a problem has. */
#define CUPERM_MAX_CANDIDATES 16

/** The rule-based launch's alternatives: the launch itself first, then
 * variants of its tile shape, then (TILED) the launch with the other tile walk. Returns how many were written (at most max). */
int cuperm_candidate_launches(const cuperm_launch_t* heuristic, const cuperm_device_info_t* dev,
                              const cuperm_tuning_t* tuning, cuperm_launch_t* out, int max);

/** The candidates for a transpose (validated arguments) that the planner
 * ranks and measure mode times: those of the problem's canonical form, or with
 * packed = 1 of its packed form (then 0 if it has none). */
int cuperm_plan_candidates(int rank, const int64_t* extents, const int* perm, int elem, const int64_t* in_strides,
                           const int64_t* out_strides, const cuperm_device_info_t* dev,
                           const cuperm_tuning_t* tuning, int packed, cuperm_launch_t* out, int max);

/** Shared memory a TILED or ROWS launch needs. */
int cuperm_tile_smem_bytes(cuperm_launch_kind_t kind, const cuperm_tile_params_t* t, int elem);

#ifdef __cplusplus
}
#endif

#endif
