/* Times every candidate launch of each case on the GPU: the data that ranks
 * them (tools/model/fit_model.py). Cases on stdin as for cuperm-plan-features;
 * prints "case,candidate,seconds,copy_seconds,same,pipelined" per candidate. Each candidate is timed by
 * the benchmark's harness (tools/bench/timing.c): batches of runs replayed as CUDA graphs, so a
 * tensor that fits in L2 is timed on the GPU and not at the host's launch rate, against the
 * faster of a cudaMemcpyAsync and a copy kernel of the same bytes in the same batches.
 *   cuperm-bench ttc57 --list | sed 's/^/8 /' | cuperm-candidate-times [TARGET_MS [axpby]]
 * (TARGET_MS: timing budget per candidate, 15 by default.) The input holds random bytes and the
 * output is poisoned before each batch; "same" is 1 where a candidate's output, from a run of its
 * own after the timing (whose batches may end with a reference copy), equals, byte for byte, that
 * of the case's element launch (the planner's unpacked launch, run once with the
 * element's own size: independent of packing, which the candidates of a packed case all use), 0
 * otherwise, with the case named on stderr. Candidates run with a type of their launch's element
 * size (the packed width where the case packs). "axpby" times out = 2 in + 0.5 out instead, in the
 * floating type of the element's size (f32, f64, c64): the kernels' AxpbyOp forms, which read the
 * output; a batch's runs then compound, so "same" is not checked there and printed as -1. It
 * needs CUPERM_MODEL_UNPACKED=1 (case_line.h: packing moves bits, arithmetic needs the elements).
 * With CUPERM_CANDIDATES=runs, only the runs form of whole-dims launches is timed (an A/B of its kernel). */
#include <cuda_runtime_api.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "case_line.h"
#include "timing.h"
#include "core/scalars.h"
#include "exec/transpose/measure.h"

typedef struct {
    const cuperm_launch_t* launch;
    const void* in;
    void* out;
    cupermDataType_t type;
    cuperm_scalars_t scalars;
} move_run;

/* The type and scalars a case's candidates run with: a plain move (scalars 1 and 0: bits move,
 * whatever the type), or with axpby out = 2 in + 0.5 out in the floating type of the element's size
 * (f32, f64, c64). 0 where axpby has no type of that size. */
static int move_scalars(int elem, int axpby, cupermDataType_t* type, cuperm_scalars_t* s)
{
    *s = (cuperm_scalars_t){.plain = 1};
    *type = cuperm_bits_type(elem);
    if (!axpby) return 1;
    if (elem != 4 && elem != 8 && elem != 16) return 0;
    const double alpha[2] = {2, 0}, beta[2] = {0.5, 0};
    const float alpha_f = 2, beta_f = 0.5f;
    *type = elem == 4 ? CUPERM_R_32F : elem == 8 ? CUPERM_R_64F : CUPERM_C_64F;
    cuperm_read_scalars(*type, elem == 4 ? (const void*)&alpha_f : alpha, elem == 4 ? (const void*)&beta_f : beta, s);
    return 1;
}

/* One move of a candidate. */
static int run_move(void* ctx, cudaStream_t s, char* why, size_t why_size)
{
    const move_run* m = ctx;
    if (cuperm_launch_plan(m->launch, m->type, &m->scalars, m->in, m->out, s) == CUPERM_STATUS_SUCCESS)
        return 0;
    snprintf(why, why_size, "%s", cupermGetLastErrorMessage());
    return -1;
}

/* The input's bytes: random, so that a misplaced element shows. */
static int fill_random(void* d, size_t bytes)
{
    unsigned char* h = malloc(bytes);
    if (!h) return 1;
    uint64_t x = 0x9e3779b97f4a7c15ull;
    for (size_t i = 0; i < bytes; ++i) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        h[i] = (unsigned char)(x >> 24);
    }
    const int err = cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice) != cudaSuccess;
    free(h);
    return err;
}

