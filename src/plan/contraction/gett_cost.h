/*
 * The GETT kernels' predicted time where the model covers them (grids of one wave), and model
 * planning's choice between a GETT plan and the best TTGT layout. Small contractions gain most:
 * a GETT plan is one kernel launch where TTGT makes a cuBLAS call and up to three transposes
 * (H100, random contractions of 4096 elements: GETT took 6-10 us, TTGT 14-98 us;
 * bench/results/small-contractions-h100/). Plain C, CPU-tested.
 */
#ifndef CUPERM_CTR_GETT_COST_H
#define CUPERM_CTR_GETT_COST_H

#include "core/tuning.h"
#include "plan/contraction/layout.h"
#include "plan/contraction/problem.h"

/* Seconds of p's GETT plan on a device of smCount SMs with the family's tuning (cuperm_gett_tuning_t),
 * or INFINITY where the model does not cover it: a family not measured (or its operator prices, for
 * a problem with operators that do not fold into the scalars), or a grid of more than one wave.
 * Operators add the family's fixed operator time and, per step of K, the tile pass of each input
 * operand with one. p must be GETT-eligible (cuperm_ctr_gett_eligible). */
double cuperm_ctr_gett_seconds(const cuperm_ctr_problem_t* p, const cuperm_tuning_t* t, double smCount);

/* Seconds of p's plan on the skinny kernel (cuperm_ctr_gett_skinny) on a device of smCount SMs and
 * dramBytesPerSecond (theoretical): memory-bound (cuperm_skinny_tuning_t), A's bytes at the sector
 * efficiency of the runs a 128-row tile holds (16 elements along A's unit-stride mode where the plan
 * splits it, cuperm_ctr_gett_skinny_split; else the table orders' footprint), D's likewise (8 with a
 * split), B once a block. INFINITY where the tuning has no numbers. */
double cuperm_ctr_gett_skinny_seconds(const cuperm_ctr_problem_t* p, const cuperm_tuning_t* t, double smCount,
                                      double dramBytesPerSecond);

/* TTGT layout l's price where it competes with GETT's: the GETT constants were fitted to runs issued
 * back to back, where each cuBLAS call costs at least cuBLAS's host time (CTR_GEMM_CALL_SECONDS:
 * 8 us on the H100 machine's host) whatever its device time; the layout search's GEMM price is the
 * device's (below that floor for a single small GEMM). A looped layout is priced a call per looped
 * index even where its pointer-array batch makes it one cuBLAS call (plus the arrays' fill):
 * pricing it as one call took TTGT on 6 small seed-1 contractions that ran 1.25-2.3x slower than
 * their GETT plans on 5 of them (bench/results/gett-h100/dtile/model-h100/README.md). */
double cuperm_ctr_ttgt_issued_seconds(const cuperm_ctr_layout_t* l);

/* Whether a model plan takes GETT: its predicted seconds x the tuning's margin below ttgtSeconds
 * (the best TTGT layout's predicted total). */
int cuperm_ctr_gett_preferred(double gettSeconds, double ttgtSeconds, const cuperm_tuning_t* t);

/* A GETT kernel's modelled time for p and the tuning's margin model planning weighs it by: the
 * D-tile kernel's (dtile; its packed path's where every run takes that, cuperm_ctr_dtile_packed_seconds;
 * INFINITY where it does not take p), else the skinny kernel's where it
 * takes p, else the table kernel's. Model planning's choice and measure mode's report of each
 * candidate's price (exec/contraction/measure.c) both read it. */
double cuperm_ctr_gett_kernel_seconds(const cuperm_ctr_problem_t* p, int dtile, const cuperm_tuning_t* t, double smCount,
                                      double dramBytesPerSecond, double* margin);

/* Model planning's choice for p, whose best TTGT layout is l: the table kernel where
 * cuperm_ctr_gett_preferred says so (against l as issued; the skinny kernel's model instead where that
 * kernel takes p, by its margin against l's device time), the D-tile kernel where it takes p
 * (cuperm_ctr_dtile_choose) and its modelled time (gett_dtile_cost.h) x its margin is below the
 * better of the table kernel's and l's device time (inputs, output, GEMM), else TTGT
 * (CTR_GETT_NONE). *seconds: the chosen plan's modelled time (TTGT: its device time). */
enum { CTR_GETT_NONE = 0, CTR_GETT_TABLE = 1, CTR_GETT_DTILE = 2 };
int cuperm_ctr_gett_model_choice(const cuperm_ctr_problem_t* p, const cuperm_ctr_layout_t* l, const cuperm_tuning_t* t,
                                 double smCount, double dramBytesPerSecond, double* seconds);

#endif
