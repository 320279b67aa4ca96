/*
 * Plans are lists of steps. A step names the buffers it reads and writes
 * (the caller's operands or a slice of the plan's workspace), the workspace it
 * needs, when it applies, and the function that enqueues it: the shape of
 * CUTLASS's library Operation. Running a plan is one loop over its steps, so a
 * new kind of work (a GETT kernel, an NCCL exchange) is a new run function and
 * parameter block, not a new branch in the loop.
 */
#ifndef CUPERM_EXEC_STEP_H
#define CUPERM_EXEC_STEP_H

#include <stddef.h>

#include <cuda_runtime_api.h>

#include "cuperm.h"

/* Where a step's buffer lives: one of the caller's operands, or the workspace. */
typedef enum {
    CUPERM_BUF_A = 0,
    CUPERM_BUF_B = 1,
    CUPERM_BUF_C = 2,
    CUPERM_BUF_D = 3,
    CUPERM_BUF_WORKSPACE = 4,
    CUPERM_BUF_NONE = 5
} cuperm_buffer_kind_t;

typedef struct {
    cuperm_buffer_kind_t kind;
    size_t offset; /* bytes into the workspace (CUPERM_BUF_WORKSPACE) */
} cuperm_buffer_t;

/* What one execution passes to every step. */
typedef struct {
    const void* operand[4]; /* A, B, C, D as the caller gave them (C is NULL when beta == 0) */
    char* workspace;
    double alpha[2], beta[2]; /* {re, im}, folded operator signs applied */
    int beta_zero;
    cudaStream_t stream;
} cuperm_run_args_t;

/* When a step applies (bits): always, or only if beta != 0 and C is not D. */
#define CUPERM_STEP_ALWAYS 0u
#define CUPERM_STEP_IF_C_INTO_D 1u

struct cuperm_step;
typedef cupermStatus_t (*cuperm_step_fn)(const struct cuperm_step* step, const void* plan,
                                         const cuperm_run_args_t* args);

typedef struct cuperm_step {
    const char* name;      /* for descriptions and errors */
    cuperm_step_fn run;
    unsigned when;
    cuperm_buffer_t in, in2, out; /* in2: a second input (C for epilogues), or NONE */
    size_t workspace_bytes;       /* this step's own scratch (after its out slice, if any) */
    void* params;                 /* the step kind's parameter block, owned by the plan */
} cuperm_step_t;

/* The address of a buffer for one execution. */
static inline void* cuperm_buffer_address(cuperm_buffer_t b, const cuperm_run_args_t* a)
{
    if (b.kind == CUPERM_BUF_WORKSPACE) return a->workspace + b.offset;
    if (b.kind == CUPERM_BUF_NONE) return NULL;
    return (void*)a->operand[b.kind];
}

static inline int cuperm_step_applies(const cuperm_step_t* s, const cuperm_run_args_t* a)
{
    if (s->when & CUPERM_STEP_IF_C_INTO_D)
        return !a->beta_zero && a->operand[CUPERM_BUF_C] != a->operand[CUPERM_BUF_D];
    return 1;
}

/* Runs steps in order; stops at the first failure. */
static inline cupermStatus_t cuperm_steps_run(const cuperm_step_t* steps, int count, const void* plan,
                                              const cuperm_run_args_t* args)
{
    for (int i = 0; i < count; ++i) {
        if (!cuperm_step_applies(&steps[i], args)) continue;
        const cupermStatus_t st = steps[i].run(&steps[i], plan, args);
        if (st) return st;
    }
    return CUPERM_STATUS_SUCCESS;
}

#endif
