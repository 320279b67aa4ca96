/* The transpose suite runner: for every element type and case, plan (heuristic
 * and/or measured, plan creation timed), check the first execution element by
 * element against the CPU reference, time it against a same-run copy, and write
 * CSV rows as they come plus a summary at the end. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cuda_runtime_api.h>

#include "cuperm.h"
#include "device.h"
#include "output.h"
#include "parallel.h"
#include "reference.h"
#include "results.h"
#include "suites.h"
#include "summary.h"
#include "timing.h"

/* Device and host buffers, grown as cases need and reused across cases. */
typedef struct {
    void *d_in, *d_out;
    size_t d_cap;
    unsigned char *h_in, *h_out, *h_init;
    size_t h_cap;
    cudaStream_t stream;
    int threads;
} buffers;

typedef struct {
    cupermHandle_t handle;
    cupermPlan_t plan;
} owned_plan;

static void release(owned_plan* p)
{
    if (p->plan) cupermPlanDestroy(p->plan);
    if (p->handle) cupermDestroy(p->handle);
    p->plan = NULL;
    p->handle = NULL;
}

static int ensure_buffers(buffers* b, size_t bytes, int need_init, char* err, size_t err_size)
{
    if (bytes > b->d_cap) {
        cudaFree(b->d_in);
        cudaFree(b->d_out);
        b->d_in = b->d_out = NULL;
        b->d_cap = 0;
        cudaError_t e = cudaMalloc(&b->d_in, bytes);
        if (e == cudaSuccess) e = cudaMalloc(&b->d_out, bytes);
        if (e != cudaSuccess) {
            snprintf(err, err_size, "cudaMalloc of 2 x %zu bytes: %s", bytes, cudaGetErrorString(e));
            return -1;
        }
        b->d_cap = bytes;
    }
    if (bytes > b->h_cap || (need_init && !b->h_init)) {
        free(b->h_in);
        free(b->h_out);
        free(b->h_init);
        b->h_in = malloc(bytes);
        b->h_out = malloc(bytes);
        b->h_init = need_init ? malloc(bytes) : NULL;
        b->h_cap = bytes;
        if (!b->h_in || !b->h_out || (need_init && !b->h_init)) {
            b->h_cap = 0;
            snprintf(err, err_size, "host allocation of %zu bytes failed", bytes);
            return -1;
        }
    }
    return 0;
}

static void free_buffers(buffers* b)
{
    cudaFree(b->d_in);
    cudaFree(b->d_out);
    free(b->h_in);
    free(b->h_out);
    free(b->h_init);
}

static double host_us_since(double t0) { return (bench_now() - t0) * 1e6; }

static void set_error(bench_result* r, const char* what, cupermStatus_t s)
{
    snprintf(r->error, sizeof r->error, "%s: %s: %s", what, cupermGetErrorString(s),
             cupermGetLastErrorMessage());
}

/* Heuristic plans: plan_reps creations, each on a fresh handle so that the handle's
 * plan cache never answers; the median is reported and the last plan kept. */
static int plan_heuristic(const bench_case* c, const bench_dtype* t, int reps, owned_plan* out,
                          bench_result* r)
{
    double times[1000];
    for (int k = 0; k < reps; ++k) {
        release(out);
        cupermStatus_t s = cupermCreate(&out->handle);
        if (s != CUPERM_STATUS_SUCCESS) { set_error(r, "cupermCreate", s); return -1; }
        double t0 = bench_now();
        s = cupermPlanTranspose(out->handle, &out->plan, c->rank, c->extents, c->perm, t->type,
                                NULL, NULL);
        times[k] = host_us_since(t0);
        if (s != CUPERM_STATUS_SUCCESS) {
            out->plan = NULL;
            set_error(r, "cupermPlanTranspose", s);
            return -1;
        }
    }
    r->plan_us = bench_stats_of(times, (size_t)reps).median;
    return 0;
}

