/* The pieces src/dist/plan.c builds (no GPU, no NCCL calls): for random redistributions,
 * every rank's pack, local and unpack transposes are emulated on the host through the
 * planned launches' own index mapping (core/index_math.h, as the kernels do), the stage-
 * by-stage exchange is matched send to receive (same peer, same stage, same bytes), and
 * the gathered result must be alpha * perm(in) + beta * out exactly. Peer stores: each pack
 * piece stores straight into its receiver's window at the offset it computed for the
 * receiver, which must be where the receiver's unpack piece reads, inside the window. Bound
 * outputs: the direct pieces store into the receivers' own (padded) outputs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "common/launch_walk.h"
#include "core/index_math.h"
#include "dist/plan.h"

static const cuperm_device_info_t kDevice = {0, 9, 0, 132, 50 << 20, 48 << 10, 3.35e12};

typedef struct {
    double alpha, beta;
    const double* in;
    double* out;
} axpby_ctx;

static int axpby_one(int64_t o, int64_t i, void* vctx)
{
    axpby_ctx* c = vctx;
    c->out[o] = c->alpha * c->in[i] + c->beta * c->out[o];
    return 0;
}

/* out = alpha * (moved in) + beta * out for one planned launch, doubles. */
static void emulate(const cuperm_launch_t* l, double alpha, const double* in, double beta, double* out)
{
    axpby_ctx c = {alpha, beta, in, out};
    launch_walk(l, axpby_one, &c);
}

/* A move of the moves kernel (backend/cuda/dist/moves.h) walked as the kernel walks it: element
 * e < volume at the offsets cuperm_group_offsets reads off the move's dimensions, from m->src
 * (NULL: in) to m->dst (NULL: out). The kernel's unpacks rely on two identities, checked here:
 * a store into a window part writes element e at offset e of it (linear 1), and an unpack reads
 * element e at offset e of its part (linear 2). */
static void emulate_move(const cuperm_dist_move_t* m, double alpha, const double* in, double beta, double* out,
                         int linear)
{
    const double* from_base = (m->src ? (const double*)m->src : in) + m->src_offset;
    double* to_base = (m->dst ? (double*)m->dst : out) + m->dst_offset;
    for (int64_t e = 0; e < m->volume; ++e) {
        int64_t from, to;
        cuperm_group_offsets(m->dim, m->div, 0, m->rank, e, &from, &to);
        if (linear == 1) assert_int_equal(to, e);
        if (linear == 2) assert_int_equal(from, e);
        const double x = from_base[from];
        double* y = to_base + to;
        *y = m->scaled ? alpha * x + beta * *y : x;
    }
}

/* Every rank's one-kernel run: each rank's stores (and local piece) and, once all have stored,
 * each rank's unpacks. ws[r]: rank r's window part. */
static void emulate_one_kernel(cuperm_dist_plan_t* plans, int P, double** lin, double** lout, double** ws,
                               double alpha, double beta)
{
    char* peer[6];
    int n[6], stores[6];
    cuperm_dist_move_t* m[6];
    for (int r = 0; r < P; ++r) peer[r] = (char*)ws[r];
    for (int r = 0; r < P; ++r) {
        plans[r].window.base = ws[r];
        plans[r].window.peer = peer;
        m[r] = malloc(sizeof(cuperm_dist_move_t) * (size_t)(plans[r].n_pack + 1 + plans[r].n_unpack));
        n[r] = cuperm_dist_moves_list(&plans[r], 0, m[r], &stores[r]);
        for (int i = 0; i < stores[r]; ++i)
            emulate_move(&m[r][i], alpha, lin[r], beta, lout[r], m[r][i].dst ? 1 : 0);
    }
    for (int r = 0; r < P; ++r) {
        for (int i = stores[r]; i < n[r]; ++i) emulate_move(&m[r][i], alpha, lin[r], beta, lout[r], 2);
        assert_int_equal(n[r] - stores[r], plans[r].n_unpack);
        plans[r].window.base = NULL;
        plans[r].window.peer = NULL;
        free(m[r]);
    }
}

static uint64_t st = 7;
static int64_t rr(int64_t lo, int64_t hi)
{
    st = st * 6364136223846793005ull + 1442695040888963407ull;
    return lo + (int64_t)((st >> 33) % (uint64_t)(hi - lo + 1));
}

static void random_dist(int rank, const int64_t* ext, int P, int64_t* e, int* modes, int* grid, int64_t* block,
                        cupermDistTensorDescriptor_t* d)
{
    memcpy(e, ext, sizeof(int64_t) * (size_t)rank);
    const int gr = (int)rr(1, rank < 2 ? 1 : 2);
    int used[8] = {0}, left = P;
    for (int g = 0; g < gr; ++g) {
        int m;
        do m = (int)rr(0, rank - 1); while (used[m]);
        used[m] = 1;
        modes[g] = m;
        int f = left;
        if (g < gr - 1)
            for (f = (int)rr(1, left); left % f; --f) {}
        grid[g] = f;
        left /= f;
        block[g] = (ext[m] + f - 1) / f + (rr(0, 3) == 0);
    }
    *d = (cupermDistTensorDescriptor_t){rank, e, CUPERM_R_64F, gr, modes, grid, rr(0, 1) ? block : NULL, NULL};
}

