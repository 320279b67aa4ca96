/* Times every candidate that contraction measure mode would time, and more of them, on the GPU: the
 * data that checks and fits the contraction cost model (tools/model/ctr_candidates.py).
 *   cuperm-bench tccg48 --list > cases.txt
 *   cuperm-ctr-candidate-times cases.txt [--dtype f16|bf16|f32|f64|c32|c64] [--max N] [--no-gett]
 * Per case: the model's N (default 16) cheapest distinct TTGT layouts, then the GETT kernels that
 * can run it, each built and timed by the library's measure-mode harness
 * (exec/contraction/measure.c: warm-up, median of 5 samples of >= 50 us, CUDA events, scratch
 * operands of finite varied values: backend/cuda/scratch_fill.h), each step of the TTGT ones also on its own (the steps column, with the
 * model's price of each input's transpose and K-padding zeroing beside it). One CSV row per candidate:
 * cand 0 is model planning's TTGT choice; model_choice says what model planning takes, GETT included.
 * cuBLASLt algorithms are chosen at planning (CUPERM_LT_AFTER_RUNS=0), as a plan runs after its
 * first runs. Outputs are not checked here: the GPU tests and cuperm-bench check every plan kind. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "contraction_cases.h"
#include "exec/contraction/measure.h"
#include "exec/contraction/plan.h"
#include "exec/handle.h"

static bench_ctr_case cases[BENCH_CTR_MAX_CASES];

static char* read_text(const char* path)
{
    FILE* f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
    if (!f) return NULL;
    size_t size = 0, cap = 1 << 16;
    char* s = malloc(cap);
    for (size_t got; s && (got = fread(s + size, 1, cap - size - 1, f)) > 0;) {
        size += got;
        if (size + 1 == cap) s = realloc(s, cap *= 2);
    }
    if (s) s[size] = 0;
    if (f != stdin) fclose(f);
    return s;
}

static int parse_type(const char* name, cupermDataType_t* type)
{
    static const struct {
        const char* name;
        cupermDataType_t type;
    } types[] = {{"f16", CUPERM_R_16F}, {"bf16", CUPERM_R_16BF}, {"f32", CUPERM_R_32F},
                 {"f64", CUPERM_R_64F}, {"c32", CUPERM_C_32F},   {"c64", CUPERM_C_64F}};
    for (size_t t = 0; t < sizeof types / sizeof types[0]; ++t)
        if (!strcmp(name, types[t].name)) {
            *type = types[t].type;
            return 0;
        }
    return -1;
}

static const char* const in_paths[] = {"direct", "transpose", "elementwise"};
static const char* const out_paths[] = {"direct", "transpose", "epilogue"};

/* A TTGT candidate's model prices per input (its transpose, its K padding's zeroing), its
 * transposes' shared fastest runs (cuperm_ctr_transpose_shared_run_bytes; 0: none or no transpose)
 * and each of its steps' measured time alone:
 * "pred_a_us,pred_b_us,pred_zero_us,zero_kinds,run_a_bytes,run_b_bytes,run_out_bytes,steps," (steps
 * "name=us;..."). */
