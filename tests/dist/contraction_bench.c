/* cuperm-dist-test --bench: distributed contractions' parallel efficiency against one GPU. */
#include <string.h>

#include "dist_parts.h"
#include "harness.h"

/* ---- distributed contraction benchmark: parallel efficiency against one GPU ---------- */
/* D[a,b,c,d] = A[a,e,b,f] B[e,c,f,d] (f32, m = a*b, n = c*d, k = e*f), D distributed along
 * one mode over every GPU, A and B along the modes named below. Efficiency = T1 / (G * TG),
 * T1 the same contraction (model plan) on GPU 0 alone, TG the slowest rank's time per
 * distributed execute (CUDA events, median of iters after warm-up). */
typedef struct {
    const char* name;
    int32_t modes[3][4];
    int64_t ext[3][4];
    int dist_mode[3];
    int iters;
    cupermDistOverlap_t overlap; /* the plan's options */
    int rounds;
    double ms[MAXG];
    double half_ms[MAXG]; /* the rank's local contraction alone, every GPU at once (no communication) */
    double ws_ms[MAXG];   /* the distributed execute with a workspace allocated once (ms: NULL workspace) */
    int64_t half_ext[3][4];
    cupermStatus_t st[MAXG];
    char msg[MAXG][256];
    cupermDistContractionInfo_t info[MAXG];
} ctr_bench_t;

static int cmp_double(const void* a, const void* b)
{
    const double x = *(const double*)a, y = *(const double*)b;
    return x < y ? -1 : x > y;
}

/* Device memory of n floats holding small pseudo-random values (never zeros). */
static float* random_floats(int64_t n, uint64_t seed)
{
    float* h = malloc((size_t)n * sizeof(float));
    for (int64_t i = 0; i < n; ++i) h[i] = (float)(((uint64_t)i * 2654435761u + seed) % 1000) / 1000.0f + 0.25f;
    float* d = NULL;
    CK(cudaMalloc((void**)&d, (size_t)n * sizeof(float)));
    dt_upload(d, h, (size_t)n * sizeof(float));
    free(h);
    return d;
}

static double time_loop(cudaStream_t s, int iters, int (*run)(void*), void* arg)
{
    double t[64];
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    for (int w = 0; w < 2; ++w)
        if (run(arg)) return -1;
    for (int i = 0; i < iters; ++i) {
        CK(cudaEventRecord(e0, s));
        if (run(arg)) return -1;
        CK(cudaEventRecord(e1, s));
        CK(cudaEventSynchronize(e1));
        float ms;
        CK(cudaEventElapsedTime(&ms, e0, e1));
        t[i] = ms;
    }
    cudaEventDestroy(e0);
    cudaEventDestroy(e1);
    qsort(t, (size_t)iters, sizeof t[0], cmp_double);
    return t[iters / 2];
}

typedef struct {
    cupermDistContractionPlan_t dplan;
    cupermContractionPlan_t plan;
    float *a, *b, *d;
    void* ws;
    size_t wsBytes;
    cudaStream_t s;
} ctr_run_t;
static int run_dist(void* p)
{
    ctr_run_t* x = p;
    const float one = 1, zero = 0;
    return cupermDistContract(x->dplan, &one, x->a, x->b, &zero, NULL, x->d, x->ws, x->wsBytes, x->s) !=
           CUPERM_STATUS_SUCCESS;
}
static int run_local(void* p)
{
    ctr_run_t* x = p;
    const float one = 1, zero = 0;
    return cupermContract(x->plan, &one, x->a, x->b, &zero, NULL, x->d, NULL, 0, x->s) != CUPERM_STATUS_SUCCESS;
}

