/*
 * The Hopper GETT kernels (backend/cuda/gett_tma/: CUTLASS sm90 collectives, TMA tile loads
 * through multi-mode strides, wgmma, D written through its strides by the epilogue): their
 * parameter block and their block tiles, shared by the planner (plan/contraction/gett_tma.c,
 * plain C) and the kernels. The kernels are compiled for groups of at most CUPERM_TMA_MODES
 * modes (M, N, K) and CUPERM_TMA_L_MODES (L) after fusing; unused modes have extent 1.
 */
#ifndef CUPERM_CORE_GETT_TMA_PARAMS_H
#define CUPERM_CORE_GETT_TMA_PARAMS_H

#include <stdint.h>

#include "cuperm.h"

#define CUPERM_TMA_MODES 3
#define CUPERM_TMA_L_MODES 2

/* Group and operand indices of the block below (the planner's CTR_GROUP_* and CTR_A..CTR_D). */
enum { CUPERM_TMA_M = 0, CUPERM_TMA_N = 1, CUPERM_TMA_K = 2, CUPERM_TMA_L = 3, CUPERM_TMA_GROUPS = 4 };

/*
 * Block tiles, X(id, name, m0, m1, n0, n1, k0, k1, rate): a tile takes m0 indices of M's first mode
 * and m1 of its second (m1 = 1: the second mode is walked index by index like the others),
 * likewise for N and K. A tile is 128 rows (two consumer warpgroups of 64) by 128 or 32 columns
 * by 64 or 32 deep (one 128- or 64-byte swizzled row of 2-byte elements). Tiles that take from
 * two modes keep small extents (24, 72) from being padded to 64 or 128; the 32-wide and
 * 32-deep ones keep small N (or M, with A and B exchanged) and small K from it. rate: the
 * throughput the tile is assumed to reach over the flat one's when nothing is padded -- a prior
 * (fewer columns or a shallower K re-use each loaded byte less), to be replaced by H100 times. Which tiles stay is for measurements to decide
 * (CUPERM_GETT_TMA_TILE forces one; scripts/gpu-gett-check.sh times each).
 */
#define CUPERM_TMA_TILES(X)                        \
    X(0, flat, 128, 1, 128, 1, 64, 1, 1.0)         \
    X(1, kpair, 128, 1, 128, 1, 8, 8, 1.0)         \
    X(2, mid, 32, 4, 32, 4, 16, 4, 1.0)            \
    X(3, pairs, 8, 16, 8, 16, 8, 8, 1.0)           \
    X(4, k32, 128, 1, 128, 1, 32, 1, 0.9)          \
    X(5, pairs32, 8, 16, 8, 16, 32, 1, 0.9)        \
    X(6, n32, 128, 1, 32, 1, 64, 1, 0.5)           \
    X(7, n32k32, 128, 1, 32, 1, 32, 1, 0.45)

#define CUPERM_TMA_TILE_ENUM(id, name, m0, m1, n0, n1, k0, k1, rate) CUPERM_TMA_TILE_##name = id,
enum { CUPERM_TMA_TILES(CUPERM_TMA_TILE_ENUM) CUPERM_TMA_TILE_COUNT };
#undef CUPERM_TMA_TILE_ENUM

typedef struct {
    int tile;                 /* a CUPERM_TMA_TILES id */
    int swapped;              /* the kernels compute D^T = B^T A^T: their A is B, their M is N; below,
                                 operand 0 / group 0 are B / N then (and 1 / 1 are A / M) */
    int aKMajor, bKMajor;     /* A's unit-stride mode is K's first (1) or M's first (0); B: K or N */
    cupermDataType_t abType;  /* R_16F or R_16BF */
    cupermDataType_t cdType;  /* abType or R_32F */
    int count[CUPERM_TMA_GROUPS];
    int32_t extent[CUPERM_TMA_GROUPS][CUPERM_TMA_MODES];
    /* stride[w][g][i]: operand w's (A, B, C, D) stride, in elements, of mode i of group g; 0 for
     * groups w lacks (A: N; B: M; C, D: K); for unused modes 0 in C and D, 16 bytes' worth in A
     * and B (TMA dimensions all the same; extent 1, so never applied). */
    int64_t stride[4][CUPERM_TMA_GROUPS][CUPERM_TMA_MODES];
    /* The epilogue's walk over a tile in the order of D's strides: walkShift[d] is where tile
     * dimension d (0, 1: the indices the tile takes from M's modes 0, 1; 2, 3: from N's) sits in
     * the walk's linear index, the bits of the dimensions with smaller D strides below it.
     * walkVector[0] (D), [1] (C): the walk's innermost 16-byte runs are contiguous and start
     * 16-byte aligned in that operand when its base pointer is (checked at launch). Set with the
     * tile by cuperm_ctr_tma_set_tile. */
    int walkShift[4];
    int walkVector[2];
} cuperm_gett_tma_params_t;

#endif