/* A measured plan, created once (it runs candidates on the device) on a fresh handle. */
static int plan_measured(const bench_case* c, const bench_dtype* t, buffers* b, owned_plan* out,
                         bench_result* r)
{
    release(out);
    cupermStatus_t s = cupermCreate(&out->handle);
    if (s != CUPERM_STATUS_SUCCESS) { set_error(r, "cupermCreate", s); return -1; }
    double t0 = bench_now();
    s = cupermPlanTransposeMeasure(out->handle, &out->plan, c->rank, c->extents, c->perm, t->type,
                                   NULL, NULL, b->d_in, b->d_out, b->stream);
    r->plan_us = host_us_since(t0);
    if (s != CUPERM_STATUS_SUCCESS) {
        out->plan = NULL;
        set_error(r, "cupermPlanTransposeMeasure", s);
        return -1;
    }
    return 0;
}

/* Runs the plan once on a poisoned (or, with beta != 0, initialized) output and
 * compares every element with the CPU reference. Returns -1 on a CUDA error. */
static int verify(const owned_plan* p, const bench_case* c, const bench_dtype* t,
                  const bench_options* opt, const unsigned char* alpha, const unsigned char* beta,
                  buffers* b, size_t bytes, bench_result* r)
{
    cudaError_t e = opt->beta != 0
                        ? cudaMemcpy(b->d_out, b->h_init, bytes, cudaMemcpyHostToDevice)
                        : cudaMemsetAsync(b->d_out, BENCH_POISON_BYTE, bytes, b->stream);
    if (e != cudaSuccess) goto cuda_fail;
    cupermStatus_t s = cupermExecute(p->plan, alpha, b->d_in, beta, b->d_out, b->stream);
    if (s != CUPERM_STATUS_SUCCESS) {
        set_error(r, "cupermExecute", s);
        return 0;
    }
    if ((e = cudaStreamSynchronize(b->stream)) != cudaSuccess) goto cuda_fail;
    if ((e = cudaMemcpy(b->h_out, b->d_out, bytes, cudaMemcpyDeviceToHost)) != cudaSuccess)
        goto cuda_fail;
    bench_verify_report rep;
    r->mismatches = bench_verify_transpose(c, t, b->h_in, b->h_out, b->h_init, opt->alpha,
                                           opt->beta, b->threads, &rep);
    r->verified = r->mismatches == 0;
    if (!r->verified)
        fprintf(stderr, "VERIFY FAILED: %s case %ld (%s %s, %s, %s): %lld mismatches; first: %s\n",
                r->suite, r->index, r->extents, r->perm, r->dtype, r->mode,
                (long long)r->mismatches, rep.detail);
    return 0;
cuda_fail:
    snprintf(r->error, sizeof r->error, "CUDA: %s", cudaGetErrorString(e));
    return -1;
}

static int measure(const owned_plan* p, const bench_case* c, const bench_dtype* t,
                   const bench_options* opt, buffers* b, bench_result* r)
{
    unsigned char alpha[16], beta[16];
    bench_dtype_scalar(t, opt->alpha, alpha);
    bench_dtype_scalar(t, opt->beta, beta);
    size_t bytes = (size_t)bench_case_volume(c) * t->size;

    cupermPlanInfo_t info;
    if (cupermPlanGetInfo(p->plan, &info) == CUPERM_STATUS_SUCCESS) {
        snprintf(r->kernel, sizeof r->kernel, "%s", info.kernelName ? info.kernelName : "?");
        r->fused_rank = info.fusedRank;
    }
    if (opt->verify && verify(p, c, t, opt, alpha, beta, b, bytes, r) != 0) return -1;
    if (r->error[0]) return 0;

    bench_timing tm;
    char why[256];
    if (bench_time_plan(p->plan, alpha, beta, b->d_in, b->d_out, bytes, b->stream, opt->target_ms,
                        &tm, why, sizeof why) != 0) {
        snprintf(r->error, sizeof r->error, "%s", why);
        return cudaGetLastError() == cudaSuccess ? 0 : -1;
    }
    double moved = (opt->beta != 0 ? 3.0 : 2.0) * (double)bytes;
    r->exec_ms = tm.exec_ms;
    r->copy_ms = tm.copy_ms;
    r->gbps = moved / (tm.exec_ms * 1e-3) / 1e9;
    r->copy_gbps = 2.0 * (double)bytes / (tm.copy_ms * 1e-3) / 1e9;
    r->pct_copy = 100.0 * r->gbps / r->copy_gbps;
    r->batches = tm.batches;
    r->inner = tm.inner;
    return 0;
}

