/* cuperm-dist-test --bench: redistributions against grouped ncclSend/ncclRecv of the same bytes. */
#include <ctype.h>
#include <math.h>
#include <string.h>

#include "bench_check.h"
#include "dist_parts.h"
#include "harness.h"

/* ---- benchmark ------------------------------------------------------------------------ */
/* Every case's input is dt_fill_hash's (a hash of each element's global index) and every rank's
 * output block is checked element by element after the timed runs (dt_check_hash), the bytes past
 * it (up to the end of its buffer, poisoned like the block before the first run) unchanged. */
typedef struct {
    char name[96];
    cupermDataType_t type;
    int rank;
    int64_t ext[6];
    int perm[6];
    int in_mode, out_mode; /* Shard(in_mode) -> Shard(out_mode) (output mode numbering) */
    int chunks;            /* 0: the model's choice */
    cupermDistVariant_t variant; /* 0: the model's choice */
    int measure;           /* plan in measure mode */
    cupermDistTransport_t transport; /* AUTO: the model's choice */
    int bind;              /* the output bound to an ncclMemAlloc buffer (cupermDistPlanBindOutput) */
    int iters;
    /* results */
    double t_dist[MAXG], t_a2a[MAXG];
    double h_dist[MAXG], h_a2a[MAXG]; /* host time per iteration to enqueue it (ms) */
    cupermDistPlanInfo_t info[MAXG];
    cupermStatus_t st[MAXG];
    char msg[MAXG][256];
    unsigned long long mismatches[MAXG]; /* output elements that differ from the permuted input */
    long long first_bad[MAXG];           /* the first one's local index (-1: none) */
    int tail_written[MAXG];              /* bytes past the output block changed */
} bench_t;

/* 1 if any of the n bytes at d (device) differs from 0xFF */
static int written(const void* d, size_t n)
{
    unsigned char h[256];
    for (size_t at = 0; at < n; at += sizeof h) {
        const size_t k = n - at < sizeof h ? n - at : sizeof h;
        CK(cudaMemcpy(h, (const char*)d + at, k, cudaMemcpyDeviceToHost));
        for (size_t i = 0; i < k; ++i)
            if (h[i] != 0xFF) return 1;
    }
    return 0;
}

/* The bytes rank `from` sends to rank `to` in b's redistribution: its input block's overlap with
 * to's output block (output mode j is input mode perm[j]). The exchange that the plan is timed
 * against moves exactly these, pair by pair: where blocks are uneven the pairs differ, and a
 * receive posted for more than its sender sends never ends. */
static size_t pair_bytes(const bench_t* b, const cupermDistTensorDescriptor_t* in,
                         const cupermDistTensorDescriptor_t* out, int from, int to)
{
    int64_t le_in[6], off_in[6], le_out[6], off_out[6];
    cupermDistGetLocalBlock(in, from, dt_G, le_in, off_in);
    cupermDistGetLocalBlock(out, to, dt_G, le_out, off_out);
    size_t v = cupermDataTypeSize(b->type);
    for (int j = 0; j < b->rank; ++j) {
        const int i = b->perm[j];
        const int64_t lo = off_in[i] > off_out[j] ? off_in[i] : off_out[j];
        const int64_t hi_in = off_in[i] + le_in[i], hi_out = off_out[j] + le_out[j];
        const int64_t hi = hi_in < hi_out ? hi_in : hi_out;
        if (hi <= lo) return 0;
        v *= (size_t)(hi - lo);
    }
    return v;
}

