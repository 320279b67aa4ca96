/* A contraction plan's steps for its layout: transpose sub-plans (operators inside), the GEMM, buffers. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <threads.h>

#include "exec/contraction/plan.h"
#include "core/error.h"
#include "core/operators.h"
#include "plan/contraction/gett.h"
#include "plan/contraction/gett_dtile.h"
#include "plan/contraction/gett_tma.h"
#include "plan/contraction/types.h"

/* ---- sub-plans ---------------------------------------------------------------- */

static cupermStatus_t plan_transpose(cuperm_handle_t* h, const cuperm_ctr_transpose_t* t, cuperm_transpose_plan_t* out)
{
    return cuperm_transpose_plan_init(h, out, t->rank, t->extents, t->perm, t->type, t->inStrides, t->outStrides);
}

/* Where each GETT offset table goes in cuperm_gett_params_t: the index group and operand it serves. */
typedef struct {
    size_t field; /* offsetof a const void* member */
    int group, operand;
} gett_table_t;
#define GETT_TABLE(member, grp, w) {offsetof(cuperm_gett_params_t, member), CTR_GROUP_##grp, CTR_##w}
static const gett_table_t gett_tables[] = {
    GETT_TABLE(aM, M, A), GETT_TABLE(aK, K, A), GETT_TABLE(aL, L, A), GETT_TABLE(bK, K, B),
    GETT_TABLE(bN, N, B), GETT_TABLE(bL, L, B), GETT_TABLE(cM, M, C), GETT_TABLE(cN, N, C),
    GETT_TABLE(cL, L, C), GETT_TABLE(dM, M, D), GETT_TABLE(dN, N, D), GETT_TABLE(dL, L, D),
};
#undef GETT_TABLE

static cuperm_buffer_t operand_buffer(int which) { return (cuperm_buffer_t){(cuperm_buffer_kind_t)which, 0}; }
static cuperm_buffer_t workspace_buffer(size_t offset) { return (cuperm_buffer_t){CUPERM_BUF_WORKSPACE, offset}; }
static const cuperm_buffer_t no_buffer = {CUPERM_BUF_NONE, 0};

static cuperm_step_t* add_step(cuperm_contraction_plan_t* c, const char* name, cuperm_step_fn run, void* params,
                               cuperm_buffer_t in, cuperm_buffer_t in2, cuperm_buffer_t out)
{
    cuperm_step_t* s = &c->steps[c->stepCount++];
    *s = (cuperm_step_t){name, run, CUPERM_STEP_ALWAYS, in, in2, out, 0, params};
    return s;
}

/* A transpose step (the tuned kernels, with the operators of ops inside them when non-NULL). */
static cupermStatus_t add_transpose(cuperm_contraction_plan_t* c, int slot, const char* name, const cuperm_ctr_transpose_t* t,
                                    const cuperm_ops_t* ops, int useBeta, cuperm_buffer_t in, cuperm_buffer_t out,
                                    unsigned when)
{
    cuperm_ctr_transpose_step_t* ts = &c->transposes[slot];
    cupermStatus_t st = plan_transpose(c->handle, t, &ts->plan);
    if (st) return st;
    if (ops) ts->plan.ops = *ops;
    ts->use_beta = useBeta;
    add_step(c, name, cuperm_ctr_step_transpose, ts, in, no_buffer, out)->when = when;
    return CUPERM_STATUS_SUCCESS;
}

static void fill_pointers(const cuperm_ctr_problem_t* p, const cuperm_ctr_layout_t* l, cuperm_ctr_gemm_step_t* g)
{
    cuperm_ctr_layout_pointers(p, l, &g->pointers);
    g->pointersAligned = cuperm_ctr_layout_pointers_aligned(p, l);
}

/* The plan's device made current for work done at planning; *previous: the device to give back
 * (-1 when the current one could not be read). */
static cudaError_t enter_plan_device(const cuperm_contraction_plan_t* c, int* previous)
{
    *previous = -1;
    cudaError_t e = cudaGetDevice(previous);
    if (e != cudaSuccess) {
        *previous = -1;
        return e;
    }
    return *previous != c->device ? cudaSetDevice(c->device) : cudaSuccess;
}

static void leave_plan_device(const cuperm_contraction_plan_t* c, int previous)
{
    if (previous >= 0 && previous != c->device) cudaSetDevice(previous);
}

/* The cuBLASLt algorithm of the GEMM, chosen on the plan's device (none: cublasGemmEx runs it). */
static void choose_lt(const cuperm_contraction_plan_t* c, cuperm_ctr_gemm_step_t* g)
{
    int previous;
    if (enter_plan_device(c, &previous) != cudaSuccess) {
        cudaGetLastError();
        return;
    }
    /* CUPERM_LT_ALGO (A/B runs) over the layout's measured answer */
    const int pick = c->handle->ltAlgo ? c->handle->ltAlgo : c->layout.ltAlgo > 0 ? c->layout.ltAlgo - 1 : 0;
    cuperm_ctr_lt_plan(cuperm_ctr_lt_handle(c->state), &c->problem, &c->layout, CTR_CUBLAS_WORKSPACE,
                       g->bounds.vectorBytes, pick, &g->lt);
    leave_plan_device(c, previous);
}

