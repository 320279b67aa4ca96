/* One redistribution case line of the distributed model tools: "RANKS EXTENTS PERM IN_MODE OUT_MODE"
 * (f32, Shard(IN_MODE) -> Shard(OUT_MODE), the output's modes numbered as cupermDistPlanTranspose's),
 * e.g. "2 17x91x21x193x23x14 0,2,4,3,5,1 3 1"; '#' starts a comment. */
#ifndef CUPERM_TOOLS_DIST_CASE_H
#define CUPERM_TOOLS_DIST_CASE_H

#include <stdio.h>

#include "dist/layout.h"

typedef struct {
    int ranks, rank, in_mode, out_mode;
    int64_t ext[CUPERM_MAX_RANK];
    int perm[CUPERM_MAX_RANK];
} dist_case_t;

/* Parses line (its comment cut off in place): 1 a case, 0 nothing on it, -1 malformed (*why says how). */
int dist_case_parse(char* line, dist_case_t* c, const char** why);

/* The next case of f into *c: 1 a case, 0 the end, -1 a malformed line (said on stderr with its case
 * number *id, which every case and malformed line advances). */
int dist_case_next(FILE* f, dist_case_t* c, int* id);

/* The case's input and output layouts over c->ranks ranks (cuperm_dist_layout_init's status). */
cupermStatus_t dist_case_layouts(const dist_case_t* c, cuperm_dist_layout_t* in, cuperm_dist_layout_t* out);

#endif
