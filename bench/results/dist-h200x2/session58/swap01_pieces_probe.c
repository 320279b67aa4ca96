/* The benchmark's 6-D swap01 redistribution (f32, 16x24x32x12x16xN, Shard(5) -> Shard(1); out mode
 * 0 = in mode 1) taken apart on two GPUs with the transposes libcuperm_dist runs (the internal
 * cuperm_transpose_plan_init / cuperm_transpose_run, as src/dist/run.c) and CUDA peer access: a
 * probe of what the pieces cost and how they overlap, outside the distributed engine.
 *   pack    the box the peer needs (in mode 0: the peer's half), copied in input order, dense
 *   local   the box that stays, transposed into this GPU's output
 *   unpack  a received dense box, transposed into the output
 *   direct  the peer's box transposed straight into the peer's output (permute on pack)
 * Stores into the peer with the grid full or capped at 2 blocks an SM (the sm_90 table's
 * dist_store_blocks_per_sm). Pipelines: stage c packs chunk c (in mode 5) into the peer's buffer,
 * the peer unpacks it once the stage's event fires (an event across GPUs instead of the window's
 * barrier kernel), the local piece beside from the start. Time: the slower GPU's, median of ITERS
 * after 3 warm-ups; "exchange": the same run's grouped ncclSend/ncclRecv of the box's bytes.
 *   gcc -O2 -std=c11 -I include -I src -I $CUDA/include swap01_pieces_probe.c -L... -lcuperm -lcudart -lnccl
 *   ./swap01_pieces_probe [GB_PER_GPU=1] [ITERS=15] */
#include <nccl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exec/transpose/plan.h"

#define CK(x) do { cudaError_t e_ = (x); if (e_) { fprintf(stderr, "%d %s: %s\n", __LINE__, #x, cudaGetErrorString(e_)); exit(1); } } while (0)
#define CP(x) do { if ((x) != CUPERM_STATUS_SUCCESS) { fprintf(stderr, "%d %s: %s\n", __LINE__, #x, cupermGetLastErrorMessage()); exit(1); } } while (0)
#define NK(x) do { if ((x) != ncclSuccess) { fprintf(stderr, "%d %s failed\n", __LINE__, #x); exit(1); } } while (0)

enum { G = 2, MAXK = 8 };
static const int ident[6] = {0, 1, 2, 3, 4, 5}, swap01[6] = {1, 0, 2, 3, 4, 5};
static int64_t E[6] = {16, 24, 32, 12, 16, 0};
static int64_t in_ext[6], in_str[6], out_ext[6], out_str[6], box[6], dense[6];
static size_t box_bytes, in_bytes, out_bytes;
static int iters = 15, cap_blocks;
static const float one = 1, zero = 0;

typedef struct {
    cuperm_handle_t* h;
    cudaStream_t main, pack, local, unpack;
    cudaEvent_t t0, t1, fork, join[3], staged[MAXK];
    float *in, *out, *sbuf, *rbuf;
    cuperm_transpose_plan_t pack_p, pack_cap, local_p, unpack_p, direct_p, direct_cap;
    cuperm_transpose_plan_t pack_k[MAXK + 1], unpack_k[MAXK + 1];
} gpu_t;
static gpu_t g[G];
static ncclComm_t comm[G];

static void plan(gpu_t* q, cuperm_transpose_plan_t* p, const int64_t* ext, const int* perm, const int64_t* is,
                 const int64_t* os, int capped)
{
    CP(cuperm_transpose_plan_init(q->h, p, 6, ext, perm, CUPERM_R_32F, is, os));
    if (capped && p->host.launch.blocks > cap_blocks) p->host.launch.blocks = cap_blocks;
    if (capped && p->host.packed.blocks > cap_blocks) p->host.packed.blocks = cap_blocks;
}
static void run(const cuperm_transpose_plan_t* p, const void* in, void* out, cudaStream_t s)
{
    CP(cuperm_transpose_run(p, &one, in, &zero, out, s));
}
static size_t in_half(int h) { return (size_t)(E[0] / 2) * h; }
static size_t out_half5(int h) { return (size_t)(E[5] / 2) * h * out_str[5]; }

