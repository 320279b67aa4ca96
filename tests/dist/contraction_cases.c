/* cuperm-dist-test: random distributed contractions against a host reference. */
#include "dist_parts.h"
#include "harness.h"

/* ---- distributed contractions -------------------------------------------------------- */
typedef struct {
    int rank[3];              /* A, B, D */
    int32_t modes[3][6];
    int64_t ext[3][6];
    dist_t dist[3];
    cupermDataType_t ab, cd;
    double beta;
    cupermDistOverlap_t overlap; /* the options every rank passes */
    int rounds;
    void* g[3];               /* global A, B and D (D: C's values in, the result out) */
    void* h[MAXG][3];         /* local blocks */
    int64_t le[MAXG][3][6], off[MAXG][3][6], str[MAXG][3][6];
    size_t bytes[MAXG][3];
    cupermStatus_t st[MAXG];
    char msg[MAXG][512];
    cupermDistContractionInfo_t info[MAXG];
} ctr_case_t;

static void run_ctr_rank(int r, void* arg)
{
    ctr_case_t* c = arg;
    rank_t* k = &dt_R[r];
    cupermDistTensorDescriptor_t d[3];
    for (int t = 0; t < 3; ++t) {
        d[t] = c->dist[t].d;
        d[t].type = t < 2 ? c->ab : c->cd;
    }
    cupermDistContractionPlan_t plan = NULL;
    const cupermDistContractionOptions_t opt = {c->overlap, 0, 0, c->rounds};
    c->st[r] = cupermDistPlanContractionWithOptions(k->handle, &plan, &d[0], c->modes[0], &d[1], c->modes[1], &d[2],
                                                    c->modes[2], CUPERM_COMPUTE_DEFAULT, &opt, k->comm, k->stream);
    if (c->st[r]) {
        snprintf(c->msg[r], sizeof c->msg[r], "%s", cupermGetLastErrorMessage());
        return;
    }
    cupermDistContractionPlanGetInfo(plan, &c->info[r]);
    void* dev[3];
    for (int t = 0; t < 3; ++t) {
        CK(cudaMalloc(&dev[t], c->bytes[r][t] + 16));
        dt_upload(dev[t], c->h[r][t], c->bytes[r][t]);
    }
    unsigned char a[16], b[16];
    dt_scalar(c->cd, 2.0, a);
    dt_scalar(c->cd, c->beta, b);
    for (int it = 0; it < 2 && !c->st[r]; ++it) { /* plan once, run twice: D is C again each time */
        if (it) dt_upload(dev[2], c->h[r][2], c->bytes[r][2]);
        c->st[r] = cupermDistContract(plan, a, dev[0], dev[1], b, dev[2], dev[2], NULL, 0, k->stream);
        CK(cudaStreamSynchronize(k->stream));
    }
    if (c->st[r]) snprintf(c->msg[r], sizeof c->msg[r], "%s", cupermGetLastErrorMessage());
    CK(cudaMemcpy(c->h[r][2], dev[2], c->bytes[r][2], cudaMemcpyDeviceToHost));
    for (int t = 0; t < 3; ++t) CK(cudaFree(dev[t]));
    cupermDistContractionPlanDestroy(plan);
}