static void print_parts(const cuperm_ctr_problem_t* p, const cuperm_ctr_cost_model_t* model, const cuperm_ctr_candidate_t* c)
{
    static const char* const zeroNames[] = {"none", "memset2d", "slice"};
    const cuperm_ctr_layout_t* l = &c->layout;
    double zero = 0.0, run[3] = {0.0, 0.0, 0.0};
    int kinds[2] = {0, 0};
    cuperm_ctr_transpose_t t;
    if (l->out != CTR_OUT_DIRECT) { /* the transpose W -> D (also the epilogue's) */
        cuperm_ctr_layout_output_transpose(p, l, &t);
        run[2] = cuperm_ctr_transpose_shared_run_bytes(&t);
    }
    for (int x = 0; x < 2; ++x) {
        double s = 0.0;
        if (l->in[x].path != CTR_IN_DIRECT) {
            cuperm_ctr_layout_input_transpose(p, l, x, &t);
            s = model->transpose_seconds(model->ctx, &t);
            run[x] = cuperm_ctr_transpose_shared_run_bytes(&t);
        }
        cuperm_ctr_zero_t z;
        kinds[x] = cuperm_ctr_layout_zero(l, p, x, model, &z);
        zero += z.seconds;
        printf("%.3f,", 1e6 * s);
    }
    printf("%.3f,%s/%s,%.0f,%.0f,%.0f,\"", 1e6 * zero, zeroNames[kinds[0]], zeroNames[kinds[1]], run[0], run[1], run[2]);
    for (int i = 0, first = 1; i < c->stepCount; ++i)
        if (c->stepSeconds[i] >= 0) {
            printf("%s%s=%.3f", first ? "" : ";", c->stepNames[i], 1e6 * c->stepSeconds[i]);
            first = 0;
        }
    printf("\",");
}

static void print_candidate(const bench_ctr_case* bc, int i, const cuperm_ctr_candidate_t* c, const char* choice,
                            const cuperm_ctr_problem_t* p, const cuperm_ctr_cost_model_t* model)
{
    const cuperm_ctr_layout_t* l = &c->layout;
    const cuperm_ctr_gemm_shape_t* g = &c->gemm;
    const int ttgt = l->kind == CTR_KIND_TTGT;
    const cuperm_ctr_input_layout_t* first = &l->in[l->swapped ? CTR_B : CTR_A];
    const cuperm_ctr_input_layout_t* second = &l->in[l->swapped ? CTR_A : CTR_B];
    printf("%d,%s,%d,%s,%s,%.3f,%.3f,%.3f,%.3f,", bc->id, bc->spec, i, !ttgt ? (l->dtile ? "dtile" : "gett") : "ttgt",
           choice, 1e6 * c->price, 1e6 * l->inputSeconds, 1e6 * l->outputSeconds, 1e6 * l->gemmSeconds);
    if (ttgt)
        printf("%lld,%lld,%lld,%lld,%lld,%c,%c,%d,%d,%d,%d,%lld,%lld,%lld,%lld,%lld,%lld,%s,%s,%s,", (long long)g->m,
               (long long)g->n, (long long)g->k, (long long)g->batch, (long long)g->calls, g->opFirst, g->opSecond,
               g->firstShared, g->secondShared, g->pointers, l->swapped, (long long)first->ld, (long long)second->ld,
               (long long)l->ldD, (long long)first->batchStride, (long long)second->batchStride,
               (long long)l->batchStrideD, in_paths[l->in[CTR_A].path], in_paths[l->in[CTR_B].path], out_paths[l->out]);
    else
        printf("%lld,%lld,%lld,%lld,1,,,,,,,,,,,,,,,,", (long long)l->m, (long long)l->n, (long long)l->k,
               (long long)l->batch);
    if (c->timed) printf("%.3f,%.3f,", 1e6 * c->seconds, 1e6 * c->gemmSeconds);
    else printf(",,");
    if (ttgt) {
        printf("%.5f,", c->gemmFactor);
        print_parts(p, model, c);
    } else {
        printf(",,,,,,,,,");
    }
    printf("\"%s\"\n", c->description);
}

