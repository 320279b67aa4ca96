/* Prints the performance model's features of the launches cuperm would run,
 * one line per case read from stdin: "ELEM_BYTES E0,E1,... P0,P1,...".
 *   default:       "class,bytes,run_bytes" of the planned launch
 *   --candidates:  "case,candidate,class,bytes,in_run_bytes,out_run_bytes,tile_bytes,fill,tiles,
 *                  tile_a_log2,tile_b_log2,vec_log2,band_tiles,in_sector_eff,out_sector_eff,sector_cost,kind,
 *                  warp_in_eff,warp_out_eff,row_order,pipelined,lean,span" for every candidate, in the order
 *                  cuperm-candidate-times times them
 *   --describe:    "ELEM EXTENTS PERM | kind la lb vec band | A-group | B-group | outer |
 *                  in_sector_eff out_sector_eff fill" of the planned launch, groups as
 *                  extent:in_stride:out_stride lists (to compare plans between trees)
 *   --predict:     the model's predicted seconds of the planned launch, then of every candidate,
 *                  as exact hex floats on one line (to compare tuning tables between trees)
 * (see src/plan/transpose/model.h). Host only: no GPU. tools/model/fit_model.py reads both. */
#include <stdio.h>
#include <string.h>

#include "case_line.h"
#include "plan/transpose/model.h"

/* A rows launch's row order: 0 by input stride, 1 by output stride, 2 neither (-1: no rows launch). */
static int row_order(const cuperm_launch_t* l)
{
    if (l->kind != CUPERM_LAUNCH_ROWS) return -1;
    int by_in = 1, by_out = 1;
    for (int d = 2; d < l->tile.rank; ++d) {
        by_in &= l->tile.dim[d - 1].in_stride <= l->tile.dim[d].in_stride;
        by_out &= l->tile.dim[d - 1].out_stride <= l->tile.dim[d].out_stride;
    }
    return by_in ? 0 : by_out ? 1 : 2;
}

int main(int argc, char** argv)
{
    const int all = argc > 1 && strcmp(argv[1], "--candidates") == 0;
    const int describe = argc > 1 && strcmp(argv[1], "--describe") == 0;
    const int predict = argc > 1 && strcmp(argv[1], "--predict") == 0;
    if (argc > 1 && !all && !describe && !predict) {
        fprintf(stderr, "usage: %s [--candidates|--describe|--predict] < cases\n", argv[0]);
        return 2;
    }
    model_case c;
    int r, index = 0;
    while ((r = model_read_case(stdin, &c)) == 1) {
        cuperm_model_features_t f;
        if (describe) {
            const cuperm_launch_t* l = c.plan.has_packed ? &c.plan.packed : &c.plan.launch;
            const cuperm_tile_params_t* t = &l->tile;
            static const char* kinds[] = {"copy", "tiled", "rows", "whole-dims", "row-tiles"};
            const int rt = l->kind == CUPERM_LAUNCH_ROW_TILES; /* its sides in rows, not log2 */
            cuperm_model_features(l, &f);
            printf("%s | %s%s%s%s%s %d %d %d %lld |", c.text, kinds[l->kind], c.plan.has_packed ? "(packed)" : "",
                   t->pipelined ? "(pipelined)" : "", t->lean && !t->pipelined ? "(lean)" : "",
                   l->kind != CUPERM_LAUNCH_WHOLE_DIMS || !t->wd_span ? "" : t->wd_span == 3 ? "(runs)" : "(spans)",
                   rt ? t->rt_side_a : t->tile_a_log2, rt ? t->rt_side_b : t->tile_b_log2, t->vec_log2,
                   (long long)t->band_tiles);
            for (int d = 0; l->kind != CUPERM_LAUNCH_COPY && d < t->rank; ++d)
                printf("%s%lld:%lld:%lld", d == t->a_end || d == t->b_end ? " | " : " ", (long long)t->dim[d].extent,
                       (long long)t->dim[d].in_stride, (long long)t->dim[d].out_stride);
            if (l->kind != CUPERM_LAUNCH_COPY && t->b_end == t->rank) printf(" |");
            printf(" | %.4f %.4f %.4f\n", f.in_sector_eff, f.out_sector_eff, f.fill);
            continue;
        }
        if (!all && !predict) {
            cuperm_model_features(c.plan.has_packed ? &c.plan.packed : &c.plan.launch, &f);
            printf("%d,%.0f,%.0f\n", (int)f.cls, f.bytes, f.run_bytes);
            continue;
        }
        cuperm_launch_t cand[MODEL_MAX_CANDIDATES];
        int n = model_candidates(&c, cand, MODEL_MAX_CANDIDATES);
        if (predict) {
            printf("%a", c.plan.predicted_seconds);
            for (int i = 0; i < n; ++i) printf(" %a", cuperm_predict_seconds(&cand[i], &model_device, model_tuning()));
            printf("\n");
            continue;
        }
        for (int i = 0; i < n; ++i) {
            double warp_in, warp_out;
            cuperm_model_features(&cand[i], &f);
            cuperm_warp_efficiency(&cand[i], &warp_in, &warp_out);
            const cuperm_tile_params_t* t = &cand[i].tile;
            printf("%d,%d,%d,%.0f,%.0f,%.0f,%.0f,%.6f,%.0f,%d,%d,%d,%lld,%.6f,%.6f,%.6f,%d,%.4f,%.4f,%d,%d,%d,%d\n", index, i,
                   (int)f.cls, f.bytes, f.in_run_bytes, f.out_run_bytes, f.tile_bytes, f.fill, f.tiles, t->tile_a_log2,
                   t->tile_b_log2, t->vec_log2, (long long)t->band_tiles, f.in_sector_eff, f.out_sector_eff,
                   cuperm_sector_cost(&cand[i], &model_tuning()->transpose), (int)cand[i].kind, warp_in, warp_out,
                   row_order(&cand[i]), t->pipelined, t->lean,
                   cand[i].kind == CUPERM_LAUNCH_WHOLE_DIMS ? t->wd_span : 0);
        }
        ++index;
    }
    return r < 0 ? 2 : 0;
}
