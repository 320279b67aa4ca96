/* The model tools' input: one transpose a line, "ELEM_BYTES E0,E1,... P0,P1,...",
 * planned on the host as the runtime would for a plain move of aligned buffers. */
#ifndef CUPERM_TOOLS_MODEL_CASE_LINE_H
#define CUPERM_TOOLS_MODEL_CASE_LINE_H

#include <stdio.h>

#include "plan/transpose/select.h"

enum { MODEL_MAX_CANDIDATES = 24 };

typedef struct {
    char text[4096];        /* the line, without its newline */
    int elem;               /* element bytes as given */
    int rank;
    int64_t extents[CUPERM_MAX_RANK];
    int perm[CUPERM_MAX_RANK];
    cuperm_host_plan_t plan;
    const cuperm_launch_t* base; /* the launch a plain aligned execute runs (packed if any) */
} model_case;

/** The device the features are computed for (an H100: the DRAM peak and shared memory
 * per block matter), and its tuning table (sm_90's). */
extern const cuperm_device_info_t model_device;
const cuperm_tuning_t* model_tuning(void);

/** 1 where CUPERM_MODEL_UNPACKED=1 in the environment: cases keep their elements' own launches
 * (no packing), as an execute that does arithmetic on them runs. */
int model_unpacked(void);

/** Reads and plans the next case. 1: a case; 0: end of input; -1: a bad line (message on stderr). */
int model_read_case(FILE* in, model_case* c);

/** The candidates the tools time and describe, in one order: cuperm_plan_candidates, then, when
 * CUPERM_MODEL_EXPLORE=1 in the environment, the rule-based tiled launch with the other band widths
 * of its tile walk (2, 4, 16, 32 A tiles), to explore walks the planner does not offer; with
 * CUPERM_MODEL_EXPLORE=small, the rules' tile at 1/2, 1/4 and 1/8 of its size (scalar, A-fastest),
 * to see whether more, smaller tiles pay where a tensor's tiles do not fill the GPU. */
int model_candidates(const model_case* c, cuperm_launch_t* out, int max);

#endif
