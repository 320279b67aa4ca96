/* cuperm-dist-test: random redistributions (cupermDistPlanTranspose / cupermDistExecute)
 * against the gathered single-GPU cupermExecute result. */
#include <string.h>

#include "dist_parts.h"
#include "harness.h"

static const cupermDataType_t kTypes[] = {CUPERM_R_32F, CUPERM_R_64F, CUPERM_C_32F, CUPERM_R_16F, CUPERM_R_8I,
                                          CUPERM_R_64I};

/* ---- a correctness case ----------------------------------------------------------- */
typedef struct {
    int rank;
    int perm[6];
    cupermDataType_t type;
    dist_t in, out;
    int64_t in_strides[MAXG][6]; /* padded local input strides (pad != 0) */
    int64_t out_strides[MAXG][6]; /* local output strides (padded where pad_out != 0) */
    int pad, pad_out;
    int bind;          /* the output is bound (cupermDistPlanBindOutput) to an ncclMemAlloc buffer */
    size_t bind_bytes; /* the bound buffer's size: equal on every rank */
    cupermDistOptions_t opt;
    double alpha, beta;
    /* per rank */
    int64_t le_in[MAXG][6], off_in[MAXG][6], le_out[MAXG][6], off_out[MAXG][6];
    void* h_in[MAXG];
    void* h_out[MAXG];
    size_t in_bytes[MAXG], out_bytes[MAXG];
    cupermStatus_t st[MAXG];
    char msg[MAXG][512];
    cupermDistPlanInfo_t info[MAXG];
} case_t;

static void run_case_rank(int r, void* arg)
{
    case_t* c = arg;
    rank_t* k = &dt_R[r];
    const size_t es = cupermDataTypeSize(c->type);
    cupermDistTensorDescriptor_t din = c->in.d, dout = c->out.d;
    din.type = dout.type = c->type;
    if (c->pad) din.localStrides = c->in_strides[r];
    if (c->pad_out) dout.localStrides = c->out_strides[r];
    cupermDistPlan_t plan = NULL;
    c->st[r] = cupermDistPlanTranspose(k->handle, &plan, c->perm, &din, &dout, &c->opt, k->comm, k->stream);
    if (c->st[r]) {
        snprintf(c->msg[r], sizeof c->msg[r], "%s", cupermGetLastErrorMessage());
        return;
    }
    void *din_d = NULL, *dout_d = NULL;
    CK(cudaMalloc(&din_d, c->in_bytes[r] + es));
    if (c->bind) { /* every rank one size, as NCCL's symmetric windows want */
        if (ncclMemAlloc(&dout_d, c->bind_bytes) != ncclSuccess) {
            c->st[r] = CUPERM_STATUS_ALLOC_FAILED;
            snprintf(c->msg[r], sizeof c->msg[r], "ncclMemAlloc(%zu) failed", c->bind_bytes);
        }
        /* collective even after a failure here: the others must not wait */
        cupermStatus_t b = cupermDistPlanBindOutput(plan, dout_d, dout_d ? c->bind_bytes : 0, k->stream);
        if (b && !c->st[r]) {
            c->st[r] = b;
            snprintf(c->msg[r], sizeof c->msg[r], "%s", cupermGetLastErrorMessage());
        }
    } else {
        CK(cudaMalloc(&dout_d, c->out_bytes[r] + es));
    }
    cupermDistPlanGetInfo(plan, &c->info[r]);
    dt_trace(r, c->info[r].directWhole ? "planned and bound (whole)" : "planned", c->info[r].directTransposes);
    dt_upload(din_d, c->h_in[r], c->in_bytes[r]);
    dt_upload(dout_d, c->h_out[r], c->out_bytes[r]);
    unsigned char a[16], b[16];
    dt_scalar(c->type, c->alpha, a);
    dt_scalar(c->type, c->beta, b);
    /* Three times from the same output: plan once, execute many times. A store transport runs the
     * first as it is, captures the second into a CUDA graph and replays the third; all three must
     * give the same bytes (the last is checked against the reference). */
    unsigned char* first = malloc(c->out_bytes[r] + 1);
    unsigned char* again = malloc(c->out_bytes[r] + 1);
    /* Every rank runs all three (they are collective): a rank that saw other bytes goes on. */
    cupermStatus_t differs = CUPERM_STATUS_SUCCESS;
    for (int it = 0; it < 3 && !c->st[r]; ++it) {
        if (it) dt_upload(dout_d, c->h_out[r], c->out_bytes[r]);
        c->st[r] = cupermDistExecute(plan, a, din_d, b, dout_d, NULL, 0, k->stream);
        dt_trace(r, c->st[r] ? "execute failed" : "executed", it);
        CK(cudaStreamSynchronize(k->stream));
        dt_trace(r, "synchronized", it);
        if (c->st[r]) snprintf(c->msg[r], sizeof c->msg[r], "%s", cupermGetLastErrorMessage());
        CK(cudaMemcpy(it ? again : first, dout_d, c->out_bytes[r], cudaMemcpyDeviceToHost));
        size_t at = 0;
        while (!c->st[r] && !differs && it && at < c->out_bytes[r] && first[at] == again[at]) ++at;
        if (!c->st[r] && !differs && it && at < c->out_bytes[r]) {
            differs = CUPERM_STATUS_INTERNAL_ERROR;
            snprintf(c->msg[r], sizeof c->msg[r], "execute %d gave other bytes than the first, from byte %zu of %zu "
                     "(element %zu)", it + 1, at, c->out_bytes[r], at / es);
        }
    }
    if (!c->st[r]) c->st[r] = differs;
    free(first);
    free(again);
    if (dout_d) CK(cudaMemcpy(c->h_out[r], dout_d, c->out_bytes[r], cudaMemcpyDeviceToHost));
    if (c->bind && !c->st[r] && !c->info[r].outputBound) {
        c->st[r] = CUPERM_STATUS_INTERNAL_ERROR;
        snprintf(c->msg[r], sizeof c->msg[r], "the plan's info does not report the bound output");
    }
    CK(cudaFree(din_d));
    cupermDistPlanDestroy(plan); /* deregisters the bound output: before the buffer is freed */
    dt_trace(r, "destroyed", 0);
    if (c->bind) {
        if (dout_d) ncclMemFree(dout_d);
    } else {
        CK(cudaFree(dout_d));
    }
}

