/* ROW_TILES launches (backend/cuda/transpose/row_tiles.cuh): for transposes whose fastest
 * dimension is the same on both sides (the rows kernel's case) and short, a tile of whole rows
 * from the input's next dimensions by the output's, so that both sides move runs of many rows
 * where the rows kernel moves, on one side, one row at a time. */
#ifndef CUPERM_PLAN_TRANSPOSE_ROW_TILES_H
#define CUPERM_PLAN_TRANSPOSE_ROW_TILES_H

#include "core/kernel_params.h"
#include "core/layout.h"
#include "core/tuning.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Builds a ROW_TILES launch for canonical problem p (elements of elem bytes: 4, 8 or 16) into *L,
 * or returns 0 when p has none: dim 0 must be the fastest on both sides with unit strides and its
 * rows shorter than max_row_bytes; group A takes the input's next dimensions while they continue
 * its run (up to the output's next dimension), B the output's; of the tiles of at most
 * tt->row_tiles_tile_bytes, the one holding the most rows whose runs on both sides span at least
 * a line (or all their group allows), its sides cut into even chunks; vectors of up to 16 bytes
 * where the row and the other strides are whole vectors. */
int cuperm_row_tiles_launch(const cuperm_problem_t* p, int elem, int64_t max_row_bytes,
                            const cuperm_transpose_tuning_t* tt, cuperm_launch_t* L);


#ifdef __cplusplus
}
#endif

#endif
