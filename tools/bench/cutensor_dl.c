/* cuTENSOR 2 through dlopen (see cutensor_dl.h). The entry points are declared here with their
 * cuTENSOR 2 signatures: its handles and descriptors are opaque pointers, its enums ints, its
 * data types CUDA's (which cuperm's cupermDataType_t values equal). */
#include "cutensor_dl.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_case.h" /* bench_fail */

/* cuTENSOR 2's constants used here (cutensor/types.h). */
enum {
    CT_STATUS_SUCCESS = 0,
    CT_OP_IDENTITY = 1,
    CT_ALGO_DEFAULT = -1,
    CT_WORKSPACE_DEFAULT = 2,
    CT_JIT_MODE_NONE = 0,
    CT_JIT_MODE_DEFAULT = 1,
    CT_ALIGNMENT = 128, /* bytes every buffer here has (cudaMalloc: 256) */
    CT_OPERATION_SCALAR_TYPE = 1, /* CUTENSOR_OPERATION_DESCRIPTOR_SCALAR_TYPE: a cudaDataType_t */
};

typedef int (*ct_create_fn)(void** handle);
typedef int (*ct_destroy_fn)(void* object);
typedef int (*ct_tensor_fn)(void* handle, void** desc, uint32_t modes, const int64_t* extents, const int64_t* strides,
                            int type, uint32_t alignment);
typedef int (*ct_contraction_fn)(void* handle, void** desc, void* a, const int32_t* modesA, int opA, void* b,
                                 const int32_t* modesB, int opB, void* c, const int32_t* modesC, int opC, void* d,
                                 const int32_t* modesD, const void* compute);
typedef int (*ct_preference_fn)(void* handle, void** pref, int algo, int jit);
typedef int (*ct_workspace_fn)(void* handle, void* desc, void* pref, int workspacePref, uint64_t* bytes);
typedef int (*ct_plan_fn)(void* handle, void** plan, void* desc, void* pref, uint64_t workspaceLimit);
typedef int (*ct_contract_fn)(void* handle, void* plan, const void* alpha, const void* a, const void* b,
                              const void* beta, const void* c, void* d, void* ws, uint64_t wsBytes,
                              cudaStream_t stream);
typedef int (*ct_permutation_fn)(void* handle, void** desc, void* a, const int32_t* modesA, int opA, void* b,
                                 const int32_t* modesB, const void* compute);
typedef int (*ct_permute_fn)(void* handle, void* plan, const void* alpha, const void* a, void* b, cudaStream_t stream);
typedef int (*ct_op_attr_fn)(void* handle, void* desc, int attr, void* buf, size_t bytes);
typedef const char* (*ct_error_fn)(int status);

struct bench_cutensor {
    void* lib;
    char path[512];
    int jit;
    void* handle;
    const void* compute32; /* the values of CUTENSOR_COMPUTE_DESC_32F and _64F */
    const void* compute64;
    const void* compute16; /* CUTENSOR_COMPUTE_DESC_16F (permutations of fp16 data) */
    ct_create_fn create;
    ct_destroy_fn destroy, destroyTensor, destroyOperation, destroyPreference, destroyPlan;
    ct_tensor_fn tensor;
    ct_contraction_fn contraction;
    ct_preference_fn preference;
    ct_workspace_fn workspace;
    ct_plan_fn plan;
    ct_contract_fn contract;
    ct_permutation_fn permutation;
    ct_permute_fn permute;
    ct_op_attr_fn opAttr;
    ct_error_fn error;
};

struct bench_cutensor_plan {
    bench_cutensor* t;
    void* desc[3]; /* A, B, D (C is D) */
    void* operation;
    void* preference;
    void* plan;
    int f64; /* scalars are double (fp64 compute), else float */
    unsigned char alpha[8]; /* permutations: 1 in the operation's scalar type */
};

/* dlsym into *slot (a function or data pointer of the library); 0 or -1. */
static int find(bench_cutensor* t, const char* name, void* slot, char* err, size_t size)
{
    void* p = dlsym(t->lib, name);
    if (!p) return bench_fail(err, size, "%s has no %s (cuTENSOR 2 expected)", t->path, name);
    memcpy(slot, &p, sizeof p);
    return 0;
}

