/* One case end to end (see case_runner.h): plans on fresh handles, the checked first
 * execution, timing against the same-run copy. */
#include "case_runner.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cuperm.h"
#include "output.h"
#include "reference.h"
#include "timing.h"

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

static void free_host(bench_buffers* b)
{
    cudaFreeHost(b->h_in);
    cudaFreeHost(b->h_out);
    cudaFreeHost(b->h_init);
    b->h_in = b->h_out = b->h_init = NULL;
    b->h_cap = 0;
}

static int ensure_buffers(bench_buffers* b, size_t bytes, int need_init, char* err, size_t err_size)
{
    /* A quarter of headroom: sizes in a suite vary by a few percent, and pinning
     * gigabytes anew for each case would cost more than the case. */
    size_t want = bytes + bytes / 4;
    if (bytes > b->d_cap) {
        cudaFree(b->d_in);
        cudaFree(b->d_out);
        b->d_in = b->d_out = NULL;
        b->d_cap = 0;
        cudaError_t e = cudaMalloc(&b->d_in, want);
        if (e == cudaSuccess) e = cudaMalloc(&b->d_out, want);
        if (e != cudaSuccess) {
            cudaGetLastError();
            snprintf(err, err_size, "cudaMalloc of 2 x %zu bytes: %s", want, cudaGetErrorString(e));
            return -1;
        }
        b->d_cap = want;
    }
    if (bytes > b->h_cap || (need_init && !b->h_init)) {
        /* Pinned, so the GB-sized uploads and result downloads run at full PCIe speed. */
        free_host(b);
        cudaError_t e = cudaMallocHost((void**)&b->h_in, want);
        if (e == cudaSuccess) e = cudaMallocHost((void**)&b->h_out, want);
        if (e == cudaSuccess && need_init) e = cudaMallocHost((void**)&b->h_init, want);
        if (e != cudaSuccess) {
            cudaGetLastError();
            free_host(b);
            snprintf(err, err_size, "cudaMallocHost of %zu bytes: %s", want, cudaGetErrorString(e));
            return -1;
        }
        b->h_cap = want;
    }
    return 0;
}

void bench_buffers_free(bench_buffers* b)
{
    cudaFree(b->d_in);
    cudaFree(b->d_out);
    free_host(b);
}

static double host_us_since(double t0) { return (bench_now() - t0) * 1e6; }

static void set_error(bench_result* r, const char* what, cupermStatus_t s)
{
    snprintf(r->error, sizeof r->error, "%s: %s: %s", what, cupermGetErrorString(s),
             cupermGetLastErrorMessage());
}

/* Heuristic plans: plan_reps creations, each on a fresh handle so that the handle's
 * plan cache never answers; the median is reported and the last plan kept. */
