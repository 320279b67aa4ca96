/* Running a distributed redistribution plan (plan.h): the send/receive pipeline and the
 * peer-stores stages, both on the caller's stream and the plan's side streams. */
#include <string.h>

#include "dist/plan.h"

void cuperm_dist_unit_scalars(cupermDataType_t type, unsigned char one[16], unsigned char zero[16])
{
    memset(one, 0, 16);
    memset(zero, 0, 16);
    switch (type) {
    case CUPERM_R_16F: case CUPERM_R_16BF: case CUPERM_R_32F: case CUPERM_C_32F: {
        const float f = 1.0f;
        memcpy(one, &f, sizeof f);
        break;
    }
    case CUPERM_R_64F: case CUPERM_C_64F: {
        const double d = 1.0;
        memcpy(one, &d, sizeof d);
        break;
    }
    default: one[0] = 1; /* integers, little-endian */
    }
}

static cupermStatus_t run_piece(const cuperm_dist_piece_t* s, const void* alpha, const void* in, const void* beta,
                                void* out, cudaStream_t stream)
{
    return cuperm_transpose_run(&s->tp, alpha, in, beta, out, stream);
}

/* All ranks reach this point of their streams: the window's kernel barrier (window.h). */
static cupermStatus_t barrier(const cuperm_dist_window_t* w, cudaStream_t stream)
{
    const cudaError_t e = cuperm_dist_window_barrier(w, stream);
    return e ? cuperm_dist_cuda_fail(e, "cupermDistExecute: the NCCL window's barrier") : CUPERM_STATUS_SUCCESS;
}

/* Ends a run: the caller's stream waits for the link and side streams (also after a failure, so
 * that nothing the plan enqueued outlives the caller's view of the stream). */
static cupermStatus_t join_link(const cuperm_dist_plan_t* p, cudaStream_t stream, cupermStatus_t st)
{
    cudaError_t e = cudaEventRecord(p->ev_comm_done, p->comm_stream);
    if (!e) e = cudaEventRecord(p->ev_unpack_done, p->unpack_stream);
    if (!e) e = cudaStreamWaitEvent(stream, p->ev_comm_done, 0);
    if (!e) e = cudaStreamWaitEvent(stream, p->ev_unpack_done, 0);
    if (e && !st) st = cuperm_dist_cuda_fail(e, "cupermDistExecute: joining the plan's streams");
    return st;
}

/* The start of a run that stores into other GPUs: the link and side streams follow the caller's,
 * a barrier over w runs on the link stream (*opened: it was enqueued, so every later barrier of the
 * run must be too, whatever fails in between: the peers wait in theirs), and the side stream waits
 * for it; then the local piece on the side stream (the stores, enqueued after it on the
 * higher-priority link stream, are dispatched first when the barrier passes). */
static cupermStatus_t start_stores(const cuperm_dist_plan_t* p, const cuperm_dist_window_t* w, const void* alpha,
                                   const void* in, const void* beta, void* out, cudaStream_t stream, int* opened)
{
    const size_t elem = (size_t)p->elem_size;
    *opened = 0;
    cudaError_t e = cudaEventRecord(p->ev_start, stream);
    if (!e) e = cudaStreamWaitEvent(p->unpack_stream, p->ev_start, 0);
    if (!e) e = cudaStreamWaitEvent(p->comm_stream, p->ev_start, 0);
    if (e) return cuperm_dist_cuda_fail(e, "cupermDistExecute: ordering the plan's streams");
    cupermStatus_t st = barrier(w, p->comm_stream);
    *opened = !st;
    if (!st && (e = cudaEventRecord(p->ev_pack[0], p->comm_stream)) == cudaSuccess)
        e = cudaStreamWaitEvent(p->unpack_stream, p->ev_pack[0], 0);
    if (e) st = cuperm_dist_cuda_fail(e, "cupermDistExecute: ordering the plan's streams");
    if (!st && p->has_local && !p->skip_local)
        st = run_piece(&p->local, alpha, (const char*)in + (size_t)p->local.local_offset * elem, beta,
                       (char*)out + (size_t)p->local.local_offset2 * elem, p->unpack_stream);
    return st;
}

/* One kernel (moves.h) on the caller's stream: its own barriers around the stores into the
 * receivers' window parts (direct: their bound outputs) and the local piece, then this rank's
 * unpacks from its window part. */