bench_cutensor* bench_cutensor_open(int jit, char* err, size_t errSize)
{
    bench_cutensor* t = calloc(1, sizeof *t);
    if (!t) {
        bench_fail(err, errSize, "out of host memory");
        return NULL;
    }
    const char* env = getenv("CUPERM_BENCH_CUTENSOR");
    snprintf(t->path, sizeof t->path, "%s", env && *env ? env : "libcutensor.so.2");
    t->jit = jit;
    t->lib = dlopen(t->path, RTLD_NOW | RTLD_LOCAL);
    if (!t->lib) {
        bench_fail(err, errSize, "cannot load cuTENSOR (%s; set CUPERM_BENCH_CUTENSOR to its path): %s", t->path,
             dlerror());
        free(t);
        return NULL;
    }
    const void* const* c32 = NULL;
    const void* const* c64 = NULL;
    const void* const* c16 = NULL;
    if (find(t, "cutensorCreate", &t->create, err, errSize) || find(t, "cutensorDestroy", &t->destroy, err, errSize) ||
        find(t, "cutensorCreateTensorDescriptor", &t->tensor, err, errSize) ||
        find(t, "cutensorDestroyTensorDescriptor", &t->destroyTensor, err, errSize) ||
        find(t, "cutensorCreateContraction", &t->contraction, err, errSize) ||
        find(t, "cutensorDestroyOperationDescriptor", &t->destroyOperation, err, errSize) ||
        find(t, "cutensorCreatePlanPreference", &t->preference, err, errSize) ||
        find(t, "cutensorDestroyPlanPreference", &t->destroyPreference, err, errSize) ||
        find(t, "cutensorEstimateWorkspaceSize", &t->workspace, err, errSize) ||
        find(t, "cutensorCreatePlan", &t->plan, err, errSize) ||
        find(t, "cutensorDestroyPlan", &t->destroyPlan, err, errSize) ||
        find(t, "cutensorContract", &t->contract, err, errSize) ||
        find(t, "cutensorCreatePermutation", &t->permutation, err, errSize) ||
        find(t, "cutensorPermute", &t->permute, err, errSize) ||
        find(t, "cutensorOperationDescriptorGetAttribute", &t->opAttr, err, errSize) ||
        find(t, "cutensorGetErrorString", &t->error, err, errSize) ||
        find(t, "CUTENSOR_COMPUTE_DESC_32F", &c32, err, errSize) ||
        find(t, "CUTENSOR_COMPUTE_DESC_64F", &c64, err, errSize) ||
        find(t, "CUTENSOR_COMPUTE_DESC_16F", &c16, err, errSize)) {
        dlclose(t->lib);
        free(t);
        return NULL;
    }
    t->compute32 = *c32;
    t->compute64 = *c64;
    t->compute16 = *c16;
    const int st = t->create(&t->handle);
    if (st != CT_STATUS_SUCCESS) {
        bench_fail(err, errSize, "cutensorCreate: %s", t->error(st));
        dlclose(t->lib);
        free(t);
        return NULL;
    }
    return t;
}

void bench_cutensor_close(bench_cutensor* t)
{
    if (!t) return;
    t->destroy(t->handle);
    dlclose(t->lib);
    free(t);
}

const char* bench_cutensor_path(const bench_cutensor* t) { return t->path; }

void bench_cutensor_plan_destroy(bench_cutensor_plan* p)
{
    if (!p) return;
    bench_cutensor* t = p->t;
    if (p->plan) t->destroyPlan(p->plan);
    if (p->preference) t->destroyPreference(p->preference);
    if (p->operation) t->destroyOperation(p->operation);
    for (int i = 0; i < 3; ++i)
        if (p->desc[i]) t->destroyTensor(p->desc[i]);
    free(p);
}

/* p's plan with cuTENSOR's default preference (algorithm, JIT as asked) and workspace. */
static int default_plan(bench_cutensor* t, bench_cutensor_plan* p, uint64_t* ws)
{
    int st = t->preference(t->handle, &p->preference, CT_ALGO_DEFAULT, t->jit ? CT_JIT_MODE_DEFAULT : CT_JIT_MODE_NONE);
    if (st == CT_STATUS_SUCCESS) st = t->workspace(t->handle, p->operation, p->preference, CT_WORKSPACE_DEFAULT, ws);
    if (st == CT_STATUS_SUCCESS) st = t->plan(t->handle, &p->plan, p->operation, p->preference, *ws);
    return st;
}

int bench_cutensor_plan_create(bench_cutensor* t, const cupermTensorDescriptor_t d[4], bench_cutensor_plan** plan,
                               uint64_t* wsBytes, char* err, size_t errSize)
{
    *plan = NULL;
    bench_cutensor_plan* p = calloc(1, sizeof *p);
    if (!p) return bench_fail(err, errSize, "out of host memory");
    p->t = t;
    p->f64 = d[3].type == CUPERM_R_64F || d[3].type == CUPERM_C_64F;
    static const int which[3] = {0, 1, 3};
    int st = CT_STATUS_SUCCESS;
    for (int i = 0; i < 3 && st == CT_STATUS_SUCCESS; ++i) {
        const cupermTensorDescriptor_t* x = &d[which[i]];
        int64_t strides[CUPERM_MAX_RANK], dense = 1;
        for (int k = 0; k < x->rank; ++k) {
            strides[k] = x->strides ? x->strides[k] : dense;
            dense *= x->extents[k];
        }
        st = t->tensor(t->handle, &p->desc[i], (uint32_t)x->rank, x->extents, strides, (int)x->type, CT_ALIGNMENT);
    }
    if (st == CT_STATUS_SUCCESS)
        st = t->contraction(t->handle, &p->operation, p->desc[0], d[0].modes, CT_OP_IDENTITY, p->desc[1], d[1].modes,
                            CT_OP_IDENTITY, p->desc[2], d[3].modes, CT_OP_IDENTITY, p->desc[2], d[3].modes,
                            p->f64 ? t->compute64 : t->compute32);
    uint64_t ws = 0;
    if (st == CT_STATUS_SUCCESS) st = default_plan(t, p, &ws);
    if (st != CT_STATUS_SUCCESS) {
        bench_cutensor_plan_destroy(p);
        return bench_fail(err, errSize, "cuTENSOR plan: %s", t->error(st));
    }
    *wsBytes = ws;
    *plan = p;
    return 0;
}

