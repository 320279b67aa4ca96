/*
 * The sub-contractions of a distributed contraction that overlaps an operand's move with its
 * local contraction (plain C, no device, no NCCL; CPU-tested by tests/dist/test_dist_layout.c).
 * Rank me's block of D needs the part X' of operand X (cuperm_dist_operand_layout); X' arrives
 * in pieces, one from each rank that owns some of it. Restricting X's modes to one piece's box,
 * and the same labels in the other operand and in D, gives a contraction of its own. The pieces
 * partition X', so these contractions together are the whole one: pieces that differ only in
 * summed labels add into the same block of D, the others write disjoint blocks (blocks of a
 * block distribution form a grid, so two pieces' blocks of D are equal or disjoint).
 */
#ifndef CUPERM_DIST_CTR_PARTS_H
#define CUPERM_DIST_CTR_PARTS_H

#include "dist/layout.h"

/* Overlap is offered on communicators of up to this many ranks: one local contraction a peer. */
#define CUPERM_DIST_MAX_PARTS 16

typedef struct {
    int peer;                        /* the rank X's piece comes from (me: the rank's own piece) */
    int step;                        /* (me - peer) mod P: the by-peer step that brings it (0: none) */
    int64_t ext[3][CUPERM_MAX_RANK]; /* the sub-contraction's extents in A, B and D (their mode orders) */
    int64_t offset[3];               /* its corner: elements into the buffers of A', B' and D */
    int accumulate;                  /* an earlier part wrote the same block of D: add to it */
    int64_t lo[CUPERM_MAX_RANK];     /* the piece's first index along each mode of X (global) */
} cuperm_dist_part_t;

/**
 * The parts of rank me when operand x (0: A, 1: B) arrives piece by piece, in the order the
 * by-peer schedule brings the pieces (peer me, me - 1, me - 2, ... mod P); empty pieces are left
 * out. src: x's own layout; buf[t]: the layouts whose block of rank me the buffers of A', B' and D
 * hold (the operand layouts of cuperm_dist_operand_layout, D's layout); str[t]: those buffers'
 * strides. Returns the count, 0 when me's block of D is empty; parts has room for src->comm_size.
 */
int cuperm_dist_ctr_parts(const cuperm_dist_layout_t* src, const cuperm_dist_layout_t* const buf[3],
                          const int32_t* const modes[3], const int64_t* const str[3], int x, int me,
                          cuperm_dist_part_t* parts);

/**
 * The model's time of an overlapped schedule on one rank. The link first moves the other
 * operand (other seconds; the parts wait for it when wait_other), then round r = 1 .. rounds of
 * the overlapped one (link_round[r] seconds each). The caller's stream runs the parts in order,
 * each once its round (round[i]: 0 for the rank's own piece, read in place) has arrived
 * (part_seconds[i]). The schedule ends when both streams are done.
 */
double cuperm_dist_overlap_seconds(double other, int wait_other, const double* link_round, int rounds,
                                   const int* round, const double* part_seconds, int n);

#endif
