/* Plain-C descriptions of a launch, filled by the host planner and passed by
 * value to the kernels. */
#ifndef CUPERM_COMMON_KERNEL_PARAMS_H
#define CUPERM_COMMON_KERNEL_PARAMS_H

#include <stddef.h>
#include <stdint.h>

#include "core/fastdiv.h"
#include "core/hd.h"
#include "cuperm.h"

/* Threads per block of the tile kernels (the planner sizes tiles to match). */
#define CUPERM_THREADS 256
/* Elements each thread moves per tile in the tile kernels: 64 bytes for elements
 * of 8 and 16 bytes, 16 elements for the smaller ones. The bytes a thread has in
 * flight must cover DRAM latency: with 8 elements, 1-, 2- and 4-byte tiles ran at
 * 29, 61 and 83% of copy (medians, random suite, H100), with 16 at 42, 67 and 86
 * (bench/results/lean-vec-tiles-h100/). Tiles hold CUPERM_THREADS *
 * CUPERM_TILE_ITEMS(elem) elements. */
#define CUPERM_TILE_ITEMS(elem) ((elem) >= 8 ? 64 / (elem) : 16)
/* Wide scalar tiles (1- and 2-byte elements, staged, both sides within one block, when the
 * tuning table asks for them): this many elements a thread. With 32 the plain-copy medians
 * rose by 5-11 points of copy where the sides stayed within a block (bench/results/items32-h100/). */
#define CUPERM_TILE_ITEMS_WIDE 32
/* Small scalar tiles: a quarter of CUPERM_TILE_ITEMS(elem) a thread, for tensors whose standard
 * tiles would leave most of the device idle (plan/transpose/select.c, heuristic_launch). Their
 * kernels are compiled for CUPERM_SMALL_TILE_BLOCKS(elem) resident blocks per SM: for elements of
 * 1-4 bytes one more than the standard tiles' 4 (sm_90: 46 registers for plain copies, no spills;
 * at 6 the table build spills); larger elements' 64-bit tables spill at 5, so they keep 4. */
#define CUPERM_TILE_ITEMS_SMALL(elem) (CUPERM_TILE_ITEMS(elem) / 4)
#define CUPERM_SMALL_TILE_BLOCKS(elem) ((elem) <= 4 ? 5 : 4)
/* Resident blocks per SM the pipelined tile kernel is compiled for (tile_pipelined.cuh), and so
 * the blocks per SM of its persistent grid: two buffers of a standard tile take about 37 KB. */
#define CUPERM_PIPE_TILE_BLOCKS 4
/* COPY launches: 16-byte vectors (elements where the pointers do not share their alignment) a thread
 * moves, 1 or this (cuperm_launch_t.copy_unroll) */
#define CUPERM_COPY_UNROLL_MAX 4

/* A dimension shared by a transpose's input and output. Like cuperm_dim3_t, a record of
 * int64_t (the extent, then a stride per view) that cuperm_decode reads. */
typedef struct {
    int64_t extent;
    int64_t in_stride;  /* elements */
    int64_t out_stride; /* elements */
} cuperm_dim_t;

/* A dimension shared by three tensors (a GEMM batch's two inputs and its output). */
typedef struct {
    int64_t extent;
    int64_t stride[3]; /* elements */
} cuperm_dim3_t;

#define CUPERM_DIM_PITCH 3
#define CUPERM_DIM3_PITCH 4
#ifdef __cplusplus
#  define CUPERM_STATIC_ASSERT static_assert
#else
#  define CUPERM_STATIC_ASSERT _Static_assert
#endif
CUPERM_STATIC_ASSERT(sizeof(cuperm_dim_t) == CUPERM_DIM_PITCH * sizeof(int64_t) &&
                         offsetof(cuperm_dim_t, in_stride) == sizeof(int64_t) &&
                         offsetof(cuperm_dim_t, out_stride) == 2 * sizeof(int64_t),
                     "cuperm_decode reads cuperm_dim_t as {extent, in_stride, out_stride}");
