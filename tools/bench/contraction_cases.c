#include "contraction_cases.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void bench_ctr_modes_of(const bench_ctr_case* c, bench_ctr_modes* m)
{
    static const int slot[3] = {3, 0, 1}; /* spec order D-A-B */
    memset(m, 0, sizeof *m);
    const char* p = c->spec;
    for (int t = 0; t < 3; ++t) {
        int r = 0;
        for (; *p && *p != '-'; ++p, ++r) {
            m->modes[slot[t]][r] = *p;
            m->extents[slot[t]][r] = c->extent[*p - 'a'];
        }
        m->rank[slot[t]] = r;
        if (*p == '-') ++p;
    }
    m->rank[2] = m->rank[3];
    memcpy(m->modes[2], m->modes[3], sizeof m->modes[3]);
    memcpy(m->extents[2], m->extents[3], sizeof m->extents[3]);
}

int bench_ctr_parse(const char* text, bench_ctr_case* out, int max, char* err, size_t err_size)
{
    int n = 0, lineNo = 0;
    const char* line = text;
    while (line && *line) {
        const char* end = strchr(line, '\n');
        char buf[512];
        size_t len = end ? (size_t)(end - line) : strlen(line);
        if (len >= sizeof buf) len = sizeof buf - 1;
        memcpy(buf, line, len);
        buf[len] = '\0';
        line = end ? end + 1 : NULL;
        ++lineNo;
        if (buf[0] == '#' || buf[0] == '\0') continue;
        if (n == max) break;
        bench_ctr_case* c = &out[n];
        memset(c, 0, sizeof *c);
        char ext[256];
        if (sscanf(buf, "%d %79s %255s", &c->id, c->spec, ext) != 3) {
            snprintf(err, err_size, "line %d: expected \"id D-A-B e_a,e_b,...\"", lineNo);
            return -1;
        }
        int letters = 0;
        for (const char* s = c->spec; *s; ++s) {
            if (*s == '-') continue;
            if (*s < 'a' || *s > 'z') {
                snprintf(err, err_size, "line %d: modes must be letters a-z", lineNo);
                return -1;
            }
            if (*s - 'a' + 1 > letters) letters = *s - 'a' + 1;
        }
        char* s = ext;
        for (int i = 0; i < letters; ++i) {
            c->extent[i] = strtoll(s, &s, 10);
            if (c->extent[i] < 1) {
                snprintf(err, err_size, "line %d: extent %d of %d missing or < 1", lineNo, i + 1, letters);
                return -1;
            }
            if (*s == ',') ++s;
        }
        ++n;
    }
    return n;
}

