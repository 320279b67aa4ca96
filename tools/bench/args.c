#define _GNU_SOURCE /* getopt_long */
#include "args.h"

#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reference.h"
#include "suites.h"

static int parse_int64(const char* s, int64_t lo, int64_t hi, int64_t* out)
{
    char* end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (errno || end == s || *end || v < lo || v > hi) return -1;
    *out = v;
    return 0;
}

static int parse_double(const char* s, double* out)
{
    char* end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || *end) return -1;
    *out = v;
    return 0;
}

/* "2-12" or "4,8,12" (or a mix) into ranks 1..BENCH_MAX_RANK. */
static int parse_ranks(const char* s, int* ranks, int* n)
{
    char buf[256];
    if (strlen(s) >= sizeof buf) return -1;
    strcpy(buf, s);
    *n = 0;
    for (char *save, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        int64_t a, b;
        char* dash = strchr(tok, '-');
        if (dash) *dash = '\0';
        if (parse_int64(tok, 1, BENCH_MAX_RANK, &a)) return -1;
        if (parse_int64(dash ? dash + 1 : tok, a, BENCH_MAX_RANK, &b)) return -1;
        for (int64_t r = a; r <= b; ++r) {
            if (*n == BENCH_MAX_CHOICES) return -1;
            ranks[(*n)++] = (int)r;
        }
    }
    return *n ? 0 : -1;
}

static int parse_ratios(const char* s, double* ratios, int* n)
{
    char buf[256];
    if (strlen(s) >= sizeof buf) return -1;
    strcpy(buf, s);
    *n = 0;
    for (char *save, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        double x;
        if (parse_double(tok, &x) || !(x >= 1 && x <= 1e6) || *n == BENCH_MAX_CHOICES) return -1;
        ratios[(*n)++] = x;
    }
    return *n ? 0 : -1;
}

static int parse_dtypes(const char* s, bench_options* opt)
{
    char buf[256];
    if (strlen(s) >= sizeof buf) return -1;
    strcpy(buf, s);
    opt->num_dtypes = 0;
    for (char *save, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        const dtype_info* t = dtype_find(tok);
        if (!t || opt->num_dtypes == BENCH_MAX_DTYPES) return -1;
        opt->dtypes[opt->num_dtypes++] = t;
    }
    return opt->num_dtypes ? 0 : -1;
}

static void record_command_line(int argc, char** argv, bench_options* opt)
{
    size_t used = 0;
    opt->command_line[0] = '\0';
    for (int i = 0; i < argc && used < sizeof opt->command_line; ++i) {
        int quote = strpbrk(argv[i], " \t") != NULL;
        int n = snprintf(opt->command_line + used, sizeof opt->command_line - used,
                         quote ? "%s\"%s\"" : "%s%s", i ? " " : "", argv[i]);
        if (n < 0) break;
        used += (size_t)n;
    }
}

/* Long options; every one with a value takes "--opt value" and "--opt=value". */
enum {
    OPT_DTYPE = 256, OPT_MODE, OPT_CASES, OPT_CASE, OPT_EXTENT, OPT_RANK, OPT_RATIO, OPT_COUNT,
    OPT_VOLUME, OPT_SEED, OPT_SKIP, OPT_LIMIT, OPT_OUT, OPT_TAG, OPT_ALPHA, OPT_BETA,
    OPT_PLAN_REPS, OPT_TARGET_MS, OPT_LIST, OPT_NO_VERIFY, OPT_QUIET, OPT_VERSION, OPT_OPS, OPT_ALGO,
    OPT_COMPARE, OPT_COMPUTE
};

