/* cuperm-dist-test --phases: the 6-D reverse redistribution of the benchmark (Shard(5) ->
 * Shard(5), out mode 5 = in mode 0) taken apart on every rank, each phase timed alone with
 * public calls only: the pack (the box a peer needs, copied in input order into a send
 * buffer), the local piece (the box that stays, transposed into out), the unpack (a received
 * box, transposed into out), the grouped ncclSend/ncclRecv of the boxes, and the local piece
 * running beside the exchange on another stream; then a device-to-device cudaMemcpyAsync of
 * the box's bytes (copy engines, no SMs) alone and beside the exchange. Says what the
 * pipeline's parts cost and whether the exchange slows down when other memory traffic shares
 * the GPU with it, from SMs or from copy engines. */
#include <string.h>

#include "dist_parts.h"
#include "harness.h"

enum { P_PACK, P_LOCAL, P_UNPACK, P_NCCL, P_LOCAL_WITH_NCCL, P_COPY, P_COPY_WITH_NCCL, P_SUM, P_COUNT };
static const char* kNames[] = {"pack (box to a peer, input order)", "local piece (transpose into out)",
                               "unpack (received box into out)", "grouped send/recv of the boxes",
                               "local piece beside send/recv (both)", "memcpy D2D of a box's bytes",
                               "memcpy D2D beside send/recv (both)", "pack + max(send/recv, local) + unpack"};

typedef struct {
    int64_t ext[6]; /* global extents; mode 5 split over the ranks in the input, mode 0 in the output */
    int iters;
    double ms[MAXG][P_COUNT];
} phases_t;



static void plan_box(cupermHandle_t h, cupermPlan_t* p, const int64_t* box, const int* perm, const int64_t* is,
                     const int64_t* os)
{
    if (cupermPlanTranspose(h, p, 6, box, perm, CUPERM_R_32F, is, os)) {
        fprintf(stderr, "phases: cupermPlanTranspose: %s\n", cupermGetLastErrorMessage());
        exit(1);
    }
}

