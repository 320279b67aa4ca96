#include "core/tuning.h"

#include <stddef.h>

#include "core/tuning_model_sm90.h"

/* Small elements' A sides (see .tile_a_small_bytes): 0 keeps the rules for larger elements. */
#define CUPERM_SM90_TILE_A_SMALL_BYTES 64
#define CUPERM_SM90_VEC_ROW_BYTES_2BYTE 128
/* Small elements' scalar rows tiles (see .rows_small_side_log2): 0 keeps the rules for larger elements. */
#define CUPERM_SM90_ROWS_SMALL_SIDE_LOG2 7
#define CUPERM_SM90_ROWS_2BYTE_MIN_SIDE_LOG2 5

/* The transpose planner's numbers, all set or fitted on the H100 (sm_90), the only
 * part transposes were measured on. Where each came from: */
#define CUPERM_TRANSPOSE_TUNING_SM90                                                                         \
    {                                                                                                        \
        /* 128 bytes: one L2 line. A run shorter than that picking its next dimension out of turn lifted  \
         * a rank-8 case (extents 59 and 2) from 41% to 95% of copy; long runs doing so lost 30 points. */ \
        .short_run_bytes = 128,                                                                              \
        /* Groups span 1024 elements: tiles fill and waste little at the edges (first planner). */         \
        .group_grow_until = 1024,                                                                            \
        /* A scalar tile's A side: a 128-byte line, at least 32 elements (first planner). */               \
        .tile_a_min_bytes = 128, .tile_a_min_elems = 32,                                                     \
        /* 1- and 2-byte elements: a 64-byte A side, so B (the writes) gets the longer runs: measure  \
         * mode chose 64 x 128 and 32 x 256 over the heuristic's 128 x 64 on most random and held-out    \
         * prime tensors; A/B on the H100: medians +5 to +9 points there, +5.8 (i8) and +1.3 (f16) on     \
         * held-out mixed ranks, TTC-57 unchanged; one mixed f16 case -23 (bench/results/heuristic-h100/). */\
        .tile_a_small_bytes = CUPERM_SM90_TILE_A_SMALL_BYTES,                                                 \
        /* Tile sides up to 2048 elements: a whole 8-byte tile (256 threads x 8 items) on one side. */     \
        .tile_side_max_log2 = 11,                                                                            \
        /* A group's last tile mostly empty (131 in sides of 64: 68% of the slots filled): the reshape   \
         * that fills most, where it fills 10% more, an A side of 128 bytes, a B side of 256 (B sides of \
         * 128 bytes lost 1.17-1.39x on 4-, 8- and 16-byte cases drawn for the rule; 256 won). Every     \
         * candidate timed on the H200 (bench/results/tile-rules-h200/). */                             \
        .fill_reshape_margin = 0.1, .fill_reshape_min_a_bytes = 128, .fill_reshape_min_b_bytes = 256,        \
        /* 8-byte vectors where 16-byte ones do not fit lifted 4-byte tensors of even extents by 6-19    \
         * points of copy (small 4-byte median 88.8 -> 95.4%). The rows kernel has 16-byte vectors only: \
         * 8-byte ones ran a 6 x 4-byte row case at 76% of copy instead of the scalar rows' 100%.        \
         * 4-byte vectors (1- and 2-byte elements whose extents are even) lifted those f16 tiles from     \
         * 29-38% to 46-59% of copy (bench/results/vec4-tiles-h100/). */                                    \
        .tiled_min_vec_bytes = 4,                                                                            \
        /* Shifted 16-byte vectors (any extent) against the scalar tiles they replace, random suite, same   \
         * run (bench/results/shifted-tiles-h100/): 1-byte 15-20% -> 24-56% of copy on 15 of 16 cases, but  \
         * 2-byte 33-38% -> 25-31%; where aligned 4-byte vectors fit they beat both (an i8 case 50 vs 31%). \
         * Since the scalar tiles' lean form with 16 items (tile_lean.cuh) they lose to it: off, 1-byte       \
         * random 41.7 -> 43.5% median, 14 cases up by 4.7-27 points, one down (56.1 -> 45.3); held-out     \
         * primes 38.2 -> 43.2%, 28 up, none down (bench/results/word-reads-h100-dropped/). */                \
        .tiled_shifted_max_elem = 0,                                                                         \
        /* Wide scalar tiles for 1- and 2-byte elements (32 a thread where both sides stay within a          \
         * block), against 16 a thread, same run: random i8 43.1 -> 54.4% median, f16 66.6 -> 72.0;          \
         * held-out primes i8 43.2 -> 47.6, f16 62.6 -> 67.4 (4 of 80 cases 4-7 points down); worst          \
         * cases unchanged (bench/results/beta-loads-h100/). */                                              \
        .tiled_wide_small_tiles = 1,                                                                         \
        /* Their write pass by lanes (aligned gathers, shifted across lanes, partial vectors by pieces):  \
         * NOT YET MEASURED, so off. */                                                                       \
        .tiled_shifted_lane_writes = 0,                                                                      \
        /* Vector tiles of 256-byte rows (128 for 1-byte elements) beat the 128 x 128-byte tiles. */      \
        .vec_row_bytes = 256, .vec_row_bytes_1byte = 128, .vec_row_bytes_2byte = CUPERM_SM90_VEC_ROW_BYTES_2BYTE,                                                    \
        /* Vector rows tiles: rows of up to 32 vectors, 64 bytes a thread. */                              \
        .rows_vec_max_log2 = 5,                                                                              \
        /* Scalar rows tiles of 1- and 2-byte elements: at most 128 elements of a row instead of 256; for  \
         * 1-byte elements 32 (a warp) where the row has at most 128; for 2-byte rows of at most 128 the  \
         * side down to 32 whose tiles leave the least of the row idle. Read off every candidate timed on \
         * tuning suites, checked on suites drawn afterwards (bench/results/rows-small-h100/): 39 of 45   \
         * changed cases faster there (up to 1.98x), 3 slower by 1-3%. A plain 32-element side for short  \
         * f16 rows lost on held-out suites (up to 22%) and is not used. */                                  \
        .rows_small_side_log2 = CUPERM_SM90_ROWS_SMALL_SIDE_LOG2, .rows_1byte_short_side_log2 = 5,           \
        .rows_2byte_min_side_log2 = CUPERM_SM90_ROWS_2BYTE_MIN_SIDE_LOG2,                                     \
        /* Rows of 8- and 16-byte elements: the side down to 32 whose tiles leave the least of the row   \
         * idle (a row of 144 fills 160 in tiles of 32, 256 in one of 256; 324 fills 352 against 512).    \
         * Every candidate timed on the H200: n^6 0,1,3,2,4,5 f64 for n = 12, 14, 18, 24 ran 1.07-1.34x    \
         * faster, two prime cases 1.04-1.08x; held out (session 46's c64 timings, drawn before the rule): \
         * TTC-57 and prime cases 1.00-1.12x faster, none slower (bench/results/rows-fill-h200/). 4-byte   \
         * rows were not measured and keep 256. */                                                            \
        .rows_wide_min_side_log2 = 5,                                                                        \
        /* Shared rows packed in part (2 u8 as a 2-byte element, 2 f32 as 8 bytes, ...), against the plans  \
         * of the whole elements, same run: tuning suites u8 / f16 / f32 1.26 / 1.16 / 1.09x by geomean; 120 \
         * changed cases drawn afterwards 1.56 / 1.15 / 1.18x, slower than 0.95x in 3 of 45 / 10 of 52 / 1   \
         * of 23, the worst 0.77 / 0.55 / 0.92x (bench/results/rows-partial-pack-h100/). f16 rows keep their \
         * own short-row tiles (rows_2byte_min_side_log2): not packed in part. */                             \
        .rows_part_pack_elems = (1 << 1) | (1 << 4),                                                        \
        /* Vectors cut per-element work by their width, which outweighs some idle slots: 46 x 4-byte    \
         * input rows fill 72% with 64-element vector tiles, as with the scalar ones. */                   \
        .vec_min_relative_fill = 0.75,                                                                       \
        /* Sector cost (set from the alignment profiles in the issue, not fitted): a margin of 2% keeps   \
         * the rules' plan wherever both align equally (every power-of-two shape); a partly written      \
         * sector costs L2 a merge and DRAM a read, hence writes x1.5; fill^(1/4) charges idle slots. */   \
        .align_margin = 0.02, .sector_write_weight = 1.5, .sector_fill_exponent = 0.25,                      \
        .sector_eff_tolerance = 0.005,                                                                       \
        /* Bands of 8 A tiles bring B-neighbour tiles close in time where a plane has more A tiles than  \
         * B tiles (plan/transpose/select.c: choose_band). */                                             \
        .walk_band_tiles = 8,                                                                                \
        /* Copies: four 16-byte vectors a thread (the first planner's number) ran DRAM-sized copies at      \
         * 96-97% of cudaMemcpyAsync on the H200, one a thread (a grid of 4 KB blocks) at 100%: 0.96-0.97x   \
         * the time from 64 MB to 4 GB, f64, f32, f16; 0.985-0.989x with beta != 0. Copies within L2 whose   \
         * grid of four a thread fills the SMs keep four (4 MB: one a thread 1.07-1.11x slower; 16 MB       \
         * even); smaller ones, which would leave SMs idle, take one (1 MB: 0.90-0.95x) (H200,              \
         * bench/results/copy-vectors-h200/; not measured on an H100). */                                   \
        .copy_unroll = 1, .copy_unroll_l2 = 4,                                                               \
        /* A warp store of half sectors (a 2-3 element output run continued by A's first dimension, on  \
         * tiles 64 wide along B) made 2 of 800 H100 cases 1.4x slower than a reshape that stores whole \
         * sectors (bench/results/warp-reshape-h100/); 0.6 and 95% of the fill touch no other case.    */ \
        .warp_reshape_below = 0.6, .warp_reshape_min_fill = 0.95,                                            \
        /* Small tiles for tensors that leave SMs idle: every candidate of L2-sized cases (f32, f16, i8, \
         * f64; 64 KB-32 MB) timed with graph replays on the H100, the rules' tile at 1/4 of its size    \
         * against it: where the rule takes them (they fit one wave of resident blocks) 0.70-0.98x the   \
         * time by geomean per suite, drawn-afterwards suites included, no changed case slower than      \
         * 1.11x (bench/results/small-tiles-h100/). */                                                    \
        .small_tiles = 1,                                                                                    \
        /* The pipelined tile kernel (loads by cp.async into a second buffer while the block writes)    \
         * against the same tiles unpipelined, every candidate timed on an H200 (not on an H100):          \
         * L2-sized 8- and 16-byte tensors 0.88-0.95x by median (small f64 fitted; drawn afterwards: l2,   \
         * l2-heldout f64, l2-heldout and small c64, small f64 of another seed: planner's time 0.94-0.95x  \
         * by geomean, none of 142 changed plans slower than 1.04x); L2-sized f32 1.24x, DRAM-sized 8-byte \
         * 1.04-1.39x, 16-byte 0.97-1.18x (bench/results/pipelined-tiles-h200/). */                       \
        .pipelined_min_elem = 8,                                                                             \
        /* ... and on tensors whose input and output take up to 3 L2s where the stores fill their        \
         * sectors: H200, every candidate timed, 8- and 16-byte elements, pipelined over plain between 1  \
         * and 3 L2s: 0.94-0.96 by geomean (92 pairs) where the stores fill 90% of their sectors or more, \
         * 1.08 (10) below (partly written sectors then go to DRAM, read-modify-write); 4.3 L2s (16^6     \
         * f64) 1.05-1.12 (bench/results/tile-rules-h200/). */                                             \
        .pipelined_max_l2_multiple = 3.0, .pipelined_min_store_eff = 0.9,                                    \
        /* ... and where every tile is partly empty (a group shorter than its side: cuperm_tile_inner_fill). \
         * n^6, n = 19 or 21, put runs of 19-21 in 64 x 32 tiles (59-66% of the slots filled): fewer loads  \
         * in flight a thread, and the pipelined kernel keeps the next tile's coming. On the H200, of every \
         * candidate timed, the pipelined twin ran 1.16-1.29x as fast on 7 DRAM-sized f64 cases below 70%,  \
         * 1.00-1.25x on 14 held-out f64/c64 cases drawn afterwards (bench/results/pipelined-fill-h200/);  \
         * 23^6 f64 at 72% 1.09-1.12x (hence 0.75, session 49); a prime case whose average fill of 0.68    \
         * came from its last tiles (full tiles inside) ran 1.46x slower pipelined (the average fill was  \
         * the rule until session 49). f32 stays plain (0.67-0.80x). */                                     \
        .pipelined_max_fill = 0.75,                                                                          \
        /* The lean form of 8- and 16-byte tiles (tile_lean.cuh; 48 registers, 5 blocks an SM, where the     \
         * checked form takes 64 and 4), every candidate timed on an H200 against the checked form: 0.90x    \
         * the time by geomean on 415 8-byte tiles whose stores fill their sectors, none slower than 1.005x  \
         * (session 53's form, bench/results/lean-f64-h200/; the spread form 0.999x of it on 161 16^6        \
         * tiles). Where stores leave sectors partly written (n^6, n = 13, 19, 21, 23, and prime extents,    \
         * 8-byte; 431 tiles): 0.91x where each warp instruction's stores fill theirs and the B side spans   \
         * 512 bytes or more (217 tiles, none slower than 1.028x), 1.03-1.13x by tile shape on shorter B     \
         * sides. Held out (15^6 and 17^6 f64 and c64, 16^6 and TTC-57 c64): planner's launch 0.91-0.97x by  \
         * geomean per suite, none slower than 1.005x (bench/results/lean-spread-h200/). Operators that      \
         * compute keep the checked form. */                                                                 \
        .lean_min_store_eff = 0.995, .lean_partial_min_b_bytes = 512,                                        \
        /* Whole-dims tiles grow until both runs span 512 bytes (4 lines); 4 blocks per SM (48 KB each)      \
         * walk the tiles. They replace the rules' tile launch when its runs are shorter than 64 bytes       \
         * on both sides (2 sectors: two rank-8 and rank-12 cases of extents 2-5 and 21-40 went from         \
         * 38.7 and 56.5 to 87.3 and 89.8% of copy, H100) and each block walks 8 tiles or more (an           \
         * L2-resident case with 2 tiles per block ran at a third of the tile launch's speed).               \
         * Not tuned beyond that: the kernel reaches ~75% of copy where the tile kernels reach 95. */        \
        .whole_dims_run_bytes = 512, .whole_dims_blocks_per_sm = 4, .whole_dims_short_run_bytes = 64,        \
        /* Since session 49 a tile launch's runs count across both its groups (cuperm_tile_dense_run:  \
         * 14^6 and 15^6 f32 took whole-dims at 1.5-2.1x the tiles' time), and a rows launch keeps its    \
         * place where its tiles span 8 elements of the shared dimension or more and read 65% of their   \
         * sectors (rows of 8-15 f32 elements won by up to 2.2x; of 3-7, and of 2-3 c64, lost by up to    \
         * 1.7x). H200, every candidate timed, 54 changed cases drawn afterwards: the planner's launch    \
         * 1.47 -> 1.03 of the fastest candidate (bench/results/tile-rules-h200/, section 6). */           \
        .whole_dims_rows_min_side_log2 = 3, .whole_dims_rows_min_read_eff = 0.65,                            \
        .whole_dims_min_tiles_per_block = 8,                                                                 \
        /* A tile a short group leaves at 4 elements a thread or fewer (f32 4 x 256, f64 4 x 256 and 2 x 256 \
         * on batched 4 x 24 .. 2 x 64 transposes) ran at 0.46-0.95x whole-dims' speed; 8 a thread (f32    \
         * 8 x 256) at 0.95-1.6x (H200, every candidate timed: bench/results/block-sides-h200/). */           \
        .whole_dims_max_tile_items = 4,                                                                      \
        /* The span form: batches of small transposes in elements of 1-4 bytes (2 x 62 x 1729307 bytes, perm \
         * 1,0,2), whose tile launches cut one side into runs of a few bytes (5-12% of copy at 1-2 bytes,    \
         * H200, bench/results/shortgroup-h200/). 16 KB spans; 4 blocks an SM (64 registers) walk them.      \
         * A scalar tile moves a run of r elements with r lanes: runs of 10 or fewer split each warp access  \
         * into 4 or more pieces, 11-12 into 3. On cases drawn where 8 -> 12 changes the plan (H200, every   \
         * candidate timed, bench/results/span-runs-h200/), the span form took 0.34x (1 byte), 0.51x (2) and \
         * 0.83x (4, worst 0.97x) the tiles' time, held out. Past 12 the n^6 suites' plans change, and there \
         * the tile launches were up to 2.4x faster than the spans (runs of 13-24 elements with outer        \
         * dimensions permuted: session 60, and session 63's bytes48/); tiles of under 8 KB (a short batch:  \
         * 13^3 elements) lost too (bench/results/spans-h200/). */                                           \
        .span_max_elem = 4, .span_max_run_elems = 12, .span_min_tile_bytes = 8192, .span_tile_bytes = 16384,  \
        .span_max_inner = 4096, .span_blocks_per_sm = 4,                                                     \
        /* The gather table: 1- and 2-byte spans ran 1.13-1.37x faster with it (median 52 -> 71% of copy at \
         * 1 byte, 69 -> 78% at 2; the tiles shrink to fit a block's 48 KB: about 12 KB and 15 KB). 4-byte  \
         * spans keep the kernel without it: under the 64-register bound the table's kernel needs, they ran \
         * 10-14% slower with the table and without it (H200, bench/results/spans-gather-h200/). */          \
        .span_gather_max_elem = 2,                                                                           \
        /* The runs form: whole-dims tiles of 1- and 2-byte elements moved by 16-byte vectors on both sides   \
         * through a gather table (a table entry per element: 8 KB tiles keep two copies and the table in   \
         * a block's 48 KB); split chunks in whole granules, 64 at least where the last is short. It takes   \
         * the place of scalar tiles of bytes where both its runs span 128 bytes or more (runs of 16 and 64  \
         * lost 1.6x and 3.5x), each block walks 8 tiles or more (4 or fewer: 1.2-2.5x), its tiles hold 4 KB \
         * or more (784-byte tiles: 2.5x) and the tiles' fill times their warps' sector use is at most 0.45   \
         * (the form runs at 45-56% of copy; better tiles won). Held out (H200, every candidate timed, cases  \
         * drawn after the rule): 0.49x the time on batches of small transposes, 0.75x on rank 4-8 mixed     \
         * extents (worst 1.87x). At 2 bytes it lost to tiles at 66% of copy, so 2-byte tiles keep their     \
         * place (bench/results/runs-h200/). */                                                              \
        .runs_max_elem = 2, .runs_tile_bytes = 8192, .runs_run_bytes = 512, .runs_min_chunks = 64,          \
        .runs_rule_max_elem = 1, .runs_rule_min_run_bytes = 128, .runs_rule_min_tiles_per_block = 8,        \
        .runs_rule_max_tile_eff = 0.45, .runs_rule_min_tile_bytes = 4096,                                    \
        /* 4 blocks an SM of 64 registers a thread, its spills included: 3 blocks of 80 registers (few       \
         * spills) took 1.06x the time, 5 of 48 (spilling 200-280 bytes a thread) 1.28x (H200, every runs    \
         * candidate of 129 cases, bench/results/runs-h200/session65/). */                                   \
        .runs_blocks_per_sm = 4,                                                                             \
        /* Row tiles (16 KB, as the other tiles) for rows under 2 KB; they replace a rows launch of rows of  \
         * a sector or more whose elements fill at most 75% of its tiles' slots. H200, every candidate       \
         * timed (bench/results/row-tiles-h200/): on the n^6 rows cases the rule was read from (f64          \
         * n = 12-24, f32 n = 16-24) row tiles ran 0.76-0.97x the rows launch's time where its tiles were    \
         * at most 72% full (17-23 elements in sides of 32), 0.95-1.08x where 81-100%; rows under a sector   \
         * lost 1.1-1.9x on the suites looked at next (L2-sized and mixed-rank f32). With vectors (session   \
         * 56, bench/results/row-tiles-vec-h200/) they also pay over vector rows and over tiles exactly      \
         * 75% full (12 in 16, 24 in 32): over the seen n^6 cases with vectors, 0.933x the time of the rule  \
         * before at f32 (16 cases, n = 16-24), 0.984x at f64 (30, n = 12-24).                           */ \
        .row_tiles_max_row_bytes = 2048, .row_tiles_min_row_bytes = 32, .row_tiles_max_fill = 0.75,          \
        .row_tiles_tile_bytes = 16384,                                                                       \
        /* Fitted by tools/model/fit_model.py to 1066 H100 cases (docs/model.md); 128 bytes: a line. */    \
        .model_t0 = CUPERM_SM90_MODEL_T0, .model_gamma = CUPERM_SM90_MODEL_GAMMA, .model_run_bytes = 128,    \
        .model_efficiency = CUPERM_SM90_MODEL_EFFICIENCY,                                                    \
        /* Off. With 64 bytes (two sectors) the pieces of held-out redistributions whose footprints have     \
         * gaps went from 2.95-3.03x their predicted time to 1.27-1.49x (H200), but the distributed          \
         * planner chose no better on the committed sweeps (worse on one; bench/results/footprint-h200/). */ \
        .model_dram_atom_bytes = 0,                                                                          \
    }

