/*
 * cuTENSOR 2 loaded at run time for `cuperm-bench --compare cutensor`: dlopen of
 * $CUPERM_BENCH_CUTENSOR or libcutensor.so.2, so cuperm never depends on cuTENSOR to build or
 * to run. Contractions D = A B (alpha 1, beta 0, C = D) and permutations B = perm(A) (alpha 1),
 * each with cuTENSOR's default plan (CUTENSOR_ALGO_DEFAULT, default workspace preference),
 * optionally with its JIT.
 */
#ifndef CUPERM_BENCH_CUTENSOR_DL_H
#define CUPERM_BENCH_CUTENSOR_DL_H

#include <stddef.h>
#include <stdint.h>

#include <cuda_runtime_api.h>

#include "cuperm.h"

typedef struct bench_cutensor bench_cutensor;
typedef struct bench_cutensor_plan bench_cutensor_plan;

/* Loads the library and creates a cuTENSOR handle on the current device; NULL with a message
 * in err when the library, one of its entry points or the handle is missing. jit: plans use
 * CUTENSOR_JIT_MODE_DEFAULT (a first plan of a contraction then takes seconds). */
bench_cutensor* bench_cutensor_open(int jit, char* err, size_t errSize);
void bench_cutensor_close(bench_cutensor* t);

/* The path dlopen loaded (for the CSV header). */
const char* bench_cutensor_path(const bench_cutensor* t);

/* A plan of D = A B for cuperm descriptors A, B, D (d[0], d[1], d[3]; strides NULL: dense,
 * first mode fastest), fp32 compute (fp64 for fp64 data); its workspace size in *wsBytes.
 * 0, or -1 with cuTENSOR's message in err. */
int bench_cutensor_plan_create(bench_cutensor* t, const cupermTensorDescriptor_t d[4], bench_cutensor_plan** plan,
                               uint64_t* wsBytes, char* err, size_t errSize);
void bench_cutensor_plan_destroy(bench_cutensor_plan* plan);

/* Enqueues the contraction on s: 0 or -1. */
int bench_cutensor_contract(bench_cutensor_plan* plan, const void* a, const void* b, void* d, void* ws,
                            uint64_t wsBytes, cudaStream_t s);

/* A plan of out = perm(in) for a dense tensor of the given extents and a dense output (output
 * dimension r is input dimension perm[r]), types R_16F, R_32F and R_64F (compute of the same
 * precision); 0, or -1 with the reason in err (another type: cuTENSOR's permutation is not asked
 * for it here). */
int bench_cutensor_permute_create(bench_cutensor* t, int rank, const int64_t* extents, const int* perm,
                                  cupermDataType_t type, bench_cutensor_plan** plan, char* err, size_t errSize);

/* Enqueues the permutation on s: 0 or -1. */
int bench_cutensor_permute(bench_cutensor_plan* plan, const void* in, void* out, cudaStream_t s);

#endif