CUPERM_STATIC_ASSERT(sizeof(cuperm_dim3_t) == CUPERM_DIM3_PITCH * sizeof(int64_t),
                     "cuperm_decode reads cuperm_dim3_t as {extent, stride[3]}");

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
    int vec_log2;        /* > 0: the vector paths apply, vectors of 1 << vec_log2 elements (16, 8 or 4 bytes) */
    int vec_shifted;     /* TILED, 1- and 2-byte elements, 16-byte vectors: rows and columns may start
                          * anywhere in a vector (A contiguous in the input, B in the output); 2:
                          * written by lanes (tile_shifted.cuh), tiles of 8 vectors per column */
    int pipelined;       /* TILED, scalar tiles of 4-, 8- and 16-byte elements: the pipelined kernel
                          * (tile_pipelined.cuh) on a persistent grid, two buffers of shared memory */
    int lean;            /* TILED, standard scalar tiles of 8- and 16-byte elements copied as they are:
                          * the fast path's lean form (tile_lean.cuh, move_tile_lean_spread; select.c's
                          * lean_form says where) (the pipelined kernel, one form, ignores it; its plain
                          * twin keeps it) */
    int64_t a_volume, b_volume;
    int64_t a_tiles, b_tiles;
    int64_t num_tiles;
    int64_t band_tiles;  /* 0 (or >= a_tiles): A-fastest walk; else the band width, in A tiles */
    cuperm_dim_t dim[CUPERM_MAX_RANK];
    /* WHOLE_DIMS launches only (see cuperm_whole_dims_entry): group A is the tile, whole
     * dimensions in input order, one tile per outer combination (a_tiles = b_tiles = 1,
     * B empty); wd_out_order lists A's dimensions by output stride. When
     * wd_split >= 0, A's dimension wd_split covers split_part of a dimension of
     * split_extent elements, and dim[a_end] (the first outer dimension) numbers its chunks. */
    int wd_split;
    int64_t split_extent;
    int8_t wd_out_order[CUPERM_MAX_RANK];
    int32_t wd_place[CUPERM_MAX_RANK]; /* elements of A's dimensions below d: d's stride in the tile's slots */
    /* The span form (whole_dims.h: cuperm_whole_dims_span_launch): every tile is one contiguous span on
     * both sides, span_inner elements of the tile's dimensions below its last (the same set first on
     * both sides) times that last dimension's part (the split, or whole), moved by 16-byte vectors;
     * 2: the write pass reads whole granules' sources from a gather table (cuperm_span_gather_fill).
     * 3, the runs form (whole_dims.h: cuperm_whole_dims_runs_launch; index_math.h: cuperm_runs_*): any
     * whole-dims tile, read as runs of span_in_run input elements and written as runs of span_out_run
     * output elements, each run by 16-byte vectors from wherever it starts, through a gather table. */
    int wd_span;
    int span_inner;
    int span_in_run, span_out_run;
    /* ROW_TILES launches only (plan/transpose/row_tiles.h): dim[0] is the row, the same fastest
     * dimension on both sides (unit strides); group A is dim[1, a_end), B dim[a_end, b_end). A tile
     * holds whole rows of rt_side_a A indices by rt_side_b B indices (any counts, not powers of
     * two; tile_a_log2 and tile_b_log2 are 0), a_tiles = ceil(a_volume / rt_side_a) and so on, walked
     * A-fastest; smem_row is the shared-memory stride between B indices (cuperm_row_tile_stride);
     * vec_log2 > 0: rows move in vectors of 1 << vec_log2 elements where both pointers are
     * aligned to them (row_tiles.c: the row and every other stride are whole vectors). */
    int rt_side_a, rt_side_b;
} cuperm_tile_params_t;

/* One buffer of the pipelined kernel's shared memory: CUPERM_PIPE_SPAN_BYTES for where its tile
 * lies, four offset tables of 8-byte entries, then the tile's rows of smem_row elements; rounded
 * to 16 bytes so that a second buffer starts aligned. */
