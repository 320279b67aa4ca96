/* The sub-contractions of an overlapped distributed contraction (see ctr_parts.h). */
#include "dist/ctr_parts.h"

int cuperm_dist_ctr_parts(const cuperm_dist_layout_t* src, const cuperm_dist_layout_t* const buf[3],
                          const int32_t* const modes[3], const int64_t* const str[3], int x, int me,
                          cuperm_dist_part_t* parts)
{
    const int P = src->comm_size;
    cuperm_dist_box_t own[3];
    for (int t = 0; t < 3; ++t)
        if (!cuperm_dist_owned(buf[t], me, &own[t])) return 0;
    int ident[CUPERM_MAX_RANK];
    for (int i = 0; i < CUPERM_MAX_RANK; ++i) ident[i] = i;
    int n = 0;
    for (int s = 0; s < P; ++s) {
        const int q = ((me - s) % P + P) % P;
        cuperm_dist_box_t piece;
        if (!cuperm_dist_exchange_box(src, q, buf[x], me, ident, &piece)) continue;
        cuperm_dist_part_t* p = &parts[n];
        p->peer = q;
        p->step = s;
        for (int i = 0; i < buf[x]->rank; ++i) p->lo[i] = piece.lo[i];
        for (int t = 0; t < 3; ++t) {
            p->offset[t] = 0;
            for (int j = 0; j < buf[t]->rank; ++j) {
                int64_t lo = own[t].lo[j], hi = own[t].hi[j]; /* a label x lacks: the buffer's whole range */
                for (int i = 0; i < buf[x]->rank; ++i)
                    if (modes[x][i] == modes[t][j]) {
                        lo = piece.lo[i];
                        hi = piece.hi[i];
                    }
                p->ext[t][j] = hi - lo;
                p->offset[t] += (lo - own[t].lo[j]) * str[t][j];
            }
        }
        /* Equal or disjoint (see the header): the same corner and extents is the same block. */
        p->accumulate = 0;
        for (int k = 0; k < n && !p->accumulate; ++k) {
            int same = parts[k].offset[2] == p->offset[2];
            for (int j = 0; j < buf[2]->rank && same; ++j) same = parts[k].ext[2][j] == p->ext[2][j];
            p->accumulate = same;
        }
        ++n;
    }
    return n;
}

double cuperm_dist_overlap_seconds(double other, int wait_other, const double* link_round, int rounds,
                                   const int* round, const double* part_seconds, int n)
{
    double link = other, arrived[CUPERM_DIST_MAX_PARTS] = {0};
    for (int r = 1; r <= rounds && r < CUPERM_DIST_MAX_PARTS; ++r) arrived[r] = link += link_round[r];
    double t = wait_other ? other : 0.0;
    for (int i = 0; i < n; ++i) {
        const double ready = arrived[round[i]];
        t = (t > ready ? t : ready) + part_seconds[i];
    }
    return t > link ? t : link;
}
