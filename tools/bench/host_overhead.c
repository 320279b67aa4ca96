/*
 * cuperm-host-overhead: host time per call of cached cuperm plans, next to the CUDA
 * and cuBLAS calls they are made of. This is the floor under the Python replay's
 * per-call numbers (bench/python/host_overhead.py): what the C library costs before
 * any framework does. Tiny problems, so the GPU never holds the host back; each
 * batch is queued untimed-synchronised, so the launch queue never fills.
 *
 * Usage: cuperm-host-overhead [CALLS_PER_BATCH [BATCHES]]
 * Prints one Markdown row per call: best and median microseconds per call.
 */
#include <cublas_v2.h>
#include <cuda.h>
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cuperm.h"

typedef int (*call_fn)(void* ctx);

/* launch_probe.cu: empty kernels, with a pointer or with the tile kernels' parameters. */
size_t probe_tile_param_bytes(void);
cudaError_t probe_launch_small(void* p, cudaStream_t stream);
cudaError_t probe_launch_tile_params(cudaStream_t stream);
cudaError_t probe_launch_driver(void* p, cudaStream_t stream);
cudaError_t probe_launch_runtime(void* p, cudaStream_t stream);

static double now_us(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e6 + t.tv_nsec * 1e-3;
}

static int cmp_double(const void* a, const void* b)
{
    const double x = *(const double*)a, y = *(const double*)b;
    return (x > y) - (x < y);
}

static int calls = 200, batches = 100;

/* Best and median per-call microseconds over the batches; -1 if a call failed. */
static int time_calls(const char* name, call_fn fn, void* ctx)
{
    double* per = malloc(sizeof(double) * (size_t)batches);
    if (!per) return -1;
    for (int i = 0; i < calls; ++i) /* warm-up: first-call costs (module loads, handles) stay out */
        if (fn(ctx)) {
            fprintf(stderr, "%s: the call failed\n", name);
            free(per);
            return -1;
        }
    cudaDeviceSynchronize();
    for (int b = 0; b < batches; ++b) {
        const double t0 = now_us();
        for (int i = 0; i < calls; ++i) fn(ctx);
        per[b] = (now_us() - t0) / calls;
        cudaDeviceSynchronize();
    }
    qsort(per, (size_t)batches, sizeof(double), cmp_double);
    printf("| %s | %.2f | %.2f |\n", name, per[0], per[batches / 2]);
    free(per);
    return 0;
}

typedef struct {
    void *x, *y, *a, *b, *d, *ws;
    size_t wsBytes;
    cupermPlan_t tplan;
    cupermContractionPlan_t cplan;
    cublasHandle_t blas;
    CUresult (*getAttributes)(unsigned, CUpointer_attribute*, void**, CUdeviceptr);
    cudaStream_t side; /* a non-blocking stream: no implicit synchronisation with the legacy one */
} ctx_t;

static int get_device(void* c)
{
    (void)c;
    int d;
    return cudaGetDevice(&d) != cudaSuccess;
}

static int pointer_attributes(void* vc)
{
    ctx_t* c = vc;
    struct cudaPointerAttributes a;
    return cudaPointerGetAttributes(&a, c->x) != cudaSuccess || a.type != cudaMemoryTypeDevice;
}

static int driver_pointer_attributes(void* vc)
{
    ctx_t* c = vc;
    CUpointer_attribute which[2] = {CU_POINTER_ATTRIBUTE_MEMORY_TYPE, CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL};
    unsigned type = 0;
    int ordinal = -1;
    void* out[2] = {&type, &ordinal};
    return c->getAttributes(2, which, out, (CUdeviceptr)c->x) != CUDA_SUCCESS || type != CU_MEMORYTYPE_DEVICE;
}

static int memset_async(void* vc)
{
    ctx_t* c = vc;
    return cudaMemsetAsync(c->y, 0, 4, 0) != cudaSuccess;
}

static int launch_small(void* vc)
{
    ctx_t* c = vc;
    return probe_launch_small(c->y, 0) != cudaSuccess;
}

static int launch_driver(void* vc)
{
    ctx_t* c = vc;
    return probe_launch_driver(c->y, 0) != cudaSuccess;
}

static int launch_runtime(void* vc)
{
    ctx_t* c = vc;
    return probe_launch_runtime(c->y, 0) != cudaSuccess;
}

static int launch_small_side(void* vc)
{
    ctx_t* c = vc;
    return probe_launch_small(c->y, c->side) != cudaSuccess;
}

static int launch_tile_params(void* vc)
{
    (void)vc;
    return probe_launch_tile_params(0) != cudaSuccess;
}

static int gemm_f32_only(void* vc)
{
    ctx_t* c = vc;
    const float one = 1, zero = 0;
    return cublasGemmEx(c->blas, CUBLAS_OP_N, CUBLAS_OP_N, 8, 8, 8, &one, c->a, CUDA_R_32F, 8, c->b, CUDA_R_32F, 8,
                        &zero, c->d, CUDA_R_32F, 8, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT) != CUBLAS_STATUS_SUCCESS;
}

static int gemm_f32(void* vc)
{
    ctx_t* c = vc;
    return cublasSetStream(c->blas, 0) != CUBLAS_STATUS_SUCCESS || gemm_f32_only(vc);
}

static int set_stream_workspace(void* vc)
{
    ctx_t* c = vc;
    return cublasSetStream(c->blas, 0) != CUBLAS_STATUS_SUCCESS ||
           cublasSetWorkspace(c->blas, c->ws, c->wsBytes) != CUBLAS_STATUS_SUCCESS;
}

