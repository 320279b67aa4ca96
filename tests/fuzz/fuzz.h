/*
 * cuperm-fuzz: a differential fuzz test of contractions and transposes against a
 * naive double-precision reference. Shared between the GPU runner (fuzz_gpu.c,
 * public API only) and the CPU runner (fuzz_cpu.c, the planner's candidate
 * layouts executed step by step by ctr_cpu_exec):
 *   fuzz_gen.c    random and fixed (regression) problems, drawn from a seed
 *   fuzz_check.c  host data, the reference, the error bound, the element and footprint checks
 *   fuzz_self.c   --self-test: the checker must flag corrupted results
 *   fuzz_main.c   command line
 */
#ifndef CUPERM_FUZZ_H
#define CUPERM_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "common/cases.h"
#include "support/rng.h"
#include "contraction/ctr_random.h"
#include "contraction/ctr_reference.h"
#include "cuperm.h"

/* Guard zone before the first and after the last element of every buffer (bytes, 256-aligned). */
#define FUZZ_GUARD 512

/* ---- contraction cases ----------------------------------------------------------- */

typedef enum { FUZZ_WS_NULL = 0, FUZZ_WS_EXACT = 1, FUZZ_WS_LARGER = 2 } fuzz_ws_mode;

typedef struct {
    const char* name;        /* regression cases: their name; random: NULL */
    uint64_t seed;           /* base seed (random cases) */
    int64_t index;           /* case number: seed + index drew it */
    ctr_random_case c;       /* descriptors desc[4] point into c's arrays */
    cupermComputeType_t compute;
    ctr_cplx alpha, beta;    /* as passed (rounded to the scalar type) */
    int betaZero, aliasCD;
    int64_t base[4];         /* elements from the 256-aligned buffer start to the operand's origin */
    fuzz_ws_mode ws;
    int wsExtra;             /* FUZZ_WS_LARGER: this many 256-byte blocks more */
    cupermPlanMode_t planMode;
    int useStream;           /* run on a created non-default stream */
    uint64_t dataSeed;
    int dataKind;            /* 0 random in [-1, 1); 1: A in [-2e-3, -1e-4] (ELU cancellation cases) */
} fuzz_ctr_case;

/* Case number `index` of the run with base seed `seed` (hash(seed) + index seeds it). */
void fuzz_ctr_draw(uint64_t seed, int64_t index, fuzz_ctr_case* k);
/* The fixed regression cases, always run first. */
int fuzz_ctr_regression_count(void);
void fuzz_ctr_regression(int i, fuzz_ctr_case* k);
/* Multi-line human description. */
void fuzz_ctr_describe(FILE* f, const fuzz_ctr_case* k);
/* Product of the contracted extents (1 if none). */
double fuzz_ctr_k(const fuzz_ctr_case* k);
const char* fuzz_op_name(cupermOperator_t op);
const char* fuzz_compute_name(cupermComputeType_t c);

/* ---- host data and the reference ------------------------------------------------- */

/* An operand's buffer: FUZZ_GUARD bytes, n elements, FUZZ_GUARD bytes (and rounding to 256). */
typedef struct {
    cupermDataType_t type;
    size_t es;
    int64_t n;            /* elements: base + span */
    size_t bytes;         /* whole allocation, guards included */
    unsigned char* host;  /* bytes of the whole allocation */
    ctr_cplx* values;     /* n values (complex double) of the elements, [0, n); guarded by
                             FUZZ_GUARD / 16 values on either side (the CPU runner's buffers) */
    ctr_cplx* valuesAlloc;
} fuzz_buffer;

typedef struct {
    fuzz_buffer buf[4];   /* A, B, C, D; buf[2] unused when aliasCD */
    int64_t spanD;
    ctr_cplx* vref;       /* pre-opD reference value per D offset (relative to D's origin) */
    ctr_cplx* want;       /* opD(vref) */
    double* mag;          /* |alpha| sum |opA(a) opB(b)| + |beta opC(c)| per D offset */
    unsigned char* mask;  /* 1 at D offsets that are elements of D */
    double K;
} fuzz_ctr_data;

