/*
 * Block arithmetic of distributed tensors: plain C, no device, no NCCL (CPU-tested
 * by tests/dist/test_dist_layout.c). A layout is a validated copy of a
 * cupermDistTensorDescriptor_t; boxes are products of global index ranges.
 */
#ifndef CUPERM_DIST_LAYOUT_H
#define CUPERM_DIST_LAYOUT_H

#include <stdint.h>

#define CUPERM_DIST_NO_NCCL
#include "cuperm_dist.h"

typedef struct {
    int rank;
    int64_t extents[CUPERM_MAX_RANK];
    cupermDataType_t type;
    int elem_size;
    int grid_rank;
    int modes[CUPERM_MAX_RANK];      /* grid dimension g distributes mode modes[g] */
    int grid[CUPERM_MAX_RANK];
    int64_t block[CUPERM_MAX_RANK];
    int grid_of_mode[CUPERM_MAX_RANK]; /* g for a distributed mode, -1 otherwise */
    int64_t replicated_extent[CUPERM_MAX_RANK]; /* modes[g] == -1: the extent of the mode of another
                                                   tensor that grid dimension g splits (0: none); a rank
                                                   whose block of it is empty owns nothing */
    int has_strides;
    int64_t strides[CUPERM_MAX_RANK];  /* the caller's local strides when has_strides */
    int comm_size;
} cuperm_dist_layout_t;

/** A box of global indices: [lo[m], hi[m]) along each mode m. */
typedef struct {
    int64_t lo[CUPERM_MAX_RANK], hi[CUPERM_MAX_RANK];
} cuperm_dist_box_t;

/**
 * Validates desc for a communicator of comm_size ranks and copies it into *out.
 * name ("in", "out", "desc") prefixes messages. INVALID_VALUE naming the rule.
 */
cupermStatus_t cuperm_dist_layout_init(cuperm_dist_layout_t* out, const cupermDistTensorDescriptor_t* desc,
                                       int comm_size, const char* name);

/** Grid coordinate of communicator rank r along grid dimension g. */
int cuperm_dist_coord(const cuperm_dist_layout_t* l, int r, int g);

/** The global box rank r owns. Returns its volume (0: empty). */
int64_t cuperm_dist_owned(const cuperm_dist_layout_t* l, int r, cuperm_dist_box_t* box);

/** Rank r's local strides: the caller's, or dense column-major of its local extents. */
void cuperm_dist_local_strides(const cuperm_dist_layout_t* l, int r, int64_t* strides);

/** Largest element offset + 1 of rank r's local block (0 if empty). */
int64_t cuperm_dist_local_span(const cuperm_dist_layout_t* l, int r);

/**
 * The part of the global input that rank s holds (in) and rank d must hold (out), in
 * input-mode coordinates, for out mode r = input mode perm[r]. Returns its volume.
 */
int64_t cuperm_dist_exchange_box(const cuperm_dist_layout_t* in, int s, const cuperm_dist_layout_t* out, int d,
                                 const int* perm, cuperm_dist_box_t* box);

/** Element offset of box corner lo (input-mode coordinates) in a local block whose own box starts at
 *  origin, strides str over the block's modes (block mode r is input mode perm[r]; perm NULL: the
 *  identity). */
int64_t cuperm_dist_corner_offset(const int64_t* lo, const int64_t* origin, const int64_t* str, const int* perm, int n);

/** One step of the hashes the ranks agree on: v folded into h (62 bits, non-negative). */
int64_t cuperm_dist_mix(int64_t h, int64_t v);

/** A hash of the global part of a layout (not the local strides): equal on every rank
 *  when the ranks agree. 62 bits, non-negative. */
int64_t cuperm_dist_layout_hash(const cuperm_dist_layout_t* l, int64_t seed);

/**
 * The layout of the part of operand x (modes labelled modes_x) that each rank needs to compute
 * its own block of d (labels modes_d) in a distributed contraction: d's process grid, each of
 * d's distributed modes restricting x's mode of the same label to the same blocks, every other
 * mode of x whole. A grid dimension whose mode x lacks replicates (modes[g] = -1), so ranks may
 * want the same data; a rank whose block of d is empty wants nothing. Dense local strides.
 * Labels assumed checked (equal extents).
 */
void cuperm_dist_operand_layout(const cuperm_dist_layout_t* d, const int32_t* modes_d, const cuperm_dist_layout_t* x,
                                const int32_t* modes_x, cuperm_dist_layout_t* out);

/** This rank's whole input block as one transpose into every receiver's output (a bound output's
 *  direct path, direct.c): the dimensions in input order, a distributed output mode that the block
 *  spans over several whole blocks split into (block, count), the count stepping from one
 *  receiver's block to the next. */
typedef struct {
    int rank;
    int64_t extents[CUPERM_MAX_RANK + CUPERM_MAX_RANK];
    int64_t in_strides[CUPERM_MAX_RANK + CUPERM_MAX_RANK];
    int64_t out_strides[CUPERM_MAX_RANK + CUPERM_MAX_RANK];
    int first;          /* the receiver of the block's first element */
    int64_t offset;     /* that element's offset in the receiver's output block */
} cuperm_dist_whole_t;

/**
 * Describes rank me's input block of in -> out (out mode r = input mode perm[r]) as one transpose
 * into the receivers' output blocks addressed as one strided tensor: receiver q's block starts
 * q * peer_stride elements after receiver 0's, and every rank's output strides are out_strides
 * (rows of CUPERM_MAX_RANK, one per rank: all must be equal). That needs out's blocks to be whole
 * (block x grid = extent on every grid dimension, none replicated) and the input block to meet
 * each distributed output mode inside one block or in whole blocks. Returns 1 and fills *w, or 0
 * (those rules broken, peer_stride < 1, or an empty input block).
 */
int cuperm_dist_whole_view(const cuperm_dist_layout_t* in, const cuperm_dist_layout_t* out, const int* perm, int me,
                           const int64_t* out_strides, int64_t peer_stride, cuperm_dist_whole_t* w);

/** The mode along which cuperm_dist_split cuts box (input-mode coordinates; output mode r is
 *  input mode perm[r]); -1 when no extent exceeds 1. Of the modes whose extent exceeds 1, the one
 *  farthest from the fastest on both sides: the largest min(its place among them in input order,
 *  its place in output order), the larger extent on ties. A pipeline stage's chunk then keeps the
 *  dense runs of its reads and its writes whatever the variant packs in (cutting the packed
 *  order's slowest mode had cut the input's fastest runs where that mode comes first in input). */
int cuperm_dist_split_mode(const cuperm_dist_box_t* box, int rank, const int* perm);

/** Splits box into at most k chunks, contiguous ranges of cuperm_dist_split_mode's mode (each
 *  chunk is packed densely by itself). Returns the number of chunks written to chunks (1 when
 *  nothing splits). */
int cuperm_dist_split(const cuperm_dist_box_t* box, int rank, const int* perm, int k, cuperm_dist_box_t* chunks);

#endif