static int next_idx(int64_t* idx, const int64_t* lo, const int64_t* hi, int rank)
{
    for (int m = 0; m < rank; ++m) {
        if (++idx[m] < hi[m]) return 1;
        idx[m] = lo[m];
    }
    return 0;
}

/* A random problem: a tensor of rank 1-5 with small extents, a random permutation, and random
 * distributions of the input and the output over 1-6 ranks. The descriptors point into it. */
typedef struct {
    int rank, P, perm[8], mi[8], mo[8], gi[8], go[8];
    int64_t ext[8], ext_o[8], ei[8], eo[8], bi[8], bo[8];
    cupermDistTensorDescriptor_t di, dout;
    cuperm_dist_layout_t li, lo;
} problem_t;

static void random_problem(problem_t* q)
{
    q->rank = (int)rr(1, 5);
    q->P = (int)rr(1, 6);
    for (int m = 0; m < q->rank; ++m) q->ext[m] = rr(1, q->rank > 3 ? 5 : 9);
    for (int i = 0; i < q->rank; ++i) q->perm[i] = i;
    for (int i = q->rank - 1; i > 0; --i) {
        const int j = (int)rr(0, i), t = q->perm[i];
        q->perm[i] = q->perm[j];
        q->perm[j] = t;
    }
    for (int r = 0; r < q->rank; ++r) q->ext_o[r] = q->ext[q->perm[r]];
    random_dist(q->rank, q->ext, q->P, q->ei, q->mi, q->gi, q->bi, &q->di);
    random_dist(q->rank, q->ext_o, q->P, q->eo, q->mo, q->go, q->bo, &q->dout);
    assert_int_equal(cuperm_dist_layout_init(&q->li, &q->di, q->P, "in"), 0);
    assert_int_equal(cuperm_dist_layout_init(&q->lo, &q->dout, q->P, "out"), 0);
}

/* Rank r's input block (strides str) holds global index g + 1; 1 if it is not empty. */
static int fill_in(const problem_t* q, int r, const int64_t* str, double* x)
{
    cuperm_dist_box_t box;
    if (!cuperm_dist_owned(&q->li, r, &box)) return 0;
    int64_t idx[CUPERM_MAX_RANK];
    memcpy(idx, box.lo, sizeof idx);
    do {
        int64_t off = 0, g = 0, s = 1;
        for (int m = 0; m < q->rank; ++m) {
            off += (idx[m] - box.lo[m]) * str[m];
            g += idx[m] * s;
            s *= q->ext[m];
        }
        x[off] = (double)g + 1;
    } while (next_idx(idx, box.lo, box.hi, q->rank));
    return 1;
}

/* Rank r's output block (strides str): fill (check == 0) with -(global index g), or check (1) that
 * element g holds alpha * (its input's value) + beta * -g, marking each offset checked in mark. */
static void visit_out(const problem_t* q, int r, const int64_t* str, double* y, int check, double alpha, double beta,
                      char* mark, const char* what)
{
    cuperm_dist_box_t box;
    if (!cuperm_dist_owned(&q->lo, r, &box)) return;
    int64_t idx[CUPERM_MAX_RANK], iidx[CUPERM_MAX_RANK];
    memcpy(idx, box.lo, sizeof idx);
    do {
        int64_t off = 0, g = 0, s = 1, gi = 0, si = 1;
        for (int m = 0; m < q->rank; ++m) {
            off += (idx[m] - box.lo[m]) * str[m];
            g += idx[m] * s;
            s *= q->ext_o[m];
            iidx[q->perm[m]] = idx[m];
        }
        if (!check) {
            y[off] = -(double)g;
            continue;
        }
        for (int m = 0; m < q->rank; ++m) {
            gi += iidx[m] * si;
            si *= q->ext[m];
        }
        if (mark) mark[off] = 1;
        const double want = alpha * ((double)gi + 1) + beta * -(double)g;
        if (y[off] != want)
            fail_msg("%s (rank %d tensor, %d ranks): rank %d out offset %lld = %g, want %g", what, q->rank, q->P, r,
                     (long long)off, y[off], want);
    } while (next_idx(idx, box.lo, box.hi, q->rank));
}

static void test_handle(cuperm_handle_t* h)
{
    memset(h, 0, sizeof *h);
    h->dev = kDevice;
    h->tuning = cuperm_tuning_for(&h->dev);
    h->plan_cache = cuperm_plan_cache_create();
}

/* Rank r's local strides of layout l: dense, mode 0 padded by pad elements. */
static void padded_strides(const cuperm_dist_layout_t* l, int r, int64_t pad, int64_t* str)
{
    cuperm_dist_box_t box;
    cuperm_dist_owned(l, r, &box);
    int64_t s = 1;
    for (int m = 0; m < l->rank; ++m) {
        str[m] = s;
        const int64_t e = box.hi[m] - box.lo[m];
        s *= (e ? e : 1) + (m == 0 ? pad : 0);
    }
}

