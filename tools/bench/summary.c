#include "summary.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void* a, const void* b)
{
    double x = *(const double*)a, y = *(const double*)b;
    return (x > y) - (x < y);
}

bench_stats bench_stats_of(double* values, size_t n)
{
    size_t m = 0;
    for (size_t i = 0; i < n; ++i)
        if (!isnan(values[i])) values[m++] = values[i];
    bench_stats s = {m, NAN, NAN, NAN};
    if (m == 0) return s;
    qsort(values, m, sizeof *values, cmp_double);
    s.worst = values[0];
    s.best = values[m - 1];
    s.median = m % 2 ? values[m / 2] : 0.5 * (values[m / 2 - 1] + values[m / 2]);
    return s;
}

typedef enum { COL_PCT_COPY, COL_RATIO, COL_GBPS, COL_COPY_GBPS, COL_SINGLE_USE, COL_CUTENSOR, COL_CUTENSOR_PCT } column;

/* The single-use target concerns tensors of at least this size. */
#define SINGLE_USE_MIN_BYTES 100000000LL

static double value_of(const bench_result* r, column c)
{
    switch (c) {
    case COL_RATIO: return r->heur_over_meas;
    case COL_GBPS: return r->gbps;
    case COL_COPY_GBPS: return r->copy_gbps;
    case COL_CUTENSOR: return r->cutensor_ms / r->exec_ms;
    case COL_CUTENSOR_PCT: return r->cutensor_pct_copy;
    case COL_SINGLE_USE:
        return r->bytes >= SINGLE_USE_MIN_BYTES ? r->single_use_ms / r->exec_ms : NAN;
    default: return r->pct_copy;
    }
}

/* The row's group: its rank, or log2 of its bytes rounded. */
static int group_of(const bench_result* r, bench_grouping by)
{
    return by == BENCH_GROUP_BY_SIZE ? (int)lround(log2((double)r->bytes)) : r->rank;
}

/* A column of one (dtype, mode) set of rows, optionally one group (-1: all). */
static size_t collect(const bench_result* r, size_t n, const char* dtype, const char* mode,
                      bench_grouping by, int group, column c, double* out)
{
    size_t m = 0;
    for (size_t i = 0; i < n; ++i) {
        if (strcmp(r[i].dtype, dtype) || strcmp(r[i].mode, mode)) continue;
        if (group >= 0 && group_of(&r[i], by) != group) continue;
        out[m++] = value_of(&r[i], c);
    }
    return m;
}

static void group_label(bench_grouping by, int group, char* buf, size_t size)
{
    if (by == BENCH_GROUP_BY_RANK) snprintf(buf, size, "%d", group);
    else if (group >= 30) snprintf(buf, size, "%d GB", 1 << (group - 30));
    else if (group >= 20) snprintf(buf, size, "%d MB", 1 << (group - 20));
    else if (group >= 10) snprintf(buf, size, "%d KB", 1 << (group - 10));
    else snprintf(buf, size, "%d B", 1 << group);
}

static int seen_before(const bench_result* r, size_t i)
{
    for (size_t k = 0; k < i; ++k)
        if (!strcmp(r[k].dtype, r[i].dtype) && !strcmp(r[k].mode, r[i].mode)) return 1;
    return 0;
}

void bench_write_summary(FILE* f, const bench_result* r, size_t n, bench_grouping by)
{
    double* values = malloc((n ? n : 1) * sizeof *values);
    if (!values) {
        fprintf(f, "summary: out of memory\n");
        return;
    }
    for (size_t g = 0; g < n; ++g) {
        if (seen_before(r, g)) continue;
        const char *dtype = r[g].dtype, *mode = r[g].mode;
        size_t failed = 0, errors = 0;
        int max_group = 0;
        for (size_t i = 0; i < n; ++i) {
            if (strcmp(r[i].dtype, dtype) || strcmp(r[i].mode, mode)) continue;
            failed += r[i].verified == 0;
            errors += r[i].error[0] != '\0';
            if (group_of(&r[i], by) > max_group) max_group = group_of(&r[i], by);
        }
        fprintf(f, "\n%s, %s plans: %% of same-run D2D copy bandwidth\n", dtype, mode);
        fprintf(f, "  %-8s %6s %9s %9s %9s\n", by == BENCH_GROUP_BY_RANK ? "rank" : "size",
                "cases", "worst", "median", "best");
        for (int group = 0; group <= max_group; ++group) {
            bench_stats s = bench_stats_of(
                values, collect(r, n, dtype, mode, by, group, COL_PCT_COPY, values));
            char label[16];
            group_label(by, group, label, sizeof label);
            if (s.count)
                fprintf(f, "  %-8s %6zu %8.1f%% %8.1f%% %8.1f%%\n", label, s.count, s.worst,
                        s.median, s.best);
        }
        bench_stats all =
            bench_stats_of(values, collect(r, n, dtype, mode, by, -1, COL_PCT_COPY, values));
        fprintf(f, "  %-8s %6zu %8.1f%% %8.1f%% %8.1f%%\n", "all", all.count, all.worst,
                all.median, all.best);
        bench_stats bw =
            bench_stats_of(values, collect(r, n, dtype, mode, by, -1, COL_GBPS, values));
        bench_stats copy =
            bench_stats_of(values, collect(r, n, dtype, mode, by, -1, COL_COPY_GBPS, values));
        if (bw.count)
            fprintf(f, "  bandwidth: median %.0f GB/s; same-run copy median %.0f GB/s\n", bw.median,
                    copy.median);
        bench_stats ratio =
            bench_stats_of(values, collect(r, n, dtype, mode, by, -1, COL_RATIO, values));
        if (ratio.count)
            fprintf(f, "  heuristic/measured time: median %.3f, worst %.3f, best %.3f\n",
                    ratio.median, ratio.best, ratio.worst);
        bench_stats single =
            bench_stats_of(values, collect(r, n, dtype, mode, by, -1, COL_SINGLE_USE, values));
        if (single.count)
            fprintf(f, "  single use (plan + execute) / execute, tensors >= 100 MB: median %.3f, worst %.3f (%zu cases)\n",
                    single.median, single.best, single.count);
        size_t m = collect(r, n, dtype, mode, by, -1, COL_CUTENSOR, values), slower = 0, below09 = 0, ct_failed = 0;
        for (size_t i = 0; i < m; ++i) {
            slower += values[i] < 1.0;
            below09 += values[i] < 0.9;
        }
        for (size_t i = 0; i < n; ++i)
            ct_failed += !strcmp(r[i].dtype, dtype) && !strcmp(r[i].mode, mode) && r[i].cutensor_verified == 0;
        bench_stats ct = bench_stats_of(values, m);
        bench_stats ctp =
            bench_stats_of(values, collect(r, n, dtype, mode, by, -1, COL_CUTENSOR_PCT, values));
        if (ct.count)
            fprintf(f, "  cuTENSOR time / cuperm's: median %.3f, worst %.3f, best %.3f; cuperm faster on %zu of %zu "
                    "cases, below 0.9x cuTENSOR's speed on %zu; cuTENSOR %% of copy median %.1f; its check failed on %zu\n",
                    ct.median, ct.worst, ct.best, ct.count - slower, ct.count, below09, ctp.median, ct_failed);
        fprintf(f, "  verification failures: %zu, errors: %zu\n", failed, errors);
    }
    free(values);
}
