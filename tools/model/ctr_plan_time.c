/* Host time of contraction model planning (problem, GEMM layout search with the transpose
 * model, no device): per TCCG case the median of --reps plannings, on a stand-in H100 handle.
 * What cupermPlanContraction spends before it builds steps; no GPU needed.
 *   cuperm-ctr-plan-time FILE [--reps N] [--dtype f16|bf16|f32|f64|c32|c64] [--ops] [--cold MIB]
 *                        [--full | --sequence | --describe]
 *   (FILE: bench/cases/tccg48.txt)
 * --describe: the chosen layout of each case instead of times (to compare plans between trees).
 * --transposes: the chosen layouts' transposes as cuperm-plan-features case lines
 *         ("ELEM E0,.. P0,.. # case ID A|B|D, predicted US"), to see how the transpose planner
 *         takes them (pipe into cuperm-plan-features --describe).
 * --full: times all of model planning of a problem new to the handle (problem, search, steps: the
 *         transposes' plans, description) on a fresh stand-in handle each time, its contraction
 *         state made before the clock starts (a handle's first contraction makes it once).
 * --sequence: the same, but one fresh handle per pass over all cases (an application planning
 *         its contractions once each, one after another, on one handle): what a handle keeps
 *         between plans (its caches, the search's scratch) is warm, no decision is cached.
 * --cold MIB: write MIB MiB of memory before each plan (cold CPU caches).
 * --dram B: the stand-in device's DRAM bytes a second (default 3.35e12, an H100 SXM; 4.8e12: an H200).
 * --rank N: with --describe or --transposes, the search's N best layouts (at most CTR_RANK_MAX; what measure
 *         mode times), each line "ID.I SPEC | ...".
 * --ops: operators on the operands, rotating with the case id (real types: RELU, NEGATE, TANH, ABS,
 *         SIGMOID; complex: NEGATE and CONJ), so that --describe covers the operator paths too.
 * --dtile: per case the D-tile kernel's tile and one block's work (plan/contraction/gett_dtile_cost.h)
 *         where it takes the case, its modelled time, the chosen TTGT layout's device time and
 *         model planning's choice (CSV; tools/model/fit_dtile.py fits the kernel's coefficients to
 *         measured times) and whether every run takes its packed path (priced so, gett_dtile_cost.h).
 * FILE "random:SEED:COUNT": cuperm-bench's random-contractions instead of a case list. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "contraction_cases.h"
#include "exec/contraction/measure.h"
#include "exec/contraction/plan.h"
#include "exec/contraction/state.h"
#include "exec/handle.h"
#include "exec/transpose/plan.h"
#include "plan/contraction/gett_cost.h"
#include "plan/contraction/gett_dtile.h"
#include "plan/contraction/gett_dtile_cost.h"
#include "plan/contraction/layout.h"
#include "plan/contraction/problem.h"

static bench_ctr_case cases[BENCH_CTR_MAX_CASES];

/* --rank's limit: what cuperm-ctr-candidate-times times per case by default (16), and more. */
#define CTR_RANK_MAX 32


static double now_us(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return 1e6 * (double)t.tv_sec + 1e-3 * (double)t.tv_nsec;
}

/* A fresh stand-in handle like model, its contraction state made (not part of the timing). */
static int fresh_handle(const cuperm_handle_t* model, cuperm_handle_t* fresh)
{
    memset(fresh, 0, sizeof *fresh);
    fresh->dev = model->dev;
    fresh->tuning = model->tuning;
    fresh->ltAfterRuns = model->ltAfterRuns;
    fresh->plan_cache = cuperm_plan_cache_create();
    atomic_init(&fresh->refs, 1);
    cuperm_ctr_state_t* state;
    return fresh->plan_cache && cuperm_ctr_state_get(fresh, &state) == CUPERM_STATUS_SUCCESS ? 0 : 1;
}

/* What the handle's last reference would free. */
static void drop_handle(cuperm_handle_t* fresh)
{
    for (int e = 0; e < CUPERM_ENGINES; ++e)
        if (fresh->engines[e].state) fresh->engines[e].destroy(fresh->engines[e].state);
    cuperm_plan_cache_destroy(fresh->plan_cache);
}

/* --cold: bytes written between plans, as a program's work between its plans evicts the planner's
 * code and data from the CPU caches (cuperm-bench runs and checks contractions in between). */
static size_t cold_bytes;
static unsigned char* cold_buffer;

__attribute__((noinline)) static void evict_caches(void)
{
    for (size_t i = 0; i < cold_bytes; i += 64) cold_buffer[i] += 1;
}

