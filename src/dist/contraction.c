/* Distributed contractions: validation, agreement, the two operand moves and the local
 * contraction (see contraction.h and docs/distributed.md). */
#include "dist/contraction.h"

#include <stdlib.h>
#include <string.h>

#include "core/error.h"

#define INVALID CUPERM_STATUS_INVALID_VALUE
#define FN "cupermDistPlanContraction"
#define N_AGREE (4 + 2 * CUPERM_DIST_CANDIDATES)

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

/* Everything a rank does before the agreement: layouts, the operand parts, the local plan,
 * the moves' candidate costs (v + 4) and the hash of the global arguments (v[2], v[3]). */
static cupermStatus_t plan_local(cuperm_handle_t* h, cuperm_dist_ctr_plan_t* p, const cupermDistTensorDescriptor_t* d[3],
                                 const int32_t* modes[3], cupermComputeType_t compute, ncclComm_t comm, int64_t* v)
{
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
        st = cuperm_dist_redist_prepare(h, p->move[w], &l[w], &want[w], ident, NULL, comm, p->device, me,
                                        v + 4 + w * CUPERM_DIST_CANDIDATES);
        hsh = cuperm_dist_mix(hsh, cuperm_dist_redist_hash(&l[w], &want[w], ident, NULL));
    }
    p->span[2] = cuperm_dist_local_span(&l[2], me);
    for (int t = 0; t < 3; ++t)
        for (int i = 0; i < l[t].rank; ++i) hsh = cuperm_dist_mix(hsh, modes[t][i] + 1000 * t);
    v[2] = hsh;
    v[3] = -hsh;
    if (st || !d_volume) return st;
    /* The local contraction of this rank's block: A' and B' dense in the workspace, or the
     * rank's own blocks where they are (their local strides); C and D: D's block. */
    cupermTensorDescriptor_t td[3];
    for (int t = 0; t < 3; ++t) {
        const int local = t == 2 || p->in_place[t];
        td[t] = (cupermTensorDescriptor_t){l[t].rank, modes[t], ext[t], local ? str[t] : NULL, l[t].type,
                                           CUPERM_OP_IDENTITY, 0.0};
    }
    st = cuperm_ctr_plan_make(h, &td[0], &td[1], &td[2], &td[2], compute, CUPERM_PLAN_MODEL, CUPERM_ALGO_DEFAULT,
                              &p->ctr);
    if (!st) {
        p->has_local = 1;
        p->handle = h;
    }
    return st;
}

/* After the agreement: builds both moves and lays out the workspace. */
static cupermStatus_t plan_finish(cuperm_handle_t* h, cuperm_dist_ctr_plan_t* p, const int64_t* v, cudaStream_t stream)
{
    size_t off = 0, move_ws = 0;
    for (int w = 0; w < 2; ++w) {
        cuperm_dist_plan_t* m = p->move[w];
        cupermStatus_t st = cuperm_dist_redist_finish(h, m, NULL, v + 4 + w * CUPERM_DIST_CANDIDATES, stream);
        if (st) return st;
        m->skip_local = p->in_place[w];
        for (int i = 0; i < m->n_unpack; ++i) p->recv_bytes[w] += m->unpack[i].bytes;
        if (!p->in_place[w]) {
            p->at[w] = off;
            off = cuperm_dist_align256(off + (size_t)m->out_volume * (size_t)m->elem_size);
        }
        if (m->workspace_bytes > move_ws) move_ws = m->workspace_bytes;
    }
    p->move_at = off;
    off = cuperm_dist_align256(off + move_ws);
    p->ctr_at = off;
    p->workspace_bytes = off + (p->has_local ? p->ctr.workspaceBytes : 0);
    return CUPERM_STATUS_SUCCESS;
}

cupermStatus_t cuperm_dist_plan_contraction(cuperm_handle_t* h, cupermStatus_t handle_status,
                                            const cupermDistTensorDescriptor_t* A, const int32_t* modesA,
                                            const cupermDistTensorDescriptor_t* B, const int32_t* modesB,
                                            const cupermDistTensorDescriptor_t* D, const int32_t* modesD,
                                            cupermComputeType_t compute, ncclComm_t comm, cudaStream_t stream,
                                            cuperm_dist_ctr_plan_t** out)
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
        st = plan_local(h, p, d, modes, compute, comm, v);
    }
    cupermStatus_t ast = cuperm_dist_agree_status(FN, comm, stream, me, st, v, N_AGREE);
    if (!ast && v[2] != -v[3])
        ast = cuperm_fail(INVALID, FN ": the global arguments (extents, types, distributions, labels, compute) "
                          "differ between ranks; every rank must pass the same (only localStrides may differ)");
    if (!ast) { /* agree again: a rank that could not build must not leave the others waiting */
        int64_t w[2] = {0, 0};
        ast = cuperm_dist_agree_status(FN, comm, stream, me, plan_finish(h, p, v, stream), w, 2);
    }
    if (cur != cdev) cudaSetDevice(cur);
    if (ast) {
        cuperm_dist_ctr_plan_free(p);
        return ast;
    }
    *out = p;
    return CUPERM_STATUS_SUCCESS;
}

cupermStatus_t cuperm_dist_contract_run(const cuperm_dist_ctr_plan_t* p, const void* alpha, const void* A,
                                        const void* B, const void* beta, const void* C, void* D, char* workspace,
                                        cudaStream_t stream)
{
    unsigned char one[16], zero[16];
    cuperm_dist_unit_scalars(p->ab_type, one, zero);
    const void* src[2] = {A, B};
    const void* part[2];
    cupermStatus_t st = CUPERM_STATUS_SUCCESS;
    for (int w = 0; w < 2 && !st; ++w) { /* collective: every rank moves both operands */
        part[w] = p->in_place[w] ? src[w] : workspace + p->at[w];
        st = cuperm_dist_run(p->move[w], one, src[w], zero, workspace + p->at[w], workspace + p->move_at, stream);
    }
    if (st || !p->has_local) return st;
    double a[2], b[2];
    const int beta_zero = cuperm_ctr_plan_scalars(&p->ctr, alpha, beta, a, b);
    return cuperm_ctr_plan_run(&p->ctr, a, part[0], part[1], b, beta_zero ? NULL : C, D, workspace + p->ctr_at,
                               stream);
}

void cuperm_dist_ctr_plan_free(cuperm_dist_ctr_plan_t* p)
{
    if (!p) return;
    for (int w = 0; w < 2; ++w) cuperm_dist_plan_free(p->move[w]);
    if (p->has_local) {
        cuperm_ctr_plan_release(&p->ctr);
        cuperm_handle_release(p->handle);
    }
    free(p);
}
