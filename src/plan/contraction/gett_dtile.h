/*
 * The D-tile GETT kernel's plan (backend/cuda/gett/gett_dtile.cu): contractions whose K group is
 * short (at most CTR_DTILE_KMAX elements), where the time is writing D. TTGT pays that write two
 * more times when D's modes interleave M and N (TCCG 31-48: the GEMM's output and its transpose),
 * and the 128 x 128 table kernel leaves D's sectors half written whenever a tile edge cuts D's
 * fastest run. Here a block's tile is D's own leading modes: M and N are ordered by D's strides,
 * and the tile takes D's modes from the fastest on, whole, until the tile holds CTR_DTILE_RUN
 * elements (a block writes that much of D contiguously, or in runs of that length), then grows
 * the smaller of its M and N sides by the next mode of that group. The whole of K fits in shared
 * memory, so a block loads its A and B panels once, multiplies them on the tensor cores and
 * writes its piece of D in D's order. Plain C, CPU-tested.
 */
#ifndef CUPERM_CTR_GETT_DTILE_H
#define CUPERM_CTR_GETT_DTILE_H

#include "core/gett_dtile_shape.h"
#include "plan/contraction/gett.h"

typedef struct {
    int tm, tn; /* tile: tm consecutive m (M by D's strides) x tn consecutive n */
    int kp;     /* K padded to a multiple of 16 (the mma step) */
    int whole[2]; /* M, N: the side is the product of its group's leading modes, whole (then every
                     tile's offsets are the first tile's plus the tile's first row's) */
    int by[CTR_GETT_ORDERED]; /* M by D, N by D, K by the operand with the larger panel */
} cuperm_ctr_dtile_t;

/*
 * Whether the D-tile kernel takes p, and its tile. It takes tensor-core types (A/B 16-bit), no
 * operators (after negations fold into the scalars), K of at most CTR_DTILE_KMAX elements, no
 * batch mode among D's leading modes before the tile is useful (tm x tn >= 64) and a grid below
 * 2^31 tiles. Returns 1 with s filled, or 0.
 */
int cuperm_ctr_dtile_choose(const cuperm_ctr_problem_t* p, cuperm_ctr_dtile_t* s);

/* Whether GETT plans forced by CUPERM_GETT=1 or CUPERM_ALGO_GETT take the D-tile kernel wherever it
 * takes the problem: CUPERM_GETT_DTILE=1 in the environment (read per plan). Otherwise model plans
 * take it where its time model says it beats TTGT (gett_dtile_cost.h, gett_cost.h:
 * cuperm_ctr_gett_model_choice), and measured plans (CUPERM_PLAN_MEASURE) time it beside TTGT and
 * the table kernel wherever it takes the problem. */
int cuperm_ctr_dtile_requested(void);

/* D's modes (mode-table indices: the M, N and L modes) by D's strides, fastest first; returns
 * their count. */
int cuperm_ctr_dtile_d_order(const cuperm_ctr_problem_t* p, int order[CTR_MAX_MODES]);

/* Dynamic shared memory of tile s in bytes: its two panels, the side along D's fastest direction
 * (M when dMFast) padded as the kernel's Y side (core/gett_dtile_shape.h), the inner panel's slot
 * table where cuperm_ctr_dtile_slot_bytes gives it one, and the warps' output staging. */
int cuperm_ctr_dtile_smem_bytes(const cuperm_ctr_dtile_t* s, int dMFast);

/* Bytes of the inner panel's slot table (core/gett_dtile_shape.h), or 0 where the kernel gathers
 * that panel through the offset tables: where its side is not whole modes, or the table would
 * pass CTR_DTILE_SLOT_BYTES. */
int cuperm_ctr_dtile_slot_bytes(const cuperm_ctr_dtile_t* s, int dMFast);