/* A batched GEMM's thread block per step of k, by rate (fp64, fp32, tf32, fp16): cuBLAS splits a
 * long k over thread blocks for one GEMM but not for a batch. fp16 (and bf16): 2 ns, chosen by
 * the GEMM model's in-sample error on the H100 sweep plus its deep family with the weights
 * refitted for it (bench/results/contraction/model-refit-h100/candidates/), then measured on
 * the H100 (bench/results/contraction/batch-term-h100/: held-out random seed 4 +3-4%, a bf16
 * batch of 14 GEMMs with k = 1.3M 16x faster, TCCG48 f16 -1.2%). The fp32 candidate (10 ns, its
 * own refit) measured mixed (TCCG48 -1%, seeds 4 / 1 +4% / -3%): off. fp64 and tf32 unmeasured. */
#define CUPERM_SM90_GEMM_BATCH_K_SECONDS {0.0, 0.0, 0.0, 2e-9}

/* cudaMemset2DAsync per row, when the rows are a few bytes (a padded GEMM's K padding at the end of
 * every column of a K-fast input): H200, 1,023,168 rows of 304 bytes' pitch 0.66 ms, 1,331,000 of
 * 224 bytes' 0.86 ms (bench/results/contraction/zero-padding-h200/). Other families: not measured,
 * assumed alike (a memset that costs more per row than a dense write of its pitch loses to one). */
