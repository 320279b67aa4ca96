/* Distributed contractions: validation, agreement, the two operand moves and the local
 * contraction (see contraction.h and docs/distributed.md). */
#include "dist/contraction.h"

#include <stdlib.h>
#include <string.h>

#include "core/error.h"

#define INVALID CUPERM_STATUS_INVALID_VALUE
#define FN "cupermDistPlanContraction"
/* agreed: status, failing rank, the arguments' hash twice, each move's candidate costs, then the
 * schedules' costs: no overlap, then A and B overlapped in each count of rounds (round_choice) */
#define ROUND_CHOICES 5
#define AT_SCHEDULES (4 + 2 * CUPERM_DIST_CANDIDATES)
#define N_SCHEDULES (1 + 2 * ROUND_CHOICES)
#define N_AGREE (AT_SCHEDULES + N_SCHEDULES)
#define UNAVAILABLE (INT64_MAX / 4)

/* Labels distinct within each tensor, equal labels of equal extents, every label of D in A or B. */
static cupermStatus_t check_labels(const cuperm_dist_layout_t* l[3], const int32_t* modes[3])
{
    static const char* const name[3] = {"A", "B", "D"};
    for (int t = 0; t < 3; ++t) {
        if (!modes[t]) return cuperm_fail(INVALID, FN ": modes%s is NULL", name[t]);
        for (int i = 0; i < l[t]->rank; ++i)
            for (int u = 0; u < 3; ++u)
                for (int j = 0; j < l[u]->rank; ++j) {
                    if (modes[t][i] != modes[u][j] || (u == t && j == i)) continue;
                    if (u == t)
                        return cuperm_fail(INVALID, FN ": modes%s[%d] = modes%s[%d] = %d: labels must be distinct "
                                           "within a tensor", name[t], i, name[t], j, modes[t][i]);
                    if (l[t]->extents[i] != l[u]->extents[j])
                        return cuperm_fail(INVALID, FN ": label %d has extent %lld in %s but %lld in %s (equal labels "
                                           "need equal global extents)", modes[t][i], (long long)l[t]->extents[i],
                                           name[t], (long long)l[u]->extents[j], name[u]);
                }
    }
    for (int i = 0; i < l[2]->rank; ++i) {
        int found = 0;
        for (int u = 0; u < 2; ++u)
            for (int j = 0; j < l[u]->rank; ++j) found |= modes[2][i] == modes[u][j];
        if (!found) return cuperm_fail(INVALID, FN ": modesD[%d] = %d is in neither A nor B", i, modes[2][i]);
    }
    return CUPERM_STATUS_SUCCESS;
}

static int64_t box_extents(const cuperm_dist_box_t* b, int rank, int64_t* ext)
{
    int64_t v = 1;
    for (int m = 0; m < rank; ++m) v *= ext[m] = b->hi[m] - b->lo[m];
    return v;
}

static int same_box(const cuperm_dist_box_t* a, const cuperm_dist_box_t* b, int rank)
{
    for (int m = 0; m < rank; ++m)
        if (a->lo[m] != b->lo[m] || a->hi[m] != b->hi[m]) return 0;
    return 1;
}

/* The operand moves' planning options: the contraction's link, everything else the model's. */
static cupermDistOptions_t move_options(const cupermDistContractionOptions_t* opt)
{
    const cupermDistOptions_t mo = {opt ? opt->linkBytesPerSecond : 0, opt ? opt->stageLatencySeconds : 0, 0,
                                    CUPERM_DIST_VARIANT_AUTO, 0, CUPERM_DIST_TRANSPORT_AUTO};
    return mo;
}

static int overlap_offered(const cuperm_dist_ctr_plan_t* p, const cupermDistContractionOptions_t* opt)
{
    return p->comm_size > 1 && p->comm_size <= CUPERM_DIST_MAX_PARTS && !(opt && opt->overlap == CUPERM_DIST_OVERLAP_NONE);
}

static double ctr_seconds(const cuperm_contraction_plan_t* c)
{
    return c->layout.inputSeconds + c->layout.outputSeconds + c->layout.gemmSeconds;
}

static int64_t to_ns(double seconds)
{
    return (int64_t)(seconds * 1e9) + 1;
}

/* The local contractions of the schedule that overlaps operand x's move (dist/ctr_parts.h): the
 * whole one's descriptors td with each part's extents, the same strides for the other operand and
 * D; x read where its piece lies (contraction.h): the rank's own piece in its block (its local
 * strides), the others dense where they are received (no unpack, no copy of the own piece). */
