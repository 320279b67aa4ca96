/* A do-nothing libcuperm for measuring the Python package's host overhead on a machine without a GPU
 * (bench/python/overhead_stub.py): every entry point the package binds, plus the CUDA runtime calls it
 * looks up through libcuperm, returning success at once. Build: cc -O2 -shared -fPIC -o libstub.so stub_cuperm.c */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

static int plans;
const char* cupermGetErrorString(int s) { (void)s; return "CUPERM_STATUS_STUB"; }
const char* cupermGetLastErrorMessage(void) { return ""; }
int cupermGetVersion(void) { return 100; }
size_t cupermDataTypeSize(int t) { (void)t; return 4; }
int cupermCreate(void** h) { *h = (void*)0x1000; return 0; }
int cupermDestroy(void* h) { (void)h; return 0; }
int cupermHandleWritePlanCache(void* h, const char* path, int* n) { (void)h; (void)path; if (n) *n = 0; return 0; }
int cupermHandleReadPlanCache(void* h, const char* path, int* n) { (void)h; (void)path; *n = 0; return 0; }
int cupermPlanTranspose(void* h, void** p, int rank, const int64_t* e, const int* perm, int type, const int64_t* is,
                        const int64_t* os) {
  (void)h; (void)rank; (void)e; (void)perm; (void)type; (void)is; (void)os;
  *p = (void*)(uintptr_t)(0x2000 + 16 * ++plans); return 0;
}
int cupermPlanTransposeMeasure(void* h, void** p, int rank, const int64_t* e, const int* perm, int type,
                               const int64_t* is, const int64_t* os, void* a, void* b, void* s) {
  (void)a; (void)b; (void)s; return cupermPlanTranspose(h, p, rank, e, perm, type, is, os);
}
/* What the last cupermExecute / cupermContract got, and the status both return: the tests read and
 * set these through ctypes, to check the C calls cuperm._native makes through the functions' addresses. */
uintptr_t stub_last_execute[6];
uintptr_t stub_last_contract[10];
int stub_status;

int cupermExecute(void* p, const void* alpha, const void* in, const void* beta, void* out, void* stream) {
  const void* args[6] = {p, alpha, in, beta, out, stream};
  for (int i = 0; i < 6; ++i) stub_last_execute[i] = (uintptr_t)args[i];
  return stub_status;
}
int cupermPlanDestroy(void* p) { (void)p; return 0; }
int cupermPlanGetInfo(void* p, void* info) { (void)p; memset(info, 0, 64); return 0; }
int cupermPredictTransposeTime(void* h, int r, const int64_t* e, const int* p, int t, const int64_t* is,
                               const int64_t* os, double* s) {
  (void)h; (void)r; (void)e; (void)p; (void)t; (void)is; (void)os; *s = 0; return 0;
}
int cupermPlanContraction(void* h, void** p, const void* a, const void* b, const void* c, const void* d, int ct,
                          int pref) {
  (void)h; (void)a; (void)b; (void)c; (void)d; (void)ct; (void)pref;
  *p = (void*)(uintptr_t)(0x3000 + 16 * ++plans); return 0;
}
int stub_last_algo = -1; /* the algorithm of the last cupermPlanContractionAlgo */
int cupermPlanContractionAlgo(void* h, void** p, const void* a, const void* b, const void* c, const void* d, int ct,
                              int pref, int algo) {
  stub_last_algo = algo;
  return cupermPlanContraction(h, p, a, b, c, d, ct, pref);
}
size_t stub_workspace_bytes; /* what plans made from now on need (tests set it) */
int cupermContractionGetWorkspaceSize(void* p, size_t* n) { (void)p; *n = stub_workspace_bytes; return 0; }
int cupermContract(void* p, const void* alpha, const void* a, const void* b, const void* beta, const void* c,
                   void* d, void* ws, size_t wsb, void* stream) {
  const void* args[10] = {p, alpha, a, b, beta, c, d, ws, (void*)(uintptr_t)wsb, stream};
  for (int i = 0; i < 10; ++i) stub_last_contract[i] = (uintptr_t)args[i];
  return stub_status;
}
int cupermContractionPlanDestroy(void* p) { (void)p; return 0; }
int cupermContractionPlanGetInfo(void* p, void* info) { (void)p; memset(info, 0, 136); return 0; } /* sizeof(cupermContractionInfo_t) */

static int current;
int cudaGetDevice(int* d) { *d = current; return 0; }
int cudaSetDevice(int d) { current = d; return 0; }
const char* cudaGetErrorString(int e) { (void)e; return "stub"; }
