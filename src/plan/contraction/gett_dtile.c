/* The D-tile GETT kernel's eligibility and tile (see gett_dtile.h). */
#include "plan/contraction/gett_dtile.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/layout.h"

enum { M = CTR_GROUP_M, N = CTR_GROUP_N, K = CTR_GROUP_K };

int cuperm_ctr_dtile_slot_bytes(const cuperm_ctr_dtile_t* s, int dMFast)
{
    const int tx = dMFast ? s->tn : s->tm, ty = dMFast ? s->tm : s->tn;
    const int outerX = cuperm_ctr_dtile_outer_x(tx, ty);
    const int innerIsM = outerX == dMFast; /* the inner side is Y (M when dMFast) or X (M otherwise) */
    if (!s->whole[innerIsM ? 0 : 1]) return 0;
    const int bytes = cuperm_ctr_dtile_slot_table_bytes(tx, ty, s->kp);
    return bytes <= CTR_DTILE_SLOT_BYTES ? bytes : 0;
}

int cuperm_ctr_dtile_smem_bytes(const cuperm_ctr_dtile_t* s, int dMFast)
{
    const int panels = dMFast ? cuperm_ctr_dtile_panel_bytes(s->tn, s->tm, s->kp) : cuperm_ctr_dtile_panel_bytes(s->tm, s->tn, s->kp);
    return panels + cuperm_ctr_dtile_slot_bytes(s, dMFast) + CTR_DTILE_STAGE_BYTES;
}

/* Whether a tile of tm x tn fits the kernel's warp grid and panels with either side along D's
 * fastest direction (the tables decide which after the tile: cuperm_ctr_gett_paths). */
static int fits(int64_t tm, int64_t tn, int kp)
{
    if (tm > CTR_DTILE_OUTPUTS || tn > CTR_DTILE_OUTPUTS) return 0;
    const int a = (int)tm, b = (int)tn;
    return cuperm_ctr_dtile_ny(a, b, NULL, NULL) && cuperm_ctr_dtile_ny(b, a, NULL, NULL) &&
           cuperm_ctr_dtile_panel_bytes(a, b, kp) <= CTR_DTILE_PANEL_BYTES &&
           cuperm_ctr_dtile_panel_bytes(b, a, kp) <= CTR_DTILE_PANEL_BYTES;
}

/* The largest count f <= e of a mode's indices the group's side may take next (f >= 1). */
static int64_t take(int64_t side[2], int g, int64_t e, int kp)
{
    int64_t f = e;
    while (f > 1) {
        const int64_t tm = g == M ? side[0] * f : side[0], tn = g == N ? side[1] * f : side[1];
        if (fits(tm, tn, kp)) break;
        f = f > 2 ? f * 3 / 4 : 1; /* a few tries, not a search: any f that fits is correct */
    }
    return f;
}

int cuperm_ctr_dtile_d_order(const cuperm_ctr_problem_t* p, int order[CTR_MAX_MODES])
{
    int n = 0;
    for (int i = 0; i < p->nmodes; ++i)
        if (p->modes[i].pos[CTR_D] >= 0) order[n++] = i;
    int64_t stride[CTR_MAX_MODES];
    cuperm_ctr_mode_keys(p, CTR_D, stride, NULL);
    cuperm_sort_by_key(order, n, stride, NULL);
    return n;
}

int cuperm_ctr_dtile_requested(void)
{
    const char* env = getenv("CUPERM_GETT_DTILE");
    return env && strcmp(env, "1") == 0;
}

int cuperm_ctr_dtile_choose(const cuperm_ctr_problem_t* p, cuperm_ctr_dtile_t* s)
{
    if (cuperm_ctr_gett_cuda_cores(p) || !cuperm_ctr_gett_supported(p, NULL, 0) || cuperm_ctr_gett_has_operators(p))
        return 0;
    if (p->groupSize[K] > CTR_DTILE_KMAX) return 0;
    memset(s, 0, sizeof *s);
    s->kp = (int)((p->groupSize[K] + 15) / 16 * 16);
    s->whole[0] = s->whole[1] = 1;

    int order[CTR_MAX_MODES];
    const int n = cuperm_ctr_dtile_d_order(p, order);

    /* 1. D's leading modes, whole, up to CTR_DTILE_RUN elements; a mode that does not fit whole
     *    ends the walk with as many of its indices as fit (its group's side is then closed). */
    int64_t side[2] = {1, 1};
    int next[2] = {0, 0}; /* per group: how many of its modes (in D's order) the tile holds whole */
    int closed[2] = {0, 0};
    int i = 0;
    for (; i < n && side[0] * side[1] < CTR_DTILE_RUN; ++i) {
        const int g = (int)p->modes[order[i]].group;
        if (g != M && g != N) break; /* a batch mode: one index per block */
        const int64_t e = p->modes[order[i]].extent, f = take(side, g, e, s->kp);
        side[g] *= f;
        if (f < e) {
            closed[g] = 1;
            if (f > 1) s->whole[g] = 0; /* part of a mode */
            break;
        }
        ++next[g];
    }
    /* 2. Then a side grows by its group's next mode (in D's order) while the tile fits: the smaller
     *    side among those whose next mode fits whole; where neither does, the smaller side takes as
     *    much of its next mode as fits and closes. Whole modes keep every tile full and let the
     *    kernel gather the inner panel through its slot table (core/gett_dtile_shape.h). */
    for (;;) {
        int mode[2] = {-1, -1};
        int64_t f[2] = {0, 0};
        for (int h = M; h <= N; ++h) {
            if (closed[h]) continue;
            for (int j = 0, seen = 0; j < n && mode[h] < 0; ++j)
                if ((int)p->modes[order[j]].group == h && seen++ == next[h]) mode[h] = order[j];
            if (mode[h] < 0) closed[h] = 1;
            else f[h] = take(side, h, p->modes[mode[h]].extent, s->kp);
        }
        int g = -1;
        for (int whole = 1; whole >= 0 && g < 0; --whole)
            for (int h = M; h <= N; ++h) {
                if (mode[h] < 0 || (whole && f[h] < p->modes[mode[h]].extent)) continue;
                if (g < 0 || side[h] < side[g]) g = h;
            }
        if (g < 0) break;
        side[g] *= f[g];
        if (f[g] < p->modes[mode[g]].extent) {
            closed[g] = 1;
            if (f[g] > 1) s->whole[g] = 0;
        } else {
            ++next[g];
        }
    }
    s->tm = (int)side[0];
    s->tn = (int)side[1];
    if ((int64_t)s->tm * s->tn < 64) return 0;
    const int64_t tiles = (p->groupSize[M] + s->tm - 1) / s->tm * ((p->groupSize[N] + s->tn - 1) / s->tn);
    if (tiles > INT32_MAX) return 0;
    s->by[M] = CTR_D;
    s->by[N] = CTR_D;
    s->by[K] = s->tn >= s->tm ? CTR_B : CTR_A;
    return 1;
}
