/* The transpose suite runner: generates every element type's cases, runs them
 * (case_runner.c), writes CSV rows as they come, and a summary at the end. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cuda_runtime_api.h>

#include "case_runner.h"
#include "cuperm.h"
#include "device.h"
#include "output.h"
#include "parallel.h"
#include "results.h"
#include "suites.h"
#include "summary.h"

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
        n += snprintf(tag + n, size - (size_t)n, "%s%s", k ? "_" : "", opt->dtypes[k]->name);
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
static int cases_for(const bench_suite* suite, const bench_options* opt, const dtype_info* t,
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
        opt.dtypes[0] = dtype_find(suite->default_dtype);
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
    bench_buffers b = {0};
    b.threads = bench_cpu_count();
    if (opt.compare_cutensor) {
        if (!(b.ct = bench_cutensor_open(opt.compare_cutensor == 2, err, sizeof err))) {
            fprintf(stderr, "cuperm-bench: --compare: %s\n", err);
            status = 2;
            goto out_results;
        }
        printf("cuTENSOR: %s (default plans%s), timed after cuperm against its own same-run copy\n",
               bench_cutensor_path(b.ct), opt.compare_cutensor == 2 ? ", JIT" : "");
    }
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
        const dtype_info* t = opt.dtypes[k];
        for (size_t i = 0; i < lists[k].count; ++i) {
            const bench_case* c = &lists[k].items[i];
            int first = n;
            below_l2 += (size_t)bench_case_volume(c) * t->size < dev.l2_bytes;
            int fatal =
                bench_run_case(suite, &opt, t, (long)(i + (size_t)opt.skip), c, &b, results, &n);
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
    if (below_l2 && !suite->in_l2)
        fprintf(stderr,
                "note: %ld case(s) fit in the %.0f MB L2 cache; their bandwidth is not DRAM's\n",
                below_l2, (double)dev.l2_bytes / 1e6);

    bench_grouping by = suite->in_l2 ? BENCH_GROUP_BY_SIZE : BENCH_GROUP_BY_RANK;
    write_header(stdout, &opt, &dev);
    bench_write_summary(stdout, results, (size_t)n, by);
    if (opt.out_dir) {
        FILE* sum = open_output(&opt, tag, "-summary.txt");
        if (sum) {
            write_header(sum, &opt, &dev);
            bench_write_summary(sum, results, (size_t)n, by);
            fclose(sum);
        }
    }
out_results:
    bench_cutensor_close(b.ct);
    if (b.stream) cudaStreamDestroy(b.stream);
    bench_buffers_free(&b);
    free(results);
    if (csv) fclose(csv);
out_lists:
    for (int k = 0; k < opt.num_dtypes; ++k) bench_case_list_free(&lists[k]);
    return status;
}
