/*
 * Tuning as per-architecture data: what the planners assume of a device family,
 * chosen once per handle from the compute capability (cupermCreate). Numbers are
 * measurements or datasheet rates of the family's reference part, scaled by the
 * device's own SM count and memory bandwidth where they apply; an architecture
 * with no entry gets the documented defaults and says so (name, tuned = 0), and
 * plan infos report which table planned them.
 *
 * What is not here: hardware limits the device reports (shared memory per block:
 * cuperm_device_info_t) and contracts with the kernels (threads per block, items
 * per thread, 16 KB vector tiles, the swizzle's minimum tile sides:
 * core/kernel_params.h and plan/transpose/select.c), which no table may change.
 */
#ifndef CUPERM_CORE_TUNING_H
#define CUPERM_CORE_TUNING_H

#include "core/device_info.h"

/* GEMM units, as the contraction cost model indexes them. */
enum { CUPERM_RATE_FP64 = 0, CUPERM_RATE_FP32 = 1, CUPERM_RATE_TF32 = 2, CUPERM_RATE_FP16 = 3, CUPERM_RATES = 4 };

/* The transpose time model's classes (plan/transpose/model.h: cuperm_model_class_t). */
enum { CUPERM_TRANSPOSE_MODEL_CLASSES = 5 };

/* The transpose planner's rules (plan/transpose/select.c) and its time and
 * alignment models (plan/transpose/model.c). */
