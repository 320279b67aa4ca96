/*
 * The D-tile GETT kernel's shape rules, shared by its plan (plan/contraction/gett_dtile.c) and
 * the kernel (backend/cuda/gett/gett_dtile.cu): limits, the two sides' roles, the warp grid and
 * the panels' layout.
 *
 * The kernel multiplies with mma.sync m16n8k16 and writes D straight from the accumulators, whose
 * fragment gives a thread two neighbouring outputs along the fragment's 8-wide side. So the tile's
 * side along D's fastest direction (M when dMFast, else N) is the "Y" side (padded to 8, written in
 * pairs) and the other the "X" side (padded to 16).
 */
#ifndef CUPERM_CORE_GETT_DTILE_SHAPE_H
#define CUPERM_CORE_GETT_DTILE_SHAPE_H

#include "core/hd.h"

#define CTR_DTILE_KMAX 64      /* K group sizes the kernel takes: the whole K in one panel */
#define CTR_DTILE_OUTPUTS 8192 /* tile elements at most (padded to 16 x 8 fragments) */
#define CTR_DTILE_WARPS 8      /* warps a block */
#define CTR_DTILE_WARP_FRAGMENTS 8 /* 16 x 8 fragments a warp holds at most: MX x NY = 8 */
#define CTR_DTILE_RUN 256      /* D's leading modes taken whole up to this many elements */
#define CTR_DTILE_PANEL_BYTES (48 * 1024) /* A and B panels (16-bit, K padded) at most */
#define CTR_DTILE_BLOCKS_PER_SM 2 /* the kernel's register bound, and its persistent grid */
#define CTR_DTILE_SLOT_BYTES (16 * 1024) /* the inner panel's slot table at most */
#define CTR_DTILE_PACKED_SMEM_MAX (200 * 1024) /* the packed path's dynamic shared memory at most (sm_90: 227 KB) */
#define CTR_DTILE_PACKED_ITEMS_MAX (1LL << 24) /* its work items at most (128 MB of tile bases) */
#define CTR_DTILE_PACKED_STAGES 2 /* its ring of panel stages */
/* Each warp's staging of its 16-bit outputs (MX 16 rows of NY 8 halves, rows padded by 4 words:
 * 3 KB at most, NY = 2), at the end of shared memory: the kernel writes D's runs of 8 from it in
 * whole 16-byte pieces. */
#define CTR_DTILE_STAGE_WORDS(ny) ((CTR_DTILE_WARP_FRAGMENTS / (ny)) * 16 * ((ny) * 4 + 4))
#define CTR_DTILE_STAGE_BYTES (CTR_DTILE_WARPS * CTR_DTILE_STAGE_WORDS(2) * 4)

/* Halves per panel row: K padded plus 8, which puts the rows of a fragment load in distinct banks. */
CUPERM_HD int cuperm_ctr_dtile_ld(int kp) { return kp + 8; }

/* Rows of the padded panels: the X side to the mma's 16, the Y side to its 8. */
CUPERM_HD int cuperm_ctr_dtile_rows_x(int tx) { return (tx + 15) / 16 * 16; }
CUPERM_HD int cuperm_ctr_dtile_rows_y(int ty) { return (ty + 7) / 8 * 8; }

/* n rounded up to a power of two (n >= 1). */
CUPERM_HD int cuperm_ctr_dtile_pow2(int n)
{
    int p = 1;
    while (p < n) p *= 2;
    return p;
}

/* The warp grid of a tx x ty tile: a warp holds MX x NY fragments (NY = fy rounded up to a power of
 * two, 2 to 8: three kernel instances; MX = 8 / NY), warpsY warps side by side along Y and warpsX
 * along X. Returns NY, or 0 where the grid needs more than CTR_DTILE_WARPS warps. */
