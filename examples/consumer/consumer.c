/* A program that uses an installed cuperm, built the way a consumer builds it:
 *   CMake:      see CMakeLists.txt here (find_package(cuperm) + cuperm::cuperm)
 *   pkg-config: cc consumer.c $(pkg-config --cflags --libs cuperm)
 * Without arguments it needs no GPU: it checks that the library it runs with
 * matches the header it was compiled with. With an argument it transposes and
 * contracts on the GPU, so the program links every part of the library
 * (kernels, cuBLAS) - which is what a static link has to resolve. */
#include <cuda_runtime.h>
#include <stdio.h>
#include <string.h>

#include <cuperm.h>

static int run_on_gpu(void)
{
    const int64_t extents[2] = {64, 32};
    const int perm[2] = {1, 0};
    const float one = 1.0f, zero = 0.0f;
    float *in = NULL, *out = NULL;
    cupermHandle_t handle;
    cupermPlan_t plan;
    if (cudaMalloc((void**)&in, 64 * 32 * sizeof *in) != cudaSuccess ||
        cudaMalloc((void**)&out, 64 * 32 * sizeof *out) != cudaSuccess) {
        fprintf(stderr, "no CUDA device memory (is there a GPU?)\n");
        return 1;
    }
    if (cupermCreate(&handle) ||
        cupermPlanTranspose(handle, &plan, 2, extents, perm, CUPERM_R_32F, NULL, NULL) ||
        cupermExecute(plan, &one, in, &zero, out, 0) || cupermPlanDestroy(plan)) {
        fprintf(stderr, "cuperm: %s\n", cupermGetLastErrorMessage());
        return 1;
    }
    /* A contraction plan with no descriptors fails validation, but links cuBLAS in. */
    cupermContractionPlan_t cplan;
    if (cupermPlanContraction(handle, &cplan, NULL, NULL, NULL, NULL, CUPERM_COMPUTE_DEFAULT,
                              CUPERM_PLAN_MODEL) == CUPERM_STATUS_SUCCESS) {
        cupermContract(cplan, &one, in, in, &zero, out, out, NULL, 0, 0);
        cupermContractionPlanDestroy(cplan);
    }
    cupermDestroy(handle);
    cudaFree(in);
    cudaFree(out);
    printf("transposed on the GPU\n");
    return 0;
}

int main(int argc, char** argv)
{
    (void)argv;
    int v = cupermGetVersion();
    printf("cuperm %d.%d.%d (header %d.%d.%d); status 1 is %s\n", v / 10000, v / 100 % 100,
           v % 100, CUPERM_VERSION_MAJOR, CUPERM_VERSION_MINOR, CUPERM_VERSION_PATCH,
           cupermGetErrorString(CUPERM_STATUS_INVALID_VALUE));
    if (v != CUPERM_VERSION) {
        fprintf(stderr, "library version %d differs from the header's %d\n", v, CUPERM_VERSION);
        return 1;
    }
    if (strcmp(cupermGetErrorString(CUPERM_STATUS_INVALID_VALUE), "CUPERM_STATUS_INVALID_VALUE") != 0) {
        fprintf(stderr, "unexpected status name %s\n",
                cupermGetErrorString(CUPERM_STATUS_INVALID_VALUE));
        return 1;
    }
    return argc > 1 ? run_on_gpu() : 0;
}
