/* Minimal cuperm example: transpose a 3-D float tensor, out[k][i][j]-style.
 * Build: cc transpose.c -I<prefix>/include -L<prefix>/lib -lcuperm -lcudart */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#include <cuperm.h>

#define CHECK(call)                                                                              \
    do {                                                                                         \
        cupermStatus_t s_ = (call);                                                              \
        if (s_ != CUPERM_STATUS_SUCCESS) {                                                       \
            fprintf(stderr, "%s: %s\n", cupermGetErrorString(s_), cupermGetLastErrorMessage());  \
            return 1;                                                                            \
        }                                                                                        \
    } while (0)

int main(void)
{
    const int64_t extents[3] = {64, 32, 16}; /* column-major: extent 0 is stride-1 */
    const int perm[3] = {2, 0, 1};           /* output dim r is input dim perm[r] */
    const size_t n = 64 * 32 * 16;

    float* host = malloc(n * sizeof *host);
    for (size_t i = 0; i < n; ++i) host[i] = (float)i;
    float *in, *out;
    if (cudaMalloc((void**)&in, n * sizeof *in) != cudaSuccess ||
        cudaMalloc((void**)&out, n * sizeof *out) != cudaSuccess) {
        fprintf(stderr, "no CUDA device memory (is there a GPU?)\n");
        return 1;
    }
    cudaMemcpy(in, host, n * sizeof *in, cudaMemcpyHostToDevice);

    cupermHandle_t handle;
    cupermPlan_t plan;
    CHECK(cupermCreate(&handle));
    CHECK(cupermPlanTranspose(handle, &plan, 3, extents, perm, CUPERM_R_32F, NULL, NULL));
    const float alpha = 1.0f, beta = 0.0f;
    CHECK(cupermExecute(plan, &alpha, in, &beta, out, 0));
    cudaMemcpy(host, out, n * sizeof *out, cudaMemcpyDeviceToHost);

    /* out(k, i, j) = in(i, j, k); out's extents are (16, 64, 32). */
    size_t bad = 0;
    for (size_t k = 0; k < 16; ++k)
        for (size_t i = 0; i < 64; ++i)
            for (size_t j = 0; j < 32; ++j)
                bad += host[k + 16 * (i + 64 * j)] != (float)(i + 64 * (j + 32 * k));
    printf("transpose of 64x32x16 floats: %s\n", bad ? "WRONG" : "correct");

    cupermPlanDestroy(plan);
    cupermDestroy(handle);
    cudaFree(in);
    cudaFree(out);
    free(host);
    return bad != 0;
}
