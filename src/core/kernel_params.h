/* Plain-C descriptions of a launch, filled by the host planner and passed by
 * value to the kernels. */
#ifndef CUPERM_COMMON_KERNEL_PARAMS_H
#define CUPERM_COMMON_KERNEL_PARAMS_H

#include <stdint.h>

#include "cuperm.h"

/* Threads per block of the tile kernels (the planner sizes tiles to match). */
#define CUPERM_THREADS 256
/* Elements each thread moves per tile in the tile kernels: 64 bytes (at most
 * 16 elements), which keeps enough loads in flight to cover DRAM latency.
 * Tiles hold CUPERM_THREADS * CUPERM_TILE_ITEMS(elem) elements. */
#define CUPERM_TILE_ITEMS(elem) ((elem) >= 8 ? 64 / (elem) : 8)

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
 * consecutive B indices. Tiles are numbered A-fastest, then B, then outer;
 * with 0 < band_tiles < a_tiles, each (A, B) plane is walked in bands of
 * band_tiles A tiles: within a band A-fastest, then B, then the next band (the
 * last band may be narrower). Tiles that neighbour along B, which share output
 * sectors when B's rows are not sector-aligned, then run band_tiles apart instead
 * of a_tiles. band_tiles = 1 walks B fastest. Either way a bijection
 * (cuperm_tile_origin; tests/cpu/test_index_math.c). */
typedef struct {
    int rank, a_end, b_end;
    int tile_a_log2, tile_b_log2;
    int smem_row;        /* elements per shared-memory row (tile A extent + padding) */
    int vec_log2;        /* > 0: the vector paths apply, vectors of 1 << vec_log2 elements (16 or 8 bytes) */
    int64_t a_volume, b_volume;
    int64_t a_tiles, b_tiles;
    int64_t num_tiles;
    int64_t band_tiles;  /* 0 (or >= a_tiles): A-fastest walk; else the band width, in A tiles */
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


/* ---- contractions' own kernels ------------------------------------------------- */

/* The pointer-array builder for cuBLAS batched GEMMs (backend/cuda/gemm_pointers.cu). */
#define CTR_PTR_MAX_LOOPED 64

/*
 * cuBLAS cannot see the matrix pointers of a pointer-array batch (they live on the
 * device), so its batched kernels may assume the alignment their vector loads and
 * stores need: a 16-bit tensor-op kernel once read 4 bytes at a 2-byte-aligned address
 * and killed the context, an fp32 one wrote 8 bytes before an 8-byte-aligned D. The
 * pointer-array batch is used only when every pointer is aligned to this many bytes;
 * otherwise the plan runs one strided-batched GEMM per looped index, whose pointers
 * cuBLAS checks itself.
 */
#define CTR_PTR_ALIGN 16

typedef struct {
    int nLooped;
    int64_t extents[CTR_PTR_MAX_LOOPED];
    int64_t strides[3][CTR_PTR_MAX_LOOPED]; /* elements, in first, second, output */
    int64_t batch;                          /* strided batch inside each looped index */
    int64_t batchStride[3];
    int64_t elemBytes[3];
    int64_t count;                          /* entries: batch * product of looped extents */
} cuperm_ctr_ptr_params_t;

#endif
