/* cuperm-dist-test's harness: one host thread per GPU, the ranks (dt_G GPUs, dt_R[r]), the
 * watchdog, the random numbers, element access and scalars for the tested types, random
 * distributions and the block arithmetic the cases share. Defined in harness.c. */
#ifndef CUPERM_TEST_DIST_HARNESS_H
#define CUPERM_TEST_DIST_HARNESS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cuda_runtime_api.h>

#include "cuperm_dist.h"

#define MAXG 16
#define CK(x)                                                                                     \
    do {                                                                                          \
        cudaError_t e_ = (x);                                                                     \
        if (e_ != cudaSuccess) {                                                                  \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_));    \
            exit(1);                                                                              \
        }                                                                                         \
    } while (0)

typedef struct {
    int dev;
    ncclComm_t comm;
    cudaStream_t stream;
    cupermHandle_t handle;
} rank_t;

extern int dt_G;          /* ranks: the GPUs in use, at most MAXG */
extern rank_t dt_R[MAXG]; /* rank r: GPU, communicator, stream, handle */

/* ---- one host thread per GPU ------------------------------------------------ */
typedef void (*rank_fn)(int r, void* arg);
/* fn(r, arg) on every rank, each on its own thread with its GPU current; returns when all did. */
void dt_on_all_ranks(rank_fn fn, void* arg);
/* SIGALRM handler: reports a hung collective call and exits 124. */
void dt_watchdog(int sig);
/* alarm(seconds x DT_WATCHDOG_SCALE from the environment, 1 unless set): a slower run (under
 * compute-sanitizer) keeps its watchdog without a false alarm. 0 cancels. */
void dt_alarm(unsigned seconds);
/* Seconds on a monotonic clock. */
double dt_now(void);
/* DT_TRACE: where rank r is ("what it", at dt_now()), on stderr (unbuffered),
 * for hangs and stalls. */
void dt_trace(int r, const char* what, long long it);

/* splitmix64; --seed sets the state */
extern uint64_t dt_rng_state;
uint64_t dt_rnd(void);
int64_t dt_rr(int64_t lo, int64_t hi); /* uniform in [lo, hi] */

/* ---- element access for the tested types (values are small integers: exact) --- */
void dt_put(cupermDataType_t t, void* b, int64_t i, double v);
double dt_get(cupermDataType_t t, const void* b, int64_t i, double* im);
/* alpha = 2, beta = -1 (or 0) in the type's scalar type */
void dt_scalar(cupermDataType_t t, double v, void* s);
const char* dt_type_name(cupermDataType_t t);

/* ---- a distribution ------------------------------------------------------------ */
typedef struct {
    int64_t ext[6];
    int modes[6], grid[6];
    int64_t block[6];
    int use_blocks;
    cupermDistTensorDescriptor_t d;
} dist_t;

/* A random distribution of a rank-`rank` tensor of extents ext over the dt_G ranks. */
void dt_random_dist(int rank, const int64_t* ext, dist_t* o);
/* "Shard(mode:grid x block,...)" into s[0..n). */
void dt_describe(const dist_t* d, char* s, size_t n);

/* ---- local blocks ------------------------------------------------------------------ */
/* Elements from a block's first to one past its last (0 for an empty block). */
int64_t dt_span(const int64_t* le, const int64_t* str, int rank);
/* Dense column-major strides of extents le (empty modes count 1), mode 0 padded by pad. */
void dt_dense(const int64_t* le, int rank, int64_t* str, int pad);
/* n bytes host -> device, landed on return: cudaMemcpy from pageable memory may return before its
 * DMA does, and the tests' non-blocking streams do not wait for the legacy stream it runs on. */
void dt_upload(void* d, const void* h, size_t n);
/* The next index in column-major order; 0 after the last. */
int dt_next_idx(int64_t* idx, const int64_t* ext, int rank);
/* Global (dense column-major, extents ext) <-> a rank's local block (extents le at global
 * offsets off, strides str): to_local 1 copies global -> local, 0 local -> global. */
void dt_copy_block(cupermDataType_t t, void* global, const int64_t* ext, void* local, const int64_t* le,
                   const int64_t* off, const int64_t* str, int rank, int to_local);

#endif