/* One random case: returns 0 if it passed. */
int dt_correctness_case(int id, int quick)
{
    case_t* c = calloc(1, sizeof *c);
    c->rank = (int)dt_rr(2, 6);
    const int64_t target = quick ? 3000 : 40000;
    int64_t ext[6], vol = 1, ext_o[6];
    for (int m = 0; m < c->rank; ++m) ext[m] = 1;
    /* random extents up to ~target elements, often not divisible by the rank count */
    for (int guard = 0; guard < 100; ++guard) {
        const int m = (int)dt_rr(0, c->rank - 1);
        if (vol / ext[m] * (ext[m] + 1) > target) break;
        vol = vol / ext[m] * (ext[m] + 1);
        ext[m]++;
    }
    for (int i = 0; i < c->rank; ++i) c->perm[i] = i;
    for (int i = c->rank - 1; i > 0; --i) {
        const int j = (int)dt_rr(0, i), t = c->perm[i];
        c->perm[i] = c->perm[j];
        c->perm[j] = t;
    }
    for (int r = 0; r < c->rank; ++r) ext_o[r] = ext[c->perm[r]];
    c->type = kTypes[dt_rr(0, (int)(sizeof kTypes / sizeof kTypes[0]) - 1)];
    dt_random_dist(c->rank, ext, &c->in);
    dt_random_dist(c->rank, ext_o, &c->out);
    c->alpha = 2;
    c->beta = dt_rr(0, 4) ? -1 : 0;
    c->opt.variant = (cupermDistVariant_t)dt_rr(0, 2);
    c->opt.transport = (cupermDistTransport_t)dt_rr(0, 3);
    c->opt.chunks = dt_rr(0, 1) ? 0 : (int)dt_rr(1, 5);
    if (c->opt.transport == CUPERM_DIST_TRANSPORT_PEER_STORES_ONE_KERNEL && c->opt.chunks > 1) c->opt.chunks = 1;
    c->pad = (int)dt_rr(0, 3) == 0;
    c->pad_out = (int)dt_rr(0, 3) == 0;
    c->bind = (int)dt_rr(0, 2) == 0;
    if (c->bind && dt_rr(0, 1)) { /* whole output blocks, strides alike: the whole-block direct transpose */
        for (int g = 0; g < c->out.d.gridRank; ++g) {
            const int m = c->out.modes[g], f = c->out.grid[g];
            ext_o[m] = c->out.ext[m] = (ext_o[m] + f - 1) / f * f;
            ext[c->perm[m]] = ext_o[m];
            c->out.block[g] = ext_o[m] / f;
        }
        c->out.use_blocks = 1;
        c->out.d.blockSizes = c->out.block;
        c->pad_out = 0;
        dt_random_dist(c->rank, ext, &c->in);
        vol = 1;
        for (int m = 0; m < c->rank; ++m) vol *= ext[m];
    }
    const size_t es = cupermDataTypeSize(c->type);
    /* host global tensors and the reference on GPU 0 */
    void* gin = malloc((size_t)vol * es);
    void* gout = malloc((size_t)vol * es);
    void* gref = malloc((size_t)vol * es);
    for (int64_t i = 0; i < vol; ++i) {
        dt_put(c->type, gin, i, (double)(i % 13) - 6);
        dt_put(c->type, gout, i, (double)(i % 7) - 3);
    }
    {
        CK(cudaSetDevice(dt_R[0].dev));
        cupermPlan_t p;
        if (cupermPlanTranspose(dt_R[0].handle, &p, c->rank, ext, c->perm, c->type, NULL, NULL)) {
            printf("FAILED: reference plan: %s\n", cupermGetLastErrorMessage());
            return 1;
        }
        void *a_d, *b_d;
        CK(cudaMalloc(&a_d, (size_t)vol * es));
        CK(cudaMalloc(&b_d, (size_t)vol * es));
        dt_upload(a_d, gin, (size_t)vol * es);
        dt_upload(b_d, gout, (size_t)vol * es);
        unsigned char a[16], b[16];
        dt_scalar(c->type, c->alpha, a);
        dt_scalar(c->type, c->beta, b);
        if (cupermExecute(p, a, a_d, b, b_d, 0)) printf("FAILED: reference: %s\n", cupermGetLastErrorMessage());
        CK(cudaMemcpy(gref, b_d, (size_t)vol * es, cudaMemcpyDeviceToHost));
        cudaFree(a_d);
        cudaFree(b_d);
        cupermPlanDestroy(p);
    }
    /* scatter */
    for (int r = 0; r < dt_G; ++r) {
        cupermDistGetLocalBlock(&c->in.d, r, dt_G, c->le_in[r], c->off_in[r]);
        cupermDistGetLocalBlock(&c->out.d, r, dt_G, c->le_out[r], c->off_out[r]);
        int64_t sin[6], sout[6];
        dt_dense(c->le_in[r], c->rank, sin, c->pad ? 3 : 0);
        memcpy(c->in_strides[r], sin, sizeof sin);
        dt_dense(c->le_out[r], c->rank, sout, c->pad_out ? (int)r + 1 : 0); /* strides differ between ranks */
        memcpy(c->out_strides[r], sout, sizeof sout);
        c->in_bytes[r] = (size_t)dt_span(c->le_in[r], sin, c->rank) * es;
        c->out_bytes[r] = (size_t)dt_span(c->le_out[r], sout, c->rank) * es;
        c->h_in[r] = calloc(1, c->in_bytes[r] + es);
        c->h_out[r] = calloc(1, c->out_bytes[r] + es);
        dt_copy_block(c->type, gin, ext, c->h_in[r], c->le_in[r], c->off_in[r], sin, c->rank, 1);
        dt_copy_block(c->type, gout, ext_o, c->h_out[r], c->le_out[r], c->off_out[r], sout, c->rank, 1);
        if (c->out_bytes[r] + es > c->bind_bytes) c->bind_bytes = c->out_bytes[r] + es;
    }
    char si[128], so[128];
    dt_describe(&c->in, si, sizeof si);
    dt_describe(&c->out, so, sizeof so);
    if (getenv("DT_TRACE")) { /* the case before it runs, for hangs (the watchdog ends the program) */
        fprintf(stderr, "case %3d: %s rank %d extents", id, dt_type_name(c->type), c->rank);
        for (int m = 0; m < c->rank; ++m) fprintf(stderr, "%s%lld", m ? "x" : " ", (long long)ext[m]);
        fprintf(stderr, " perm");
        for (int m = 0; m < c->rank; ++m) fprintf(stderr, "%s%d", m ? "," : " ", c->perm[m]);
        fprintf(stderr, " %s -> %s%s%s beta %g bind %d transport %d variant %d chunks %d\n", si, so,
                c->pad ? " padded-in" : "", c->pad_out ? " padded-out" : "", c->beta, c->bind, (int)c->opt.transport,
                (int)c->opt.variant, c->opt.chunks);
    }
    dt_on_all_ranks(run_case_rank, c);
    int bad = 0;
    int skipped = 0;
    if (c->st[0] == CUPERM_STATUS_NOT_SUPPORTED &&
        (c->opt.transport == CUPERM_DIST_TRANSPORT_PEER_STORES ||
         c->opt.transport == CUPERM_DIST_TRANSPORT_PEER_STORES_ONE_KERNEL || c->bind)) {
        /* every rank alike, or the next loop reports it */
        int same = 1;
        for (int r = 1; r < dt_G; ++r) same &= c->st[r] == c->st[0];
        if (same) {
            printf("SKIPPED case %3d: peer stores or a bound output not supported here: %s\n", id, c->msg[0]);
            memset(c->st, 0, sizeof c->st);
            for (int r = 0; r < dt_G; ++r) c->out_bytes[r] = 0;
            skipped = 1;
        }
    }
    for (int r = 0; r < dt_G && !bad; ++r) {
        if (c->st[r]) {
            printf("FAILED case %d rank %d: %s: %s\n", id, r, cupermGetErrorString(c->st[r]), c->msg[r]);
            bad = 1;
            break;
        }
        const int64_t* sout = c->out_strides[r];
        int64_t li[6] = {0};
        if (!c->out_bytes[r]) continue;
        do {
            int64_t g = 0, s = 1, o = 0;
            for (int m = 0; m < c->rank; ++m) {
                g += (li[m] + c->off_out[r][m]) * s;
                s *= ext_o[m];
                o += li[m] * sout[m];
            }
            double im1, im2;
            const double want = dt_get(c->type, gref, g, &im1), got = dt_get(c->type, c->h_out[r], o, &im2);
            if (want != got || im1 != im2) {
                printf("FAILED case %d rank %d: out element %lld (global %lld): %g, want %g\n", id, r, (long long)o,
                       (long long)g, got, want);
                bad = 1;
                break;
            }
        } while (dt_next_idx(li, c->le_out[r], c->rank));
    }
    printf("%s case %3d: %s rank %d extents", bad ? "FAIL" : skipped ? "skip" : "ok  ", id, dt_type_name(c->type), c->rank);
    for (int m = 0; m < c->rank; ++m) printf("%s%lld", m ? "x" : " ", (long long)ext[m]);
    printf(" perm");
    for (int m = 0; m < c->rank; ++m) printf("%s%d", m ? "," : " ", c->perm[m]);
    printf(" %s -> %s%s%s beta %g %s variant %d chunks %d sent %zu B\n", si, so, c->pad ? " padded-in" : "",
           c->pad_out ? " padded-out" : "", c->beta,
           c->info[0].directWhole        ? "bound-output-whole"
           : c->info[0].directTransposes ? "bound-output"
           : c->info[0].transport == CUPERM_DIST_TRANSPORT_PEER_STORES ? "peer-stores"
           : c->info[0].transport == CUPERM_DIST_TRANSPORT_PEER_STORES_ONE_KERNEL ? "one-kernel" : "send-recv",
           (int)c->info[0].variant, c->info[0].chunks, c->info[0].bytesSent);
    for (int r = 0; r < dt_G; ++r) {
        free(c->h_in[r]);
        free(c->h_out[r]);
    }
    free(gin);
    free(gout);
    free(gref);
    free(c);
    return bad;
}