static void phases_rank(int r, void* arg)
{
    phases_t* ph = arg;
    rank_t* k = &dt_R[r];
    const int G = dt_G, peer = (r + 1) % G;
    static const int rev[6] = {5, 4, 3, 2, 1, 0}, ident[6] = {0, 1, 2, 3, 4, 5};
    const int64_t* e = ph->ext;
    /* this rank's blocks: in = e with mode 5 / G (dense, input order); out = reversed, out mode 5 / G */
    int64_t in_ext[6], out_ext[6], in_str[6], out_str[6], s = 1;
    for (int i = 0; i < 6; ++i) in_ext[i] = i == 5 ? e[5] / G : e[i];
    for (int i = 0; i < 6; ++i) out_ext[i] = i == 5 ? e[0] / G : e[rev[i]];
    for (int i = 0; i < 6; ++i) in_str[i] = s, s *= in_ext[i];
    const int64_t in_vol = s;
    s = 1;
    for (int i = 0; i < 6; ++i) out_str[i] = s, s *= out_ext[i];
    /* a box: in mode 0 cut to e[0] / G, in mode 5 this rank's share; out strides of the box's modes */
    int64_t box[6], box_out_str[6], dense[6];
    for (int i = 0; i < 6; ++i) box[i] = i == 0 ? e[0] / G : in_ext[i];
    s = 1;
    for (int i = 0; i < 6; ++i) dense[i] = s, s *= box[i];
    const size_t box_bytes = (size_t)s * 4;
    for (int i = 0; i < 6; ++i) box_out_str[i] = out_str[i]; /* out mode i = box mode rev[i] */
    cupermPlan_t pack, local, unpack;
    plan_box(k->handle, &pack, box, ident, in_str, dense);
    plan_box(k->handle, &local, box, rev, in_str, box_out_str);
    plan_box(k->handle, &unpack, box, rev, dense, box_out_str);
    void *x, *y, *sb, *rb;
    CK(cudaMalloc(&x, (size_t)in_vol * 4));
    CK(cudaMalloc(&y, (size_t)in_vol * 4));
    CK(cudaMalloc(&sb, box_bytes));
    CK(cudaMalloc(&rb, box_bytes));
    CK(cudaMemset(x, 0x3c, (size_t)in_vol * 4));
    CK(cudaMemset(sb, 0x3c, box_bytes));
    cudaStream_t side;
    CK(cudaStreamCreateWithFlags(&side, cudaStreamNonBlocking));
    cudaEvent_t e0, e1, fork, join;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    CK(cudaEventCreateWithFlags(&fork, cudaEventDisableTiming));
    CK(cudaEventCreateWithFlags(&join, cudaEventDisableTiming));
    const float one = 1, zero = 0;
    /* this rank's box of the other rank's mode-0 range: the pack reads it, offset e[0]/G elements */
    const char* pack_src = (const char*)x + (size_t)(e[0] / G) * (size_t)peer * 4;
    const char* local_src = (const char*)x + (size_t)(e[0] / G) * (size_t)r * 4;
    char* local_dst = (char*)y + (size_t)(e[5] / G) * (size_t)r * 4; /* out mode 0 = in mode 5, this rank's share */
    char* unpack_dst = (char*)y + (size_t)(e[5] / G) * (size_t)peer * 4;
    for (int phase = P_PACK; phase < P_SUM; ++phase) {
        for (int it = -2; it < ph->iters; ++it) {
            if (it == 0) CK(cudaEventRecord(e0, k->stream));
            switch (phase) {
            case P_PACK: cupermExecute(pack, &one, pack_src, &zero, sb, k->stream); break;
            case P_LOCAL: cupermExecute(local, &one, local_src, &zero, local_dst, k->stream); break;
            case P_UNPACK: cupermExecute(unpack, &one, rb, &zero, unpack_dst, k->stream); break;
            case P_COPY: CK(cudaMemcpyAsync(y, x, box_bytes, cudaMemcpyDeviceToDevice, k->stream)); break;
            case P_NCCL:
            case P_LOCAL_WITH_NCCL:
            case P_COPY_WITH_NCCL:
                if (phase != P_NCCL) {
                    CK(cudaEventRecord(fork, k->stream));
                    CK(cudaStreamWaitEvent(side, fork, 0));
                    if (phase == P_LOCAL_WITH_NCCL)
                        cupermExecute(local, &one, local_src, &zero, local_dst, side);
                    else
                        CK(cudaMemcpyAsync(y, x, box_bytes, cudaMemcpyDeviceToDevice, side));
                    CK(cudaEventRecord(join, side));
                }
                ncclGroupStart();
                for (int p = 0; p < G; ++p) {
                    if (p == r) continue;
                    ncclSend(sb, box_bytes, ncclInt8, p, k->comm, k->stream);
                    ncclRecv(rb, box_bytes, ncclInt8, p, k->comm, k->stream);
                }
                ncclGroupEnd();
                if (phase != P_NCCL) CK(cudaStreamWaitEvent(k->stream, join, 0));
                break;
            }
        }
        CK(cudaEventRecord(e1, k->stream));
        CK(cudaEventSynchronize(e1));
        float ms;
        CK(cudaEventElapsedTime(&ms, e0, e1));
        ph->ms[r][phase] = ms / ph->iters;
    }
    double* m = ph->ms[r];
    m[P_SUM] = m[P_PACK] + (m[P_NCCL] > m[P_LOCAL] ? m[P_NCCL] : m[P_LOCAL]) + m[P_UNPACK];
    cupermPlanDestroy(pack);
    cupermPlanDestroy(local);
    cupermPlanDestroy(unpack);
    cudaFree(x);
    cudaFree(y);
    cudaFree(sb);
    cudaFree(rb);
    cudaStreamDestroy(side);
    cudaEventDestroy(e0);
    cudaEventDestroy(e1);
    cudaEventDestroy(fork);
    cudaEventDestroy(join);
}

int dt_phases(double gb, int iters)
{
    phases_t ph = {{16, 24, 32, 12, 16, 0}, iters, {{0}}};
    const int64_t other = 16 * 24 * 32 * 12 * 16;
    int64_t last = (int64_t)(gb * 1e9 * dt_G / 4.0 / (double)other) / (2 * dt_G) * (2 * dt_G);
    ph.ext[5] = last < 2 * dt_G ? 2 * dt_G : last;
    if (dt_G != 2) { /* one send and one receive buffer: one peer */
        printf("phases: SKIPPED (written for 2 ranks, %d here)\n", dt_G);
        return 0;
    }
    dt_on_all_ranks(phases_rank, &ph);
    printf("phases of the 6-D reverse redistribution, f32, %lldx%lldx%lldx%lldx%lldx%lld, %d ranks (ms per run, "
           "mean of %d; one column per rank)\n", (long long)ph.ext[0], (long long)ph.ext[1], (long long)ph.ext[2],
           (long long)ph.ext[3], (long long)ph.ext[4], (long long)ph.ext[5], dt_G, iters);
    for (int p = 0; p <= P_SUM; ++p) {
        printf("  %-42s", kNames[p]);
        for (int r = 0; r < dt_G; ++r) printf(" %8.4f", ph.ms[r][p]);
        printf("\n");
    }
    return 0;
}