int main(int argc, char** argv)
{
    const double target_ms = argc > 1 ? atof(argv[1]) : 15.0;
    const int axpby = argc > 2 && !strcmp(argv[2], "axpby");
    if (!(target_ms >= 1 && target_ms <= 1000) || (argc > 2 && !axpby) || argc > 3) {
        fprintf(stderr, "usage: %s [TARGET_MS 1..1000 [axpby]] < cases\n", argv[0]);
        return 2;
    }
    const char* only = getenv("CUPERM_CANDIDATES");
    const int runs_only = only && !strcmp(only, "runs");
    cudaStream_t stream;
    if (cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking) != cudaSuccess) {
        fprintf(stderr, "cuperm-candidate-times: no stream (no GPU?)\n");
        return 1;
    }
    void *in = NULL, *out = NULL;
    unsigned char *first = NULL, *got = NULL; /* the element launch's output and a candidate's, on the host */
    size_t capacity = 0;
    model_case c;
    int r, index = 0, differ = 0;
    printf("case,candidate,seconds,copy_seconds,same,pipelined\n");
    while ((r = model_read_case(stdin, &c)) == 1) {
        const size_t bytes = (size_t)c.base->volume * (size_t)c.base->elem_size;
        if (bytes > capacity) {
            cudaFree(in);
            cudaFree(out);
            free(first);
            free(got);
            first = malloc(bytes), got = malloc(bytes);
            if (cudaMalloc(&in, bytes) != cudaSuccess || cudaMalloc(&out, bytes) != cudaSuccess || !first || !got ||
                fill_random(in, bytes)) {
                fprintf(stderr, "cuperm-candidate-times: cannot allocate 2 x %zu bytes for %s\n", bytes, c.text);
                return 1;
            }
            capacity = bytes;
        }
        move_run m = {NULL, in, out, 0, {0}};
        if (!move_scalars(c.base->elem_size, axpby, &m.type, &m.scalars) || (axpby && !model_unpacked())) {
            fprintf(stderr, "cuperm-candidate-times: %s: axpby times elements of 4, 8 or 16 bytes, with "
                    "CUPERM_MODEL_UNPACKED=1\n", c.text);
            return 2;
        }
        /* the reference: the element launch (unpacked) with the element's own size, once */
        const cuperm_scalars_t plain = {.plain = 1};
        if (!axpby && (cudaMemsetAsync(out, 0xA5, bytes, stream) != cudaSuccess ||
                       cuperm_launch_plan(&c.plan.launch, cuperm_bits_type(c.elem), &plain, in, out, stream) ||
                       cudaStreamSynchronize(stream) != cudaSuccess || /* cudaMemcpy would not wait for it */
                       cudaMemcpy(first, out, bytes, cudaMemcpyDeviceToHost) != cudaSuccess)) {
            fprintf(stderr, "cuperm-candidate-times: %s: the element launch failed: %s\n", c.text,
                    cupermGetLastErrorMessage());
            return 1;
        }
        cuperm_launch_t cand[MODEL_MAX_CANDIDATES];
        int n = model_candidates(&c, cand, MODEL_MAX_CANDIDATES);
        for (int i = 0; i < n; ++i) {
            if (runs_only && !(cand[i].kind == CUPERM_LAUNCH_WHOLE_DIMS && cand[i].tile.wd_span == 3)) continue;
            m.launch = &cand[i];
            bench_timing t;
            char err[512];
            /* checked on a run of its own: the timing's batches end with either part (the reference
             * copies write the output too) */
            if (bench_time_run(run_move, &m, in, out, bytes, stream, target_ms, &t, err, sizeof err) ||
                (!axpby && (cudaMemsetAsync(out, 0xA5, bytes, stream) != cudaSuccess ||
                            run_move(&m, stream, err, sizeof err) || cudaStreamSynchronize(stream) != cudaSuccess ||
                            cudaMemcpy(got, out, bytes, cudaMemcpyDeviceToHost) != cudaSuccess))) {
                fprintf(stderr, "cuperm-candidate-times: %s: candidate %d: %s\n", c.text, i, err);
                return 1;
            }
            const int same = axpby ? -1 : !memcmp(first, got, bytes);
            if (!same) {
                fprintf(stderr, "cuperm-candidate-times: case %d (%s): candidate %d wrote other bytes than "
                        "the element launch\n", index, c.text, i);
                ++differ;
            }
            printf("%d,%d,%.9g,%.9g,%d,%d\n", index, i, 1e-3 * t.exec_ms, 1e-3 * t.copy_ms, same,
                   cand[i].tile.pipelined);
        }
        fflush(stdout);
        ++index;
    }
    cudaFree(in);
    cudaFree(out);
    free(first);
    free(got);
    cudaStreamDestroy(stream);
    return r < 0 ? 2 : differ ? 3 : 0;
}