static void bench_rank(int r, void* arg)
{
    bench_t* b = arg;
    rank_t* k = &dt_R[r];
    int mi[1] = {b->in_mode}, mo[1] = {b->out_mode}, gi[1] = {dt_G}, go[1] = {dt_G};
    int64_t ext_o[6];
    for (int i = 0; i < b->rank; ++i) ext_o[i] = b->ext[b->perm[i]];
    cupermDistTensorDescriptor_t in = {b->rank, b->ext, b->type, 1, mi, gi, NULL, NULL};
    cupermDistTensorDescriptor_t out = {b->rank, ext_o, b->type, 1, mo, go, NULL, NULL};
    cupermDistOptions_t opt = {0};
    opt.chunks = b->chunks;
    opt.variant = b->variant;
    opt.measure = b->measure;
    opt.transport = b->transport;
    cupermDistPlan_t plan;
    dt_trace(r, b->name, 0);
    b->st[r] = cupermDistPlanTranspose(k->handle, &plan, b->perm, &in, &out, &opt, k->comm, k->stream);
    if (b->st[r]) {
        snprintf(b->msg[r], sizeof b->msg[r], "%s", cupermGetLastErrorMessage());
        return;
    }
    cupermDistPlanGetInfo(plan, &b->info[r]);
    dt_trace(r, "planned, chunks", b->info[r].chunks);
    const size_t es = cupermDataTypeSize(b->type);
    int64_t le[6], off[6], le_in[6], off_in[6], le_out[6], off_out[6], vin = 1, vout = 1;
    cupermDistGetLocalBlock(&in, r, dt_G, le_in, off_in);
    for (int i = 0; i < b->rank; ++i) vin *= le_in[i];
    cupermDistGetLocalBlock(&out, r, dt_G, le_out, off_out);
    for (int i = 0; i < b->rank; ++i) vout *= le_out[i];
    void *x, *y, *ws = NULL, *s2, *r2;
    size_t wsb = b->info[r].workspaceBytes;
    CK(cudaMalloc(&x, (size_t)vin * es + 256));
    size_t bound = (size_t)vout * es + 256; /* bound outputs: one size on every rank, the largest block */
    for (int q = 0; q < dt_G && b->bind; ++q) {
        int64_t v = 1;
        cupermDistGetLocalBlock(&out, q, dt_G, le, off);
        for (int i = 0; i < b->rank; ++i) v *= le[i];
        if ((size_t)v * es + 256 > bound) bound = (size_t)v * es + 256;
    }
    if (b->bind) {
        if (ncclMemAlloc(&y, bound) != ncclSuccess) {
            fprintf(stderr, "ncclMemAlloc(%zu) failed\n", bound);
            exit(1);
        }
        b->st[r] = cupermDistPlanBindOutput(plan, y, bound, k->stream);
        if (b->st[r]) snprintf(b->msg[r], sizeof b->msg[r], "%s", cupermGetLastErrorMessage());
        cupermDistPlanGetInfo(plan, &b->info[r]);
    } else {
        CK(cudaMalloc(&y, (size_t)vout * es + 256));
    }
    if (wsb) CK(cudaMalloc(&ws, wsb));
    CK(dt_fill_hash(x, b->rank, le_in, off_in, b->ext, k->stream)); /* beta = 0: the output is overwritten */
    CK(cudaMemsetAsync(y, 0xFF, bound, k->stream));
    dt_trace(r, "filled, workspace bytes", (long long)wsb);
    /* the all-to-all of the same bytes: grouped ncclSend/ncclRecv of each pair's bytes */
    size_t sends[MAXG], recvs[MAXG], send_total = 0, recv_total = 0;
    for (int p = 0; p < dt_G; ++p) {
        sends[p] = p == r ? 0 : pair_bytes(b, &in, &out, r, p);
        recvs[p] = p == r ? 0 : pair_bytes(b, &in, &out, p, r);
        send_total += sends[p];
        recv_total += recvs[p];
    }
    CK(cudaMalloc(&s2, send_total + 256));
    CK(cudaMalloc(&r2, recv_total + 256));
    unsigned char one[16], zero[16];
    dt_scalar(b->type, 1, one);
    dt_scalar(b->type, 0, zero);
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    for (int pass = 0; pass < 2; ++pass) {
        double h0 = 0;
        for (int it = -2; it < b->iters; ++it) { /* two warm-ups */
            if (it == 0) { /* the warm-ups done (where a stall shows under DT_TRACE) before the clock starts */
                CK(cudaStreamSynchronize(k->stream));
                dt_trace(r, pass == 0 ? "warmed up the plan" : "warmed up the exchange", 2);
                CK(cudaEventRecord(e0, k->stream));
            }
            if (it == 0) h0 = dt_now();
            if (pass == 0) {
                cupermStatus_t st = cupermDistExecute(plan, one, x, zero, y, ws, wsb, k->stream);
                if (st) {
                    b->st[r] = st;
                    snprintf(b->msg[r], sizeof b->msg[r], "%s", cupermGetLastErrorMessage());
                }
            } else {
                size_t at_s = 0, at_r = 0;
                ncclGroupStart();
                for (int p = 0; p < dt_G; ++p) {
                    if (sends[p]) ncclSend((char*)s2 + at_s, sends[p], ncclInt8, p, k->comm, k->stream);
                    if (recvs[p]) ncclRecv((char*)r2 + at_r, recvs[p], ncclInt8, p, k->comm, k->stream);
                    at_s += sends[p];
                    at_r += recvs[p];
                }
                ncclGroupEnd();
            }
        }
        (pass == 0 ? b->h_dist : b->h_a2a)[r] = (dt_now() - h0) * 1e3 / b->iters;
        CK(cudaEventRecord(e1, k->stream));
        CK(cudaEventSynchronize(e1));
        dt_trace(r, pass == 0 ? "timed the plan, iterations" : "timed the exchange, iterations", b->iters);
        float ms;
        CK(cudaEventElapsedTime(&ms, e0, e1));
        (pass == 0 ? b->t_dist : b->t_a2a)[r] = ms / b->iters;
    }
    if (!b->st[r]) {
        CK(dt_check_hash(y, b->rank, le_out, off_out, b->ext, b->perm, k->stream, &b->mismatches[r],
                         &b->first_bad[r]));
        b->tail_written[r] = written((char*)y + (size_t)vout * es, bound - (size_t)vout * es);
        dt_trace(r, "checked, wrong elements", (long long)b->mismatches[r]);
    }
    cudaFree(x);
    if (b->bind) {
        cupermDistPlanBindOutput(plan, NULL, 0, k->stream); /* collective: before the buffer goes */
        ncclMemFree(y);
    } else {
        cudaFree(y);
    }
    if (ws) cudaFree(ws);
    cudaFree(s2);
    cudaFree(r2);
    cudaEventDestroy(e0);
    cudaEventDestroy(e1);
    cupermDistPlanDestroy(plan);
}

