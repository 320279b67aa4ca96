/* Distributed redistribution plans: validation, agreement, the cost model and building the
 * pieces (see plan.h and docs/distributed.md); run.c runs them. */
#include "dist/plan.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"

#define INVALID CUPERM_STATUS_INVALID_VALUE
#define FN "cupermDistPlanTranspose"

cupermStatus_t cuperm_dist_nccl_fail(ncclResult_t r, const char* what)
{
    return cuperm_fail(CUPERM_STATUS_LIBRARY_ERROR, "%s failed: %s", what, ncclGetErrorString(r));
}

cupermStatus_t cuperm_dist_cuda_fail(cudaError_t e, const char* what)
{
    return cuperm_fail(CUPERM_STATUS_CUDA_ERROR, "%s failed: %s", what, cudaGetErrorString(e));
}

/* Elementwise max of n int64 values over the communicator, on stream, synchronized. */
cupermStatus_t cuperm_dist_agree(ncclComm_t comm, cudaStream_t stream, int64_t* vals, int n)
{
    int64_t* d = NULL;
    cudaError_t e = cudaMallocAsync((void**)&d, sizeof(int64_t) * (size_t)n, stream);
    if (e) return cuperm_dist_cuda_fail(e, FN ": cudaMallocAsync (agreement buffer)");
    e = cudaMemcpyAsync(d, vals, sizeof(int64_t) * (size_t)n, cudaMemcpyHostToDevice, stream);
    if (e) return cuperm_dist_cuda_fail(e, FN ": cudaMemcpyAsync");
    ncclResult_t r = ncclAllReduce(d, d, (size_t)n, ncclInt64, ncclMax, comm, stream);
    if (r != ncclSuccess) return cuperm_dist_nccl_fail(r, FN ": ncclAllReduce (agreeing on the arguments)");
    e = cudaMemcpyAsync(vals, d, sizeof(int64_t) * (size_t)n, cudaMemcpyDeviceToHost, stream);
    if (!e) e = cudaFreeAsync(d, stream);
    if (!e) e = cudaStreamSynchronize(stream);
    if (e) return cuperm_dist_cuda_fail(e, FN ": agreement (cudaStreamSynchronize)");
    return CUPERM_STATUS_SUCCESS;
}

/* ---- building pieces ---------------------------------------------------- */

typedef struct {
    const cuperm_dist_layout_t *in, *out;
    const int* perm;
    int me;
    cuperm_dist_box_t own_in, own_out;
    int64_t in_str[CUPERM_MAX_RANK], out_str[CUPERM_MAX_RANK];
} ctx_t;

cupermStatus_t cuperm_dist_piece_init(cuperm_handle_t* h, cuperm_dist_piece_t* s, int n, const int64_t* ext,
                                      const int* perm, cupermDataType_t type, const int64_t* in_str,
                                      const int64_t* out_str)
{
    cuperm_problem_init(&s->walk, n, ext, perm, in_str, out_str);
    cuperm_problem_by_output(&s->walk);
    return cuperm_transpose_plan_init(h, &s->tp, n, ext, perm, type, in_str, out_str);
}

static int cmp_piece(const void* a, const void* b)
{
    const cuperm_dist_piece_t *x = a, *y = b;
    if (x->stage != y->stage) return x->stage < y->stage ? -1 : 1;
    return x->peer < y->peer ? -1 : x->peer > y->peer;
}

static void free_pieces(cuperm_dist_plan_t* p)
{
    free(p->pack);
    free(p->unpack);
    p->pack = p->unpack = NULL;
    p->n_pack = p->n_unpack = p->has_local = 0;
}

/* build() lays a rank's receive region out by sender, then chunk, each piece 256-byte aligned:
 * the offset at which sender's chunk `chunk` lands in receiver's region (chunks of the box split
 * k ways, as both sides split it), and the region's size. */
static size_t recv_offset(const ctx_t* c, int k, int sender, int chunk, int receiver,
                          cuperm_dist_box_t* ch, size_t* total)
{
    size_t off = 0, at = 0;
    const int n = c->in->rank;
    cuperm_dist_box_t box;
    for (int q = 0; q < c->in->comm_size; ++q) {
        if (q == receiver || !cuperm_dist_exchange_box(c->in, q, c->out, receiver, c->perm, &box)) continue;
        const int nc = cuperm_dist_split(&box, n, c->perm, k, ch);
        for (int j = 0; j < nc; ++j) {
            if (q == sender && j == chunk) at = off;
            int64_t v = 1;
            for (int m = 0; m < n; ++m) v *= ch[j].hi[m] - ch[j].lo[m];
            off += cuperm_dist_align256((size_t)v * (size_t)c->in->elem_size);
        }
    }
    if (total) *total = off;
    return at;
}

/* Rotates n pieces left by k (k in 0..n). */
static void rotate_pieces(cuperm_dist_piece_t* x, int k, int n)
{
    for (int i = 0, j = k - 1; i < j; ++i, --j) { /* three reversals */
        cuperm_dist_piece_t t = x[i]; x[i] = x[j]; x[j] = t;
    }
    for (int i = k, j = n - 1; i < j; ++i, --j) {
        cuperm_dist_piece_t t = x[i]; x[i] = x[j]; x[j] = t;
    }
    for (int i = 0, j = n - 1; i < j; ++i, --j) {
        cuperm_dist_piece_t t = x[i]; x[i] = x[j]; x[j] = t;
    }
}

/* Peer stores: the window is the largest receive region of any rank (the same size on every rank,
 * as ncclCommWindowRegister wants; 256 bytes at least); every pack piece stores at its receiver's
 * offset for it. */