/* Fills the host buffers (typed bytes, their values, D's guard pattern) and computes the reference. */
int fuzz_ctr_prepare(const fuzz_ctr_case* k, fuzz_ctr_data* d);
void fuzz_ctr_release(fuzz_ctr_data* d);

/* ---- the error bound ------------------------------------------------------------- */

typedef struct {
    double uAcc;  /* unit roundoff of the accumulation */
    double uIn;   /* rounding of the inputs before the products (fast compute modes) */
    double uAB;   /* unit roundoff of A/B's type */
    double uCD;   /* unit roundoff of C/D's type */
    double uEv;   /* operator evaluation error */
    double sub;   /* absolute error floor per term: subnormal spacings of the types involved */
} fuzz_precision;

/* The precision of the GPU execution of a case, from its types and compute type. */
fuzz_precision fuzz_precision_of(const fuzz_ctr_case* k);
/* Everything in double (the CPU runner). */
fuzz_precision fuzz_precision_double(void);

/* Largest admissible |got - opD(vref)| for one real component (see fuzz_check.c). */
double fuzz_bound(const fuzz_precision* p, double K, double mag, double vref, double wantAbs,
                  cupermOperator_t opD, double opParam);

/* Checks every element of D: got[off] (values at D offsets relative to D's origin). Returns the
 * number of failing elements; describes the first in msg. */
int64_t fuzz_check_values(const fuzz_ctr_case* k, const fuzz_ctr_data* d, const fuzz_precision* p,
                          const ctr_cplx* got, char* msg, size_t msglen);

/* Bytes outside the element set: poison_changed_outside (support/poison.h). */

/* D's bytes as values at D offsets (relative to D's origin), from a whole allocation. */
void fuzz_load_d(const fuzz_ctr_case* k, const fuzz_ctr_data* d, const unsigned char* alloc, ctr_cplx* got);

/* ---- transposes ------------------------------------------------------------------- */

typedef enum { FUZZ_TR_PLAIN = 0, FUZZ_TR_ALPHA = 1, FUZZ_TR_ALPHA_BETA = 2 } fuzz_tr_scalars;

typedef struct {
    uint64_t seed;
    int64_t index;
    test_case_t c;
    cupermDataType_t type;
    fuzz_tr_scalars scalars;
    unsigned char alpha[16], beta[16];
    int64_t baseIn, baseOut;  /* element offsets from the 256-aligned buffer start */
    int measure;
    int useStream;
    uint64_t dataSeed;
} fuzz_tr_case;

void fuzz_tr_draw(uint64_t seed, int64_t index, fuzz_tr_case* t);
void fuzz_tr_describe(FILE* f, const fuzz_tr_case* t);

/* ---- runners ------------------------------------------------------------------------ */

typedef struct {
    int64_t passed, failed;
    int64_t pointerBatched, transposedA, transposedB, transposedD, measured, streams, layouts;
    int64_t gett;    /* plans whose description starts with "GETT" (CUPERM_GETT=1 or measured) */
    int64_t gettTma; /* of those, plans on the Hopper TMA kernels (CUPERM_GETT=tma) */
    int64_t padded;  /* TTGT plans whose GEMM runs on padded m, n, k (description "padded from") */
    int fatal;      /* a sticky CUDA error or an error status on a valid problem: stop */
    int quiet;
    int maxReports; /* failures described in full */
} fuzz_stats;

/* GPU: 0 = ran (stats updated), 77 = no GPU. */
int fuzz_gpu_init(void);
void fuzz_gpu_fini(void);
void fuzz_gpu_contraction(const fuzz_ctr_case* k, fuzz_stats* s);
void fuzz_gpu_transpose(const fuzz_tr_case* t, fuzz_stats* s);

/* CPU: every ranked candidate layout of the planner (up to 8). */
void fuzz_cpu_contraction(const fuzz_ctr_case* k, fuzz_stats* s);

/* The repro line of a case. */
void fuzz_print_repro(FILE* f, const char* kind, uint64_t seed, int64_t index, int cpu);

int fuzz_self_test(void);

#endif
