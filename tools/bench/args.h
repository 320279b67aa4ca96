/* Command-line options of cuperm-bench. */
#ifndef CUPERM_BENCH_ARGS_H
#define CUPERM_BENCH_ARGS_H

#include <stddef.h>
#include <stdint.h>

#include "support/dtype.h"
#include "gen.h"

#define BENCH_MAX_DTYPES 16

typedef enum { BENCH_MODE_HEURISTIC = 1, BENCH_MODE_MEASURE = 2, BENCH_MODE_BOTH = 3 } bench_mode;

typedef struct {
    const char* suite;        /* suite name, or NULL until resolved */
    const char* cases_file;   /* --cases FILE */
    const char* single_case;  /* --case "EXTENTS PERM" */
    const dtype_info* dtypes[BENCH_MAX_DTYPES];
    int num_dtypes;           /* 0: the suite's default */
    bench_mode mode;
    bench_gen_params gen;     /* --extent --rank --ratio --count --volume --seed */
    long skip, limit;         /* run cases [skip, skip + limit) */
    const char* out_dir;      /* --out DIR: CSV and summary files */
    const char* tag;          /* --tag: file name stem */
    int verify;               /* --no-verify clears it */
    double alpha, beta;
    cupermOperator_t ops[3];  /* --ops A,B,D: contraction operators on A, B and the result (identity) */
    cupermContractionAlgo_t algo; /* --algo: the kinds of contraction plan allowed (default: all) */
    int compute_tf32;         /* --compute tf32: f32 contractions (and their GEMM) on TF32 tensor cores */
    int compare_cutensor;     /* --compare cutensor (1) or cutensor-jit (2): cuTENSOR's default plan
                                 timed beside cuperm's and checked (contractions and transposes) */
    int plan_reps;            /* heuristic plan creations timed per case */
    double target_ms;         /* timing budget per case and mode */
    int list_only;            /* --list */
    int quiet;                /* --quiet: no per-case table on stdout */
    int help;                 /* -h, --help */
    int version;              /* --version: print the library version and exit */
    char command_line[2048];  /* as given, for the summary */
} bench_options;

/* Parses argv into opt; returns 0, or -1 with a message in err naming the option. */
int bench_parse_args(int argc, char** argv, bench_options* opt, char* err, size_t err_size);

void bench_print_usage(const char* argv0);

#endif