/* Microseconds of one model planning of case d on handle h; negative on failure. */
static double time_plan(cuperm_handle_t* h, const cupermTensorDescriptor_t* d, int id)
{
    static cuperm_contraction_plan_t plan;
    memset(&plan, 0, sizeof plan);
    if (cold_bytes) evict_caches();
    const double t0 = now_us();
    if (cuperm_ctr_plan_make(h, &d[0], &d[1], &d[2], &d[3], CUPERM_COMPUTE_DEFAULT, CUPERM_PLAN_MODEL,
                             CUPERM_ALGO_DEFAULT, &plan)) {
        fprintf(stderr, "case %d: %s\n", id, cupermGetLastErrorMessage());
        return -1.0;
    }
    return now_us() - t0;
}

/* --ops: operators on A, B, C and D by case id, so that the search's operator paths (folded
 * signs and conjugates, operator transposes, opC / opD epilogues) are planned too. */
static int with_ops;

static cupermOperator_t case_op(int id, int k, cupermDataType_t type)
{
    static const cupermOperator_t real[4][4] = {{CUPERM_OP_RELU, CUPERM_OP_IDENTITY, CUPERM_OP_IDENTITY, CUPERM_OP_IDENTITY},
                                                {CUPERM_OP_NEGATE, CUPERM_OP_TANH, CUPERM_OP_IDENTITY, CUPERM_OP_IDENTITY},
                                                {CUPERM_OP_IDENTITY, CUPERM_OP_IDENTITY, CUPERM_OP_ABS, CUPERM_OP_SIGMOID},
                                                {CUPERM_OP_IDENTITY, CUPERM_OP_NEGATE, CUPERM_OP_IDENTITY, CUPERM_OP_RELU}};
    const int complex = type == CUPERM_C_32F || type == CUPERM_C_64F;
    const cupermOperator_t op = real[id % 4][k];
    if (!complex) return op;
    return op == CUPERM_OP_IDENTITY || op == CUPERM_OP_NEGATE ? op : CUPERM_OP_CONJ;
}

static void case_descriptors(const bench_ctr_case* c, cupermDataType_t type, bench_ctr_modes* md,
                             cupermTensorDescriptor_t d[4])
{
    bench_ctr_modes_of(c, md);
    for (int k = 0; k < 4; ++k)
        d[k] = (cupermTensorDescriptor_t){md->rank[k], md->modes[k], md->extents[k], NULL, type,
                                          with_ops ? case_op(c->id, k, type) : CUPERM_OP_IDENTITY, 0};
}

static int cmp(const void* a, const void* b)
{
    const double x = *(const double*)a, y = *(const double*)b;
    return x < y ? -1 : x > y;
}

static char* read_file(const char* path)
{
    FILE* f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    const long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char* s = malloc((size_t)n + 1);
    if (s && fread(s, 1, (size_t)n, f) != (size_t)n) {
        free(s);
        s = NULL;
    }
    if (s) s[n] = 0;
    fclose(f);
    return s;
}

/* One transpose as a case line; a side that is not dense (the case-line format has no strides)
 * makes it a comment that gives the strides. tag: "ID" or "ID.I" (--rank). */
static void print_transpose(const cuperm_ctr_transpose_t* t, const char* tag, char which, const cuperm_ctr_cost_model_t* m)
{
    int64_t dense = 1, outDense = 1;
    int ok = 1;
    for (int i = 0; i < t->rank; ++i) {
        ok &= t->inStrides[i] == dense;
        dense *= t->extents[i];
        ok &= t->outStrides[i] == outDense;
        outDense *= t->extents[t->perm[i]];
    }
    printf("%s%d ", ok ? "" : "# not dense: ", (int)cupermDataTypeSize(t->type));
    for (int i = 0; i < t->rank; ++i) printf("%s%lld", i ? "," : "", (long long)t->extents[i]);
    printf(" ");
    for (int i = 0; i < t->rank; ++i) printf("%s%d", i ? "," : "", t->perm[i]);
    if (!ok) {
        printf(" strides in ");
        for (int i = 0; i < t->rank; ++i) printf("%s%lld", i ? "," : "", (long long)t->inStrides[i]);
        printf(" out ");
        for (int i = 0; i < t->rank; ++i) printf("%s%lld", i ? "," : "", (long long)t->outStrides[i]);
    }
    printf(" # case %s %c, predicted %.1f us\n", tag, which, 1e6 * m->transpose_seconds(m->ctx, t));
}

static void print_transposes(const cuperm_ctr_problem_t* p, const cuperm_ctr_layout_t* l, const char* tag,
                             const cuperm_ctr_cost_model_t* m)
{
    cuperm_ctr_transpose_t t;
    for (int x = 0; x < 2; ++x)
        if (l->in[x].path != CTR_IN_DIRECT) {
            cuperm_ctr_layout_input_transpose(p, l, x, &t);
            print_transpose(&t, tag, x ? 'B' : 'A', m);
        }
    if (l->out != CTR_OUT_DIRECT) {
        cuperm_ctr_layout_output_transpose(p, l, &t);
        print_transpose(&t, tag, 'D', m);
    }
}

