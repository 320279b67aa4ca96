/*
 * Which contractions the Hopper GETT kernels (core/gett_tma_params.h) take, and how a problem
 * maps onto their compile-time shape. Plain C, CPU-tested (tests/contraction/test_gett_tma.c).
 *
 * The kernels load A and B tiles with TMA, which reads rows: each operand needs a unit-stride
 * mode, first in its group ("major": A along M or K, B along N or K; when both are K-major it
 * must be the same K mode), its other strides multiples of 16 bytes, and the major mode's
 * extent a multiple of 16 bytes (CUTLASS's check_alignment). The mode orders follow from that:
 * M by A's strides when A is M-major, else by D's (the epilogue's stores then run along D);
 * N likewise with B; K by the K-major operand's strides (A's when neither is); L by A's.
 * Neighbours in that order fuse when every operand holding them has them contiguous. C and D
 * are written and read through their strides by the epilogue, with no alignment rule.
 */
#ifndef CUPERM_CTR_GETT_TMA_H
#define CUPERM_CTR_GETT_TMA_H

#include <stddef.h>

#include "core/gett_tma_params.h"
#include "plan/contraction/problem.h"

/* Base pointers the kernels' TMA descriptors need (A and B; checked at execute time). */
#define CTR_TMA_PTR_ALIGN 16

/*
 * Maps p onto q, its tile chosen by cuperm_ctr_tma_choose_tile, and returns 1, or returns 0 and
 * writes the rule that fails into why (if non-NULL; the rule of p as given). Tries p as given
 * and with A and B exchanged (q->swapped: D^T = B^T A^T), keeping the exchange only when its
 * tile wastes strictly less. Types and operators are the GETT family's (cuperm_ctr_gett_supported).
 */
int cuperm_ctr_tma_map(const cuperm_ctr_problem_t* p, cuperm_gett_tma_params_t* q, char* why, size_t whySize);

/* Share of the multiply-adds a tile spends on real indices: for M, N and K, the extents of
 * the group's first two modes over what the tile covers of them (whole tiles, the last
 * padded), multiplied. 1 when the tiles divide the extents. */
double cuperm_ctr_tma_tile_efficiency(const cuperm_gett_tma_params_t* q, int tile);

/* Efficiency times the tile's assumed rate (core/gett_tma_params.h): what the choice maximises. */
double cuperm_ctr_tma_tile_score(const cuperm_gett_tma_params_t* q, int tile);

/* The tile with the highest score; ties go to the lower id (the flat tile first). */
int cuperm_ctr_tma_choose_tile(const cuperm_gett_tma_params_t* q);

/* Sets q's tile and the epilogue walk that goes with it (walkShift: the tile dimensions by
 * increasing |D stride|, those the tile takes once or whose mode has extent 1 last, ties in
 * dimension order; walkVector: per D and C, whether the innermost dimension has unit stride
 * and a take that 16 bytes divide, and every other stride of a mode with extent > 1 is a
 * multiple of 16 bytes). */
void cuperm_ctr_tma_set_tile(cuperm_gett_tma_params_t* q, int tile);

/* The indices tile takes from mode i (0 or 1) of group g (M, N or K); 1 for i > 1. */
int cuperm_ctr_tma_tile_take(int tile, int g, int i);

/* "flat", "kpair", ... */
const char* cuperm_ctr_tma_tile_name(int tile);

/* The id of the tile of that name, or -1. */
int cuperm_ctr_tma_tile_id(const char* name);

#endif
