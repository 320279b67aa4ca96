/* Saving and loading a handle's measured decisions (see plan_cache_file.h). */
#include "exec/plan_cache_file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cublasLt.h>

#include "core/kernel_params.h"
#include "core/plan_file.h"
#include "exec/contraction/state.h"
#include "exec/transpose/plan.h"

enum { SECTION_TRANSPOSES = 1, SECTION_CONTRACTIONS = 2 };

/* Who wrote a file: a reader takes only decisions made by the same library for the same kind of
 * device, with records of the same layout. */
static void identity(const cuperm_handle_t* h, char* key, size_t size)
{
    /* The tile kernels' elements per thread are part of it: a measured launch's tile shape fits
     * their fast paths only under the contract it was measured with. So is cuBLASLt's version: a
     * measured contraction names its GEMM's algorithm by its place among the heuristic's answers. */
    snprintf(key, size,
             "cuperm %d; cuBLASLt %zu; sm_%d%d, %d SMs, %d B L2, %.4g B/s; tuning %s; records %zu+%zu, %zu+%zu+%zu; "
             "tile items %d %d %d %d %d",
             CUPERM_VERSION, cublasLtGetVersion(), h->dev.cc_major, h->dev.cc_minor, h->dev.sm_count, h->dev.l2_bytes,
             h->dev.dram_bytes_per_second, h->tuning->name, sizeof(cuperm_plan_key_t),
             sizeof(cuperm_transpose_plan_t), sizeof(cuperm_ctr_problem_t), sizeof(cuperm_ctr_layout_t),
             sizeof(double), CUPERM_TILE_ITEMS(1), CUPERM_TILE_ITEMS(2), CUPERM_TILE_ITEMS(4),
             CUPERM_TILE_ITEMS(8), CUPERM_TILE_ITEMS(16));
}

/* Contraction records: the problem, then the layout and its measured seconds. */
typedef struct {
    cuperm_ctr_layout_t layout;
    double seconds;
} ctr_value;

typedef struct {
    cuperm_plan_file_writer_t* w;
    int count;
} write_ctx;

static void write_transpose(void* ctx, const cuperm_plan_key_t* key, const cuperm_transpose_plan_t* plan)
{
    write_ctx* c = ctx;
    cuperm_transpose_plan_t v = *plan;
    v.tuning = NULL; /* a pointer: the reader sets its own */
    cuperm_plan_file_record(c->w, key, &v);
    ++c->count;
}

static void write_contraction(void* ctx, const cuperm_ctr_problem_t* p, const cuperm_ctr_layout_t* l, double s)
{
    write_ctx* c = ctx;
    ctr_value v;
    memset(&v, 0, sizeof v);
    v.layout = *l;
    v.seconds = s;
    cuperm_plan_file_record(c->w, p, &v);
    ++c->count;
}

cupermStatus_t cuperm_plan_cache_file_write(cuperm_handle_t* h, const char* path, int* written)
{
    static const char* fn = "cupermHandleWritePlanCache";
    char key[512];
    identity(h, key, sizeof key);
    cuperm_plan_file_writer_t w;
    write_ctx c = {&w, 0};
    cuperm_plan_file_begin(&w, key);
    cuperm_plan_file_section(&w, SECTION_TRANSPOSES, sizeof(cuperm_plan_key_t), sizeof(cuperm_transpose_plan_t));
    cuperm_plan_cache_foreach_measured(h->plan_cache, write_transpose, &c);
    cuperm_ctr_state_t* s = NULL;
    cupermStatus_t st = cuperm_ctr_state_get(h, &s);
    if (st) {
        cuperm_plan_file_writer_free(&w);
        return st;
    }
    cuperm_plan_file_section(&w, SECTION_CONTRACTIONS, sizeof(cuperm_ctr_problem_t), sizeof(ctr_value));
    cuperm_ctr_state_foreach_measured(s, write_contraction, &c);
    if (cuperm_plan_file_end(&w)) {
        cuperm_plan_file_writer_free(&w);
        return cuperm_fail_in(fn, CUPERM_STATUS_ALLOC_FAILED, "out of host memory");
    }
    FILE* f = fopen(path, "wb");
    if (!f) {
        const int e = errno;
        cuperm_plan_file_writer_free(&w);
        return cuperm_fail_in(fn, CUPERM_STATUS_INVALID_VALUE, "path = \"%s\" cannot be opened for writing (%s)", path,
                              strerror(e));
    }
    const int ok = fwrite(w.data, 1, w.size, f) == w.size;
    const int closed = fclose(f) == 0;
    cuperm_plan_file_writer_free(&w);
    if (!ok || !closed)
        return cuperm_fail_in(fn, CUPERM_STATUS_INVALID_VALUE, "path = \"%s\": writing failed", path);
    if (written) *written = c.count;
    return CUPERM_STATUS_SUCCESS;
}