CUPERM_HD int cuperm_ctr_dtile_ny(int tx, int ty, int* warpsX, int* warpsY)
{
    const int fx = cuperm_ctr_dtile_rows_x(tx) / 16, fy = cuperm_ctr_dtile_rows_y(ty) / 8;
    const int p = cuperm_ctr_dtile_pow2(fy);
    const int ny = p < 2 ? 2 : p < CTR_DTILE_WARP_FRAGMENTS ? p : CTR_DTILE_WARP_FRAGMENTS, mx = CTR_DTILE_WARP_FRAGMENTS / ny;
    const int wy = (fy + ny - 1) / ny, wx = (fx + mx - 1) / mx;
    if (warpsX) *warpsX = wx;
    if (warpsY) *warpsY = wy;
    return wx * wy <= CTR_DTILE_WARPS ? ny : 0;
}

/* Panel rows of a tx x ty tile: each side padded to its warp grid (warpsX MX 16 rows, warpsY NY 8),
 * so that every fragment of a working warp lies in the panels (zeros past the tile) and the
 * products need no guards. */
CUPERM_HD void cuperm_ctr_dtile_panel_rows(int tx, int ty, int* px, int* py)
{
    int wx, wy;
    const int ny = cuperm_ctr_dtile_ny(tx, ty, &wx, &wy);
    *px = ny ? wx * (CTR_DTILE_WARP_FRAGMENTS / ny) * 16 : cuperm_ctr_dtile_rows_x(tx);
    *py = ny ? wy * ny * 8 : cuperm_ctr_dtile_rows_y(ty);
}

/* Dynamic shared memory of a tx x ty tile's two panels (K padded to kp), 16-bit. */
CUPERM_HD int cuperm_ctr_dtile_panel_bytes(int tx, int ty, int kp)
{
    int px, py;
    cuperm_ctr_dtile_panel_rows(tx, ty, &px, &py);
    return (px + py) * cuperm_ctr_dtile_ld(kp) * 2;
}

/* Whether the X side's panel is the outer one: a block walks consecutive tiles of the other
 * ("inner") side and keeps the larger panel while it can. */
CUPERM_HD int cuperm_ctr_dtile_outer_x(int tx, int ty)
{
    int px, py;
    cuperm_ctr_dtile_panel_rows(tx, ty, &px, &py);
    return px >= py;
}

/* The inner panel's slot table: where its side is whole modes, every tile's offsets are the
 * first tile's plus its first row's, so the kernel computes each panel slot's offset and shared
 * address once (an int2 a slot; kp x rows slots at most, for runs of one element) and gathers
 * every later panel with one load a slot. */
CUPERM_HD int cuperm_ctr_dtile_slot_table_bytes(int tx, int ty, int kp)
{
    int px, py;
    cuperm_ctr_dtile_panel_rows(tx, ty, &px, &py);
    return (px >= py ? py : px) * kp * 8;
}

/* The packed path (backend/cuda/gett/gett_dtile_packed.cu; plan/contraction/gett_dtile.h) stages a
 * tile in D's own order, its element e at e + (e >> shift) * pad (pad elements after every 2^shift:
 * the plan picks them so the accumulators' stores spread over the banks; pad 0: none). pad is a
 * multiple of 16 bytes, so each 16-byte piece of the tile stays whole and the block writes D in
 * 16-byte pieces. */
CUPERM_HD int cuperm_ctr_dtile_stage_at(int e, int shift, int pad) { return e + (e >> shift) * pad; }

/* Bytes of that staging for a tile of v elements of elemBytes each (a multiple of 16). */
CUPERM_HD int cuperm_ctr_dtile_stage_bytes(int v, int shift, int pad, int elemBytes)
{
    const int bytes = (cuperm_ctr_dtile_stage_at(v - 1, shift, pad) + 1) * elemBytes;
    return (bytes + 15) / 16 * 16;
}

/* Dynamic shared memory of the packed path: its ring of stages of both panels and, unless the
 * tile is written from the registers (stageBytes 0), two stagings, each with 16 spare bytes after
 * it (where outputs past the tile go). */
CUPERM_HD int cuperm_ctr_dtile_packed_smem_bytes(int tx, int ty, int kp, int stageBytes)
{
    return CTR_DTILE_PACKED_STAGES * cuperm_ctr_dtile_panel_bytes(tx, ty, kp) + (stageBytes ? 2 * (stageBytes + 16) : 0);
}

#endif