static void pieces_redistribute(void** state)
{
    (void)state;
    cuperm_handle_t h;
    test_handle(&h);
    for (int trial = 0; trial < 300; ++trial) {
        problem_t q;
        random_problem(&q);
        const int P = q.P, variant = (int)rr(1, 2);
        const int transport = (int)rr(1, 3), stores = cuperm_dist_stores(transport);
        const int one = transport == CUPERM_DIST_TRANSPORT_PEER_STORES_ONE_KERNEL;
        const int k = one ? 1 : (int)rr(1, 5);
        cuperm_dist_plan_t plans[6];
        double *lin[6], *lout[6], *ws[6];
        int64_t sin[6][CUPERM_MAX_RANK], sout[6][CUPERM_MAX_RANK];
        const double alpha = 3, beta = -2;
        const int pad = (int)rr(0, 2) == 0; /* every rank's input padded along mode 0, as cuperm-dist-test does */
        for (int r = 0; r < P; ++r) {
            memset(&plans[r], 0, sizeof plans[r]);
            cuperm_dist_layout_t lir = q.li;
            if (pad) {
                cupermDistTensorDescriptor_t dr = q.di;
                int64_t ps[CUPERM_MAX_RANK];
                padded_strides(&q.li, r, 3, ps);
                dr.localStrides = ps;
                assert_int_equal(cuperm_dist_layout_init(&lir, &dr, P, "in"), 0);
            }
            assert_int_equal(cuperm_dist_build_pieces(&h, &lir, &q.lo, q.perm, r, transport, variant, k, &plans[r]), 0);
            cuperm_dist_local_strides(&lir, r, sin[r]);
            cuperm_dist_local_strides(&q.lo, r, sout[r]);
            lin[r] = calloc((size_t)cuperm_dist_local_span(&lir, r) + 1, sizeof(double));
            lout[r] = calloc((size_t)cuperm_dist_local_span(&q.lo, r) + 1, sizeof(double));
            /* send/receive: the workspace; peer stores: the window (a barrier word, then the region) */
            ws[r] = calloc((stores ? plans[r].window_bytes : plans[r].workspace_bytes) / 8 + 1, sizeof(double));
            if (stores) assert_int_equal(plans[r].workspace_bytes, 0);
            if (stores && r) assert_int_equal(plans[r].window_bytes, plans[0].window_bytes);
            fill_in(&q, r, sin[r], lin[r]);
            visit_out(&q, r, sout[r], lout[r], 0, 0, 0, NULL, NULL);
        }
        /* pack and local pieces (one kernel: all of it, unpacks included) */
        if (one) emulate_one_kernel(plans, P, lin, lout, ws, alpha, beta);
        for (int r = 0; r < P && !one; ++r) {
            const cuperm_dist_plan_t* p = &plans[r];
            for (int i = 0; i < p->n_pack && !stores; ++i)
                if (!p->pack[i].direct) /* a direct piece is sent from the input itself (run.c) */
                    emulate(&p->pack[i].tp.host.launch, 1, lin[r] + p->pack[i].local_offset, 0,
                            ws[r] + p->pack[i].buf_offset / 8);
            if (p->has_local)
                emulate(&p->local.tp.host.launch, alpha, lin[r] + p->local.local_offset, beta,
                        lout[r] + p->local.local_offset2);
        }
        /* exchange: every send has exactly one receive of the same stage and bytes */
        for (int s = 0; s < P; ++s)
            for (int i = 0; i < plans[s].n_pack; ++i) {
                const cuperm_dist_piece_t* a = &plans[s].pack[i];
                const cuperm_dist_plan_t* d = &plans[a->peer];
                int found = 0;
                for (int j = 0; j < d->n_unpack; ++j) {
                    const cuperm_dist_piece_t* b = &d->unpack[j];
                    if (b->peer != s || b->stage != a->stage) continue;
                    assert_int_equal(b->bytes, a->bytes);
                    assert_true(b->buf_offset % 256 == 0 && a->buf_offset % 256 == 0);
                    if (stores) { /* the sender's store lands where the receiver reads */
                        assert_int_equal(a->peer_offset, b->buf_offset);
                        assert_true(d->recv_base + b->buf_offset + b->bytes <= d->window_bytes);
                        if (!one)
                            emulate(&a->tp.host.launch, 1, lin[s] + a->local_offset, 0,
                                    ws[a->peer] + (d->recv_base + a->peer_offset) / 8);
                    } else {
                        const char* from = a->direct ? (const char*)(lin[s] + a->local_offset)
                                                     : (const char*)ws[s] + a->buf_offset;
                        memcpy((char*)ws[a->peer] + d->recv_base + b->buf_offset, from, a->bytes);
                    }
                    ++found;
                }
                assert_int_equal(found, 1);
            }
        /* peer stores: within a stage each rank stores to me+1, me+2, ... (mod P) in turn */
        for (int r = 0; r < P && stores; ++r)
            for (int i = 1; i < plans[r].n_pack; ++i) {
                const cuperm_dist_piece_t *x = &plans[r].pack[i - 1], *y = &plans[r].pack[i];
                if (x->stage == y->stage)
                    assert_true((x->peer - r + P) % P < (y->peer - r + P) % P);
                else
                    assert_true(x->stage < y->stage);
            }
        int recvs = 0, sends = 0;
        for (int r = 0; r < P; ++r) {
            recvs += plans[r].n_unpack;
            sends += plans[r].n_pack;
        }
        assert_int_equal(recvs, sends);
        for (int r = 0; r < P && !one; ++r) {
            const cuperm_dist_plan_t* p = &plans[r];
            for (int i = 0; i < p->n_unpack; ++i)
                emulate(&p->unpack[i].tp.host.launch, alpha, ws[r] + (p->recv_base + p->unpack[i].buf_offset) / 8,
                        beta, lout[r] + p->unpack[i].local_offset);
        }
        char what[128];
        snprintf(what, sizeof what, "trial %d (transport %d, variant %d, k %d)", trial, transport, variant, k);
        for (int r = 0; r < P; ++r) visit_out(&q, r, sout[r], lout[r], 1, alpha, beta, NULL, what);
        for (int r = 0; r < P; ++r) {
            free(plans[r].pack);
            free(plans[r].unpack);
            free(lin[r]);
            free(lout[r]);
            free(ws[r]);
        }
    }
    cuperm_plan_cache_destroy(h.plan_cache);
}

