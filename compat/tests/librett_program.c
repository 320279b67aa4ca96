/* A LibreTT program in plain C against cuperm's librett.h, checked against a CPU reference. */
#include <librett.h>

#include <cuda_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/gpu_skip.h"
#include "support/reference.h"
#include "support/rng.h"

#define CHECK(stmt) do {                                                                       \
    int err_ = (int)(stmt);                                                                    \
    if (err_) { fprintf(stderr, "%s failed (%d): %s\n", #stmt, err_, librettGetLastErrorMessage()); exit(1); } \
  } while (0)

static int passed, failed;

static void run_case(int rank, int* dim, int* perm, size_t elem, int measure)
{
    size_t volume = 1;
    for (int d = 0; d < rank; ++d) volume *= (size_t)dim[d];
    size_t bytes = volume * elem;
    unsigned char* in = malloc(bytes);
    unsigned char* want = malloc(bytes);
    unsigned char* got = malloc(bytes);
    rng_t rng = {99 + volume};
    rng_fill(&rng, CUPERM_R_8U, (int64_t)bytes, in);
    CHECK(ref_permute(rank, dim, perm, elem, in, want));

    void *d_in, *d_out;
    CHECK(cudaMalloc(&d_in, bytes));
    CHECK(cudaMalloc(&d_out, bytes));
    CHECK(cudaMemcpy(d_in, in, bytes, cudaMemcpyHostToDevice));
    librettHandle plan;
    if (measure)
        CHECK(librettPlanMeasure(&plan, rank, dim, perm, elem, 0, d_in, d_out));
    else
        CHECK(librettPlan(&plan, rank, dim, perm, elem, 0));
    CHECK(cudaMemset(d_out, 0x5A, bytes));
    CHECK(librettExecute(plan, d_in, d_out));
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(got, d_out, bytes, cudaMemcpyDeviceToHost));
    CHECK(librettDestroy(plan));
    int ok = memcmp(got, want, bytes) == 0;
    printf("%s librett rank %d, %zu-byte elements%s\n", ok ? "ok  " : "FAIL", rank, elem, measure ? ", measured" : "");
    if (ok) passed++; else failed++;
    cudaFree(d_in);
    cudaFree(d_out);
    free(in);
    free(want);
    free(got);
}

int main(void)
{
    require_gpu_or_skip("test_librett_program");
    librettInitialize();
    int d1[4] = {31, 549, 2, 3}, p1[4] = {3, 0, 2, 1};
    run_case(4, d1, p1, 8, 0);
    int d2[3] = {368, 64, 231}, p2[3] = {0, 2, 1};
    run_case(3, d2, p2, 4, 1);
    int d3[5] = {12, 7, 16, 5, 9}, p3[5] = {4, 3, 2, 1, 0};
    run_case(5, d3, p3, 8, 0);
    librettFinalize();
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