/* A one-call GEMM's algorithm now when the handle says so (ltAfterRuns 0) or measure mode chose
 * it (layout.ltAlgo), else at the plan's ltAfterRuns-th run; a ragged GEMM's (gemm_bounds.h) now,
 * whatever its calls: cublasGemmEx could read past its operands' ends. */
static void plan_lt(const cuperm_contraction_plan_t* c, cuperm_ctr_gemm_step_t* g)
{
    atomic_init(&g->runs, 0);
    atomic_init(&g->ltState, 0);
    cuperm_ctr_gemm_bounds(&c->problem, &c->layout, &g->bounds);
    if (!g->bounds.ragged && (c->layout.calls > 1 || (c->handle->ltAfterRuns > 0 && !c->layout.ltAlgo))) return;
    choose_lt(c, g);
    atomic_store_explicit(&g->ltState, 2, memory_order_release);
}

int cuperm_ctr_plan_lt_run(const cuperm_contraction_plan_t* c, cuperm_ctr_gemm_step_t* g)
{
    if (atomic_load_explicit(&g->ltState, memory_order_acquire) == 2) return g->lt.ready;
    if (atomic_fetch_add_explicit(&g->runs, 1, memory_order_relaxed) + 1 < c->handle->ltAfterRuns) return 0;
    int expected = 0;
    if (!atomic_compare_exchange_strong_explicit(&g->ltState, &expected, 1, memory_order_acquire,
                                                 memory_order_acquire))
        return expected == 2 && g->lt.ready; /* being chosen by another run: cublasGemmEx this once */
    choose_lt(c, g);
    atomic_store_explicit(&g->ltState, 2, memory_order_release);
    return g->lt.ready;
}

/* The layout's steps, in order: operands into the workspace (opA, opB inside; a padded GEMM's K
 * padding zeroed), C into D, the GEMM, the result into D (opC, opD inside), opD in place. */
