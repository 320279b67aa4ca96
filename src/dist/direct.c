/* Bound outputs (cupermDistPlanBindOutput; plan.h): every rank's output registered as one
 * symmetric NCCL window, so that each rank's transposes store straight into the receivers'
 * output blocks: no send or receive buffer, no unpack (run.c runs them). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "dist/plan.h"

#define FN "cupermDistPlanBindOutput"
#define INVALID CUPERM_STATUS_INVALID_VALUE

cupermStatus_t cuperm_dist_build_direct(cuperm_handle_t* h, cuperm_dist_plan_t* p, const int64_t* out_strides)
{
    const int n = p->lin.rank, P = p->comm_size, me = p->comm_rank;
    const size_t elem = (size_t)p->elem_size;
    free(p->direct.pieces);
    p->direct.pieces = NULL;
    p->direct.n = 0;
    cuperm_dist_piece_t* x = calloc((size_t)P, sizeof *x);
    if (!x) return cuperm_fail(CUPERM_STATUS_ALLOC_FAILED, FN ": out of host memory (%d peers)", P);
    cuperm_dist_box_t own_in, own_out, box;
    int64_t in_str[CUPERM_MAX_RANK], ext[CUPERM_MAX_RANK];
    cuperm_dist_owned(&p->lin, me, &own_in);
    cuperm_dist_local_strides(&p->lin, me, in_str);
    cupermStatus_t st = CUPERM_STATUS_SUCCESS;
    int count = 0;
    /* r+1, r+2, ... (mod P): no receiver takes every sender's first stores at once (plan.c) */
    for (int i = 1; i < P && !st; ++i) {
        const int q = (me + i) % P;
        const int64_t vol = cuperm_dist_exchange_box(&p->lin, me, &p->lout, q, p->perm, &box);
        if (!vol) continue;
        cuperm_dist_owned(&p->lout, q, &own_out);
        const int64_t* qs = out_strides + (size_t)q * CUPERM_MAX_RANK;
        for (int m = 0; m < n; ++m) ext[m] = box.hi[m] - box.lo[m];
        cuperm_dist_piece_t* s = &x[count++];
        s->peer = q;
        s->bytes = (size_t)vol * elem;
        s->local_offset = cuperm_dist_corner_offset(box.lo, own_in.lo, in_str, NULL, n);
        s->peer_offset = (size_t)cuperm_dist_corner_offset(box.lo, own_out.lo, qs, p->perm, n) * elem;
        st = cuperm_dist_piece_init(h, s, n, ext, p->perm, p->type, in_str, qs);
        cuperm_dist_cap_grid(&s->tp, p->store_cap);
    }
    if (st) {
        free(x);
        return st;
    }
    p->direct.pieces = x;
    p->direct.n = count;
    return CUPERM_STATUS_SUCCESS;
}

/* The element distance between consecutive receivers' outputs when peer[] is an arithmetic
 * progression of a positive multiple of elem bytes (NCCL maps a window's parts one stride apart in
 * each GPU's address space); else 0. */
static int64_t peer_stride(char* const* peer, int P, size_t elem)
{
    if (P < 2 || (uintptr_t)peer[1] <= (uintptr_t)peer[0]) return 0;
    const uintptr_t d = (uintptr_t)peer[1] - (uintptr_t)peer[0]; /* addresses of separate mappings: as integers */
    if (d % elem || d > (uintptr_t)INT64_MAX / (uintptr_t)P) return 0;
    for (int q = 2; q < P; ++q)
        if ((uintptr_t)peer[q] - (uintptr_t)peer[0] != (uintptr_t)q * d) return 0;
    return (int64_t)(d / elem);
}

