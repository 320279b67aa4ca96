/* cuperm-dist-anatomy: a peer-stores redistribution taken apart on the GPUs of one process (issue 17's
 * probe of where the time goes). For each case line (dist_case.h; RANKS GPUs, all visible) and each
 * candidate (variant, stages), it builds every rank's pieces with the planner (cuperm_dist_build_pieces,
 * the pieces cupermDistExecute runs) and times them with CUDA peer access in place of the NCCL window
 * (cross-GPU events in place of its barriers):
 *   exchange   grouped ncclSend/ncclRecv of the pieces' bytes (the benchmark's baseline)
 *   copy       cudaMemcpyAsync of the local piece's bytes (the rate the transposes are compared with)
 *   stores     the pack pieces into the receivers' windows, stage after stage (grids capped as planned)
 *   local      the local piece alone;  unpacks  the unpack pieces alone
 *   stores+local, stores+unpacks   beside each other (the unpacks wait for their stage's stores)
 *   pipeline   all three as cupermDistExecute schedules them (run.c: run_peer_stores)
 *   serial     all three one after the other on one stream
 * Time: the slowest GPU's, median of ITERS after 3 warm-ups, all GPUs started together. Inputs hashed
 * from their global indices; after the pipeline's runs every output element is checked (dt_check_hash).
 *   cuperm-dist-anatomy FILE [--iters N] [--candidates V/K,V/K,...]   (default 2/8,2/1,1/8)
 * --pieces (one GPU is enough): rank 0's local piece and its unpacks alone, each kind timed on GPU 0
 * against the transpose model's prediction with and without its footprint term (model.c:
 * cuperm_launch_footprint) and a copy of the same bytes; the window lies on GPU 0. */
#define _POSIX_C_SOURCE 200809L
#include <nccl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dist/plan.h"
#include "dist_case.h"
#include "exec/handle.h"
#include "plan/transpose/model.h"
#include "bench_check.h" /* tests/dist: the benchmark's hashed data and its check */

#define CK(x) do { cudaError_t e_ = (x); if (e_) { fprintf(stderr, "%d %s: %s\n", __LINE__, #x, cudaGetErrorString(e_)); exit(1); } } while (0)
#define CP(x) do { if ((x) != CUPERM_STATUS_SUCCESS) { fprintf(stderr, "%d %s: %s\n", __LINE__, #x, cupermGetLastErrorMessage()); exit(1); } } while (0)
#define NK(x) do { ncclResult_t r_ = (x); if (r_ != ncclSuccess) { fprintf(stderr, "%d %s: %s\n", __LINE__, #x, ncclGetErrorString(r_)); exit(1); } } while (0)

enum { MAXG = 8, MAXITERS = 64 };
enum { EXCHANGE, COPY, STORES, LOCAL, UNPACKS, STORES_LOCAL, STORES_UNPACKS, PIPELINE, SERIAL, N_OPS };
static const char* op_names[N_OPS] = {"exchange", "copy", "stores", "local", "unpacks", "stores+local",
                                      "stores+unpacks", "pipeline", "serial"};

typedef struct {
    cuperm_handle_t* h;
    cuperm_dist_plan_t* p;
    cudaStream_t main, link, side;
    cudaEvent_t t0, t1, fork, join[2], staged[CUPERM_DIST_MAX_CHUNKS];
    float *in, *out;
    char *win, *sbuf, *rbuf, *copy_dst;
    size_t win_bytes, sbuf_bytes, rbuf_bytes, copy_bytes;
} gpu_t;

static gpu_t g[MAXG];
static int G, iters = 10;
static ncclComm_t comm[MAXG];
static const float one = 1, zero = 0;

static void grow(char** buf, size_t* have, size_t want)
{
    if (want <= *have) return;
    if (*buf) CK(cudaFree(*buf));
    CK(cudaMalloc((void**)buf, want));
    *have = want;
}

static void run(const cuperm_dist_piece_t* s, const void* in, void* out, cudaStream_t st)
{
    CP(cuperm_transpose_run(&s->tp, &one, in, &zero, out, st));
}