static cupermStatus_t build_steps(cuperm_contraction_plan_t* c)
{
    const cuperm_ctr_problem_t* p = &c->problem;
    const cuperm_ctr_layout_t* l = &c->layout;
    const cuperm_ctr_cost_model_t model = cuperm_ctr_device_model(c->handle); /* how K padding is zeroed */
    cupermStatus_t st;
    cuperm_buffer_t gemmIn[2] = {operand_buffer(CTR_A), operand_buffer(CTR_B)};
    static const char* const inputNames[2][2] = {{"transpose A", "transpose A with opA"},
                                                 {"transpose B", "transpose B with opB"}};
    c->stepCount = 0;
    for (int x = 0; x < 2; ++x) {
        if (l->in[x].path == CTR_IN_DIRECT) continue;
        cuperm_ctr_transpose_t t;
        cuperm_ctr_layout_input_transpose(p, l, x, &t);
        gemmIn[x] = workspace_buffer(l->wsOffset[x]);
        const int withOp = l->in[x].path == CTR_IN_ELEMENTWISE;
        const cuperm_ops_t ops = {l->ops.op[x], CUPERM_OP_IDENTITY, CUPERM_OP_IDENTITY, p->op[x].opParam, 0, 0};
        /* A padded GEMM: K's padding must add nothing. The whole slice is zeroed before the
         * transpose writes it, the padding alone after. */
        cuperm_ctr_zero_t z;
        if (cuperm_ctr_layout_zero(l, p, x, &model, &z)) {
            const size_t e = cupermDataTypeSize(p->op[x].type);
            const int64_t* r = z.region;
            c->zeros[x] = z.kind == CTR_ZERO_SLICE
                              ? (cuperm_ctr_zero_step_t){z.kind, 0, (size_t)r[1] * e, (size_t)r[1] * e, (size_t)r[3]}
                              : (cuperm_ctr_zero_step_t){z.kind, (size_t)r[0] * e, (size_t)r[1] * e, (size_t)r[2] * e,
                                                         (size_t)r[3]};
        }
        const char* zeroName = x ? "zero B's K padding" : "zero A's K padding";
        if (z.kind == CTR_ZERO_SLICE)
            add_step(c, zeroName, cuperm_ctr_step_zero, &c->zeros[x], no_buffer, no_buffer, gemmIn[x]);
        if ((st = add_transpose(c, x, inputNames[x][withOp], &t, withOp ? &ops : NULL, 0, operand_buffer(x),
                                gemmIn[x], CUPERM_STEP_ALWAYS)))
            return st;
        if (z.kind != CTR_ZERO_NONE && z.kind != CTR_ZERO_SLICE)
            add_step(c, zeroName, cuperm_ctr_step_zero, &c->zeros[x], no_buffer, no_buffer, gemmIn[x]);
    }
    /* cuBLAS updates its output in place, and the W-into-D transpose reads C where D is: D
     * must hold C first when it is not C. */
    cuperm_ctr_transpose_t cToD;
    cuperm_ctr_copy_c_to_d(p, &cToD);
    if ((st = add_transpose(c, 2, "copy C into D", &cToD, NULL, 0, operand_buffer(CTR_C), operand_buffer(CTR_D),
                            CUPERM_STEP_IF_C_INTO_D)))
        return st;
    const cuperm_buffer_t W = workspace_buffer(l->wsOffset[2]);
    const int first = l->swapped ? CTR_B : CTR_A, second = l->swapped ? CTR_A : CTR_B;
    cuperm_ctr_gemm_step_t* g = &c->gemm;
    g->use_beta = l->out == CTR_OUT_DIRECT;
    memset(&g->lt, 0, sizeof g->lt); /* a copy of another plan may hold that plan's */
    if (l->calls > 1) fill_pointers(p, l, g);
    plan_lt(c, g);
    add_step(c, "GEMM", cuperm_ctr_step_gemm, g, gemmIn[first], gemmIn[second],
             l->out == CTR_OUT_DIRECT ? operand_buffer(CTR_D) : W);
    if (l->out != CTR_OUT_DIRECT) {
        /* D = opD(perm(W) + beta * opC(D)), D holding C. */
        cuperm_ctr_transpose_t t;
        cuperm_ctr_layout_output_transpose(p, l, &t);
        const cuperm_ops_t ops = {CUPERM_OP_IDENTITY, l->ops.op[CTR_C], l->ops.op[CTR_D], 0, p->op[CTR_C].opParam,
                                  p->op[CTR_D].opParam};
        const char* name = l->out == CTR_OUT_TRANSPOSE ? "transpose W into D" : "transpose W into D with opC, opD";
        if ((st = add_transpose(c, 3, name, &t, &ops, 1, W, operand_buffer(CTR_D), CUPERM_STEP_ALWAYS))) return st;
    }
    if (l->inplaceOpD) {
        /* D = opD(D): D's identity transpose onto itself (each element read, then written, by one
         * thread), the operator inside it. */
        cuperm_ctr_transpose_t t = cToD;
        memcpy(t.inStrides, t.outStrides, sizeof t.inStrides);
        const cuperm_ops_t ops = {CUPERM_OP_IDENTITY, CUPERM_OP_IDENTITY, l->ops.op[CTR_D], 0, 0, p->op[CTR_D].opParam};
        if ((st = add_transpose(c, 4, "opD on D in place", &t, &ops, 0, operand_buffer(CTR_D), operand_buffer(CTR_D),
                                CUPERM_STEP_ALWAYS)))
            return st;
    }
    return CUPERM_STATUS_SUCCESS;
}

/* ---- GETT ------------------------------------------------------------------------ */

/* The plan's traffic model prices the kernel's tiles. */
_Static_assert(CTR_GETT_BM == CUPERM_GETT_BM && CTR_GETT_BN == CUPERM_GETT_BN && CTR_GETT_BK == CUPERM_GETT_BK,
               "one GETT block tile");
_Static_assert(CTR_GETT_ORDERED == 3, "cuperm_ctr_gett_step_t.by holds M, N, K");

_Static_assert(CTR_GETT_SIMT_BM == CUPERM_GETT_SIMT_BM && CTR_GETT_SIMT_BN == CUPERM_GETT_SIMT_BN &&
                   CTR_GETT_SIMT_BK == CUPERM_GETT_SIMT_BK,
               "one CUDA-core GETT block tile");

/* The CUDA-core kernel runs on any device; the tensor-core one needs sm_80+ code and device. */
int cuperm_ctr_gett_usable(const cuperm_handle_t* h, const cuperm_ctr_problem_t* p)
{
    if (!cuperm_ctr_gett_eligible(p, NULL, 0)) return 0;
    return cuperm_ctr_gett_cuda_cores(p) || (h->dev.cc_major >= 8 && cuperm_gett_available());
}

cupermStatus_t cuperm_ctr_gett_check(const cuperm_handle_t* h, const cuperm_ctr_problem_t* p)
{
    static const char fn[] = "cupermPlanContraction";
    char why[128];
    if (!cuperm_ctr_gett_eligible(p, why, sizeof why))
        return cuperm_fail_in(fn, CUPERM_STATUS_NOT_SUPPORTED, "CUPERM_ALGO_GETT cannot run this contraction: %s", why);
    if (cuperm_ctr_gett_cuda_cores(p)) return CUPERM_STATUS_SUCCESS;
    if (h->dev.cc_major < 8)
        return cuperm_fail_in(fn, CUPERM_STATUS_NOT_SUPPORTED, "CUPERM_ALGO_GETT needs an sm_80 or newer device (this "
                              "one is sm_%d%d)", h->dev.cc_major, h->dev.cc_minor);
    if (!cuperm_gett_available())
        return cuperm_fail_in(fn, CUPERM_STATUS_NOT_SUPPORTED, "CUPERM_ALGO_GETT: this build's GETT kernel has no "
                              "sm_80+ code for the device");
    return CUPERM_STATUS_SUCCESS;
}

