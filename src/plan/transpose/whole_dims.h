/* WHOLE_DIMS launches (backend/cuda/transpose/whole_dims.cu): for transposes whose fastest
 * dimensions are short on one side or both, a tile made of whole dimensions (and at most
 * one part of a dimension) that holds the contiguous runs of both sides, so that reads and
 * writes both move long runs where a TILED launch would cut one side into short pieces. */
#ifndef CUPERM_PLAN_TRANSPOSE_WHOLE_DIMS_H
#define CUPERM_PLAN_TRANSPOSE_WHOLE_DIMS_H

#include "core/device_info.h"
#include "core/kernel_params.h"
#include "core/layout.h"
#include "core/tuning.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Builds a WHOLE_DIMS launch for canonical problem p (elements of elem bytes) into *L, or
 * returns 0 when p has none: the tile grows by the next dimension of whichever side's
 * contiguous run is shorter until both reach tt->whole_dims_run_bytes, then by the next
 * input dimensions, up to
 * cuperm_whole_dims_max_volume elements (the last dimension taken may be split into even
 * chunks); offsets inside a tile must fit in 32 bits. */
int cuperm_whole_dims_launch(const cuperm_problem_t* p, int elem, const cuperm_transpose_tuning_t* tt,
                         cuperm_launch_t* L);

/** Builds the span form of a WHOLE_DIMS launch (cuperm_tile_params_t.wd_span) for canonical problem p
 * (elements of elem bytes) into *L, or returns 0 where p has none. Its tile: the fewest fastest
 * dimensions, two or more, that are the same set first on both sides, dense on both and whose fastest
 * differ (their volume, the inner block, at most tt->span_max_inner elements); then, where the next
 * dimension is the same on both sides and dense above them, as many of its indices as make about
 * tt->span_tile_bytes (in even chunks), else the inner block alone where it spans a quarter of that.
 * Every tile is then one contiguous span on both sides. Elements of more than tt->span_max_elem
 * bytes, or of more than 4 (the kernel's skewed copy keeps 4-byte alignment), have none. The grid is capped at tt->span_blocks_per_sm blocks per SM of dev. */
int cuperm_whole_dims_span_launch(const cuperm_problem_t* p, int elem, const cuperm_device_info_t* dev,
                                  const cuperm_transpose_tuning_t* tt, cuperm_launch_t* L);

/** Builds the runs form of a WHOLE_DIMS launch (cuperm_tile_params_t.wd_span == 3) for canonical problem
 * p into *L, or returns 0 where p has none. Elements of 1 or 2 bytes (at most tt->runs_max_elem). Its tile:
 * whole dimensions, grown as the whole-dims tile's are until both sides' runs reach tt->runs_run_bytes,
 * with every dimension whose stride on either side is not a whole number of 16-byte granules, up to about
 * tt->runs_tile_bytes; at most one dimension split, in chunks of whole granules. So every tile's runs
 * start at the same places within their granules, which one gather table a block serves. None where an
 * output run is shorter than a granule or the shared memory (cuperm_runs_layout) passes dev's per-block
 * limit. The grid is capped at tt->span_blocks_per_sm blocks per SM of dev. */
int cuperm_whole_dims_runs_launch(const cuperm_problem_t* p, int elem, const cuperm_device_info_t* dev,
                                  const cuperm_transpose_tuning_t* tt, cuperm_launch_t* L);

/** Whether the rules' launch gives way to runs launch ru: it is a scalar tile launch of elements of at most
 * tt->runs_rule_max_elem bytes, both of ru's runs span tt->runs_rule_min_run_bytes or more, and each of its
 * blocks walks tt->runs_rule_min_tiles_per_block tiles or more. */
int cuperm_whole_dims_runs_preferred(const cuperm_launch_t* rules, const cuperm_launch_t* ru,
                                     const cuperm_transpose_tuning_t* tt);

/** Whether the rules' launch gives way to span launch sp: it moves elements one at a time (no vectors)
 * and reads or writes runs of at most tt->span_max_run_elems elements within its tiles (the model's
 * features), where sp moves whole spans on both sides by 16-byte vectors, in tiles of at least
 * tt->span_min_tile_bytes (measure mode's candidates keep the others). */
int cuperm_whole_dims_span_preferred(const cuperm_launch_t* rules, const cuperm_launch_t* sp,
                                     const cuperm_transpose_tuning_t* tt);

/** Most elements a WHOLE_DIMS tile of elem-byte elements holds (its tables and data within
 * 48 KB of shared memory). */
int cuperm_whole_dims_max_volume(int elem);

/** Shared memory a WHOLE_DIMS launch needs: the tile and its tables. */
int cuperm_whole_dims_smem_bytes(const cuperm_tile_params_t* t, int elem);

/** Contiguous elements a WHOLE_DIMS tile reads (output_side 0) or writes (1). */
int64_t cuperm_whole_dims_run(const cuperm_tile_params_t* t, int output_side);

/** Caps the grid of a WHOLE_DIMS launch at tt->whole_dims_blocks_per_sm blocks per SM of dev: its
 * blocks build the tables once and walk the tiles in turn. */
void cuperm_whole_dims_fit_device(cuperm_launch_t* L, const cuperm_device_info_t* dev,
                              const cuperm_transpose_tuning_t* tt);

/** Whether the rules' plan is one a whole-dims launch may replace (the rules-side conditions of
 * cuperm_whole_dims_preferred: runs under tt->whole_dims_short_run_bytes on both sides, a tile
 * launch's counted across its groups (cuperm_tile_dense_run), a rows launch's unless its tiles span
 * 2^tt->whole_dims_rows_min_side_log2 elements of the shared dimension or more and read
 * tt->whole_dims_rows_min_read_eff of their sectors; elements of 4 bytes or more), so that planning
 * builds the whole-dims launch only then. */
int cuperm_whole_dims_may_replace(const cuperm_launch_t* rules, const cuperm_transpose_tuning_t* tt);

/** Whether the rules' plan should give way to whole-dims launch wd (fitted to its device):
 * when the tile launch reads and writes runs shorter than tt->whole_dims_short_run_bytes
 * (two sectors) on both sides, which leaves it bound by partly used sectors, while wd moves
 * runs of at least half tt->whole_dims_run_bytes on both, and wd's blocks each walk at least
 * tt->whole_dims_min_tiles_per_block tiles (its tables are built once per block); never for
 * elements under 4 bytes, which it moves one at a time. */
int cuperm_whole_dims_preferred(const cuperm_launch_t* rules, const cuperm_launch_t* wd,
                                const cuperm_transpose_tuning_t* tt);

#ifdef __cplusplus
}
#endif

#endif
