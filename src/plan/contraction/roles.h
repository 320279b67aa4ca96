/*
 * Role assignments worth pricing (see ctr_layout.h for the roles): the mode
 * classes themselves, and those the operands' own layouts suggest so that
 * cuBLAS can read or write them in place. Plain C.
 */
#ifndef CUPERM_CTR_ROLES_H
#define CUPERM_CTR_ROLES_H

#include "plan/contraction/layout.h"

/* Fills up to max role vectors (one role per mode-table entry); returns how many. */
int ctr_role_candidates(const ctr_problem* p, int roles[][CTR_MAX_MODES], int max);

#endif
