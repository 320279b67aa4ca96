/*
 * A validated contraction problem: the four operands copied with explicit
 * strides, and the table of distinct modes with their class (M, N, K or L).
 * Plain C, no CUDA runtime calls: unit-tested on CPU-only machines.
 */
#ifndef CUPERM_CTR_PROBLEM_H
#define CUPERM_CTR_PROBLEM_H

#include "cuperm.h"

/* Mode classes, named after their role in the GEMM D[m,n,l] = sum_k A[m,k,l] B[k,n,l]. */
typedef enum {
    CTR_GROUP_M = 0, /* free in A: A and D */
    CTR_GROUP_N = 1, /* free in B: B and D */
    CTR_GROUP_K = 2, /* contracted: A and B */
    CTR_GROUP_L = 3, /* batched: A, B and D */
    CTR_GROUPS = 4
} cuperm_ctr_group_t;

enum { CTR_A = 0, CTR_B = 1, CTR_C = 2, CTR_D = 3, CTR_OPERANDS = 4 };
#define CTR_MAX_MODES (2 * CUPERM_MAX_RANK)

typedef struct {
    int rank;
    int32_t modes[CUPERM_MAX_RANK];
    int64_t extents[CUPERM_MAX_RANK];
    int64_t strides[CUPERM_MAX_RANK]; /* explicit: dense column-major when none were given */
    cupermDataType_t type;
    cupermOperator_t op;
    double opParam;
} cuperm_ctr_operand_t;

/* A distinct mode of extent > 1 (unit modes never matter and are dropped). */
typedef struct {
    int32_t label;
    int64_t extent;
    cuperm_ctr_group_t group;
    int pos[CTR_OPERANDS]; /* dimension index in A, B, C, D, or -1 */
} cuperm_ctr_mode_t;

typedef struct {
    cuperm_ctr_operand_t op[CTR_OPERANDS];
    cupermComputeType_t compute; /* resolved: never DEFAULT */
    int nmodes;
    cuperm_ctr_mode_t modes[CTR_MAX_MODES];
    int64_t groupSize[CTR_GROUPS];  /* product of the group's extents (1 when empty) */
    int groupCount[CTR_GROUPS];
} cuperm_ctr_problem_t;

/*
 * Copies and validates the descriptors. On failure sets the thread's error
 * message (naming the operand and the rule) and returns INVALID_VALUE or
 * NOT_SUPPORTED; on success fills p.
 */
cupermStatus_t cuperm_ctr_problem_init(cuperm_ctr_problem_t* p, const cupermTensorDescriptor_t* A,
                                const cupermTensorDescriptor_t* B,
                                const cupermTensorDescriptor_t* C,
                                const cupermTensorDescriptor_t* D, cupermComputeType_t compute);

/* Mode groups as core/layout.h's dimensions: the extents and strides in operand w of modes
 * order[0..n) (each held by w). */
void cuperm_ctr_gather(const cuperm_ctr_problem_t* p, int w, const int* order, int n, int64_t* extents, int64_t* strides);

/* For every mode i: its stride in operand w and, when pos is non-NULL, its dimension index
 * there (modes w lacks: INT64_MAX and -1). Sort keys for cuperm_sort_by_key. */
void cuperm_ctr_mode_keys(const cuperm_ctr_problem_t* p, int w, int64_t* stride, int64_t* pos);

/* Whether operands v and w (holding the same modes, as C and D) have the same stride along every
 * mode: then their elements sit at the same places. */
int cuperm_ctr_same_strides(const cuperm_ctr_problem_t* p, int v, int w);

/* Elements of an operand: the product of its extents (1 for rank 0). */
int64_t cuperm_ctr_operand_volume(const cuperm_ctr_operand_t* t);

/* Element offset span [0, maxOffset] of an operand (0 for rank 0). */
int64_t cuperm_ctr_operand_max_offset(const cuperm_ctr_operand_t* t);

/* Real floating-point operations of the contraction (complex multiply-add = 8). */
double cuperm_ctr_problem_flops(const cuperm_ctr_problem_t* p);

const char* cuperm_ctr_group_name(cuperm_ctr_group_t g);
const char* cuperm_ctr_operand_name(int which);

#endif
