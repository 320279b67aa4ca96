/* The moves kernel's list (backend/cuda/dist/moves.h): a one-kernel plan's pieces as moves,
 * built on the host and uploaded once, when the plan is made or an output is bound. */
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "dist/plan.h"

void cuperm_dist_move_describe(const cuperm_dist_piece_t* s, int64_t src_offset, char* dst, int64_t dst_offset,
                               int scaled, cuperm_dist_move_t* m)
{
    memset(m, 0, sizeof *m);
    m->src_offset = src_offset;
    m->dst = dst;
    m->dst_offset = dst_offset;
    m->scaled = scaled;
    m->rank = s->walk.rank;
    m->volume = 1;
    for (int d = 0; d < m->rank; ++d) {
        m->dim[d] = s->walk.dim[d];
        m->div[d] = cuperm_fastdiv_make(m->dim[d].extent);
        m->volume *= m->dim[d].extent;
    }
}

cupermStatus_t cuperm_dist_moves_upload(const cuperm_dist_plan_t* p, const cuperm_dist_piece_t* pieces, int n,
                                        int scaled, const cuperm_dist_window_t* w, size_t base,
                                        cuperm_dist_move_t** list, int* count)
{
    if (*list) cudaFree(*list);
    *list = NULL;
    *count = 0;
    const int local = p->has_local && !p->skip_local;
    const int total = n + local;
    cuperm_dist_move_t* m = malloc(sizeof *m * (size_t)(total > 0 ? total : 1));
    if (!m) return cuperm_fail(CUPERM_STATUS_ALLOC_FAILED, "cupermDistPlan: out of host memory (%d moves)", total);
    for (int i = 0; i < n; ++i) {
        const cuperm_dist_piece_t* s = &pieces[i];
        cuperm_dist_move_describe(s, s->local_offset, w->peer[s->peer] + base + s->peer_offset, 0, scaled, &m[i]);
    }
    if (local) cuperm_dist_move_describe(&p->local, p->local.local_offset, NULL, p->local.local_offset2, 1, &m[n]);
    cuperm_dist_move_t* d = NULL;
    cudaError_t e = total ? cudaMalloc((void**)&d, sizeof *m * (size_t)total) : cudaSuccess;
    if (!e && total) e = cudaMemcpy(d, m, sizeof *m * (size_t)total, cudaMemcpyHostToDevice);
    free(m);
    if (e) {
        if (d) cudaFree(d);
        return cuperm_dist_cuda_fail(e, "cupermDistPlan: uploading the moves kernel's list");
    }
    *list = d;
    *count = total;
    return CUPERM_STATUS_SUCCESS;
}