static void print_header(void)
{
    /* host ms: the time to enqueue one execute (or exchange): where it nears dist ms, the host's
     * calls, not the GPUs, set the pace of back-to-back executes. check: every output element */
    printf("%-44s %-4s %-26s %9s %11s %6s %9s %9s %9s %6s %8s %8s %-5s %s\n", "case", "type", "global extents",
           "GB/GPU", "sent B/GPU", "t/v/k", "dist ms", "a2a ms", "model ms", "ratio", "host ms", "a2a host", "size",
           "check");
}

/* Runs b on every rank and prints its row; returns the ratio to the exchange (0 on a failure) and
 * sets *bad on a failure or a wrong element. */
static double run_case(bench_t* b, int big, int* bad)
{
    dt_on_all_ranks(bench_rank, b);
    double td = 0, ta = 0, hd = 0, ha = 0;
    unsigned long long wrong = 0;
    int failed = 0, tail = 0;
    for (int r = 0; r < dt_G; ++r) {
        hd = b->h_dist[r] > hd ? b->h_dist[r] : hd;
        ha = b->h_a2a[r] > ha ? b->h_a2a[r] : ha;
        if (b->st[r]) {
            printf("FAILED bench %s rank %d: %s\n", b->name, r, b->msg[r]);
            failed = 1;
        } else if (b->mismatches[r] || b->tail_written[r]) {
            printf("FAILED bench %s rank %d: %llu wrong output elements (first at local index %lld)%s\n", b->name,
                   r, b->mismatches[r], b->first_bad[r], b->tail_written[r] ? ", bytes past the block written" : "");
        }
        wrong += b->mismatches[r];
        tail |= b->tail_written[r];
        td = b->t_dist[r] > td ? b->t_dist[r] : td;
        ta = b->t_a2a[r] > ta ? b->t_a2a[r] : ta;
    }
    int64_t vol = 1;
    for (int i = 0; i < b->rank; ++i) vol *= b->ext[i];
    const double gpub = (double)vol * 4 / dt_G / 1e9;
    char ex[64];
    int at = 0;
    for (int i = 0; i < b->rank; ++i)
        at += snprintf(ex + at, sizeof ex - (size_t)at, "%s%lld", i ? "x" : "", (long long)b->ext[i]);
    const cupermDistTransport_t PS = CUPERM_DIST_TRANSPORT_PEER_STORES, PK = CUPERM_DIST_TRANSPORT_PEER_STORES_ONE_KERNEL;
    printf("%-44s %-4s %-26s %9.4f %11zu %s/%d/%-2d %9.4f %9.4f %9.4f %6.3f %8.4f %8.4f %-5s %s\n", b->name,
           dt_type_name(b->type), ex, gpub, b->info[0].bytesSent,
           b->info[0].directWhole        ? "bw"
           : b->info[0].directTransposes ? "bo"
           : b->info[0].transport == PS  ? "ps"
           : b->info[0].transport == PK  ? "pk" : "sr",
           (int)b->info[0].variant, b->info[0].chunks, td, ta, b->info[0].predictedSeconds * 1e3,
           ta > 0 ? td / ta : 0, hd, ha, big ? "large" : "small",
           failed ? "-" : wrong || tail ? "WRONG" : "ok");
    fflush(stdout);
    *bad |= failed || wrong || tail;
    return failed || wrong || tail || ta <= 0 ? 0 : td / ta;
}

