#include "case_parse.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Extents above this cannot describe a tensor that fits in any GPU memory. */
#define BENCH_MAX_EXTENT ((int64_t)1 << 40)

static const char* skip_blanks(const char* s)
{
    while (*s == ' ' || *s == '\t' || *s == '\r') ++s;
    return s;
}

/* Reads a comma-separated list of non-negative integers from *s into values.
 * Returns the count, or -1 with err set. Stops at the first blank or end. */
static int read_list(const char** s, const char* what, int64_t* values, char* err, size_t err_size)
{
    const char* p = *s;
    int n = 0;
    for (;;) {
        if (!isdigit((unsigned char)*p))
            return bench_fail(err, err_size, "%s entry %d: expected a non-negative integer at \"%.20s\"",
                        what, n, p);
        if (n == BENCH_MAX_RANK)
            return bench_fail(err, err_size, "%s has more than %d entries (the largest rank)", what,
                        BENCH_MAX_RANK);
        errno = 0;
        char* end;
        long long v = strtoll(p, &end, 10);
        if (errno == ERANGE || v > BENCH_MAX_EXTENT)
            return bench_fail(err, err_size, "%s entry %d is too large (at most 2^40)", what, n);
        values[n++] = v;
        p = end;
        if (*p != ',') break;
        ++p;
    }
    *s = p;
    return n;
}

int bench_parse_case(const char* line, bench_case* out, char* err, size_t err_size)
{
    int64_t ext[BENCH_MAX_RANK], perm[BENCH_MAX_RANK];
    const char* p = skip_blanks(line);

    int rank = read_list(&p, "extents", ext, err, err_size);
    if (rank < 0) return -1;
    if (*p != ' ' && *p != '\t')
        return bench_fail(err, err_size, "expected a blank between extents and permutation at \"%.20s\"",
                    p);
    p = skip_blanks(p);
    int prank = read_list(&p, "permutation", perm, err, err_size);
    if (prank < 0) return -1;
    p = skip_blanks(p);
    if (*p != '\0' && *p != '\n')
        return bench_fail(err, err_size, "unexpected text after the permutation: \"%.20s\"", p);
    if (prank != rank)
        return bench_fail(err, err_size, "permutation has %d entries but there are %d extents", prank,
                    rank);

    bench_case c = {.rank = rank};
    for (int i = 0; i < rank; ++i) {
        if (ext[i] < 1)
            return bench_fail(err, err_size, "extent %d is %lld; extents must be >= 1", i,
                        (long long)ext[i]);
        c.extents[i] = ext[i];
        c.perm[i] = perm[i] < rank ? (int)perm[i] : -1;
    }
    if (!bench_is_permutation(c.perm, rank))
        return bench_fail(err, err_size, "the permutation must list each of 0..%d exactly once",
                    rank - 1);
    int64_t vol = 1;
    for (int i = 0; i < rank; ++i) {
        if (vol > BENCH_MAX_EXTENT / c.extents[i])
            return bench_fail(err, err_size, "the volume exceeds 2^40 elements");
        vol *= c.extents[i];
    }
    *out = c;
    return 0;
}

int bench_parse_cases(const char* text, const char* source, bench_case_list* list, char* err,
                      size_t err_size)
{
    char line[4096];
    int line_no = 0;
    const char* p = text;
    while (*p) {
        const char* eol = strchr(p, '\n');
        size_t len = eol ? (size_t)(eol - p) : strlen(p);
        ++line_no;
        if (len >= sizeof line)
            return bench_fail(err, err_size, "%s:%d: line longer than %zu characters", source, line_no,
                        sizeof line - 1);
        memcpy(line, p, len);
        line[len] = '\0';
        char* hash = strchr(line, '#');
        if (hash) *hash = '\0';
        if (*skip_blanks(line) != '\0') {
            bench_case c;
            char why[256];
            if (bench_parse_case(line, &c, why, sizeof why) != 0)
                return bench_fail(err, err_size, "%s:%d: %s", source, line_no, why);
            if (bench_case_list_push(list, &c) != 0)
                return bench_fail(err, err_size, "%s:%d: out of memory", source, line_no);
        }
        p += len + (eol ? 1 : 0);
    }
    return 0;
}

int bench_read_case_file(const char* path, bench_case_list* list, char* err, size_t err_size)
{
    FILE* f = fopen(path, "rb");
    if (!f) return bench_fail(err, err_size, "%s: cannot open: %s", path, strerror(errno));
    size_t cap = 1 << 16, len = 0;
    char* text = malloc(cap);
    size_t n;
    while (text && (n = fread(text + len, 1, cap - len - 1, f)) > 0) {
        len += n;
        if (len + 1 == cap) {
            char* bigger = realloc(text, cap *= 2);
            if (!bigger) free(text);
            text = bigger;
        }
    }
    int read_error = ferror(f);
    fclose(f);
    if (!text) return bench_fail(err, err_size, "%s: out of memory", path);
    if (read_error) { free(text); return bench_fail(err, err_size, "%s: read error", path); }
    text[len] = '\0';
    if (memchr(text, '\0', len)) {
        free(text);
        return bench_fail(err, err_size, "%s: not a text file", path);
    }
    int rc = bench_parse_cases(text, path, list, err, err_size);
    free(text);
    return rc;
}