typedef struct {
    /* Grouping and tile shape */
    int short_run_bytes;             /* a group whose contiguous run is shorter picks its next dimension first */
    int group_grow_until;            /* groups A and B grow until they span this many elements */
    int tile_a_min_bytes;            /* a scalar tile's A side spans at least this many bytes ... */
    int tile_a_min_elems;            /* ... and at least this many elements (where the group is that long) */
    int tile_a_small_bytes;          /* the same bytes for elements of 1 and 2 bytes (0: tile_a_min_bytes) */
    int tile_side_max_log2;          /* candidates' tile sides stay within 2^this elements */
    double fill_reshape_margin;      /* a scalar tile takes the reshape (same size, both sides within a block, A
                                      * and B sides of at least fill_reshape_min_a_bytes and _b_bytes) that fills
                                      * its slots most where that fills them this fraction more (0: never) */
    int fill_reshape_min_a_bytes, fill_reshape_min_b_bytes;
    /* Vector paths */
    int tiled_min_vec_bytes;         /* tiled: 16-byte vectors, else 8-byte ones if this is <= 8, else 4-byte ones
                                        (1- and 2-byte elements) if it is 4 */
    int tiled_shifted_max_elem;      /* tiled: shifted 16-byte vectors, where no aligned ones fit, for elements of
                                      * at most this many bytes (1 or 2; 0: never) */
    int tiled_wide_small_tiles;      /* 1: scalar tiles of 1- and 2-byte elements hold CUPERM_TILE_ITEMS_WIDE elements a
                                      * thread where both sides stay within a block */
    int tiled_shifted_lane_writes;   /* 1: shifted tiles of 8 vectors per column write by lanes (vec_shifted 2) */
    int vec_row_bytes;               /* a vector tile's A side, in bytes (elements of 2 bytes and more) */
    int vec_row_bytes_1byte;         /* the same for 1-byte elements */
    int vec_row_bytes_2byte;         /* the same for 2-byte elements (0: vec_row_bytes) */
    int rows_vec_max_log2;           /* a vector rows tile spans up to 2^this vectors of a row */
    int rows_small_side_log2;        /* a scalar rows tile of 1- or 2-byte elements spans up to 2^this elements of a
                                      * row (0: as for larger elements) ... */
    int rows_1byte_short_side_log2;  /* ... and of 1-byte elements up to 2^this where the whole row is no longer than
                                      * that (0: no other limit) */
    int rows_2byte_min_side_log2;    /* 2-byte elements: the side down to 2^this that fills the row best (0: none) */
    int rows_wide_min_side_log2;     /* elements of 8 bytes and more: the side down to 2^this that fills the
                                      * row best, rows of any length (0: none) */
    int rows_part_pack_elems;        /* element sizes (bit 1 << size) whose shared fastest dimension may move
                                      * packed in part: a power-of-two part of it as one wide element
                                      * (cuperm_problem_pack); 0: whole rows only */
    double vec_min_relative_fill;    /* a vector tile must fill this fraction of what the scalar tile fills */
    /* Alignment (sector) cost and the tile walk */
    double align_margin;             /* an alternative must cost this fraction less to replace the rules' plan */
    double sector_write_weight;      /* writes' weight against reads' 1 in the sector cost */
    double sector_fill_exponent;     /* the sector cost is divided by fill^this */
    double sector_eff_tolerance;     /* sector efficiencies this close count as equal */
    int walk_band_tiles;             /* band width (A tiles) of the banded tile walk */
    int copy_unroll;                 /* COPY launches (contiguous on both sides): vectors a thread (1 or
                                      * CUPERM_COPY_UNROLL_MAX) ... */
    int copy_unroll_l2;              /* ... and where input and output fit in L2 together and a grid of this
                                      * many a thread still has a block for every SM */
    double warp_reshape_below;       /* a scalar tile whose warps' stores fill less of their sectors than
                                      * this (cuperm_warp_efficiency) takes the reshape that fills most (0: never) */
    double warp_reshape_min_fill;    /* ... among those filling at least this fraction of its slots */
    int small_tiles;                 /* 1: a scalar launch of 1-, 2- or 4-byte elements whose tiles at a quarter
                                      * of their size still fit the device's resident blocks in one wave takes
                                      * those small tiles (CUPERM_TILE_ITEMS_SMALL a thread); 0: never */
    int pipelined_min_elem;          /* staged scalar tiles (sides within a block, standard or small) of elements of
                                      * at least this many bytes (of 4, 8 and 16) run pipelined
                                      * (cuperm_tile_params_t.pipelined) where input and output fit in L2 together;
                                      * 0: never (measure mode's candidates still) ... */
    double pipelined_max_l2_multiple; /* ... where they take up to this many times the L2 and the stores fill at
                                      * least pipelined_min_store_eff of their sectors ... */
    double pipelined_min_store_eff;
    double pipelined_max_fill;       /* ... and on tensors of any size where each tile's elements fill less than this
                                      * fraction of its slots (cuperm_tile_inner_fill; 0: never) */
    double lean_min_store_eff;       /* standard scalar tiles of 8- and 16-byte elements take the fast path's lean
                                      * form (cuperm_tile_params_t.lean) where their stores fill at least this
                                      * fraction of their sectors (cuperm_sector_efficiency; above 1: never) ... */
    int lean_partial_min_b_bytes;    /* ... or where each warp instruction's stores fill theirs
                                      * (cuperm_warp_efficiency) and the tile's B side spans at least this many
                                      * bytes (0: no such tiles) */
    /* WHOLE_DIMS launches (plan/transpose/whole_dims.h) */
    int whole_dims_run_bytes;            /* the tile grows until both sides' contiguous runs span this many bytes */
    int whole_dims_blocks_per_sm;        /* resident blocks per SM that walk the tiles */
    int whole_dims_short_run_bytes;      /* the rules' plan gives way when both its runs are shorter (a tile
                                          * launch's: cuperm_tile_dense_run), unless it is a rows launch whose
                                          * tiles span 2^whole_dims_rows_min_side_log2 elements of the shared
                                          * dimension and read whole_dims_rows_min_read_eff of their sectors ... */
    int whole_dims_rows_min_side_log2;
    double whole_dims_rows_min_read_eff;
    int whole_dims_min_tiles_per_block;  /* ... and each whole-dims block walks at least this many tiles */
    int whole_dims_max_tile_items;       /* it also replaces a tile launch of at most this many elements a thread
                                          * (a short group left the tile that small), whatever its runs */
    /* WHOLE_DIMS launches in spans (whole_dims.h: cuperm_whole_dims_span_launch) */
    int span_max_elem;                   /* elements of at most this many bytes (0: never) take the span form ... */
    int span_max_run_elems;              /* ... where the rules' launch reads or writes runs of at most this many
                                          * elements within its tiles ... */
    int span_min_tile_bytes;             /* ... and its tiles span this many bytes or more */
    int span_tile_bytes;                 /* a tile spans about this many bytes (one inner block at least) */
    int span_max_inner;                  /* most elements below the tile's last dimension (16-bit slots) */
    int span_blocks_per_sm;              /* resident blocks per SM that walk the tiles */
    int span_gather_max_elem;            /* elements of at most this many bytes write through a gather table */
    /* WHOLE_DIMS launches in runs (whole_dims.h: cuperm_whole_dims_runs_launch) */
    int runs_max_elem;                   /* elements of at most this many bytes (0: never; 2 at most) have them */
    int runs_tile_bytes;                 /* a tile holds about this many bytes */
    int runs_run_bytes;                  /* it grows until both sides' runs are this long, where dimensions fit */
    int runs_min_chunks;                 /* a split with a short last chunk makes at least this many chunks */
    int runs_rule_max_elem;              /* elements of at most this many bytes take it in place of ... */
    int runs_rule_min_run_bytes;         /* ... a scalar tile launch where both its runs are this long ... */
    int runs_rule_min_tiles_per_block;   /* ... where each block walks this many tiles or more, and the tiles'
                                          * fill times their warps' sector use is at most ... */
    double runs_rule_max_tile_eff;
    int runs_rule_min_tile_bytes;        /* ... and its tiles hold this many bytes or more */
    int runs_blocks_per_sm;              /* resident blocks per SM that walk its tiles, where their shared memory
                                          * fits (at most CUPERM_RUNS_MAX_BLOCKS_PER_SM: the kernel's bound) */
    /* ROW_TILES launches (plan/transpose/row_tiles.h) */
    int row_tiles_max_row_bytes;         /* rows shorter than this have a row-tiles launch (0: none) ... */
    int row_tiles_min_row_bytes;         /* ... which replaces a rows launch whose rows are this long or more
                                          * ... */
    double row_tiles_max_fill;           /* ... where the rows launch's elements fill at most this fraction of its
                                          * tiles' slots (cuperm_tile_fill: rows shorter than the tile side) */
    int row_tiles_tile_bytes;            /* most bytes a row tile holds */
    /* Time model: t = t0 + bytes / (peak * efficiency[class] * min(1, run / model_run_bytes)^gamma) */
    double model_t0;                 /* seconds */
    double model_gamma;
    double model_run_bytes;
    double model_efficiency[CUPERM_TRANSPOSE_MODEL_CLASSES]; /* fraction of the DRAM peak, per class */
    int model_dram_atom_bytes;       /* DRAM's access unit: where a side's footprint has gaps, the model
                                        counts the atoms it touches, and writes that leave an atom partly
                                        written count its read too (cuperm_footprint_traffic; 0: off) */
} cuperm_transpose_tuning_t;