static void stores(int d, int stage)
{
    const cuperm_dist_plan_t* p = g[d].p;
    for (int a = 0; a < p->n_pack; ++a)
        if (p->pack[a].stage == stage || stage < 0)
            run(&p->pack[a], g[d].in + p->pack[a].local_offset,
                g[p->pack[a].peer].win + p->recv_base + p->pack[a].peer_offset, g[d].link);
}

static void unpacks(int d, int stage, cudaStream_t st)
{
    const cuperm_dist_plan_t* p = g[d].p;
    for (int b = 0; b < p->n_unpack; ++b)
        if (p->unpack[b].stage == stage || stage < 0)
            run(&p->unpack[b], g[d].win + p->recv_base + p->unpack[b].buf_offset, g[d].out + p->unpack[b].local_offset,
                st);
}

static void local(int d, cudaStream_t st)
{
    const cuperm_dist_plan_t* p = g[d].p;
    if (p->has_local) run(&p->local, g[d].in + p->local.local_offset, g[d].out + p->local.local_offset2, st);
}

static void exchange(void)
{
    NK(ncclGroupStart());
    for (int d = 0; d < G; ++d) {
        const cuperm_dist_plan_t* p = g[d].p;
        for (int a = 0; a < p->n_pack; ++a)
            NK(ncclSend(g[d].sbuf + p->pack[a].buf_offset, p->pack[a].bytes, ncclInt8, p->pack[a].peer, comm[d],
                        g[d].link));
        for (int b = 0; b < p->n_unpack; ++b)
            NK(ncclRecv(g[d].rbuf + p->unpack[b].buf_offset, p->unpack[b].bytes, ncclInt8, p->unpack[b].peer, comm[d],
                        g[d].link));
    }
    NK(ncclGroupEnd());
}

/* Stage c's unpacks on GPU d wait for the stores of stage c of every GPU that sends to d. */
static void staged_unpacks(int d, int c)
{
    for (int q = 0; q < G; ++q)
        if (q != d) CK(cudaStreamWaitEvent(g[d].side, g[q].staged[c], 0));
    unpacks(d, c, g[d].side);
}

static void enqueue(int op)
{
    const int k = g[0].p->chunks;
    if (op == EXCHANGE) {
        exchange();
        return;
    }
    for (int d = 0; d < G; ++d) {
        CK(cudaSetDevice(d));
        switch (op) {
        case COPY: CK(cudaMemcpyAsync(g[d].copy_dst, g[d].in, g[d].p->local_bytes, cudaMemcpyDeviceToDevice, g[d].side)); break;
        case STORES: stores(d, -1); break;
        case LOCAL: local(d, g[d].side); break;
        case UNPACKS: unpacks(d, -1, g[d].side); break;
        case STORES_LOCAL: stores(d, -1); local(d, g[d].side); break;
        case SERIAL: stores(d, -1); local(d, g[d].link); unpacks(d, -1, g[d].link); break;
        case PIPELINE: local(d, g[d].side); break; /* first on the side stream, as start_stores */
        default: break;
        }
    }
    if (op != STORES_UNPACKS && op != PIPELINE) return;
    for (int c = 0; c < k; ++c) {
        for (int d = 0; d < G; ++d) {
            CK(cudaSetDevice(d));
            stores(d, c);
            CK(cudaEventRecord(g[d].staged[c], g[d].link));
        }
        for (int d = 0; d < G; ++d) {
            CK(cudaSetDevice(d));
            staged_unpacks(d, c);
        }
    }
}

