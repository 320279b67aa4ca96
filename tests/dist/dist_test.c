/*
 * cuperm-dist-test: distributed transposes over NCCL on every visible GPU, one
 * communicator per GPU made with ncclCommInitAll in this one process, one host thread
 * per GPU for each collective call. Prints SKIPPED and exits 77 with fewer than 2 GPUs.
 *
 *   cuperm-dist-test [--quick] [--no-errors] [--cases N] [--contractions N] [--seed S]   correctness, errors
 *   cuperm-dist-test --bench [--gb G] [--iters N]         timings vs grouped send/recv
 *   cuperm-dist-test --bench --random N [--seed S] [--gb G] [--iters N]   the held-out suite: N random
 *       6-D redistributions (model plan, measure mode and bound output each), every output element checked
 *       (DT_SWEEP=1: and every peer-stores candidate forced, variant x stages 1, 2, 4, 8)
 *       (environment: DT_BENCH_ONLY=substring of the case names to run; DT_SMALL_BYTES=the
 *       small cases' bytes a GPU, 1 MiB by default)
 *   cuperm-dist-test --phases [--gb G] [--iters N]        the reverse case's phases, each alone
 *
 * Correctness: random rank 2-6 tensors, uneven and empty blocks, random permutations,
 * every combination of source and destination distributed modes (random grids along
 * one or two modes), alpha and beta != 0, several dtypes, forced and model-chosen
 * variants and chunk counts; each rank's block is compared exactly (integer-valued data)
 * with the gathered single-GPU cupermExecute result. Errors: a bad descriptor on one
 * rank (mismatched extents, wrong grid size, bad block size, bad perm) must make every
 * rank return CUPERM_STATUS_INVALID_VALUE without hanging (a watchdog exits otherwise).
 * NCCL_NVLS_ENABLE=0 is set before NCCL starts (no NVLink multicast).
 *
 * Here: main and its options. harness.c: the threads, ranks, watchdog and shared helpers;
 * redistribution_cases.c, error_cases.c, contraction_cases.c: the correctness parts;
 * redistribution_bench.c, contraction_bench.c: --bench; redistribution_phases.c: --phases.
 */
#define _POSIX_C_SOURCE 200809L
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "dist_parts.h"
#include "harness.h"

/* ---- main ---------------------------------------------------------------------------- */
static void init_rank(int r, void* arg)
{
    (void)arg;
    CK(cudaStreamCreateWithFlags(&dt_R[r].stream, cudaStreamNonBlocking));
    if (cupermCreate(&dt_R[r].handle)) {
        printf("FAILED: cupermCreate on GPU %d: %s\n", r, cupermGetLastErrorMessage());
        exit(1);
    }
}

int main(int argc, char** argv)
{
    setenv("NCCL_NVLS_ENABLE", "0", 1); /* never NVLink multicast */
    setvbuf(stdout, NULL, _IOLBF, 0);    /* whole lines in a log even when a timeout stops the program */
    int quick = 0, do_bench = 0, do_phases = 0, cases = 60, iters = 10, ctr_cases = 40, errors = 1, random = 0;
    double gb = 1.0;
    for (int i = 1; i < argc; ++i) {
        if (!strcmp(argv[i], "--quick")) quick = 1;
        else if (!strcmp(argv[i], "--no-errors")) errors = 0; /* the random cases alone (memcheck runs) */
        else if (!strcmp(argv[i], "--bench")) do_bench = 1;
        else if (!strcmp(argv[i], "--phases")) do_phases = 1;
        else if (!strcmp(argv[i], "--gb") && i + 1 < argc) gb = atof(argv[++i]);
        else if (!strcmp(argv[i], "--iters") && i + 1 < argc) iters = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--cases") && i + 1 < argc) cases = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--random") && i + 1 < argc) random = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--contractions") && i + 1 < argc) ctr_cases = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--seed") && i + 1 < argc) dt_rng_state = strtoull(argv[++i], NULL, 10);
        else {
            fprintf(stderr, "usage: %s [--quick] [--no-errors] [--cases N] [--contractions N] [--seed S] | "
                    "--bench [--random N] [--seed S] | --phases [--gb G] [--iters N]\n", argv[0]);
            return 2;
        }
    }
    if (quick) cases = cases < 20 ? cases : 20;
    int n = 0;
    cudaError_t e = cudaGetDeviceCount(&n);
    if (e != cudaSuccess || n < 2) {
        printf("SKIPPED: cuperm-dist-test needs at least 2 CUDA GPUs (%s)\n",
               e != cudaSuccess ? cudaGetErrorString(e) : n == 1 ? "1 device" : "no devices");
        return 77;
    }
    dt_G = n < MAXG ? n : MAXG;
    signal(SIGALRM, dt_watchdog);
    dt_alarm(120);
    int devs[MAXG];
    ncclComm_t comms[MAXG];
    for (int r = 0; r < dt_G; ++r) devs[r] = dt_R[r].dev = r;
    ncclResult_t nr = ncclCommInitAll(comms, dt_G, devs);
    if (nr != ncclSuccess) {
        printf("FAILED: ncclCommInitAll: %s\n", ncclGetErrorString(nr));
        return 1;
    }
    for (int r = 0; r < dt_G; ++r) dt_R[r].comm = comms[r];
    dt_on_all_ranks(init_rank, NULL);
    dt_alarm(0);
    printf("cuperm-dist-test: %d GPUs, NCCL %d, NCCL_NVLS_ENABLE=%s\n", dt_G, NCCL_VERSION_CODE, getenv("NCCL_NVLS_ENABLE"));
    int bad = 0;
    if (do_phases) {
        dt_alarm(540);
        bad = dt_phases(gb, iters);
    } else if (do_bench) {
        dt_alarm(540);
        if (random > 0) {
            bad = dt_bench_random(gb, iters, random);
        } else {
            bad = gb > 0 ? dt_bench(gb, iters) : 0;
            bad |= dt_ctr_bench(iters);
        }
    } else {
        if (errors) bad |= dt_error_cases();
        int failed = 0;
        for (int i = 0; i < cases; ++i) {
            dt_alarm(60);
            failed += dt_correctness_case(i, quick);
        }
        int ctr_failed = 0;
        if (quick) ctr_cases = ctr_cases < 10 ? ctr_cases : 10;
        for (int i = 0; i < ctr_cases; ++i) {
            dt_alarm(60);
            ctr_failed += dt_contraction_case(i);
        }
        printf("dist: %d of %d random distributed contractions correct\n", ctr_cases - ctr_failed, ctr_cases);
        bad |= ctr_failed != 0;
        dt_alarm(60);
        if (errors) bad |= dt_error_cases(); /* the communicators still work after everything */
        dt_alarm(0);
        printf("dist: %d of %d random redistributions correct; error agreement %s\n", cases - failed, cases,
               !errors ? "not run (--no-errors)" : bad ? "FAILED" : "ok");
        bad |= failed != 0;
    }
    for (int r = 0; r < dt_G; ++r) {
        cudaSetDevice(dt_R[r].dev);
        cupermDestroy(dt_R[r].handle);
        ncclCommDestroy(dt_R[r].comm);
    }
    printf("%s\n", bad ? "FAILED" : "PASSED");
    return bad ? 1 : 0;
}