int main(int argc, char** argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s CASES|- [--dtype f16|bf16|f32|f64|c32|c64] [--max N] [--no-gett]\n", argv[0]);
        return 2;
    }
    cupermDataType_t type = CUPERM_R_16F;
    int max = 16, withGett = 1;
    for (int i = 2; i < argc; ++i) {
        if (!strcmp(argv[i], "--no-gett")) withGett = 0;
        else if (i + 1 < argc && !strcmp(argv[i], "--max")) max = atoi(argv[++i]);
        else if (i + 1 < argc && !strcmp(argv[i], "--dtype")) {
            if (parse_type(argv[++i], &type)) {
                fprintf(stderr, "unknown --dtype %s (f16, bf16, f32, f64, c32, c64)\n", argv[i]);
                return 2;
            }
        } else {
            fprintf(stderr, "unknown argument %s\n", argv[i]);
            return 2;
        }
    }
    if (max < 1 || max > 64) {
        fprintf(stderr, "--max takes 1 to 64\n");
        return 2;
    }
    char* text = read_text(argv[1]);
    char err[256] = "cannot read it";
    const int n = text ? bench_ctr_parse(text, cases, BENCH_CTR_MAX_CASES, err, sizeof err) : -1;
    free(text);
    if (n < 0) {
        fprintf(stderr, "%s: %s\n", argv[1], err);
        return 1;
    }
    setenv("CUPERM_LT_AFTER_RUNS", "0", 1); /* read by cupermCreate */
    cupermHandle_t token;
    if (cupermCreate(&token)) {
        fprintf(stderr, "cupermCreate: %s\n", cupermGetLastErrorMessage());
        return 3;
    }
    cuperm_handle_t* h = cuperm_handle_resolve(token);
    const cuperm_ctr_cost_model_t model = cuperm_ctr_device_model(h);
    cuperm_ctr_candidate_t* cand = malloc(sizeof *cand * (size_t)(max + 2));
    cuperm_contraction_plan_t* plan = malloc(sizeof *plan);
    if (!cand || !plan) return 1;
    printf("id,spec,cand,kind,model_choice,price_us,pred_in_us,pred_out_us,pred_gemm_us,m,n,k,batch,calls,op_first,op_second,"
           "first_shared,second_shared,pointers,swapped,ld_first,ld_second,ld_d,batch_stride_first,"
           "batch_stride_second,batch_stride_d,path_a,path_b,path_d,measured_us,gemm_us,gemm_factor,pred_a_us,pred_b_us,"
           "pred_zero_us,zero_kinds,run_a_bytes,run_b_bytes,run_out_bytes,steps,description\n");
    int failed = 0;
    for (int c = 0; c < n; ++c) {
        bench_ctr_modes md;
        bench_ctr_modes_of(&cases[c], &md);
        cupermTensorDescriptor_t d[4];
        for (int k = 0; k < 4; ++k)
            d[k] = (cupermTensorDescriptor_t){md.rank[k], md.modes[k], md.extents[k], NULL, type, CUPERM_OP_IDENTITY, 0};
        memset(plan, 0, sizeof *plan);
        int count = 0;
        if (cuperm_ctr_plan_make(h, &d[0], &d[1], &d[2], &d[3], CUPERM_COMPUTE_DEFAULT, CUPERM_PLAN_MODEL,
                                 CUPERM_ALGO_DEFAULT, plan) ||
            cuperm_ctr_measure_candidates(plan, &model, max, withGett, 1, cand, &count)) {
            fprintf(stderr, "case %d %s: %s\n", cases[c].id, cases[c].spec, cupermGetLastErrorMessage());
            ++failed;
            continue;
        }
        for (int i = 0; i < count; ++i) {
            const cuperm_ctr_layout_t* a = &cand[i].layout;
            const cuperm_ctr_layout_t* b = &plan->layout;
            /* model planning's choice: the TTGT winner (cand 0) or a GETT kernel */
            const int chosen = a->kind == b->kind && (a->kind == CTR_KIND_TTGT ? i == 0 : a->dtile == b->dtile);
            print_candidate(&cases[c], i, &cand[i], chosen ? "1" : "0", &plan->problem, &model);
        }
        fflush(stdout);
        cuperm_ctr_plan_release(plan);
        cuperm_handle_release(h);
    }
    free(cand);
    free(plan);
    cupermDestroy(token);
    return failed ? 1 : 0;
}