static float timed(int op)
{
    for (int d = 0; d < G; ++d) {
        CK(cudaSetDevice(d));
        CK(cudaEventRecord(g[d].t0, g[d].main));
        CK(cudaEventRecord(g[d].fork, g[d].main));
        CK(cudaStreamWaitEvent(g[d].link, g[d].fork, 0));
        CK(cudaStreamWaitEvent(g[d].side, g[d].fork, 0));
    }
    for (int d = 0; d < G; ++d) { /* every GPU starts once all have, its stores first (enqueue) */
        CK(cudaSetDevice(d));
        for (int q = 0; q < G; ++q)
            if (q != d) {
                CK(cudaStreamWaitEvent(g[d].link, g[q].fork, 0));
                CK(cudaStreamWaitEvent(g[d].side, g[q].fork, 0));
            }
    }
    enqueue(op);
    for (int d = 0; d < G; ++d) {
        CK(cudaSetDevice(d));
        CK(cudaEventRecord(g[d].join[0], g[d].link));
        CK(cudaEventRecord(g[d].join[1], g[d].side));
        CK(cudaStreamWaitEvent(g[d].main, g[d].join[0], 0));
        CK(cudaStreamWaitEvent(g[d].main, g[d].join[1], 0));
        CK(cudaEventRecord(g[d].t1, g[d].main));
    }
    float worst = 0;
    for (int d = 0; d < G; ++d) {
        float ms;
        CK(cudaSetDevice(d));
        CK(cudaEventSynchronize(g[d].t1));
        CK(cudaEventElapsedTime(&ms, g[d].t0, g[d].t1));
        if (ms > worst) worst = ms;
    }
    return worst;
}

static int cmpf(const void* a, const void* b)
{
    const float x = *(const float*)a, y = *(const float*)b;
    return (x > y) - (x < y);
}

static float median_ms(int op)
{
    float t[MAXITERS];
    for (int w = 0; w < 3; ++w) timed(op);
    for (int i = 0; i < iters; ++i) t[i] = timed(op);
    qsort(t, (size_t)iters, sizeof *t, cmpf);
    return t[iters / 2];
}

/* Every rank's output block against the hashed input (the pipeline's last run). */
static int check(const dist_case_t* c, const cuperm_dist_layout_t* lo)
{
    int bad = 0;
    for (int d = 0; d < G; ++d) {
        cuperm_dist_box_t box;
        int64_t le[CUPERM_MAX_RANK], off[CUPERM_MAX_RANK];
        if (!cuperm_dist_owned(lo, d, &box)) continue;
        for (int m = 0; m < c->rank; ++m) le[m] = box.hi[m] - box.lo[m], off[m] = box.lo[m];
        unsigned long long wrong = 0;
        long long first = -1;
        CK(cudaSetDevice(d));
        CK(dt_check_hash(g[d].out, c->rank, le, off, c->ext, c->perm, g[d].main, &wrong, &first));
        if (wrong) printf("  GPU %d: %llu elements WRONG, the first at local index %lld\n", d, wrong, first);
        bad |= wrong != 0;
    }
    return bad;
}