int dt_bench(double gb, int iters)
{
    const double bytes_per_gpu = gb * 1e9;
    int bad = 0;
    print_header();
    enum { KINDS = 15 };
    for (int ci = 0; ci < 2 * KINDS; ++ci) {
        bench_t* b = calloc(1, sizeof *b);
        b->type = CUPERM_R_32F;
        b->rank = 6;
        b->iters = iters;
        const int big = ci < KINDS;
        const char* sb = getenv("DT_SMALL_BYTES"); /* the small cases' bytes per GPU (1 MiB) */
        const double target = big ? bytes_per_gpu : sb ? atof(sb) : 1 << 20; /* bytes per GPU */
        int64_t base[6] = {16, 24, 32, 12, 16, 0};
        if (!big) { base[0] = 8; base[1] = 6; base[2] = 4; base[3] = 4; base[4] = 2; }
        int64_t other = 1;
        for (int i = 0; i < 5; ++i) other *= base[i];
        int64_t last = (int64_t)(target * dt_G / 4.0 / (double)other);
        last = last / dt_G * dt_G;
        if (last < dt_G) last = dt_G;
        base[5] = last;
        memcpy(b->ext, base, sizeof base);
        static const int rev[6] = {5, 4, 3, 2, 1, 0}, swap01[6] = {1, 0, 2, 3, 4, 5}, mix[6] = {2, 0, 5, 1, 4, 3};
        const cupermDistTransport_t SR = CUPERM_DIST_TRANSPORT_SEND_RECV, PS = CUPERM_DIST_TRANSPORT_PEER_STORES;
        const cupermDistTransport_t PK = CUPERM_DIST_TRANSPORT_PEER_STORES_ONE_KERNEL;
        static const struct {
            const char* name;
            const int* perm;
            int out_mode, chunks, measure, transport, bind;
        } kinds[KINDS] = {
            {"6-D reverse, Shard(5)->Shard(5), model", rev, 5, 0, 0, 0, 0}, /* out mode 5 = input mode 0 */
            {"6-D reverse, Shard(5)->Shard(5), send/recv", rev, 5, 1, 0, 1, 0},
            {"6-D reverse, Shard(5)->Shard(5), peer stores", rev, 5, 0, 0, 2, 0},
            {"6-D reverse, Shard(5)->Shard(5), measure", rev, 5, 0, 1, 0, 0},
            {"6-D swap01, Shard(5)->Shard(1), model", swap01, 1, 0, 0, 0, 0},
            {"6-D swap01, Shard(5)->Shard(1), send/recv", swap01, 1, 1, 0, 1, 0},
            {"6-D mixed, Shard(5)->Shard(0), model", mix, 0, 0, 0, 0, 0},
            {"6-D mixed, Shard(5)->Shard(0), send/recv", mix, 0, 1, 0, 1, 0},
            {"6-D reverse, Shard(5)->Shard(5), bound output", rev, 5, 0, 0, 0, 1},
            {"6-D swap01, Shard(5)->Shard(1), bound output", swap01, 1, 0, 0, 0, 1},
            {"6-D mixed, Shard(5)->Shard(0), bound output", mix, 0, 0, 0, 0, 1},
            {"6-D reverse, Shard(5)->Shard(5), one kernel", rev, 5, 0, 0, 3, 0},
            {"6-D mixed, Shard(5)->Shard(0), one kernel", mix, 0, 0, 0, 3, 0},
            {"6-D swap01, Shard(5)->Shard(1), peer stores", swap01, 1, 0, 0, 2, 0},
            {"6-D mixed, Shard(5)->Shard(0), peer stores", mix, 0, 0, 0, 2, 0},
        };
        const cupermDistTransport_t transports[4] = {CUPERM_DIST_TRANSPORT_AUTO, SR, PS, PK};
        const int kind = ci % KINDS;
        snprintf(b->name, sizeof b->name, "%s", kinds[kind].name);
        memcpy(b->perm, kinds[kind].perm, sizeof b->perm);
        b->in_mode = 5;
        b->out_mode = kinds[kind].out_mode;
        b->chunks = kinds[kind].chunks;
        b->measure = kinds[kind].measure;
        b->transport = transports[kinds[kind].transport];
        b->bind = kinds[kind].bind;
        if (!big) b->iters = iters * 20;
        if (!big && kind == 3) { free(b); continue; } /* no measure mode on small messages */
        const char* only = getenv("DT_BENCH_ONLY"); /* a substring of the case names to run */
        if (only && !strstr(b->name, only)) { free(b); continue; }
        run_case(b, big, &bad);
        free(b);
    }
    return bad;
}