#define CUPERM_MEMSET2D_ROW_SECONDS 0.65e-9

/* A contraction's transpose whose input and output share their fastest dimension moves rows; rows
 * of a few dozen bytes ran slower than the transpose model says: log(measured / predicted) of 1,224
 * input transposes of every candidate plan of random contractions f16 seeds 3 and 4 (H200) rose by
 * 0.214 per octave the shared run lies below 256 bytes (rms 0.240 -> 0.190;
 * bench/results/contraction/zero-padding-h200/). Other families: not measured (0). */
#define CUPERM_SM90_CTR_SHORT_RUN_OCTAVE 0.214

/* The GETT kernels on one wave of blocks, fitted by tools/model/fit_gett_wave.py (least squares on
 * relative error) to the one-wave cases of 96 small random contractions per type on the H100
 * (random-contractions --volume 4096 / 65536 / 1048576 --seed 1 --algo gett;
 * bench/results/small-contractions-h100/): median error 11% (fp16, 95 cases), 10% (fp32, 95), 8%
 * (fp64, 94; bf16 shares the fp16 kernel's numbers). Beyond one wave the kernels' times depend on
 * more than this (compute-bound tiles, D's sectors): such plans are not priced and model plans keep
 * TTGT. The margin: the fit's worst under-predictions on one wave were 1.3-1.6x, at long K, where
 * TTGT's model (itself 1.3-2.8x below its measured times on these sets) still wins.
 *
 * Operators (the last three numbers: fixed, per step and input operand cheap / costly), fitted by
 * tools/model/fit_gett_ops.py to the same 48 cases of 4096 elements (seed 1) run by GETT plans with
 * relu or sigmoid on A and B and with tanh on D against none
 * (bench/results/small-contractions-h100/operators/): about 4 us (fp16) and 2.5 us (fp32) for the
 * operator instance, whatever the operators, plus the tile passes. fp64 with operators unmeasured. */