static int run_case(const dist_case_t* c, const int (*cand)[2], int n_cand)
{
    cuperm_dist_layout_t li, lo;
    CP(dist_case_layouts(c, &li, &lo));
    for (int d = 0; d < G; ++d) { /* this rank's input (hashed) and output blocks */
        cuperm_dist_box_t box;
        int64_t le[CUPERM_MAX_RANK], off[CUPERM_MAX_RANK];
        CK(cudaSetDevice(d));
        if (g[d].in) CK(cudaFree(g[d].in));
        if (g[d].out) CK(cudaFree(g[d].out));
        const int64_t vin = cuperm_dist_owned(&li, d, &box), vout = cuperm_dist_local_span(&lo, d);
        for (int m = 0; m < c->rank; ++m) le[m] = box.hi[m] - box.lo[m], off[m] = box.lo[m];
        CK(cudaMalloc((void**)&g[d].in, (size_t)(vin ? vin : 1) * 4));
        CK(cudaMalloc((void**)&g[d].out, (size_t)(vout ? vout : 1) * 4));
        if (vin) CK(dt_fill_hash(g[d].in, c->rank, le, off, c->ext, g[d].main));
        CK(cudaStreamSynchronize(g[d].main));
    }
    int bad = 0;
    for (int i = 0; i < n_cand; ++i) {
        for (int d = 0; d < G; ++d) {
            CK(cudaSetDevice(d));
            g[d].p = calloc(1, sizeof *g[d].p);
            CP(cuperm_dist_build_pieces(g[d].h, &li, &lo, c->perm, d, CUPERM_DIST_TRANSPORT_PEER_STORES, cand[i][0],
                                        cand[i][1], g[d].p));
            g[d].p->chunks = cand[i][1];
            grow(&g[d].win, &g[d].win_bytes, g[d].p->window_bytes + 256);
            grow(&g[d].sbuf, &g[d].sbuf_bytes, g[d].p->send_bytes + 256);
            /* the unpacks read their window offsets: the exchange receives at the same ones */
            grow(&g[d].rbuf, &g[d].rbuf_bytes, g[d].p->window_bytes + 256);
            grow(&g[d].copy_dst, &g[d].copy_bytes, g[d].p->local_bytes + 256);
        }
        float t[N_OPS];
        for (int op = 0; op < N_OPS; ++op) t[op] = median_ms(op);
        const double gbs = 1e-6 * (double)g[0].p->local_bytes;
        printf("  v%d/k%d  sent %.3f GB  local %.3f GB:", cand[i][0], cand[i][1], 1e-9 * (double)g[0].p->send_bytes, 1e-9 * (double)g[0].p->local_bytes);
        for (int op = 0; op < N_OPS; ++op) printf(" %s %.3f", op_names[op], t[op]);
        printf(" | pipeline/exchange %.3f serial/exchange %.3f stores/exchange %.3f local/copy %.3f unpacks/copy %.3f"
               " copy %.0f GB/s\n", t[PIPELINE] / t[EXCHANGE], t[SERIAL] / t[EXCHANGE], t[STORES] / t[EXCHANGE],
               t[LOCAL] / t[COPY], t[UNPACKS] / t[COPY] * (double)g[0].p->local_bytes / (double)g[0].p->recv_bytes,
               2 * gbs / t[COPY]);
        bad |= check(c, &lo);
        for (int d = 0; d < G; ++d) {
            CK(cudaSetDevice(d));
            cuperm_dist_plan_free(g[d].p); /* pieces only: no window, streams or handle reference */
            g[d].p = NULL;
        }
    }
    return bad;
}

/* Pieces' predicted seconds with the footprint term (as planned) and without it. */
static void predicted(const cuperm_dist_piece_t* s, int n, const cuperm_tuning_t* tu, double* with, double* without)
{
    *with = *without = 0;
    for (int i = 0; i < n; ++i) {
        const cuperm_host_plan_t* h = &s[i].tp.host;
        const double f = cuperm_launch_footprint(h->has_packed ? &h->packed : &h->launch,
                                                 tu->transpose.model_dram_atom_bytes);
        const double t0 = tu->transpose.model_t0;
        *with += h->predicted_seconds;
        *without += t0 + (h->predicted_seconds - t0) / f;
    }
}

static float median_of(void (*enqueue1)(const cuperm_dist_plan_t*, int), const cuperm_dist_plan_t* p, int what)
{
    float t[MAXITERS];
    for (int i = -3; i < iters; ++i) {
        CK(cudaEventRecord(g[0].t0, g[0].main));
        enqueue1(p, what);
        CK(cudaEventRecord(g[0].t1, g[0].main));
        CK(cudaEventSynchronize(g[0].t1));
        if (i >= 0) CK(cudaEventElapsedTime(&t[i], g[0].t0, g[0].t1));
    }
    qsort(t, (size_t)iters, sizeof *t, cmpf);
    return t[iters / 2];
}

