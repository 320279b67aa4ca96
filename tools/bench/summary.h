/* The summary of a run: per element type and mode, the worst/median/best
 * percentage of the same-run copy for each rank, and overall. */
#ifndef CUPERM_BENCH_SUMMARY_H
#define CUPERM_BENCH_SUMMARY_H

#include <stdio.h>

#include "results.h"

void bench_write_summary(FILE* f, const bench_result* results, size_t n);

#endif
