/*
 * cuperm-fuzz: differential fuzz test of contractions and transposes.
 *
 *   cuperm-fuzz [--contractions N] [--transposes N] [--seed S] [--quiet]
 *   cuperm-fuzz --kind contraction|transpose|regression --case I [--seed S]
 *   cuperm-fuzz --cpu --contractions N      (no GPU: the planner's candidate layouts on the CPU)
 *   cuperm-fuzz --self-test                 (no GPU: the checker flags corrupted results)
 *
 * The fixed regression cases always run first (unless --case picks one case). A failure
 * prints a REPRO line that reruns exactly that case, then a description. An error status
 * on a valid problem or any CUDA error stops the run. Exit 0 only without failures; 77 (a
 * SKIPPED line) when a GPU run finds no GPU.
 */
#define _POSIX_C_SOURCE 200809L
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fuzz/fuzz.h"

static void usage(FILE* f)
{
    fprintf(f,
            "usage: cuperm-fuzz [--contractions N] [--transposes N] [--seed S] [--case I --kind "
            "contraction|transpose|regression]\n"
            "                   [--cpu] [--quiet] [--max-reports N] [--self-test]\n");
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void run_ctr(const fuzz_ctr_case* k, int cpu, fuzz_stats* s)
{
    if (cpu) fuzz_cpu_contraction(k, s);
    else fuzz_gpu_contraction(k, s);
}

int main(int argc, char** argv)
{
    long long nCtr = -1, nTr = -1, caseIndex = -1;
    unsigned long long seed = 1;
    const char* kind = NULL;
    int cpu = 0, quiet = 0, selfTest = 0, maxReports = 20;
    static const struct option longopts[] = {
        {"contractions", required_argument, NULL, 'c'}, {"transposes", required_argument, NULL, 't'},
        {"seed", required_argument, NULL, 's'},         {"case", required_argument, NULL, 'i'},
        {"kind", required_argument, NULL, 'k'},         {"cpu", no_argument, NULL, 'C'},
        {"quiet", no_argument, NULL, 'q'},              {"self-test", no_argument, NULL, 'S'},
        {"max-reports", required_argument, NULL, 'm'},  {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}};
    int opt;
    while ((opt = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
        switch (opt) {
        case 'c': nCtr = atoll(optarg); break;
        case 't': nTr = atoll(optarg); break;
        case 's': seed = strtoull(optarg, NULL, 0); break;
        case 'i': caseIndex = atoll(optarg); break;
        case 'k': kind = optarg; break;
        case 'C': cpu = 1; break;
        case 'q': quiet = 1; break;
        case 'S': selfTest = 1; break;
        case 'm': maxReports = atoi(optarg); break;
        case 'h': usage(stdout); return 0;
        default: usage(stderr); return 2;
        }
    }
    if (optind < argc || (caseIndex >= 0) != (kind != NULL) ||
        (kind && strcmp(kind, "contraction") && strcmp(kind, "transpose") && strcmp(kind, "regression")) ||
        (cpu && kind && !strcmp(kind, "transpose"))) {
        usage(stderr);
        return 2;
    }
    if (selfTest) return fuzz_self_test();
    if (nCtr < 0) nCtr = cpu ? 300 : 500;
    if (nTr < 0) nTr = cpu ? 0 : 2000;
    if (cpu && nTr > 0) {
        fprintf(stderr, "cuperm-fuzz: --cpu runs contractions only (transposes need the GPU)\n");
        nTr = 0;
    }
    if (!cpu) {
        const int rc = fuzz_gpu_init();
        if (rc) return rc;
    }
    fuzz_stats ctr, tr;
    memset(&ctr, 0, sizeof ctr);
    memset(&tr, 0, sizeof tr);
    ctr.quiet = tr.quiet = quiet;
    ctr.maxReports = tr.maxReports = maxReports;
    const double t0 = now();
    int regressionFailed = 0;

    if (kind) { /* one case */
        if (!strcmp(kind, "transpose")) {
            fuzz_tr_case t;
            fuzz_tr_draw(seed, caseIndex, &t);
            if (!quiet) fuzz_tr_describe(stdout, &t);
            fuzz_gpu_transpose(&t, &tr);
        } else {
            fuzz_ctr_case k;
            if (!strcmp(kind, "regression")) {
                if (caseIndex >= fuzz_ctr_regression_count()) {
                    fprintf(stderr, "cuperm-fuzz: %d regression cases\n", fuzz_ctr_regression_count());
                    return 2;
                }
                fuzz_ctr_regression((int)caseIndex, &k);
            } else {
                fuzz_ctr_draw(seed, caseIndex, &k);
            }
            if (!quiet) fuzz_ctr_describe(stdout, &k);
            run_ctr(&k, cpu, &ctr);
        }
    } else {
        for (int i = 0; i < fuzz_ctr_regression_count() && !ctr.fatal; ++i) {
            fuzz_ctr_case k;
            fuzz_ctr_regression(i, &k);
            const int64_t before = ctr.failed;
            run_ctr(&k, cpu, &ctr);
            regressionFailed += ctr.failed > before;
        }
        if (!quiet)
            printf("regression cases: %d run, %d failed\n", fuzz_ctr_regression_count(), regressionFailed);
        for (long long i = 0; i < nCtr && !ctr.fatal; ++i) {
            fuzz_ctr_case k;
            fuzz_ctr_draw(seed, i, &k);
            run_ctr(&k, cpu, &ctr);
            if (!quiet && (i + 1) % 1000 == 0)
                printf("  contractions: %lld done, %lld failed (%.0f s)\n", i + 1, (long long)ctr.failed, now() - t0);
        }
        for (long long i = 0; i < nTr && !ctr.fatal && !tr.fatal; ++i) {
            fuzz_tr_case t;
            fuzz_tr_draw(seed, i, &t);
            fuzz_gpu_transpose(&t, &tr);
            if (!quiet && (i + 1) % 5000 == 0)
                printf("  transposes: %lld done, %lld failed (%.0f s)\n", i + 1, (long long)tr.failed, now() - t0);
        }
    }
    if (!cpu) fuzz_gpu_fini();
    if (ctr.fatal || tr.fatal) printf("stopped early: an error on a valid problem or a CUDA error (see above)\n");
    if (ctr.failed > ctr.maxReports) printf("(%lld contraction failures not described)\n", (long long)(ctr.failed - ctr.maxReports));
    if (tr.failed > tr.maxReports) printf("(%lld transpose failures not described)\n", (long long)(tr.failed - tr.maxReports));
    printf("contractions%s: %lld passed, %lld failed (regression cases failed: %d)\n", cpu ? " (cpu, every candidate layout)" : "",
           (long long)ctr.passed, (long long)ctr.failed, regressionFailed);
    if (!cpu) printf("transposes: %lld passed, %lld failed\n", (long long)tr.passed, (long long)tr.failed);
    printf("paths: pointer-array batched plans (calls > 1) %lld, transposed A %lld, B %lld, D %lld, measure plans %lld, "
           "created-stream runs %lld%s",
           (long long)ctr.pointerBatched, (long long)ctr.transposedA, (long long)ctr.transposedB,
           (long long)ctr.transposedD, (long long)(ctr.measured + tr.measured), (long long)(ctr.streams + tr.streams),
           cpu ? "" : "\n");
    if (cpu) printf(", candidate layouts checked %lld\n", (long long)ctr.layouts);
    else printf("GETT plans %lld (on the Hopper TMA kernels %lld), padded GEMMs %lld\n", (long long)ctr.gett,
                (long long)ctr.gettTma, (long long)ctr.padded);
    const long long passed = ctr.passed + tr.passed, failed = ctr.failed + tr.failed;
    printf("fuzz: %lld passed, %lld failed (seed %llu, %.1f s)\n", passed, failed, seed, now() - t0);
    return failed ? 1 : 0;
}