static cupermStatus_t gett_cuda_fail(cudaError_t e, const char* what)
{
    cudaGetLastError();
    return cuperm_fail(CUPERM_STATUS_CUDA_ERROR, "GETT plan: %s failed: %s", what, cudaGetErrorString(e));
}

/* The D-tile kernel's packed path (gett_dtile.h) where its tile is one block of D and the device
 * runs it: the tiles' bases and the outputs' places in a tile go to device memory beside the
 * tables, and the plan's workspace holds the panel images. Returns its workspace bytes; 0 leaves
 * the gathering kernel alone (CUPERM_GETT_DTILE_PACKED=0 too, for tests of that kernel). */
static size_t build_packed(cuperm_contraction_plan_t* c, const cuperm_ctr_gett_tables_t* t, const cuperm_ctr_dtile_t* dt)
{
    cuperm_ctr_gett_step_t* g = &c->gett;
    cuperm_gett_params_t* q = &g->params;
    /* "0": off; "serial": no overlapped launch; "staged": tiles staged in shared memory even where
     * the kernel could write them from its registers (A/B runs) */
    const char* env = getenv("CUPERM_GETT_DTILE_PACKED");
    const int block = cuperm_ctr_dtile_packed_tile(&c->problem, dt), staged = env && strcmp(env, "staged") == 0;
    /* a tile of whole modes that is not one block of D: from the registers or not at all */
    if ((env && strcmp(env, "0") == 0) || c->handle->dev.cc_major < 9 || (!block && (staged || !dt->whole[0] || !dt->whole[1])) ||
        !cuperm_gett_dtile_packed_available())
        return 0;
    const int elemBytes = q->cdType == CUPERM_R_32F ? 4 : 2;
    const int xTile = q->dMFast ? dt->tn : dt->tm, yTile = q->dMFast ? dt->tm : dt->tn;
    int rowsX, rowsY;
    cuperm_ctr_dtile_panel_rows(xTile, yTile, &rowsX, &rowsY);
    const int tilesX = q->dMFast ? q->nTiles : q->mTiles, tilesY = q->dMFast ? q->mTiles : q->nTiles;
    const int64_t items = (int64_t)tilesX * tilesY * q->batch;
    if (items > CTR_DTILE_PACKED_ITEMS_MAX) return 0; /* the gathering kernel instead */
    const int64_t* dM = t->table + t->at[CTR_GROUP_M][CTR_D];
    const int64_t* dN = t->table + t->at[CTR_GROUP_N][CTR_D];
    const int64_t* dL = t->at[CTR_GROUP_L][CTR_D] >= 0 ? t->table + t->at[CTR_GROUP_L][CTR_D] : NULL;
    const size_t bytes = sizeof(int64_t) * (size_t)items + sizeof(int32_t) * (size_t)(rowsX + rowsY);
    int64_t* host = malloc(bytes);
    if (!host) return 0;
    int32_t* stageX = (int32_t*)(host + items);
    int32_t* stageY = stageX + rowsX;
    cuperm_ctr_dtile_stage_t stage;
    int ok = cuperm_ctr_dtile_packed_tables(q->dMFast ? dN : dM, q->dMFast ? dM : dN, dL, xTile, yTile, rowsX, rowsY,
                                            tilesX, tilesY, q->batch, cuperm_ctr_dtile_outer_x(xTile, yTile),
                                            16 / elemBytes, host, stageX, stageY);
    int direct = 0;
    if (ok) {
        direct = cuperm_ctr_dtile_direct_pieces(xTile, yTile, stageX, stageY, 16 / elemBytes) && !staged;
        if (block) cuperm_ctr_dtile_stage_choose(xTile, yTile, stageX, stageY, elemBytes, &stage);
        else stage = (cuperm_ctr_dtile_stage_t){30, 0, 0, 0}; /* never staged: places may pass a staging's range */
        const int stageBytes = direct ? 0 : cuperm_ctr_dtile_stage_bytes(xTile * yTile, stage.shift, stage.pad, elemBytes);
        q->packedSmem = cuperm_ctr_dtile_packed_smem_bytes(xTile, yTile, dt->kp, stageBytes);
        ok = (block || direct) && q->packedSmem <= CTR_DTILE_PACKED_SMEM_MAX;
    }
    char* dev = NULL;
    if (ok) {
        int previous;
        ok = enter_plan_device(c, &previous) == cudaSuccess &&
             cuperm_ctr_tables_upload(c->state, c->handle, host, bytes, (void**)&dev) == cudaSuccess;
        leave_plan_device(c, previous);
        cudaGetLastError();
    }
    free(host);
    if (!ok) return 0;
    g->packedTables = dev;
    q->packed = env && strcmp(env, "serial") == 0 ? 2 : 1;
    q->packedDirect = direct;
    q->packedC = cuperm_ctr_same_strides(&c->problem, CTR_C, CTR_D);
    q->stageShift = stage.shift;
    q->stagePad = stage.pad;
    q->tileBase = (const long long*)dev;
    q->stageX = (const int*)(dev + sizeof(int64_t) * (size_t)items);
    q->stageY = q->stageX + rowsX;
    const size_t imageX = (size_t)rowsX * (size_t)cuperm_ctr_dtile_ld(dt->kp) * 2;
    const size_t imageY = (size_t)rowsY * (size_t)cuperm_ctr_dtile_ld(dt->kp) * 2;
    q->packX = 0;
    q->packY = ((size_t)q->batch * (size_t)tilesX * imageX + 255) / 256 * 256;
    return q->packY + (size_t)q->batch * (size_t)tilesY * imageY;
}