enum { EXCHANGE, MEMCPY_PEER, PACK_LOCAL, PACK_PEER, PACK_PEER_CAP, LOCAL, UNPACK, DIRECT, DIRECT_CAP,
       PACK_PEER_CAP_WITH_LOCAL, DIRECT_CAP_WITH_LOCAL, EXCHANGE_WITH_LOCAL, PIPE_STORES, PIPE_STORES_FULL, PIPE_NCCL };
static const char* names[] = {"exchange: grouped ncclSend/ncclRecv of the box", "cudaMemcpyPeerAsync of the box",
    "pack into a local buffer", "pack into the peer's buffer, full grid", "pack into the peer's buffer, capped grid",
    "local piece", "unpack", "direct into the peer's output, full grid", "direct into the peer's output, capped",
    "pack into the peer (capped) + local piece beside", "direct (capped) + local piece beside",
    "exchange + local piece beside", "pipeline: peer stores (capped), unpack, local beside",
    "pipeline: peer stores (full grid), unpack, local beside", "pipeline: pack, ncclSend/Recv, unpack, local beside"};

static void exchange(size_t off, size_t bytes, int stream_pack)
{
    NK(ncclGroupStart());
    for (int d = 0; d < G; ++d) {
        cudaStream_t s = stream_pack ? g[d].pack : g[d].pack;
        NK(ncclSend((char*)g[d].sbuf + off, bytes, ncclInt8, 1 - d, comm[d], s));
        NK(ncclRecv((char*)g[d].rbuf + off, bytes, ncclInt8, 1 - d, comm[d], s));
    }
    NK(ncclGroupEnd());
}

static void enqueue(int op, int k)
{
    const int64_t c5 = box[5] / (k ? k : 1);
    const size_t cbytes = box_bytes / (k ? k : 1);
    if (op == EXCHANGE) { exchange(0, box_bytes, 1); return; }
    for (int d = 0; d < G; ++d) {
        gpu_t* q = &g[d];
        gpu_t* peer = &g[1 - d];
        CK(cudaSetDevice(d));
        const float* mine = q->in + in_half(d);
        const float* theirs = q->in + in_half(1 - d);
        switch (op) {
        case MEMCPY_PEER: CK(cudaMemcpyPeerAsync(peer->rbuf, 1 - d, q->sbuf, d, box_bytes, q->pack)); break;
        case PACK_LOCAL: run(&q->pack_p, theirs, q->sbuf, q->pack); break;
        case PACK_PEER: run(&q->pack_p, theirs, peer->rbuf, q->pack); break;
        case PACK_PEER_CAP: run(&q->pack_cap, theirs, peer->rbuf, q->pack); break;
        case LOCAL: run(&q->local_p, mine, q->out + out_half5(d), q->local); break;
        case UNPACK: run(&q->unpack_p, q->rbuf, q->out + out_half5(1 - d), q->unpack); break;
        case DIRECT: run(&q->direct_p, theirs, peer->out + out_half5(d), q->pack); break;
        case DIRECT_CAP: run(&q->direct_cap, theirs, peer->out + out_half5(d), q->pack); break;
        case PACK_PEER_CAP_WITH_LOCAL:
            run(&q->pack_cap, theirs, peer->rbuf, q->pack);
            run(&q->local_p, mine, q->out + out_half5(d), q->local);
            break;
        case DIRECT_CAP_WITH_LOCAL:
            run(&q->direct_cap, theirs, peer->out + out_half5(d), q->pack);
            run(&q->local_p, mine, q->out + out_half5(d), q->local);
            break;
        case EXCHANGE_WITH_LOCAL:
        case PIPE_STORES:
        case PIPE_STORES_FULL:
        case PIPE_NCCL: run(&q->local_p, mine, q->out + out_half5(d), q->local); break;
        }
    }
    if (op == EXCHANGE_WITH_LOCAL) exchange(0, box_bytes, 1);
    if (op < PIPE_STORES) return;
    for (int c = 0; c < k; ++c) {
        for (int d = 0; d < G; ++d) {
            gpu_t* q = &g[d];
            CK(cudaSetDevice(d));
            cuperm_transpose_plan_t p = q->pack_k[k];
            if (op == PIPE_STORES && p.host.launch.blocks > cap_blocks) p.host.launch.blocks = cap_blocks;
            if (op == PIPE_STORES && p.host.packed.blocks > cap_blocks) p.host.packed.blocks = cap_blocks;
            char* dst = op == PIPE_NCCL ? (char*)q->sbuf : (char*)g[1 - d].rbuf;
            run(&p, q->in + in_half(1 - d) + c * c5 * in_str[5], dst + c * cbytes, q->pack);
        }
        if (op == PIPE_NCCL) exchange(c * cbytes, cbytes, 1);
        for (int d = 0; d < G; ++d) {
            CK(cudaSetDevice(d));
            CK(cudaEventRecord(g[d].staged[c], g[d].pack));
        }
        for (int d = 0; d < G; ++d) { /* d unpacks what its peer stored (or what it received) */
            gpu_t* q = &g[d];
            CK(cudaSetDevice(d));
            CK(cudaStreamWaitEvent(q->unpack, op == PIPE_NCCL ? q->staged[c] : g[1 - d].staged[c], 0));
            run(&q->unpack_k[k], (char*)q->rbuf + c * cbytes, q->out + out_half5(1 - d) + c * c5 * out_str[5], q->unpack);
        }
    }
}

