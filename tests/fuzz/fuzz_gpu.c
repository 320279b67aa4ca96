/* cuperm-fuzz: the GPU runner. Public API only: plan, run, copy back, check every
 * element and every byte of every allocation. */
#include <cuda_runtime_api.h>
#include <stdlib.h>
#include <string.h>

#include "support/reference.h"
#include "fuzz/fuzz.h"
#include "support/poison.h"

static cupermHandle_t handle;
static cudaStream_t stream;

int fuzz_gpu_init(void)
{
    int n = 0;
    const cudaError_t err = cudaGetDeviceCount(&n);
    if (err != cudaSuccess || n == 0) {
        printf("SKIPPED: cuperm-fuzz needs a CUDA GPU (%s)\n", err != cudaSuccess ? cudaGetErrorString(err) : "no devices");
        fflush(stdout);
        return 77;
    }
    if (cupermCreate(&handle) != CUPERM_STATUS_SUCCESS) {
        printf("cupermCreate failed: %s\n", cupermGetLastErrorMessage());
        return 1;
    }
    if (cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking) != cudaSuccess) {
        printf("cudaStreamCreate failed\n");
        return 1;
    }
    return 0;
}

void fuzz_gpu_fini(void)
{
    if (stream) cudaStreamDestroy(stream);
    if (handle) cupermDestroy(handle);
    stream = NULL;
    handle = NULL;
}

/* The scalar of a D type (float, double, complex float, complex double). */
static void make_scalar(cupermDataType_t cd, ctr_cplx v, unsigned char out[16])
{
    const double re = creal(v), im = cimag(v);
    memset(out, 0, 16);
    if (cd == CUPERM_R_64F) memcpy(out, &re, 8);
    else if (cd == CUPERM_C_64F) { memcpy(out, &re, 8); memcpy(out + 8, &im, 8); }
    else if (cd == CUPERM_C_32F) { const float f[2] = {(float)re, (float)im}; memcpy(out, f, 8); }
    else { const float f = (float)re; memcpy(out, &f, 4); }
}