static void place_peer_stores(const ctx_t* c, int k, cuperm_dist_box_t* ch, cuperm_dist_plan_t* p)
{
    size_t most = 0, total;
    for (int r = 0; r < c->in->comm_size; ++r) {
        recv_offset(c, k, -1, 0, r, ch, &total);
        if (total > most) most = total;
    }
    for (int i = 0; i < p->n_pack; ++i) {
        cuperm_dist_piece_t* s = &p->pack[i];
        s->peer_offset = recv_offset(c, k, c->me, s->stage, s->peer, ch, NULL);
    }
    /* Within a stage, rank r stores to r+1, r+2, ... (mod P) in turn, as NCCL orders its peers:
     * in peer order every rank would store into rank 0 first, three senders sharing one
     * receiver's links on 4 GPUs (bench/results/dist-h200x4/). pack is sorted by (stage, peer):
     * rotate each stage's run so that it starts at the first peer above this rank. */
    for (int a = 0, b; a < p->n_pack; a = b) {
        for (b = a; b < p->n_pack && p->pack[b].stage == p->pack[a].stage; ++b) {}
        int first = a;
        while (first < b && p->pack[first].peer < c->me) ++first;
        rotate_pieces(p->pack + a, first - a, b - a);
    }
    p->recv_base = 0;
    p->workspace_bytes = 0;
    p->window_bytes = most > 256 ? most : 256;
}

/* Whether a box of extents ext at strides str is one dense run in mode order (unit extents aside):
 * then a copy of it into a dense buffer is the run itself. */
static int one_run(const int64_t* ext, const int64_t* str, int n)
{
    int64_t next = 1;
    for (int m = 0; m < n; ++m) {
        if (ext[m] == 1) continue;
        if (str[m] != next) return 0;
        next *= ext[m];
    }
    return 1;
}

static int is_identity(const int* perm, int n)
{
    for (int i = 0; i < n; ++i)
        if (perm[i] != i) return 0;
    return 1;
}

/* Builds every piece for transport, variant and k chunks; sizes and counts into p. */
static cupermStatus_t build(cuperm_handle_t* h, const ctx_t* c, int transport, int variant, int k,
                            cuperm_dist_plan_t* p)
{
    const int n = c->in->rank, P = c->in->comm_size, me = c->me;
    const cupermDataType_t type = c->in->type;
    const size_t elem = (size_t)c->in->elem_size;
    int ident[CUPERM_MAX_RANK];
    for (int i = 0; i < n; ++i) ident[i] = i;
    free_pieces(p);
    p->transport = transport;
    p->variant = variant;
    p->chunks = k;
    p->window_bytes = 0;
    p->send_bytes = p->recv_bytes = p->local_bytes = 0;
    p->send_peers = p->recv_peers = 0;
    const size_t cap = (size_t)P * (size_t)k;
    p->pack = malloc(sizeof(cuperm_dist_piece_t) * cap);
    p->unpack = malloc(sizeof(cuperm_dist_piece_t) * cap);
    cuperm_dist_box_t* ch = malloc(sizeof(cuperm_dist_box_t) * (size_t)k);
    if (!p->pack || !p->unpack || !ch) {
        free(ch);
        free_pieces(p);
        return cuperm_fail(CUPERM_STATUS_ALLOC_FAILED, FN ": out of host memory (%d peers x %d chunks)", P, k);
    }
    cupermStatus_t st = CUPERM_STATUS_SUCCESS;
    int64_t ext[CUPERM_MAX_RANK], ext_o[CUPERM_MAX_RANK];
    for (int q = 0; q < P && !st; ++q) {
        for (int dir = 0; dir < 2 && !st; ++dir) { /* 0: send to q (pack), 1: receive from q (unpack) */
            cuperm_dist_box_t box;
            const int64_t vol = dir == 0 ? cuperm_dist_exchange_box(c->in, me, c->out, q, c->perm, &box)
                                         : cuperm_dist_exchange_box(c->in, q, c->out, me, c->perm, &box);
            if (!vol) continue;
            if (q == me) {
                if (dir == 1) continue;
                cuperm_dist_piece_t* s = &p->local;
                memset(s, 0, sizeof *s);
                s->peer = me;
                s->bytes = (size_t)vol * elem;
                for (int m = 0; m < n; ++m) ext[m] = box.hi[m] - box.lo[m];
                s->local_offset = cuperm_dist_corner_offset(box.lo, c->own_in.lo, c->in_str, NULL, n);
                s->local_offset2 = cuperm_dist_corner_offset(box.lo, c->own_out.lo, c->out_str, c->perm, n);
                st = cuperm_dist_piece_init(h, s, n, ext, c->perm, type, c->in_str, c->out_str);
                p->has_local = !st;
                p->local_bytes = s->bytes;
                continue;
            }
            if (dir == 0) ++p->send_peers; else ++p->recv_peers;
            const int nc = cuperm_dist_split(&box, n, c->perm, k, ch);
            for (int j = 0; j < nc && !st; ++j) {
                cuperm_dist_piece_t* s = dir == 0 ? &p->pack[p->n_pack++] : &p->unpack[p->n_unpack++];
                memset(s, 0, sizeof *s);
                int64_t v = 1;
                for (int m = 0; m < n; ++m) {
                    ext[m] = ch[j].hi[m] - ch[j].lo[m];
                    v *= ext[m];
                }
                for (int r = 0; r < n; ++r) ext_o[r] = ext[c->perm[r]];
                s->peer = q;
                s->stage = j;
                s->bytes = (size_t)v * elem;
                size_t* total = dir == 0 ? &p->send_bytes : &p->recv_bytes;
                s->buf_offset = *total;
                *total = cuperm_dist_align256(*total + s->bytes); /* each piece 256-byte aligned */
                if (dir == 0) {
                    s->local_offset = cuperm_dist_corner_offset(ch[j].lo, c->own_in.lo, c->in_str, NULL, n);
                    s->direct = transport == CUPERM_DIST_TRANSPORT_SEND_RECV && one_run(ext, c->in_str, n) &&
                                (variant != CUPERM_DIST_VARIANT_PERMUTE_ON_PACK || is_identity(c->perm, n));
                    st = variant == CUPERM_DIST_VARIANT_PERMUTE_ON_PACK
                             ? cuperm_dist_piece_init(h, s, n, ext, c->perm, type, c->in_str, NULL)
                             : cuperm_dist_piece_init(h, s, n, ext, ident, type, c->in_str, NULL);
                    if (cuperm_dist_stores(transport)) cuperm_dist_cap_grid(&s->tp, p->store_cap);
                } else {
                    s->local_offset = cuperm_dist_corner_offset(ch[j].lo, c->own_out.lo, c->out_str, c->perm, n);
                    st = variant == CUPERM_DIST_VARIANT_PERMUTE_ON_PACK
                             ? cuperm_dist_piece_init(h, s, n, ext_o, ident, type, NULL, c->out_str)
                             : cuperm_dist_piece_init(h, s, n, ext, c->perm, type, NULL, c->out_str);
                }
            }
        }
    }
    if (st) {
        free(ch);
        free_pieces(p);
        return st;
    }
    qsort(p->pack, (size_t)p->n_pack, sizeof *p->pack, cmp_piece);
    qsort(p->unpack, (size_t)p->n_unpack, sizeof *p->unpack, cmp_piece);
    p->recv_base = cuperm_dist_align256(p->send_bytes);
    p->workspace_bytes = p->recv_bytes ? p->recv_base + p->recv_bytes : p->send_bytes;
    if (cuperm_dist_stores(transport))
        place_peer_stores(c, k, ch, p);
    free(ch);
    return CUPERM_STATUS_SUCCESS;
}

