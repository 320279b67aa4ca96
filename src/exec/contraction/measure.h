/* CUPERM_PLAN_MEASURE: the model's cheapest layouts timed on the device. */
#ifndef CUPERM_CTR_MEASURE_H
#define CUPERM_CTR_MEASURE_H

#include "exec/contraction/plan.h"

/* How many of the model's cheapest distinct layouts are timed. */
#define CTR_MEASURE_CANDIDATES 8
/* Milliseconds a timing sample of a candidate lasts (the handle's default; measure.c says why). */
#define CTR_MEASURE_SAMPLE_MS 0.5

/*
 * Sets c->layout to the fastest of the model's CTR_MEASURE_CANDIDATES cheapest
 * layouts and c->measuredSeconds to its median time. c's problem, handle, state
 * and device are set; c's runners are not built (the caller builds them). Runs
 * on the current device, which must be the handle's, on a stream of its own;
 * scratch A, B and D (their spans) and the largest candidate workspace come
 * stream-ordered from the device's current memory pool and are freed before it
 * returns. withGett: the GETT plan is a candidate too, where it can run the problem.
 */
cupermStatus_t cuperm_ctr_measure_choose(cuperm_contraction_plan_t* c, const cuperm_ctr_cost_model_t* model,
                                         int withGett);

/* One candidate of cuperm_ctr_measure_candidates. */
typedef struct {
    cuperm_ctr_layout_t layout;
    cuperm_ctr_gemm_shape_t gemm; /* its GEMM as the model priced it (TTGT) */
    double gemmFactor;            /* the layout factor in that price (cuperm_ctr_gemm_factor) */
    double price;                 /* model planning's price: TTGT its predicted time, GETT the
                                     kernel model's time x the tuning's margin for that kernel */
    int timed;                    /* 0: its steps could not be made, so it was not timed */
    double seconds;               /* median seconds of the whole plan */
    double gemmSeconds;           /* with stepsAlone: its GEMM step run alone (TTGT), else 0 */
    int stepCount;                /* with stepsAlone (TTGT): its steps, each run alone: */
    const char* stepNames[CTR_MAX_STEPS];
    double stepSeconds[CTR_MAX_STEPS]; /* median seconds; -1: not run (a step for beta != 0 only) */
    char description[512];
} cuperm_ctr_candidate_t;

/*
 * What CUPERM_PLAN_MEASURE times, reported per candidate (cuperm_ctr_measure_choose keeps the
 * fastest; tools/model/ctr_candidate_times.c prints them all to fit the model): the model's `max`
 * cheapest distinct TTGT layouts, then the GETT ones where withGett and usable; out holds max + 2.
 * stepsAlone: each step of a TTGT candidate is also timed on its own. c as for
 * cuperm_ctr_measure_choose (a built plan may be passed too: it is not changed).
 */
CUPERM_INTERNAL_API cupermStatus_t cuperm_ctr_measure_candidates(const cuperm_contraction_plan_t* c,
                                                                 const cuperm_ctr_cost_model_t* model, int max,
                                                                 int withGett, int stepsAlone,
                                                                 cuperm_ctr_candidate_t* out, int* count);

#endif
