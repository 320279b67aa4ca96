/*
 * Role assignments worth pricing (see cuperm_ctr_layout_t.h for the roles): the mode
 * classes themselves, and those the operands' own layouts suggest so that
 * cuBLAS can read or write them in place. Plain C.
 */
#ifndef CUPERM_CTR_ROLES_H
#define CUPERM_CTR_ROLES_H

#include "plan/contraction/layout.h"

/* Fills up to max role vectors (one role per mode-table entry); returns how many. */
int cuperm_ctr_role_candidates(const cuperm_ctr_problem_t* p, int roles[][CTR_MAX_MODES], int max);

#endif