static uint64_t next(uint64_t* s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static int range(uint64_t* s, int lo, int hi) { return lo + (int)(next(s) % (uint64_t)(hi - lo + 1)); }

static void shuffle(uint64_t* s, char* x, int n)
{
    for (int i = n - 1; i > 0; --i) {
        const int j = range(s, 0, i);
        const char t = x[i]; x[i] = x[j]; x[j] = t;
    }
}

static double volume(const char* letters, int n, const int64_t* extent)
{
    double v = 1;
    for (int i = 0; i < n; ++i) v *= (double)extent[letters[i] - 'a'];
    return v;
}

/* Case i of a suite: A, B and D's letters shuffled, the spec written; extents left to the caller. */
static bench_ctr_case* shuffled_case(uint64_t* s, int i, char* A, int rA, char* B, int rB, char* D, int rD,
                                     bench_ctr_case* out)
{
    shuffle(s, A, rA);
    shuffle(s, B, rB);
    shuffle(s, D, rD);
    bench_ctr_case* c = &out[i];
    memset(c, 0, sizeof *c);
    c->id = i + 1;
    snprintf(c->spec, sizeof c->spec, "%.*s-%.*s-%.*s", rD, D, rA, A, rB, B);
    return c;
}

/* Whether case c with its large modes' extents set to L keeps every operand within targetElements
 * and the contraction within maxFlops. */
static int large_fit(const bench_ctr_case* c, const int* large, int total, int64_t L, const char* A, int rA,
                     const char* B, int rB, const char* D, int rD, int64_t targetElements, double maxFlops)
{
    bench_ctr_case t = *c;
    for (int j = 0; j < total; ++j)
        if (large[j]) t.extent[j] = L;
    double biggest = volume(A, rA, t.extent);
    if (volume(B, rB, t.extent) > biggest) biggest = volume(B, rB, t.extent);
    if (volume(D, rD, t.extent) > biggest) biggest = volume(D, rD, t.extent);
    return biggest <= (double)targetElements && bench_ctr_flops(&t) <= maxFlops;
}

int bench_ctr_random(uint64_t seed, int count, int64_t targetElements, double maxFlops, bench_ctr_case* out)
{
    uint64_t s = seed * 0x2545f4914f6cdd1dull + 17;
    for (int i = 0; i < count; ++i) {
        int nM, nN, nK;
        do {
            nM = range(&s, 1, 4);
            nN = range(&s, 1, 4);
            nK = range(&s, 1, 4);
        } while (nM + nK > 8 || nN + nK > 8 || nM + nN > 8);
        /* Letters: D's modes a.. (M then N), then the contracted ones. */
        char M[4], N[4], K[4], A[8], B[8], D[8];
        for (int j = 0; j < nM; ++j) M[j] = (char)('a' + j);
        for (int j = 0; j < nN; ++j) N[j] = (char)('a' + nM + j);
        for (int j = 0; j < nK; ++j) K[j] = (char)('a' + nM + nN + j);
        int rA = 0, rB = 0, rD = 0;
        for (int j = 0; j < nM; ++j) A[rA++] = M[j], D[rD++] = M[j];
        for (int j = 0; j < nN; ++j) B[rB++] = N[j], D[rD++] = N[j];
        for (int j = 0; j < nK; ++j) A[rA++] = K[j], B[rB++] = K[j];
        bench_ctr_case* c = shuffled_case(&s, i, A, rA, B, rB, D, rD, out);
        /* Up to four leading modes of each input are large; the rest 2..8. */
        int large[26] = {0};
        const int lA = range(&s, 1, rA < 4 ? rA : 4), lB = range(&s, 1, rB < 4 ? rB : 4);
        for (int j = 0; j < lA; ++j) large[A[j] - 'a'] = 1;
        for (int j = 0; j < lB; ++j) large[B[j] - 'a'] = 1;
        const int total = nM + nN + nK;
        for (int j = 0; j < total; ++j) c->extent[j] = large[j] ? 1 : range(&s, 2, 8);
        /* Grow the large extents together while the largest tensor stays within the target;
         * shrink the small ones first if even that is too much. */
        for (;;) {
            double biggest = volume(A, rA, c->extent);
            if (volume(B, rB, c->extent) > biggest) biggest = volume(B, rB, c->extent);
            if (volume(D, rD, c->extent) > biggest) biggest = volume(D, rD, c->extent);
            if (biggest <= (double)targetElements) break;
            for (int j = 0; j < total; ++j)
                if (!large[j] && c->extent[j] > 2) c->extent[j]--;
        }
        /* The largest common extent L >= 2 of the large modes that fits, if any: fits() grows with
         * L, so doubling then bisecting finds the L that counting up from 2 would (a count took
         * up to 10^8 steps per case where one mode alone is large). */
        int64_t lo = 1, hi = 2; /* fits(lo) or lo == 1; !fits(hi) once found */
        while (large_fit(c, large, total, hi, A, rA, B, rB, D, rD, targetElements, maxFlops)) lo = hi, hi *= 2;
        while (hi - lo > 1) {
            const int64_t mid = lo + (hi - lo) / 2;
            if (large_fit(c, large, total, mid, A, rA, B, rB, D, rD, targetElements, maxFlops)) lo = mid;
            else hi = mid;
        }
        if (lo >= 2)
            for (int j = 0; j < total; ++j)
                if (large[j]) c->extent[j] = lo;
        for (int j = 0; j < total; ++j)
            if (c->extent[j] < 1) c->extent[j] = 1;
    }
    return count;
}

/* short-k's letters for case i: D's free modes a.. (nM of A, then nN of B: letters 0 .. nM + nN - 1),
 * K of 8-64 in one or two modes, a batch mode in a quarter of the cases, every operand's letters
 * shuffled; K's and the batch's extents in extent (the free ones are the caller's). */
static bench_ctr_case* short_k_letters(uint64_t* s, int i, int nM, int nN, int64_t* extent, char* A,
                                       int* rA, char* B, int* rB, char* D, int* rD, bench_ctr_case* out)
{
    const int nK = range(s, 1, 2), nL = range(s, 0, 3) == 0;
    int letter = 0;
    *rA = *rB = *rD = 0;
    memset(extent, 0, 26 * sizeof *extent);
    for (int j = 0; j < nM; ++j, ++letter) A[(*rA)++] = D[(*rD)++] = (char)('a' + letter);
    for (int j = 0; j < nN; ++j, ++letter) B[(*rB)++] = D[(*rD)++] = (char)('a' + letter);
    /* K: one mode of 8-64 or two whose product is 8-64. */
    if (nK == 1) {
        extent[letter] = range(s, 8, 64);
    } else {
        extent[letter] = range(s, 2, 8);
        extent[letter + 1] = range(s, (int)((8 + extent[letter] - 1) / extent[letter]), (int)(64 / extent[letter]));
    }
    for (int j = 0; j < nK; ++j, ++letter) A[(*rA)++] = B[(*rB)++] = (char)('a' + letter);
    if (nL) {
        extent[letter] = range(s, 2, 8);
        A[(*rA)++] = B[(*rB)++] = D[(*rD)++] = (char)('a' + letter++);
    }
    return shuffled_case(s, i, A, *rA, B, *rB, D, *rD, out);
}

/* Output-bound: neither input larger than D. */
static int output_bound(const char* A, int rA, const char* B, int rB, const char* D, int rD, const int64_t* extent)
{
    return volume(A, rA, extent) <= volume(D, rD, extent) && volume(B, rB, extent) <= volume(D, rD, extent);
}

/* D's size: targetElements / 8 to targetElements elements, log-uniform. */
static double short_k_volume(uint64_t* s, int64_t targetElements)
{
    return (double)targetElements / 8 * pow(8.0, (double)(next(s) % 1000) / 1000.0);
}

/* short-k's free modes: nM of A and nN of B, one to three each. */
static void short_k_groups(uint64_t* s, int* nM, int* nN)
{
    *nM = range(s, 1, 3);
    *nN = range(s, 1, 3);
}

/* Every free extent w_j L (w_j 0.5-1.5, a few of them 2-6 instead), L grown until D holds want. */
static void short_k_extents(uint64_t* s, int nFree, const char* D, int rD, double want, int64_t* extent)
{
    double w[6];
    int grows = 0;
    for (int j = 0; j < nFree; ++j) {
        w[j] = range(s, 0, 3) == 0 ? -range(s, 2, 6) : 0.5 + (double)(next(s) % 1000) / 1000.0;
        grows += w[j] > 0;
    }
    if (!grows) w[0] = 1.0;
    int64_t trial[26];
    for (int64_t L = 2;; L = L + 1 > L * 51 / 50 ? L + 1 : L * 51 / 50) {
        memcpy(trial, extent, sizeof trial);
        for (int j = 0; j < nFree; ++j) {
            const int64_t e = w[j] < 0 ? (int64_t)-w[j] : (int64_t)(w[j] * (double)L + 0.5);
            trial[j] = e > 1 ? e : 1;
        }
        if (volume(D, rD, trial) >= want) break;
    }
    memcpy(extent, trial, sizeof trial);
}

/* short-k-modes' free modes: two or three of A and of B, five at least. */
static void short_k_modes_groups(uint64_t* s, int* nM, int* nN)
{
    *nM = range(s, 2, 3);
    *nN = *nM == 2 ? 3 : range(s, 2, 3);
}

/* Free extents from 2-8, a random one grown by about a quarter at a time (to 40 at most) until D
 * holds want. */
static void short_k_modes_extents(uint64_t* s, int nFree, const char* D, int rD, double want, int64_t* extent)
{
    for (int j = 0; j < nFree; ++j) extent[j] = range(s, 2, 8);
    for (int grown = 1; grown && volume(D, rD, extent) < want;) {
        grown = 0;
        for (int tries = 0; tries < 4 * nFree && !grown; ++tries) {
            int64_t* e = &extent[range(s, 0, nFree - 1)];
            if (*e < 40) *e = *e + 1 + *e / 4 > 40 ? 40 : *e + 1 + *e / 4, grown = 1;
        }
    }
}

/* A short-k suite: per case the free modes (groups), the letters, D's size (targetElements / 8 to
 * targetElements, log-uniform) and the free extents (extents), drawn again until the case is
 * output-bound. */
static int short_k_suite(uint64_t s, int count, int64_t targetElements, void (*groups)(uint64_t*, int*, int*),
                         void (*extents)(uint64_t*, int, const char*, int, double, int64_t*), bench_ctr_case* out)
{
    for (int i = 0; i < count; ++i) {
        char A[8], B[8], D[8];
        int rA, rB, rD;
        int64_t extent[26];
        bench_ctr_case* c;
        do {
            int nM, nN;
            groups(&s, &nM, &nN);
            c = short_k_letters(&s, i, nM, nN, extent, A, &rA, B, &rB, D, &rD, out);
            extents(&s, nM + nN, D, rD, short_k_volume(&s, targetElements), extent);
            memcpy(c->extent, extent, sizeof extent);
        } while (!output_bound(A, rA, B, rB, D, rD, c->extent));
    }
    return count;
}

int bench_ctr_short_k(uint64_t seed, int count, int64_t targetElements, bench_ctr_case* out)
{
    return short_k_suite(seed * 0x9e3779b97f4a7c15ull + 101, count, targetElements, short_k_groups, short_k_extents, out);
}

int bench_ctr_short_k_modes(uint64_t seed, int count, int64_t targetElements, bench_ctr_case* out)
{
    return short_k_suite(seed * 0x9e3779b97f4a7c15ull + 307, count, targetElements, short_k_modes_groups,
                         short_k_modes_extents, out);
}

double bench_ctr_flops(const bench_ctr_case* c)
{
    int64_t m, n, k, b;
    bench_ctr_gemm_shape(c, &m, &n, &k, &b);
    return 2.0 * (double)m * (double)n * (double)k * (double)b;
}

double bench_ctr_bytes(const bench_ctr_case* c, size_t abSize, size_t dSize)
{
    bench_ctr_modes md;
    bench_ctr_modes_of(c, &md);
    double v[4] = {1, 1, 1, 1};
    for (int t = 0; t < 4; ++t)
        for (int i = 0; i < md.rank[t]; ++i) v[t] *= (double)md.extents[t][i];
    return (v[0] + v[1]) * (double)abSize + v[3] * (double)dSize;
}

static int has(const bench_ctr_modes* md, int t, int32_t label)
{
    for (int i = 0; i < md->rank[t]; ++i)
        if (md->modes[t][i] == label) return 1;
    return 0;
}

void bench_ctr_gemm_shape(const bench_ctr_case* c, int64_t* m, int64_t* n, int64_t* k, int64_t* batch)
{
    bench_ctr_modes md;
    bench_ctr_modes_of(c, &md);
    *m = *n = *k = *batch = 1;
    for (int l = 'a'; l <= 'z'; ++l) {
        const int a = has(&md, 0, l), b = has(&md, 1, l), d = has(&md, 3, l);
        const int64_t e = c->extent[l - 'a'];
        if (a && b && d) *batch *= e;
        else if (a && b) *k *= e;
        else if (a && d) *m *= e;
        else if (b && d) *n *= e;
    }
}
