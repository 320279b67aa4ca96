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
 * Block tiles, X(id, name, m0, m1, n0, n1, k0, k1): a tile takes m0 indices of M's first mode
 * and m1 of its second (m1 = 1: the second mode is walked index by index like the others),
 * likewise for N and K. Every tile is 128 x 128 x 64 in all (k0 * k1 = 64 two-byte elements: one
 * 128-byte swizzled row of shared memory). Tiles that take from two modes keep small extents
 * (24, 72) from being padded to 64 or 128. Which tiles stay is for measurements to decide
 * (CUPERM_GETT_TMA_TILE forces one; scripts/gpu-gett-check.sh times each).
 */
#define CUPERM_TMA_TILES(X)                  \
    X(0, flat, 128, 1, 128, 1, 64, 1)        \
    X(1, kpair, 128, 1, 128, 1, 8, 8)        \
    X(2, mid, 32, 4, 32, 4, 16, 4)           \
    X(3, pairs, 8, 16, 8, 16, 8, 8)

#define CUPERM_TMA_TILE_ENUM(id, name, m0, m1, n0, n1, k0, k1) CUPERM_TMA_TILE_##name = id,
enum { CUPERM_TMA_TILES(CUPERM_TMA_TILE_ENUM) CUPERM_TMA_TILE_COUNT };
#undef CUPERM_TMA_TILE_ENUM

typedef struct {
    int tile;                 /* a CUPERM_TMA_TILES id */
    int aKMajor, bKMajor;     /* A's unit-stride mode is K's first (1) or M's first (0); B: K or N */
    cupermDataType_t abType;  /* R_16F or R_16BF */
    cupermDataType_t cdType;  /* abType or R_32F */
    int count[CUPERM_TMA_GROUPS];
    int32_t extent[CUPERM_TMA_GROUPS][CUPERM_TMA_MODES];
    /* stride[w][g][i]: operand w's (A, B, C, D) stride, in elements, of mode i of group g; 0 for
     * groups w lacks (A: N; B: M; C, D: K); for unused modes 0 in C and D, 16 bytes' worth in A
     * and B (TMA dimensions all the same; extent 1, so never applied). */
    int64_t stride[4][CUPERM_TMA_GROUPS][CUPERM_TMA_MODES];
} cuperm_gett_tma_params_t;

#endif
