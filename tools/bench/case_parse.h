/* Reads transpose cases in the case-file notation: one case a line,
 *   e0,e1,...,e{r-1} p0,p1,...,p{r-1}
 * extents column-major (e0 is stride-1), output dimension r = input dimension p[r].
 * '#' starts a comment; blank lines are skipped. Every error names the line and the rule. */
#ifndef CUPERM_BENCH_CASE_PARSE_H
#define CUPERM_BENCH_CASE_PARSE_H

#include <stddef.h>

#include "bench_case.h"

/* Parses one case from line (without comment); returns 0, or -1 with a message in err. */
int bench_parse_case(const char* line, bench_case* out, char* err, size_t err_size);

/* Parses a whole case list; source names the text in messages ("ttc57.txt:12: ...").
 * Returns 0, or -1 with a message in err (list keeps the cases read before the error). */
int bench_parse_cases(const char* text, const char* source, bench_case_list* list, char* err,
                      size_t err_size);

/* bench_parse_cases on the contents of a file. */
int bench_read_case_file(const char* path, bench_case_list* list, char* err, size_t err_size);

#endif
