#include "output.h"

#include <math.h>
#include <time.h>
#include <unistd.h>

double bench_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void bench_csv_header(FILE* f)
{
    fprintf(
        f, "suite,case,dtype,mode,rank,extents,perm,bytes,kernel,config,fused_rank,plan_us,exec_ms,"
           "gbps,copy_ms,copy_gbps,pct_copy,heur_over_meas,verified,mismatches,batches,inner,"
           "error,single_use_ms,cutensor_ms,cutensor_pct_copy,cutensor_over_cuperm,cutensor_verified,"
           "memcpy_ms,copy_kernel_ms,graphs\n");
}

/* Empty for NaN so spreadsheets and csv readers see a missing value. */
static void num(FILE* f, const char* fmt, double v)
{
    if (!isnan(v)) fprintf(f, fmt, v);
    fputc(',', f);
}

void bench_csv_row(FILE* f, const bench_result* r)
{
    fprintf(f, "%s,%ld,%s,%s,%d,\"%s\",\"%s\",%lld,%s,%s,%d,", r->suite, r->index, r->dtype,
            r->mode, r->rank, r->extents, r->perm, (long long)r->bytes, r->kernel, r->config,
            r->fused_rank);
    num(f, "%.2f", r->plan_us);
    num(f, "%.5f", r->exec_ms);
    num(f, "%.1f", r->gbps);
    num(f, "%.5f", r->copy_ms);
    num(f, "%.1f", r->copy_gbps);
    num(f, "%.2f", r->pct_copy);
    num(f, "%.4f", r->heur_over_meas);
    fprintf(f, "%d,%lld,%d,%d,\"", r->verified, (long long)r->mismatches, r->batches, r->inner);
    for (const char* c = r->error; *c; ++c) fputc(*c == '"' ? '\'' : *c, f);
    fprintf(f, "\",");
    num(f, "%.5f", r->single_use_ms);
    num(f, "%.5f", r->cutensor_ms);
    num(f, "%.2f", r->cutensor_pct_copy);
    num(f, "%.4f", r->cutensor_ms / r->exec_ms);
    fprintf(f, "%d,", r->cutensor_verified);
    num(f, "%.5f", r->memcpy_ms);
    num(f, "%.5f", r->copy_kernel_ms);
    fprintf(f, "%d\n", r->graphs);
}

void bench_table_header(FILE* f)
{
    fprintf(f, "%5s %-4s %-9s %-32s %-7s %9s %10s %8s %7s %6s %s\n", "case", "type", "mode",
            "extents perm", "kernel", "plan us", "exec ms", "GB/s", "%copy", "h/m", "check");
}

void bench_table_row(FILE* f, const bench_result* r)
{
    char shape[48];
    int n = snprintf(shape, sizeof shape, "%s %s", r->extents, r->perm);
    if (n >= (int)sizeof shape) snprintf(shape + sizeof shape - 4, 4, "...");
    if (r->error[0]) {
        fprintf(f, "%5ld %-4s %-9s %-32s ERROR: %s\n", r->index, r->dtype, r->mode, shape,
                r->error);
        return;
    }
    char ratio[16] = "-";
    if (!isnan(r->heur_over_meas)) snprintf(ratio, sizeof ratio, "%.3f", r->heur_over_meas);
    const char* check = r->verified == 1 ? "ok" : r->verified == 0 ? "FAILED" : "-";
    fprintf(f, "%5ld %-4s %-9s %-32s %-7s %9.1f %10.4f %8.1f %6.1f%% %6s %s\n", r->index,
            r->dtype, r->mode, shape, r->kernel, r->plan_us, r->exec_ms, r->gbps, r->pct_copy,
            ratio, check);
}

void bench_progress_start(bench_progress* p, FILE* f)
{
    p->started = p->last_print = bench_now();
    p->is_tty = isatty(fileno(f));
}

void bench_progress_update(bench_progress* p, FILE* f, long done, long total, const char* what)
{
    double now = bench_now();
    if (!p->is_tty && now - p->last_print < 10 && done != total) return;
    p->last_print = now;
    double elapsed = now - p->started;
    double eta = done ? elapsed / (double)done * (double)(total - done) : 0;
    fprintf(f, "%s[%ld/%ld] %s  elapsed %.0fs, eta %.0fs%s", p->is_tty ? "\r\033[K" : "", done,
            total, what, elapsed, eta, p->is_tty ? "" : "\n");
    fflush(f);
}

void bench_progress_finish(bench_progress* p, FILE* f)
{
    if (p->is_tty) fputc('\n', f);
}
