/* Plain-C descriptions of a launch, filled by the host planner and passed by
 * value to the kernels. */
#ifndef CUPERM_COMMON_KERNEL_PARAMS_H
#define CUPERM_COMMON_KERNEL_PARAMS_H

#include <stdint.h>

#include "cuperm.h"

typedef struct {
    int64_t extent;
    int64_t in_stride;  /* elements */
    int64_t out_stride; /* elements */
} cuperm_dim_t;

/* A tile walk over a problem whose dimensions are split into three groups:
 *   dim[0, a_end)      group A: the tile's x axis, linearised in input order
 *   dim[a_end, b_end)  group B: the tile's y axis, linearised in output order
 *   dim[b_end, rank)   outer dimensions, one tile origin per combination.
 * A tile covers (1 << tile_a_log2) consecutive A indices by (1 << tile_b_log2)
 * consecutive B indices. Tiles are numbered A-fastest, then B, then outer. */
typedef struct {
    int rank, a_end, b_end;
    int tile_a_log2, tile_b_log2;
    int smem_row;        /* elements per shared-memory row (tile A extent + padding) */
    int vec_log2;        /* > 0: the vector paths apply, vectors of 1 << vec_log2 elements (16 or 8 bytes) */
    int64_t a_volume, b_volume;
    int64_t a_tiles, b_tiles;
    int64_t num_tiles;
    cuperm_dim_t dim[CUPERM_MAX_RANK];
} cuperm_tile_params_t;

typedef enum {
    CUPERM_LAUNCH_COPY = CUPERM_KERNEL_COPY,
    CUPERM_LAUNCH_TILED = CUPERM_KERNEL_TILED,
    CUPERM_LAUNCH_ROWS = CUPERM_KERNEL_ROWS
} cuperm_launch_kind_t;

/* Everything an execute needs besides pointers and scalars. */
typedef struct {
    cuperm_launch_kind_t kind;
    int elem_size;
    int threads;
    int64_t blocks;
    int smem_bytes;
    int64_t volume;
    cuperm_tile_params_t tile; /* TILED and ROWS */
} cuperm_launch_t;

#endif