#define CUPERM_SM90_GETT                                                                                       \
    {{5.58e-6, 1.71e-6, 0.52e-12, 2, 4.0e-6, {0.42e-6, 1.7e-6}},                                                 \
     {4.44e-6, 1.183e-6, 0.64e-12, 4, 2.5e-6, {0.21e-6, 0.29e-6}},                                               \
     {4.31e-6, 2.315e-6, 0.61e-12, 3, 0.0, {0.0, 0.0}}}
#define CUPERM_SM90_GETT_MARGIN 1.25
/* The D-tile kernel (plan/contraction/gett_dtile_cost.h), fitted by tools/model/fit_dtile.py to its
 * H100 times on short-k (seed 1, 60 cases) and the 21 TCCG48 cases it takes, f16
 * (bench/results/gett-h100/dtile/model-h100/): median error 10% (the fit), 13% on short-k-heldout
 * (60 cases, not fitted); under-predicted 3x where every panel element is its own sector of an
 * operand larger than L2 (TCCG 6-8), where TTGT's model wins anyway. Margin 1: TTGT's model is
 * optimistic on these sets, so even so the model takes the kernel on 12 of its 12 winning TCCG cases,
 * 3 of 8 short-k and 1 of 11 short-k-heldout ones, never where it loses; 0.9 took two losers (1.3x,
 * 1.4x). Terms: seconds0, per item, per panel sector byte, per panel load and warp, per D
 * sector byte, per D store and warp; bf16 shares the kernel's numbers.
 * The packed path, fitted to its H200 times (every candidate timed, session 44's
 * bench/results/contraction/zero-padding-h200/calibration/): the 18 TCCG 31-48 f16 cases (75.5 MB
 * of D, 41.2-45.6 us) and random contractions f16 seed 2 cases 7 and 17 (211 and 275 MB, 92.7 and
 * 117.3 us): 15 us + D's bytes at 2.72 TB/s, 0.63 of the H200's copy (0.9 x 4.8 TB/s). Not measured
 * on an H100, where the same efficiency gives 1.9 TB/s. Margin 1: with 0.8 (the candidate tool timed
 * the chosen TTGT layouts of these contractions at a median 1.14-1.39x their price), model plans took
 * the packed path on TCCG 33, 36, 43 and 46, whose looped TTGT plans then ran faster in cuperm-bench
 * (30-35 us against 36 us; bench/results/contraction/dtile-beta-h200/). */
