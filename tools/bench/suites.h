/* The suite table: each entry names a suite and says how to make and run it.
 * Adding a suite is one entry in k_suites (suites.c): transpose suites give a
 * generate function and use bench_run_transpose_suite; other kinds (contractions)
 * give their own run function and may leave generate NULL. */
#ifndef CUPERM_BENCH_SUITES_H
#define CUPERM_BENCH_SUITES_H

#include <stdio.h>

#include "args.h"
#include "bench_case.h"

typedef struct bench_suite bench_suite;

/* Appends the suite's cases for elements of elem_size bytes; 0, or -1 with err set. */
typedef int (*bench_generate_fn)(const bench_options* opt, size_t elem_size, bench_case_list* out,
                                 char* err, size_t err_size);

/* Runs the suite as opt says; returns the process exit status. */
typedef int (*bench_run_fn)(const bench_suite* suite, const bench_options* opt);

struct bench_suite {
    const char* name;
    const char* help;          /* one line for --help */
    const char* default_dtype; /* used when --dtype is not given */
    bench_generate_fn generate;
    bench_run_fn run;
    int in_l2; /* tensors fit in L2: summarise per size, metric is time vs. the copy */
};

const bench_suite* bench_suite_find(const char* name);
/* "ttc57, perm720, ..." into buf. */
void bench_suite_names(char* buf, size_t size);
void bench_suite_print_help(FILE* f);

/* The runner of every transpose suite (run_transpose.c). */
int bench_run_transpose_suite(const bench_suite* suite, const bench_options* opt);

/* The TTC benchmark's case list, bench/cases/ttc57.txt, compiled in at build time. */
extern const char bench_ttc57_text[];

#endif
