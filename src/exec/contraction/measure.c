#include "exec/contraction/measure.h"

#include <stdlib.h>
#include <string.h>

#include "backend/cuda/cublaslt_gemm.h"
#include "backend/cuda/scratch_fill.h"
#include "backend/cuda/timer.h"
#include "core/error.h"
#include "plan/contraction/gett.h"
#include "plan/contraction/gett_cost.h"
#include "plan/contraction/gett_dtile.h"

enum { kSamples = 5 };

/* Each sample runs the contraction back to back for about the handle's ctrMeasureSampleMs (0.5 ms;
 * CUPERM_CTR_MEASURE_SAMPLE_MS): long enough that the host enqueues ahead of the GPU, as an
 * application running the plan repeatedly does. 0.05 ms samples (sessions <= 46) had left plans of
 * several short calls timed 1.2-1.4x slower than cuperm-bench's batches of >= 1 ms time them. */
#define MAX_INNER 256

typedef struct {
    cudaStream_t stream;
    cuperm_timer_t timer;
    int timerOpen;
    char* operand[3]; /* A, B, D scratch */
    char* ws;
} measure_env;

typedef struct {
    const cuperm_contraction_plan_t* plan;
    const measure_env* env;
    int step; /* -1: the whole plan, else only this step */
} measure_run;

static cupermStatus_t cuda_fail(cudaError_t e, const char* what)
{
    cudaGetLastError();
    return cuperm_fail_in("cupermPlanContraction", CUPERM_STATUS_CUDA_ERROR, "measuring layouts: %s failed: %s", what, cudaGetErrorString(e));
}

/* One run of a candidate on the scratch operands: all its steps, or (step >= 0) that step alone. */
static cupermStatus_t run_candidate(void* ctx, cudaStream_t stream)
{
    const measure_run* r = ctx;
    const double one[2] = {1.0, 0.0}, zero[2] = {0.0, 0.0};
    const cuperm_contraction_plan_t* c = r->plan;
    if (r->step < 0)
        return cuperm_ctr_plan_run(c, one, r->env->operand[0], r->env->operand[1], zero, NULL, r->env->operand[2],
                                   r->env->ws, stream);
    const cuperm_run_args_t args = {{r->env->operand[0], r->env->operand[1], NULL, r->env->operand[2]}, r->env->ws,
                                    {1.0, 0.0}, {0.0, 0.0}, 1, stream};
    return cuperm_steps_run(&c->steps[r->step], 1, c, &args);
}

/* Median of kSamples after a warm-up run (which also sizes the samples). */
static cupermStatus_t time_candidate(const cuperm_contraction_plan_t* c, measure_env* env, int step, double* seconds)
{
    measure_run r = {c, env, step};
    return cuperm_timer_median(&env->timer, run_candidate, &r, env->stream, kSamples,
                               (float)c->handle->ctrMeasureSampleMs, MAX_INNER, seconds);
}

/* Each step of candidate c alone (steps that do not apply to a beta = 0 run are not timed): o's
 * stepSeconds, and gemmSeconds its GEMM step's. */
static cupermStatus_t time_steps(const cuperm_contraction_plan_t* c, measure_env* env, cuperm_ctr_candidate_t* o)
{
    const cuperm_run_args_t beta0 = {{NULL, NULL, NULL, NULL}, NULL, {1.0, 0.0}, {0.0, 0.0}, 1, NULL};
    o->stepCount = c->stepCount;
    for (int i = 0; i < c->stepCount; ++i) {
        o->stepNames[i] = c->steps[i].name;
        o->stepSeconds[i] = -1.0;
        if (!cuperm_step_applies(&c->steps[i], &beta0)) continue;
        const cupermStatus_t st = time_candidate(c, env, i, &o->stepSeconds[i]);
        if (st) return st;
        if (c->steps[i].run == cuperm_ctr_step_gemm) o->gemmSeconds = o->stepSeconds[i];
    }
    return CUPERM_STATUS_SUCCESS;
}