static cupermStatus_t plan_parts(cuperm_handle_t* h, cuperm_dist_ctr_plan_t* p, int x, const cuperm_dist_layout_t* src,
                                 const cuperm_dist_layout_t* const buf[3], const int32_t* const modes[3],
                                 const int64_t* const str[3], const cupermTensorDescriptor_t td[3],
                                 cupermComputeType_t compute)
{
    cuperm_dist_part_t box[CUPERM_DIST_MAX_PARTS];
    const int n = cuperm_dist_ctr_parts(src, buf, modes, str, x, p->comm_rank, box);
    if (n && !(p->parts[x] = calloc((size_t)n, sizeof *p->parts[x])))
        return cuperm_fail(CUPERM_STATUS_ALLOC_FAILED, FN ": out of host memory");
    cuperm_dist_box_t own;
    int64_t own_str[CUPERM_MAX_RANK], dense[CUPERM_DIST_MAX_PARTS][CUPERM_MAX_RANK];
    cuperm_dist_owned(src, p->comm_rank, &own);
    cuperm_dist_local_strides(src, p->comm_rank, own_str);
    for (int i = 0; i < n; ++i) {
        cupermTensorDescriptor_t d[3];
        for (int t = 0; t < 3; ++t) {
            d[t] = td[t];
            d[t].extents = box[i].ext[t];
        }
        if (box[i].peer == p->comm_rank) {
            d[x].strides = own_str;
            box[i].offset[x] = cuperm_dist_corner_offset(box[i].lo, own.lo, own_str, NULL, src->rank);
        } else {
            cuperm_dense_strides(src->rank, box[i].ext[x], dense[i]);
            d[x].strides = dense[i];
            box[i].offset[x] = 0;
        }
        p->parts[x][i].box = box[i];
        cupermStatus_t st = cuperm_ctr_plan_make(h, &d[0], &d[1], &d[2], &d[2], compute, CUPERM_PLAN_MODEL,
                                                 CUPERM_ALGO_DEFAULT, &p->parts[x][i].ctr);
        if (st) return st;
        p->n_parts[x] = i + 1; /* made: released with the plan */
    }
    return CUPERM_STATUS_SUCCESS;
}

static void release_parts(cuperm_dist_ctr_plan_t* p, int x)
{
    for (int i = 0; i < p->n_parts[x]; ++i) {
        cuperm_ctr_plan_release(&p->parts[x][i].ctr);
        cuperm_handle_release(p->parts[x][i].ctr.handle);
    }
    free(p->parts[x]);
    p->parts[x] = NULL;
    p->n_parts[x] = 0;
}

/* The rounds of overlapped schedule choice k: 1, 2, 4, 8 or all P - 1 steps (each its own round),
 * or the options' count alone; 0 where choice k is none or repeats an earlier one. */
static int round_choice(int k, int P, const cupermDistContractionOptions_t* opt)
{
    if (opt && opt->overlapRounds > 0) return k ? 0 : opt->overlapRounds < P - 1 ? opt->overlapRounds : P - 1;
    const int r = k == ROUND_CHOICES - 1 ? P - 1 : 1 << k;
    if (r > P - 1) return 0;
    return k == ROUND_CHOICES - 1 && r <= 8 && !(r & (r - 1)) ? 0 : r; /* P - 1: unless 1, 2, 4 or 8 */
}

/* This rank's model time of each schedule into v[AT_SCHEDULES ..]: both moves and then the local
 * contraction, or operand x's move overlapped in round_choice(k) rounds (cuperm_dist_overlap_seconds:
 * a round of n peers moves its largest direction's bytes at min(link, n x one peer's rate)); UNAVAILABLE
 * where the options or the communicator's size rule a schedule out. v holds the moves' candidate costs. */