/* Bound outputs (src/dist/direct.c): every rank's output has strides of its own (padded at
 * random), which the ranks exchange; each rank's direct pieces store straight into the receivers'
 * outputs at the offsets the sender computed, its local piece into its own. Gathered, the result
 * must be alpha * perm(in) + beta * out exactly, and every element outside the output blocks
 * (padding and a guard after each block) must be untouched. */
static void direct_stores(void** state)
{
    (void)state;
    cuperm_handle_t h;
    test_handle(&h);
    enum { GUARD = 16 };
    const double hole = 1e300;
    for (int trial = 0; trial < 300; ++trial) {
        problem_t q;
        random_problem(&q);
        const int P = q.P;
        /* every rank's output strides: dense over its block, some dimensions padded */
        int64_t ostr[6][CUPERM_MAX_RANK] = {{0}}, span[6], sin[6][CUPERM_MAX_RANK];
        double *lin[6], *lout[6];
        cuperm_dist_box_t box;
        for (int r = 0; r < P; ++r) {
            int64_t s = 1;
            cuperm_dist_owned(&q.lo, r, &box);
            for (int m = 0; m < q.rank; ++m) {
                ostr[r][m] = s;
                const int64_t e = box.hi[m] - box.lo[m];
                s *= (e > 1 ? e : 1) + (rr(0, 2) == 0 ? rr(1, 3) : 0);
            }
        }
        const double alpha = 3, beta = -2;
        cuperm_dist_plan_t plans[6];
        for (int r = 0; r < P; ++r) {
            cupermDistTensorDescriptor_t dr = q.dout;
            cuperm_dist_layout_t lor;
            dr.localStrides = ostr[r];
            assert_int_equal(cuperm_dist_layout_init(&lor, &dr, P, "out"), 0);
            memset(&plans[r], 0, sizeof plans[r]);
            assert_int_equal(cuperm_dist_build_pieces(&h, &q.li, &lor, q.perm, r, CUPERM_DIST_TRANSPORT_SEND_RECV, 1, 1,
                                                      &plans[r]), 0);
            assert_int_equal(cuperm_dist_build_direct(&h, &plans[r], &ostr[0][0]), 0);
            cuperm_dist_local_strides(&q.li, r, sin[r]);
            span[r] = cuperm_dist_local_span(&lor, r);
            lin[r] = calloc((size_t)cuperm_dist_local_span(&q.li, r) + 1, sizeof(double));
            lout[r] = malloc(sizeof(double) * (size_t)(span[r] + GUARD));
            for (int64_t i = 0; i < span[r] + GUARD; ++i) lout[r][i] = hole;
            fill_in(&q, r, sin[r], lin[r]);
            visit_out(&q, r, ostr[r], lout[r], 0, 0, 0, NULL, NULL);
        }
        /* every rank's stores; pieces in the order r+1, r+2, ..., each receiver once; on odd trials
         * as the moves kernel's moves (a one-kernel plan's direct path) */
        const int one = trial % 2;
        size_t stored = 0, volume = 0;
        for (int r = 0; r < P; ++r) {
            const cuperm_dist_plan_t* p = &plans[r];
            cuperm_dist_move_t m;
            if (p->has_local && one) {
                cuperm_dist_move_describe(&p->local, NULL, p->local.local_offset, NULL, p->local.local_offset2, 1, 0,
                                          &m);
                emulate_move(&m, alpha, lin[r], beta, lout[r], 0);
                stored += p->local.bytes;
            } else if (p->has_local) {
                emulate(&p->local.tp.host.launch, alpha, lin[r] + p->local.local_offset, beta,
                        lout[r] + p->local.local_offset2);
                stored += p->local.bytes;
            }
            for (int i = 0; i < p->direct.n; ++i) {
                const cuperm_dist_piece_t* s = &p->direct.pieces[i];
                assert_true(s->peer != r && s->peer_offset % 8 == 0);
                if (i) assert_true((p->direct.pieces[i - 1].peer - r + P) % P < (s->peer - r + P) % P);
                assert_true((int64_t)(s->peer_offset / 8) < span[s->peer]);
                double* dst = lout[s->peer] + s->peer_offset / 8;
                cuperm_dist_move_describe(s, NULL, s->local_offset, (char*)dst, 0, 1, 0, &m);
                if (one) emulate_move(&m, alpha, lin[r], beta, NULL, 0);
                else emulate(&s->tp.host.launch, alpha, lin[r] + s->local_offset, beta, dst);
                stored += s->bytes;
            }
            volume += (size_t)cuperm_dist_owned(&q.lo, r, &box) * 8;
        }
        assert_int_equal(stored, volume); /* every output element stored exactly once (with the check below) */
        char what[64];
        snprintf(what, sizeof what, "direct trial %d", trial);
        for (int r = 0; r < P; ++r) {
            char* mark = calloc((size_t)span[r] + GUARD, 1);
            visit_out(&q, r, ostr[r], lout[r], 1, alpha, beta, mark, what);
            for (int64_t i = 0; i < span[r] + GUARD; ++i)
                if (!mark[i] && lout[r][i] != hole)
                    fail_msg("direct trial %d: rank %d element %lld outside its block was written", trial, r,
                             (long long)i);
            free(mark);
        }
        for (int r = 0; r < P; ++r) {
            free(plans[r].pack);
            free(plans[r].unpack);
            free(plans[r].direct.pieces);
            free(lin[r]);
            free(lout[r]);
        }
    }
    cuperm_plan_cache_destroy(h.plan_cache);
}