/* One step: the GETT kernel reading A, B (and C) in place and writing D. Its offset tables go
 * to plan-owned device memory on the plan's device now, once. */
/* A persistent kernel's grid: one block a work item, at most blocksPerSm on every SM at once. */
static int persistent_grid(const cuperm_contraction_plan_t* c, long long items, int blocksPerSm)
{
    const long long resident = (long long)(c->handle->dev.sm_count > 0 ? c->handle->dev.sm_count : 1) * blocksPerSm;
    return (int)(items < resident ? items : resident);
}

static cupermStatus_t build_gett_steps(cuperm_contraction_plan_t* c)
{
    const cuperm_ctr_problem_t* p = &c->problem;
    cuperm_ctr_gett_tables_t t;
    cupermStatus_t st = cuperm_ctr_gett_tables_build(p, c->layout.dtile, &t);
    if (st) return st;
    /* 32-bit entries when every offset of every operand fits (the plan's proof: offsets are
     * non-negative and at most the operand's largest offset). */
    const size_t entryBytes = t.off32 ? sizeof(int32_t) : sizeof(int64_t);
    const size_t bytes = entryBytes * (size_t)t.entries;
    void* host = t.table;
    if (t.off32) {
        int32_t* narrow = malloc(bytes ? bytes : 1);
        if (!narrow) {
            cuperm_ctr_gett_tables_free(&t);
            return cuperm_fail(CUPERM_STATUS_ALLOC_FAILED, "GETT plan: out of host memory for offset tables");
        }
        for (int64_t i = 0; i < t.entries; ++i) narrow[i] = (int32_t)t.table[i];
        host = narrow;
    }
    int previous;
    cudaError_t e = enter_plan_device(c, &previous);
    char* dev = NULL;
    if (e != cudaSuccess) {
        st = gett_cuda_fail(e, "selecting the plan's device");
    } else if ((e = cuperm_ctr_tables_upload(c->state, c->handle, host, bytes, (void**)&dev)) != cudaSuccess) {
        cudaGetLastError();
        st = cuperm_fail(e == cudaErrorMemoryAllocation ? CUPERM_STATUS_ALLOC_FAILED : CUPERM_STATUS_CUDA_ERROR,
                         "GETT plan: allocating and uploading %zu bytes of offset tables failed: %s", bytes,
                         cudaGetErrorString(e));
    }
    leave_plan_device(c, previous);
    if (host != t.table) free(host);
    if (st) {
        cuperm_ctr_gett_tables_free(&t);
        return st;
    }
    cuperm_ctr_gett_step_t* g = &c->gett;
    g->tables = dev;
    g->packedTables = NULL;
    g->packedBytes = 0;
    cuperm_gett_params_t* q = &g->params;
    memset(q, 0, sizeof *q);
    for (size_t i = 0; i < sizeof gett_tables / sizeof gett_tables[0]; ++i) {
        const gett_table_t* e = &gett_tables[i];
        *(const void**)((char*)q + e->field) = dev + (size_t)t.at[e->group][e->operand] * entryBytes;
    }
    q->off32 = t.off32;
    q->vecA = t.vec[CTR_A];
    q->vecB = t.vec[CTR_B];
    q->vecC = t.vec[CTR_C];
    q->vecD = t.vec[CTR_D];
    q->dMFast = t.dMFast;
    q->m = (int)t.size[CTR_GROUP_M];
    q->n = (int)t.size[CTR_GROUP_N];
    q->k = (int)t.size[CTR_GROUP_K];
    q->batch = (int)t.size[CTR_GROUP_L];
    g->cudaCores = cuperm_ctr_gett_cuda_cores(p);
    const int bm = g->cudaCores ? CUPERM_GETT_SIMT_BM : CUPERM_GETT_BM, bn = g->cudaCores ? CUPERM_GETT_SIMT_BN : CUPERM_GETT_BN;
    q->mTiles = (q->m + bm - 1) / bm;
    q->nTiles = (q->n + bn - 1) / bn;
    q->aKFast = t.aKFast;
    q->bKFast = t.bKFast;
    q->abType = p->op[CTR_A].type;
    q->cdType = p->op[CTR_D].type; /* before the D-tile's packed path, which reads it */
    if (t.dtileM) { /* the D-tile kernel (its tables follow its orders: gett.c) */
        const cuperm_ctr_dtile_t dt = {t.dtileM, t.dtileN, t.dtileK, {t.dtileWhole[0], t.dtileWhole[1]}, {0}};
        q->dtileM = dt.tm;
        q->dtileN = dt.tn;
        q->dtileK = dt.kp;
        q->smemBytes = cuperm_ctr_dtile_smem_bytes(&dt, t.dMFast);
        q->dtileSlotBytes = t.off32 ? cuperm_ctr_dtile_slot_bytes(&dt, t.dMFast) : 0; /* int offsets */
        q->mTiles = (q->m + dt.tm - 1) / dt.tm;
        q->nTiles = (q->n + dt.tn - 1) / dt.tn;
        q->gridBlocks = persistent_grid(c, (long long)q->mTiles * q->nTiles * q->batch, CTR_DTILE_BLOCKS_PER_SM);
        g->packedBytes = build_packed(c, &t, &dt);
    } else if (!g->cudaCores && cuperm_ctr_gett_skinny(p)) { /* B resident, persistent blocks over M tiles */
        _Static_assert(CTR_GETT_SKINNY_MAX_N == CUPERM_GETT_SKINNY_MAX_N && CTR_GETT_SKINNY_MAX_K == CUPERM_GETT_SKINNY_MAX_K &&
                           CTR_GETT_SKINNY_BLOCKS_PER_SM == CUPERM_GETT_SKINNY_BLOCKS_PER_SM &&
                           CTR_GETT_SKINNY_SPLIT == CUPERM_GETT_SKINNY_SPLIT,
                       "one skinny kernel");
        q->skinny = 1;
        q->nTiles = 1;
        q->mSplitA = t.mSplitF[0];
        q->mSplitB = t.mSplitF[1];
        if (t.mSplit[0] >= 0) { /* the epilogue walks D's runs along the split's beta, as vectors where they allow */
            q->dMFast = 1;
            q->vecC = cuperm_ctr_gett_skinny_run_width(p, CTR_C, t.mSplit[1]);
            q->vecD = cuperm_ctr_gett_skinny_run_width(p, CTR_D, t.mSplit[1]);
        }
        q->gridBlocks = persistent_grid(c, (long long)q->mTiles * q->batch, CUPERM_GETT_SKINNY_BLOCKS_PER_SM);
    }
    memcpy(g->by, t.by, sizeof g->by);
    for (int w = 0; w < CTR_OPERANDS; ++w) { /* negations are in the scalars already */
        q->op[w] = c->layout.ops.op[w];
        q->opParam[w] = p->op[w].opParam;
    }
    cuperm_ctr_gett_tables_free(&t);
    /* The Hopper kernels (sm_90a machine code: compute capability 9.0 only), where the problem
     * maps onto them; the table kernel above stays the fallback for unaligned pointers. */
    const cuperm_device_info_t* info = &c->handle->dev;
    q->wgmma = !g->cudaCores && !q->dtileM && !q->skinny && c->handle->gettWgmma && cuperm_gett_wgmma_built() &&
               info->cc_major == 9 && info->cc_minor == 0;
    if (q->wgmma) q->gridBlocks = persistent_grid(c, (long long)q->mTiles * q->nTiles * q->batch, 1);
    g->useTma = !g->cudaCores && !q->dtileM && !q->skinny && c->handle->gettTma && cuperm_gett_tma_built() && info->cc_major == 9 && info->cc_minor == 0 &&
                cuperm_ctr_tma_map(p, &g->tma, NULL, 0);
    if (g->useTma && c->handle->gettTmaTile >= 0) cuperm_ctr_tma_set_tile(&g->tma, c->handle->gettTmaTile);
    c->stepCount = 0;
    add_step(c, "GETT", cuperm_ctr_step_gett, g, operand_buffer(CTR_A), operand_buffer(CTR_B), operand_buffer(CTR_D));
    return CUPERM_STATUS_SUCCESS;
}