static void ctx_init(const cuperm_dist_plan_t* p, ctx_t* c)
{
    c->in = &p->lin;
    c->out = &p->lout;
    c->perm = p->perm;
    c->me = p->comm_rank;
    cuperm_dist_owned(&p->lin, p->comm_rank, &c->own_in);
    cuperm_dist_owned(&p->lout, p->comm_rank, &c->own_out);
    cuperm_dist_local_strides(&p->lin, p->comm_rank, c->in_str);
    cuperm_dist_local_strides(&p->lout, p->comm_rank, c->out_str);
}

/* p takes the layouts, permutation and rank it is built for, their block sizes, and h's store cap. */
static void adopt(const cuperm_handle_t* h, cuperm_dist_plan_t* p, const cuperm_dist_layout_t* in,
                  const cuperm_dist_layout_t* out, const int* perm, int me)
{
    cuperm_dist_box_t box;
    const int per_sm = h->distStoreBlocks > 0 ? h->distStoreBlocks : h->tuning->dist_store_blocks_per_sm;
    p->store_cap = (int64_t)per_sm * h->dev.sm_count;
    p->lin = *in;
    p->lout = *out;
    memcpy(p->perm, perm, sizeof(int) * (size_t)in->rank);
    p->comm_size = in->comm_size;
    p->comm_rank = me;
    p->type = in->type;
    p->elem_size = in->elem_size;
    p->in_volume = cuperm_dist_owned(in, me, &box);
    p->out_volume = cuperm_dist_owned(out, me, &box);
    p->in_span = cuperm_dist_local_span(in, me);
    p->out_span = cuperm_dist_local_span(out, me);
}

cupermStatus_t cuperm_dist_build_pieces(cuperm_handle_t* h, const cuperm_dist_layout_t* in,
                                        const cuperm_dist_layout_t* out, const int* perm, int me, int transport,
                                        int variant, int k, cuperm_dist_plan_t* p)
{
    adopt(h, p, in, out, perm, me);
    ctx_t c;
    ctx_init(p, &c);
    return build(h, &c, transport, variant, k, p);
}

/* ---- the cost model ----------------------------------------------------- */

#define LAUNCH_SECONDS 3e-6
static const int chunk_choices[] = {1, 2, 4, 8};
#define N_CHOICES 4

typedef struct {
    double pack, unpack, local;
    int n_pack, n_unpack;
    double permuting; /* the fraction of the packed bytes whose pack transposes permute */
} local_cost_t;

/* Whether piece s permutes: its walk, ordered by output stride, is not ordered by input stride. */
static int piece_permutes(const cuperm_dist_piece_t* s)
{
    int64_t last = 0;
    for (int d = 0; d < s->walk.rank; ++d) {
        const cuperm_dim_t* m = &s->walk.dim[d];
        if (m->extent <= 1) continue;
        if (m->in_stride < last) return 1;
        last = m->in_stride;
    }
    return 0;
}

double cuperm_dist_pieces_cost(const cuperm_dist_piece_t* s, int n, double* seconds)
{
    double all = 0, permuting = 0;
    *seconds = 0;
    for (int i = 0; i < n; ++i) { /* one walk: price, bytes and permuting share together */
        *seconds += s[i].tp.host.predicted_seconds;
        all += (double)s[i].bytes;
        if (piece_permutes(&s[i])) permuting += (double)s[i].bytes;
    }
    return all > 0 ? permuting / all : 0;
}