static cupermStatus_t schedule_costs(const cuperm_handle_t* h, const cuperm_dist_ctr_plan_t* p,
                                     const cuperm_dist_layout_t* l,
                                     const cuperm_dist_layout_t* const buf[3], const cupermDistOptions_t* mo,
                                     const cupermDistContractionOptions_t* opt, int64_t* v)
{
    double move[2];
    for (int w = 0; w < 2; ++w) {
        int64_t best = UNAVAILABLE;
        for (int i = 0; i < CUPERM_DIST_CANDIDATES; ++i)
            if (v[4 + w * CUPERM_DIST_CANDIDATES + i] < best) best = v[4 + w * CUPERM_DIST_CANDIDATES + i];
        move[w] = (double)best * 1e-9;
    }
    const int forced = opt && opt->overlap == CUPERM_DIST_OVERLAP_BY_PEER && overlap_offered(p, opt);
    v[AT_SCHEDULES] = forced ? UNAVAILABLE : to_ns(move[0] + move[1] + (p->has_local ? ctr_seconds(&p->ctr) : 0));
    const double bw = cuperm_dist_link_rate(mo), lat = cuperm_dist_stage_latency(mo);
    const int P = p->comm_size, me = p->comm_rank;
    int ident[CUPERM_MAX_RANK];
    for (int i = 0; i < CUPERM_MAX_RANK; ++i) ident[i] = i;
    const double peer_bw = h->tuning->dist_peer_bytes_per_second > 0 ? h->tuning->dist_peer_bytes_per_second : bw;
    for (int x = 0; x < 2; ++x) {
        int64_t bytes[CUPERM_DIST_MAX_PARTS] = {0}; /* step s: the larger of its two directions */
        for (int s = 1; s < P && overlap_offered(p, opt); ++s) {
            cuperm_dist_box_t b;
            const int64_t sent = cuperm_dist_exchange_box(&l[x], me, buf[x], (me + s) % P, ident, &b);
            const int64_t got = cuperm_dist_exchange_box(&l[x], (me - s + P) % P, buf[x], me, ident, &b);
            bytes[s] = (sent > got ? sent : got) * l[x].elem_size;
        }
        for (int k = 0; k < ROUND_CHOICES; ++k) {
            int64_t* out = &v[AT_SCHEDULES + 1 + x * ROUND_CHOICES + k];
            const int R = overlap_offered(p, opt) ? round_choice(k, P, opt) : 0;
            *out = UNAVAILABLE;
            if (!R) continue;
            double link[CUPERM_DIST_MAX_PARTS] = {0}, secs[CUPERM_DIST_MAX_PARTS];
            int peers[CUPERM_DIST_MAX_PARTS] = {0}, round[CUPERM_DIST_MAX_PARTS];
            int64_t round_bytes[CUPERM_DIST_MAX_PARTS] = {0};
            for (int s = 1; s < P; ++s) {
                const int r = cuperm_dist_round_of(s, P, R);
                round_bytes[r] += bytes[s];
                peers[r] += bytes[s] > 0;
            }
            for (int r = 1; r <= R; ++r) {
                const double rate = peers[r] * peer_bw < bw ? peers[r] * peer_bw : bw;
                link[r] = lat + (round_bytes[r] ? (double)round_bytes[r] / rate : 0.0);
            }
            for (int i = 0; i < p->n_parts[x]; ++i) {
                secs[i] = ctr_seconds(&p->parts[x][i].ctr);
                round[i] = cuperm_dist_round_of(p->parts[x][i].box.step, P, R);
            }
            *out = to_ns(cuperm_dist_overlap_seconds(move[1 - x], !p->in_place[1 - x], link, R, round, secs,
                                                     p->n_parts[x]));
        }
    }
    return CUPERM_STATUS_SUCCESS;
}

/* Everything a rank does before the agreement: layouts, the operand parts, the local plan,
 * the moves' candidate costs (v + 4) and the hash of the global arguments (v[2], v[3]). */