void cuperm_ctr_plan_release(cuperm_contraction_plan_t* c)
{
    if (!c->gett.tables) return;
    int previous;
    enter_plan_device(c, &previous);
    cuperm_ctr_tables_free(c->state, c->gett.tables); /* no runs in flight: the caller's rule */
    if (c->gett.packedTables) cuperm_ctr_tables_free(c->state, c->gett.packedTables);
    leave_plan_device(c, previous);
    cudaGetLastError();
    c->gett.tables = NULL;
    c->gett.packedTables = NULL;
}

cupermStatus_t cuperm_ctr_plan_build(cuperm_contraction_plan_t* c)
{
    c->gett.tables = NULL; /* a copy of another plan never owns its tables */
    c->gett.packedTables = NULL;
    const cupermStatus_t st = c->layout.kind == CTR_KIND_GETT ? build_gett_steps(c) : build_steps(c);
    if (st) return st;
    const cuperm_ctr_problem_t* p = &c->problem;
    c->cdSameLayout = memcmp(p->op[CTR_C].strides, p->op[CTR_D].strides,
                             sizeof(int64_t) * (size_t)p->op[CTR_D].rank) == 0;
    for (int w = 0; w < CTR_OPERANDS; ++w)
        c->spanBytes[w] = (cuperm_ctr_operand_max_offset(&p->op[w]) + 1) * (int64_t)cupermDataTypeSize(p->op[w].type);
    /* GETT needs no cuBLAS, and workspace only for the D-tile packed path's panel images. */
    c->workspaceBytes = c->layout.kind == CTR_KIND_GETT ? c->gett.packedBytes : c->layout.workspaceBytes + CTR_CUBLAS_WORKSPACE;
    return CUPERM_STATUS_SUCCESS;
}