static unsigned char* slurp(const char* path, size_t* size, int* err)
{
    FILE* f = fopen(path, "rb");
    if (!f) {
        *err = errno;
        return NULL;
    }
    size_t cap = 1 << 16, n = 0;
    unsigned char* d = malloc(cap);
    while (d) {
        n += fread(d + n, 1, cap - n, f);
        if (n < cap) break;
        unsigned char* g = realloc(d, cap *= 2);
        if (!g) {
            free(d);
            d = NULL;
        } else {
            d = g;
        }
    }
    const int bad = ferror(f);
    fclose(f);
    if (bad || !d) {
        free(d);
        *err = bad ? EIO : ENOMEM;
        return NULL;
    }
    *size = n;
    return d;
}

cupermStatus_t cuperm_plan_cache_file_read(cuperm_handle_t* h, const char* path, int* read)
{
    static const char* fn = "cupermHandleReadPlanCache";
    *read = 0;
    int err = 0;
    size_t size = 0;
    unsigned char* data = slurp(path, &size, &err);
    if (!data)
        return cuperm_fail_in(fn, err == ENOMEM ? CUPERM_STATUS_ALLOC_FAILED : CUPERM_STATUS_INVALID_VALUE,
                              "path = \"%s\" cannot be read (%s)", path, strerror(err));
    cuperm_ctr_state_t* s = NULL;
    cupermStatus_t st = cuperm_ctr_state_get(h, &s);
    if (st) {
        free(data);
        return st;
    }
    char key[512], why[400] = "";
    identity(h, key, sizeof key);
    cuperm_plan_file_reader_t r;
    int n = 0, ok = cuperm_plan_file_open(&r, data, size, key, why, sizeof why) == 0;
    uint32_t id, kb, vb, count;
    int more = 0;
    /* The key fixes every record size; a section that disagrees makes the file corrupt. Records are
     * added only once the whole file has been checked. */
    for (int pass = 0; ok && pass < 2; ++pass) {
        cuperm_plan_file_reader_t q = r;
        while (ok && (more = cuperm_plan_file_section_next(&q, &id, &kb, &vb, &count, why, sizeof why)) == 1) {
            const int t = id == SECTION_TRANSPOSES, c = id == SECTION_CONTRACTIONS;
            if ((t && (kb != sizeof(cuperm_plan_key_t) || vb != sizeof(cuperm_transpose_plan_t))) ||
                (c && (kb != sizeof(cuperm_ctr_problem_t) || vb != sizeof(ctr_value))) || (!t && !c)) {
                snprintf(why, sizeof why, "corrupt (section %u has unexpected records)", id);
                ok = 0;
                break;
            }
            for (uint32_t i = 0; i < count; ++i) {
                const void *k, *v;
                cuperm_plan_file_next(&q, kb, vb, &k, &v);
                if (pass == 0) continue;
                if (t) {
                    cuperm_plan_key_t key1;
                    cuperm_transpose_plan_t plan;
                    memcpy(&key1, k, sizeof key1);
                    memcpy(&plan, v, sizeof plan);
                    plan.tuning = h->tuning->name;
                    plan.device = h->dev.ordinal;
                    plan.measured = 1;
                    cuperm_plan_cache_store(h->plan_cache, &key1, &plan);
                } else {
                    cuperm_ctr_problem_t p;
                    ctr_value d;
                    memcpy(&p, k, sizeof p);
                    memcpy(&d, v, sizeof d);
                    cuperm_ctr_state_insert(s, &p, 1, CUPERM_ALGO_DEFAULT, &d.layout, d.seconds);
                }
                ++n;
            }
        }
        if (more < 0) ok = 0;
    }
    free(data);
    *read = n;
    if (!ok) return cuperm_fail_in(fn, CUPERM_STATUS_SUCCESS, "\"%s\" ignored: %s", path, why);
    return CUPERM_STATUS_SUCCESS;
}
