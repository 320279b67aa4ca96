// A program written the way cuTT's README teaches, built against cuperm's cutt.h:
// plan, execute, destroy, checked element by element against a CPU reference.
#include <cutt.h>

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "support/gpu_skip.h"
#include "support/reference.h"
#include "support/rng.h"

#define cuttCheck(stmt) do {                                                        \
    cuttResult err = stmt;                                                          \
    if (err != CUTT_SUCCESS) {                                                      \
      fprintf(stderr, "%s failed (%d: %s) in %s\n", #stmt, (int)err,                \
              cuttGetLastErrorMessage(), __FUNCTION__);                             \
      exit(1);                                                                      \
    }                                                                               \
  } while (0)

#define cudaCheck(stmt) do {                                                        \
    cudaError_t err = stmt;                                                         \
    if (err != cudaSuccess) {                                                       \
      fprintf(stderr, "%s failed: %s\n", #stmt, cudaGetErrorString(err));           \
      exit(1);                                                                      \
    }                                                                               \
  } while (0)

static int passed = 0, failed = 0;

// One transpose, planned heuristically or by measurement, on the given stream.
static void run_case(std::vector<int> dim, std::vector<int> permutation, size_t sizeofType, bool measure,
                     cudaStream_t stream)
{
  const int rank = (int)dim.size();
  size_t volume = 1;
  for (int d : dim) volume *= (size_t)d;
  const size_t bytes = volume * sizeofType;
  std::vector<unsigned char> idata(bytes), expected(bytes), odata(bytes);
  rng_t rng = {12345 + volume};
  rng_fill(&rng, CUPERM_R_8U, (int64_t)bytes, idata.data());
  if (ref_permute(rank, dim.data(), permutation.data(), sizeofType, idata.data(), expected.data())) {
    fprintf(stderr, "no reference for %zu-byte elements\n", sizeofType);
    exit(1);
  }

  void *d_idata, *d_odata;
  cudaCheck(cudaMalloc(&d_idata, bytes));
  cudaCheck(cudaMalloc(&d_odata, bytes));
  cudaCheck(cudaMemcpy(d_idata, idata.data(), bytes, cudaMemcpyHostToDevice));

  cuttHandle plan;
  if (measure)
    cuttCheck(cuttPlanMeasure(&plan, rank, dim.data(), permutation.data(), sizeofType, stream, d_idata, d_odata));
  else
    cuttCheck(cuttPlan(&plan, rank, dim.data(), permutation.data(), sizeofType, stream));
  cudaCheck(cudaMemset(d_odata, 0xA5, bytes));  // poison: every element must be written
  cudaCheck(cudaDeviceSynchronize());
  cuttCheck(cuttExecute(plan, d_idata, d_odata));
  cudaCheck(cudaStreamSynchronize(stream));
  cudaCheck(cudaMemcpy(odata.data(), d_odata, bytes, cudaMemcpyDeviceToHost));
  cuttCheck(cuttDestroy(plan));

  const bool ok = memcmp(odata.data(), expected.data(), bytes) == 0;
  printf("%s rank %d, %zu-byte elements, %zu elements%s\n", ok ? "ok  " : "FAIL", rank, sizeofType, volume,
         measure ? ", measured" : "");
  (ok ? passed : failed)++;

  // The destroyed handle must be refused, not crash.
  if (cuttExecute(plan, d_idata, d_odata) == CUTT_INVALID_PLAN) passed++; else { failed++; puts("FAIL stale handle"); }
  cudaCheck(cudaFree(d_idata));
  cudaCheck(cudaFree(d_odata));
}

int main()
{
  require_gpu_or_skip("test_cutt_program");

  // The example of cuTT's README: (31, 549, 2, 3) -> (3, 31, 2, 549), doubles, NULL stream.
  run_case({31, 549, 2, 3}, {3, 0, 2, 1}, sizeof(double), false, 0);
  run_case({31, 549, 2, 3}, {3, 0, 2, 1}, sizeof(double), true, 0);
  run_case({1024, 1536}, {1, 0}, sizeof(float), false, 0);
  run_case({8, 9, 10, 11, 3, 5}, {5, 2, 0, 4, 1, 3}, sizeof(double), true, 0);
  run_case({64, 33, 17}, {0, 2, 1}, sizeof(float), false, 0);
  run_case({33, 65, 17}, {2, 0, 1}, 1, false, 0);
  run_case({33, 65, 17}, {1, 2, 0}, 2, false, 0);

  cudaStream_t stream;
  cudaCheck(cudaStreamCreate(&stream));
  run_case({96, 75, 96, 7}, {2, 1, 3, 0}, sizeof(double), false, stream);
  cudaCheck(cudaStreamDestroy(stream));

  // Aliased buffers are refused with a reason.
  cuttHandle plan;
  int dim[2] = {16, 16}, perm[2] = {1, 0};
  void* buf;
  cudaCheck(cudaMalloc(&buf, 16 * 16 * sizeof(float)));
  cuttCheck(cuttPlan(&plan, 2, dim, perm, sizeof(float), 0));
  if (cuttExecute(plan, buf, buf) == CUTT_INVALID_PARAMETER && strstr(cuttGetLastErrorMessage(), "overlap"))
    passed++;
  else { failed++; printf("FAIL in-place execute: %s\n", cuttGetLastErrorMessage()); }
  cuttCheck(cuttDestroy(plan));
  cudaCheck(cudaFree(buf));

  printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