#define CUPERM_PIPE_SPAN_BYTES 32
CUPERM_HD int cuperm_tile_pipe_buffer_bytes(int ta, int tb, int smem_row, int elem)
{
    return (CUPERM_PIPE_SPAN_BYTES + 2 * (ta + tb) * (int)sizeof(int64_t) + tb * smem_row * elem + 15) & ~15;
}

/* Resident blocks per SM the ROW_TILES kernel is compiled for (64 registers). */
#define CUPERM_ROW_TILE_BLOCKS 4

/* Input granules a runs-form tile reads (cuperm_whole_dims_runs_launch): four a thread, held in registers
 * between a tile's loads and its stores into shared memory (whole_dims.cu: kRunsReadRounds). */
#define CUPERM_RUNS_MAX_READ_GRANULES (4 * CUPERM_THREADS)

/* Blocks an SM the runs-form kernel is compiled for (its launch bounds: 4 leave 64 registers a thread);
 * the planner launches at most this many an SM (cuperm_transpose_tuning_t.runs_blocks_per_sm). Defined
 * on the command line, it builds the variants an A/B compares (scripts/lib/variant-timer.sh). */
#ifndef CUPERM_RUNS_MAX_BLOCKS_PER_SM
#define CUPERM_RUNS_MAX_BLOCKS_PER_SM 4
#endif

/* A WHOLE_DIMS tile holds at most this many elements (8 per thread). */
#define CUPERM_WHOLE_DIMS_MAX_VOLUME 2048

/* The tile walk's divisors as magic numbers (cuperm_tile_divisors, at launch), passed to
 * the kernels beside cuperm_tile_params_t: the extents, a_tiles, b_tiles, a_tiles * b_tiles,
 * band_tiles * b_tiles, band_tiles and the last band's width. */
typedef struct {
    cuperm_fastdiv_t dim[CUPERM_MAX_RANK];
    cuperm_fastdiv_t a_tiles, b_tiles, plane, band_plane, band, last_band;
} cuperm_tile_divs_t;

typedef enum {
    CUPERM_LAUNCH_COPY = CUPERM_KERNEL_COPY,
    CUPERM_LAUNCH_TILED = CUPERM_KERNEL_TILED,
    CUPERM_LAUNCH_ROWS = CUPERM_KERNEL_ROWS,
    CUPERM_LAUNCH_WHOLE_DIMS = CUPERM_KERNEL_WHOLE_DIMS,
    CUPERM_LAUNCH_ROW_TILES = CUPERM_KERNEL_ROW_TILES
} cuperm_launch_kind_t;

/* Everything an execute needs besides pointers and scalars. */
typedef struct {
    cuperm_launch_kind_t kind;
    int elem_size;
    int threads;
    int64_t blocks;
    int smem_bytes;
    int64_t volume;
    int copy_unroll;           /* COPY: vectors a thread, 1 or CUPERM_COPY_UNROLL_MAX (select.c: copy_form) */
    cuperm_tile_params_t tile; /* every kind but COPY */
} cuperm_launch_t;


/* ---- contractions' own kernels ------------------------------------------------- */

/* The pointer-array builder for cuBLAS batched GEMMs (backend/cuda/gemm_pointers.cu):
 * dim[0] is the strided batch, the rest the looped modes (free modes of D, so at most
 * CUPERM_MAX_RANK of them; unit extents dropped and contiguous ones fused). */
#define CTR_PTR_MAX_DIMS (CUPERM_MAX_RANK + 1)

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
    int rank;                               /* dimensions in dim[] (at least 1: the batch) */
    int64_t count;                          /* entries: the volume of dim[] (< 2^22) */
    int64_t elemBytes[3];                   /* first, second, output */
    cuperm_dim3_t dim[CTR_PTR_MAX_DIMS];    /* strides in first, second, output (elements) */
    cuperm_fastdiv_t div[CTR_PTR_MAX_DIMS]; /* the extents' magic numbers */
} cuperm_ctr_ptr_params_t;

#endif