/* The element each output offset of a launch takes (its input offset), in map[out - lo, ...). */
typedef struct {
    int64_t* map;
    int64_t base, n, wide, bad;
} from_ctx;

static int record_from(int64_t o, int64_t i, void* vctx)
{
    from_ctx* c = vctx;
    const int64_t at = c->base + o;
    if (at < 0 || at >= c->n) return c->bad = 1;
    c->map[at] = i;
    return 0;
}

static int check_wide(int64_t o, int64_t i, void* vctx)
{
    from_ctx* c = vctx;
    for (int64_t j = 0; j < c->wide; ++j) {
        const int64_t at = c->base + o * c->wide + j;
        if (at < 0 || at >= c->n || c->map[at] != i * c->wide + j) return c->bad = 1;
    }
    return 0;
}

/* A plan's packed launch (wide elements, used for plain moves of aligned pointers) moves each
 * element where its element launch does; base: the output pointer's element offset in a buffer of
 * n elements (aligned to the wide element, or nothing is checked). */
static void packed_agrees(const cuperm_transpose_plan_t* tp, int64_t base, int64_t n, int elem)
{
    if (!tp->host.has_packed) return;
    const int64_t wide = tp->host.packed.elem_size / elem;
    if (base % wide) return;
    from_ctx c = {malloc(sizeof(int64_t) * (size_t)n), base, n, 1, 0};
    for (int64_t i = 0; i < n; ++i) c.map[i] = -1;
    launch_walk(&tp->host.launch, record_from, &c);
    assert_false(c.bad);
    c.wide = wide; /* check_wide: wide offsets from the same base (elements) */
    launch_walk(&tp->host.packed, check_wide, &c);
    assert_false(c.bad);
    free(c.map);
}

/* random_problem with whole output blocks: each distributed output mode's extent a multiple of its
 * grid dimension, blocks of exactly extent / grid (the input's blocks follow the new extents). */
static void whole_blocks_problem(problem_t* q)
{
    random_problem(q);
    for (int g = 0; g < q->dout.gridRank; ++g) {
        const int m = q->mo[g];
        q->ext_o[m] = q->go[g] * rr(1, 3);
        q->ext[q->perm[m]] = q->ext_o[m];
        q->bo[g] = q->ext_o[m] / q->go[g];
    }
    q->dout.blockSizes = q->bo;
    memcpy(q->eo, q->ext_o, sizeof q->eo);
    memcpy(q->ei, q->ext, sizeof q->ei);
    for (int g = 0; g < q->di.gridRank; ++g) q->bi[g] = (q->ext[q->mi[g]] + q->gi[g] - 1) / q->gi[g] + (rr(0, 3) == 0);
    assert_int_equal(cuperm_dist_layout_init(&q->li, &q->di, q->P, "in"), 0);
    assert_int_equal(cuperm_dist_layout_init(&q->lo, &q->dout, q->P, "out"), 0);
}

