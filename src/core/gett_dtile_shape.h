/*
 * The D-tile GETT kernel's shape rules, shared by its plan (plan/contraction/gett_dtile.c) and
 * the kernel (backend/cuda/gett/gett_dtile.cu): limits, panel and staging layouts.
 */
#ifndef CUPERM_CORE_GETT_DTILE_SHAPE_H
#define CUPERM_CORE_GETT_DTILE_SHAPE_H

#include "core/hd.h"

#define CTR_DTILE_KMAX 64      /* K group sizes the kernel takes: the whole K in one panel */
#define CTR_DTILE_OUTPUTS 8192 /* tile elements at most (padded to 16 x 8 fragments, 8 a warp) */
#define CTR_DTILE_FRAGMENTS 64 /* 16 x 8 fragments of a tile, M and N counts padded to powers of two */
#define CTR_DTILE_RUN 256      /* D's leading modes taken whole up to this many elements */
#define CTR_DTILE_PANEL_BYTES (48 * 1024) /* A and B panels (16-bit, K padded) at most */
#define CTR_DTILE_BLOCKS_PER_SM 3 /* the kernel's register bound (80), and its persistent grid */

/* Halves per panel row: K padded plus 8, which puts the rows of a fragment load in distinct banks. */
CUPERM_HD int cuperm_ctr_dtile_ld(int kp) { return kp + 8; }

/* Rows of the padded panels: M to the mma's 16, N to its 8. */
CUPERM_HD int cuperm_ctr_dtile_rows_m(int tm) { return (tm + 15) / 16 * 16; }
CUPERM_HD int cuperm_ctr_dtile_rows_n(int tn) { return (tn + 7) / 8 * 8; }

/* n rounded up to a power of two (n >= 1): fragment counts of the kernel's warp grid. */
CUPERM_HD int cuperm_ctr_dtile_pow2(int n)
{
    int p = 1;
    while (p < n) p *= 2;
    return p;
}

/* Whether a tm x tn tile fills the kernel's warp grid: its 16 x 8 fragments, counts along M and N
 * rounded up to powers of two, at most CTR_DTILE_FRAGMENTS (8 warps of 8). */
CUPERM_HD int cuperm_ctr_dtile_grid_fits(int tm, int tn)
{
    return cuperm_ctr_dtile_pow2(cuperm_ctr_dtile_rows_m(tm) / 16) * cuperm_ctr_dtile_pow2(cuperm_ctr_dtile_rows_n(tn) / 8) <=
           CTR_DTILE_FRAGMENTS;
}

/* Floats between lines of the staging (lines run along D's direction): the line's length rounded
 * to 32, plus 4 (M lines: the fragments' scalar stores meet distinct banks) or 8 (N lines: their
 * 8-byte stores do). */
CUPERM_HD int cuperm_ctr_dtile_pitch(int fastLength, int dMFast)
{
    return (fastLength + 31) / 32 * 32 + (dMFast ? 4 : 8);
}

#endif