static const struct option long_options[] = {
    {"help", no_argument, NULL, 'h'},
    {"version", no_argument, NULL, OPT_VERSION},
    {"list", no_argument, NULL, OPT_LIST},
    {"no-verify", no_argument, NULL, OPT_NO_VERIFY},
    {"quiet", no_argument, NULL, OPT_QUIET},
    {"dtype", required_argument, NULL, OPT_DTYPE},
    {"mode", required_argument, NULL, OPT_MODE},
    {"cases", required_argument, NULL, OPT_CASES},
    {"case", required_argument, NULL, OPT_CASE},
    {"extent", required_argument, NULL, OPT_EXTENT},
    {"rank", required_argument, NULL, OPT_RANK},
    {"ratio", required_argument, NULL, OPT_RATIO},
    {"count", required_argument, NULL, OPT_COUNT},
    {"volume", required_argument, NULL, OPT_VOLUME},
    {"seed", required_argument, NULL, OPT_SEED},
    {"skip", required_argument, NULL, OPT_SKIP},
    {"limit", required_argument, NULL, OPT_LIMIT},
    {"out", required_argument, NULL, OPT_OUT},
    {"tag", required_argument, NULL, OPT_TAG},
    {"alpha", required_argument, NULL, OPT_ALPHA},
    {"beta", required_argument, NULL, OPT_BETA},
    {"plan-reps", required_argument, NULL, OPT_PLAN_REPS},
    {"target-ms", required_argument, NULL, OPT_TARGET_MS},
    {"ops", required_argument, NULL, OPT_OPS},
    {"algo", required_argument, NULL, OPT_ALGO},
    {"compare", required_argument, NULL, OPT_COMPARE},
    {"compute", required_argument, NULL, OPT_COMPUTE},
    {NULL, 0, NULL, 0},
};

/* The option as the user wrote it ("--foo" of "--foo=1", "-x"), for messages. */
static const char* option_text(const char* arg, char* buf, size_t size)
{
    size_t n = strcspn(arg, "=");
    if (n >= size) n = size - 1;
    memcpy(buf, arg, n);
    buf[n] = '\0';
    return buf;
}

/* How many long options start with prefix (getopt_long takes unique abbreviations). */
static int count_prefix_matches(const char* prefix)
{
    int n = 0;
    for (const struct option* o = long_options; o->name; ++o)
        n += strncmp(o->name, prefix, strlen(prefix)) == 0;
    return n;
}