/* what: 0 the local piece, 1 the unpacks, 2 a copy of the local piece's bytes, 3 of the unpacks'. */
static void enqueue_piece(const cuperm_dist_plan_t* p, int what)
{
    cudaStream_t st = g[0].main;
    if (what == 0) run(&p->local, g[0].in + p->local.local_offset, g[0].out + p->local.local_offset2, st);
    if (what == 1)
        for (int b = 0; b < p->n_unpack; ++b)
            run(&p->unpack[b], g[0].win + p->recv_base + p->unpack[b].buf_offset, g[0].out + p->unpack[b].local_offset, st);
    if (what == 2) CK(cudaMemcpyAsync(g[0].copy_dst, g[0].in, p->local_bytes, cudaMemcpyDeviceToDevice, st));
    if (what == 3) /* from the window, which holds at least the received bytes (the input block may not) */
        CK(cudaMemcpyAsync(g[0].copy_dst, g[0].win, p->recv_bytes, cudaMemcpyDeviceToDevice, st));
}

/* --pieces: rank 0's transposes on GPU 0, one row per case, candidate and kind. */
static void pieces_case(const dist_case_t* c, const int (*cand)[2], int n_cand, int id)
{
    cuperm_dist_layout_t li, lo;
    CP(dist_case_layouts(c, &li, &lo));
    cuperm_dist_box_t box;
    int64_t le[CUPERM_MAX_RANK], off[CUPERM_MAX_RANK];
    const int64_t vin = cuperm_dist_owned(&li, 0, &box), vout = cuperm_dist_local_span(&lo, 0);
    for (int m = 0; m < c->rank; ++m) le[m] = box.hi[m] - box.lo[m], off[m] = box.lo[m];
    size_t have = 0;
    grow((char**)&g[0].in, &have, (size_t)(vin ? vin : 1) * 4);
    have = 0;
    grow((char**)&g[0].out, &have, (size_t)(vout ? vout : 1) * 4);
    if (vin) CK(dt_fill_hash(g[0].in, c->rank, le, off, c->ext, g[0].main));
    for (int i = 0; i < n_cand; ++i) {
        cuperm_dist_plan_t* p = calloc(1, sizeof *p);
        CP(cuperm_dist_build_pieces(g[0].h, &li, &lo, c->perm, 0, CUPERM_DIST_TRANSPORT_PEER_STORES, cand[i][0],
                                    cand[i][1], p));
        grow(&g[0].win, &g[0].win_bytes, p->window_bytes + 256);
        grow(&g[0].copy_dst, &g[0].copy_bytes, (p->local_bytes > p->recv_bytes ? p->local_bytes : p->recv_bytes) + 256);
        CK(cudaMemsetAsync(g[0].win, 0x3c, p->window_bytes, g[0].main));
        for (int kind = 0; kind < 2; ++kind) {
            const cuperm_dist_piece_t* s = kind ? p->unpack : &p->local;
            const int n = kind ? p->n_unpack : p->has_local;
            if (!n) continue;
            double with, without;
            predicted(s, n, g[0].h->tuning, &with, &without);
            const float t = median_of(enqueue_piece, p, kind), copy = median_of(enqueue_piece, p, kind + 2);
            const cuperm_launch_t* l = s[0].tp.host.has_packed ? &s[0].tp.host.packed : &s[0].tp.host.launch;
            printf("%d,%d,%d,%s,%d,%lld,%zu,%.4f,%.4f,%.4f,%.4f,%.3f\n", id, cand[i][0], cand[i][1],
                   kind ? "unpacks" : "local", n, (long long)l->kind, kind ? p->recv_bytes : p->local_bytes, t, copy,
                   with * 1e3, without * 1e3, cuperm_launch_footprint(l, g[0].h->tuning->transpose.model_dram_atom_bytes));
        }
        cuperm_dist_plan_free(p);
    }
}

