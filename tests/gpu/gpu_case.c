#include "gpu/gpu_case.h"

#include <cuda_runtime_api.h>
#include <stdlib.h>
#include <string.h>

#include "support/poison.h"
#include "support/reference.h"

static int fail_case(const test_case_t* c, const run_opts_t* o, const char* what)
{
    fprintf(stderr, "FAILED (%s, scalars %d, misalign %d): %s\n  case: ", dtype_enum_name(o->type), o->scalars,
            o->misalign, what);
    case_print(stderr, c);
    return 1;
}

int gpu_run_case(cupermHandle_t h, const test_case_t* c, const run_opts_t* o, rng_t* r)
{
    const size_t es = cupermDataTypeSize(o->type);
    const int64_t in_n = case_in_span(c) + o->misalign, out_n = case_out_span(c) + o->misalign;
    unsigned char *h_in = malloc(in_n * es), *h_out = malloc(out_n * es), *h_want = malloc(out_n * es);
    if (!h_in || !h_out || !h_want) {
        free(h_in);
        free(h_out);
        free(h_want);
        return fail_case(c, o, "out of host memory");
    }
    /* Tolerance scales for arithmetic; plain moves are compared bit for bit. */
    double* mag = o->scalars == SCALARS_PLAIN ? NULL : calloc((size_t)out_n, sizeof *mag);
    unsigned char alpha[16] = {0}, beta[16] = {0};
    int rc = 1;
    void *d_in = NULL, *d_out = NULL;
    char msg[256];

    rng_fill(r, o->type, in_n, h_in);
    if (o->scalars == SCALARS_ALPHA_BETA) rng_fill(r, o->type, out_n, h_out);
    else memset(h_out, POISON_BYTE, out_n * es); /* NaN for every float type */
    if (o->scalars == SCALARS_PLAIN) {
        double one[2] = {1, 0};
        if (dtype_is_float(o->type) && o->type != CUPERM_R_16F && o->type != CUPERM_R_16BF) ref_store(o->type, alpha, one);
        else if (dtype_is_float(o->type)) *(float*)alpha = 1.0f;
        else alpha[0] = 1;
    } else {
        rng_scalar(r, o->type, alpha);
        if (o->scalars == SCALARS_ALPHA_BETA) rng_scalar(r, o->type, beta);
    }
    memcpy(h_want, h_out, out_n * es);

    if (cudaMalloc(&d_in, in_n * es) != cudaSuccess || cudaMalloc(&d_out, out_n * es) != cudaSuccess) {
        rc = fail_case(c, o, "cudaMalloc failed");
        goto done;
    }
    cudaMemcpy(d_in, h_in, in_n * es, cudaMemcpyHostToDevice);
    cudaMemcpy(d_out, h_out, out_n * es, cudaMemcpyHostToDevice);

    cupermPlan_t plan;
    const int64_t* is = c->has_in_strides ? c->in_strides : NULL;
    const int64_t* os = c->has_out_strides ? c->out_strides : NULL;
    if (cupermPlanTranspose(h, &plan, c->rank, c->extents, c->perm, o->type, is, os)) {
        rc = fail_case(c, o, cupermGetLastErrorMessage());
        goto done;
    }
    const size_t off = (size_t)o->misalign * es;
    cupermStatus_t st = cupermExecute(plan, alpha, (char*)d_in + off, beta, (char*)d_out + off, o->stream);
    cupermPlanDestroy(plan);
    if (st) {
        rc = fail_case(c, o, cupermGetLastErrorMessage());
        goto done;
    }
    cudaError_t err = cudaStreamSynchronize(o->stream);
    if (err != cudaSuccess) {
        rc = fail_case(c, o, cudaGetErrorString(err));
        goto done;
    }
    cudaMemcpy(h_out, d_out, out_n * es, cudaMemcpyDeviceToHost);
    ref_transpose(o->type, c->rank, c->extents, c->perm, is, os, alpha, h_in + off, beta, h_want + off,
                  mag ? mag + o->misalign : NULL);
    if (ref_check(o->type, out_n, h_out, h_want, mag, msg, sizeof msg)) rc = fail_case(c, o, msg);
    else rc = 0;
done:
    cudaFree(d_in);
    cudaFree(d_out);
    free(h_in);
    free(h_out);
    free(h_want);
    free(mag);
    return rc;
}