static bench_result new_result(const bench_suite* suite, const bench_dtype* t, const char* mode,
                               long index, const bench_case* c)
{
    bench_result r;
    memset(&r, 0, sizeof r);
    r.suite = suite->name;
    r.dtype = t->name;
    r.mode = mode;
    r.index = index;
    r.rank = c->rank;
    bench_format_extents(c, r.extents, sizeof r.extents);
    bench_format_perm(c, r.perm, sizeof r.perm);
    r.bytes = bench_case_volume(c) * (int64_t)t->size;
    snprintf(r.kernel, sizeof r.kernel, "-");
    r.plan_us = r.exec_ms = r.gbps = r.copy_ms = r.copy_gbps = r.pct_copy = NAN;
    r.heur_over_meas = NAN;
    r.verified = -1;
    return r;
}

/* Runs one case in the requested modes, appending one result per mode.
 * Returns -1 when the CUDA context is no longer usable. */
static int run_case(const bench_suite* suite, const bench_options* opt, const bench_dtype* t,
                    long index, const bench_case* c, buffers* b, bench_result* out, int* n_out)
{
    size_t bytes = (size_t)bench_case_volume(c) * t->size;
    char why[256];
    bench_result heur = new_result(suite, t, "heuristic", index, c);
    bench_result meas = new_result(suite, t, "measure", index, c);
    owned_plan hp = {0}, mp = {0};
    int fatal = 0;

    if (ensure_buffers(b, bytes, opt->beta != 0, why, sizeof why) != 0) {
        snprintf(heur.error, sizeof heur.error, "%s", why);
        snprintf(meas.error, sizeof meas.error, "%s", why);
        goto done;
    }
    /* Measured planning overwrites the buffers, so it runs before the data is set. */
    if (opt->mode & BENCH_MODE_MEASURE) plan_measured(c, t, b, &mp, &meas);

    uint64_t seed = (opt->gen.seed ? opt->gen.seed : 1) * 1000003u + (uint64_t)index;
    size_t count = (size_t)bench_case_volume(c);
    bench_fill_random(b->h_in, count, t, seed, b->threads);
    if (opt->beta != 0) bench_fill_random(b->h_init, count, t, ~seed, b->threads);
    cudaError_t e = cudaMemcpy(b->d_in, b->h_in, bytes, cudaMemcpyHostToDevice);
    if (e != cudaSuccess) {
        snprintf(heur.error, sizeof heur.error, "CUDA: %s", cudaGetErrorString(e));
        snprintf(meas.error, sizeof meas.error, "CUDA: %s", cudaGetErrorString(e));
        fatal = 1;
        goto done;
    }
    if ((opt->mode & BENCH_MODE_HEURISTIC) && plan_heuristic(c, t, opt->plan_reps, &hp, &heur) == 0)
        fatal |= measure(&hp, c, t, opt, b, &heur) != 0;
    if (!fatal && mp.plan) fatal |= measure(&mp, c, t, opt, b, &meas) != 0;
    if (opt->mode == BENCH_MODE_BOTH && !heur.error[0] && !meas.error[0])
        heur.heur_over_meas = meas.heur_over_meas = heur.exec_ms / meas.exec_ms;

done:
    release(&hp);
    release(&mp);
    if (opt->mode & BENCH_MODE_HEURISTIC) out[(*n_out)++] = heur;
    if (opt->mode & BENCH_MODE_MEASURE) out[(*n_out)++] = meas;
    return fatal ? -1 : 0;
}

