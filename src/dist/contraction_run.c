/* Running a distributed contraction plan (contraction.h): both operand moves and then the local
 * contraction, or one operand's move overlapped with the local contraction piece by piece. */
#include "dist/contraction.h"

#include "core/error.h"

static cupermStatus_t ordering_failed(cudaError_t e)
{
    return cuperm_dist_cuda_fail(e, "cupermDistContract: ordering the plan's streams");
}

/* Operand x overlapped: on the plan's link stream the other operand's whole move, then x's pieces
 * in rounds (cuperm_dist_run_by_peer, left where they land); on the caller's stream the part of x's
 * own piece, read in place, then each other part once its round has arrived (and the other operand,
 * unless read in place). The first part that writes a block of D applies beta and C; the parts after
 * it add to D. */
static cupermStatus_t run_overlapped(const cuperm_dist_ctr_plan_t* p, const void* alpha, const void* const src[2],
                                     const char* const part[2], const void* beta, const void* C, void* D,
                                     char* workspace, cudaStream_t stream)
{
    const int x = p->overlap, o = 1 - x;
    unsigned char one[16], zero[16], cd_one[16], cd_zero[16];
    cuperm_dist_unit_scalars(p->ab_type, one, zero);
    cuperm_dist_unit_scalars(p->cd_type, cd_one, cd_zero);
    char* ws_move = workspace + p->move_at;
    cudaError_t e = cudaEventRecord(p->ev_start, stream);
    if (!e) e = cudaStreamWaitEvent(p->link, p->ev_start, 0);
    if (e) return ordering_failed(e);
    cupermStatus_t st = cuperm_dist_run(p->move[o], one, src[o], zero, workspace + p->at[o], ws_move, p->link);
    if (!st && (e = cudaEventRecord(p->ev_other, p->link))) st = ordering_failed(e);
    if (!st) st = cuperm_dist_run_by_peer(p->move[x], src[x], NULL, ws_move, p->link, p->rounds, 0, p->ev_arrived);
    if (!st && !p->in_place[o] && (e = cudaStreamWaitEvent(stream, p->ev_other, 0))) st = ordering_failed(e);
    const size_t ab = cupermDataTypeSize(p->ab_type), cd = cupermDataTypeSize(p->cd_type);
    for (int i = 0; i < p->n_parts[x] && !st; ++i) {
        const cuperm_dist_ctr_part_plan_t* q = &p->parts[x][i];
        const int round = cuperm_dist_round_of(q->box.step, p->comm_size, p->rounds);
        if (round && (e = cudaStreamWaitEvent(stream, p->ev_arrived[round], 0))) {
            st = ordering_failed(e);
            break;
        }
        double a[2], b[2];
        char* d = (char*)D + (size_t)q->box.offset[2] * cd;
        const int beta_zero = cuperm_ctr_plan_scalars(&q->ctr, alpha, q->box.accumulate ? cd_one : beta, a, b);
        const void* c = beta_zero ? NULL : q->box.accumulate ? d : (const char*)C + (size_t)q->box.offset[2] * cd;
        const char* in[2] = {part[0], part[1]}; /* x: its own block, or the piece where it was received */
        in[x] = q->box.step ? workspace + q->at : (const char*)src[x];
        st = cuperm_ctr_plan_run(&q->ctr, a, in[0] + (size_t)q->box.offset[0] * ab, in[1] + (size_t)q->box.offset[1] * ab,
                                 b, c, d, workspace + p->ctr_at, stream);
    }
    /* the caller's stream waits for the link also after a failure: nothing enqueued outlives it */
    e = cudaEventRecord(p->ev_done, p->link);
    if (!e) e = cudaStreamWaitEvent(stream, p->ev_done, 0);
    return st ? st : e ? ordering_failed(e) : CUPERM_STATUS_SUCCESS;
}

cupermStatus_t cuperm_dist_contract_run(const cuperm_dist_ctr_plan_t* p, const void* alpha, const void* A,
                                        const void* B, const void* beta, const void* C, void* D, char* workspace,
                                        cudaStream_t stream)
{
    const void* const src[2] = {A, B};
    const char* part[2];
    for (int w = 0; w < 2; ++w) part[w] = p->in_place[w] ? src[w] : workspace + p->at[w];
    if (p->overlap >= 0) return run_overlapped(p, alpha, src, part, beta, C, D, workspace, stream);
    unsigned char one[16], zero[16];
    cuperm_dist_unit_scalars(p->ab_type, one, zero);
    cupermStatus_t st = CUPERM_STATUS_SUCCESS;
    for (int w = 0; w < 2 && !st; ++w) /* collective: every rank moves both operands */
        st = cuperm_dist_run(p->move[w], one, src[w], zero, workspace + p->at[w], workspace + p->move_at, stream);
    if (st || !p->has_local) return st;
    double a[2], b[2];
    const int beta_zero = cuperm_ctr_plan_scalars(&p->ctr, alpha, beta, a, b);
    return cuperm_ctr_plan_run(&p->ctr, a, part[0], part[1], b, beta_zero ? NULL : C, D, workspace + p->ctr_at,
                               stream);
}
