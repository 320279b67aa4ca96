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

/* permn: all 720 permutations of n^6 for n = --extent (15); the held-out extents
 * (13, 19, 21, 23) belong to permn-heldout only. */
static int gen_permn(const bench_options* opt, size_t elem_size, bench_case_list* out, char* err,
                     size_t err_size)
{
    (void)elem_size;
    int64_t extent = opt->gen.extent ? opt->gen.extent : 15;
    if (bench_permn_extent_is_heldout(extent)) {
        snprintf(err, err_size, "permn: extent %lld is held out (permn-heldout; measured only at the end)",
                 (long long)extent);
        return -1;
    }
    if (bench_gen_all_perms(6, extent, out) != 0) {
        snprintf(err, err_size, "permn: cannot make the permutations of extent %lld", (long long)extent);
        return -1;
    }
    return 0;
}

static int gen_permn_heldout(const bench_options* opt, size_t elem_size, bench_case_list* out,
                             char* err, size_t err_size)
{
    (void)elem_size;
    for (int i = 0; i < BENCH_PERMN_HELDOUT_COUNT; ++i) {
        int64_t extent = bench_permn_heldout_extents[i];
        if (opt->gen.extent && opt->gen.extent != extent) continue;
        if (bench_gen_all_perms(6, extent, out) != 0) {
            snprintf(err, err_size, "permn-heldout: out of memory");
            return -1;
        }
    }
    if (out->count == 0) {
        snprintf(err, err_size, "permn-heldout: --extent %lld is not a held-out extent (13, 19, 21, 23)",
                 (long long)opt->gen.extent);
        return -1;
    }
    return 0;
}

static bench_gen_params heldout(bench_gen_params p)
{
    p.seed = bench_heldout_seed(p.seed);
    return p;
}

static int gen_primes(const bench_options* opt, size_t elem_size, bench_case_list* out, char* err,
                      size_t err_size)
{
    (void)elem_size;
    bench_gen_params p = params(opt, 20);
    return bench_gen_primes_suite(&p, out, err, err_size);
}

static int gen_primes_heldout(const bench_options* opt, size_t elem_size, bench_case_list* out,
                              char* err, size_t err_size)
{
    (void)elem_size;
    bench_gen_params p = heldout(params(opt, 20));
    return bench_gen_primes_suite(&p, out, err, err_size);
}

static int gen_mixed(const bench_options* opt, size_t elem_size, bench_case_list* out, char* err,
                     size_t err_size)
{
    (void)elem_size;
    bench_gen_params p = params(opt, 10);
    return bench_gen_mixed_suite(&p, out, err, err_size);
}

static int gen_mixed_heldout(const bench_options* opt, size_t elem_size, bench_case_list* out,
                             char* err, size_t err_size)
{
    (void)elem_size;
    bench_gen_params p = heldout(params(opt, 10));
    return bench_gen_mixed_suite(&p, out, err, err_size);
}

static int gen_shortgroup(const bench_options* opt, size_t elem_size, bench_case_list* out, char* err,
                          size_t err_size)
{
    (void)elem_size;
    bench_gen_params p = params(opt, 8);
    return bench_gen_shortgroup_suite(&p, out, err, err_size);
}

static int gen_shortgroup_heldout(const bench_options* opt, size_t elem_size, bench_case_list* out, char* err,
                                  size_t err_size)
{
    (void)elem_size;
    bench_gen_params p = heldout(params(opt, 8));
    return bench_gen_shortgroup_suite(&p, out, err, err_size);
}

static int gen_l2(const bench_options* opt, size_t elem_size, bench_case_list* out, char* err,
                  size_t err_size)
{
    bench_gen_params p = params(opt, 6);
    return bench_gen_l2_suite(&p, elem_size, out, err, err_size);
}

