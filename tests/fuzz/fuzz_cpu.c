/* cuperm-fuzz --cpu: no GPU. Plans each contraction with the library's own planner
 * (a mock cost model), executes every ranked candidate layout (up to 8) step by step
 * on the CPU (ctr_cpu_exec: transposes, strided or pointer-array batched GEMM with
 * cuBLAS's flags, output path) in complex double, and checks each against the
 * reference with the same checker and footprint check as the GPU runner. */
#include <stdlib.h>
#include <string.h>

#include "contraction/ctr_cpu_exec.h"
#include "plan/contraction/layout.h"
#include "fuzz/fuzz.h"
#include "support/poison.h"

static void report(const fuzz_ctr_case* k, fuzz_stats* s, const char* what, const char* detail, const char* layout)
{
    s->failed++;
    if (s->failed > s->maxReports && !s->fatal) return;
    fuzz_print_repro(stdout, k->name ? "regression" : "contraction", k->seed, k->index, 1);
    printf("  FAILED: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
    fuzz_ctr_describe(stdout, k);
    if (layout) printf("    layout: %s\n", layout);
    fflush(stdout);
}

void fuzz_cpu_contraction(const fuzz_ctr_case* k, fuzz_stats* s)
{
    fuzz_ctr_data d;
    fuzz_ctr_prepare(k, &d);
    const cupermTensorDescriptor_t* desc = k->c.desc;
    cuperm_ctr_problem_t p;
    char msg[1024], how[1024];
    cuperm_ctr_layout_t best[8];
    ctr_cplx* work = NULL;
    const cupermStatus_t rc = cuperm_ctr_problem_init(&p, &desc[0], &desc[1], &desc[2], &desc[3], k->compute);
    if (rc != CUPERM_STATUS_SUCCESS) {
        snprintf(msg, sizeof msg, "%s: %s", cupermGetErrorString(rc), cupermGetLastErrorMessage());
        s->fatal = 1;
        report(k, s, "cuperm_ctr_problem_init rejected a valid problem", msg, NULL);
        goto done;
    }
    rng_t prices = {k->dataSeed ^ 0x9e3779b97f4a7c15ull};
    ctr_mock_prices ctx = {(k->index & 1) ? &prices : NULL};
    /* the mock's fixed prices are 5 us + bytes / 2e12: its floor (random prices: none) */
    cuperm_ctr_cost_model_t m = {ctr_mock_transpose_seconds, &ctx, 2e12, {50e12, 50e12, 400e12, 800e12}, NULL,
                                 {0, 10e-9, 0, 2e-9}, 132, ctx.random ? 0 : 5e-6, ctx.random ? 0 : 2e12, 0, 0, 0.65e-9};
    const int n = cuperm_ctr_layout_rank(&p, &m, best, 8);
    if (n < 1) {
        s->fatal = 1;
        report(k, s, "cuperm_ctr_layout_rank found no layout for a valid problem", NULL, NULL);
        goto done;
    }
    s->pointerBatched += best[0].calls > 1;
    s->transposedA += best[0].in[CTR_A].path != CTR_IN_DIRECT;
    s->transposedB += best[0].in[CTR_B].path != CTR_IN_DIRECT;
    s->transposedD += best[0].out != CTR_OUT_DIRECT;
    s->layouts += n;
    const fuzz_precision prec = fuzz_precision_double();
    const fuzz_buffer* D = &d.buf[3];
    const int64_t ge = FUZZ_GUARD / (int64_t)sizeof(ctr_cplx);
    const size_t allocBytes = (size_t)(D->n + 2 * ge) * sizeof(ctr_cplx);
    work = malloc(allocBytes);
    for (int i = 0; i < n; ++i) {
        memcpy(work, D->valuesAlloc, allocBytes);
        ctr_cplx* dv = work + ge + k->base[3];
        const ctr_cplx* cv = k->aliasCD ? dv : d.buf[2].values + k->base[2];
        ctr_cpu_execute(&p, &best[i], d.buf[0].values + k->base[0], d.buf[1].values + k->base[1], cv, dv, k->alpha,
                        k->beta);
        cuperm_ctr_layout_describe(&p, &best[i], how, sizeof how);
        int64_t where;
        if (poison_changed_outside((const unsigned char*)D->valuesAlloc, (const unsigned char*)work, allocBytes,
                           (size_t)(ge + k->base[3]) * sizeof(ctr_cplx), sizeof(ctr_cplx), d.mask, d.spanD, &where)) {
            const int64_t e = where >= 0 ? where / 16 : -((-where + 15) / 16);
            snprintf(msg, sizeof msg, "candidate %d of %d wrote D offset %lld (%s)", i, n, (long long)e,
                     e < 0 || e >= d.spanD ? "outside D's span" : "a hole inside D's span");
            report(k, s, "write outside D's elements", msg, how);
            goto done;
        }
        char first[700];
        const int64_t bad = fuzz_check_values(k, &d, &prec, dv, first, sizeof first);
        if (bad) {
            snprintf(msg, sizeof msg, "candidate %d of %d: %lld wrong elements; first %s", i, n, (long long)bad, first);
            report(k, s, "wrong values", msg, how);
            goto done;
        }
    }
    s->passed++;
done:
    free(work);
    fuzz_ctr_release(&d);
}