#define CUPERM_SM90_DTILE {0.0, 8.517e-08, 2.345e-11, 2.815e-07, 8.725e-11, 2.528e-07, 1.0, 15e-6, 0.63, 1.0}
#define CUPERM_DTILE_UNMEASURED {0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0}
/* The skinny kernel (plan/contraction/gett_cost.c), from its H200 times on TCCG 1-8 f16 (the cases
 * it takes; bench/results/gett-h100/skinny-h200/): first version, the modelled bytes moved at
 * 0.88-1.47 TB/s, median 1.13, against a copy's 4.3: efficiency 0.26 of the copy; session 41's
 * (D in whole sectors, a vector epilogue), 0.98-1.85 TB/s and a median 1.17x the first's with
 * the same byte accounting: 0.30. Still short of the bandwidth it is meant for; so priced, model
 * plans keep TTGT on most of those cases, and take it where one cuBLAS call and its transposes
 * cost more. */
#define CUPERM_SM90_SKINNY {5e-6, 0.30, 1.0}
#define CUPERM_SKINNY_UNMEASURED {0.0, 0.0, 0.0}

/* Families nobody measured on an architecture: model plans never take GETT there. */
#define CUPERM_GETT_UNMEASURED {{0.0, 0.0, 0.0, 0, 0.0, {0.0, 0.0}}, {0.0, 0.0, 0.0, 0, 0.0, {0.0, 0.0}}, \
                                {0.0, 0.0, 0.0, 0, 0.0, {0.0, 0.0}}}