/* The whole-block direct transpose (cuperm_dist_build_whole): the receivers' output blocks lie one
 * stride apart in one buffer, as NCCL maps a window's parts into each GPU's address space. Each rank
 * whose input block allows it stores all of it with one transpose, the others per receiver; gathered,
 * the result must be alpha * perm(in) + beta * out exactly, with nothing written outside the output
 * blocks (padding, the gap to the next block). Ranks with other strides, or receivers not one stride
 * apart, get no whole-block transpose. */
static void whole_block_stores(void** state)
{
    (void)state;
    cuperm_handle_t h;
    test_handle(&h);
    const double hole = 1e300, alpha = 3, beta = -2;
    int wholes = 0, spanning = 0, packs = 0;
    for (int trial = 0; trial < 400; ++trial) {
        problem_t q;
        whole_blocks_problem(&q);
        const int P = q.P;
        /* one set of output strides for every rank: dense over a block, some dimensions padded */
        int64_t ostr[6][CUPERM_MAX_RANK] = {{0}}, sin[6][CUPERM_MAX_RANK], s = 1;
        cuperm_dist_box_t box;
        cuperm_dist_owned(&q.lo, 0, &box);
        for (int m = 0; m < q.rank; ++m) {
            ostr[0][m] = s;
            s *= box.hi[m] - box.lo[m] + (rr(0, 2) == 0 ? rr(1, 3) : 0);
        }
        for (int r = 1; r < P; ++r) memcpy(ostr[r], ostr[0], sizeof ostr[0]);
        cupermDistTensorDescriptor_t dr = q.dout;
        dr.localStrides = ostr[0];
        cuperm_dist_layout_t lor;
        assert_int_equal(cuperm_dist_layout_init(&lor, &dr, P, "out"), 0);
        const int64_t span = cuperm_dist_local_span(&lor, 0), stride = span + rr(0, 7);
        double* flat = malloc(sizeof(double) * (size_t)(stride * P));
        for (int64_t i = 0; i < stride * P; ++i) flat[i] = hole;
        char* peer[6];
        for (int r = 0; r < P; ++r) peer[r] = (char*)(flat + r * stride);
        cuperm_dist_plan_t plans[6];
        double* lin[6];
        for (int r = 0; r < P; ++r) {
            memset(&plans[r], 0, sizeof plans[r]);
            assert_int_equal(cuperm_dist_build_pieces(&h, &q.li, &lor, q.perm, r, CUPERM_DIST_TRANSPORT_SEND_RECV, 1, 1,
                                                      &plans[r]), 0);
            assert_int_equal(cuperm_dist_build_direct(&h, &plans[r], &ostr[0][0]), 0);
            assert_int_equal(cuperm_dist_build_whole(&h, &plans[r], &ostr[0][0], peer), 0);
            cuperm_dist_local_strides(&q.li, r, sin[r]);
            lin[r] = calloc((size_t)cuperm_dist_local_span(&q.li, r) + 1, sizeof(double));
            fill_in(&q, r, sin[r], lin[r]);
            visit_out(&q, r, ostr[r], flat + r * stride, 0, 0, 0, NULL, NULL);
            if (P > 1 && plans[r].in_volume) { /* the rules: other strides somewhere, or receivers not one stride apart */
                cuperm_dist_plan_t t = plans[r];
                int64_t other[6][CUPERM_MAX_RANK];
                memcpy(other, ostr, sizeof other);
                other[P - 1][0] += 1;
                assert_int_equal(cuperm_dist_build_whole(&h, &t, &other[0][0], peer), 0);
                assert_false(t.direct.has_whole);
                char* skewed[6];
                memcpy(skewed, peer, sizeof skewed);
                skewed[P - 1] += 8;
                if (P > 2) {
                    assert_int_equal(cuperm_dist_build_whole(&h, &t, &ostr[0][0], skewed), 0);
                    assert_false(t.direct.has_whole);
                }
                assert_int_equal(cuperm_dist_build_whole(&h, &t, &ostr[0][0], peer), 0);
                assert_int_equal(t.direct.has_whole, plans[r].direct.has_whole);
            }
        }
        for (int r = 0; r < P; ++r) {
            const cuperm_dist_plan_t* p = &plans[r];
            if (p->direct.has_whole && p->in_volume) {
                const cuperm_dist_piece_t* w = &p->direct.whole;
                assert_true(w->peer >= 0 && w->peer < P && w->peer_offset % 8 == 0);
                assert_int_equal(w->bytes, (size_t)p->in_volume * 8);
                emulate(&w->tp.host.launch, alpha, lin[r], beta, (double*)peer[w->peer] + w->peer_offset / 8);
                packed_agrees(&w->tp, (int64_t)(((double*)peer[w->peer] - flat) + (int64_t)(w->peer_offset / 8)),
                              stride * P, 8);
                packs += w->tp.host.has_packed;
                ++wholes;
                spanning += p->direct.n > 0;
                continue;
            }
            if (p->has_local)
                emulate(&p->local.tp.host.launch, alpha, lin[r] + p->local.local_offset, beta,
                        flat + r * stride + p->local.local_offset2);
            for (int i = 0; i < p->direct.n; ++i) {
                const cuperm_dist_piece_t* x = &p->direct.pieces[i];
                emulate(&x->tp.host.launch, alpha, lin[r] + x->local_offset, beta,
                        (double*)peer[x->peer] + x->peer_offset / 8);
            }
        }
        char what[64];
        snprintf(what, sizeof what, "whole-block trial %d", trial);
        char* mark = calloc((size_t)(stride * P), 1);
        for (int r = 0; r < P; ++r) visit_out(&q, r, ostr[r], flat + r * stride, 1, alpha, beta, mark + r * stride, what);
        for (int64_t i = 0; i < stride * P; ++i)
            if (!mark[i] && flat[i] != hole)
                fail_msg("%s: offset %lld (rank %lld's part) outside every output block was written", what, (long long)i,
                         (long long)(i / stride));
        free(mark);
        free(flat);
        for (int r = 0; r < P; ++r) {
            free(plans[r].pack);
            free(plans[r].unpack);
            free(plans[r].direct.pieces);
            free(lin[r]);
        }
    }
    /* most ranks with input store whole; many of those reach other ranks from one transpose */
    print_message("whole-block transposes: %d, %d of them reaching other ranks, %d with a packed launch\n", wholes,
                  spanning, packs);
    assert_true(wholes > 400 && spanning > 100);
    cuperm_plan_cache_destroy(h.plan_cache);
}

