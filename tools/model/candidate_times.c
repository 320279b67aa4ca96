/* Times every candidate launch of each case on the GPU: the data that ranks
 * them (tools/model/fit_model.py). Cases on stdin as for cuperm-plan-features;
 * prints "case,candidate,seconds,copy_seconds" per candidate, the copy being a
 * device-to-device cudaMemcpyAsync of the same bytes timed right after it.
 *   cuperm-bench ttc57 --list | sed 's/^/8 /' | cuperm-candidate-times [REPEATS]
 * Buffers are filled with a non-zero byte pattern: plain moves do not look at values. */
#include <cuda_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>

#include "case_line.h"
#include "support/timer.h"
#include "exec/transpose/measure.h"

typedef struct {
    void* dst;
    const void* src;
    size_t bytes;
} copy_run;

static int run_copy(void* ctx, cudaStream_t s)
{
    const copy_run* c = ctx;
    return cudaMemcpyAsync(c->dst, c->src, c->bytes, cudaMemcpyDeviceToDevice, s) != cudaSuccess;
}

/* Median seconds of one copy over `repeats` (one warm-up copy first); -1e-3 on error. */
static double copy_seconds(void* dst, const void* src, size_t bytes, int repeats)
{
    copy_run c = {dst, src, bytes};
    const timer_options o = {1, 0, 0, repeats, repeats, NULL};
    double ms;
    timer_median_ms(run_copy, &c, 0, &o, &ms);
    return ms * 1e-3;
}

int main(int argc, char** argv)
{
    int repeats = argc > 1 ? atoi(argv[1]) : 9;
    if (repeats < 1 || repeats > 64) {
        fprintf(stderr, "usage: %s [REPEATS 1..64] < cases\n", argv[0]);
        return 2;
    }
    void *in = NULL, *out = NULL;
    size_t capacity = 0;
    model_case c;
    int r, index = 0;
    printf("case,candidate,seconds,copy_seconds\n");
    while ((r = model_read_case(stdin, &c)) == 1) {
        const size_t bytes = (size_t)c.base->volume * (size_t)c.base->elem_size;
        if (bytes > capacity) {
            cudaFree(in);
            cudaFree(out);
            if (cudaMalloc(&in, bytes) != cudaSuccess || cudaMalloc(&out, bytes) != cudaSuccess) {
                fprintf(stderr, "cuperm-candidate-times: cannot allocate 2 x %zu bytes for %s\n", bytes, c.text);
                return 1;
            }
            capacity = bytes;
            cudaMemset(in, 0x5a, bytes);
        }
        cuperm_launch_t cand[MODEL_MAX_CANDIDATES];
        int n = model_candidates(&c, cand, MODEL_MAX_CANDIDATES);
        for (int i = 0; i < n; ++i) {
            double t = 0;
            if (cuperm_time_launch(&cand[i], cuperm_bits_type(cand[i].elem_size), in, out, 0, repeats, &t)) {
                fprintf(stderr, "cuperm-candidate-times: %s: %s\n", c.text, cupermGetLastErrorMessage());
                return 1;
            }
            printf("%d,%d,%.9g,%.9g\n", index, i, t, copy_seconds(out, in, bytes, repeats));
        }
        fflush(stdout);
        ++index;
    }
    cudaFree(in);
    cudaFree(out);
    return r < 0 ? 2 : 0;
}
