#include "case_line.h"

#include <stdlib.h>
#include <string.h>

#include "plan/transpose/validate.h"

const cuperm_device_info_t model_device = {0, 9, 0, 132, 50 << 20, 48 << 10, 3.352e12};

const cuperm_tuning_t* model_tuning(void) { return cuperm_tuning_for(&model_device); }

static int parse_list(char* s, int64_t* v, int max)
{
    int n = 0;
    for (char* tok = strtok(s, ","); tok && n < max; tok = strtok(NULL, ",")) v[n++] = strtoll(tok, NULL, 10);
    return n;
}

static cupermDataType_t type_of_size(int elem)
{
    return elem == 1 ? CUPERM_R_8U : elem == 2 ? CUPERM_R_16F : elem == 4 ? CUPERM_R_32F
         : elem == 8 ? CUPERM_R_64F : CUPERM_C_64F;
}

int model_unpacked(void)
{
    const char* e = getenv("CUPERM_MODEL_UNPACKED");
    return e && !strcmp(e, "1");
}

int model_read_case(FILE* in, model_case* c)
{
    char ext_s[2048], perm_s[2048];
    for (;;) {
        if (!fgets(c->text, sizeof c->text, in)) return 0;
        c->text[strcspn(c->text, "\r\n")] = '\0';
        if (sscanf(c->text, "%d %2047s %2047s", &c->elem, ext_s, perm_s) == 3) break;
        if (c->text[0] && c->text[0] != '#') {
            fprintf(stderr, "model tools: expected \"ELEM E0,E1,... P0,P1,...\", got: %s\n", c->text);
            return -1;
        }
    }
    int64_t p64[CUPERM_MAX_RANK];
    c->rank = parse_list(ext_s, c->extents, CUPERM_MAX_RANK);
    if (parse_list(perm_s, p64, CUPERM_MAX_RANK) != c->rank) {
        fprintf(stderr, "model tools: rank mismatch in: %s\n", c->text);
        return -1;
    }
    for (int i = 0; i < c->rank; ++i) c->perm[i] = (int)p64[i];
    if (cuperm_validate_transpose(c->rank, c->extents, c->perm, type_of_size(c->elem), NULL, NULL)) {
        fprintf(stderr, "model tools: %s: %s\n", c->text, cupermGetLastErrorMessage());
        return -1;
    }
    cuperm_plan_host(c->rank, c->extents, c->perm, c->elem, NULL, NULL, &model_device, model_tuning(), &c->plan);
    /* benchmarks move bits (packed where the plan packs); CUPERM_MODEL_UNPACKED=1: the element's own
     * launches, what an execute with arithmetic (beta != 0, operators) runs */
    if (model_unpacked()) c->plan.has_packed = 0;
    c->base = c->plan.has_packed ? &c->plan.packed : &c->plan.launch;
    return 1;
}

int model_candidates(const model_case* c, cuperm_launch_t* out, int max)
{
    int n = cuperm_plan_candidates(c->rank, c->extents, c->perm, c->elem, NULL, NULL, &model_device, model_tuning(),
                                   c->plan.has_packed, out, max);
    const char* e = getenv("CUPERM_MODEL_EXPLORE");
    if (e && !strcmp(e, "small") && n >= 1 && (out[0].kind == CUPERM_LAUNCH_TILED || out[0].kind == CUPERM_LAUNCH_ROWS)) {
        /* the rules' tile at 1/2, 1/4 and 1/8 of its size (scalar, A-fastest walk): more blocks
         * for tensors whose tiles do not fill the GPU, on the kernels' any-shape path */
        const cuperm_launch_t h = out[0];
        const cuperm_tile_params_t* t = &h.tile;
        for (int cut = 1; cut <= 3 && n < max; ++cut) {
            int la = t->tile_a_log2, lb = t->tile_b_log2;
            for (int k = 0; k < cut; ++k) (la >= lb && la > 0) ? --la : --lb;
            if (lb < 0) break;
            cuperm_launch_t c = h;
            cuperm_tile_params_init(&c.tile, t->dim, t->rank, t->a_end, t->b_end, la, lb, h.elem_size);
            c.blocks = c.tile.num_tiles;
            c.smem_bytes = cuperm_tile_smem_bytes(c.kind, &c.tile, c.elem_size);
            out[n++] = c;
        }
        return n;
    }
    if (!e || strcmp(e, "1") != 0 || n < 1 || out[0].kind != CUPERM_LAUNCH_TILED) return n;
    static const int64_t bands[] = {2, 4, 16, 32};
    const cuperm_launch_t h = out[0];
    for (size_t i = 0; i < sizeof bands / sizeof bands[0] && n < max; ++i) {
        if (h.tile.a_tiles <= bands[i] || h.tile.band_tiles == bands[i]) continue;
        out[n] = h;
        out[n++].tile.band_tiles = bands[i];
    }
    return n;
}