/* One kernel barrier over an NCCL window's ranks (backend/cuda/dist/lsa_barrier.cu), as the
 * peer-stores cost model prices it: sm_90 from 2 x H200 small redistributions (two barriers and a
 * 0.25 MB store: 13.6-15.5 us replayed; bench/results/dist-h200x2/session32/). Unmeasured families
 * keep the 20 us that the model charged for the one-word ncclAllReduce barrier it replaced. */
#define CUPERM_SM90_DIST_BARRIER_SECONDS 5e-6
#define CUPERM_DIST_BARRIER_UNMEASURED 20e-6
/* The moves kernel (one-kernel peer stores): every element gathered alone. 0.4 TB/s of bytes read
 * and written: 2 x H200, 1 GB a GPU forced into it, 0.37 (reverse) and 0.47 TB/s (mixed
 * permutation; bench/results/dist-h200x2/session33/one-kernel-v1/), where the sources come from
 * DRAM; small messages, whose sources stay in L2, take it for its launches and barriers, not its
 * rate. Unmeasured families assume less. */
#define CUPERM_SM90_DIST_MOVES_RATE 0.4e12
#define CUPERM_DIST_MOVES_RATE_UNMEASURED 0.3e12
/* One peer's grouped NCCL send/receive alone: not measured in isolation (0: each round of an
 * overlapped contraction is charged the link's whole rate, so only the rounds' latencies tell them
 * apart and the model takes one round). On 4 x H200, 9216 x 9216 x 4096 f32, one round and P - 1
 * rounds were within 1% of each other (bench/results/dist-h200x4/session36/). */