static local_cost_t local_costs(const cuperm_dist_plan_t* p)
{
    local_cost_t c = {0, 0, 0, p->n_pack, p->n_unpack, 0};
    c.permuting = cuperm_dist_pieces_cost(p->pack, p->n_pack, &c.pack);
    for (int i = 0; i < p->n_unpack; ++i) c.unpack += p->unpack[i].tp.host.predicted_seconds;
    if (p->has_local) c.local = p->local.tp.host.predicted_seconds;
    return c;
}

/* This rank's time for k pipeline stages: the first pack and last unpack stage are exposed;
 * in between, the link's transfer hides `overlap` of the local kernels' time (1: all of it
 * while the link is longer; the device family's dist_link_overlap, core/tuning.c). */
static double model_seconds(const local_cost_t* c, size_t sent, size_t received, int k, double bw, double lat,
                            double overlap)
{
    /* c: the pieces of the k-chunk build (their predictions already reflect the chunks' shapes) */
    const double moves = c->pack + c->unpack + LAUNCH_SECONDS * (c->n_pack + c->n_unpack);
    const size_t bytes = sent > received ? sent : received;
    const double link = bytes ? (double)bytes / bw + k * lat : 0.0;
    const double local = c->local + (c->local > 0 ? LAUNCH_SECONDS : 0);
    const double steady = moves * (k - 1) / k + local;
    return moves / k + link + steady - overlap * (link < steady ? link : steady);
}

/* Peer stores in k stages: a barrier, then per stage the pack pieces storing over the link and a
 * barrier, the stage's unpacks running beside the next stage's stores; the local piece runs
 * beside the stores from the start. The stores are the spine; what runs beside them hides
 * `overlap` of its time (the device family's dist_link_overlap: 0 on 2 x H200, where neither
 * capped store grids nor copy-engine copies let local transposes overlap the link), or the
 * unpacks of the stages before the last hide `unpack_overlap` of theirs behind the next stage's
 * stores (dist_unpack_overlap: 0.5 on 2 x H200), whichever hides more. Stores from permuting
 * transposes drive the link at `permuting_rate` of a copy's rate (dist_permuting_store_rate). */
static double model_peer_stores(const local_cost_t* c, size_t sent, size_t received, int k, double bw, double barrier,
                                double overlap, double unpack_overlap, double permuting_rate)
{
    const size_t bytes = sent > received ? sent : received;
    const double slow = permuting_rate > 0 ? c->permuting * (1.0 / permuting_rate - 1.0) : 0.0;
    const double link = (double)bytes / bw * (1.0 + slow), stores = c->pack + LAUNCH_SECONDS * c->n_pack;
    const double spine = link > stores ? link : stores;
    const double unpack = c->unpack + LAUNCH_SECONDS * c->n_unpack, staged = unpack * (k - 1) / k;
    const double beside = c->local + (c->local > 0 ? LAUNCH_SECONDS : 0) + staged;
    const double hidden = overlap * (beside < spine ? beside : spine);
    const double piped = unpack_overlap * (staged < spine ? staged : spine);
    return barrier * (k + 1) + spine + beside - (hidden > piped ? hidden : piped) + unpack / k;
}

/* Peer stores in one kernel: its barriers (priced as one barrier kernel), then every element of
 * the stores, the local piece and the unpacks gathered alone, at the device family's
 * dist_moves_bytes_per_second (bytes read and written) or the link's pace, whichever is slower. */
static double model_one_kernel(size_t sent, size_t received, size_t local, double bw, double barrier,
                               double moves_rate)
{
    const size_t bytes = sent > received ? sent : received;
    const double link = (double)bytes / bw, gather = 2.0 * (double)(sent + local + received) / moves_rate;
    return barrier + LAUNCH_SECONDS + (link > gather ? link : gather);
}

/* ---- planning ----------------------------------------------------------- */

void cuperm_dist_candidate(int i, const cupermDistOptions_t* opt, int* transport, int* variant, int* chunks)
{
    if (i >= 2 * CUPERM_DIST_SENDRECV_CANDIDATES) { /* one kernel: one stage */
        *transport = CUPERM_DIST_TRANSPORT_PEER_STORES_ONE_KERNEL;
        *variant = i - 2 * CUPERM_DIST_SENDRECV_CANDIDATES + 1;
        *chunks = 1;
        return;
    }
    const int j = i % CUPERM_DIST_SENDRECV_CANDIDATES;
    *transport = i < CUPERM_DIST_SENDRECV_CANDIDATES ? CUPERM_DIST_TRANSPORT_SEND_RECV
                                                     : CUPERM_DIST_TRANSPORT_PEER_STORES;
    *variant = j / N_CHOICES + 1;
    *chunks = opt && opt->chunks ? opt->chunks : chunk_choices[j % N_CHOICES];
}


static int64_t bits_of(double d)
{
    int64_t v;
    memcpy(&v, &d, sizeof v);
    return v;
}