cupermStatus_t cuperm_dist_build_whole(cuperm_handle_t* h, cuperm_dist_plan_t* p, const int64_t* out_strides,
                                       char* const* peer)
{
    cuperm_dist_piece_t* s = &p->direct.whole;
    memset(s, 0, sizeof *s);
    p->direct.has_whole = !p->in_volume; /* nothing to send: whole, trivially (no launch) */
    cuperm_dist_whole_t w;
    const int64_t stride = peer_stride(peer, p->comm_size, (size_t)p->elem_size);
    if (!cuperm_dist_whole_view(&p->lin, &p->lout, p->perm, p->comm_rank, out_strides, stride, &w) ||
        w.rank > CUPERM_MAX_RANK)
        return CUPERM_STATUS_SUCCESS; /* the pieces it is */
    int identity[CUPERM_MAX_RANK];
    for (int d = 0; d < w.rank; ++d) identity[d] = d;
    s->peer = w.first;
    s->peer_offset = (size_t)w.offset * (size_t)p->elem_size;
    s->bytes = (size_t)p->in_volume * (size_t)p->elem_size;
    const cupermStatus_t st =
        cuperm_dist_piece_init(h, s, w.rank, w.extents, identity, p->type, w.in_strides, w.out_strides);
    p->direct.has_whole = !st;
    return st == CUPERM_STATUS_ALLOC_FAILED ? st : CUPERM_STATUS_SUCCESS; /* else the pieces */
}

void cuperm_dist_direct_free(cuperm_dist_plan_t* p)
{
    cuperm_dist_replays_clear(p); /* graphs may hold the binding's pieces */
    cuperm_dist_window_destroy(p->comm, &p->direct.window);
    cuperm_dist_moves_free(&p->direct.moves);
    free(p->direct.pieces);
    memset(&p->direct, 0, sizeof p->direct);
}

/* This rank's rules for binding out (bytes). */
static cupermStatus_t check_local(const cuperm_dist_plan_t* p, const void* out, size_t bytes)
{
    if (!out) {
        if (bytes) return cuperm_fail(INVALID, FN ": out is NULL but bytes = %zu (NULL with 0 unbinds)", bytes);
        return CUPERM_STATUS_SUCCESS;
    }
    const size_t need = (size_t)p->out_span * (size_t)p->elem_size;
    if (bytes < need || !bytes)
        return cuperm_fail(INVALID, FN ": bytes = %zu is less than this rank's output block spans (%zu bytes, at "
                           "least 1)", bytes, need);
    if ((uintptr_t)out % (uintptr_t)p->elem_size)
        return cuperm_fail(INVALID, FN ": out = %p is not aligned to the element size (%d bytes)", out, p->elem_size);
    struct cudaPointerAttributes at;
    const cudaError_t e = cudaPointerGetAttributes(&at, out);
    if (e != cudaSuccess) cudaGetLastError();
    if (e != cudaSuccess || at.type != cudaMemoryTypeDevice || at.device != p->device)
        return cuperm_fail(INVALID, FN ": out = %p is not device memory of the plan's device %d", out, p->device);
    return CUPERM_STATUS_SUCCESS;
}

/* Every rank's output strides, agreed: row r (CUPERM_MAX_RANK entries) holds rank r's. */
static cupermStatus_t gather_strides(cuperm_dist_plan_t* p, cudaStream_t stream, int64_t* all)
{
    const int n = CUPERM_MAX_RANK * p->comm_size;
    for (int i = 0; i < n; ++i) all[i] = INT64_MIN;
    int64_t* mine = all + (size_t)p->comm_rank * CUPERM_MAX_RANK;
    cuperm_dist_local_strides(&p->lout, p->comm_rank, mine);
    for (int m = p->lout.rank; m < CUPERM_MAX_RANK; ++m) mine[m] = 0;
    return cuperm_dist_agree(p->comm, stream, all, n); /* the maximum of each entry: its owner's */
}