/* The benchmark's 1 GB-per-GPU reverse case (6-D, Shard(5) -> Shard(5), f32) on 2 ranks: a stand-in
 * handle (its plan cache to destroy) and both layouts; returns the permutation. */
static const int* reverse_case(cuperm_handle_t* h, cuperm_dist_layout_t* li, cuperm_dist_layout_t* lo)
{
    static const int64_t ext[6] = {16, 24, 32, 12, 16, 210}, ext_o[6] = {210, 16, 12, 32, 24, 16};
    static const int perm[6] = {5, 4, 3, 2, 1, 0};
    static const int mode[1] = {5}, grid[1] = {2};
    memset(h, 0, sizeof *h);
    h->dev = kDevice;
    h->plan_cache = cuperm_plan_cache_create();
    const cupermDistTensorDescriptor_t din = {6, ext, CUPERM_R_32F, 1, mode, grid, NULL, NULL};
    const cupermDistTensorDescriptor_t dout = {6, ext_o, CUPERM_R_32F, 1, mode, grid, NULL, NULL};
    assert_int_equal(cuperm_dist_layout_init(li, &din, 2, "in"), 0);
    assert_int_equal(cuperm_dist_layout_init(lo, &dout, 2, "out"), 0);
    return perm;
}

/* The cost model's chunk count follows the device family's dist_link_overlap: with none (the
 * measured 2 x H200 table) pipelining only adds stages, so one chunk is cheapest for both
 * variants; if the exchange hid the local transposes, more chunks would be. The benchmark's
 * 1 GB-per-GPU reverse case, rank 0 of 2 (host planning only: no NCCL call, no GPU). */
static void chunks_follow_the_link_overlap(void** state)
{
    (void)state;
    cuperm_handle_t h;
    cuperm_dist_layout_t li, lo;
    const int* perm = reverse_case(&h, &li, &lo);
    cuperm_tuning_t overlapping = *cuperm_tuning_for(&h.dev);
    overlapping.dist_link_overlap = 1;
    for (int o = 0; o < 2; ++o) {
        h.tuning = o ? &overlapping : cuperm_tuning_for(&h.dev);
        assert_true(o || h.tuning->dist_link_overlap == 0);
        cuperm_dist_plan_t p;
        memset(&p, 0, sizeof p);
        int64_t costs[CUPERM_DIST_CANDIDATES];
        assert_int_equal(cuperm_dist_redist_prepare(&h, &p, &li, &lo, perm, NULL, NULL, 0, 0, costs), 0);
        for (int i = CUPERM_DIST_SENDRECV_CANDIDATES; i < CUPERM_DIST_CANDIDATES; ++i)
            assert_true(costs[i] >= INT64_MAX / 4); /* no communicator: no peer stores */
        for (int v = 0; v < 2; ++v) { /* candidates: variant v's chunk counts 1, 2, 4, 8 */
            const int64_t* c = costs + v * (CUPERM_DIST_SENDRECV_CANDIDATES / 2);
            int best = 0;
            for (int i = 1; i < CUPERM_DIST_SENDRECV_CANDIDATES / 2; ++i)
                if (c[i] < c[best]) best = i;
            if (o == 0) assert_int_equal(best, 0);
            else assert_true(best > 0);
        }
        free(p.pack);
        free(p.unpack);
    }
    cuperm_plan_cache_destroy(h.plan_cache);
}