static void ctr_bench_rank(int r, void* arg)
{
    ctr_bench_t* c = arg;
    cupermDistTensorDescriptor_t d[3];
    int gdim = dt_G;
    for (int t = 0; t < 3; ++t)
        d[t] = (cupermDistTensorDescriptor_t){4, c->ext[t], CUPERM_R_32F, 1, &c->dist_mode[t], &gdim, NULL, NULL};
    ctr_run_t x = {0};
    x.s = dt_R[r].stream;
    const cupermDistContractionOptions_t opt = {c->overlap, 0, 0, c->rounds};
    c->st[r] = cupermDistPlanContractionWithOptions(dt_R[r].handle, &x.dplan, &d[0], c->modes[0], &d[1], c->modes[1],
                                                    &d[2], c->modes[2], CUPERM_COMPUTE_DEFAULT, &opt, dt_R[r].comm,
                                                    x.s);
    if (c->st[r]) {
        snprintf(c->msg[r], sizeof c->msg[r], "%s", cupermGetLastErrorMessage());
        return;
    }
    cupermDistContractionPlanGetInfo(x.dplan, &c->info[r]);
    float** ptr[3] = {&x.a, &x.b, &x.d};
    for (int t = 0; t < 3; ++t) {
        int64_t le[4], vol = 1;
        cupermDistGetLocalBlock(&d[t], r, dt_G, le, NULL);
        for (int m = 0; m < 4; ++m) vol *= le[m];
        *ptr[t] = random_floats(vol, (uint64_t)(t * 7 + r));
    }
    c->ms[r] = time_loop(x.s, c->iters, run_dist, &x);
    if (c->ms[r] >= 0 && !cupermDistContractionGetWorkspaceSize(x.dplan, &x.wsBytes)) {
        CK(cudaMalloc(&x.ws, x.wsBytes ? x.wsBytes : 1));
        c->ws_ms[r] = time_loop(x.s, c->iters, run_dist, &x);
        cudaFree(x.ws);
    }
    if (c->ms[r] < 0) {
        c->st[r] = CUPERM_STATUS_CUDA_ERROR;
        snprintf(c->msg[r], sizeof c->msg[r], "%s", cupermGetLastErrorMessage());
    }
    for (int t = 0; t < 3; ++t) cudaFree(*ptr[t]);
    cupermDistContractionPlanDestroy(x.dplan);
}

/* The case's contraction with extents ext (dense), model plan, timed on one GPU: the whole
 * problem (c->ext), or one GPU's share as its own problem (c->half_ext: D's distributed label
 * split dt_G ways in A, B and D). -1 if it cannot be planned. */
static double time_one_gpu(int dev, cupermHandle_t h, cudaStream_t s, const ctr_bench_t* c, const int64_t (*ext)[4])
{
    CK(cudaSetDevice(dev));
    cupermTensorDescriptor_t td[3];
    for (int t = 0; t < 3; ++t)
        td[t] = (cupermTensorDescriptor_t){4, c->modes[t], ext[t], NULL, CUPERM_R_32F, CUPERM_OP_IDENTITY, 0};
    ctr_run_t x = {0};
    x.s = s;
    if (cupermPlanContraction(h, &x.plan, &td[0], &td[1], &td[2], &td[2], CUPERM_COMPUTE_DEFAULT, CUPERM_PLAN_MODEL))
        return -1;
    int64_t vol[3] = {1, 1, 1};
    for (int t = 0; t < 3; ++t)
        for (int m = 0; m < 4; ++m) vol[t] *= ext[t][m];
    x.a = random_floats(vol[0], 1);
    x.b = random_floats(vol[1], 2);
    x.d = random_floats(vol[2], 3);
    const double ms = time_loop(x.s, c->iters, run_local, &x);
    cudaFree(x.a);
    cudaFree(x.b);
    cudaFree(x.d);
    cupermContractionPlanDestroy(x.plan);
    return ms;
}

/* The rank's share (ext: c->half_ext) computed as the overlapped schedule computes it, without its
 * communication: label `split` cut into dt_G ranges, each range's sub-contraction planned on the whole
 * share's dense buffers (their strides) and run in turn, adding into D after the first where the label
 * is summed. -1 if a part cannot be planned. */