static int plan_heuristic(const bench_case* c, const dtype_info* t, int reps, owned_plan* out,
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
static int plan_measured(const bench_case* c, const dtype_info* t, bench_buffers* b,
                         owned_plan* out, bench_result* r)
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

/* Runs `run` once on a poisoned (or, with beta != 0, initialized) output and compares every
 * element with the CPU reference for (alpha, beta): the mismatch count in *mismatches, the first
 * in rep. Returns -1 on a CUDA error (err set), 1 when the run itself failed (err set), else 0. */
static int run_and_check(bench_timed_fn run, void* ctx, const bench_case* c, const dtype_info* t, double alpha,
                         double beta, bench_buffers* b, size_t bytes, int64_t* mismatches,
                         bench_verify_report* rep, char* err, size_t err_size)
{
    cudaError_t e = beta != 0 ? cudaMemcpy(b->d_out, b->h_init, bytes, cudaMemcpyHostToDevice)
                              : cudaMemsetAsync(b->d_out, POISON_BYTE, bytes, b->stream);
    if (e == cudaSuccess && run(ctx, b->stream, err, err_size) != 0) return 1;
    if (e == cudaSuccess) e = cudaStreamSynchronize(b->stream);
    if (e == cudaSuccess) e = cudaMemcpy(b->h_out, b->d_out, bytes, cudaMemcpyDeviceToHost);
    if (e != cudaSuccess) {
        snprintf(err, err_size, "CUDA: %s", cudaGetErrorString(e));
        return -1;
    }
    *mismatches = bench_verify_transpose(c, t, b->h_in, b->h_out, b->h_init, alpha, beta, b->threads, rep);
    return 0;
}

/* The plan's first execution, checked (run_and_check). Returns -1 on a CUDA error. */
static int verify(const owned_plan* p, const bench_case* c, const dtype_info* t,
                  const bench_options* opt, const unsigned char* alpha, const unsigned char* beta,
                  bench_buffers* b, size_t bytes, bench_result* r)
{
    bench_plan_run run = {p->plan, alpha, beta, b->d_in, b->d_out};
    bench_verify_report rep;
    const int rc = run_and_check(bench_run_plan, &run, c, t, opt->alpha, opt->beta, b, bytes, &r->mismatches, &rep,
                                 r->error, sizeof r->error);
    if (rc) return rc < 0 ? -1 : 0;
    r->verified = r->mismatches == 0;
    if (!r->verified)
        fprintf(stderr, "VERIFY FAILED: %s case %ld (%s %s, %s, %s): %lld mismatches; first: %s\n",
                r->suite, r->index, r->extents, r->perm, r->dtype, r->mode,
                (long long)r->mismatches, rep.detail);
    return 0;
}

/* Single-use time of a heuristic plan: plan creation on a fresh handle (so the
 * plan cache never answers) and its one execution, from an event recorded on
 * the idle stream before planning to one after the execution. It includes the
 * host's planning and launch latency, which the back-to-back batches of
 * exec_ms hide; the kernel is already loaded (the checked run came first). */
static void time_single_use(const bench_case* c, const dtype_info* t, const unsigned char* alpha,
                            const unsigned char* beta, bench_buffers* b, bench_result* r)
{
    enum { REPS = 11 };
    double ms[REPS];
    cudaEvent_t ev[2] = {0};
    int k = 0;
    if (cudaEventCreate(&ev[0]) != cudaSuccess || cudaEventCreate(&ev[1]) != cudaSuccess) goto out;
    for (; k < REPS; ++k) {
        owned_plan p = {0};
        float elapsed = 0;
        int ok = cupermCreate(&p.handle) == CUPERM_STATUS_SUCCESS &&
                 cudaStreamSynchronize(b->stream) == cudaSuccess &&
                 cudaEventRecord(ev[0], b->stream) == cudaSuccess &&
                 cupermPlanTranspose(p.handle, &p.plan, c->rank, c->extents, c->perm, t->type, NULL,
                                     NULL) == CUPERM_STATUS_SUCCESS &&
                 cupermExecute(p.plan, alpha, b->d_in, beta, b->d_out, b->stream) ==
                     CUPERM_STATUS_SUCCESS &&
                 cudaEventRecord(ev[1], b->stream) == cudaSuccess &&
                 cudaEventSynchronize(ev[1]) == cudaSuccess &&
                 cudaEventElapsedTime(&elapsed, ev[0], ev[1]) == cudaSuccess;
        release(&p);
        if (!ok) break;
        ms[k] = elapsed;
    }
out:
    if (k == REPS) r->single_use_ms = bench_stats_of(ms, REPS).median;
    else cudaGetLastError();
    if (ev[0]) cudaEventDestroy(ev[0]);
    if (ev[1]) cudaEventDestroy(ev[1]);
}

static int measure(const owned_plan* p, const bench_case* c, const dtype_info* t,
                   const bench_options* opt, bench_buffers* b, bench_result* r)
{
    unsigned char alpha[16], beta[16];
    dtype_scalar(t->type, opt->alpha, alpha);
    dtype_scalar(t->type, opt->beta, beta);
    size_t bytes = (size_t)bench_case_volume(c) * t->size;

    cupermPlanInfo_t info;
    if (cupermPlanGetInfo(p->plan, &info) == CUPERM_STATUS_SUCCESS) {
        snprintf(r->kernel, sizeof r->kernel, "%s", info.kernelName ? info.kernelName : "?");
        snprintf(r->config, sizeof r->config, "%lldx%lld:%d", (long long)info.tileA,
                 (long long)info.tileB, info.threadsPerBlock);
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
    r->memcpy_ms = tm.memcpy_ms;
    r->copy_kernel_ms = tm.copy_kernel_ms;
    r->gbps = moved / (tm.exec_ms * 1e-3) / 1e9;
    r->copy_gbps = 2.0 * (double)bytes / (tm.copy_ms * 1e-3) / 1e9;
    r->pct_copy = 100.0 * r->gbps / r->copy_gbps;
    r->batches = tm.batches;
    r->inner = tm.inner;
    r->graphs = tm.graphs;
    if (!strcmp(r->mode, "heuristic")) time_single_use(c, t, alpha, beta, b, r);
    return 0;
}

typedef struct {
    bench_cutensor_plan* plan;
    const void* in;
    void* out;
} cutensor_run;

static int run_cutensor(void* ctx, cudaStream_t s, char* why, size_t why_size)
{
    const cutensor_run* r = ctx;
    if (bench_cutensor_permute(r->plan, r->in, r->out, s) == 0) return 0;
    snprintf(why, why_size, "cutensorPermute failed");
    return -1;
}

/* --compare cutensor: cuTENSOR's default plan of the same permutation, its output checked
 * element by element like cuperm's, then timed against the copy in its own batches; fills r's
 * cutensor fields (alpha 1 and beta 0 only). A cuTENSOR failure is reported on stderr and
 * leaves them unset: it is not cuperm's. Returns -1 on a CUDA error. */
static int compare_cutensor(const bench_case* c, const dtype_info* t, const bench_options* opt, bench_buffers* b,
                            bench_result* r)
{
    if (opt->alpha != 1.0 || opt->beta != 0.0) return 0;
    char why[256];
    cutensor_run run = {NULL, b->d_in, b->d_out};
    if (bench_cutensor_permute_create(b->ct, c->rank, c->extents, c->perm, t->type, &run.plan, why, sizeof why)) {
        fprintf(stderr, "case %ld: %s\n", r->index, why);
        return 0;
    }
    size_t bytes = (size_t)bench_case_volume(c) * t->size;
    int64_t mismatches = 0;
    bench_verify_report rep;
    int rc = run_and_check(run_cutensor, &run, c, t, 1.0, 0.0, b, bytes, &mismatches, &rep, why, sizeof why);
    if (rc) {
        fprintf(stderr, "case %ld: cuTENSOR: %s\n", r->index, why);
        rc = rc < 0 ? -1 : 0;
        goto out;
    }
    r->cutensor_verified = mismatches == 0;
    if (!r->cutensor_verified) fprintf(stderr, "case %ld: cuTENSOR's output differs: %s\n", r->index, rep.detail);
    bench_timing tm;
    if (bench_time_run(run_cutensor, &run, b->d_in, b->d_out, bytes, b->stream, opt->target_ms, &tm, why,
                       sizeof why) == 0) {
        r->cutensor_ms = tm.exec_ms;
        r->cutensor_pct_copy = 100.0 * tm.copy_ms / tm.exec_ms;
    } else {
        fprintf(stderr, "case %ld: timing cuTENSOR: %s\n", r->index, why);
        rc = cudaGetLastError() == cudaSuccess ? 0 : -1;
    }
out:
    bench_cutensor_plan_destroy(run.plan);
    return rc;
}

static bench_result new_result(const bench_suite* suite, const dtype_info* t, const char* mode,
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
    snprintf(r.config, sizeof r.config, "-");
    r.plan_us = r.single_use_ms = r.exec_ms = r.gbps = r.copy_ms = r.copy_gbps = r.pct_copy = NAN;
    r.memcpy_ms = r.copy_kernel_ms = NAN;
    r.heur_over_meas = r.cutensor_ms = r.cutensor_pct_copy = NAN;
    r.verified = r.cutensor_verified = r.graphs = -1;
    return r;
}

int bench_run_case(const bench_suite* suite, const bench_options* opt, const dtype_info* t,
                   long index, const bench_case* c, bench_buffers* b, bench_result* out, int* n_out)
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
    if (!fatal && b->ct && !heur.error[0] && !isnan(heur.exec_ms))
        fatal |= compare_cutensor(c, t, opt, b, &heur) != 0;
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