/* ---- the held-out suite: random 6-D permutations, Shard(i) -> Shard(j) ------------------------- */
static int cmp_double(const void* a, const void* b)
{
    const double x = *(const double*)a, y = *(const double*)b;
    return x < y ? -1 : x > y;
}

/* Random extents (no extent favoured: each drawn log-uniformly, then scaled at random modes until
 * the tensor holds about `elements`), a random non-identity permutation, random source and
 * destination modes that move data (output mode out_mode is not input mode in_mode). */
static void random_case(bench_t* b, double elements)
{
    b->rank = 6;
    double vol = 1;
    for (int i = 0; i < 6; ++i) {
        b->ext[i] = (int64_t)exp(log(4.0) + (double)(dt_rnd() % 100000) / 100000.0 * (log(64.0) - log(4.0)));
        vol *= (double)b->ext[i];
    }
    while (vol < elements) {
        const int i = (int)dt_rr(0, 5);
        const int64_t e = b->ext[i] + 1 + b->ext[i] / 4;
        vol = vol / (double)b->ext[i] * (double)e;
        b->ext[i] = e;
    }
    while (vol > 1.25 * elements) {
        const int i = (int)dt_rr(0, 5);
        if (b->ext[i] < 8) continue;
        const int64_t e = b->ext[i] - 1 - b->ext[i] / 8;
        vol = vol / (double)b->ext[i] * (double)e;
        b->ext[i] = e;
    }
    do {
        for (int i = 0; i < 6; ++i) b->perm[i] = i;
        for (int i = 5; i > 0; --i) {
            const int j = (int)dt_rr(0, i), t = b->perm[i];
            b->perm[i] = b->perm[j], b->perm[j] = t;
        }
    } while (!memcmp(b->perm, (int[6]){0, 1, 2, 3, 4, 5}, sizeof b->perm));
    do {
        b->in_mode = (int)dt_rr(0, 5);
        b->out_mode = (int)dt_rr(0, 5);
    } while (b->perm[b->out_mode] == b->in_mode || b->ext[b->in_mode] < dt_G || b->ext[b->perm[b->out_mode]] < dt_G);
}

/* A run of random case proto (extents, permutation, modes), f32, with the model's choices. */
static bench_t* run_of(const bench_t* proto, int iters)
{
    bench_t* b = calloc(1, sizeof *b);
    memcpy(b->ext, proto->ext, sizeof b->ext);
    memcpy(b->perm, proto->perm, sizeof b->perm);
    b->rank = proto->rank, b->in_mode = proto->in_mode, b->out_mode = proto->out_mode;
    b->type = CUPERM_R_32F, b->iters = iters;
    return b;
}