static void ctr_report(const fuzz_ctr_case* k, fuzz_stats* s, const char* what, const char* detail,
                       const cupermContractionInfo_t* info)
{
    s->failed++;
    if (s->failed > s->maxReports && !s->fatal) return;
    fuzz_print_repro(stdout, k->name ? "regression" : "contraction", k->seed, k->index, 0);
    printf("  FAILED: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
    fuzz_ctr_describe(stdout, k);
    if (info)
        printf("    plan: %s\n    m %lld n %lld k %lld batch %lld calls %lld swapped %d ops %c%c transposed A/B/D "
               "%d/%d/%d operator kernels %d workspace %zu measured %d\n",
               info->description ? info->description : "?", (long long)info->m, (long long)info->n,
               (long long)info->k, (long long)info->batch, (long long)info->calls, info->swapped, info->opFirst,
               info->opSecond, info->transposedA, info->transposedB, info->transposedD, info->elementwiseKernels,
               info->workspaceBytes, info->measured);
    fflush(stdout);
}

/* A CUDA error after a run: sticky errors poison every later case, so stop. */
static int cuda_failed(cudaError_t e, const char* where, char* buf, size_t n)
{
    if (e == cudaSuccess) return 0;
    snprintf(buf, n, "%s: %s (%s)", where, cudaGetErrorName(e), cudaGetErrorString(e));
    return 1;
}

void fuzz_gpu_contraction(const fuzz_ctr_case* k, fuzz_stats* s)
{
    fuzz_ctr_data d;
    fuzz_ctr_prepare(k, &d);
    const cupermTensorDescriptor_t* desc = k->c.desc;
    cupermContractionPlan_t plan = NULL;
    cupermContractionInfo_t info;
    memset(&info, 0, sizeof info);
    unsigned char* dev[4] = {NULL, NULL, NULL, NULL};
    unsigned char* back = NULL;
    ctr_cplx* got = NULL;
    void* ws = NULL;
    char msg[1024];
    const cudaStream_t st = k->useStream ? stream : 0;

    cupermStatus_t rc = cupermPlanContraction(handle, &plan, &desc[0], &desc[1], &desc[2], &desc[3], k->compute,
                                              k->planMode);
    if (rc != CUPERM_STATUS_SUCCESS) {
        snprintf(msg, sizeof msg, "%s: %s", cupermGetErrorString(rc), cupermGetLastErrorMessage());
        s->fatal = 1;
        ctr_report(k, s, "cupermPlanContraction on a valid problem", msg, NULL);
        goto done;
    }
    if (cupermContractionPlanGetInfo(plan, &info) != CUPERM_STATUS_SUCCESS) {
        s->fatal = 1;
        ctr_report(k, s, "cupermContractionPlanGetInfo", cupermGetLastErrorMessage(), NULL);
        goto done;
    }
    s->pointerBatched += info.calls > 1;
    s->transposedA += info.transposedA;
    s->transposedB += info.transposedB;
    s->transposedD += info.transposedD;
    s->measured += info.measured;
    s->gett += info.description && strncmp(info.description, "GETT", 4) == 0;
    s->gettTma += info.description && strncmp(info.description, "GETT", 4) == 0 &&
                  strstr(info.description, "Hopper TMA kernels") != NULL;
    s->padded += info.description && strstr(info.description, "padded from") != NULL;
    s->streams += k->useStream;
    if (cuda_failed(cudaGetLastError(), "after planning", msg, sizeof msg)) {
        s->fatal = 1;
        ctr_report(k, s, "CUDA error", msg, &info);
        goto done;
    }
    for (int t = 0; t < 4; ++t) {
        if (!d.buf[t].host) continue;
        if (cuda_failed(cudaMalloc((void**)&dev[t], d.buf[t].bytes), "cudaMalloc", msg, sizeof msg) ||
            cuda_failed(cudaMemcpy(dev[t], d.buf[t].host, d.buf[t].bytes, cudaMemcpyHostToDevice), "cudaMemcpy", msg,
                        sizeof msg)) {
            s->fatal = 1;
            ctr_report(k, s, "CUDA error", msg, &info);
            goto done;
        }
    }
    /* Pageable uploads may still be in flight on the legacy stream; the run uses a non-blocking one. */
    if (cuda_failed(cudaDeviceSynchronize(), "cudaDeviceSynchronize after the uploads", msg, sizeof msg)) {
        s->fatal = 1;
        ctr_report(k, s, "CUDA error", msg, &info);
        goto done;
    }
    size_t wsNeed = 0, wsBytes = 0;
    if (cupermContractionGetWorkspaceSize(plan, &wsNeed) != CUPERM_STATUS_SUCCESS) {
        s->fatal = 1;
        ctr_report(k, s, "cupermContractionGetWorkspaceSize", cupermGetLastErrorMessage(), &info);
        goto done;
    }
    if (k->ws != FUZZ_WS_NULL) {
        wsBytes = wsNeed + (k->ws == FUZZ_WS_LARGER ? 256 * (size_t)k->wsExtra : 0);
        /* NaN in every 16- and 32-bit float: what a plan does not write into its workspace must not matter */
        if (wsBytes && (cuda_failed(cudaMalloc(&ws, wsBytes), "cudaMalloc workspace", msg, sizeof msg) ||
                        cuda_failed(cudaMemset(ws, 0xff, wsBytes), "cudaMemset workspace", msg, sizeof msg))) {
            s->fatal = 1;
            ctr_report(k, s, "CUDA error", msg, &info);
            goto done;
        }
    }
    unsigned char alpha[16], beta[16];
    make_scalar(desc[3].type, k->alpha, alpha);
    make_scalar(desc[3].type, k->beta, beta);
    void* ptr[4];
    for (int t = 0; t < 4; ++t)
        ptr[t] = dev[t] ? dev[t] + FUZZ_GUARD + (size_t)k->base[t] * cupermDataTypeSize(desc[t].type) : NULL;
    if (k->aliasCD) ptr[2] = ptr[3];
    rc = cupermContract(plan, alpha, ptr[0], ptr[1], beta, ptr[2], ptr[3], ws, wsBytes, st);
    if (rc != CUPERM_STATUS_SUCCESS) {
        snprintf(msg, sizeof msg, "%s: %s", cupermGetErrorString(rc), cupermGetLastErrorMessage());
        s->fatal = 1;
        ctr_report(k, s, "cupermContract on a valid problem", msg, &info);
        goto done;
    }
    if (cuda_failed(cudaGetLastError(), "cudaGetLastError after cupermContract", msg, sizeof msg) ||
        cuda_failed(cudaStreamSynchronize(st), "cudaStreamSynchronize after cupermContract", msg, sizeof msg)) {
        s->fatal = 1;
        ctr_report(k, s, "CUDA error", msg, &info);
        goto done;
    }
    /* Footprint: A, B (and C when C != D) untouched; D changed only at its elements. */
    static const char names[4] = {'A', 'B', 'C', 'D'};
    for (int t = 0; t < 4; ++t) {
        if (!dev[t]) continue;
        free(back);
        back = malloc(d.buf[t].bytes);
        if (cuda_failed(cudaMemcpy(back, dev[t], d.buf[t].bytes, cudaMemcpyDeviceToHost), "cudaMemcpy back", msg,
                        sizeof msg)) {
            s->fatal = 1;
            ctr_report(k, s, "CUDA error", msg, &info);
            goto done;
        }
        const size_t origin = FUZZ_GUARD + (size_t)k->base[t] * d.buf[t].es;
        int64_t where;
        if (poison_changed_outside(d.buf[t].host, back, d.buf[t].bytes, origin, d.buf[t].es, t == 3 ? d.mask : NULL,
                           t == 3 ? d.spanD : 0, &where)) {
            const int64_t es = (int64_t)d.buf[t].es;
            snprintf(msg, sizeof msg,
                     "%c's allocation changed at byte %lld relative to %c's base (element %lld%s, byte %lld of it)",
                     names[t], (long long)where, names[t], (long long)(where >= 0 ? where / es : -((-where + es - 1) / es)),
                     t == 3 ? (where < 0 || where / es >= d.spanD ? ", outside D's span" : ", a hole inside D's span") : "",
                     (long long)(((where % es) + es) % es));
            ctr_report(k, s, "write outside D's elements", msg, &info);
            goto done;
        }
        if (t == 3) {
            got = calloc((size_t)d.spanD, sizeof(ctr_cplx));
            fuzz_load_d(k, &d, back, got);
        }
    }
    const fuzz_precision p = fuzz_precision_of(k);
    const int64_t bad = fuzz_check_values(k, &d, &p, got, msg, sizeof msg);
    if (bad) {
        char what[64];
        snprintf(what, sizeof what, "%lld wrong elements of D; first", (long long)bad);
        ctr_report(k, s, what, msg, &info);
        goto done;
    }
    s->passed++;
done:
    if (plan) cupermContractionPlanDestroy(plan);
    for (int t = 0; t < 4; ++t) cudaFree(dev[t]);
    cudaFree(ws);
    free(back);
    free(got);
    fuzz_ctr_release(&d);
}

/* ---- transposes --------------------------------------------------------------------------- */

static void tr_report(const fuzz_tr_case* t, fuzz_stats* s, const char* what, const char* detail)
{
    s->failed++;
    if (s->failed > s->maxReports && !s->fatal) return;
    fuzz_print_repro(stdout, "transpose", t->seed, t->index, 0);
    printf("  FAILED: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
    fuzz_tr_describe(stdout, t);
    fflush(stdout);
}

static unsigned char tr_pattern(size_t i) { return (unsigned char)(0xa7 ^ (i * 0x3b + (i >> 8))); }

void fuzz_gpu_transpose(const fuzz_tr_case* t, fuzz_stats* s)
{
    const test_case_t* c = &t->c;
    const size_t es = cupermDataTypeSize(t->type);
    const int64_t spanIn = case_in_span(c), spanOut = case_out_span(c);
    const int64_t nIn = t->baseIn + spanIn, nOut = t->baseOut + spanOut;
    const size_t bytesIn = (2 * FUZZ_GUARD + (size_t)nIn * es + 255) / 256 * 256;
    const size_t bytesOut = (2 * FUZZ_GUARD + (size_t)nOut * es + 255) / 256 * 256;
    unsigned char *hIn = malloc(bytesIn), *hOut = malloc(bytesOut), *want = malloc(bytesOut);
    unsigned char *backIn = malloc(bytesIn), *backOut = malloc(bytesOut);
    unsigned char* mask = NULL;
    double* mag = NULL;
    unsigned char *dIn = NULL, *dOut = NULL;
    cupermPlan_t plan = NULL;
    char msg[512];
    rng_t r = {t->dataSeed};
    const cudaStream_t st = t->useStream ? stream : 0;
    const int64_t* is = c->has_in_strides ? c->in_strides : NULL;
    const int64_t* os = c->has_out_strides ? c->out_strides : NULL;
    int64_t outExt[CUPERM_MAX_RANK];
    for (int k = 0; k < c->rank; ++k) outExt[k] = c->extents[c->perm[k]];
    mask = poison_element_mask(c->rank, outExt, os, spanOut);

    for (size_t i = 0; i < bytesIn; ++i) hIn[i] = tr_pattern(i);
    for (size_t i = 0; i < bytesOut; ++i) hOut[i] = tr_pattern(i + 1);
    rng_fill(&r, t->type, nIn, hIn + FUZZ_GUARD);
    unsigned char* outBase = hOut + FUZZ_GUARD + (size_t)t->baseOut * es;
    for (int64_t o = 0; o < spanOut; ++o) {
        if (!mask[o]) continue;
        if (t->scalars == FUZZ_TR_ALPHA_BETA) rng_fill(&r, t->type, 1, outBase + o * es);
        else memset(outBase + o * es, POISON_BYTE, es); /* beta = 0: NaN must not leak */
    }
    memcpy(want, hOut, bytesOut);
    if (t->scalars != FUZZ_TR_PLAIN) mag = calloc((size_t)nOut, sizeof(double));
    ref_transpose(t->type, c->rank, c->extents, c->perm, is, os, t->alpha, hIn + FUZZ_GUARD + (size_t)t->baseIn * es,
                  t->beta, want + FUZZ_GUARD + (size_t)t->baseOut * es, mag ? mag + t->baseOut : NULL);

    if (cuda_failed(cudaMalloc((void**)&dIn, bytesIn), "cudaMalloc", msg, sizeof msg) ||
        cuda_failed(cudaMalloc((void**)&dOut, bytesOut), "cudaMalloc", msg, sizeof msg)) {
        s->fatal = 1;
        tr_report(t, s, "CUDA error", msg);
        goto done;
    }
    void* pIn = dIn + FUZZ_GUARD + (size_t)t->baseIn * es;
    void* pOut = dOut + FUZZ_GUARD + (size_t)t->baseOut * es;
    cupermStatus_t rc;
    if (t->measure) {
        /* Measuring overwrites the buffers: upload afterwards. */
        cudaMemset(dIn, 0, bytesIn);
        cudaMemset(dOut, 0, bytesOut);
        rc = cupermPlanTransposeMeasure(handle, &plan, c->rank, c->extents, c->perm, t->type, is, os, pIn, pOut, st);
        s->measured++;
    } else {
        rc = cupermPlanTranspose(handle, &plan, c->rank, c->extents, c->perm, t->type, is, os);
    }
    if (rc != CUPERM_STATUS_SUCCESS) {
        snprintf(msg, sizeof msg, "%s: %s", cupermGetErrorString(rc), cupermGetLastErrorMessage());
        s->fatal = 1;
        tr_report(t, s, t->measure ? "cupermPlanTransposeMeasure on a valid problem" : "cupermPlanTranspose on a valid problem", msg);
        goto done;
    }
    if (cuda_failed(cudaStreamSynchronize(st), "after planning", msg, sizeof msg) ||
        cuda_failed(cudaMemcpy(dIn, hIn, bytesIn, cudaMemcpyHostToDevice), "cudaMemcpy", msg, sizeof msg) ||
        cuda_failed(cudaMemcpy(dOut, hOut, bytesOut, cudaMemcpyHostToDevice), "cudaMemcpy", msg, sizeof msg) ||
        cuda_failed(cudaDeviceSynchronize(), "cudaDeviceSynchronize after the uploads", msg, sizeof msg)) {
        s->fatal = 1;
        tr_report(t, s, "CUDA error", msg);
        goto done;
    }
    s->streams += t->useStream;
    rc = cupermExecute(plan, t->alpha, pIn, t->beta, pOut, st);
    if (rc != CUPERM_STATUS_SUCCESS) {
        snprintf(msg, sizeof msg, "%s: %s", cupermGetErrorString(rc), cupermGetLastErrorMessage());
        s->fatal = 1;
        tr_report(t, s, "cupermExecute on a valid problem", msg);
        goto done;
    }
    if (cuda_failed(cudaGetLastError(), "cudaGetLastError after cupermExecute", msg, sizeof msg) ||
        cuda_failed(cudaStreamSynchronize(st), "cudaStreamSynchronize after cupermExecute", msg, sizeof msg) ||
        cuda_failed(cudaMemcpy(backIn, dIn, bytesIn, cudaMemcpyDeviceToHost), "cudaMemcpy back", msg, sizeof msg) ||
        cuda_failed(cudaMemcpy(backOut, dOut, bytesOut, cudaMemcpyDeviceToHost), "cudaMemcpy back", msg, sizeof msg)) {
        s->fatal = 1;
        tr_report(t, s, "CUDA error", msg);
        goto done;
    }
    int64_t where;
    if (poison_changed_outside(hIn, backIn, bytesIn, FUZZ_GUARD + (size_t)t->baseIn * es, es, NULL, 0, &where)) {
        snprintf(msg, sizeof msg, "the input's allocation changed at byte %lld relative to its base", (long long)where);
        tr_report(t, s, "write to the input", msg);
        goto done;
    }
    if (poison_changed_outside(hOut, backOut, bytesOut, FUZZ_GUARD + (size_t)t->baseOut * es, es, mask, spanOut, &where)) {
        snprintf(msg, sizeof msg, "the output's allocation changed at byte %lld relative to its base (%s)",
                 (long long)where, where < 0 || where / (int64_t)es >= spanOut ? "outside its span" : "a hole in its span");
        tr_report(t, s, "write outside the output's elements", msg);
        goto done;
    }
    char check[256];
    const int64_t bad = ref_check(t->type, nOut, backOut + FUZZ_GUARD, want + FUZZ_GUARD, mag, check, sizeof check);
    if (bad) {
        snprintf(msg, sizeof msg, "%lld wrong elements; first (element numbers count from the buffer start, "
                 "%lld before the base): %s", (long long)bad, (long long)t->baseOut, check);
        tr_report(t, s, "wrong values", msg);
        goto done;
    }
    s->passed++;
done:
    if (plan) cupermPlanDestroy(plan);
    cudaFree(dIn);
    cudaFree(dOut);
    free(hIn);
    free(hOut);
    free(want);
    free(backIn);
    free(backOut);
    free(mask);
    free(mag);
}
