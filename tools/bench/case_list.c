#include "bench_case.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

int bench_case_list_push(bench_case_list* list, const bench_case* c)
{
    if (list->count == list->capacity) {
        size_t cap = list->capacity ? 2 * list->capacity : 64;
        bench_case* items = realloc(list->items, cap * sizeof *items);
        if (!items) return -1;
        list->items = items;
        list->capacity = cap;
    }
    list->items[list->count++] = *c;
    return 0;
}

void bench_case_list_free(bench_case_list* list)
{
    free(list->items);
    list->items = NULL;
    list->count = list->capacity = 0;
}

int64_t bench_case_volume(const bench_case* c)
{
    int64_t v = 1;
    for (int i = 0; i < c->rank; ++i) v *= c->extents[i];
    return v;
}

int bench_is_permutation(const int* perm, int rank)
{
    unsigned char seen[BENCH_MAX_RANK] = {0};
    if (rank < 1 || rank > BENCH_MAX_RANK) return 0;
    for (int i = 0; i < rank; ++i) {
        if (perm[i] < 0 || perm[i] >= rank || seen[perm[i]]) return 0;
        seen[perm[i]] = 1;
    }
    return 1;
}

/* Joins rank integers with commas, stopping cleanly when buf is full. */
static void join(const int64_t* values, int rank, char* buf, size_t size)
{
    size_t used = 0;
    if (size == 0) return;
    buf[0] = '\0';
    for (int i = 0; i < rank && used < size; ++i) {
        int n = snprintf(buf + used, size - used, i ? ",%lld" : "%lld", (long long)values[i]);
        if (n < 0) break;
        used += (size_t)n;
    }
}

void bench_format_extents(const bench_case* c, char* buf, size_t size)
{
    join(c->extents, c->rank, buf, size);
}

void bench_format_perm(const bench_case* c, char* buf, size_t size)
{
    int64_t p[BENCH_MAX_RANK];
    for (int i = 0; i < c->rank; ++i) p[i] = c->perm[i];
    join(p, c->rank, buf, size);
}

int bench_fail(char* err, size_t err_size, const char* fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (err_size) vsnprintf(err, err_size, fmt, ap);
    va_end(ap);
    return -1;
}