typedef struct {
    int n, add[MAXG];
    cupermContractionPlan_t plan[MAXG];
    int64_t off[MAXG][3];
    float *a, *b, *d;
    cudaStream_t s;
} parts_run_t;
static int run_parts(void* p)
{
    parts_run_t* x = p;
    const float one = 1, zero = 0;
    for (int i = 0; i < x->n; ++i)
        if (cupermContract(x->plan[i], &one, x->a + x->off[i][0], x->b + x->off[i][1], x->add[i] ? &one : &zero,
                           x->add[i] ? x->d + x->off[i][2] : NULL, x->d + x->off[i][2], NULL, 0, x->s))
            return 1;
    return 0;
}
static double time_parts(int dev, cupermHandle_t h, cudaStream_t s, const ctr_bench_t* c, int32_t split)
{
    CK(cudaSetDevice(dev));
    parts_run_t x = {0};
    x.s = s;
    int64_t str[3][4], vol[3] = {1, 1, 1}, extent = 0;
    for (int t = 0; t < 3; ++t)
        for (int m = 0; m < 4; ++m) {
            str[t][m] = vol[t];
            vol[t] *= c->half_ext[t][m];
            if (c->modes[t][m] == split) extent = c->half_ext[t][m];
        }
    int in_d = 0;
    for (int m = 0; m < 4; ++m) in_d |= c->modes[2][m] == split;
    const int64_t piece = (extent + dt_G - 1) / dt_G;
    double ms = -1;
    for (int64_t lo = 0; lo < extent; lo += piece, ++x.n) {
        int64_t ext[3][4];
        cupermTensorDescriptor_t td[3];
        for (int t = 0; t < 3; ++t) {
            x.off[x.n][t] = 0;
            for (int m = 0; m < 4; ++m) {
                ext[t][m] = c->half_ext[t][m];
                if (c->modes[t][m] == split) {
                    ext[t][m] = lo + piece < extent ? piece : extent - lo;
                    x.off[x.n][t] = lo * str[t][m];
                }
            }
            td[t] = (cupermTensorDescriptor_t){4, c->modes[t], ext[t], str[t], CUPERM_R_32F, CUPERM_OP_IDENTITY, 0};
        }
        x.add[x.n] = !in_d && lo > 0;
        if (cupermPlanContraction(h, &x.plan[x.n], &td[0], &td[1], &td[2], &td[2], CUPERM_COMPUTE_DEFAULT,
                                  CUPERM_PLAN_MODEL))
            goto done;
    }
    x.a = random_floats(vol[0], 1);
    x.b = random_floats(vol[1], 2);
    x.d = random_floats(vol[2], 3);
    ms = time_loop(x.s, c->iters, run_parts, &x);
    cudaFree(x.a);
    cudaFree(x.b);
    cudaFree(x.d);
done:
    for (int i = 0; i < x.n; ++i) cupermContractionPlanDestroy(x.plan[i]);
    return ms;
}

static void half_rank(int r, void* arg)
{
    ctr_bench_t* c = arg;
    c->half_ms[r] = time_one_gpu(dt_R[r].dev, dt_R[r].handle, dt_R[r].stream, c, c->half_ext);
}