int bench_cutensor_contract(bench_cutensor_plan* p, const void* a, const void* b, void* d, void* ws,
                            uint64_t wsBytes, cudaStream_t s)
{
    const float one32 = 1, zero32 = 0;
    const double one64 = 1, zero64 = 0;
    const void* one = p->f64 ? (const void*)&one64 : (const void*)&one32;
    const void* zero = p->f64 ? (const void*)&zero64 : (const void*)&zero32;
    return p->t->contract(p->t->handle, p->plan, one, a, b, zero, d, d, ws, wsBytes, s) == CT_STATUS_SUCCESS ? 0 : -1;
}

/* 1 in CUDA data type `type` (R_16F, R_32F or R_64F); 0, or -1 for another type. */
static int scalar_one(int type, unsigned char out[8])
{
    const float f = 1;
    const double d = 1;
    const uint16_t h = 0x3C00; /* 1.0 in IEEE half */
    switch (type) {
    case CUPERM_R_16F: memcpy(out, &h, sizeof h); return 0;
    case CUPERM_R_32F: memcpy(out, &f, sizeof f); return 0;
    case CUPERM_R_64F: memcpy(out, &d, sizeof d); return 0;
    default: return -1;
    }
}

int bench_cutensor_permute_create(bench_cutensor* t, int rank, const int64_t* extents, const int* perm,
                                  cupermDataType_t type, bench_cutensor_plan** plan, char* err, size_t errSize)
{
    *plan = NULL;
    const void* compute = type == CUPERM_R_16F ? t->compute16
                          : type == CUPERM_R_32F ? t->compute32
                          : type == CUPERM_R_64F ? t->compute64
                                                 : NULL;
    if (!compute) return bench_fail(err, errSize, "cuTENSOR comparison: fp16, fp32 and fp64 only");
    bench_cutensor_plan* p = calloc(1, sizeof *p);
    if (!p) return bench_fail(err, errSize, "out of host memory");
    p->t = t;
    int64_t inStrides[CUPERM_MAX_RANK], outExtents[CUPERM_MAX_RANK], outStrides[CUPERM_MAX_RANK];
    int32_t inModes[CUPERM_MAX_RANK], outModes[CUPERM_MAX_RANK];
    int64_t in = 1, out = 1;
    for (int k = 0; k < rank; ++k) {
        inStrides[k] = in;
        in *= extents[k];
        inModes[k] = k;
        outExtents[k] = extents[perm[k]];
        outStrides[k] = out;
        out *= outExtents[k];
        outModes[k] = perm[k];
    }
    int st = t->tensor(t->handle, &p->desc[0], (uint32_t)rank, extents, inStrides, (int)type, CT_ALIGNMENT);
    if (st == CT_STATUS_SUCCESS)
        st = t->tensor(t->handle, &p->desc[1], (uint32_t)rank, outExtents, outStrides, (int)type, CT_ALIGNMENT);
    if (st == CT_STATUS_SUCCESS)
        st = t->permutation(t->handle, &p->operation, p->desc[0], inModes, CT_OP_IDENTITY, p->desc[1], outModes, compute);
    int scalarType = -1;
    if (st == CT_STATUS_SUCCESS)
        st = t->opAttr(t->handle, p->operation, CT_OPERATION_SCALAR_TYPE, &scalarType, sizeof scalarType);
    uint64_t ws = 0;
    if (st == CT_STATUS_SUCCESS) st = default_plan(t, p, &ws);
    if (st != CT_STATUS_SUCCESS) {
        bench_cutensor_plan_destroy(p);
        return bench_fail(err, errSize, "cuTENSOR permutation plan: %s", t->error(st));
    }
    if (ws != 0 || scalar_one(scalarType, p->alpha)) {
        bench_cutensor_plan_destroy(p);
        return bench_fail(err, errSize, "cuTENSOR permutation plan: wants %llu workspace bytes, scalar type %d "
                          "(not handled here)", (unsigned long long)ws, scalarType);
    }
    *plan = p;
    return 0;
}

int bench_cutensor_permute(bench_cutensor_plan* p, const void* in, void* out, cudaStream_t s)
{
    return p->t->permute(p->t->handle, p->plan, p->alpha, in, out, s) == CT_STATUS_SUCCESS ? 0 : -1;
}
