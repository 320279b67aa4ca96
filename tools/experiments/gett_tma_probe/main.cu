// The probe's host side: a TCCG case onto M, N, K (<= 3 modes each, ordered so that A's and
// B's unit-stride modes come first), a same-shape cuBLAS GEMM, each tile timed (CUDA events,
// median of 7 x 5 runs after 3 warm-ups) and checked on 4,096 sampled elements of D.
#include "probe.h"
struct Case { std::string c, a, b; std::vector<int> ext; };
static Case parse(const char* expr, const char* exts) {
  Case k; std::string e(expr); size_t p1 = e.find('-'), p2 = e.find('-', p1 + 1);
  k.c = e.substr(0, p1); k.a = e.substr(p1 + 1, p2 - p1 - 1); k.b = e.substr(p2 + 1);
  for (const char* s = exts; *s;) { k.ext.push_back(atoi(s)); while (*s && *s != ',') ++s; if (*s) ++s; }
  return k;
}
static I stride_of(const std::string& t, char m, const std::vector<int>& ext) {
  I s = 1; for (char c : t) { if (c == m) return s; s *= ext[c - 'a']; } return -1;
}
struct Grouped { int n[3]; char m[3][3]; }; // M, N, K modes (rank <= 3 each)

__global__ void fill(hf* p, size_t n, unsigned seed) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
    unsigned x = (unsigned)i * 2654435761u ^ seed; x ^= x >> 13; x *= 0x5bd1e995; x ^= x >> 15;
    p[i] = hf(((int)(x % 17) - 8) / 8.0f);
  }
}
struct RefArgs { int ext[3][3]; I aS[3][3], bS[3][3], dS[3][3]; int nk; };
__global__ void ref_sample(const hf* a, const hf* b, const hf* d, RefArgs r, int samples, unsigned seed,
                           float* maxerr, I mT, I nT, I kT) {
  int t = blockIdx.x * blockDim.x + threadIdx.x; if (t >= samples) return;
  unsigned x = t * 2654435761u ^ seed; x ^= x >> 13; x *= 0x5bd1e995; x ^= x >> 15;
  I mi = x % mT; x = x * 1103515245u + 12345u; I ni = (x ^ (x >> 16)) % nT;
  I ao = 0, bo = 0, dof = 0; I q = mi;
  for (int i = 0; i < 3; ++i) { I c = q % r.ext[0][i]; q /= r.ext[0][i]; ao += c * r.aS[0][i]; dof += c * r.dS[0][i]; }
  q = ni; for (int i = 0; i < 3; ++i) { I c = q % r.ext[1][i]; q /= r.ext[1][i]; bo += c * r.bS[1][i]; dof += c * r.dS[1][i]; }
  float acc = 0;
  for (I k = 0; k < kT; ++k) { I q2 = k, ak = 0, bk = 0;
    for (int i = 0; i < 3; ++i) { I c = q2 % r.ext[2][i]; q2 /= r.ext[2][i]; ak += c * r.aS[2][i]; bk += c * r.bS[2][i]; }
    acc += float(a[ao + ak]) * float(b[bo + bk]); }
  float err = fabsf(acc - float(d[dof])) / (1.f + fabsf(acc));
  atomicMax((int*)maxerr, __float_as_int(err));
}

template <class Tile> RunFn pick(bool ak, bool bk) {
  if (!ak && !bk) return run<false, false, Tile>; if (!ak && bk) return run<false, true, Tile>;
  if (ak && !bk) return run<true, false, Tile>; return run<true, true, Tile>;
}