/* The GETT kernels' time model for grids of at most one wave (plan/contraction/gett_cost.c):
 * t = seconds0 + ceil(K / tile depth) * stepSeconds + bytes * byteSeconds, where a wave is
 * residentBlocks blocks per SM. seconds0 0: not measured; model plans never choose that family. */
typedef struct {
    double seconds0;    /* launch and one tile's load, multiply and store */
    double stepSeconds; /* one step of K through the block's pipeline */
    double byteSeconds; /* per byte of A, B and D */
    int residentBlocks; /* blocks an SM holds at once */
    /* Operators the plan does not fold into the scalars (plan/contraction/gett_cost.c): a fixed
     * time for the kernel's operator instance, and per step of K and input operand with an
     * operator, cheap (abs, relu, leaky_relu) or costly (elu, sigmoid, tanh, exp, sqrt).
     * opSeconds0 0: not measured; model plans with such operators never take that family. */
    double opSeconds0;
    double opStepSeconds[2];
} cuperm_gett_tuning_t;

/* GETT kernel families: tensor cores (fp16 / bf16), CUDA cores fp32, CUDA cores fp64. */
enum { CUPERM_GETT_TENSOR_CORES = 0, CUPERM_GETT_FP32 = 1, CUPERM_GETT_FP64 = 2, CUPERM_GETT_FAMILIES = 3 };