/* mkdir -p */
static int make_dirs(const char* path)
{
    char buf[1024];
    if (snprintf(buf, sizeof buf, "%s", path) >= (int)sizeof buf) return -1;
    for (char* p = buf + 1; *p; ++p) {
        if (*p != '/') continue;
        *p = '\0';
        if (mkdir(buf, 0755) != 0 && errno != EEXIST) return -1;
        *p = '/';
    }
    return mkdir(buf, 0755) != 0 && errno != EEXIST ? -1 : 0;
}

static FILE* open_output(const bench_options* opt, const char* tag, const char* suffix)
{
    char path[1200];
    snprintf(path, sizeof path, "%s/%s%s", opt->out_dir, tag, suffix);
    FILE* f = fopen(path, "w");
    if (!f) fprintf(stderr, "cuperm-bench: cannot write %s: %s\n", path, strerror(errno));
    else fprintf(stderr, "writing %s\n", path);
    return f;
}

static void default_tag(const bench_suite* suite, const bench_options* opt, char* tag, size_t size)
{
    static const char* modes[] = {"", "heuristic", "measure", "both"};
    int n = snprintf(tag, size, "%s-", suite->name);
    for (int k = 0; k < opt->num_dtypes && n > 0 && (size_t)n < size; ++k)
        n += snprintf(tag + n, size - (size_t)n, "%s%s", k ? "+" : "", opt->dtypes[k]->name);
    if (n > 0 && (size_t)n < size) snprintf(tag + n, size - (size_t)n, "-%s", modes[opt->mode]);
}

static void write_header(FILE* f, const bench_options* opt, const bench_device* dev)
{
    char when[64];
    time_t now = time(NULL);
    strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S UTC", gmtime(&now));
    fprintf(f, "command: %s\ndate: %s\n", opt->command_line, when);
    bench_device_print(f, dev);
}

/* The cases of one element type, with --skip/--limit applied. */
static int cases_for(const bench_suite* suite, const bench_options* opt, const bench_dtype* t,
                     bench_case_list* list)
{
    char err[512];
    if (suite->generate(opt, t->size, list, err, sizeof err) != 0) {
        fprintf(stderr, "cuperm-bench: %s\n", err);
        return -1;
    }
    size_t skip = (size_t)opt->skip < list->count ? (size_t)opt->skip : list->count;
    size_t keep = list->count - skip;
    if (opt->limit >= 0 && (size_t)opt->limit < keep) keep = (size_t)opt->limit;
    memmove(list->items, list->items + skip, keep * sizeof *list->items);
    list->count = keep;
    return 0;
}

static int list_cases(const bench_suite* suite, const bench_options* opt)
{
    for (int k = 0; k < opt->num_dtypes; ++k) {
        bench_case_list list = {0};
        if (cases_for(suite, opt, opt->dtypes[k], &list) != 0) return 2;
        printf("# %s, %s: %zu cases (extents perm)\n", suite->name, opt->dtypes[k]->name,
               list.count);
        for (size_t i = 0; i < list.count; ++i) {
            char e[512], p[128];
            bench_format_extents(&list.items[i], e, sizeof e);
            bench_format_perm(&list.items[i], p, sizeof p);
            printf("%s %s\n", e, p);
        }
        bench_case_list_free(&list);
    }
    return 0;
}