static cupermStatus_t check_local(cuperm_handle_t* h, const int* perm, const cupermDistTensorDescriptor_t* in,
                                  const cupermDistTensorDescriptor_t* out, const cupermDistOptions_t* opt,
                                  int P, int cdev, int cur, cuperm_dist_layout_t* li, cuperm_dist_layout_t* lo)
{
    if (h->dev.ordinal != cdev)
        return cuperm_fail(INVALID, FN ": handle's device %d is not comm's device %d (ncclCommCuDevice)",
                           h->dev.ordinal, cdev);
    if (cur != cdev)
        return cuperm_fail(INVALID, FN ": the current device %d is not comm's device %d", cur, cdev);
    if (opt) {
        if (opt->chunks < 0 || opt->chunks > CUPERM_DIST_MAX_CHUNKS)
            return cuperm_fail(INVALID, FN ": options->chunks = %d is not in 0..%d", opt->chunks,
                               CUPERM_DIST_MAX_CHUNKS);
        if ((int)opt->variant < 0 || (int)opt->variant > 2)
            return cuperm_fail(INVALID, FN ": options->variant = %d is not a cupermDistVariant_t", (int)opt->variant);
        if ((int)opt->transport < 0 || (int)opt->transport > 3)
            return cuperm_fail(INVALID, FN ": options->transport = %d is not a cupermDistTransport_t",
                               (int)opt->transport);
        if (opt->transport == CUPERM_DIST_TRANSPORT_PEER_STORES_ONE_KERNEL && opt->chunks > 1)
            return cuperm_fail(INVALID, FN ": options->chunks = %d with transport PEER_STORES_ONE_KERNEL, which is one "
                               "stage (0 or 1)", opt->chunks);
        if (opt->measure != 0 && opt->measure != 1)
            return cuperm_fail(INVALID, FN ": options->measure = %d is not 0 or 1", opt->measure);
        if (!(opt->linkBytesPerSecond >= 0) || !(opt->stageLatencySeconds >= 0))
            return cuperm_fail(INVALID, FN ": options->linkBytesPerSecond and stageLatencySeconds must be >= 0");
    }
    cupermStatus_t st = cuperm_dist_layout_init(li, in, P, "in");
    if (!st) st = cuperm_dist_layout_init(lo, out, P, "out");
    if (st) return st;
    if (!perm) return cuperm_fail(INVALID, FN ": perm is NULL");
    if (lo->rank != li->rank)
        return cuperm_fail(INVALID, FN ": out->rank = %d differs from in->rank = %d", lo->rank, li->rank);
    int seen[CUPERM_MAX_RANK] = {0};
    for (int r = 0; r < li->rank; ++r) {
        if (perm[r] < 0 || perm[r] >= li->rank || seen[perm[r]]++)
            return cuperm_fail(INVALID, FN ": perm is not a permutation of 0..%d (perm[%d] = %d)", li->rank - 1, r,
                               perm[r]);
    }
    for (int r = 0; r < li->rank; ++r)
        if (lo->extents[r] != li->extents[perm[r]])
            return cuperm_fail(INVALID, FN ": out->extents[%d] = %lld is not in->extents[perm[%d] = %d] = %lld", r,
                               (long long)lo->extents[r], r, perm[r], (long long)li->extents[perm[r]]);
    if (lo->type != li->type)
        return cuperm_fail(INVALID, FN ": out->type (%d) differs from in->type (%d)", (int)lo->type, (int)li->type);
    return CUPERM_STATUS_SUCCESS;
}

static cupermStatus_t make_streams(cuperm_dist_plan_t* p)
{
    if (p->comm_stream) return CUPERM_STATUS_SUCCESS; /* made already (measure mode) */
    int lo = 0, hi = 0;
    cudaError_t e = cudaDeviceGetStreamPriorityRange(&lo, &hi);
    /* The link's stream first: transfers must not wait behind local kernels. */
    if (!e) e = cudaStreamCreateWithPriority(&p->comm_stream, cudaStreamNonBlocking, hi);
    if (!e) e = cudaStreamCreateWithFlags(&p->unpack_stream, cudaStreamNonBlocking);
    const unsigned f = cudaEventDisableTiming;
    if (!e) e = cudaEventCreateWithFlags(&p->ev_start, f);
    if (!e) e = cudaEventCreateWithFlags(&p->ev_comm_done, f);
    if (!e) e = cudaEventCreateWithFlags(&p->ev_unpack_done, f);
    for (int i = 0; i < CUPERM_DIST_MAX_CHUNKS && !e; ++i) {
        e = cudaEventCreateWithFlags(&p->ev_pack[i], f);
        if (!e) e = cudaEventCreateWithFlags(&p->ev_comm[i], f);
    }
    return e ? cuperm_dist_cuda_fail(e, FN ": creating the plan's streams and events") : CUPERM_STATUS_SUCCESS;
}

void cuperm_dist_plan_free(cuperm_dist_plan_t* p)
{
    if (!p) return;
    free_pieces(p);
    cuperm_dist_moves_free(&p->moves);
    cuperm_dist_direct_free(p); /* also drops the captured executes */
    cuperm_dist_window_destroy(p->comm, &p->window);
    if (p->handle) cuperm_handle_release(p->handle);
    if (p->comm_stream) cudaStreamDestroy(p->comm_stream);
    if (p->unpack_stream) cudaStreamDestroy(p->unpack_stream);
    if (p->capture_stream) cudaStreamDestroy(p->capture_stream);
    cudaEvent_t* evs[] = {&p->ev_start, &p->ev_comm_done, &p->ev_unpack_done};
    for (int i = 0; i < 3; ++i)
        if (*evs[i]) cudaEventDestroy(*evs[i]);
    for (int i = 0; i < CUPERM_DIST_MAX_CHUNKS; ++i) {
        if (p->ev_pack[i]) cudaEventDestroy(p->ev_pack[i]);
        if (p->ev_comm[i]) cudaEventDestroy(p->ev_comm[i]);
    }
    free(p);
}