/*
 * The packed path (backend/cuda/gett/gett_dtile_packed.cu). Where a tile is D's leading dense
 * block, every tile is one contiguous piece of D; the kernel then copies A's and B's panels whole
 * (images packed once per run into the workspace) with bulk copies a stage ahead, stages the
 * products in D's order and writes the piece in 16-byte stores: no offset walks per tile. (Tiles of
 * whole modes that are not one block take the path only where the warps store the pieces from their
 * registers: cuperm_ctr_dtile_packed_direct.) This says whether tile s of p is such a block: both sides whole modes, D's modes from the fastest
 * on, M and N only, dense (each stride the product of the extents before it) up to tm x tn
 * elements, the fastest of even extent (the accumulators' pairs stay neighbours in D) and the
 * block a multiple of 8 elements (16-byte pieces).
 */
int cuperm_ctr_dtile_packed_tile(const cuperm_ctr_problem_t* p, const cuperm_ctr_dtile_t* s);

/*
 * Whether the packed path's kernel writes every tile of s straight from its accumulators in
 * 16-byte pieces, for any tile of whole modes (one block of D or not; the Y side along D's fastest
 * direction, M when dMFast): computed from D's strides, as cuperm_ctr_dtile_direct_pieces and
 * cuperm_ctr_dtile_packed_tables (alignment) would find from the tables: the Y side's tile modes
 * dense from stride 1 for a multiple of a piece, every other stride of D a multiple of a piece, the
 * Y side a multiple of a piece, and a tile's places below 2^31. Such runs read C too (beta != 0)
 * where C has D's strides, so model planning prices the packed path where this holds and C has D's
 * strides (gett_dtile_cost.h); the plan's build decides from the tables.
 */
int cuperm_ctr_dtile_packed_direct(const cuperm_ctr_problem_t* p, const cuperm_ctr_dtile_t* s, int dMFast);

/* The staging's padding (core/gett_dtile_shape.h: cuperm_ctr_dtile_stage_at) for a tx x ty tile
 * (X: rows, Y: D's fastest direction) whose output (x, y) sits at stageX[x] + stageY[y] of the
 * block (-1 past the tile): the padding whose stores of the accumulators' pairs (elemBytes each)
 * take the fewest shared-memory wavefronts in the first warp, then the least memory. cost: those
 * wavefronts; best: the least they can be (one a store of 4-byte pairs, one a half-warp of 8-byte
 * ones). */
typedef struct {
    int shift, pad;  /* pad elements after every 2^shift */
    int cost, best;
} cuperm_ctr_dtile_stage_t;
void cuperm_ctr_dtile_stage_choose(int tx, int ty, const int* stageX, const int* stageY, int elemBytes,
                                   cuperm_ctr_dtile_stage_t* out);

/* Whether the packed path's kernel can write a tx x ty tile (output (x, y) at stageX[x] +
 * stageY[y] of the block) straight from its accumulators in 16-byte pieces of per elements: every
 * aligned run of per along Y (inside one 8-wide fragment, per dividing 8) is per neighbours in D
 * starting at a multiple of per, and so is every row's start; ty a multiple of per (no piece half
 * in the tile). */
int cuperm_ctr_dtile_direct_pieces(int tx, int ty, const int32_t* stageX, const int32_t* stageY, int per);

/* The packed path's per-plan tables from D's offset tables along the X side (dX), the Y side (dY)
 * and the batch (dL, NULL for none), for tiles of xTile x yTile, panels of rowsX x rowsY rows and
 * tilesX x tilesY tiles a batch index: stageX[rowsX], stageY[rowsY] (an output's element in its
 * tile, -1 past it) and base[item] (a tile's first element of D, items in the kernel's order:
 * batch index, outer tile, inner tile; the X side outer when outerX). Returns 0 where a base is
 * not a multiple of align elements (the kernel's 16-byte stores) or a place in a tile passes
 * 2^31 - 1, 1 otherwise. */
int cuperm_ctr_dtile_packed_tables(const int64_t* dX, const int64_t* dY, const int64_t* dL, int xTile, int yTile,
                                   int rowsX, int rowsY, int tilesX, int tilesY, int64_t batch, int outerX, int align,
                                   int64_t* base, int32_t* stageX, int32_t* stageY);

#endif