/* The D-tile GETT kernel's time model (plan/contraction/gett_dtile_cost.h): t = seconds0 + one
 * block's work (items, panel sector bytes and load instructions per warp, D's sector bytes and
 * store instructions per warp) times these.
 * itemSeconds 0: not measured; model plans never take the kernel. */
typedef struct {
    double seconds0;
    double itemSeconds;
    double panelByteSeconds;
    double loadSeconds;
    double dByteSeconds;
    double storeSeconds;
    double margin; /* a model plan takes the kernel when its time x this is below the best other plan's */
    /* Its packed path (plan/contraction/gett_dtile_cost.h: cuperm_ctr_dtile_packed_seconds), bound by
     * writing D: packedSeconds0 + bytes / (dram_bytes_per_second x copy_efficiency x
     * packedEfficiency), weighed by packedMargin instead of margin. packedEfficiency 0: not measured;
     * model plans price the gathering kernel. */
    double packedSeconds0;
    double packedEfficiency;
    double packedMargin;
} cuperm_dtile_tuning_t;

/* The skinny GETT kernel's time model (plan/contraction/gett_cost.c): it is bound by memory, so
 * t = seconds0 + bytes / (dram_bytes_per_second x copy_efficiency x efficiency), bytes A's and D's
 * sectors at the runs its tiles hold, plus B once a block. efficiency 0: not measured; model plans
 * never take the kernel. */
typedef struct {
    double seconds0;
    double efficiency; /* of a same-run device copy's rate */
    double margin;     /* a model plan takes it when its time x this is below the best other plan's */
} cuperm_skinny_tuning_t;

typedef struct {
    const char* name;                       /* e.g. "sm_90 (H100 measurements)" */
    int tuned;                              /* 0: defaults for an architecture nobody measured */
    int cc_major;                           /* the family (compute capability major) it was made for */
    double gemm_flops_per_sm[CUPERM_RATES]; /* dense GEMM peak per SM, FLOP/s */
    double copy_efficiency;                 /* fraction of the theoretical DRAM bandwidth a copy reaches */
    cuperm_transpose_tuning_t transpose;    /* the transpose planner's */
    double dist_link_overlap;               /* fraction of the local transposes' time that a distributed
                                               plan's NCCL exchange hides (dist/plan.c cost model) */
    int dist_store_blocks_per_sm;           /* grid cap, blocks an SM, of the transposes that store into
                                               other GPUs' bound outputs (dist/run.c; 0: none) */
    double dist_barrier_seconds;            /* one kernel barrier over an NCCL window's ranks (dist/plan.c
                                               peer-stores model) */
    double dist_moves_bytes_per_second;     /* bytes read and written per second by the moves kernel
                                               (backend/cuda/dist/moves.h; dist/plan.c one-kernel model) */
    double dist_peer_bytes_per_second;      /* what one peer's grouped NCCL send/receive reaches alone (the
                                               overlapped contraction's rounds, dist/contraction.c; 0: the
                                               link's whole rate) */
    double dist_unpack_overlap;             /* peer stores in k stages: fraction of the unpacks of stages
                                               1 .. k-1 that the next stage's stores hide (dist/plan.c) */
    double dist_permuting_store_rate;       /* peer stores: the link rate that stores from a permuting
                                               transpose reach, over a copy's (dist/plan.c; 1: the same) */
    double gemm_batch_k_seconds[CUPERM_RATES]; /* a batched GEMM's thread block per step of k (0: not
                                                * modelled; src/plan/contraction/gemm_cost.c) */
    double memset2d_row_seconds; /* cudaMemset2DAsync per row of a padded GEMM's K padding (layout.c) */
    double ctr_short_run_octave; /* log factor on a contraction's transpose per octave its shared fastest run
                                    lies below 256 bytes (exec/contraction/plan.c: predict_transpose; 0: none) */
    cuperm_gett_tuning_t gett[CUPERM_GETT_FAMILIES];
    double gett_margin; /* a model plan takes GETT when its time x this is below TTGT's predicted time */
    cuperm_dtile_tuning_t dtile;
    cuperm_skinny_tuning_t skinny;
} cuperm_tuning_t;

/** The table for a device (never NULL: unknown families get the defaults). */
const cuperm_tuning_t* cuperm_tuning_for(const cuperm_device_info_t* dev);

#endif