/* Applies one option with its value; 0 or -1 with a message. */
static int apply_option(int c, const char* v, bench_options* opt, char* err, size_t err_size)
{
    int64_t n;
    double x;
    switch (c) {
    case OPT_DTYPE:
        if (parse_dtypes(v, opt))
            return bench_fail(err, err_size, "--dtype \"%s\": expected a comma list of %s", v,
                        dtype_names());
        break;
    case OPT_MODE:
        if (!strcmp(v, "heuristic") || !strcmp(v, "model")) opt->mode = BENCH_MODE_HEURISTIC;
        else if (!strcmp(v, "measure")) opt->mode = BENCH_MODE_MEASURE;
        else if (!strcmp(v, "both")) opt->mode = BENCH_MODE_BOTH;
        else
            return bench_fail(err, err_size, "--mode \"%s\": expected heuristic (model), measure or both", v);
        break;
    case OPT_ALGO:
        if (!strcmp(v, "default")) opt->algo = CUPERM_ALGO_DEFAULT;
        else if (!strcmp(v, "ttgt")) opt->algo = CUPERM_ALGO_TTGT;
        else if (!strcmp(v, "gett")) opt->algo = CUPERM_ALGO_GETT;
        else
            return bench_fail(err, err_size, "--algo \"%s\": expected default, ttgt or gett", v);
        break;
    case OPT_COMPUTE:
        if (!strcmp(v, "default")) opt->compute_tf32 = 0;
        else if (!strcmp(v, "tf32")) opt->compute_tf32 = 1;
        else
            return bench_fail(err, err_size, "--compute \"%s\": expected default or tf32", v);
        break;
    case OPT_COMPARE:
        if (!strcmp(v, "cutensor")) opt->compare_cutensor = 1;
        else if (!strcmp(v, "cutensor-jit")) opt->compare_cutensor = 2;
        else
            return bench_fail(err, err_size, "--compare \"%s\": expected cutensor or cutensor-jit", v);
        break;
    case OPT_CASES: opt->cases_file = v; break;
    case OPT_CASE: opt->single_case = v; break;
    case OPT_EXTENT:
        if (parse_int64(v, 1, (int64_t)1 << 32, &n))
            return bench_fail(err, err_size, "--extent \"%s\": expected an integer in 1..2^32", v);
        opt->gen.extent = n;
        break;
    case OPT_RANK:
        if (parse_ranks(v, opt->gen.ranks, &opt->gen.num_ranks))
            return bench_fail(err, err_size, "--rank \"%s\": expected ranks 1..%d like 2-12 or 4,8", v,
                        BENCH_MAX_RANK);
        break;
    case OPT_RATIO:
        if (parse_ratios(v, opt->gen.ratios, &opt->gen.num_ratios))
            return bench_fail(err, err_size, "--ratio \"%s\": expected ratios >= 1 like 1,5,15", v);
        break;
    case OPT_COUNT:
        if (parse_int64(v, 1, 100000, &n))
            return bench_fail(err, err_size, "--count \"%s\": expected an integer in 1..100000", v);
        opt->gen.count = (int)n;
        break;
    case OPT_VOLUME:
        if (parse_int64(v, 2, (int64_t)1 << 40, &n))
            return bench_fail(err, err_size, "--volume \"%s\": expected elements in 2..2^40", v);
        opt->gen.volume = n;
        break;
    case OPT_SEED:
        if (parse_int64(v, 1, INT64_MAX, &n))
            return bench_fail(err, err_size, "--seed \"%s\": expected a positive integer", v);
        opt->gen.seed = (uint64_t)n;
        break;
    case OPT_SKIP:
        if (parse_int64(v, 0, INT32_MAX, &n))
            return bench_fail(err, err_size, "--skip \"%s\": expected a count >= 0", v);
        opt->skip = (long)n;
        break;
    case OPT_LIMIT:
        if (parse_int64(v, 1, INT32_MAX, &n))
            return bench_fail(err, err_size, "--limit \"%s\": expected a count >= 1", v);
        opt->limit = (long)n;
        break;
    case OPT_OUT: opt->out_dir = v; break;
    case OPT_TAG:
        if (!*v || strpbrk(v, "/\\ "))
            return bench_fail(err, err_size, "--tag \"%s\": expected a file name stem without / or blanks",
                        v);
        opt->tag = v;
        break;
    case OPT_ALPHA:
        if (parse_double(v, &x)) return bench_fail(err, err_size, "--alpha \"%s\": expected a number", v);
        opt->alpha = x;
        break;
    case OPT_BETA:
        if (parse_double(v, &x)) return bench_fail(err, err_size, "--beta \"%s\": expected a number", v);
        opt->beta = x;
        break;
    case OPT_PLAN_REPS:
        if (parse_int64(v, 1, 1000, &n))
            return bench_fail(err, err_size, "--plan-reps \"%s\": expected an integer in 1..1000", v);
        opt->plan_reps = (int)n;
        break;
    case OPT_TARGET_MS:
        if (parse_double(v, &x) || !(x > 0 && x <= 60000))
            return bench_fail(err, err_size, "--target-ms \"%s\": expected milliseconds in (0, 60000]", v);
        opt->target_ms = x;
        break;
    case OPT_OPS: {
        /* three operator names, for A, B and the result D */
        static const char* const names[] = {"identity", "negate", "abs",  "relu", "leaky_relu", "elu",
                                            "sigmoid",  "tanh",   "exp",  "sqrt", "conj"};
        const char* q = v;
        for (int i = 0; i < 3; ++i) {
            const size_t len = strcspn(q, ",");
            int found = -1;
            for (int k = 0; k < (int)(sizeof names / sizeof names[0]); ++k)
                if (strlen(names[k]) == len && !strncmp(names[k], q, len)) found = k;
            if (found < 0 || (i < 2 && q[len] != ',') || (i == 2 && q[len] != '\0'))
                return bench_fail(err, err_size, "--ops \"%s\": expected three operator names A,B,D (identity, "
                                  "negate, abs, relu, leaky_relu, elu, sigmoid, tanh, exp, sqrt, conj)", v);
            opt->ops[i] = (cupermOperator_t)found;
            q += len + (i < 2);
        }
        break;
    }
    default: return bench_fail(err, err_size, "internal error: option %d not handled", c);
    }
    return 0;
}