#define CUPERM_SM90_DIST_PEER_RATE 0.0
/* Peer stores in k stages: each stage's unpacks run beside the next stage's stores, and half of
 * their time is hidden. Fitted on 2 x H200 to every candidate forced on 14 random redistributions
 * (6 of 4 GB a GPU, 8 of 1 GB; bench/results/dist-h200x2/session47/): the model's choice came to
 * 1.070 and 1.042 of the fastest candidate (geomean; 1.297 and 1.158 with none hidden, which
 * always planned one stage); 0.25-1 fit about as well. Checked on other random cases there.
 * Unmeasured families hide nothing. */
#define CUPERM_SM90_DIST_UNPACK_OVERLAP 0.5
/* Peer stores: the link rate that stores from a permuting transpose (PERMUTE_ON_PACK) reach, over
 * that of stores from a copy (PERMUTE_ON_UNPACK, whose receiver permutes locally). The model priced
 * the two variants within 1% of each other on every case, while on 22 random redistributions of 1-4
 * GB a GPU with every candidate forced on 2 x H200, the best PERMUTE_ON_PACK time was 1.079x the
 * best PERMUTE_ON_UNPACK one (geomean, 0.74-1.48) with the link's share of it at 0.67: stores 11%
 * slower, a rate of 0.9. On 14 held-out cases measured before the rule, the model's choice came to
 * 1.087 and 1.037 of the fastest candidate (4 and 1 GB a GPU; 1.131 and 1.094 without it;
 * bench/results/dist-h200x2/session48/). Unmeasured families: 1, the same rate. */
