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
int cupermPlanTranspose(void* h, void** p, int rank, const int64_t* e, const int* perm, int type, const int64_t* is,
                        const int64_t* os) {
  (void)h; (void)rank; (void)e; (void)perm; (void)type; (void)is; (void)os;
  *p = (void*)(uintptr_t)(0x2000 + 16 * ++plans); return 0;
}
int cupermPlanTransposeMeasure(void* h, void** p, int rank, const int64_t* e, const int* perm, int type,
                               const int64_t* is, const int64_t* os, void* a, void* b, void* s) {
  (void)a; (void)b; (void)s; return cupermPlanTranspose(h, p, rank, e, perm, type, is, os);
}
int cupermExecute(void* p, const void* alpha, const void* in, const void* beta, void* out, void* stream) {
  (void)p; (void)alpha; (void)in; (void)beta; (void)out; (void)stream; return 0;
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
int cupermContractionGetWorkspaceSize(void* p, size_t* n) { (void)p; *n = 0; return 0; }
int cupermContract(void* p, const void* alpha, const void* a, const void* b, const void* beta, const void* c,
                   void* d, void* ws, size_t wsb, void* stream) {
  (void)p; (void)alpha; (void)a; (void)b; (void)beta; (void)c; (void)d; (void)ws; (void)wsb; (void)stream;
  return 0;
}
int cupermContractionPlanDestroy(void* p) { (void)p; return 0; }
int cupermContractionPlanGetInfo(void* p, void* info) { (void)p; memset(info, 0, 128); return 0; }

static int current;
int cudaGetDevice(int* d) { *d = current; return 0; }
int cudaSetDevice(int d) { current = d; return 0; }
const char* cudaGetErrorString(int e) { (void)e; return "stub"; }