static int apply_suite(const char* a, bench_options* opt, char* err, size_t err_size)
{
    if (opt->suite)
        return bench_fail(err, err_size, "unexpected argument \"%s\": the suite is already \"%s\"", a,
                    opt->suite);
    if (!bench_suite_find(a)) {
        char names[256];
        bench_suite_names(names, sizeof names);
        return bench_fail(err, err_size, "unknown suite \"%s\"; suites: %s", a, names);
    }
    opt->suite = a;
    return 0;
}

int bench_parse_args(int argc, char** argv, bench_options* opt, char* err, size_t err_size)
{
    static const bench_options defaults = {.mode = BENCH_MODE_BOTH,
                                           .limit = -1,
                                           .verify = 1,
                                           .alpha = 1,
                                           .beta = 0,
                                           .plan_reps = 5,
                                           .target_ms = 100};
    *opt = defaults;
    record_command_line(argc, argv, opt);

    /* "-": arguments that are not options come back in order as option 1 (so the
     * suite may stand anywhere); ":": a missing value is told apart from an
     * unknown option; opterr = 0: the messages are ours. optind = 0 restarts
     * getopt_long (glibc) for a second call in the same process. */
    opterr = 0;
    optind = 0;
    int c;
    char name[64];
    while ((c = getopt_long(argc, argv, "-:h", long_options, NULL)) != -1) {
        const char* current = argv[optind - 1];
        switch (c) {
        case 1:
            if (apply_suite(optarg, opt, err, err_size)) return -1;
            break;
        case 'h': opt->help = 1; break;
        case OPT_VERSION: opt->version = 1; break;
        case OPT_LIST: opt->list_only = 1; break;
        case OPT_NO_VERIFY: opt->verify = 0; break;
        case OPT_QUIET: opt->quiet = 1; break;
        case ':':
            return bench_fail(err, err_size, "option %s needs a value", option_text(current, name, sizeof name));
        case '?':
            if (optopt && optopt != '?' && strncmp(current, "--", 2) == 0 && strchr(current, '='))
                return bench_fail(err, err_size, "option %s takes no value",
                            option_text(current, name, sizeof name));
            if (optopt && strncmp(current, "--", 2) != 0)
                return bench_fail(err, err_size, "unknown option \"-%c\" (see --help)", optopt);
            option_text(current, name, sizeof name);
            if (strncmp(name, "--", 2) == 0 && count_prefix_matches(name + 2) > 1)
                return bench_fail(err, err_size, "ambiguous option \"%s\": write it out (see --help)", name);
            return bench_fail(err, err_size, "unknown option \"%s\" (see --help)", name);
        default:
            if (apply_option(c, optarg, opt, err, err_size)) return -1;
        }
    }
    /* After "--", the rest are suites. */
    for (int i = optind; i < argc; ++i)
        if (apply_suite(argv[i], opt, err, err_size)) return -1;
    if (opt->help || opt->version) return 0;

    int sources = (opt->suite != NULL) + (opt->cases_file != NULL) + (opt->single_case != NULL);
    if (sources == 0) {
        char names[256];
        bench_suite_names(names, sizeof names);
        return bench_fail(err, err_size, "name a suite (%s), --cases FILE or --case \"EXTENTS PERM\"",
                    names);
    }
    if (sources > 1)
        return bench_fail(err, err_size, "give only one of a suite, --cases FILE and --case");
    if (opt->cases_file) opt->suite = "cases";
    if (opt->single_case) opt->suite = "case";
    for (int k = 0; k < opt->num_dtypes; ++k)
        if (!bench_verify_supports(opt->dtypes[k], opt->alpha, opt->beta))
            return bench_fail(err, err_size,
                        "--alpha/--beta other than 1/0: any values for real floating types, whole numbers 0-127 for "
                        "integer types, none for complex types (got %s)",
                        opt->dtypes[k]->name);
    return 0;
}