#define CUPERM_SM90_DIST_PERMUTING_STORES 0.9

/* Per SM: the reference part's dense peak divided by its SM count (H100 SXM: 132 SMs,
 * A100: 108). fp64 GEMMs run on the fp64 tensor cores of both.
 * dist_link_overlap 0: on 2 x H200 (NVLink, NCCL 2.28 send/recv) a transpose or even a
 * copy-engine memcpy beside the exchange added its own time to it (1.38 ms exchange, 0.41 ms
 * transpose: 1.78-1.82 ms together; bench/results/dist-h200x2/session8). Nothing else measured:
 * the other tables assume the same, which never promises overlap a device may not give.
 * dist_store_blocks_per_sm 2: transposes storing over NVLink into another H200's bound output ran
 * 1.3-1.6x faster with their grids capped at 2-3 blocks an SM than uncapped (and the local piece
 * beside them then overlaps); 1 starved some (bench/results/dist-h200x2/session31/). Unmeasured
 * families keep uncapped grids. */
static const cuperm_tuning_t tables[] = {
    {"sm_90 (H100 measurements)", 1, 9, {67e12 / 132, 67e12 / 132, 495e12 / 132, 989e12 / 132}, 0.90,
     CUPERM_TRANSPOSE_TUNING_SM90, 0.0, 2, CUPERM_SM90_DIST_BARRIER_SECONDS, CUPERM_SM90_DIST_MOVES_RATE,
     CUPERM_SM90_DIST_PEER_RATE, CUPERM_SM90_DIST_UNPACK_OVERLAP, CUPERM_SM90_DIST_PERMUTING_STORES, CUPERM_SM90_GEMM_BATCH_K_SECONDS, CUPERM_MEMSET2D_ROW_SECONDS,
     CUPERM_SM90_CTR_SHORT_RUN_OCTAVE,
     CUPERM_SM90_GETT, CUPERM_SM90_GETT_MARGIN, CUPERM_SM90_DTILE, CUPERM_SM90_SKINNY},
    /* Transposes were never measured on an A100: they plan with the H100's numbers. */
    {"sm_80 (A100 datasheet rates; transposes: sm_90 values)", 1, 8,
     {19.5e12 / 108, 19.5e12 / 108, 156e12 / 108, 312e12 / 108}, 0.90, CUPERM_TRANSPOSE_TUNING_SM90, 0.0, 0,
     CUPERM_DIST_BARRIER_UNMEASURED, CUPERM_DIST_MOVES_RATE_UNMEASURED, 0.0, 0.0, 1.0, {0.0, 0.0, 0.0, 0.0}, CUPERM_MEMSET2D_ROW_SECONDS, 0.0,
     CUPERM_GETT_UNMEASURED, 0.0, CUPERM_DTILE_UNMEASURED, CUPERM_SKINNY_UNMEASURED},
};

/* Anything else (sm_75, sm_89, sm_100, sm_120, ...): Ampere's per-SM GEMM rates, the most
 * conservative family measured, so the model never promises GEMM speed a device may not
 * have; and the H100's transpose numbers, the only ones measured. */
static const cuperm_tuning_t fallback = {
    "defaults (untuned architecture: A100 per-SM GEMM rates, sm_90 transpose values)", 0, 0,
    {19.5e12 / 108, 19.5e12 / 108, 156e12 / 108, 312e12 / 108}, 0.90, CUPERM_TRANSPOSE_TUNING_SM90, 0.0, 0,
    CUPERM_DIST_BARRIER_UNMEASURED, CUPERM_DIST_MOVES_RATE_UNMEASURED, 0.0, 0.0, 1.0, {0.0, 0.0, 0.0, 0.0}, CUPERM_MEMSET2D_ROW_SECONDS, 0.0,
    CUPERM_GETT_UNMEASURED, 0.0, CUPERM_DTILE_UNMEASURED, CUPERM_SKINNY_UNMEASURED};

const cuperm_tuning_t* cuperm_tuning_for(const cuperm_device_info_t* dev)
{
    for (size_t i = 0; i < sizeof tables / sizeof tables[0]; ++i)
        if (tables[i].cc_major == dev->cc_major) return &tables[i];
    return &fallback;
}