static float timed(int op, int k)
{
    for (int d = 0; d < G; ++d) {
        CK(cudaSetDevice(d));
        CK(cudaEventRecord(g[d].t0, g[d].main));
        CK(cudaEventRecord(g[d].fork, g[d].main));
        CK(cudaStreamWaitEvent(g[d].pack, g[d].fork, 0));
        CK(cudaStreamWaitEvent(g[d].local, g[d].fork, 0));
        CK(cudaStreamWaitEvent(g[d].unpack, g[d].fork, 0));
    }
    for (int d = 0; d < G; ++d) { /* both GPUs start together */
        CK(cudaSetDevice(d));
        CK(cudaStreamWaitEvent(g[d].pack, g[1 - d].fork, 0));
    }
    enqueue(op, k);
    float worst = 0;
    for (int d = 0; d < G; ++d) {
        CK(cudaSetDevice(d));
        cudaStream_t side[3] = {g[d].pack, g[d].local, g[d].unpack};
        for (int s = 0; s < 3; ++s) {
            CK(cudaEventRecord(g[d].join[s], side[s]));
            CK(cudaStreamWaitEvent(g[d].main, g[d].join[s], 0));
        }
        CK(cudaEventRecord(g[d].t1, g[d].main));
    }
    for (int d = 0; d < G; ++d) {
        float ms;
        CK(cudaSetDevice(d));
        CK(cudaEventSynchronize(g[d].t1));
        CK(cudaEventElapsedTime(&ms, g[d].t0, g[d].t1));
        if (ms > worst) worst = ms;
    }
    return worst;
}

static int cmpf(const void* a, const void* b) { float x = *(const float*)a, y = *(const float*)b; return (x > y) - (x < y); }
static float ex_ms;
static float row(int op, int k)
{
    float t[64];
    for (int w = 0; w < 3; ++w) timed(op, k);
    for (int i = 0; i < iters; ++i) t[i] = timed(op, k);
    qsort(t, (size_t)iters, sizeof *t, cmpf);
    const float med = t[iters / 2];
    char name[120];
    if (op >= PIPE_STORES) snprintf(name, sizeof name, "%s; %d stage%s", names[op], k, k > 1 ? "s" : "");
    else snprintf(name, sizeof name, "%s", names[op]);
    printf("%-72s median %8.4f ms  best %8.4f", name, med, t[0]);
    if (ex_ms > 0) printf("  / exchange %6.3f", med / ex_ms);
    printf("\n");
    fflush(stdout);
    return med;
}

