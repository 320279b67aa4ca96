/* The one call the handle makes into the contraction code (from cupermDestroy). */
#ifndef CUPERM_CTR_HOOK_H
#define CUPERM_CTR_HOOK_H

struct ctr_state;

/* Releases a handle's contraction state (its cuBLAS handle and plan cache); NULL is fine. */
void ctr_state_destroy(struct ctr_state* state);

#endif