static cupermStatus_t plan_local(cuperm_handle_t* h, cuperm_dist_ctr_plan_t* p, const cupermDistTensorDescriptor_t* d[3],
                                 const int32_t* modes[3], cupermComputeType_t compute,
                                 const cupermDistContractionOptions_t* opt, ncclComm_t comm, int64_t* v)
{
    if (opt && ((int)opt->overlap < 0 || (int)opt->overlap > 2))
        return cuperm_fail(INVALID, FN ": options->overlap = %d is not a cupermDistOverlap_t", (int)opt->overlap);
    if (opt && opt->overlapRounds < 0)
        return cuperm_fail(INVALID, FN ": options->overlapRounds = %d is negative", opt->overlapRounds);
    if (opt && (!(opt->linkBytesPerSecond >= 0) || !(opt->stageLatencySeconds >= 0)))
        return cuperm_fail(INVALID, FN ": options->linkBytesPerSecond and stageLatencySeconds must be >= 0");
    if (opt && opt->overlap == CUPERM_DIST_OVERLAP_BY_PEER && p->comm_size > CUPERM_DIST_MAX_PARTS)
        return cuperm_fail(CUPERM_STATUS_NOT_SUPPORTED, FN ": options->overlap = BY_PEER on %d ranks (offered on "
                           "communicators of up to %d)", p->comm_size, CUPERM_DIST_MAX_PARTS);
    const cupermDistOptions_t mo = move_options(opt);
    cuperm_dist_layout_t l[3], want[2];
    static const char* const name[3] = {"A", "B", "D"};
    for (int t = 0; t < 3; ++t) {
        cupermStatus_t st = cuperm_dist_layout_init(&l[t], d[t], p->comm_size, name[t]);
        if (st) return st;
    }
    const cuperm_dist_layout_t* lp[3] = {&l[0], &l[1], &l[2]};
    cupermStatus_t st = check_labels(lp, modes);
    if (st) return st;
    const int me = p->comm_rank;
    p->ab_type = l[0].type;
    p->cd_type = l[2].type;
    cuperm_dist_box_t own_d, own[2], part[2];
    int64_t ext[3][CUPERM_MAX_RANK], str[3][CUPERM_MAX_RANK];
    const int64_t d_volume = cuperm_dist_owned(&l[2], me, &own_d);
    box_extents(&own_d, l[2].rank, ext[2]);
    cuperm_dist_local_strides(&l[2], me, str[2]);
    int ident[CUPERM_MAX_RANK];
    for (int i = 0; i < CUPERM_MAX_RANK; ++i) ident[i] = i;
    int64_t hsh = cuperm_dist_mix(cuperm_dist_layout_hash(&l[2], 3), compute);
    for (int w = 0; w < 2 && !st; ++w) {
        cuperm_dist_operand_layout(&l[2], modes[2], &l[w], modes[w], &want[w]);
        cuperm_dist_owned(&l[w], me, &own[w]);
        cuperm_dist_owned(&want[w], me, &part[w]);
        box_extents(&part[w], l[w].rank, ext[w]);
        p->in_place[w] = same_box(&own[w], &part[w], l[w].rank);
        cuperm_dist_local_strides(&l[w], me, str[w]);
        p->span[w] = cuperm_dist_local_span(&l[w], me);
        if (!(p->move[w] = calloc(1, sizeof *p->move[w])))
            return cuperm_fail(CUPERM_STATUS_ALLOC_FAILED, FN ": out of host memory");
        p->move[w]->sendrecv_only = 1; /* the operand moves share one workspace; no windows */
        st = cuperm_dist_redist_prepare(h, p->move[w], &l[w], &want[w], ident, &mo, comm, p->device, me,
                                        v + 4 + w * CUPERM_DIST_CANDIDATES);
        hsh = cuperm_dist_mix(hsh, cuperm_dist_redist_hash(&l[w], &want[w], ident, &mo));
    }
    p->span[2] = cuperm_dist_local_span(&l[2], me);
    for (int t = 0; t < 3; ++t)
        for (int i = 0; i < l[t].rank; ++i) hsh = cuperm_dist_mix(hsh, modes[t][i] + 1000 * t);
    hsh = cuperm_dist_mix(cuperm_dist_mix(hsh, opt ? (int)opt->overlap : 0), opt ? opt->overlapRounds : 0);
    v[2] = hsh;
    v[3] = -hsh;
    if (st) return st;
    const cuperm_dist_layout_t* const buf[3] = {&want[0], &want[1], &l[2]};
    if (!d_volume) return schedule_costs(h, p, l, buf, &mo, opt, v);
    /* The local contraction of this rank's block: A' and B' dense in the workspace, or the
     * rank's own blocks where they are (their local strides); C and D: D's block. */
    for (int w = 0; w < 2; ++w)
        if (!p->in_place[w]) cuperm_dense_strides(l[w].rank, ext[w], str[w]);
    cupermTensorDescriptor_t td[3];
    for (int t = 0; t < 3; ++t)
        td[t] = (cupermTensorDescriptor_t){l[t].rank, modes[t], ext[t], str[t], l[t].type, CUPERM_OP_IDENTITY, 0.0};
    st = cuperm_ctr_plan_make(h, &td[0], &td[1], &td[2], &td[2], compute, CUPERM_PLAN_MODEL, CUPERM_ALGO_DEFAULT,
                              &p->ctr);
    if (st) return st;
    p->has_local = 1;
    p->handle = h;
    const int64_t* const bstr[3] = {str[0], str[1], str[2]};
    for (int x = 0; x < 2 && !st && overlap_offered(p, opt); ++x)
        st = plan_parts(h, p, x, &l[x], buf, modes, bstr, td, compute);
    return st ? st : schedule_costs(h, p, l, buf, &mo, opt, v);
}