int main(int argc, char** argv)
{
    int cand[16][2] = {{2, 8}, {2, 1}, {1, 8}}, n_cand = 3, pieces = 0;
    for (int i = 2; i < argc; ++i) {
        if (!strcmp(argv[i], "--pieces")) {
            pieces = 1;
        } else if (!strcmp(argv[i], "--iters") && i + 1 < argc) {
            iters = atoi(argv[++i]);
            iters = iters < 1 ? 1 : iters > MAXITERS ? MAXITERS : iters;
        } else if (!strcmp(argv[i], "--candidates") && i + 1 < argc) {
            n_cand = 0;
            for (char* s = strtok(argv[++i], ","); s && n_cand < 16; s = strtok(NULL, ","))
                if (sscanf(s, "%d/%d", &cand[n_cand][0], &cand[n_cand][1]) == 2) ++n_cand;
        } else {
            fprintf(stderr, "unknown argument %s\n", argv[i]);
            return 2;
        }
    }
    if (argc < 2) {
        fprintf(stderr, "usage: %s FILE [--iters N] [--candidates V/K,...]\n", argv[0]);
        return 2;
    }
    FILE* f = fopen(argv[1], "r");
    if (!f) {
        fprintf(stderr, "cannot read %s\n", argv[1]);
        return 1;
    }
    setenv("NCCL_NVLS_ENABLE", "0", 1);
    setvbuf(stdout, NULL, _IOLBF, 0);
    int ndev = 0;
    if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev < 2 - pieces) {
        printf("SKIPPED: cuperm-dist-anatomy needs at least %d GPUs\n", 2 - pieces);
        return 77;
    }
    G = pieces ? 1 : ndev < MAXG ? ndev : MAXG;
    int devs[MAXG];
    for (int d = 0; d < G; ++d) devs[d] = d;
    if (!pieces) NK(ncclCommInitAll(comm, G, devs));
    for (int d = 0; d < G; ++d) {
        gpu_t* q = &g[d];
        int lo, hi;
        CK(cudaSetDevice(d));
        for (int e = 0; e < G; ++e)
            if (e != d) CK(cudaDeviceEnablePeerAccess(e, 0));
        CK(cudaDeviceGetStreamPriorityRange(&lo, &hi));
        CK(cudaStreamCreateWithFlags(&q->main, cudaStreamNonBlocking));
        CK(cudaStreamCreateWithPriority(&q->link, cudaStreamNonBlocking, hi));
        CK(cudaStreamCreateWithFlags(&q->side, cudaStreamNonBlocking));
        CK(cudaEventCreate(&q->t0));
        CK(cudaEventCreate(&q->t1));
        CK(cudaEventCreateWithFlags(&q->fork, cudaEventDisableTiming));
        for (int i = 0; i < 2; ++i) CK(cudaEventCreateWithFlags(&q->join[i], cudaEventDisableTiming));
        for (int i = 0; i < CUPERM_DIST_MAX_CHUNKS; ++i) CK(cudaEventCreateWithFlags(&q->staged[i], cudaEventDisableTiming));
        cupermHandle_t token;
        CP(cupermCreate(&token));
        CP(cuperm_handle_get(token, &q->h));
    }
    struct cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    printf("cuperm-dist-anatomy: %d x %s, NCCL %d; times in ms, the slowest GPU's median of %d\n", G, prop.name,
           NCCL_VERSION_CODE, iters);
    if (pieces)
        printf("case,variant,stages,kind,pieces,launch_kind,bytes,ms,copy_ms,predicted_ms,dense_predicted_ms,footprint\n");
    int bad = 0, id = 0, got;
    dist_case_t c;
    while ((got = dist_case_next(f, &c, &id)) != 0) {
        if (got < 0) continue;
        if (pieces) {
            pieces_case(&c, (const int(*)[2])cand, n_cand, id++);
            continue;
        }
        if (c.ranks != G) {
            fprintf(stderr, "case %d: %d ranks, but %d GPUs: skipped\n", id++, c.ranks, G);
            continue;
        }
        printf("case %d: %d ranks, S%d -> S%d,", id++, c.ranks, c.in_mode, c.out_mode);
        for (int m = 0; m < c.rank; ++m) printf("%s%lld", m ? "x" : " ", (long long)c.ext[m]);
        printf(" perm");
        for (int m = 0; m < c.rank; ++m) printf("%s%d", m ? "," : " ", c.perm[m]);
        printf("\n");
        bad |= run_case(&c, (const int(*)[2])cand, n_cand);
    }
    fclose(f);
    printf(bad ? "FAILED\n" : "PASSED\n");
    return bad;
}