/* After an agreement: the status every rank returns, with a message. */
static cupermStatus_t agreed_failure(const char* fn, const int64_t* v, int me, cupermStatus_t mine, const char* my_msg)
{
    const cupermStatus_t st = (cupermStatus_t)v[0];
    if (mine) return cuperm_fail(st, "%s (rank %d; every rank returns %s, nothing was moved)", my_msg, me,
                                 cupermGetErrorString(st));
    return cuperm_fail(st, "%s: rank %d reported %s for its arguments (its own call returns the message naming "
                       "the rule); every rank returns it, nothing was moved", fn, (int)v[1] - 1, cupermGetErrorString(st));
}

cupermStatus_t cuperm_dist_agree_status(const char* fn, ncclComm_t comm, cudaStream_t stream, int me,
                                        cupermStatus_t st, int64_t* v, int n)
{
    char msg[1024] = "";
    if (st) {
        snprintf(msg, sizeof msg, "%s", cupermGetLastErrorMessage());
        v[0] = st;
        v[1] = me + 1;
    }
    cupermStatus_t ast = cuperm_dist_agree(comm, stream, v, n);
    if (!ast && v[0]) ast = agreed_failure(fn, v, me, st, msg);
    return ast;
}

/* Builds candidate i into p (every chunk count is built: a chunk's shape changes its transposes'
 * cost) and prices it. */
static cupermStatus_t price_candidate(cuperm_handle_t* h, const ctx_t* c, const cupermDistOptions_t* opt, int i,
                                      cuperm_dist_price_t* price, cuperm_dist_plan_t* p)
{
    int transport, variant, k;
    cuperm_dist_candidate(i, opt, &transport, &variant, &k);
    cupermStatus_t st = build(h, c, transport, variant, k, p);
    if (st) return st;
    const local_cost_t lc = local_costs(p);
    const double bw = cuperm_dist_link_rate(opt), lat = cuperm_dist_stage_latency(opt);
    const double overlap = h->tuning->dist_link_overlap, barrier = h->tuning->dist_barrier_seconds;
    *price = (cuperm_dist_price_t){lc.pack, lc.unpack, lc.local, lc.n_pack, lc.n_unpack, p->send_bytes,
                                   p->recv_bytes, 0.0};
    price->seconds =
        transport == CUPERM_DIST_TRANSPORT_PEER_STORES_ONE_KERNEL
            ? model_one_kernel(p->send_bytes, p->recv_bytes, p->has_local ? p->local_bytes : 0, bw, barrier,
                               h->tuning->dist_moves_bytes_per_second)
        : transport == CUPERM_DIST_TRANSPORT_PEER_STORES
            ? model_peer_stores(&lc, p->send_bytes, p->recv_bytes, k, bw, barrier, overlap,
                                h->tuning->dist_unpack_overlap, h->tuning->dist_permuting_store_rate)
            : model_seconds(&lc, p->send_bytes, p->recv_bytes, k, bw, lat, overlap);
    return CUPERM_STATUS_SUCCESS;
}

cupermStatus_t cuperm_dist_redist_prepare(cuperm_handle_t* h, cuperm_dist_plan_t* p, const cuperm_dist_layout_t* in,
                                          const cuperm_dist_layout_t* out, const int* perm,
                                          const cupermDistOptions_t* opt, ncclComm_t comm, int device, int me,
                                          int64_t* costs)
{
    adopt(h, p, in, out, perm, me);
    p->device = device;
    p->comm = comm;
    ctx_t c;
    ctx_init(p, &c);
    const int force_k = opt ? opt->chunks : 0, force_v = opt ? (int)opt->variant : 0;
    const int force_t = opt ? (int)opt->transport : 0;
    const int stores = !p->sendrecv_only && force_t != CUPERM_DIST_TRANSPORT_SEND_RECV && comm &&
                       cuperm_dist_window_possible(comm, in->comm_size);
    /* The model's time of every candidate on this rank (unavailable ones: huge). */
    for (int i = 0; i < CUPERM_DIST_CANDIDATES; ++i) {
        int transport, variant, k;
        cuperm_dist_candidate(i, opt, &transport, &variant, &k);
        costs[i] = INT64_MAX / 4;
        const int one = transport == CUPERM_DIST_TRANSPORT_PEER_STORES_ONE_KERNEL;
        if ((force_v && force_v != variant) || (force_t && force_t != transport) ||
            (cuperm_dist_stores(transport) && !stores) || (force_k && (one ? force_k > 1 : i % N_CHOICES > 0)))
            continue;
        cuperm_dist_price_t price;
        cupermStatus_t st = price_candidate(h, &c, opt, i, &price, p);
        if (st) return st;
        costs[i] = (int64_t)(price.seconds * 1e9) + 1;
    }
    return CUPERM_STATUS_SUCCESS;
}

cupermStatus_t cuperm_dist_price_candidate(cuperm_handle_t* h, const cuperm_dist_layout_t* in,
                                           const cuperm_dist_layout_t* out, const int* perm, int me,
                                           const cupermDistOptions_t* opt, int i, cuperm_dist_price_t* price,
                                           cuperm_dist_plan_t* p)
{
    adopt(h, p, in, out, perm, me);
    ctx_t c;
    ctx_init(p, &c);
    return price_candidate(h, &c, opt, i, price, p);
}

int64_t cuperm_dist_redist_hash(const cuperm_dist_layout_t* in, const cuperm_dist_layout_t* out, const int* perm,
                                const cupermDistOptions_t* opt)
{
    const double bw = opt ? opt->linkBytesPerSecond : 0, lat = opt ? opt->stageLatencySeconds : 0;
    int64_t hsh = cuperm_dist_mix(cuperm_dist_layout_hash(in, 1), cuperm_dist_layout_hash(out, 2));
    for (int i = 0; i < in->rank; ++i) hsh = cuperm_dist_mix(hsh, perm[i]);
    hsh = cuperm_dist_mix(cuperm_dist_mix(hsh, opt ? opt->chunks : 0), opt ? (int)opt->variant : 0);
    hsh = cuperm_dist_mix(hsh, opt ? (int)opt->transport : 0);
    return cuperm_dist_mix(cuperm_dist_mix(cuperm_dist_mix(hsh, bits_of(bw)), bits_of(lat)), opt ? opt->measure : 0);
}