static cupermStatus_t run_one_kernel(const cuperm_dist_plan_t* p, int direct, const void* alpha, const void* in,
                                     const void* beta, void* out, cudaStream_t stream)
{
    const cuperm_dist_moves_t* mv = direct ? &p->direct.moves : &p->moves;
    const cudaError_t e = cuperm_dist_window_moves(direct ? &p->direct.window : &p->window, mv->list, mv->stores,
                                                   mv->n, p->type, alpha, in, beta, out, stream);
    return e ? cuperm_dist_cuda_fail(e, "cupermDistExecute: the moves kernel") : CUPERM_STATUS_SUCCESS;
}

/* Into a bound output (direct.c). With the whole-block transpose: a barrier (every receiver's earlier
 * work on its output is done), that transpose, a barrier (every store has landed). Else on the plan's
 * high-priority stream: a barrier (every receiver's
 * earlier work on its output is done), this rank's stores straight into the receivers' outputs with
 * alpha and beta, their grids capped at build time (cuperm_dist_cap_grid), and a barrier
 * (every store has landed). The local piece starts on the side stream once the first barrier has
 * passed, in the SM slots the capped stores leave: the stores' blocks are dispatched first, and
 * the local piece's time hides under the link's (bench/results/dist-h200x2/session31/). */
static cupermStatus_t run_direct(const cuperm_dist_plan_t* p, const void* alpha, const void* in, const void* beta,
                                 void* out, cudaStream_t stream)
{
    const cuperm_dist_piece_t* w = &p->direct.whole;
    if (p->direct.has_whole) { /* one transpose, local and remote stores interleaved: on the caller's stream */
        cupermStatus_t st = barrier(&p->direct.window, stream);
        if (st) return st;
        if (w->bytes) st = run_piece(w, alpha, in, beta, p->direct.window.peer[w->peer] + w->peer_offset, stream);
        const cupermStatus_t sb = barrier(&p->direct.window, stream); /* after a failure too: peers wait in it */
        return st ? st : sb;
    }
    const size_t elem = (size_t)p->elem_size;
    const char* src = in;
    int opened = 0;
    cupermStatus_t st = start_stores(p, &p->direct.window, alpha, in, beta, out, stream, &opened);
    for (int i = 0; i < p->direct.n && !st; ++i) {
        const cuperm_dist_piece_t* s = &p->direct.pieces[i];
        st = run_piece(s, alpha, src + (size_t)s->local_offset * elem, beta,
                       p->direct.window.peer[s->peer] + s->peer_offset, p->comm_stream);
    }
    if (opened) {
        const cupermStatus_t sb = barrier(&p->direct.window, p->comm_stream);
        if (!st) st = sb;
    }
    return join_link(p, stream, st);
}

/* Peer stores: on the plan's high-priority stream a barrier (every receiver has finished reading its
 * window), then stage by stage the pack pieces storing into the receivers' windows (grids capped as
 * in run_direct) and a barrier (every store of the stage has landed: a kernel's stores are complete
 * when the next kernel of its stream starts); on the side stream, once the first barrier has passed,
 * the local piece, then each stage's unpacks from this rank's window once its barrier has passed. */
static cupermStatus_t run_peer_stores(const cuperm_dist_plan_t* p, const void* alpha, const void* in,
                                      const void* beta, void* out, cudaStream_t stream)
{
    cudaStream_t ls = p->comm_stream;
    unsigned char one[16], zero[16];
    cuperm_dist_unit_scalars(p->type, one, zero);
    const size_t elem = (size_t)p->elem_size;
    const char* src = in;
    char* dst = out;
    const char* recv = (const char*)p->window.base + p->recv_base;
    cudaError_t e = cudaSuccess;
    int opened = 0;
    cupermStatus_t st = start_stores(p, &p->window, alpha, in, beta, out, stream, &opened);
    int a = 0, b = 0;
    /* After a failure the stages' barriers still run (the peers wait in them), nothing else. */
    for (int c = 0; c < p->chunks && (!st || opened); ++c) {
        for (; a < p->n_pack && p->pack[a].stage == c && !st; ++a) {
            const cuperm_dist_piece_t* s = &p->pack[a];
            st = run_piece(s, one, src + (size_t)s->local_offset * elem, zero,
                           p->window.peer[s->peer] + p->recv_base + s->peer_offset, ls);
        }
        if (opened) {
            const cupermStatus_t sb = barrier(&p->window, ls);
            opened = !sb; /* a barrier that failed to launch: the peers hang in it whatever follows */
            if (!st) st = sb;
        }
        if (!st && (e = cudaEventRecord(p->ev_comm[c], ls))) st = cuperm_dist_cuda_fail(e, "cupermDistExecute: event");
        if (!st && (e = cudaStreamWaitEvent(p->unpack_stream, p->ev_comm[c], 0)))
            st = cuperm_dist_cuda_fail(e, "cupermDistExecute: cudaStreamWaitEvent");
        for (; b < p->n_unpack && p->unpack[b].stage == c && !st; ++b)
            st = run_piece(&p->unpack[b], alpha, recv + p->unpack[b].buf_offset, beta,
                           dst + (size_t)p->unpack[b].local_offset * elem, p->unpack_stream);
    }
    return join_link(p, stream, st);
}

