/* One measured row: a case run in one mode with one element type. */
#ifndef CUPERM_BENCH_RESULTS_H
#define CUPERM_BENCH_RESULTS_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    const char* suite;
    const char* dtype;
    const char* mode;        /* "heuristic" or "measure" */
    long index;              /* case index within the suite */
    int rank;
    char extents[512];       /* case-file notation */
    char perm[128];
    int64_t bytes;           /* bytes of one tensor */
    char kernel[24];
    char config[48];         /* tileA x tileB : threads per block */
    int fused_rank;
    double plan_us;          /* median host time of plan creation */
    double exec_ms;          /* median execution time */
    double single_use_ms;    /* median of plan + one execute, heuristic plans (NaN otherwise) */
    double gbps;             /* 2 * bytes / exec (3 * bytes when beta != 0) */
    double copy_ms;          /* same-run D2D copy of bytes: the faster of the two below */
    double memcpy_ms;        /* same-run cudaMemcpyAsync D2D of bytes */
    double copy_kernel_ms;   /* same-run copy kernel (copy_kernel.cu) of bytes */
    double copy_gbps;        /* 2 * bytes / copy */
    double pct_copy;         /* 100 * gbps / copy_gbps */
    double heur_over_meas;   /* heuristic exec / measured exec (mode both), else NaN */
    int verified;            /* 1 every element matched, 0 mismatches, -1 not checked */
    int64_t mismatches;
    int batches, inner;      /* timed batches and executions per batch */
    int graphs;              /* 1: the batches replayed CUDA graphs of their runs (timing.h), 0: not, -1: not timed */
    double cutensor_ms;      /* --compare cutensor: cutensorPermute's median time (its own batches against the
                              * copy), heuristic rows only; NaN when not run */
    double cutensor_pct_copy; /* its bandwidth as % of the copy timed in its batches */
    int cutensor_verified;   /* 1 every element of its output matched, 0 mismatches, -1 not run */
    char error[256];         /* non-empty when planning or execution failed */
} bench_result;

typedef struct {
    size_t count;
    double worst, median, best;
} bench_stats;

/* Min, median (mean of the middle two for even counts) and max of values, ignoring
 * NaNs; count 0 (and NaNs) when none. values is reordered. */
bench_stats bench_stats_of(double* values, size_t n);

#endif
