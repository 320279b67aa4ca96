/* Where results go: a CSV file (one row per case and mode), a human-readable
 * line per case on stdout, and a progress line on stderr for long suites. */
#ifndef CUPERM_BENCH_OUTPUT_H
#define CUPERM_BENCH_OUTPUT_H

#include <stdio.h>

#include "results.h"

void bench_csv_header(FILE* f);
void bench_csv_row(FILE* f, const bench_result* r);

void bench_table_header(FILE* f);
void bench_table_row(FILE* f, const bench_result* r);

/* Progress of a long suite: rewrites one line on a terminal, else prints a line
 * every 10 seconds. done counts finished cases of total; started is a monotonic time. */
typedef struct {
    double started, last_print;
    int is_tty;
} bench_progress;

void bench_progress_start(bench_progress* p, FILE* f);
void bench_progress_update(bench_progress* p, FILE* f, long done, long total, const char* what);
void bench_progress_finish(bench_progress* p, FILE* f);

/* Monotonic seconds. */
double bench_now(void);

#endif
