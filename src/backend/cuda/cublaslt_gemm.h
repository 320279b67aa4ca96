/*
 * The GEMM step of a contraction on cuBLASLt, its algorithm chosen once for the plan.
 * cublasGemmEx asks cuBLAS's heuristic again on every call; a plan knows its shapes, so it asks
 * once and a run is one cublasLtMatmul (on the H100 machine's host a whole cupermContract of a
 * one-GEMM plan took 7.7 us, a bare cublasGemmEx 8.2 us: bench/results/contraction/lt-h100/).
 * The asking costs 50-150 us of host time (cublasLtMatmulAlgoGetHeuristic on the H100 host,
 * bench/results/contraction-planning-h100/s19/), the price of hundreds of runs' savings: a plan
 * runs cublasGemmEx for its first CTR_LT_AFTER_RUNS runs and asks then (ski rental: a plan run
 * once never pays, a hot plan pays once). The algorithm is chosen for CTR_LT_PTR_ALIGN-byte
 * aligned operands: a run with a pointer aligned less takes cublasGemmEx
 * (backend/cuda/cublas_gemm.h), which checks its own pointers.
 */
#ifndef CUPERM_CTR_LT_GEMM_H
#define CUPERM_CTR_LT_GEMM_H

#include <cublasLt.h>

#include "plan/contraction/layout.h"

#define CTR_LT_PTR_ALIGN 16
#define CTR_LT_AFTER_RUNS 256
#define CTR_LT_ALGOS 8 /* the most answers asked of cuBLASLt's heuristic (CUPERM_LT_ALGO's range) */

typedef struct {
    int ready; /* an algorithm was found: cuperm_ctr_lt_run may run the GEMM */
    int found; /* answers the heuristic gave (at most CTR_LT_ALGOS) */
    unsigned align[3]; /* bytes each operand (first, second, out) is aligned to for the algorithm */
    cublasLtMatmulDescOpaque_t desc;
    cublasLtMatrixLayoutOpaque_t first, second, out; /* out serves as C and D (updated in place) */
    cublasLtMatmulAlgo_t algo;
    size_t workspaceBytes; /* the most the algorithm uses of the plan's cuBLAS workspace */
} cuperm_ctr_lt_gemm_t;

/* Describes one call of the layout's GEMM (single or strided-batched; a looped layout runs it once
 * per looped index) to cuBLASLt and chooses its algorithm for at most workspaceBytes of
 * workspace, on the current device, for operands aligned to CTR_LT_PTR_ALIGN bytes or, where
 * vectorBytes (cuperm_ctr_gemm_bounds_t, NULL: none) says less, to that: an algorithm whose
 * vectors stay inside a ragged operand. The heuristic's answer number pick (0: its first; its
 * first where it gives fewer; the handle's CUPERM_LT_ALGO, for A/B runs). Leaves g->ready 0 when
 * cuBLASLt declines any part: the step then runs cublasGemmEx. */
void cuperm_ctr_lt_plan(cublasLtHandle_t lt, const cuperm_ctr_problem_t* p, const cuperm_ctr_layout_t* l,
                        size_t workspaceBytes, const unsigned* vectorBytes, int pick, cuperm_ctr_lt_gemm_t* g);

/* Whether a run on these pointers may take the planned algorithm (each aligned as it assumes). */
int cuperm_ctr_lt_fits(const cuperm_ctr_lt_gemm_t* g, const void* first, const void* second, const void* out);

/* out = alpha * op(first) op(second) + beta * out with the planned algorithm; alpha, beta as
 * {re, im}. Sets the error message on failure. */
cupermStatus_t cuperm_ctr_lt_run(cublasLtHandle_t lt, const cuperm_ctr_lt_gemm_t* g, const cuperm_ctr_problem_t* p,
                                 const cuperm_ctr_layout_t* l, const void* first, const void* second, void* out,
                                 const double alpha[2], const double beta[2], void* workspace, cudaStream_t stream);

#endif
