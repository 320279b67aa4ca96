/* CUPERM_PLAN_MEASURE: the model's cheapest layouts timed on the device. */
#ifndef CUPERM_CTR_MEASURE_H
#define CUPERM_CTR_MEASURE_H

#include "exec/contraction/plan.h"

/* How many of the model's cheapest distinct layouts are timed. */
#define CTR_MEASURE_CANDIDATES 8

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

#endif