int main(int argc, char** argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s FILE [--reps N] [--dtype f16|bf16|f32|f64|c32|c64] [--ops] [--dram B] [--full | --sequence | --describe | --transposes | --dtile]\n",
                argv[0]);
        return 2;
    }
    int reps = 20, rank = 1, describe = 0, full = 0, sequence = 0, transposes = 0, dtile = 0;
    double dram = 3.35e12; /* the stand-in device's DRAM bytes a second (H100 SXM) */
    cupermDataType_t type = CUPERM_R_32F;
    for (int i = 2; i < argc; ++i) {
        if (!strcmp(argv[i], "--describe")) describe = 1;
        else if (!strcmp(argv[i], "--transposes")) describe = transposes = 1;
        else if (!strcmp(argv[i], "--dtile")) describe = dtile = 1;
        else if (!strcmp(argv[i], "--full")) full = 1;
        else if (!strcmp(argv[i], "--sequence")) sequence = 1;
        else if (!strcmp(argv[i], "--ops")) with_ops = 1;
        else if (i + 1 < argc && !strcmp(argv[i], "--rank")) rank = atoi(argv[++i]);
        else if (i + 1 < argc && !strcmp(argv[i], "--reps")) reps = atoi(argv[++i]);
        else if (i + 1 < argc && !strcmp(argv[i], "--cold")) cold_bytes = (size_t)atoll(argv[++i]) << 20;
        else if (i + 1 < argc && !strcmp(argv[i], "--dram")) dram = atof(argv[++i]);
        else if (i + 1 < argc && !strcmp(argv[i], "--dtype")) {
            ++i;
            static const struct {
                const char* name;
                cupermDataType_t type;
            } types[] = {{"f16", CUPERM_R_16F}, {"bf16", CUPERM_R_16BF}, {"f32", CUPERM_R_32F},
                         {"f64", CUPERM_R_64F}, {"c32", CUPERM_C_32F},   {"c64", CUPERM_C_64F}};
            size_t t = 0;
            while (t < sizeof types / sizeof types[0] && strcmp(argv[i], types[t].name)) ++t;
            if (t == sizeof types / sizeof types[0]) {
                fprintf(stderr, "unknown --dtype %s (f16, bf16, f32, f64, c32, c64)\n", argv[i]);
                return 2;
            }
            type = types[t].type;
        }
    }
    if (describe) reps = 1;
    if (rank < 1 || rank > CTR_RANK_MAX) {
        fprintf(stderr, "--rank takes 1 to %d\n", CTR_RANK_MAX);
        return 2;
    }
    if (dtile && type == CUPERM_R_32F) type = CUPERM_R_16F; /* the kernel's types */
    if (cold_bytes && !(cold_buffer = calloc(cold_bytes, 1))) return 1;
    int n = -1;
    unsigned long long seed;
    int count;
    if (sscanf(argv[1], "random:%llu:%d", &seed, &count) == 2) {
        n = bench_ctr_random(seed, count, 150000000, 4e11, cases); /* as cuperm-bench for 2- and 4-byte types */
    } else {
        char* text = read_file(argv[1]);
        char err[256];
        n = text ? bench_ctr_parse(text, cases, BENCH_CTR_MAX_CASES, err, sizeof err) : -1;
        free(text);
    }
    if (n < 0) {
        fprintf(stderr, "cannot read cases from %s\n", argv[1]);
        return 1;
    }
    /* A stand-in H100 handle (--dram 4.8e12: an H200's): the planners read only the device numbers and
     * the tuning table. */
    cuperm_handle_t h;
    memset(&h, 0, sizeof h);
    h.dev = (cuperm_device_info_t){0, 9, 0, 132, 50 << 20, 48 << 10, dram};
    h.tuning = cuperm_tuning_for(&h.dev);
    cuperm_handle_read_env(&h); /* as cupermCreate: CUPERM_CTR_DENSE_WORKSPACE and the others */
    cuperm_ctr_cost_model_t model = cuperm_ctr_device_model(&h);
    double* times = malloc(sizeof(double) * (size_t)reps * (size_t)n); /* [case][rep] */
    double* med = malloc(sizeof(double) * (size_t)n);
    if (dtile) printf("id,spec,tm,tn,kp,items,panel_bytes,panel_loads,d_bytes,d_stores,dtile_us,ttgt_us,model_choice,packed\n");
    else if (!describe) printf("id,spec,median_us\n");
    for (int r = 0; r < reps && sequence; ++r) {
        cuperm_handle_t fresh;
        if (fresh_handle(&h, &fresh)) return 1;
        for (int c = 0; c < n; ++c) {
            bench_ctr_modes md;
            cupermTensorDescriptor_t d[4];
            case_descriptors(&cases[c], type, &md, d);
            if ((times[(size_t)c * (size_t)reps + (size_t)r] = time_plan(&fresh, d, cases[c].id)) < 0) return 1;
        }
        drop_handle(&fresh);
    }
    for (int c = 0; c < n; ++c) {
        double* t = times + (size_t)c * (size_t)reps;
        bench_ctr_modes md;
        cupermTensorDescriptor_t d[4];
        case_descriptors(&cases[c], type, &md, d);
        for (int r = 0; r < reps && full; ++r) {
            cuperm_handle_t fresh;
            if (fresh_handle(&h, &fresh)) return 1;
            if ((t[r] = time_plan(&fresh, d, cases[c].id)) < 0) return 1;
            drop_handle(&fresh);
        }
        for (int r = 0; r < reps && !full && !sequence; ++r) {
            if (cold_bytes) evict_caches();
            const double t0 = now_us();
            cuperm_ctr_problem_t p;
            cuperm_ctr_layout_t l;
            if (cuperm_ctr_problem_init(&p, &d[0], &d[1], &d[2], &d[3], CUPERM_COMPUTE_DEFAULT) ||
                cuperm_ctr_layout_choose(&p, &model, &l)) {
                fprintf(stderr, "case %d: %s\n", cases[c].id, cupermGetLastErrorMessage());
                return 1;
            }
            t[r] = now_us() - t0;
            if (dtile) {
                cuperm_ctr_dtile_t s;
                if (!cuperm_ctr_dtile_choose(&p, &s)) continue;
                cuperm_ctr_dtile_work_t w;
                cuperm_ctr_dtile_work(&p, &s, h.dev.sm_count, &w);
                double chosen, margin;
                static const char* const kernels[] = {"ttgt", "table", "dtile"};
                cuperm_tuning_t scratch;
                const cuperm_tuning_t* gt = cuperm_ctr_gett_tuning(&h, &scratch);
                const int kernel = cuperm_ctr_gett_model_choice(&p, &l, gt, h.dev.sm_count, h.dev.dram_bytes_per_second, &chosen);
                cuperm_ctr_gett_paths_t q;
                cuperm_ctr_gett_paths_for(&p, s.by, &q);
                printf("%d,%s,%d,%d,%d,%.0f,%.0f,%.1f,%.0f,%.1f,%.2f,%.2f,%s,%d\n", cases[c].id, cases[c].spec, s.tm, s.tn,
                       s.kp, w.items, w.panelBytes, w.panelLoads, w.dBytes, w.dStores,
                       1e6 * cuperm_ctr_gett_kernel_seconds(&p, 1, gt, h.dev.sm_count, h.dev.dram_bytes_per_second, &margin),
                       1e6 * (l.inputSeconds + l.outputSeconds + l.gemmSeconds), kernels[kernel],
                       cuperm_ctr_dtile_packed_direct(&p, &s, q.dMFast));
            } else if (describe) {
                /* --rank N: the search's N best (what CUPERM_PLAN_MEASURE times), else its choice */
                static cuperm_ctr_layout_t ranked[CTR_RANK_MAX];
                const int n = rank > 1 ? cuperm_ctr_layout_rank(&p, &model, ranked, rank) : 1;
                for (int i = 0; i < n; ++i) {
                    const cuperm_ctr_layout_t* li = rank > 1 ? &ranked[i] : &l;
                    char tag[32], text[1024];
                    if (rank > 1) snprintf(tag, sizeof tag, "%d.%d", cases[c].id, i + 1);
                    else snprintf(tag, sizeof tag, "%d", cases[c].id);
                    if (transposes) {
                        print_transposes(&p, li, tag, &model);
                        continue;
                    }
                    cuperm_ctr_layout_describe(&p, li, text, sizeof text);
                    printf("%s %s | %s | %a %a %a\n", tag, cases[c].spec, text, li->inputSeconds, li->outputSeconds, li->gemmSeconds);
                }
            }
        }
        if (describe) continue;
        qsort(t, (size_t)reps, sizeof *t, cmp);
        med[c] = t[reps / 2];
        printf("%d,%s,%.1f\n", cases[c].id, cases[c].spec, med[c]);
    }
    if (describe) return 0;
    qsort(med, (size_t)n, sizeof *med, cmp);
    fprintf(stderr, "%s, %d cases: median %.1f us, max %.1f us\n",
            full       ? "model planning on a fresh handle"
            : sequence ? "model planning, every case once per handle"
                       : "layout search",
            n, med[n / 2], med[n - 1]);
    free(times);
    free(med);
    return 0;
}