static int execute(void* vc)
{
    ctx_t* c = vc;
    const float one = 1, zero = 0;
    return cupermExecute(c->tplan, &one, c->x, &zero, c->y, 0) != CUPERM_STATUS_SUCCESS;
}

static int contract(void* vc)
{
    ctx_t* c = vc;
    const float one = 1, zero = 0;
    return cupermContract(c->cplan, &one, c->a, c->b, &zero, c->d, c->d, c->ws, c->wsBytes, 0) !=
           CUPERM_STATUS_SUCCESS;
}

static int plan_contraction(cupermHandle_t h, cupermContractionPlan_t* plan)
{
    const int32_t ma[2] = {'i', 'j'}, mb[2] = {'j', 'k'}, md[2] = {'i', 'k'};
    const int64_t e[2] = {8, 8};
    cupermTensorDescriptor_t A = {2, ma, e, NULL, CUPERM_R_32F, CUPERM_OP_IDENTITY, 0};
    cupermTensorDescriptor_t B = A, D = A;
    B.modes = mb;
    D.modes = md;
    return cupermPlanContraction(h, plan, &A, &B, &D, &D, CUPERM_COMPUTE_DEFAULT, CUPERM_PLAN_MODEL);
}

int main(int argc, char** argv)
{
    if (argc > 1) calls = atoi(argv[1]);
    if (argc > 2) batches = atoi(argv[2]);
    if (calls < 1 || batches < 1) {
        fprintf(stderr, "usage: cuperm-host-overhead [CALLS_PER_BATCH [BATCHES]]\n");
        return 2;
    }
    ctx_t c;
    memset(&c, 0, sizeof c);
    cupermHandle_t h;
    if (cudaMalloc(&c.x, 256) || cudaMalloc(&c.y, 256) || cudaMalloc(&c.a, 256) || cudaMalloc(&c.b, 256) ||
        cudaMalloc(&c.d, 256) || cudaStreamCreateWithFlags(&c.side, cudaStreamNonBlocking) || cupermCreate(&h) ||
        cublasCreate(&c.blas)) {
        fprintf(stderr, "cuperm-host-overhead: no GPU, or setup failed\n");
        return 1;
    }
    enum cudaDriverEntryPointQueryResult q;
    if (cudaGetDriverEntryPointByVersion("cuPointerGetAttributes", (void**)&c.getAttributes, 12000,
                                         cudaEnableDefault, &q) != cudaSuccess || q != cudaDriverEntryPointSuccess)
        c.getAttributes = NULL;
    const int64_t ext[2] = {4, 8};
    const int perm[2] = {1, 0};
    if (cupermPlanTranspose(h, &c.tplan, 2, ext, perm, CUPERM_R_32F, NULL, NULL) || plan_contraction(h, &c.cplan) ||
        cupermContractionGetWorkspaceSize(c.cplan, &c.wsBytes) || (c.wsBytes && cudaMalloc(&c.ws, c.wsBytes))) {
        fprintf(stderr, "cuperm-host-overhead: planning failed: %s\n", cupermGetLastErrorMessage());
        return 1;
    }
    struct cudaDeviceProp prop;
    cudaGetDeviceProperties(&prop, 0);
    printf("# %s, %d calls per batch, %d batches; microseconds of host time per call\n\n", prop.name, calls, batches);
    printf("| call | best | median |\n| --- | ---: | ---: |\n");
    int bad = 0;
    bad |= time_calls("cudaGetDevice", get_device, &c);
    bad |= time_calls("cudaPointerGetAttributes", pointer_attributes, &c);
    if (c.getAttributes) bad |= time_calls("cuPointerGetAttributes (type, ordinal)", driver_pointer_attributes, &c);
    bad |= time_calls("cudaMemsetAsync 4 bytes", memset_async, &c);
    bad |= time_calls("empty kernel <<<>>>, 8 bytes of parameters", launch_small, &c);
    bad |= time_calls("empty kernel, cudaLaunchKernel", launch_runtime, &c);
    bad |= time_calls("empty kernel <<<>>> on a non-blocking stream", launch_small_side, &c);
    bad |= time_calls("empty kernel, cuLaunchKernel (CUfunction found once)", launch_driver, &c);
    char name[96];
    snprintf(name, sizeof name, "empty kernel <<<>>>, the tile kernels' %zu bytes of parameters",
             probe_tile_param_bytes());
    bad |= time_calls(name, launch_tile_params, &c);
    bad |= time_calls("cublasSetStream + cublasGemmEx f32 8x8x8", gemm_f32, &c);
    bad |= time_calls("cublasGemmEx f32 8x8x8 (stream set before)", gemm_f32_only, &c);
    if (c.wsBytes) bad |= time_calls("cublasSetStream + cublasSetWorkspace", set_stream_workspace, &c);
    bad |= time_calls("cupermExecute f32 4x8 (cached plan)", execute, &c);
    bad |= time_calls("cupermContract f32 8x8x8 (cached plan)", contract, &c);
    cupermContractionInfo_t info;
    if (!cupermContractionPlanGetInfo(c.cplan, &info)) printf("\ncontraction plan: %s\n", info.description);
    cupermContractionPlanDestroy(c.cplan);
    cupermPlanDestroy(c.tplan);
    cublasDestroy(c.blas);
    cudaStreamDestroy(c.side);
    cupermDestroy(h);
    return bad ? 1 : 0;
}