/* The peer-stores model's stage count follows the device family's dist_unpack_overlap: with none
 * hidden, stages only add barriers and one stage is cheapest; with the 2 x H200 table's half,
 * each variant's cheapest candidate has more than one stage. The benchmark's 1 GB-per-GPU reverse
 * case, rank 0 of 2, priced without a communicator (cuperm_dist_price_candidate). */
static void store_stages_follow_the_unpack_overlap(void** state)
{
    (void)state;
    cuperm_handle_t h;
    cuperm_dist_layout_t li, lo;
    const int* perm = reverse_case(&h, &li, &lo);
    cuperm_tuning_t none = *cuperm_tuning_for(&h.dev);
    none.dist_unpack_overlap = 0;
    for (int o = 0; o < 2; ++o) {
        h.tuning = o ? cuperm_tuning_for(&h.dev) : &none;
        assert_true(!o || h.tuning->dist_unpack_overlap > 0);
        cuperm_dist_plan_t* p = calloc(1, sizeof *p);
        for (int v = 0; v < 2; ++v) { /* peer-store candidates: variant v's stage counts 1, 2, 4, 8 */
            int best = -1;
            double best_t = 0;
            for (int j = 0; j < CUPERM_DIST_SENDRECV_CANDIDATES / 2; ++j) {
                const int i = CUPERM_DIST_SENDRECV_CANDIDATES + v * (CUPERM_DIST_SENDRECV_CANDIDATES / 2) + j;
                int transport, variant, k;
                cuperm_dist_candidate(i, NULL, &transport, &variant, &k);
                assert_int_equal(transport, CUPERM_DIST_TRANSPORT_PEER_STORES);
                cuperm_dist_price_t c;
                assert_int_equal(cuperm_dist_price_candidate(&h, &li, &lo, perm, 0, NULL, i, &c, p), 0);
                assert_true(c.seconds > 0 && c.unpack > 0 && c.sent > 0);
                if (best < 0 || c.seconds < best_t) best = k, best_t = c.seconds;
            }
            if (o == 0) assert_int_equal(best, 1);
            else assert_true(best > 1);
        }
        cuperm_dist_plan_free(p);
    }
    cuperm_plan_cache_destroy(h.plan_cache);
}

/* Stores from a permuting transpose drive the link at the device family's
 * dist_permuting_store_rate of a copy's rate: halving it raises every PERMUTE_ON_PACK peer-stores
 * price by at least half the link's time (the reverse case permutes every packed byte) and leaves
 * PERMUTE_ON_UNPACK's, whose stores copy, unchanged; with the 2 x H200 table's rate the cheapest
 * peer-stores candidate permutes on unpack. */
static void permuting_stores_slow_the_link(void** state)
{
    (void)state;
    cuperm_handle_t h;
    cuperm_dist_layout_t li, lo;
    const int* perm = reverse_case(&h, &li, &lo);
    cuperm_tuning_t same = *cuperm_tuning_for(&h.dev), half = same;
    same.dist_permuting_store_rate = 1;
    half.dist_permuting_store_rate = 0.5;
    assert_true(cuperm_tuning_for(&h.dev)->dist_permuting_store_rate < 1);
    cuperm_dist_plan_t* p = calloc(1, sizeof *p);
    const int first = CUPERM_DIST_SENDRECV_CANDIDATES, n = CUPERM_DIST_SENDRECV_CANDIDATES; /* peer stores */
    int best = -1;
    double best_t = 0;
    for (int i = first; i < first + n; ++i) {
        int transport, variant, k;
        cuperm_dist_candidate(i, NULL, &transport, &variant, &k);
        cuperm_dist_price_t a, b, t;
        h.tuning = &same;
        assert_int_equal(cuperm_dist_price_candidate(&h, &li, &lo, perm, 0, NULL, i, &a, p), 0);
        h.tuning = &half;
        assert_int_equal(cuperm_dist_price_candidate(&h, &li, &lo, perm, 0, NULL, i, &b, p), 0);
        h.tuning = cuperm_tuning_for(&h.dev);
        assert_int_equal(cuperm_dist_price_candidate(&h, &li, &lo, perm, 0, NULL, i, &t, p), 0);
        const double link = (double)(a.sent > a.received ? a.sent : a.received) / cuperm_dist_link_rate(NULL);
        if (variant == CUPERM_DIST_VARIANT_PERMUTE_ON_PACK)
            assert_true(b.seconds >= a.seconds + 0.5 * link);
        else
            assert_true(b.seconds == a.seconds && t.seconds == a.seconds);
        if (best < 0 || t.seconds < best_t) best = variant, best_t = t.seconds;
    }
    assert_int_equal(best, CUPERM_DIST_VARIANT_PERMUTE_ON_UNPACK);
    cuperm_dist_plan_free(p);
    cuperm_plan_cache_destroy(h.plan_cache);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(pieces_redistribute), cmocka_unit_test(direct_stores),
                                       cmocka_unit_test(whole_block_stores),
                                       cmocka_unit_test(chunks_follow_the_link_overlap),
                                       cmocka_unit_test(store_stages_follow_the_unpack_overlap),
                                       cmocka_unit_test(permuting_stores_slow_the_link)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
