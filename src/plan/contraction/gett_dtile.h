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

#endif
