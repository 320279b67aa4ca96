#include "plan/transpose/model.h"

#include <math.h>

#include "plan/transpose/model_params.h"

/* Elements of group [begin, end) that lie contiguously on one side, from the
 * group's first dimension on, but no more than the tile covers. */
static int64_t contiguous_run(const cuperm_tile_params_t* t, int begin, int end, int output_side,
                              int64_t tile)
{
    int64_t run = 1;
    for (int d = begin; d < end && run < tile; ++d) {
        int64_t stride = output_side ? t->dim[d].out_stride : t->dim[d].in_stride;
        if (stride != run) break;
        run *= t->dim[d].extent;
    }
    return run < tile ? run : tile;
}

void cuperm_model_features(const cuperm_launch_t* l, cuperm_model_features_t* f)
{
    f->bytes = 2.0 * (double)l->volume * l->elem_size;
    const cuperm_tile_params_t* t = &l->tile;
    const int64_t ta = (int64_t)1 << t->tile_a_log2, tb = (int64_t)1 << t->tile_b_log2;
    int64_t in = 0, out = 0;
    switch (l->kind) {
    case CUPERM_LAUNCH_COPY:
        f->cls = CUPERM_MODEL_COPY;
        f->run_bytes = f->in_run_bytes = f->out_run_bytes = (double)l->volume * l->elem_size;
        f->tile_bytes = f->tiles = 0;
        f->fill = 1;
        return;
    case CUPERM_LAUNCH_ROWS:
        f->cls = t->vec_log2 ? CUPERM_MODEL_ROWS_VEC : CUPERM_MODEL_ROWS;
        in = contiguous_run(t, 0, t->a_end, 0, ta);
        out = contiguous_run(t, 0, t->a_end, 1, ta);
        break;
    case CUPERM_LAUNCH_TILED:
        f->cls = t->vec_log2 ? CUPERM_MODEL_TILED_VEC : CUPERM_MODEL_TILED;
        in = contiguous_run(t, 0, t->a_end, 0, ta);
        out = contiguous_run(t, t->a_end, t->b_end, 1, tb);
        break;
    }
    f->in_run_bytes = (double)in * l->elem_size;
    f->out_run_bytes = (double)out * l->elem_size;
    f->run_bytes = f->in_run_bytes < f->out_run_bytes ? f->in_run_bytes : f->out_run_bytes;
    f->tile_bytes = (double)(ta * tb) * l->elem_size;
    f->tiles = (double)t->num_tiles;
    f->fill = (double)l->volume / ((double)t->num_tiles * (double)(ta * tb));
}

double cuperm_model_seconds(const cuperm_model_features_t* f, double peak)
{
    double run = f->run_bytes / 128.0;
    double shape = run >= 1.0 ? 1.0 : pow(run, CUPERM_MODEL_GAMMA);
    return CUPERM_MODEL_T0 + f->bytes / (peak * cuperm_model_efficiency[f->cls] * shape);
}
