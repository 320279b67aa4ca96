/* Splits [0, n) into contiguous ranges run on pthreads: the CPU side of the
 * benchmark (random fill, reference check) handles GB-sized tensors. */
#ifndef CUPERM_BENCH_PARALLEL_H
#define CUPERM_BENCH_PARALLEL_H

#include <stddef.h>

typedef void (*bench_range_fn)(size_t begin, size_t end, int worker, void* ctx);

/* Online CPUs, at most 64. */
int bench_cpu_count(void);

/* Runs fn over [0, n) split into up to threads ranges, each at least grain long;
 * falls back to running inline if a thread cannot start. */
void bench_parallel_for(size_t n, size_t grain, int threads, bench_range_fn fn, void* ctx);

#endif