/* Every candidate of case proto forced in turn (send/recv and peer stores: variant x stages; one
 * kernel: variant), one row each: what the model's choice among them is checked against, and the
 * data its constants are fitted to (tools/model/dist_heldout.py). only: the transports' short names
 * to sweep ("ps", "sr,pk"), NULL for all. */
static void sweep_case(const bench_t* proto, int c, int iters, const char* only, int* bad)
{
    static const struct {
        cupermDistTransport_t t;
        const char* name;
        int stages;
    } transports[] = {{CUPERM_DIST_TRANSPORT_SEND_RECV, "sr", 4},
                      {CUPERM_DIST_TRANSPORT_PEER_STORES, "ps", 4},
                      {CUPERM_DIST_TRANSPORT_PEER_STORES_ONE_KERNEL, "pk", 1}};
    for (size_t t = 0; t < sizeof transports / sizeof transports[0]; ++t) {
        if (only && !strstr(only, transports[t].name)) continue;
        for (int v = 1; v <= 2; ++v) {
            for (int i = 0; i < transports[t].stages; ++i) {
                bench_t* b = run_of(proto, iters);
                b->transport = transports[t].t, b->variant = (cupermDistVariant_t)v;
                b->chunks = 1 << i; /* 1, 2, 4, 8 */
                snprintf(b->name, sizeof b->name, "r%02d sweep %s v%d k%d", c, transports[t].name, v, b->chunks);
                run_case(b, 1, bad);
                free(b);
            }
        }
    }
}

int dt_bench_random(double gb, int iters, int count)
{
    /* DT_SWEEP=1: every candidate forced too; or the transports to sweep by short name (DT_SWEEP=ps) */
    const char* sw = getenv("DT_SWEEP");
    const int sweep = sw && (atoi(sw) > 0 || isalpha((unsigned char)sw[0]));
    const char* sweep_only = sweep && atoi(sw) <= 0 ? sw : NULL;
    /* DT_RANDOM_ROWS: which of each case's rows run (a list of model, measure, bound; default all) */
    const char* rows = getenv("DT_RANDOM_ROWS");
    int bad = 0, n = 0;
    enum { VARIANTS = 3 };
    double* ratios[VARIANTS];
    for (int v = 0; v < VARIANTS; ++v) ratios[v] = calloc((size_t)count, sizeof(double));
    static const char* what[VARIANTS] = {"model", "measure", "bound output"};
    static const char* row_key[VARIANTS] = {"model", "measure", "bound"};
    printf("held-out suite: %d random 6-D redistributions, %.2f GB per GPU, f32, seed state %llu\n", count, gb,
           (unsigned long long)dt_rng_state);
    print_header();
    for (int c = 0; c < count; ++c) {
        bench_t proto = {0};
        random_case(&proto, gb * 1e9 * dt_G / 4.0);
        for (int v = 0; v < VARIANTS; ++v) {
            if (rows && !strstr(rows, row_key[v])) continue;
            bench_t* b = run_of(&proto, iters);
            b->measure = v == 1, b->bind = v == 2;
            snprintf(b->name, sizeof b->name, "r%02d p%d%d%d%d%d%d S%d->S%d %s", c, b->perm[0], b->perm[1],
                     b->perm[2], b->perm[3], b->perm[4], b->perm[5], b->in_mode, b->out_mode, what[v]);
            ratios[v][c] = run_case(b, 1, &bad);
            free(b);
        }
        if (sweep) sweep_case(&proto, c, iters, sweep_only, &bad);
        ++n;
    }
    for (int v = 0; v < VARIANTS; ++v) {
        qsort(ratios[v], (size_t)n, sizeof(double), cmp_double);
        const double median = n % 2 ? ratios[v][n / 2] : (ratios[v][n / 2 - 1] + ratios[v][n / 2]) / 2;
        if (n && (!rows || strstr(rows, row_key[v])))
            printf("held-out %s: time / same-run exchange, median %.3f, best %.3f, worst %.3f (%d cases)\n",
                      what[v], median, ratios[v][0], ratios[v][n - 1], n);
        free(ratios[v]);
    }
    return bad;
}