static cupermStatus_t env_open(measure_env* env, const cuperm_contraction_plan_t* c, size_t wsBytes)
{
    memset(env, 0, sizeof *env);
    cudaError_t e = cudaStreamCreateWithFlags(&env->stream, cudaStreamNonBlocking);
    if (e != cudaSuccess) return cuda_fail(e, "cudaStreamCreateWithFlags");
    cupermStatus_t st = cuperm_timer_open(&env->timer, "cudaEventCreate (measuring contraction layouts)");
    if (st) return st;
    env->timerOpen = 1;
    static const int which[3] = {CTR_A, CTR_B, CTR_D};
    for (int i = 0; i < 3; ++i) {
        const size_t bytes = (size_t)c->spanBytes[which[i]];
        if ((e = cudaMallocAsync((void**)&env->operand[i], bytes, env->stream)) != cudaSuccess) {
            cudaGetLastError();
            return cuperm_fail_in("cupermPlanContraction", CUPERM_STATUS_ALLOC_FAILED, "measuring layouts: cudaMallocAsync of %zu bytes for "
                            "scratch %s failed: %s", bytes, cuperm_ctr_operand_name(which[i]), cudaGetErrorString(e));
        }
        /* Finite values whose bits vary (backend/cuda/scratch_fill.h: constant bytes misled the
         * choice among GEMM algorithms) */
        const cupermDataType_t t = c->problem.op[which[i]].type;
        const int real = (int)cupermDataTypeSize(t) / (t == CUPERM_C_32F || t == CUPERM_C_64F ? 2 : 1);
        if ((e = cuperm_scratch_fill(env->operand[i], bytes, real, (unsigned)i + 1, env->stream)) != cudaSuccess)
            return cuda_fail(e, "filling the scratch operands");
    }
    if ((e = cudaMallocAsync((void**)&env->ws, wsBytes, env->stream)) != cudaSuccess) {
        cudaGetLastError();
        return cuperm_fail_in("cupermPlanContraction", CUPERM_STATUS_ALLOC_FAILED, "measuring layouts: cudaMallocAsync of the %zu-byte "
                        "workspace failed: %s", wsBytes, cudaGetErrorString(e));
    }
    return CUPERM_STATUS_SUCCESS;
}

static cupermStatus_t env_close(measure_env* env)
{
    cudaError_t e = cudaSuccess;
    if (env->stream) {
        for (int i = 0; i < 3; ++i)
            if (env->operand[i]) cudaFreeAsync(env->operand[i], env->stream);
        if (env->ws) cudaFreeAsync(env->ws, env->stream);
        e = cudaStreamSynchronize(env->stream);
        cudaStreamDestroy(env->stream);
    }
    if (env->timerOpen) cuperm_timer_close(&env->timer);
    return e == cudaSuccess ? CUPERM_STATUS_SUCCESS : cuda_fail(e, "cudaStreamSynchronize");
}

/* The price model planning compares layout l at: TTGT its predicted device time, a GETT kernel its
 * model's time x the tuning's margin for it (plan/contraction/gett_cost.h). */
static double model_price(const cuperm_contraction_plan_t* c, const cuperm_ctr_layout_t* l)
{
    if (l->kind == CTR_KIND_TTGT) return l->inputSeconds + l->outputSeconds + l->gemmSeconds;
    const cuperm_handle_t* h = c->handle;
    double margin;
    const double s = cuperm_ctr_gett_kernel_seconds(&c->problem, l->dtile, h->tuning, h->dev.sm_count > 0 ? h->dev.sm_count : 1,
                                                    h->dev.dram_bytes_per_second, &margin);
    return s * margin;
}

cupermStatus_t cuperm_ctr_measure_candidates(const cuperm_contraction_plan_t* c, const cuperm_ctr_cost_model_t* model,
                                             int max, int withGett, int stepsAlone, cuperm_ctr_candidate_t* out,
                                             int* count)
{
    *count = 0;
    int device = -1;
    if (cudaGetDevice(&device) != cudaSuccess || device != c->device) {
        cudaGetLastError();
        return cuperm_fail_in("cupermPlanContraction", CUPERM_STATUS_INVALID_VALUE, "CUPERM_PLAN_MEASURE: the current device (%d) is not the "
                        "handle's (%d)", device, c->device);
    }
    cuperm_ctr_layout_t* layouts = malloc(sizeof *layouts * (size_t)(max + 2));
    cuperm_contraction_plan_t* cand = calloc((size_t)max + 2, sizeof *cand);
    if (!layouts || !cand) {
        free(layouts);
        free(cand);
        return cuperm_fail_in("cupermPlanContraction", CUPERM_STATUS_ALLOC_FAILED, "out of host memory");
    }
    /* The model's cheapest TTGT layouts, plus GETT when it can run the problem: the table kernel,
     * and the D-tile kernel where it takes the problem. */
    int n = cuperm_ctr_layout_rank(&c->problem, model, layouts, max);
    if (withGett && cuperm_ctr_gett_usable(c->handle, &c->problem)) {
        cuperm_ctr_gett_layout(&c->problem, 0, &layouts[n++]);
        cuperm_ctr_dtile_t dt;
        if (cuperm_ctr_dtile_choose(&c->problem, &dt)) cuperm_ctr_gett_layout(&c->problem, 1, &layouts[n++]);
    }
    cupermStatus_t st = CUPERM_STATUS_SUCCESS;
    int built = 0, firstBuilt = -1;
    size_t wsBytes = 0;
    for (int i = 0; i < n; ++i) {
        cuperm_ctr_candidate_t* o = &out[i];
        memset(o, 0, sizeof *o);
        o->layout = layouts[i];
        o->price = model_price(c, &layouts[i]);
        if (layouts[i].kind == CTR_KIND_TTGT) {
            cuperm_ctr_layout_gemm_shape(&c->problem, &layouts[i], &o->gemm);
            o->gemmFactor = cuperm_ctr_gemm_factor(&o->gemm);
        }
        cuperm_ctr_layout_describe(&c->problem, &layouts[i], o->description, sizeof o->description);
        cand[i] = *c;
        cand[i].layout = layouts[i];
        /* A candidate whose sub-plans cannot be made is not timed. */
        if (cuperm_ctr_plan_build(&cand[i]) == CUPERM_STATUS_SUCCESS) {
            o->timed = 1;
            if (built++ == 0) firstBuilt = i;
            if (cand[i].workspaceBytes > wsBytes) wsBytes = cand[i].workspaceBytes;
        }
    }
    if (built == 0) {
        st = cuperm_fail_in("cupermPlanContraction", CUPERM_STATUS_INTERNAL_ERROR, "CUPERM_PLAN_MEASURE: none of the model's %d cheapest "
                      "layouts could be planned", n);
    } else {
        measure_env env;
        st = env_open(&env, &cand[firstBuilt], wsBytes);
        for (int i = 0; i < n && !st; ++i) {
            if (!out[i].timed) continue;
            st = time_candidate(&cand[i], &env, -1, &out[i].seconds);
            if (!st && stepsAlone && layouts[i].kind == CTR_KIND_TTGT) st = time_steps(&cand[i], &env, &out[i]);
        }
        const cupermStatus_t closed = env_close(&env);
        if (!st) st = closed;
    }
    for (int i = 0; i < n; ++i)
        if (out[i].timed) cuperm_ctr_plan_release(&cand[i]);
    free(layouts);
    free(cand);
    *count = st ? 0 : n;
    return st;
}

