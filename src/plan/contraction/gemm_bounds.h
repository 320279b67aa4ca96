/*
 * Where cuBLAS may read past a GEMM operand's end, and how narrow its vectors must be not to.
 *
 * cuBLAS's kernels load an operand in vectors as wide as its base pointer and leading (and batch)
 * strides allow, up to 16 bytes, and load a vector whole once its first element is inside a
 * column. A column whose length in bytes is a smaller power-of-two multiple than its stride
 * (17 halves, leading dimension 18) therefore ends inside a vector, and the last column's last
 * vector reaches past the operand's end: on the H100, cuBLAS's f16 kernel `..._nt_align2` read
 * 2 bytes past a 34-byte operand of 17 halves (leading dimension 2) under compute-sanitizer
 * (bench/results/contraction-planning-h100/s19/memcheck/). The vector is aligned, so the read
 * never crosses a page and the extra element only feeds rows that are never stored; but it is
 * outside the caller's buffer. Such an operand is *ragged*; telling cuBLASLt its true alignment
 * (CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_*_BYTES) keeps the reads inside it.
 */
#ifndef CUPERM_CTR_GEMM_BOUNDS_H
#define CUPERM_CTR_GEMM_BOUNDS_H

#include "plan/contraction/layout.h"

/* The GEMM's operands in cuBLAS's order. */
enum { CTR_GEMM_FIRST = 0, CTR_GEMM_SECOND = 1, CTR_GEMM_OUT = 2 };

typedef struct {
    /* Per operand: the widest vector, in bytes (a power of two, at most CTR_PTR_ALIGN), that stays
     * inside every column; CTR_PTR_ALIGN when no vector the strides allow can pass the end. */
    unsigned vectorBytes[3];
    int ragged; /* some operand's vectorBytes is below CTR_PTR_ALIGN */
} cuperm_ctr_gemm_bounds_t;

/* The bounds of layout l's GEMM (a TTGT layout: operands as cuBLAS reads and writes them). */
void cuperm_ctr_gemm_bounds(const cuperm_ctr_problem_t* p, const cuperm_ctr_layout_t* l, cuperm_ctr_gemm_bounds_t* b);

#endif
