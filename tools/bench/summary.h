/* The summary of a run: per element type and mode, the worst/median/best
 * percentage of the same-run copy for each rank (or tensor size), and overall. */
#ifndef CUPERM_BENCH_SUMMARY_H
#define CUPERM_BENCH_SUMMARY_H

#include <stdio.h>

#include "results.h"

typedef enum { BENCH_GROUP_BY_RANK, BENCH_GROUP_BY_SIZE } bench_grouping;

/* BENCH_GROUP_BY_SIZE groups by the tensor's bytes rounded to a power of two (the
 * small suite, whose sizes are 64 KB, 256 KB, ...). */
void bench_write_summary(FILE* f, const bench_result* results, size_t n, bench_grouping by);

#endif
