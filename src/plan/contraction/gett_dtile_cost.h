/*
 * The D-tile GETT kernel's work per block and its modelled time (backend/cuda/gett/gett_dtile.cu,
 * plan/contraction/gett_dtile.h). The kernel is latency-bound (16 warps an SM), its blocks
 * persistent and each walking an equal share of the work items, so its time follows one block's
 * serial work: the items it walks, the bytes its panel gathers move (32-byte sectors at the
 * contiguity the panel's footprint has in the operand), the bytes of D it writes (likewise) and
 * the store instructions that take (16-byte pieces, pairs or elements). Plain C, CPU-tested.
 */
#ifndef CUPERM_CTR_GETT_DTILE_COST_H
#define CUPERM_CTR_GETT_DTILE_COST_H

#include "core/tuning.h"
#include "plan/contraction/gett_dtile.h"

typedef struct {
    double items;      /* work items (tiles) a block walks */
    double panelBytes; /* sector bytes of its A and B panel gathers (inner panel every item, outer
                          panel where the outer tile or the batch index changes) */
    double panelLoads; /* its panel gathers' load instructions per warp (runs of the launch's width) */
    double dBytes;     /* sector bytes of its stores to D */
    double dStores;    /* its store instructions to D, per warp (a warp stores 32 pieces at once) */
} cuperm_ctr_dtile_work_t;

/* One block's work for tile s of p on a device of smCount SMs, D written with beta = 0 (plans
 * are made before beta is known; beta != 0 reads C as well). */
void cuperm_ctr_dtile_work(const cuperm_ctr_problem_t* p, const cuperm_ctr_dtile_t* s, double smCount,
                           cuperm_ctr_dtile_work_t* w);

/* Seconds of the kernel on p with tile s: the tuning's dtile coefficients times the work, or
 * INFINITY where the architecture's table has none (model plans then never take the kernel). */
double cuperm_ctr_dtile_seconds(const cuperm_ctr_problem_t* p, const cuperm_ctr_dtile_t* s, const cuperm_tuning_t* t,
                                double smCount);

/* Seconds of the packed path (gett_dtile.h) on p with tile s (model planning weighs it by the
 * tuning's packedMargin), where every run takes it whatever beta: tiles written from the registers
 * (cuperm_ctr_dtile_packed_direct) and C with D's strides.
 * It is bound by writing D: the tuning's packedSeconds0 plus D's bytes and A's and B's (read and
 * written as panel images) at packedEfficiency of a copy's rate on a device of dramBytesPerSecond
 * (theoretical). INFINITY elsewhere, or where the tuning has no numbers (then the gathering
 * kernel's price stands). */
double cuperm_ctr_dtile_packed_seconds(const cuperm_ctr_problem_t* p, const cuperm_ctr_dtile_t* s,
                                       const cuperm_tuning_t* t, double dramBytesPerSecond);

#endif