static cupermStatus_t bind_output(cuperm_dist_plan_t* p, void* out, size_t bytes, cudaStream_t stream)
{
    int64_t v[6] = {0, 0, (int64_t)bytes, -(int64_t)bytes, out != NULL, -(int64_t)(out != NULL)};
    cupermStatus_t st =
        cuperm_dist_agree_status(FN, p->comm, stream, p->comm_rank, check_local(p, out, bytes), v, 6);
    if (st) return st;
    if (v[4] != -v[5])
        return cuperm_fail(INVALID, FN ": some ranks bind an output and others unbind (out NULL); every rank must do "
                           "the same");
    if (v[2] != -v[3])
        return cuperm_fail(INVALID, FN ": bytes differs between ranks (%lld here); NCCL's symmetric windows want one "
                           "size on every rank", (long long)bytes);
    cuperm_dist_direct_free(p); /* every rank alike: the agreement above passed */
    if (!out) return CUPERM_STATUS_SUCCESS;
    int64_t* strides = malloc(sizeof(int64_t) * CUPERM_MAX_RANK * (size_t)p->comm_size);
    int64_t w[2] = {0, 0};
    st = !strides ? cuperm_fail(CUPERM_STATUS_ALLOC_FAILED, FN ": out of host memory")
       : !cuperm_dist_window_possible(p->comm, p->comm_size)
           ? cuperm_fail(CUPERM_STATUS_NOT_SUPPORTED, FN ": NCCL's windows are unavailable here (NCCL >= 2.28 with "
                         "its device API, every rank in this rank's load/store domain)")
           : CUPERM_STATUS_SUCCESS; /* agreed, with the window's own failures below */
    st = cuperm_dist_agree_status(FN, p->comm, stream, p->comm_rank, st, w, 2);
    if (!st)
        st = cuperm_dist_window_register(p->comm, p->comm_size, out, bytes, p->handle->dev.sm_count, stream,
                                         &p->direct.window);
    if (!st) st = gather_strides(p, stream, strides);
    if (!st) {
        const int one = p->transport == CUPERM_DIST_TRANSPORT_PEER_STORES_ONE_KERNEL;
        const char* env = getenv("CUPERM_DIST_WHOLE"); /* "0": per-receiver pieces always (A/B runs) */
        cupermStatus_t mine = cuperm_dist_build_direct(p->handle, p, strides);
        if (!mine && one) /* its stores in one kernel too, barriers included: no whole-block launch */
            mine = cuperm_dist_moves_upload(p, 1);
        else if (!mine && !(env && !strcmp(env, "0")))
            mine = cuperm_dist_build_whole(p->handle, p, strides, p->direct.window.peer);
        int64_t u[2] = {0, 0};
        st = cuperm_dist_agree_status(FN, p->comm, stream, p->comm_rank, mine, u, 2);
    }
    free(strides);
    if (st) {
        cuperm_dist_direct_free(p);
        return st;
    }
    p->direct.out = out;
    /* A plan that permutes on the receiving side over peer stores does so because its model (or its
     * measurement) found the permuting stores over the link slower than a copy over it and a local
     * permutation: the direct pieces would be those permuting stores, so it keeps its transport (on
     * 2 x H200 the reverse case: 1.30-1.40x the exchange that way, 1.40-1.48x direct, session31/;
     * the whole-block transpose, which reads the input once, measured 1.35-1.43x: session39/). */
    const char* force = getenv("CUPERM_DIST_DIRECT"); /* "1": the direct stores always (A/B runs) */
    p->direct.used = (force && !strcmp(force, "1")) || !(p->transport == CUPERM_DIST_TRANSPORT_PEER_STORES &&
                                                         p->variant == CUPERM_DIST_VARIANT_PERMUTE_ON_UNPACK);
    return CUPERM_STATUS_SUCCESS;
}

cupermStatus_t cuperm_dist_bind_output(cuperm_dist_plan_t* p, void* out, size_t bytes, cudaStream_t stream)
{
    int cur = 0;
    cudaError_t e = cudaGetDevice(&cur);
    if (e) return cuperm_dist_cuda_fail(e, FN ": cudaGetDevice");
    /* The agreements run on the plan's device whatever else is wrong. */
    if (cur != p->device && (e = cudaSetDevice(p->device))) return cuperm_dist_cuda_fail(e, FN ": cudaSetDevice");
    const cupermStatus_t st = bind_output(p, out, bytes, stream);
    if (cur != p->device) cudaSetDevice(cur);
    return st;
}
