/* cuperm-dist-test --bench: redistributions against grouped ncclSend/ncclRecv of the same bytes. */
#include <string.h>

#include "dist_parts.h"
#include "harness.h"

/* ---- benchmark ------------------------------------------------------------------------ */
/* bytes of random floats at d (device): a 16 MB random host block copied over it in turn. */
static void fill_random(void* d, size_t bytes)
{
    enum { BLOCK = 4 << 20 };
    static float h[BLOCK];
    static int made = 0;
    if (!made) {
        uint64_t x = 88172645463325252ull;
        for (int i = 0; i < BLOCK; ++i) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            h[i] = (float)(x >> 40) / (float)(1 << 24) - 0.5f;
        }
        made = 1;
    }
    for (size_t at = 0; at < bytes; at += sizeof h) {
        const size_t n = bytes - at < sizeof h ? bytes - at : sizeof h;
        dt_upload((char*)d + at, h, n);
    }
}

typedef struct {
    const char* name;
    cupermDataType_t type;
    int rank;
    int64_t ext[6];
    int perm[6];
    int in_mode, out_mode; /* Shard(in_mode) -> Shard(out_mode) (output mode numbering) */
    int chunks;            /* 0: the model's choice */
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
} bench_t;

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
    opt.measure = b->measure;
    opt.transport = b->transport;
    cupermDistPlan_t plan;
    b->st[r] = cupermDistPlanTranspose(k->handle, &plan, b->perm, &in, &out, &opt, k->comm, k->stream);
    if (b->st[r]) {
        snprintf(b->msg[r], sizeof b->msg[r], "%s", cupermGetLastErrorMessage());
        return;
    }
    cupermDistPlanGetInfo(plan, &b->info[r]);
    const size_t es = cupermDataTypeSize(b->type);
    int64_t le[6], off[6], vin = 1, vout = 1;
    cupermDistGetLocalBlock(&in, r, dt_G, le, off);
    for (int i = 0; i < b->rank; ++i) vin *= le[i];
    cupermDistGetLocalBlock(&out, r, dt_G, le, off);
    for (int i = 0; i < b->rank; ++i) vout *= le[i];
    void *x, *y, *ws = NULL, *s2, *r2;
    size_t wsb = b->info[r].workspaceBytes;
    CK(cudaMalloc(&x, (size_t)vin * es + 256));
    size_t bound = 0; /* one size on every rank: the largest output block */
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
    fill_random(x, (size_t)vin * es); /* random data (the output is overwritten: beta = 0) */
    CK(cudaMemset(y, 0, (size_t)vout * es));
    /* the all-to-all of the same bytes: grouped ncclSend/ncclRecv of bytesSent / peers to every peer */
    const size_t per_peer = b->info[r].sendPeers ? b->info[r].bytesSent / (size_t)b->info[r].sendPeers : 0;
    CK(cudaMalloc(&s2, per_peer * (size_t)dt_G + 256));
    CK(cudaMalloc(&r2, per_peer * (size_t)dt_G + 256));
    unsigned char one[16], zero[16];
    dt_scalar(b->type, 1, one);
    dt_scalar(b->type, 0, zero);
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    for (int pass = 0; pass < 2; ++pass) {
        double h0 = 0;
        for (int it = -2; it < b->iters; ++it) { /* two warm-ups */
            if (it == 0) CK(cudaEventRecord(e0, k->stream));
            if (it == 0) h0 = dt_now();
            if (pass == 0) {
                cupermStatus_t st = cupermDistExecute(plan, one, x, zero, y, ws, wsb, k->stream);
                if (st) {
                    b->st[r] = st;
                    snprintf(b->msg[r], sizeof b->msg[r], "%s", cupermGetLastErrorMessage());
                }
            } else {
                ncclGroupStart();
                for (int p = 0; p < dt_G; ++p) {
                    if (p == r || !per_peer) continue;
                    ncclSend((char*)s2 + per_peer * (size_t)p, per_peer, ncclInt8, p, k->comm, k->stream);
                    ncclRecv((char*)r2 + per_peer * (size_t)p, per_peer, ncclInt8, p, k->comm, k->stream);
                }
                ncclGroupEnd();
            }
        }
        (pass == 0 ? b->h_dist : b->h_a2a)[r] = (dt_now() - h0) * 1e3 / b->iters;
        CK(cudaEventRecord(e1, k->stream));
        CK(cudaEventSynchronize(e1));
        float ms;
        CK(cudaEventElapsedTime(&ms, e0, e1));
        (pass == 0 ? b->t_dist : b->t_a2a)[r] = ms / b->iters;
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

int dt_bench(double gb, int iters)
{
    const double bytes_per_gpu = gb * 1e9;
    int bad = 0;
    /* host ms: the time to enqueue one execute (or exchange): where it nears dist ms, the host's
     * calls, not the GPUs, set the pace of back-to-back executes */
    printf("%-44s %-4s %-26s %9s %11s %6s %9s %9s %9s %6s %8s %8s\n", "case", "type", "global extents", "GB/GPU",
           "sent B/GPU", "t/v/k", "dist ms", "a2a ms", "model ms", "ratio", "host ms", "a2a host");
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
        switch (ci % KINDS) {
        case 0: b->name = "6-D reverse, Shard(5)->Shard(5), model"; memcpy(b->perm, rev, sizeof rev);
                b->in_mode = 5; b->out_mode = 5; break; /* out mode 5 = input mode 0 */
        case 1: b->name = "6-D reverse, Shard(5)->Shard(5), send/recv"; memcpy(b->perm, rev, sizeof rev);
                b->in_mode = 5; b->out_mode = 5; b->chunks = 1; b->transport = SR; break;
        case 2: b->name = "6-D reverse, Shard(5)->Shard(5), peer stores"; memcpy(b->perm, rev, sizeof rev);
                b->in_mode = 5; b->out_mode = 5; b->transport = PS; break;
        case 3: b->name = "6-D reverse, Shard(5)->Shard(5), measure"; memcpy(b->perm, rev, sizeof rev);
                b->in_mode = 5; b->out_mode = 5; b->measure = 1; break;
        case 4: b->name = "6-D swap01, Shard(5)->Shard(1), model"; memcpy(b->perm, swap01, sizeof swap01);
                b->in_mode = 5; b->out_mode = 1; break;
        case 5: b->name = "6-D swap01, Shard(5)->Shard(1), send/recv"; memcpy(b->perm, swap01, sizeof swap01);
                b->in_mode = 5; b->out_mode = 1; b->chunks = 1; b->transport = SR; break;
        case 6: b->name = "6-D mixed, Shard(5)->Shard(0), model"; memcpy(b->perm, mix, sizeof mix);
                b->in_mode = 5; b->out_mode = 0; break;
        case 7: b->name = "6-D mixed, Shard(5)->Shard(0), send/recv"; memcpy(b->perm, mix, sizeof mix);
                b->in_mode = 5; b->out_mode = 0; b->chunks = 1; b->transport = SR; break;
        case 8: b->name = "6-D reverse, Shard(5)->Shard(5), bound output"; memcpy(b->perm, rev, sizeof rev);
                b->in_mode = 5; b->out_mode = 5; b->bind = 1; break;
        case 9: b->name = "6-D swap01, Shard(5)->Shard(1), bound output"; memcpy(b->perm, swap01, sizeof swap01);
                b->in_mode = 5; b->out_mode = 1; b->bind = 1; break;
        case 10: b->name = "6-D mixed, Shard(5)->Shard(0), bound output"; memcpy(b->perm, mix, sizeof mix);
                b->in_mode = 5; b->out_mode = 0; b->bind = 1; break;
        case 11: b->name = "6-D reverse, Shard(5)->Shard(5), one kernel"; memcpy(b->perm, rev, sizeof rev);
                b->in_mode = 5; b->out_mode = 5; b->transport = PK; break;
        case 12: b->name = "6-D mixed, Shard(5)->Shard(0), one kernel"; memcpy(b->perm, mix, sizeof mix);
                b->in_mode = 5; b->out_mode = 0; b->transport = PK; break;
        case 13: b->name = "6-D swap01, Shard(5)->Shard(1), peer stores"; memcpy(b->perm, swap01, sizeof swap01);
                b->in_mode = 5; b->out_mode = 1; b->transport = PS; break;
        case 14: b->name = "6-D mixed, Shard(5)->Shard(0), peer stores"; memcpy(b->perm, mix, sizeof mix);
                b->in_mode = 5; b->out_mode = 0; b->transport = PS; break;
        }
        if (!big) b->iters = iters * 20;
        if (!big && ci % KINDS == 3) { free(b); continue; }
        const char* only = getenv("DT_BENCH_ONLY"); /* a substring of the case names to run */
        if (only && !strstr(b->name, only)) { free(b); continue; }
        dt_on_all_ranks(bench_rank, b);
        double td = 0, ta = 0, gpub = 0, hd = 0, ha = 0;
        for (int r = 0; r < dt_G; ++r) {
            hd = b->h_dist[r] > hd ? b->h_dist[r] : hd;
            ha = b->h_a2a[r] > ha ? b->h_a2a[r] : ha;
            if (b->st[r]) {
                printf("FAILED bench %s rank %d: %s\n", b->name, r, b->msg[r]);
                bad = 1;
            }
            td = b->t_dist[r] > td ? b->t_dist[r] : td;
            ta = b->t_a2a[r] > ta ? b->t_a2a[r] : ta;
        }
        int64_t vol = 1;
        for (int i = 0; i < 6; ++i) vol *= b->ext[i];
        gpub = (double)vol * 4 / dt_G / 1e9;
        char ex[64];
        snprintf(ex, sizeof ex, "%lldx%lldx%lldx%lldx%lldx%lld", (long long)b->ext[0], (long long)b->ext[1],
                 (long long)b->ext[2], (long long)b->ext[3], (long long)b->ext[4], (long long)b->ext[5]);
        printf("%-44s %-4s %-26s %9.4f %11zu %s/%d/%-2d %9.4f %9.4f %9.4f %6.3f %8.4f %8.4f %s\n", b->name,
               dt_type_name(b->type),
               ex, gpub, b->info[0].bytesSent,
               b->info[0].directWhole        ? "bw"
               : b->info[0].directTransposes ? "bo"
               : b->info[0].transport == PS ? "ps"
               : b->info[0].transport == PK ? "pk" : "sr",
               (int)b->info[0].variant,
               b->info[0].chunks, td, ta,
               b->info[0].predictedSeconds * 1e3, ta > 0 ? td / ta : 0, hd, ha, big ? "large" : "small");
        fflush(stdout);
        free(b);
    }
    return bad;
}