static cupermStatus_t make_link(cuperm_dist_ctr_plan_t* p)
{
    int lo = 0, hi = 0;
    cudaError_t e = cudaDeviceGetStreamPriorityRange(&lo, &hi);
    /* high priority: a transfer's kernels start before the next local contraction's blocks */
    if (!e) e = cudaStreamCreateWithPriority(&p->link, cudaStreamNonBlocking, hi);
    cudaEvent_t* ev[3] = {&p->ev_start, &p->ev_other, &p->ev_done};
    for (int i = 0; i < 3 && !e; ++i) e = cudaEventCreateWithFlags(ev[i], cudaEventDisableTiming);
    for (int s = 1; s < p->comm_size && !e; ++s) e = cudaEventCreateWithFlags(&p->ev_arrived[s], cudaEventDisableTiming);
    return e ? cuperm_dist_cuda_fail(e, FN ": creating the overlap's stream and events") : CUPERM_STATUS_SUCCESS;
}

/* After the agreement: builds both moves, chooses the schedule whose slowest rank is fastest (v:
 * the ranks' maxima) and lays out the workspace. */
static cupermStatus_t plan_finish(cuperm_handle_t* h, cuperm_dist_ctr_plan_t* p, const cupermDistContractionOptions_t* opt,
                                  const int64_t* v, cudaStream_t stream)
{
    const cupermDistOptions_t mo = move_options(opt);
    int best = 0;
    for (int i = 1; i < N_SCHEDULES; ++i)
        if (v[AT_SCHEDULES + i] < v[AT_SCHEDULES + best]) best = i;
    p->overlap = best ? (best - 1) / ROUND_CHOICES : -1;
    p->rounds = best ? round_choice((best - 1) % ROUND_CHOICES, p->comm_size, opt) : 0;
    p->predicted_seconds = (double)v[AT_SCHEDULES + best] * 1e-9;
    size_t ctr_ws = p->has_local ? p->ctr.workspaceBytes : 0;
    for (int x = 0; x < 2; ++x) {
        if (x != p->overlap) release_parts(p, x);
        for (int i = 0; i < p->n_parts[x]; ++i)
            if (p->parts[x][i].ctr.workspaceBytes > ctr_ws) ctr_ws = p->parts[x][i].ctr.workspaceBytes;
    }
    if (p->overlap >= 0) {
        cupermStatus_t st = make_link(p);
        if (st) return st;
    }
    size_t off = 0, move_ws = 0;
    for (int w = 0; w < 2; ++w) {
        cuperm_dist_plan_t* m = p->move[w];
        int64_t cost[CUPERM_DIST_CANDIDATES];
        memcpy(cost, v + 4 + w * CUPERM_DIST_CANDIDATES, sizeof cost);
        for (int i = 0; i < CUPERM_DIST_CANDIDATES && w == p->overlap; ++i) {
            int transport, variant, k;
            cuperm_dist_candidate(i, &mo, &transport, &variant, &k);
            if (k != 1) cost[i] = UNAVAILABLE; /* one piece a peer: each dense where it lands */
        }
        cupermStatus_t st = cuperm_dist_redist_finish(h, m, &mo, cost, stream);
        if (st) return st;
        m->skip_local = p->in_place[w] || w == p->overlap;
        for (int i = 0; i < m->n_unpack; ++i) p->recv_bytes[w] += m->unpack[i].bytes;
        if (!p->in_place[w] && w != p->overlap) {
            p->at[w] = off;
            off = cuperm_dist_align256(off + (size_t)m->out_volume * (size_t)m->elem_size);
        }
        if (m->workspace_bytes > move_ws) move_ws = m->workspace_bytes;
    }
    p->move_at = off;
    off = cuperm_dist_align256(off + move_ws);
    for (int i = 0; p->overlap >= 0 && i < p->n_parts[p->overlap]; ++i) { /* where each piece is received */
        cuperm_dist_ctr_part_plan_t* q = &p->parts[p->overlap][i];
        const cuperm_dist_plan_t* m = p->move[p->overlap];
        for (int u = 0; u < m->n_unpack; ++u)
            if (m->unpack[u].peer == q->box.peer) q->at = p->move_at + m->recv_base + m->unpack[u].buf_offset;
    }
    p->ctr_at = off;
    p->workspace_bytes = off + ctr_ws;
    return CUPERM_STATUS_SUCCESS;
}