int bench_run_transpose_suite(const bench_suite* suite, const bench_options* opt_in)
{
    bench_options opt = *opt_in;
    if (opt.num_dtypes == 0) {
        opt.dtypes[0] = bench_dtype_find(suite->default_dtype);
        opt.num_dtypes = 1;
    }
    if (opt.list_only) return list_cases(suite, &opt);

    /* Generate everything first: a bad case file fails before the GPU is touched. */
    bench_case_list lists[BENCH_MAX_DTYPES] = {{0}};
    size_t total = 0;
    int status = 0;
    for (int k = 0; k < opt.num_dtypes; ++k) {
        if (cases_for(suite, &opt, opt.dtypes[k], &lists[k]) != 0) { status = 2; goto out_lists; }
        total += lists[k].count;
    }

    bench_device dev;
    char err[512];
    if (bench_device_query(&dev, err, sizeof err) != 0) {
        fprintf(stderr, "cuperm-bench: %s\n", err);
        status = 3;
        goto out_lists;
    }
    bench_device_print(stdout, &dev);

    char tag[256];
    if (opt.tag) snprintf(tag, sizeof tag, "%s", opt.tag);
    else default_tag(suite, &opt, tag, sizeof tag);
    FILE* csv = NULL;
    if (opt.out_dir) {
        if (make_dirs(opt.out_dir) != 0) {
            fprintf(stderr, "cuperm-bench: cannot create --out %s: %s\n", opt.out_dir,
                    strerror(errno));
            status = 2;
            goto out_lists;
        }
        if (!(csv = open_output(&opt, tag, ".csv"))) { status = 2; goto out_lists; }
        bench_csv_header(csv);
    }

    bench_result* results = malloc((total ? total : 1) * 2 * sizeof *results);
    buffers b = {0};
    b.threads = bench_cpu_count();
    if (!results || cudaStreamCreate(&b.stream) != cudaSuccess) {
        fprintf(stderr, "cuperm-bench: cannot allocate results or a CUDA stream\n");
        status = 2;
        goto out_results;
    }
    int n = 0;
    long done = 0, below_l2 = 0;
    int table = !opt.quiet;
    bench_progress progress;
    int show_progress = !(table && isatty(fileno(stdout)) && isatty(fileno(stderr)));
    bench_progress_start(&progress, stderr);
    if (table) bench_table_header(stdout);

    for (int k = 0; k < opt.num_dtypes && status != 3; ++k) {
        const bench_dtype* t = opt.dtypes[k];
        for (size_t i = 0; i < lists[k].count; ++i) {
            const bench_case* c = &lists[k].items[i];
            int first = n;
            below_l2 += (size_t)bench_case_volume(c) * t->size < dev.l2_bytes;
            int fatal = run_case(suite, &opt, t, (long)(i + (size_t)opt.skip), c, &b, results, &n);
            for (int j = first; j < n; ++j) {
                if (results[j].verified == 0 || results[j].error[0]) status = 1;
                if (table) bench_table_row(stdout, &results[j]);
                if (csv) bench_csv_row(csv, &results[j]);
            }
            if (csv) fflush(csv);
            fflush(stdout);
            ++done;
            if (show_progress)
                bench_progress_update(&progress, stderr, done, (long)total, suite->name);
            if (fatal) {
                fprintf(stderr, "cuperm-bench: the CUDA context failed (%s); stopping\n",
                        results[n - 1].error);
                status = 3;
                break;
            }
        }
    }
    if (show_progress) bench_progress_finish(&progress, stderr);
    if (below_l2 && strcmp(suite->name, "small") != 0)
        fprintf(stderr,
                "note: %ld case(s) fit in the %.0f MB L2 cache; their bandwidth is not DRAM's\n",
                below_l2, (double)dev.l2_bytes / 1e6);

    write_header(stdout, &opt, &dev);
    bench_write_summary(stdout, results, (size_t)n);
    if (opt.out_dir) {
        FILE* sum = open_output(&opt, tag, "-summary.txt");
        if (sum) {
            write_header(sum, &opt, &dev);
            bench_write_summary(sum, results, (size_t)n);
            fclose(sum);
        }
    }
out_results:
    if (b.stream) cudaStreamDestroy(b.stream);
    free_buffers(&b);
    free(results);
    if (csv) fclose(csv);
out_lists:
    for (int k = 0; k < opt.num_dtypes; ++k) bench_case_list_free(&lists[k]);
    return status;
}
