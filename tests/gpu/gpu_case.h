/* Runs one transpose case on the GPU and checks every output element against
 * the CPU reference. */
#ifndef CUPERM_TEST_GPU_CASE_H
#define CUPERM_TEST_GPU_CASE_H

#include "common/cases.h"
#include "support/dtype.h"

typedef enum {
    SCALARS_PLAIN,      /* alpha = 1, beta = 0: bits move */
    SCALARS_ALPHA,      /* random alpha, beta = 0: out poisoned with NaN must not leak */
    SCALARS_ALPHA_BETA  /* random alpha and beta: out read */
} scalars_mode_t;

typedef struct {
    cupermDataType_t type;
    scalars_mode_t scalars;
    int misalign;  /* offset both base pointers by this many elements */
    cudaStream_t stream;
} run_opts_t;

/** 0 on success; otherwise prints the case and the first mismatch to stderr. */
int gpu_run_case(cupermHandle_t h, const test_case_t* c, const run_opts_t* o, rng_t* r);

/* Types by name and the list of all types: support/dtype.h. */

#endif