__attribute__((unused)) static void fill(float* p, size_t n, unsigned seed)
{
    float* h = malloc(n * sizeof *h);
    for (size_t i = 0; i < n; ++i) h[i] = (float)((i * 2654435761u + seed) & 0xffffff);
    CK(cudaMemcpy(p, h, n * sizeof *h, cudaMemcpyHostToDevice));
    free(h);
}

int main(int argc, char** argv)
{
    const double gb = argc > 1 ? atof(argv[1]) : 1.0;
    if (argc > 2) iters = atoi(argv[2]);
    if (iters > 64) iters = 64;
    int ndev = 0;
    CK(cudaGetDeviceCount(&ndev));
    if (ndev < 2) { printf("SKIPPED: needs 2 GPUs, found %d\n", ndev); return 0; }
    const int64_t other = 16 * 24 * 32 * 12 * 16;
    E[5] = (int64_t)(gb * 1e9 * G / 4.0 / other) / (2 * MAXK) * (2 * MAXK);
    int64_t s = 1;
    for (int i = 0; i < 6; ++i) in_ext[i] = i == 5 ? E[5] / 2 : E[i], in_str[i] = s, s *= in_ext[i];
    in_bytes = (size_t)s * 4;
    s = 1;
    for (int i = 0; i < 6; ++i) out_ext[i] = i == 1 ? E[0] / 2 : E[swap01[i]], out_str[i] = s, s *= out_ext[i];
    out_bytes = (size_t)s * 4;
    s = 1;
    for (int i = 0; i < 6; ++i) box[i] = i == 0 ? E[0] / 2 : in_ext[i], dense[i] = s, s *= box[i];
    box_bytes = (size_t)s * 4;
    struct cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    cap_blocks = 2 * prop.multiProcessorCount;
    printf("%s x2; swap01 f32 %lldx%lldx%lldx%lldx%lldx%lld, %.3f GB a GPU, box %.3f GB; stores capped at %d blocks\n",
           prop.name, (long long)E[0], (long long)E[1], (long long)E[2], (long long)E[3], (long long)E[4],
           (long long)E[5], in_bytes / 1e9, box_bytes / 1e9, cap_blocks);
    int devs[G] = {0, 1};
    NK(ncclCommInitAll(comm, G, devs));
    for (int d = 0; d < G; ++d) {
        gpu_t* q = &g[d];
        int lo, hi;
        CK(cudaSetDevice(d));
        CK(cudaDeviceGetStreamPriorityRange(&lo, &hi));
        CK(cudaStreamCreateWithFlags(&q->main, cudaStreamNonBlocking));
        CK(cudaStreamCreateWithPriority(&q->pack, cudaStreamNonBlocking, hi));
        CK(cudaStreamCreateWithFlags(&q->local, cudaStreamNonBlocking));
        CK(cudaStreamCreateWithFlags(&q->unpack, cudaStreamNonBlocking));
        CK(cudaEventCreate(&q->t0));
        CK(cudaEventCreate(&q->t1));
        CK(cudaEventCreateWithFlags(&q->fork, cudaEventDisableTiming));
        for (int i = 0; i < 3; ++i) CK(cudaEventCreateWithFlags(&q->join[i], cudaEventDisableTiming));
        for (int i = 0; i < MAXK; ++i) CK(cudaEventCreateWithFlags(&q->staged[i], cudaEventDisableTiming));
        CK(cudaMalloc((void**)&q->in, in_bytes));
        CK(cudaMalloc((void**)&q->out, out_bytes));
        CK(cudaMalloc((void**)&q->sbuf, box_bytes));
        CK(cudaMalloc((void**)&q->rbuf, box_bytes));
        fill(q->in, in_bytes / 4, 7 + d);
        CK(cudaDeviceEnablePeerAccess(1 - d, 0));
        cupermHandle_t token;
        CP(cupermCreate(&token));
        CP(cuperm_handle_get(token, &q->h));
        plan(q, &q->pack_p, box, ident, in_str, dense, 0);
        plan(q, &q->pack_cap, box, ident, in_str, dense, 1);
        plan(q, &q->local_p, box, swap01, in_str, out_str, 0);
        plan(q, &q->unpack_p, box, swap01, dense, out_str, 0);
        plan(q, &q->direct_p, box, swap01, in_str, out_str, 0);
        plan(q, &q->direct_cap, box, swap01, in_str, out_str, 1);
        for (int k = 1; k <= MAXK; k *= 2) {
            int64_t cb[6], cd[6], t = 1;
            memcpy(cb, box, sizeof cb);
            cb[5] = box[5] / k;
            for (int i = 0; i < 6; ++i) cd[i] = t, t *= cb[i];
            plan(q, &q->pack_k[k], cb, ident, in_str, cd, 0);
            plan(q, &q->unpack_k[k], cb, swap01, cd, out_str, 0);
        }
    }
    printf("plans: pack kind %d blocks %lld | local kind %d blocks %lld | unpack kind %d blocks %lld\n",
           (int)g[0].pack_p.host.launch.kind, (long long)g[0].pack_p.host.launch.blocks,
           (int)g[0].local_p.host.launch.kind, (long long)g[0].local_p.host.launch.blocks,
           (int)g[0].unpack_p.host.launch.kind, (long long)g[0].unpack_p.host.launch.blocks);
    ex_ms = row(EXCHANGE, 0);
    for (int op = MEMCPY_PEER; op < PIPE_STORES; ++op) row(op, 0);
    for (int op = PIPE_STORES; op <= PIPE_NCCL; ++op)
        for (int k = 1; k <= MAXK; k *= 2) row(op, k);
    ex_ms = 0;
    row(EXCHANGE, 0);

    /* The last pipeline's output against the input (sampled middle modes). */
    for (int d = 0; d < G; ++d) { CK(cudaSetDevice(d)); CK(cudaDeviceSynchronize()); }
    float* in0 = malloc(in_bytes);
    float* in1 = malloc(in_bytes);
    float* out = malloc(out_bytes);
    CK(cudaSetDevice(0));
    CK(cudaMemcpy(in0, g[0].in, in_bytes, cudaMemcpyDeviceToHost));
    CK(cudaSetDevice(1));
    CK(cudaMemcpy(in1, g[1].in, in_bytes, cudaMemcpyDeviceToHost));
    size_t wrong = 0, checked = 0;
    for (int d = 0; d < G; ++d) {
        CK(cudaSetDevice(d));
        CK(cudaMemcpy(out, g[d].out, out_bytes, cudaMemcpyDeviceToHost));
        for (int64_t i5 = 0; i5 < out_ext[5]; ++i5)
            for (int64_t i4 = 0; i4 < E[4]; i4 += 5)
                for (int64_t i3 = 0; i3 < E[3]; i3 += 3)
                    for (int64_t i2 = 0; i2 < E[2]; i2 += 7)
                        for (int64_t o1 = 0; o1 < out_ext[1]; ++o1)
                            for (int64_t o0 = 0; o0 < out_ext[0]; ++o0) {
                                const float* src = i5 / (E[5] / 2) ? in1 : in0;
                                const size_t ii = (size_t)(d * (E[0] / 2) + o1 + o0 * in_str[1] + i2 * in_str[2] +
                                                  i3 * in_str[3] + i4 * in_str[4] + (i5 % (E[5] / 2)) * in_str[5]);
                                const size_t oi = (size_t)(o0 + o1 * out_str[1] + i2 * out_str[2] + i3 * out_str[3] +
                                                  i4 * out_str[4] + i5 * out_str[5]);
                                wrong += src[ii] != out[oi];
                                ++checked;
                            }
    }
    printf("last pipeline's output: %zu sampled elements, %s\n", checked, wrong ? "WRONG" : "ok");
    return 0;
}