cupermStatus_t cuperm_dist_plan_contraction(cuperm_handle_t* h, cupermStatus_t handle_status,
                                            const cupermDistTensorDescriptor_t* A, const int32_t* modesA,
                                            const cupermDistTensorDescriptor_t* B, const int32_t* modesB,
                                            const cupermDistTensorDescriptor_t* D, const int32_t* modesD,
                                            cupermComputeType_t compute, const cupermDistContractionOptions_t* opt,
                                            ncclComm_t comm, cudaStream_t stream, cuperm_dist_ctr_plan_t** out)
{
    *out = NULL;
    if (!comm) return cuperm_fail(INVALID, FN ": comm is NULL (no rank can be told: the others wait in NCCL)");
    int P = 0, me = 0, cdev = 0, cur = 0;
    ncclResult_t r = ncclCommCount(comm, &P);
    if (r == ncclSuccess) r = ncclCommUserRank(comm, &me);
    if (r == ncclSuccess) r = ncclCommCuDevice(comm, &cdev);
    if (r != ncclSuccess)
        return cuperm_fail(CUPERM_STATUS_LIBRARY_ERROR, FN ": querying comm failed: %s", ncclGetErrorString(r));
    cudaError_t e = cudaGetDevice(&cur);
    if (!e && cur != cdev) e = cudaSetDevice(cdev); /* the agreement runs on comm's device */
    if (e) return cuperm_fail(CUPERM_STATUS_CUDA_ERROR, FN ": selecting comm's device: %s", cudaGetErrorString(e));

    cuperm_dist_ctr_plan_t* p = calloc(1, sizeof *p);
    cupermStatus_t st = p ? handle_status : cuperm_fail(CUPERM_STATUS_ALLOC_FAILED, FN ": out of host memory");
    int64_t v[N_AGREE] = {0};
    if (!st && h->dev.ordinal != cdev)
        st = cuperm_fail(INVALID, FN ": handle's device %d is not comm's device %d", h->dev.ordinal, cdev);
    if (!st && cur != cdev) st = cuperm_fail(INVALID, FN ": the current device %d is not comm's device %d", cur, cdev);
    if (!st) {
        p->device = cdev;
        p->comm_size = P;
        p->comm_rank = me;
        const cupermDistTensorDescriptor_t* d[3] = {A, B, D};
        const int32_t* modes[3] = {modesA, modesB, modesD};
        st = plan_local(h, p, d, modes, compute, opt, comm, v);
    }
    cupermStatus_t ast = cuperm_dist_agree_status(FN, comm, stream, me, st, v, N_AGREE);
    if (!ast && v[2] != -v[3])
        ast = cuperm_fail(INVALID, FN ": the global arguments (extents, types, distributions, labels, compute) "
                          "differ between ranks; every rank must pass the same (only localStrides may differ)");
    if (!ast) { /* agree again: a rank that could not build must not leave the others waiting */
        int64_t w[2] = {0, 0};
        ast = cuperm_dist_agree_status(FN, comm, stream, me, plan_finish(h, p, opt, v, stream), w, 2);
    }
    if (cur != cdev) cudaSetDevice(cur);
    if (ast) {
        cuperm_dist_ctr_plan_free(p);
        return ast;
    }
    *out = p;
    return CUPERM_STATUS_SUCCESS;
}

void cuperm_dist_ctr_plan_free(cuperm_dist_ctr_plan_t* p)
{
    if (!p) return;
    for (int w = 0; w < 2; ++w) cuperm_dist_plan_free(p->move[w]);
    if (p->has_local) {
        cuperm_ctr_plan_release(&p->ctr);
        cuperm_handle_release(p->handle);
    }
    for (int x = 0; x < 2; ++x) release_parts(p, x);
    if (p->link) cudaStreamDestroy(p->link);
    cudaEvent_t ev[3 + CUPERM_DIST_MAX_PARTS] = {p->ev_start, p->ev_other, p->ev_done};
    memcpy(ev + 3, p->ev_arrived, sizeof p->ev_arrived);
    for (int i = 0; i < 3 + CUPERM_DIST_MAX_PARTS; ++i)
        if (ev[i]) cudaEventDestroy(ev[i]);
    free(p);
}
