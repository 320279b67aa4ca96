/* The distributed model tools' case lines (dist_case.h). */
#include "dist_case.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Reads "A<sep>B<sep>..." into v (at most max); returns the count, -1 on a malformed list. */
static int parse_list(const char* s, char sep, int64_t* v, int max)
{
    int n = 0;
    while (*s && n < max) {
        char* end;
        v[n++] = strtoll(s, &end, 10);
        if (end == s) return -1;
        s = *end == sep ? end + 1 : end;
        if (*end && *end != sep) return -1;
    }
    return *s ? -1 : n;
}

int dist_case_parse(char* line, dist_case_t* c, const char** why)
{
    char* hash = strchr(line, '#');
    if (hash) *hash = 0;
    char es[256], ps[64];
    if (sscanf(line, "%d %255s %63s %d %d", &c->ranks, es, ps, &c->in_mode, &c->out_mode) != 5) {
        *why = "not RANKS EXTENTS PERM IN_MODE OUT_MODE";
        return strspn(line, " \t\r\n") == strlen(line) ? 0 : -1;
    }
    int64_t pv[CUPERM_MAX_RANK];
    c->rank = parse_list(es, 'x', c->ext, CUPERM_MAX_RANK);
    if (c->rank < 1 || parse_list(ps, ',', pv, CUPERM_MAX_RANK) != c->rank) {
        *why = "EXTENTS (AxBx...) and PERM (a,b,...) must be lists of the same length";
        return -1;
    }
    int seen[CUPERM_MAX_RANK] = {0}, ok = 1;
    for (int i = 0; i < c->rank; ++i) {
        ok &= pv[i] >= 0 && pv[i] < c->rank && !seen[pv[i]]++;
        c->perm[i] = ok ? (int)pv[i] : 0;
    }
    if (!ok || c->in_mode < 0 || c->in_mode >= c->rank || c->out_mode < 0 || c->out_mode >= c->rank ||
        c->ranks < 1) {
        *why = "PERM must be a permutation of 0..rank-1, the modes in 0..rank-1, RANKS >= 1";
        return -1;
    }
    return 1;
}

int dist_case_next(FILE* f, dist_case_t* c, int* id)
{
    char line[512];
    while (fgets(line, sizeof line, f)) {
        const char* why;
        const int got = dist_case_parse(line, c, &why);
        if (got < 0) fprintf(stderr, "case %d: %s: %s", (*id)++, why, line);
        if (got) return got;
    }
    return 0;
}

cupermStatus_t dist_case_layouts(const dist_case_t* c, cuperm_dist_layout_t* in, cuperm_dist_layout_t* out)
{
    int64_t ext_o[CUPERM_MAX_RANK];
    for (int i = 0; i < c->rank; ++i) ext_o[i] = c->ext[c->perm[i]];
    int mi[1] = {c->in_mode}, mo[1] = {c->out_mode}, g[1] = {c->ranks};
    const cupermDistTensorDescriptor_t din = {c->rank, c->ext, CUPERM_R_32F, 1, mi, g, NULL, NULL};
    const cupermDistTensorDescriptor_t dout = {c->rank, ext_o, CUPERM_R_32F, 1, mo, g, NULL, NULL};
    cupermStatus_t st = cuperm_dist_layout_init(in, &din, c->ranks, "in");
    return st ? st : cuperm_dist_layout_init(out, &dout, c->ranks, "out");
}