static int gen_l2_heldout(const bench_options* opt, size_t elem_size, bench_case_list* out,
                          char* err, size_t err_size)
{
    bench_gen_params p = heldout(params(opt, 6));
    return bench_gen_l2_suite(&p, elem_size, out, err, err_size);
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
     gen_ttc57, bench_run_transpose_suite, 0},
    {"perm720", "all 720 permutations of a rank-6 tensor, every extent --extent (16)", "f64",
     gen_perm720, bench_run_transpose_suite, 0},
    {"random", "random extents and permutations (cuTT set 1): --rank, --ratio, --count, --volume",
     "f64", gen_random, bench_run_transpose_suite, 0},
    {"highrank", "ranks 8 and 12: four large extents, the others 2; --count per rank, --volume",
     "f64", gen_highrank, bench_run_transpose_suite, 0},
    {"square", "one --extent x --extent (32768) matrix transpose", "f32", gen_square,
     bench_run_transpose_suite, 0},
    {"small", "64 KB - 16 MB tensors, ranks 2, 3, 4, 6 (in L2): time vs. a copy", "f64",
     gen_small, bench_run_transpose_suite, 1},
    {"permn", "all 720 permutations of n^6, n = --extent (15; 13, 19, 21, 23 are held out)", "f64",
     gen_permn, bench_run_transpose_suite, 0},
    {"primes", "ranks 3-6, prime extents, --volume (200M) elements, --count (20) per rank, --seed",
     "f64", gen_primes, bench_run_transpose_suite, 0},
    {"mixed", "ranks 8 and 12 mixing extents 2-5 with 18-40, --count (10) per rank, --seed", "f64",
     gen_mixed, bench_run_transpose_suite, 0},
    {"l2", "rank-6 tensors of 1-16 MiB (in L2), --count (6) per size: time vs. a copy", "f32",
     gen_l2, bench_run_transpose_suite, 1},
    {"shortgroup", "ranks 3-5 whose fastest dimension has 2-8 elements (rank 3: batches of small matrices "
     "transposed), --volume (200M) elements, --count (8) per rank, --seed", "f32", gen_shortgroup,
     bench_run_transpose_suite, 0},
    {"permn-heldout", "HELD OUT: permn for n = 13, 19, 21, 23 (or --extent one of them)", "f64",
     gen_permn_heldout, bench_run_transpose_suite, 0},
    {"primes-heldout", "HELD OUT: primes drawn from another seed", "f64", gen_primes_heldout,
     bench_run_transpose_suite, 0},
    {"mixed-heldout", "HELD OUT: mixed drawn from another seed", "f64", gen_mixed_heldout,
     bench_run_transpose_suite, 0},
    {"l2-heldout", "HELD OUT: l2 drawn from another seed", "f32", gen_l2_heldout,
     bench_run_transpose_suite, 1},
    {"shortgroup-heldout", "HELD OUT: shortgroup drawn from another seed", "f32", gen_shortgroup_heldout,
     bench_run_transpose_suite, 0},
    {"tccg48", "contractions: the TCCG benchmark's 48 (cupermContract vs. same-shape cuBLAS GEMM)",
     "f32", NULL, bench_run_contraction_suite, 0},
    {"random-contractions", "contractions as in cuTT's TAL-SH study: ranks <= 8, <= 4 large extents, "
     "largest tensor ~150M elements (75M at 8 bytes); --count (24), --seed", "f32", NULL,
     bench_run_contraction_suite, 0},
    {"short-k", "output-bound contractions: K of 8-64, D interleaving M and N, D of 8-64M elements; --count (40), "
     "--seed", "f16", NULL, bench_run_contraction_suite, 0},
    {"short-k-heldout", "HELD OUT: short-k drawn from another seed", "f16", NULL, bench_run_contraction_suite, 0},
    {"short-k-modes", "short-k with D of 5-6 modes of 2-40 elements (TCCG 31-48's form); --count (40), --seed", "f16",
     NULL, bench_run_contraction_suite, 0},
    {"short-k-modes-heldout", "HELD OUT: short-k-modes drawn from another seed", "f16", NULL,
     bench_run_contraction_suite, 0},
    {"cases", "the cases of --cases FILE", "f64", gen_cases_file, bench_run_transpose_suite, 0},
    {"case", "the one case of --case \"EXTENTS PERM\"", "f64", gen_single_case,
     bench_run_transpose_suite, 0},
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
        fprintf(f, "  %-14s %s (default --dtype %s)\n", k_suites[i].name, k_suites[i].help,
                k_suites[i].default_dtype);
}