static int cmp_float(const void* a, const void* b)
{
    const float x = *(const float*)a, y = *(const float*)b;
    return x < y ? -1 : x > y;
}

/* After build() of a store transport: a window as large as the pieces need (window_bytes, equal on
 * every rank; a smaller one made for another candidate is replaced) and, for one kernel, the moves
 * kernel's list. Collective where it makes a window. */
static cupermStatus_t prepare_stores(cuperm_handle_t* h, cuperm_dist_plan_t* p, cudaStream_t stream)
{
    cupermStatus_t st = CUPERM_STATUS_SUCCESS;
    if (p->window.base && p->window.bytes < p->window_bytes) cuperm_dist_window_destroy(p->comm, &p->window);
    if (!p->window.base)
        st = cuperm_dist_window_create(p->comm, p->comm_size, p->window_bytes, h->dev.sm_count, stream, &p->window);
    if (!st && p->transport == CUPERM_DIST_TRANSPORT_PEER_STORES_ONE_KERNEL)
        st = cuperm_dist_moves_upload(p, 0);
    return st;
}

/* Measure mode: every candidate the agreed costs leave available is built and run on scratch
 * buffers (one warm-up, three timed runs); costs[i] becomes this rank's median (ns + 1), to be
 * agreed like the model's. Collective: every rank walks the same candidates in the same order. */
static cupermStatus_t measure_candidates(cuperm_handle_t* h, cuperm_dist_plan_t* p, const cupermDistOptions_t* opt,
                                         cudaStream_t stream, int64_t* costs)
{
    ctx_t c;
    ctx_init(p, &c);
    const size_t elem = (size_t)p->elem_size;
    const size_t in_bytes = (size_t)(p->in_span > 0 ? p->in_span : 1) * elem;
    const size_t out_bytes = (size_t)(p->out_span > 0 ? p->out_span : 1) * elem;
    void *in = NULL, *out = NULL;
    cudaEvent_t ev[2] = {NULL, NULL};
    unsigned char one[16], zero[16];
    cuperm_dist_unit_scalars(p->type, one, zero);
    cudaError_t e = cudaMallocAsync(&in, in_bytes, stream);
    if (!e) e = cudaMallocAsync(&out, out_bytes, stream);
    if (!e) e = cudaMemsetAsync(in, 0x3c, in_bytes, stream); /* finite values of every float type */
    if (!e) e = cudaEventCreate(&ev[0]);
    if (!e) e = cudaEventCreate(&ev[1]);
    cupermStatus_t st = e ? cuperm_dist_cuda_fail(e, FN ": measure mode's scratch buffers") : make_streams(p);
    int no_window = 0;
    for (int i = 0; i < CUPERM_DIST_CANDIDATES && !st; ++i) {
        if (costs[i] >= INT64_MAX / 4) continue;
        int transport, variant, k;
        cuperm_dist_candidate(i, opt, &transport, &variant, &k);
        if ((st = build(h, &c, transport, variant, k, p))) break;
        if (cuperm_dist_stores(transport)) {
            /* agreed: every rank keeps or drops the peer-store candidates alike */
            if (!no_window) st = prepare_stores(h, p, stream);
            if (no_window || st == CUPERM_STATUS_NOT_SUPPORTED) {
                no_window = 1;
                st = CUPERM_STATUS_SUCCESS;
                costs[i] = INT64_MAX / 4;
                continue;
            }
            if (st) break;
        }
        void* ws = NULL;
        if (p->workspace_bytes && (e = cudaMallocAsync(&ws, p->workspace_bytes, stream))) {
            st = cuperm_dist_cuda_fail(e, FN ": measure mode's workspace");
            break;
        }
        float t[3];
        for (int run = -1; run < 3 && !st; ++run) {
            if (run >= 0 && (e = cudaEventRecord(ev[0], stream))) break;
            st = cuperm_dist_run(p, one, in, zero, out, ws, stream);
            if (run < 0 || st) continue;
            e = cudaEventRecord(ev[1], stream);
            if (!e) e = cudaEventSynchronize(ev[1]);
            if (!e) e = cudaEventElapsedTime(&t[run], ev[0], ev[1]);
            if (e) break;
        }
        if (ws) cudaFreeAsync(ws, stream);
        if (!st && e) st = cuperm_dist_cuda_fail(e, FN ": timing a candidate");
        qsort(t, 3, sizeof t[0], cmp_float);
        costs[i] = (int64_t)((double)t[1] * 1e6) + 1;
    }
    if (in) cudaFreeAsync(in, stream);
    if (out) cudaFreeAsync(out, stream);
    for (int i = 0; i < 2; ++i)
        if (ev[i]) cudaEventDestroy(ev[i]);
    if (!st && (e = cudaStreamSynchronize(stream))) st = cuperm_dist_cuda_fail(e, FN ": measure mode");
    return st;
}

