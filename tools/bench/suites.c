#include "suites.h"

#include <string.h>

#include "case_parse.h"
#include "contraction_suites.h"
#include "gen.h"

/* The generator parameters with the suite's defaults filled in. */
static bench_gen_params params(const bench_options* opt, int default_count)
{
    bench_gen_params p = opt->gen;
    if (p.count == 0) p.count = default_count;
    bench_gen_params_defaults(&p);
    return p;
}

static int gen_ttc57(const bench_options* opt, size_t elem_size, bench_case_list* out, char* err,
                     size_t err_size)
{
    (void)opt, (void)elem_size;
    return bench_parse_cases(bench_ttc57_text, "bench/cases/ttc57.txt", out, err, err_size);
}

static int gen_perm720(const bench_options* opt, size_t elem_size, bench_case_list* out,
                       char* err, size_t err_size)
{
    (void)elem_size;
    int64_t extent = opt->gen.extent ? opt->gen.extent : 16;
    if (bench_gen_all_perms(6, extent, out) != 0) {
        snprintf(err, err_size, "perm720: cannot make the permutations of extent %lld",
                 (long long)extent);
        return -1;
    }
    return 0;
}

static int gen_random(const bench_options* opt, size_t elem_size, bench_case_list* out, char* err,
                      size_t err_size)
{
    (void)elem_size;
    bench_gen_params p = params(opt, 2);
    return bench_gen_random_suite(&p, out, err, err_size);
}

static int gen_highrank(const bench_options* opt, size_t elem_size, bench_case_list* out,
                        char* err, size_t err_size)
{
    (void)elem_size;
    bench_gen_params p = params(opt, 6);
    return bench_gen_highrank_suite(&p, out, err, err_size);
}

static int gen_square(const bench_options* opt, size_t elem_size, bench_case_list* out, char* err,
                      size_t err_size)
{
    (void)elem_size;
    int64_t n = opt->gen.extent ? opt->gen.extent : 32768;
    bench_case c = {.rank = 2, .extents = {n, n}, .perm = {1, 0}};
    if (bench_case_list_push(out, &c)) {
        snprintf(err, err_size, "out of memory");
        return -1;
    }
    return 0;
}

static int gen_small(const bench_options* opt, size_t elem_size, bench_case_list* out, char* err,
                     size_t err_size)
{
    bench_gen_params p = params(opt, 1);
    return bench_gen_small_suite(&p, elem_size, out, err, err_size);
}

static int gen_cases_file(const bench_options* opt, size_t elem_size, bench_case_list* out,
                          char* err, size_t err_size)
{
    (void)elem_size;
    return bench_read_case_file(opt->cases_file, out, err, err_size);
}

static int gen_single_case(const bench_options* opt, size_t elem_size, bench_case_list* out,
                           char* err, size_t err_size)
{
    (void)elem_size;
    bench_case c;
    char why[256];
    if (bench_parse_case(opt->single_case, &c, why, sizeof why) != 0) {
        snprintf(err, err_size, "--case \"%s\": %s", opt->single_case, why);
        return -1;
    }
    if (bench_case_list_push(out, &c)) {
        snprintf(err, err_size, "out of memory");
        return -1;
    }
    return 0;
}

static const bench_suite k_suites[] = {
    {"ttc57", "the TTC benchmark's 57 transposes, ranks 2-6, 400-490 MB at 8 bytes", "f64",
     gen_ttc57, bench_run_transpose_suite},
    {"perm720", "all 720 permutations of a rank-6 tensor, every extent --extent (16)", "f64",
     gen_perm720, bench_run_transpose_suite},
    {"random", "random extents and permutations (cuTT set 1): --rank, --ratio, --count, --volume",
     "f64", gen_random, bench_run_transpose_suite},
    {"highrank", "ranks 8 and 12: four large extents, the others 2; --count per rank, --volume",
     "f64", gen_highrank, bench_run_transpose_suite},
    {"square", "one --extent x --extent (32768) matrix transpose", "f32", gen_square,
     bench_run_transpose_suite},
    {"small", "64 KB - 16 MB tensors, ranks 2, 3, 4, 6 (in L2): time vs. a copy", "f64",
     gen_small, bench_run_transpose_suite},
    {"tccg48", "contractions: the TCCG benchmark's 48 (cupermContract vs. same-shape cuBLAS GEMM)",
     "f32", NULL, bench_run_contraction_suite},
    {"random-contractions", "contractions as in cuTT's TAL-SH study: ranks <= 8, <= 4 large extents, "
     "largest tensor ~150M elements (75M at 8 bytes); --count (24), --seed", "f32", NULL,
     bench_run_contraction_suite},
    {"cases", "the cases of --cases FILE", "f64", gen_cases_file, bench_run_transpose_suite},
    {"case", "the one case of --case \"EXTENTS PERM\"", "f64", gen_single_case,
     bench_run_transpose_suite},
};

#define NUM_SUITES (sizeof k_suites / sizeof k_suites[0])

const bench_suite* bench_suite_find(const char* name)
{
    for (size_t i = 0; i < NUM_SUITES; ++i)
        if (strcmp(k_suites[i].name, name) == 0) return &k_suites[i];
    return NULL;
}

void bench_suite_names(char* buf, size_t size)
{
    size_t used = 0;
    if (size) buf[0] = '\0';
    for (size_t i = 0; i < NUM_SUITES && used < size; ++i) {
        int n = snprintf(buf + used, size - used, "%s%s", i ? ", " : "", k_suites[i].name);
        if (n < 0) break;
        used += (size_t)n;
    }
}

void bench_suite_print_help(FILE* f)
{
    for (size_t i = 0; i < NUM_SUITES; ++i)
        fprintf(f, "  %-10s %s (default --dtype %s)\n", k_suites[i].name, k_suites[i].help,
                k_suites[i].default_dtype);
}