/* What the send/receive runs address: pack and unpack move bits (scalars 1 and 0 of the plan
 * type's scalar type); the send region, then the receive region, in the workspace. */
typedef struct {
    unsigned char one[16], zero[16];
    size_t elem;
    const char* src;
    char *dst, *send, *recv;
} sr_run_t;

static sr_run_t sr_run(const cuperm_dist_plan_t* p, const void* in, void* out, void* workspace)
{
    sr_run_t r;
    cuperm_dist_unit_scalars(p->type, r.one, r.zero);
    r.elem = (size_t)p->elem_size;
    r.src = in;
    r.dst = out;
    r.send = workspace;
    r.recv = (char*)workspace + p->recv_base;
    return r;
}

/* Pack piece s into the send region, unless it is sent from the input itself (direct). */
static cupermStatus_t pack(const cuperm_dist_piece_t* s, const sr_run_t* r, cudaStream_t stream)
{
    if (s->direct) return CUPERM_STATUS_SUCCESS;
    return run_piece(s, r->one, r->src + (size_t)s->local_offset * r->elem, r->zero, r->send + s->buf_offset, stream);
}

/* Where pack piece s's bytes leave from: the input (a direct piece) or the send region. */
static const void* send_from(const cuperm_dist_piece_t* s, const sr_run_t* r)
{
    return s->direct ? (const void*)(r->src + (size_t)s->local_offset * r->elem) : (const void*)(r->send + s->buf_offset);
}

static cupermStatus_t unpack_piece(const cuperm_dist_piece_t* s, const void* alpha, const void* beta, const sr_run_t* r,
                                   cudaStream_t stream)
{
    return run_piece(s, alpha, r->recv + s->buf_offset, beta, r->dst + (size_t)s->local_offset * r->elem, stream);
}

cupermStatus_t cuperm_dist_run(const cuperm_dist_plan_t* p, const void* alpha, const void* in, const void* beta,
                               void* out, void* workspace, cudaStream_t stream)
{
    const int one_kernel = p->transport == CUPERM_DIST_TRANSPORT_PEER_STORES_ONE_KERNEL;
    const int direct = p->direct.used && out == p->direct.out;
    if (one_kernel) return run_one_kernel(p, direct, alpha, in, beta, out, stream);
    if (direct) return run_direct(p, alpha, in, beta, out, stream);
    if (p->transport == CUPERM_DIST_TRANSPORT_PEER_STORES)
        return run_peer_stores(p, alpha, in, beta, out, stream);
    const sr_run_t sr = sr_run(p, in, out, workspace);
    cupermStatus_t st = CUPERM_STATUS_SUCCESS;
    cudaError_t e = cudaEventRecord(p->ev_start, stream);
    const int comm = p->n_pack || p->n_unpack;
    if (!e && comm) e = cudaStreamWaitEvent(p->comm_stream, p->ev_start, 0);
    if (!e && comm) e = cudaStreamWaitEvent(p->unpack_stream, p->ev_start, 0);
    if (e) return cuperm_dist_cuda_fail(e, "cupermDistExecute: ordering the plan's streams");
    /* Pack, stage by stage, on the caller's stream; the local piece after them, so that it
     * runs while the link is busy. */
    int i = 0;
    for (int c = 0; c < p->chunks && comm && !st; ++c) {
        for (; i < p->n_pack && p->pack[i].stage == c && !st; ++i) st = pack(&p->pack[i], &sr, stream);
        if (!st && (e = cudaEventRecord(p->ev_pack[c], stream))) st = cuperm_dist_cuda_fail(e, "cupermDistExecute: event");
    }
    if (!st && p->has_local && !p->skip_local)
        st = run_piece(&p->local, alpha, sr.src + (size_t)p->local.local_offset * sr.elem, beta,
                       sr.dst + (size_t)p->local.local_offset2 * sr.elem, stream);
    /* One grouped send/receive per stage on the link's stream: posted after a failed pack too (the
     * peers wait for them; this rank returns the failure, its data is then wrong), until NCCL fails. */
    int a = 0, b = 0, link_ok = 1;
    for (int c = 0; c < p->chunks && comm && link_ok; ++c) {
        if ((e = cudaStreamWaitEvent(p->comm_stream, p->ev_pack[c], 0)) && !st)
            st = cuperm_dist_cuda_fail(e, "cupermDistExecute: cudaStreamWaitEvent");
        ncclResult_t r = ncclGroupStart();
        for (; r == ncclSuccess && a < p->n_pack && p->pack[a].stage == c; ++a)
            r = ncclSend(send_from(&p->pack[a], &sr), p->pack[a].bytes, ncclInt8, p->pack[a].peer, p->comm,
                         p->comm_stream);
        for (; r == ncclSuccess && b < p->n_unpack && p->unpack[b].stage == c; ++b)
            r = ncclRecv(sr.recv + p->unpack[b].buf_offset, p->unpack[b].bytes, ncclInt8, p->unpack[b].peer, p->comm,
                         p->comm_stream);
        const ncclResult_t r2 = ncclGroupEnd();
        if (r == ncclSuccess) r = r2;
        if (r != ncclSuccess) {
            if (!st) st = cuperm_dist_nccl_fail(r, "cupermDistExecute: ncclSend/ncclRecv");
            link_ok = 0;
        }
        if (!st && (e = cudaEventRecord(p->ev_comm[c], p->comm_stream)))
            st = cuperm_dist_cuda_fail(e, "cupermDistExecute: event");
    }
    /* Unpack each stage as it arrives, on the unpack stream. */
    i = 0;
    for (int c = 0; c < p->chunks && comm && !st; ++c) {
        if ((e = cudaStreamWaitEvent(p->unpack_stream, p->ev_comm[c], 0))) {
            st = cuperm_dist_cuda_fail(e, "cupermDistExecute: cudaStreamWaitEvent");
            break;
        }
        for (; i < p->n_unpack && p->unpack[i].stage == c && !st; ++i)
            st = unpack_piece(&p->unpack[i], alpha, beta, &sr, p->unpack_stream);
    }
    return comm ? join_link(p, stream, st) : st;
}

