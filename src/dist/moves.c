/* The moves kernel's list (backend/cuda/dist/moves.h): a one-kernel plan's pieces as moves,
 * built on the host and uploaded once, when the plan is made or an output is bound. */
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "dist/plan.h"

void cuperm_dist_move_describe(const cuperm_dist_piece_t* s, const char* src, int64_t src_offset, char* dst,
                               int64_t dst_offset, int scaled, int by_input, cuperm_dist_move_t* m)
{
    cuperm_problem_t walk = s->walk; /* by output stride */
    if (by_input) cuperm_problem_canonicalize(&walk);
    memset(m, 0, sizeof *m);
    m->src = src;
    m->src_offset = src_offset;
    m->dst = dst;
    m->dst_offset = dst_offset;
    m->scaled = scaled;
    m->rank = walk.rank;
    m->volume = 1;
    for (int d = 0; d < m->rank; ++d) {
        m->dim[d] = walk.dim[d];
        m->div[d] = cuperm_fastdiv_make(m->dim[d].extent);
        m->volume *= m->dim[d].extent;
    }
}

int cuperm_dist_moves_list(const cuperm_dist_plan_t* p, int direct, cuperm_dist_move_t* m, int* stores)
{
    const cuperm_dist_window_t* w = direct ? &p->direct.window : &p->window;
    const cuperm_dist_piece_t* pieces = direct ? p->direct.pieces : p->pack;
    const int n = direct ? p->direct.n : p->n_pack;
    const size_t base = direct ? 0 : p->recv_base;
    int k = 0;
    for (int i = 0; i < n; ++i) {
        const cuperm_dist_piece_t* s = &pieces[i];
        cuperm_dist_move_describe(s, NULL, s->local_offset, w->peer[s->peer] + base + s->peer_offset, 0, direct, 0,
                                  &m[k++]);
    }
    if (p->has_local && !p->skip_local)
        cuperm_dist_move_describe(&p->local, NULL, p->local.local_offset, NULL, p->local.local_offset2, 1, 0,
                                  &m[k++]);
    *stores = k;
    for (int i = 0; !direct && i < p->n_unpack; ++i) {
        const cuperm_dist_piece_t* s = &p->unpack[i];
        cuperm_dist_move_describe(s, (const char*)w->base + base + s->buf_offset, 0, NULL, s->local_offset, 1, 1,
                                  &m[k++]);
    }
    return k;
}

cupermStatus_t cuperm_dist_moves_upload(cuperm_dist_plan_t* p, int direct)
{
    cuperm_dist_moves_t* mv = direct ? &p->direct.moves : &p->moves;
    cuperm_dist_moves_free(mv);
    const int most = direct ? p->direct.n + 1 : p->n_pack + 1 + p->n_unpack;
    cuperm_dist_move_t* m = malloc(sizeof *m * (size_t)most);
    if (!m) return cuperm_fail(CUPERM_STATUS_ALLOC_FAILED, "cupermDistPlan: out of host memory (%d moves)", most);
    int stores = 0;
    const int n = cuperm_dist_moves_list(p, direct, m, &stores);
    cuperm_dist_move_t* d = NULL;
    cudaError_t e = n ? cudaMalloc((void**)&d, sizeof *m * (size_t)n) : cudaSuccess;
    if (!e && n) e = cudaMemcpy(d, m, sizeof *m * (size_t)n, cudaMemcpyHostToDevice);
    free(m);
    if (e) {
        if (d) cudaFree(d);
        return cuperm_dist_cuda_fail(e, "cupermDistPlan: uploading the moves kernel's list");
    }
    mv->list = d;
    mv->n = n;
    mv->stores = stores;
    return CUPERM_STATUS_SUCCESS;
}

void cuperm_dist_moves_free(cuperm_dist_moves_t* mv)
{
    if (mv->list) cudaFree(mv->list);
    memset(mv, 0, sizeof *mv);
}
