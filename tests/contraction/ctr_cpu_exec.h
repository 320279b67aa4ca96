/*
 * Runs a planned layout on the CPU, step for step as the GPU executor does
 * (transposes in cupermPlanTranspose's convention, a strided-batched GEMM with
 * cuBLAS's N/T/C flags, the output path), on complex-double buffers. Checking
 * it against ctr_ref_contract tests the planner without a GPU.
 */
#ifndef CUPERM_TEST_CTR_CPU_EXEC_H
#define CUPERM_TEST_CTR_CPU_EXEC_H

#include "plan/contraction/layout.h"
#include "contraction/ctr_reference.h"
#include "support/rng.h"

/* A transpose cost without a device, for the planner on the CPU (the cost model's
 * transposeSeconds with a ctr_mock_prices context): 5 us + the bytes at 2 TB/s, or
 * with random set 1..100 us drawn from it, so that every layout gets to win. */
typedef struct {
    rng_t* random;
} ctr_mock_prices;
double ctr_mock_transpose_seconds(void* prices, const cuperm_ctr_transpose_t* t);

/* d is read (beta != 0 with c == d) and written; c may equal d. */
void ctr_cpu_execute(const cuperm_ctr_problem_t* p, const cuperm_ctr_layout_t* l, const ctr_cplx* a, const ctr_cplx* b,
                     const ctr_cplx* c, ctr_cplx* d, ctr_cplx alpha, ctr_cplx beta);

#endif