cupermStatus_t cuperm_dist_run_by_peer(const cuperm_dist_plan_t* p, const void* in, void* out, void* workspace,
                                       cudaStream_t link, int rounds, int unpack, const cudaEvent_t* arrived)
{
    if (p->transport != CUPERM_DIST_TRANSPORT_SEND_RECV)
        return cuperm_fail(CUPERM_STATUS_INTERNAL_ERROR, "cuperm_dist_run_by_peer: a send/receive plan only");
    const sr_run_t sr = sr_run(p, in, out, workspace);
    cupermStatus_t st = CUPERM_STATUS_SUCCESS;
    for (int i = 0; i < p->n_pack && !st; ++i) st = pack(&p->pack[i], &sr, link);
    const int P = p->comm_size, me = p->comm_rank;
    for (int r = 1, s0 = 1; r <= rounds && !st; ++r) {
        int s1 = s0; /* the round's steps: [s0, s1) */
        while (s1 < P && cuperm_dist_round_of(s1, P, rounds) == r) ++s1;
        ncclResult_t res = ncclGroupStart();
        for (int s = s0; s < s1; ++s) {
            const int to = (me + s) % P, from = (me - s + P) % P;
            for (int a = 0; res == ncclSuccess && a < p->n_pack; ++a)
                if (p->pack[a].peer == to)
                    res = ncclSend(send_from(&p->pack[a], &sr), p->pack[a].bytes, ncclInt8, to, p->comm, link);
            for (int b = 0; res == ncclSuccess && b < p->n_unpack; ++b)
                if (p->unpack[b].peer == from)
                    res = ncclRecv(sr.recv + p->unpack[b].buf_offset, p->unpack[b].bytes, ncclInt8, from, p->comm, link);
        }
        const ncclResult_t res2 = ncclGroupEnd();
        if (res == ncclSuccess) res = res2;
        if (res != ncclSuccess) st = cuperm_dist_nccl_fail(res, "cupermDistContract: ncclSend/ncclRecv");
        for (int s = s0; s < s1 && unpack && !st; ++s)
            for (int b = 0; b < p->n_unpack && !st; ++b)
                if (p->unpack[b].peer == (me - s + P) % P)
                    st = unpack_piece(&p->unpack[b], sr.one, sr.zero, &sr, link);
        const cudaError_t e = st ? cudaSuccess : cudaEventRecord(arrived[r], link);
        if (e) st = cuperm_dist_cuda_fail(e, "cupermDistContract: event");
        s0 = s1;
    }
    return st;
}