cupermStatus_t cuperm_dist_redist_finish(cuperm_handle_t* h, cuperm_dist_plan_t* p, const cupermDistOptions_t* opt,
                                         const int64_t* costs, cudaStream_t stream)
{
    /* Every rank chooses the candidate whose slowest rank is fastest (costs: the ranks' maxima). */
    int64_t cost[CUPERM_DIST_CANDIDATES];
    memcpy(cost, costs, sizeof cost);
    ctx_t c;
    ctx_init(p, &c);
    for (;;) {
        int best = 0, transport, variant, k;
        for (int i = 1; i < CUPERM_DIST_CANDIDATES; ++i)
            if (cost[i] < cost[best]) best = i;
        if (cost[best] >= INT64_MAX / 4) /* only where options forced what this communicator lacks */
            return cuperm_fail(CUPERM_STATUS_NOT_SUPPORTED, FN ": transport PEER_STORES needs NCCL >= 2.28 with its "
                               "device API (nccl_device.h at build time) and every rank in one load/store domain");
        cuperm_dist_candidate(best, opt, &transport, &variant, &k);
        cupermStatus_t st = CUPERM_STATUS_SUCCESS;
        if (p->transport != transport || p->variant != variant || p->chunks != k)
            st = build(h, &c, transport, variant, k, p);
        const int peer = cuperm_dist_stores(transport);
        if (!st && peer) {
            st = prepare_stores(h, p, stream);
            /* agreed on every rank: fall back to the best send/receive candidate */
            if (st == CUPERM_STATUS_NOT_SUPPORTED && !(opt && cuperm_dist_stores(opt->transport))) {
                for (int i = CUPERM_DIST_SENDRECV_CANDIDATES; i < CUPERM_DIST_CANDIDATES; ++i) cost[i] = INT64_MAX / 4;
                continue;
            }
        }
        if (!st && !peer) cuperm_dist_window_destroy(p->comm, &p->window); /* measure mode's, not chosen */
        if (!st) st = make_streams(p);
        p->predicted_seconds = (double)cost[best] * 1e-9;
        return st;
    }
}

cupermStatus_t cuperm_dist_plan_transpose(cuperm_handle_t* h, cupermStatus_t handle_status, const int* perm,
                                          const cupermDistTensorDescriptor_t* in,
                                          const cupermDistTensorDescriptor_t* out, const cupermDistOptions_t* opt,
                                          ncclComm_t comm, cudaStream_t stream, cuperm_dist_plan_t** plan)
{
    *plan = NULL;
    if (!comm) return cuperm_fail(INVALID, FN ": comm is NULL (no rank can be told: the others wait in NCCL)");
    int P = 0, me = 0, cdev = 0, cur = 0;
    ncclResult_t r = ncclCommCount(comm, &P);
    if (r == ncclSuccess) r = ncclCommUserRank(comm, &me);
    if (r == ncclSuccess) r = ncclCommCuDevice(comm, &cdev);
    if (r != ncclSuccess) return cuperm_dist_nccl_fail(r, FN ": querying comm (ncclCommCount, ncclCommUserRank, ncclCommCuDevice)");
    cudaError_t e = cudaGetDevice(&cur);
    if (e) return cuperm_dist_cuda_fail(e, FN ": cudaGetDevice");
    /* The agreement runs on comm's device whatever else is wrong. */
    if (cur != cdev && (e = cudaSetDevice(cdev))) return cuperm_dist_cuda_fail(e, FN ": cudaSetDevice(comm's device)");

    cuperm_dist_layout_t li, lo;
    cuperm_dist_plan_t* p = calloc(1, sizeof *p);
    cupermStatus_t st = p ? handle_status : cuperm_fail(CUPERM_STATUS_ALLOC_FAILED, FN ": out of host memory");
    if (!st) st = check_local(h, perm, in, out, opt, P, cdev, cur, &li, &lo);
    int64_t v[4 + CUPERM_DIST_CANDIDATES];
    for (int i = 0; i < 4 + CUPERM_DIST_CANDIDATES; ++i) v[i] = 0;
    if (!st) st = cuperm_dist_redist_prepare(h, p, &li, &lo, perm, opt, comm, cdev, me, v + 4);
    if (!st) {
        const int64_t hsh = cuperm_dist_redist_hash(&li, &lo, perm, opt);
        v[2] = hsh;
        v[3] = -hsh;
    }
    cupermStatus_t ast = cuperm_dist_agree_status(FN, comm, stream, me, st, v, 4 + CUPERM_DIST_CANDIDATES);
    if (!ast && v[2] != -v[3])
        ast = cuperm_fail(INVALID, FN ": the global arguments (extents, type, distribution, perm, options) differ "
                          "between ranks; every rank must pass the same (only localStrides may differ); nothing "
                          "was moved");
    if (!ast && opt && opt->measure) { /* the slowest rank's measured time of every candidate */
        int64_t m[2 + CUPERM_DIST_CANDIDATES] = {0};
        memcpy(m + 2, v + 4, sizeof(int64_t) * CUPERM_DIST_CANDIDATES);
        ast = cuperm_dist_agree_status(FN, comm, stream, me, measure_candidates(h, p, opt, stream, m + 2), m,
                                       2 + CUPERM_DIST_CANDIDATES);
        if (!ast) memcpy(v + 4, m + 2, sizeof(int64_t) * CUPERM_DIST_CANDIDATES);
    }
    if (!ast) { /* agree again: a rank that could not build (out of memory) must not leave the others waiting */
        int64_t w[2] = {0, 0};
        ast = cuperm_dist_agree_status(FN, comm, stream, me, cuperm_dist_redist_finish(h, p, opt, v + 4, stream), w, 2);
    }
    if (cur != cdev) cudaSetDevice(cur);
    if (ast) {
        cuperm_dist_plan_free(p);
        return ast;
    }
    cuperm_handle_retain(h);
    p->handle = h;
    *plan = p;
    return CUPERM_STATUS_SUCCESS;
}