int main(int argc, char** argv) {
  FILE* f = fopen(argv[1], "r"); char line[512];
  cublasHandle_t h; cublasCreate(&h);
  cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
  printf("id expr m n k tile gett_us gemm_us ratio maxerr\n");
  while (fgets(line, sizeof line, f)) {
    if (line[0] == '#') continue;
    int id; char expr[128], exts[256]; if (sscanf(line, "%d %127s %255s", &id, expr, exts) != 3) continue;
    Case k = parse(expr, exts);
    // groups
    std::vector<char> M, N, K;
    for (char c : k.c) (k.a.find(c) != std::string::npos ? M : N).push_back(c);
    for (char c : k.a) if (k.c.find(c) == std::string::npos) K.push_back(c);
    if (M.size() > 3 || N.size() > 3 || K.size() > 3) { printf("%d skip rank\n", id); continue; }
    auto sortby = [&](std::vector<char>& g, const std::string& t) {
      std::sort(g.begin(), g.end(), [&](char x, char y) { return stride_of(t, x, k.ext) < stride_of(t, y, k.ext); }); };
    char a0 = k.a[0], b0 = k.b[0];
    bool aK = std::find(K.begin(), K.end(), a0) != K.end();
    bool bK = std::find(K.begin(), K.end(), b0) != K.end();
    if (aK && bK && a0 != b0) { printf("%d skip mixed-k\n", id); continue; }
    sortby(M, aK ? k.c : k.a); sortby(N, bK ? k.c : k.b); sortby(K, aK ? k.a : k.b);
    RefArgs r{}; int ext[3][3]; I aM[3], aKs[3], bN[3], bKs[3], dM[3], dN[3];
    std::vector<char>* G[3] = {&M, &N, &K};
    I tot[3] = {1, 1, 1};
    for (int g = 0; g < 3; ++g) for (int i = 0; i < 3; ++i) {
      bool has = i < (int)G[g]->size(); char m = has ? (*G[g])[i] : 0;
      ext[g][i] = has ? k.ext[m - 'a'] : 1; tot[g] *= ext[g][i]; r.ext[g][i] = ext[g][i];
      I sa = has ? stride_of(k.a, m, k.ext) : 0, sb = has ? stride_of(k.b, m, k.ext) : 0, sd = has ? stride_of(k.c, m, k.ext) : 0;
      r.aS[g][i] = sa < 0 ? 0 : sa; r.bS[g][i] = sb < 0 ? 0 : sb; r.dS[g][i] = sd < 0 ? 0 : sd;
      if (g == 0) { aM[i] = r.aS[0][i]; dM[i] = r.dS[0][i]; }
      if (g == 1) { bN[i] = r.bS[1][i]; dN[i] = r.dS[1][i]; }
      if (g == 2) { aKs[i] = r.aS[2][i]; bKs[i] = r.bS[2][i]; }
    }
    size_t na = 1, nb = 1, nd = 1; for (char c : k.a) na *= k.ext[c - 'a']; for (char c : k.b) nb *= k.ext[c - 'a']; for (char c : k.c) nd *= k.ext[c - 'a'];
    hf *A, *B, *D, *X, *Y, *Z; CK(cudaMalloc(&A, na * 2)); CK(cudaMalloc(&B, nb * 2)); CK(cudaMalloc(&D, nd * 2));
    CK(cudaMalloc(&X, tot[0] * tot[2] * 2)); CK(cudaMalloc(&Y, tot[2] * tot[1] * 2)); CK(cudaMalloc(&Z, tot[0] * tot[1] * 2));
    fill<<<1024, 256>>>(A, na, 1); fill<<<1024, 256>>>(B, nb, 2); fill<<<1024, 256>>>(X, tot[0] * tot[2], 3); fill<<<1024, 256>>>(Y, tot[1] * tot[2], 4);
    float* err; CK(cudaMalloc(&err, 4));
    PS ps = make_shape(make_shape(ext[0][0], ext[0][1], ext[0][2]), make_shape(ext[1][0], ext[1][1], ext[1][2]),
                       make_shape(ext[2][0], ext[2][1], ext[2][2]), make_shape(1));
    // GEMM reference time
    float one = 1, zero = 0, ms;
    auto gemm = [&] { cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, tot[0], tot[1], tot[2], &one, X, CUDA_R_16F, tot[0], Y, CUDA_R_16F, tot[2], &zero, Z, CUDA_R_16F, tot[0], CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT); };
    auto timeit = [&](auto fn) { for (int i = 0; i < 3; ++i) fn(); std::vector<float> v;
      for (int r2 = 0; r2 < 7; ++r2) { cudaEventRecord(e0); for (int i = 0; i < 5; ++i) fn(); cudaEventRecord(e1); cudaEventSynchronize(e1);
        cudaEventElapsedTime(&ms, e0, e1); v.push_back(ms * 1000 / 5); }
      std::sort(v.begin(), v.end()); return v[v.size() / 2]; };
    float tg = timeit(gemm);
    const char* names[4] = {"flat", "mid", "hier", "khier"};
    RunFn fns[4] = {pick<TFlat>(aK, bK), pick<TMid>(aK, bK), pick<THier>(aK, bK), pick<TKh>(aK, bK)};
    for (int t = 0; t < 4; ++t) {
      CK(cudaMemset(D, 0xff, nd * 2));
      cutlass::Status s = fns[t](ps, A, aM, aKs, B, bN, bKs, D, dM, dN, 0);
      if (s != cutlass::Status::kSuccess) { printf("%d %s status %d\n", id, names[t], (int)s); continue; }
      CK(cudaDeviceSynchronize());
      CK(cudaMemset(err, 0, 4));
      ref_sample<<<16, 256>>>(A, B, D, r, 4096, 77, err, tot[0], tot[1], tot[2]);
      float he; CK(cudaMemcpy(&he, err, 4, cudaMemcpyDeviceToHost));
      float tt = timeit([&] { fns[t](ps, A, aM, aKs, B, bN, bKs, D, dM, dN, 0); });
      printf("%d %s %lld %lld %lld %s %.1f %.1f %.3f %.2e %s%s\n", id, expr, (long long)tot[0], (long long)tot[1], (long long)tot[2], names[t], tt, tg, tg / tt, he,
             aK ? "A:K" : "A:M", bK ? " B:K" : " B:N");
      fflush(stdout);
    }
    cudaFree(A); cudaFree(B); cudaFree(D); cudaFree(X); cudaFree(Y); cudaFree(Z); cudaFree(err);
  }
}