/* The description of a built plan, written by its first reader (cupermContractionPlanGetInfo):
 * formatting it costs about a tenth of a model plan, which most plans never show. */
static void describe(cuperm_contraction_plan_t* c)
{
    const cuperm_ctr_problem_t* p = &c->problem;
    const int n = cuperm_ctr_layout_describe(p, &c->layout, c->description, sizeof c->description);
    const int ltChosen = atomic_load_explicit(&c->gemm.ltState, memory_order_acquire) == 2;
    const cuperm_ctr_gemm_step_t* g = &c->gemm;
    char answer[64] = ""; /* measure mode's pick among cuBLASLt's answers */
    if (c->layout.ltAlgo)
        snprintf(answer, sizeof answer, "its heuristic's answer %d of %d, measured fastest", c->layout.ltAlgo, g->lt.found);
    if (c->layout.kind == CTR_KIND_TTGT && g->bounds.ragged && n > 0 && (size_t)n < sizeof c->description) {
        char measured[80] = "";
        if (c->layout.ltAlgo) snprintf(measured, sizeof measured, " (%s)", answer);
        snprintf(c->description + n, sizeof c->description - (size_t)n,
                 "; ragged operands (columns end inside cuBLAS's vectors): GEMM %s%s, for vectors of at most "
                 "%u/%u/%u bytes (first/second/output)", g->lt.ready ? "on cuBLASLt, an algorithm chosen at planning"
                 : "on cublasGemmEx (cuBLASLt found no algorithm)", g->lt.ready ? measured : "",
                 g->bounds.vectorBytes[0], g->bounds.vectorBytes[1], g->bounds.vectorBytes[2]);
    } else if (c->layout.kind == CTR_KIND_TTGT && c->layout.calls == 1 && n > 0 && (size_t)n < sizeof c->description) {
        const long after = c->handle->ltAfterRuns;
        if (c->layout.ltAlgo && c->gemm.lt.ready)
            snprintf(c->description + n, sizeof c->description - (size_t)n,
                     "; GEMM on cuBLASLt, %s (cublasGemmEx for operands not 16-byte aligned)", answer);
        else if (after == 0 && c->gemm.lt.ready)
            snprintf(c->description + n, sizeof c->description - (size_t)n,
                     "; GEMM on cuBLASLt, its algorithm chosen at planning (cublasGemmEx for operands not "
                     "16-byte aligned)");
        else if (after > 0)
            snprintf(c->description + n, sizeof c->description - (size_t)n,
                     "; GEMM on cublasGemmEx for the first %ld runs, then on cuBLASLt with an algorithm chosen "
                     "for the plan (%s when this was written; cublasGemmEx for operands not 16-byte aligned)",
                     after - 1, !ltChosen ? "not yet chosen" : c->gemm.lt.ready ? "chosen" : "none found");
    }
    if (c->layout.kind == CTR_KIND_GETT && n > 0 && (size_t)n < sizeof c->description) {
        /* The kernel's load and store paths (widths before the execute-time pointer check). */
        const cuperm_gett_params_t* q = &c->gett.params;
        char orders[64];
        cuperm_ctr_gett_orders_describe(c->gett.by, orders, sizeof orders);
        if (c->gett.cudaCores)
            snprintf(c->description + n, sizeof c->description - (size_t)n,
                     "; orders %s; CUDA cores (%s), %d x %d tiles, A loaded along %s, B along %s, D written along %s; "
                     "%d-bit offsets", orders, q->abType == CUPERM_R_64F ? "fp64 DFMA" : "fp32 FFMA",
                     CUPERM_GETT_SIMT_BM, CUPERM_GETT_SIMT_BN, q->aKFast ? "K" : "M", q->bKFast ? "K" : "N",
                     q->dMFast ? "M" : "N", q->off32 ? 32 : 64);
        else if (q->dtileM) {
            char packed[240] = "";
            if (q->packed)
                snprintf(packed, sizeof packed,
                         "; packed where beta = 0%s (A and B panels packed into the workspace, bulk-copied a stage "
                         "ahead, tiles written in 16-byte stores %s)",
                         q->packedDirect && q->packedC ? " or C has D's strides" : "",
                         q->packedDirect ? "from the registers" : q->stagePad ? "from a padded staging" : "from a staging");
            snprintf(c->description + n, sizeof c->description - (size_t)n,
                     "; orders %s; D-tile kernel (mma.sync tensor cores, the whole K in shared memory), tiles of "
                     "%d x %d outputs, K padded to %d; A gathered along %s, B along %s; D written along %s x%d; "
                     "%d-bit offsets%s", orders, q->dtileM, q->dtileN, q->dtileK, q->aKFast ? "K" : "M",
                     q->bKFast ? "K" : "N", q->dMFast ? "M" : "N", q->vecD, q->off32 ? 32 : 64, packed);
        }
        else if (q->skinny) {
            char split[80] = "";
            if (q->mSplitA > 1)
                snprintf(split, sizeof split, "M led by %d of A's and %d of D's unit-stride modes; ", q->mSplitA, q->mSplitB);
            snprintf(c->description + n, sizeof c->description - (size_t)n,
                     "; orders %s; skinny kernel (mma.sync tensor cores, B resident in shared memory, persistent "
                     "blocks of %d x %d outputs streaming A %d deep); A %s x%d; D written along %s; %s%d-bit offsets",
                     orders, CUPERM_GETT_BM, q->n, CUPERM_GETT_BK, q->aKFast ? "k-major" : "m-major", q->vecA,
                     q->dMFast ? "M" : "N", split, q->off32 ? 32 : 64);
        }
        else
            snprintf(c->description + n, sizeof c->description - (size_t)n,
                 "; %s tensor cores, %d x %d x %d blocks; orders %s; tiles A %s x%d, B %s x%d; D runs along "
                 "%s x%d (C x%d); %d-bit offsets",
                 cuperm_gett_wgmma_takes(q) ? "wgmma (Hopper, warp-specialised)" : "mma.sync", CUPERM_GETT_BM, CUPERM_GETT_BN, CUPERM_GETT_BK, orders,
                 q->aKFast ? "k-major" : "m-major", q->vecA, q->bKFast ? "k-major" : "n-major", q->vecB,
                 q->dMFast ? "M" : "N", q->vecD, q->vecC, q->off32 ? 32 : 64);
        size_t used = strlen(c->description);
        const char* sep = "; operators in the kernel: ";
        for (int w = 0; w < CTR_OPERANDS; ++w)
            if (q->op[w] != CUPERM_OP_IDENTITY && used < sizeof c->description) {
                snprintf(c->description + used, sizeof c->description - used, "%s%c %s", sep, "ABCD"[w],
                         cuperm_operator_name(q->op[w]));
                used = strlen(c->description);
                sep = ", ";
            }
        const cuperm_gett_tma_params_t* t = &c->gett.tma;
        if (c->gett.useTma && used < sizeof c->description)
            snprintf(c->description + used, sizeof c->description - used,
                     "; Hopper TMA kernels (16-byte aligned A and B): tile %s, %sA %s-major, B %s-major, M/N/K/L "
                     "of %d/%d/%d/%d modes", cuperm_ctr_tma_tile_name(t->tile),
                     t->swapped ? "as D^T = B^T A^T, " : "", t->aKMajor ? "k" : "m", t->bKMajor ? "k" : "n",
                     t->count[0], t->count[1], t->count[2], t->count[3]);
    }
}

const char* cuperm_ctr_plan_description(cuperm_contraction_plan_t* c)
{
    /* 0: not written, 1: being written (other readers wait), 2: written */
    int state = atomic_load_explicit(&c->described, memory_order_acquire);
    if (state == 2) return c->description;
    int expected = 0;
    if (atomic_compare_exchange_strong_explicit(&c->described, &expected, 1, memory_order_acquire,
                                                memory_order_acquire)) {
        describe(c);
        atomic_store_explicit(&c->described, 2, memory_order_release);
        return c->description;
    }
    while (atomic_load_explicit(&c->described, memory_order_acquire) != 2) thrd_yield();
    return c->description;
}
