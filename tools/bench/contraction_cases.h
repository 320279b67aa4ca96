/* Contraction benchmark cases: the TCCG list and cuTT/TAL-SH-style random
 * contractions, as einsum-like letter specs ("abc-bda-dc" = D-A-B, column-major,
 * first letter stride-1) with one extent per letter. Plain C. */
#ifndef CUPERM_BENCH_CONTRACTION_CASES_H
#define CUPERM_BENCH_CONTRACTION_CASES_H

#include <stddef.h>
#include <stdint.h>

#include "cuperm.h"

#define BENCH_CTR_MAX_CASES 4096

typedef struct {
    int id;
    char spec[80];        /* "D-A-B" letters */
    int64_t extent[26];   /* by letter - 'a' */
} bench_ctr_case;

/* Operand letters of a case: which = 0 A, 1 B, 3 D. */
typedef struct {
    int rank[4];
    int32_t modes[4][26];
    int64_t extents[4][26];
} bench_ctr_modes;

void bench_ctr_modes_of(const bench_ctr_case* c, bench_ctr_modes* m);

/* Parses "id spec e_a,e_b,..." lines ('#' comments); returns the count, or -1 with err. */
int bench_ctr_parse(const char* text, bench_ctr_case* out, int max, char* err, size_t err_size);

/*
 * cuTT's TAL-SH study: random patterns, tensors of rank up to 8, up to four
 * large (leading) extents per input tensor, the others 2..8, the large ones
 * scaled so that the largest tensor holds close to (at most) targetElements
 * and the contraction does at most maxFlops (a device-time budget).
 */
int bench_ctr_random(uint64_t seed, int count, int64_t targetElements, double maxFlops,
                     bench_ctr_case* out);

/*
 * Output-bound contractions (the D-tile GETT kernel's domain, plan/contraction/gett_dtile.h): K
 * of 8-64 elements in one or two modes, one to three M and N modes each, a batch mode in a quarter
 * of them, every operand's modes in random order (so D interleaves M and N), D of
 * targetElements / 8 to targetElements elements (log-uniform).
 */
int bench_ctr_short_k(uint64_t seed, int count, int64_t targetElements, bench_ctr_case* out);

/*
 * short-k with D of 5-6 small modes (2-40 elements each, TCCG 31-48's form): two or three M and
 * N modes each, five at least, so that D-tiles of whole modes are often contiguous blocks of D (the D-tile
 * kernel's packed path, plan/contraction/gett_dtile.h), and often not.
 */
int bench_ctr_short_k_modes(uint64_t seed, int count, int64_t targetElements, bench_ctr_case* out);

/* Real flops (2 per multiply-add) and the fewest bytes (A, B read, D written once). */
double bench_ctr_flops(const bench_ctr_case* c);
double bench_ctr_bytes(const bench_ctr_case* c, size_t abSize, size_t dSize);

/* GEMM sizes: m = free-in-A, n = free-in-B, k = contracted, batch (all three). */
void bench_ctr_gemm_shape(const bench_ctr_case* c, int64_t* m, int64_t* n, int64_t* k, int64_t* batch);

#endif
