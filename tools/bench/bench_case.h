/* One transpose benchmark case and a growable list of them. Plain C, no CUDA. */
#ifndef CUPERM_BENCH_CASE_H
#define CUPERM_BENCH_CASE_H

#include <stddef.h>
#include <stdint.h>

/* Case files may describe up to this rank; plans accept up to CUPERM_MAX_RANK (32). */
#define BENCH_MAX_RANK 32

typedef struct {
    int rank;
    int64_t extents[BENCH_MAX_RANK]; /* column-major: extents[0] is stride-1 */
    int perm[BENCH_MAX_RANK];        /* output dimension r is input dimension perm[r] */
} bench_case;

typedef struct {
    bench_case* items;
    size_t count;
    size_t capacity;
} bench_case_list;

/* Appends a copy of c; returns 0, or -1 when out of memory. */
int bench_case_list_push(bench_case_list* list, const bench_case* c);
void bench_case_list_free(bench_case_list* list);

int64_t bench_case_volume(const bench_case* c);

/* Writes the printf-style message into err (err_size bytes; nothing if 0) and returns -1. */
int bench_fail(char* err, size_t err_size, const char* fmt, ...);

/* 1 if perm is a permutation of 0..rank-1. */
int bench_is_permutation(const int* perm, int rank);

/* Writes "e0,e1,..." and "p0,p1,..." (the case-file notation); truncates to size. */
void bench_format_extents(const bench_case* c, char* buf, size_t size);
void bench_format_perm(const bench_case* c, char* buf, size_t size);

#endif