void bench_print_usage(const char* argv0)
{
    printf("Usage: %s SUITE [options]\n"
           "       %s --cases FILE [options]      (one case a line: e0,e1,... p0,p1,...)\n"
           "       %s --case \"E0,E1,... P0,P1,...\" [options]\n\n",
           argv0, argv0, argv0);
    printf("Suites:\n");
    bench_suite_print_help(stdout);
    printf(
        "\nOptions:\n"
        "  --dtype LIST        element types, comma-separated: %s\n"
        "                      (default: the suite's, f64 for most)\n"
        "  --mode M            heuristic (contractions: model), measure or both (default both)\n"
        "  --extent N          perm720: every extent (16); permn: n (15); square: matrix side (32768)\n"
        "  --rank LIST         random: ranks like 2-12 or 4,8 (default 2-12)\n"
        "  --ratio LIST        random: largest/smallest extent ratios (default 1,5,15)\n"
        "  --count N           random: cases per rank and ratio (2); highrank: per rank (6);\n"
        "                      primes: per rank (20); mixed: per rank (10); l2: per size (6)\n"
        "  --volume N          random, highrank, primes, mixed: elements per tensor (200000000);\n"
        "                      random-contractions: elements of the largest tensor (150M; 75M at 8 bytes)\n"
        "  --seed N            generator seed for suites and data (default 1)\n"
        "  --skip N, --limit N run cases [N, N+limit) of the suite\n"
        "  --out DIR           write DIR/TAG.csv and DIR/TAG-summary.txt\n"
        "  --tag TAG           file name stem (default SUITE-DTYPES-MODE)\n"
        "  --alpha A --beta B  scalars (real floating types; integer types: whole numbers 0-127; complex:\n"
        "                      1 and 0 only; beta != 0 counts 3x bytes)\n"
        "  --no-verify         skip the element-by-element check of the first execution\n"
        "  --plan-reps N       plan creations timed per case, fresh handle each (5)\n"
        "  --target-ms MS      timing budget per case and mode (100)\n"
        "  --ops A,B,D         contractions: operators on A, B and the result, e.g. relu,relu,relu\n"
        "                      (identity, negate, abs, relu, leaky_relu, elu, sigmoid, tanh, exp, sqrt, conj;\n"
        "                      leaky_relu and elu with parameter 0.1)\n"
        "  --algo A            contractions: default (the plan mode chooses), ttgt or gett (a case GETT\n"
        "                      cannot run is skipped with the reason)\n"
        "  --compute C         contractions: default (the type's own: strict fp32 for f32) or tf32 (f32\n"
        "                      on TF32 tensor cores, CUPERM_COMPUTE_32F_FAST_TF32; the GEMM likewise)\n"
        "  --compare L         cutensor or cutensor-jit: cuTENSOR 2's default plan (loaded with dlopen:\n"
        "                      libcutensor.so.2 or $CUPERM_BENCH_CUTENSOR) timed beside cuperm's on the\n"
        "                      same buffers; contractions: its D checked against cuperm's; transposes\n"
        "                      (f16, f32, f64; heuristic plans, alpha 1, beta 0): cutensorPermute, every\n"
        "                      element checked, timed against its own same-run copy\n"
        "  --list              print the cases (case-file notation) and exit; no GPU needed\n"
        "  --quiet             no per-case lines on stdout (CSV and summary still written)\n"
        "  --version           print the cuperm library version and exit\n"
        "  -h, --help          this text\n"
        "Options with a value take it as --opt VALUE or --opt=VALUE.\n",
        dtype_names());
}