/* One random distributed contraction against a host reference (small integers: exact). */
int dt_contraction_case(int id)
{
    ctr_case_t* c = calloc(1, sizeof *c);
    /* labels: 0.. free in A (M), then free in B (N), then summed (K), then batch (L) */
    const int nm = (int)dt_rr(1, 2), nn = (int)dt_rr(1, 2), nk = (int)dt_rr(1, 2), nl = (int)dt_rr(0, 1),
              nlab = nm + nn + nk + nl;
    int64_t lext[8];
    int64_t space = 1;
    for (int i = 0; i < nlab; ++i) {
        lext[i] = dt_rr(1, i < nm + nn ? 23 : 9);
        if (space * lext[i] > 200000) lext[i] = 1;
        space *= lext[i];
    }
    int has[3][8] = {{0}};
    for (int i = 0; i < nlab; ++i) {
        const int kind = i < nm ? 0 : i < nm + nn ? 1 : i < nm + nn + nk ? 2 : 3;
        has[0][i] = kind == 0 || kind >= 2;
        has[1][i] = kind >= 1;
        has[2][i] = kind <= 1 || kind == 3;
    }
    int64_t vol[3];
    for (int t = 0; t < 3; ++t) {
        c->rank[t] = 0;
        for (int i = 0; i < nlab; ++i)
            if (has[t][i]) c->modes[t][c->rank[t]++] = i;
        for (int i = c->rank[t] - 1; i > 0; --i) { /* shuffle the mode order */
            const int j = (int)dt_rr(0, i);
            const int32_t x = c->modes[t][i];
            c->modes[t][i] = c->modes[t][j];
            c->modes[t][j] = x;
        }
        vol[t] = 1;
        for (int m = 0; m < c->rank[t]; ++m) vol[t] *= c->ext[t][m] = lext[c->modes[t][m]];
        dt_random_dist(c->rank[t], c->ext[t], &c->dist[t]);
    }
    static const cupermDataType_t ab[] = {CUPERM_R_32F, CUPERM_R_64F, CUPERM_R_16F};
    static const cupermDataType_t cd[] = {CUPERM_R_32F, CUPERM_R_64F, CUPERM_R_32F};
    const int ti = (int)dt_rr(0, 2);
    c->ab = ab[ti];
    c->cd = cd[ti];
    c->beta = dt_rr(0, 3) ? -1 : 0;
    c->overlap = (cupermDistOverlap_t)dt_rr(0, 2);
    c->rounds = dt_rr(0, 1) ? 0 : (int)dt_rr(1, dt_G); /* 0: the model's; dt_G: more than P - 1 */
    for (int t = 0; t < 3; ++t) {
        const cupermDataType_t ty = t < 2 ? c->ab : c->cd;
        c->g[t] = malloc((size_t)vol[t] * cupermDataTypeSize(ty));
        for (int64_t i = 0; i < vol[t]; ++i) dt_put(ty, c->g[t], i, (double)((i * (3 + t)) % (11 + 2 * t)) - 5);
    }
    /* the reference: over every label assignment, D += A * B; then D = 2 * D + beta * C */
    double* ref = calloc((size_t)vol[2], sizeof(double));
    int64_t idx[8] = {0};
    do {
        int64_t o[3] = {0, 0, 0};
        for (int t = 0; t < 3; ++t) {
            int64_t s = 1;
            for (int m = 0; m < c->rank[t]; ++m) {
                o[t] += idx[c->modes[t][m]] * s;
                s *= c->ext[t][m];
            }
        }
        double im;
        ref[o[2]] += dt_get(c->ab, c->g[0], o[0], &im) * dt_get(c->ab, c->g[1], o[1], &im);
    } while (dt_next_idx(idx, lext, nlab));
    for (int64_t i = 0; i < vol[2]; ++i) {
        double im;
        ref[i] = 2 * ref[i] + c->beta * dt_get(c->cd, c->g[2], i, &im);
    }
    for (int r = 0; r < dt_G; ++r)
        for (int t = 0; t < 3; ++t) {
            const cupermDataType_t ty = t < 2 ? c->ab : c->cd;
            cupermDistGetLocalBlock(&c->dist[t].d, r, dt_G, c->le[r][t], c->off[r][t]);
            dt_dense(c->le[r][t], c->rank[t], c->str[r][t], 0);
            c->bytes[r][t] = (size_t)dt_span(c->le[r][t], c->str[r][t], c->rank[t]) * cupermDataTypeSize(ty);
            c->h[r][t] = calloc(1, c->bytes[r][t] + 16);
            dt_copy_block(ty, c->g[t], c->ext[t], c->h[r][t], c->le[r][t], c->off[r][t], c->str[r][t], c->rank[t], 1);
        }
    dt_on_all_ranks(run_ctr_rank, c);
    int bad = 0;
    for (int r = 0; r < dt_G && !bad; ++r) {
        if (c->st[r]) {
            printf("FAILED contraction %d rank %d: %s: %s\n", id, r, cupermGetErrorString(c->st[r]), c->msg[r]);
            bad = 1;
            break;
        }
        dt_copy_block(c->cd, c->g[2], c->ext[2], c->h[r][2], c->le[r][2], c->off[r][2], c->str[r][2], c->rank[2], 0);
        /* the schedule asked for: overlap forced on more than one rank, none where declined */
        const int x = c->info[r].overlapOperand;
        if ((c->overlap == CUPERM_DIST_OVERLAP_BY_PEER && dt_G > 1 && x < 0) ||
            (c->overlap == CUPERM_DIST_OVERLAP_NONE && x >= 0) || x != c->info[0].overlapOperand ||
            (x >= 0 && c->rounds && c->info[r].overlapRounds != (c->rounds < dt_G - 1 ? c->rounds : dt_G - 1))) {
            printf("FAILED contraction %d rank %d: overlap option %d gave overlapOperand %d (rank 0: %d)\n", id, r,
                   (int)c->overlap, x, c->info[0].overlapOperand);
            bad = 1;
        }
    }
    for (int64_t i = 0; i < vol[2] && !bad; ++i) {
        double im;
        const double got = dt_get(c->cd, c->g[2], i, &im);
        if (got != ref[i]) {
            printf("FAILED contraction %d: D element %lld (global, column-major) = %g, want %g\n", id, (long long)i,
                   got, ref[i]);
            bad = 1;
        }
    }
    char sd[3][128];
    for (int t = 0; t < 3; ++t) dt_describe(&c->dist[t], sd[t], sizeof sd[t]);
    printf("%s contraction %3d: %s->%s labels", bad ? "FAIL" : "ok  ", id, dt_type_name(c->ab), dt_type_name(c->cd));
    for (int t = 0; t < 3; ++t) {
        printf(" %s[", t == 0 ? "A" : t == 1 ? "B" : "D");
        for (int m = 0; m < c->rank[t]; ++m) printf("%s%d:%lld", m ? "," : "", c->modes[t][m], (long long)c->ext[t][m]);
        printf("] %s", sd[t]);
    }
    printf(" beta %g in-place A/B %d/%d received A/B %zu/%zu B, overlap option %d/%d: operand %d in %d parts, %d rounds "
           "(rank 0)\n", c->beta, c->info[0].inPlaceA, c->info[0].inPlaceB, c->info[0].bytesReceivedA,
           c->info[0].bytesReceivedB, (int)c->overlap, c->rounds, c->info[0].overlapOperand,
           c->info[0].localContractions, c->info[0].overlapRounds);
    for (int t = 0; t < 3; ++t) {
        free(c->g[t]);
        for (int r = 0; r < dt_G; ++r) free(c->h[r][t]);
    }
    free(ref);
    free(c);
    return bad;
}