int dt_ctr_bench(int iters)
{
    static const ctr_bench_t cases[] = {
        {.name = "D Shard(a), A Shard(a), B Shard(e)", .modes = {{0, 4, 1, 5}, {4, 2, 5, 3}, {0, 1, 2, 3}},
         .ext = {{96, 64, 96, 64}, {64, 96, 64, 96}, {96, 96, 96, 96}}, .dist_mode = {0, 0, 0}},
        {.name = "D Shard(c), A Shard(b), B Shard(c)", .modes = {{0, 4, 1, 5}, {4, 2, 5, 3}, {0, 1, 2, 3}},
         .ext = {{96, 64, 96, 64}, {64, 96, 64, 96}, {96, 96, 96, 96}}, .dist_mode = {2, 1, 2}},
        {.name = "D Shard(a), A Shard(f), B Shard(c)", .modes = {{0, 4, 1, 5}, {4, 2, 5, 3}, {0, 1, 2, 3}},
         .ext = {{96, 64, 96, 64}, {64, 96, 64, 96}, {96, 96, 96, 96}}, .dist_mode = {3, 1, 0}},
    };
    /* the model's schedule, none, overlap in one round, and with each peer its own round */
    static const char* const schedule[4] = {"model", "no overlap", "1 round", "P-1 rounds"};
    static const int option[4] = {CUPERM_DIST_OVERLAP_AUTO, CUPERM_DIST_OVERLAP_NONE, CUPERM_DIST_OVERLAP_BY_PEER,
                                  CUPERM_DIST_OVERLAP_BY_PEER};
    int bad = 0;
    printf("%-38s %-10s %10s %10s %10s %8s %s\n", "distributed contraction (f32)", "schedule", "1 GPU ms", "dist ms",
           "GFLOP", "eff.", "overlapped operand, parts, rounds, predicted ms; received A/B MB (rank 0); one GPU's share "
           "alone: GPU 0 only, every GPU at once; dist ms with a workspace allocated once");
    const char* only = getenv("DT_BENCH_ONLY"); /* a substring of the case names to run, as dt_bench */
    for (size_t ci = 0; ci < sizeof cases / sizeof cases[0]; ++ci) {
        if (only && !strstr(cases[ci].name, only)) continue;
        ctr_bench_t* c = malloc(sizeof *c);
        *c = cases[ci];
        c->iters = iters < 64 ? iters : 64;
        /* one GPU: the whole contraction on GPU 0 */
        const double t1 = time_one_gpu(dt_R[0].dev, dt_R[0].handle, dt_R[0].stream, c, c->ext);
        /* one GPU's share: D's distributed label split dt_G ways wherever it occurs */
        const int32_t split = c->modes[2][c->dist_mode[2]];
        for (int t = 0; t < 3; ++t)
            for (int m = 0; m < 4; ++m)
                c->half_ext[t][m] = c->modes[t][m] == split ? (c->ext[t][m] + dt_G - 1) / dt_G : c->ext[t][m];
        const double half_alone = time_one_gpu(dt_R[0].dev, dt_R[0].handle, dt_R[0].stream, c, c->half_ext);
        dt_on_all_ranks(half_rank, c);
        double half_all = 0;
        for (int r = 0; r < dt_G; ++r) half_all = c->half_ms[r] > half_all ? c->half_ms[r] : half_all;
        for (int ov = 0; ov < 4; ++ov) {
            c->overlap = (cupermDistOverlap_t)option[ov];
            c->rounds = ov == 2 ? 1 : ov == 3 ? dt_G - 1 : 0;
            dt_on_all_ranks(ctr_bench_rank, c);
            double tg = 0, tw = 0;
            for (int r = 0; r < dt_G; ++r) {
                tw = c->ws_ms[r] > tw ? c->ws_ms[r] : tw;
                if (c->st[r]) {
                    printf("FAILED %s rank %d: %s\n", c->name, r, c->msg[r]);
                    bad = 1;
                }
                if (c->ms[r] > tg) tg = c->ms[r];
            }
            const double flops = 2.0 * 96 * 96 * 96 * 96 * 64 * 64;
            const int x = c->info[0].overlapOperand;
            const double parts = ov == 3 && x >= 0 ? time_parts(dt_R[0].dev, dt_R[0].handle, dt_R[0].stream, c,
                                                                c->modes[x][c->dist_mode[x]])
                                                   : 0.0;
            printf("%-38s %-10s %10.3f %10.3f %10.1f %8.3f %d, %d, %d, %.3f; %.1f/%.1f; %.3f, %.3f; %.3f (eff. %.3f)",
                   c->name, schedule[ov], t1, tg, flops * 1e-9, t1 > 0 && tg > 0 ? t1 / (dt_G * tg) : 0.0,
                   c->info[0].overlapOperand, c->info[0].localContractions, c->info[0].overlapRounds,
                   1e3 * c->info[0].predictedSeconds,
                   c->info[0].bytesReceivedA / 1e6, c->info[0].bytesReceivedB / 1e6, half_alone, half_all, tw,
                   t1 > 0 && tw > 0 ? t1 / (dt_G * tw) : 0.0);
            if (parts) printf("; the share as its %d parts alone, GPU 0: %.3f", dt_G, parts);
            printf("\n");
        }
        free(c);
    }
    return bad;
}
