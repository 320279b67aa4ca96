/* The performance model: what a launch's time depends on, and the estimate.
 * Its parameters come from the handle's tuning table (core/tuning.h); sm_90's
 * were fitted to H100 measurements by tools/model/fit_model.py, which writes
 * core/tuning_model_sm90.h; docs/model.md says how and how well. */
#ifndef CUPERM_HOST_MODEL_H
#define CUPERM_HOST_MODEL_H

#include "core/kernel_params.h"
#include "core/device_info.h"
#include "core/error.h" /* CUPERM_INTERNAL_API */
#include "core/tuning.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    CUPERM_MODEL_COPY = 0,
    CUPERM_MODEL_ROWS = 1,
    CUPERM_MODEL_ROWS_VEC = 2,
    CUPERM_MODEL_TILED = 3,
    CUPERM_MODEL_TILED_VEC = 4,
    CUPERM_MODEL_CLASSES = 5
} cuperm_model_class_t;

typedef struct {
    cuperm_model_class_t cls;
    double bytes;         /* read + written */
    double run_bytes;     /* shorter of the contiguous runs read and written */
    double in_run_bytes;  /* contiguous run a tile reads (copy: everything) */
    double out_run_bytes; /* contiguous run a tile writes */
    double tile_bytes;    /* a tile's bytes (copy: 0) */
    double fill;          /* moved elements / tile slots launched (1 for copy) */
    double tiles;         /* tiles launched (copy: 0) */
    double in_sector_eff; /* bytes read / bytes of the 32-byte sectors they touch (cuperm_sector_efficiency) */
    double out_sector_eff; /* the same for the writes; not in the fitted model yet (needs H100 data) */
} cuperm_model_features_t;

/**
 * The DRAM traffic of one side of a transpose whose footprint has gaps (a box of a larger tensor),
 * over its bytes: the side's dimensions (extents and strides in elements, n of them) sorted by
 * stride form contiguous runs of the dimensions whose strides continue each other from 1, laid out
 * along the next dimension, with the same runs again along the ones after it. The first plane of runs
 * (base aligned to an atom) is counted in atoms of `atom` bytes: reads move every atom they touch;
 * writes also read every atom they leave partly written, which the memory must merge (no other
 * write of the launch completes it: its other bytes lie outside the footprint). 1 where the runs
 * meet (a dense side), atom 0, or strides this does not model (zero, negative or overlapping).
 */
double cuperm_footprint_traffic(const int64_t* extents, const int64_t* strides, int n, int elem, int atom, int write);

/** A launch's DRAM traffic over 2 x its tensor's bytes: cuperm_footprint_traffic of its reads and
 *  its writes, averaged (1 for COPY launches, whose sides are one dense run). */
CUPERM_INTERNAL_API double cuperm_launch_footprint(const cuperm_launch_t* launch, int atom);

void cuperm_model_features(const cuperm_launch_t* launch, cuperm_model_features_t* f);

/**
 * How well a launch's accesses fill 32-byte sectors, per side: the bytes a tile
 * row moves over the bytes of the sectors it touches (1: every sector whole).
 * A row on a side is the contiguous run of the tile's axis on that side (A for
 * reads, B for writes; ROWS: dimension 0, and the rows after it when a tile holds
 * whole rows that lie contiguously), cut at tile boundaries; its start lies on a
 * multiple of the gcd of every other stride on that side (and of the tile side
 * where the tile cuts the run), uniformly spread modulo 32 bytes. Sectors that
 * a row shares with another tile's row count in both: that is the L2 traffic the
 * kernel adds over a copy, and DRAM's when the two run far apart in time.
 */
void cuperm_sector_efficiency(const cuperm_launch_t* launch, double* in_eff, double* out_eff);

/**
 * How well one warp instruction of a scalar tile launch's read and write passes fills
 * 32-byte sectors: the fewest sectors its bytes could touch over those it touches, for the
 * first warp of the first tile (tensor bases sector-aligned). Where the writes' contiguous
 * run continues from a few B elements into A's first dimension, the lanes' layout decides
 * whether a store writes whole sectors or halves. 1 for other launches; in_eff may be NULL.
 */
void cuperm_warp_efficiency(const cuperm_launch_t* launch, double* in_eff, double* out_eff);

/** The planner's alignment cost of a launch, relative to a perfect copy (>= 1):
 * reads and writes weighted 1 : tuning->sector_write_weight (sm_90: 1.5; a partly
 * written sector costs L2 a merge and DRAM a read), each over its sector
 * efficiency, over fill^sector_fill_exponent (sm_90: 1/4). */
double cuperm_sector_cost(const cuperm_launch_t* launch, const cuperm_transpose_tuning_t* tuning);
/* The fraction of a launch's tile slots (tiles x tile elements; whole-dims: tiles x its volume) the
 * tensor's elements fill: 1 for copies. */
double cuperm_tile_fill(const cuperm_launch_t* launch);
/* The fill of a tile launch's tiles away from its groups' ends: a group shorter than its tile side
 * leaves every tile partly empty (19 elements in a side of 32), a longer one only its last tile
 * (131 in sides of 64: two full tiles, then 3 of 64). 1 for other launches. */
double cuperm_tile_inner_fill(const cuperm_launch_t* launch);
/* Elements of the longest run of consecutive addresses a tile or rows launch's tile covers on one side
 * (output_side 1: the output's), across both its groups: the features' runs stop at their own
 * group, but a dimension of the other group may continue them (15^6 f32 1,0,3,2,4,5: 15 elements
 * along A's dimension 0, then B's dimension 1 continues them to 225 on both sides; a rows tile's
 * shared dimension continued by its rows). Exact unless the groups' dimensions interleave along
 * the side (A's first, B's first, then A's second again): then a lower bound. Other launches:
 * cuperm_model_features' runs. */
int64_t cuperm_tile_dense_run(const cuperm_launch_t* launch, int output_side);

/** t = t0 + bytes / (peak * efficiency[class] * min(1, run / model_run_bytes) ^ gamma),
 * the coefficients from tuning (sm_90: model_run_bytes = 128). */
double cuperm_model_seconds(const cuperm_model_features_t* f, double peak_bytes_per_second,
                            const cuperm_transpose_tuning_t* tuning);

/** The fastest rate cuperm_model_seconds gives any launch (bytes per second): peak times the
 * largest class efficiency (the run term is at most 1), so every launch moving bytes takes at
 * least tuning->model_t0 + bytes / this rate. */
double cuperm_model_floor_rate(double peak_bytes_per_second, const cuperm_transpose_tuning_t* tuning);

#ifdef __cplusplus
}
#endif

#endif