/* The step of built plan c that runs its GEMM; -1 if none. */
static int gemm_step(const cuperm_contraction_plan_t* c)
{
    for (int i = 0; i < c->stepCount; ++i)
        if (c->steps[i].run == cuperm_ctr_step_gemm) return i;
    return -1;
}

/* A one-call TTGT GEMM's cuBLASLt algorithm. cuBLASLt's heuristic ranks algorithms without running
 * them, and its first is not always the fastest (H200, TCCG48 f16: the best of its first four 1.04x
 * faster by geomean, up to 1.43x: bench/results/contraction/lt-algos-h200/). Each of its answers
 * is timed on the GEMM step alone and the fastest kept in c->layout.ltAlgo (answer number + 1). */
static cupermStatus_t measure_lt(cuperm_contraction_plan_t* c)
{
    if (c->layout.kind != CTR_KIND_TTGT || c->layout.calls != 1) return CUPERM_STATUS_SUCCESS;
    cuperm_contraction_plan_t* cand = calloc(CTR_LT_ALGOS, sizeof *cand);
    if (!cand) return cuperm_fail_in("cupermPlanContraction", CUPERM_STATUS_ALLOC_FAILED, "out of host memory");
    int built = 0, answers = CTR_LT_ALGOS;
    size_t wsBytes = 0;
    for (int k = 0; k < answers; ++k) {
        cand[k] = *c;
        cand[k].layout.ltAlgo = k + 1;
        if (cuperm_ctr_plan_build(&cand[k]) != CUPERM_STATUS_SUCCESS) { /* not timed: the answers so far */
            answers = k;
            break;
        }
        ++built;
        if (!cand[k].gemm.lt.ready || gemm_step(&cand[k]) < 0) answers = 0; /* no algorithm: cublasGemmEx */
        else if (cand[k].gemm.lt.found < answers) answers = cand[k].gemm.lt.found;
        if (cand[k].workspaceBytes > wsBytes) wsBytes = cand[k].workspaceBytes;
    }
    cupermStatus_t st = CUPERM_STATUS_SUCCESS;
    if (answers > 1) {
        measure_env env;
        double best = -1;
        st = env_open(&env, &cand[0], wsBytes);
        for (int k = 0; k < answers && !st; ++k) {
            double s;
            if ((st = time_candidate(&cand[k], &env, gemm_step(&cand[k]), &s))) break;
            if (best < 0 || s < best) {
                best = s;
                c->layout.ltAlgo = k + 1;
            }
        }
        const cupermStatus_t closed = env_close(&env);
        if (!st) st = closed;
    }
    for (int k = 0; k < built; ++k) cuperm_ctr_plan_release(&cand[k]);
    free(cand);
    return st;
}

cupermStatus_t cuperm_ctr_measure_choose(cuperm_contraction_plan_t* c, const cuperm_ctr_cost_model_t* model,
                                         int withGett)
{
    cuperm_ctr_candidate_t* cand = malloc(sizeof *cand * (CTR_MEASURE_CANDIDATES + 2));
    if (!cand) return cuperm_fail_in("cupermPlanContraction", CUPERM_STATUS_ALLOC_FAILED, "out of host memory");
    int n = 0;
    const cupermStatus_t st = cuperm_ctr_measure_candidates(c, model, CTR_MEASURE_CANDIDATES, withGett, 0, cand, &n);
    double best = -1;
    for (int i = 0; i < n; ++i)
        if (cand[i].timed && (best < 0 || cand[i].seconds < best)) {
            best = cand[i].seconds;
            c->layout = cand[i].layout;
            c->measuredSeconds = cand[i].seconds; /* the caller builds the winner again */
        }
    free(cand);
    return st ? st : measure_lt(c);
}
