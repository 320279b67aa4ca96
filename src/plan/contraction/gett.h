/*
 * GETT (tensor-contraction GEMM without transposed copies): which problems it
 * takes and its block-scatter offset tables. A GETT kernel views the
 * contraction as D[m,n,l] = alpha sum_k A[m,k,l] B[k,n,l] + beta C[m,n,l] where
 * m, n, k, l are linear indices over the free-in-A (M), free-in-B (N),
 * contracted (K) and batched (L) mode groups, and finds every element through
 * per-group offset tables:
 *   A(m,k,l) = A + offA_m[m] + offA_k[k] + offA_l[l]
 *   B(k,n,l) = B + offB_k[k] + offB_n[n] + offB_l[l]
 *   C(m,n,l) = C + offC_m[m] + offC_n[n] + offC_l[l]   (D likewise)
 * (the block-scatter idea of TBLIS and the GETT paper). Plain C, CPU-tested.
 */
#ifndef CUPERM_CTR_GETT_H
#define CUPERM_CTR_GETT_H

#include "plan/contraction/layout.h"

/* At most this many table entries (8 bytes each): 512 MiB of tables. */
#define CTR_GETT_MAX_ENTRIES ((int64_t)1 << 26)

/* The kernel's block tile: M, N and K depth (backend/cuda/gett/gett.h: CUPERM_GETT_BM, _BN, _BK). */
#define CTR_GETT_BM 128
#define CTR_GETT_BN 128
#define CTR_GETT_BK 32

/* The skinny kernel (backend/cuda/gett/gett.h: CUPERM_GETT_SKINNY_MAX_N, _MAX_K): B resident in
 * shared memory, tiles of CTR_GETT_BM x N. */
#define CTR_GETT_SKINNY_MAX_N 32
#define CTR_GETT_SKINNY_MAX_K 512
#define CTR_GETT_SKINNY_BLOCKS_PER_SM 2 /* CUPERM_GETT_SKINNY_BLOCKS_PER_SM */

/* Groups whose mode order the plan chooses (L keeps the mode table's order). */
#define CTR_GETT_ORDERED 3 /* CTR_GROUP_M, CTR_GROUP_N, CTR_GROUP_K */

typedef struct {
    int64_t size[CTR_GROUPS];              /* M, N, K, L: products of the groups' extents (1 if empty) */
    int count[CTR_GROUPS];
    int order[CTR_GROUPS][CTR_MAX_MODES];  /* mode-table indices of each group, fastest first */
    int by[CTR_GETT_ORDERED];              /* M, N, K ordered by this operand's strides (CTR_A, CTR_B
                                              or CTR_D; see cuperm_ctr_gett_choose_orders) */
    /* Shared-tile layout of A and B in the kernel: k contiguous (1) or m / n contiguous (0). The
     * layout with the wider vector runs (vec below); on a tie, whether the operand's smallest
     * stride is a K stride. */
    int aKFast, bKFast;
    /* Vector run widths in elements (8, 4, 2 or 1), see cuperm_ctr_gett_run_width: A along K
     * (aKFast) or M, B along K (bKFast) or N, C and D along M (dMFast) or N. The kernel uses
     * a width only when the base pointer is aligned to it too (checked at execute time). */
    int vec[CTR_OPERANDS];
    int dMFast;                            /* the epilogue walks D's runs along M (1) or N (0) */
    int off32;                             /* every operand's largest offset fits int32: 32-bit tables */
    int dtileM, dtileN, dtileK;            /* the D-tile kernel's tile where it takes the problem (its
                                              orders are these tables'), else 0 (gett_dtile.h) */
    int dtileWhole[2];                     /* its M and N sides are products of whole modes */
    /* The skinny kernel's M order when A's and D's unit-stride modes are distinct M modes alpha,
     * beta (cuperm_ctr_gett_skinny_split): mSplit = {alpha, beta}, cut into mSplitF[0] and
     * mSplitF[1] x the rest, M's digits alpha_lo, beta_lo, alpha_hi, beta_hi, then the other M
     * modes in order[M]: a tile holds runs of A along alpha and of D along beta. mSplit -1: none. */
    int mSplit[2], mSplitF[2];
    int64_t at[CTR_GROUPS][CTR_OPERANDS];  /* where each (group, operand) table starts in table[], -1 if none */
    int64_t entries;                       /* length of table[] */
    int64_t* table;                        /* host memory, malloc'd by cuperm_ctr_gett_tables_build */
} cuperm_ctr_gett_tables_t;

/* The CUDA-core kernel's block tile (backend/cuda/gett/gett.h: CUPERM_GETT_SIMT_BM, _BN, _BK). */
#define CTR_GETT_SIMT_BM 64
#define CTR_GETT_SIMT_BN 64
#define CTR_GETT_SIMT_BK 16

/*
 * The GETT family's types: on tensor cores A/B R_16F or R_16BF, compute 32F (DEFAULT resolves
 * to it), C/D R_32F or the A/B type; on CUDA cores all four R_32F with strict 32F compute, or all
 * four R_64F with 64F compute. Every operator (the types are real): the table kernels apply
 * them; the Hopper TMA kernels take only the identity and negation (gett_tma.h). Returns 1 or 0;
 * on 0 writes the reason into why (if non-NULL).
 */
int cuperm_ctr_gett_supported(const cuperm_ctr_problem_t* p, char* why, size_t whySize);

/* 1 if some operator of p is not the identity once negations are folded into alpha and beta. */
int cuperm_ctr_gett_has_operators(const cuperm_ctr_problem_t* p);

/* 1 when p's GETT plan runs the CUDA-core kernel (A/B R_32F or R_64F), 0 for the tensor cores. */
int cuperm_ctr_gett_cuda_cores(const cuperm_ctr_problem_t* p);

/* 1 when p's GETT plan (not the D-tile kernel) runs the skinny kernel: tensor-core types, N of at
 * most CTR_GETT_SKINNY_MAX_N, K of at most CTR_GETT_SKINNY_MAX_K, and CUPERM_GETT_SKINNY (read per
 * plan) not "0". */
int cuperm_ctr_gett_skinny(const cuperm_ctr_problem_t* p);

/* Both runs in the skinny kernel's 128-row tiles: A's unit-stride mode alpha and D's beta, both in M,
 * distinct, of extents that CTR_GETT_SKINNY_SPLIT divides, are cut into f[0] (alpha) and f[1]
 * (beta) x the rest, M ordered alpha_lo, beta_lo, alpha_hi, beta_hi, ...: where M ordered by either
 * operand alone leaves the other element by element (TCCG 1, 3, 4, 6-8). f[0] is
 * CTR_GETT_SKINNY_SPLIT. f[1] is twice that where it divides beta's extent: a tile is then
 * alpha_lo x beta_lo, D written in runs of 16 (whole 32-byte sectors of 16-bit D), A read in runs
 * of 8 whose sectors the next tile (alpha_hi + 1) completes. Else f[1] is CTR_GETT_SKINNY_SPLIT
 * and a tile spans two alpha_hi digits: A in runs of 16, D in runs of 8. On an H200, TCCG 6-8 took
 * 0.63-0.78 of their time with the 16 than with 8; the other orders tried were slower (the runs of
 * D lengthened by two beta_hi digits a tile instead, the next tile far from the rest of A's
 * sectors: TCCG 3, 4 1.27-1.39x; results in bench/results/gett-h100/skinny-h200/). Returns 1 with
 * split = {alpha, beta} and f, else 0. */
#define CTR_GETT_SKINNY_SPLIT 8
int cuperm_ctr_gett_skinny_split(const cuperm_ctr_problem_t* p, int split[2], int f[2]);

/* CTR_GETT_SKINNY_SPLIT where operand w (C or D) of a split skinny plan takes its runs along beta
 * as vectors: beta's stride 1 and every other mode's a multiple of CTR_GETT_SKINNY_SPLIT (each run
 * of a tile then starts at a multiple of it, base pointer aside), else 1. */
int cuperm_ctr_gett_skinny_run_width(const cuperm_ctr_problem_t* p, int w, int beta);

/* The block tile of p's GETT kernel (CUDA cores or tensor cores): outputs along M and N, and the
 * depth of one step of K. */
void cuperm_ctr_gett_block_tile(const cuperm_ctr_problem_t* p, int64_t* bm, int64_t* bn, int64_t* bk);

/* Whether the table kernel can run problem p: the family's types and operators, tables within
 * CTR_GETT_MAX_ENTRIES, a grid of fewer than 2^31 tiles. Returns 1 or 0 with the reason. */
int cuperm_ctr_gett_eligible(const cuperm_ctr_problem_t* p, char* why, size_t whySize);

/* Fills a layout record for a GETT plan (kind, sizes, folded operators; no workspace); dtile: on
 * the D-tile kernel where it takes p (l->dtile says whether it does), else the table kernel. */
void cuperm_ctr_gett_layout(const cuperm_ctr_problem_t* p, int dtile, cuperm_ctr_layout_t* l);

/* The mode orders (with dtile, the D-tile kernel's where it takes p, with its tile in t->dtile*;
 * else cuperm_ctr_gett_choose_orders) and the offset tables (t->table malloc'd);
 * ALLOC_FAILED or INVALID_VALUE (too large) with the error message set. */
cupermStatus_t cuperm_ctr_gett_tables_build(const cuperm_ctr_problem_t* p, int dtile, cuperm_ctr_gett_tables_t* t);
/* The same with given orders: by[g] for M, N, K as in cuperm_ctr_gett_tables_t (tests). */
cupermStatus_t cuperm_ctr_gett_tables_build_by(const cuperm_ctr_problem_t* p, const int by[CTR_GETT_ORDERED],
                                               cuperm_ctr_gett_tables_t* t);
void cuperm_ctr_gett_tables_free(cuperm_ctr_gett_tables_t* t);

/*
 * Width of the vector runs an operand offers along one group ("fast", n entries of its table):
 * the largest W in {8, 4, 2, 1} such that, for every i that is a multiple of W, the valid
 * entries fast[i .. min(i + W, n) - 1] are fast[i], fast[i] + 1, ... (contiguous elements) and
 * fast[i] is a multiple of W, and every entry of the operand's two other tables (other, l) is
 * a multiple of W. Then every run of W elements of a tile (tiles start at multiples of 8)
 * is one aligned W-element vector in memory once the base pointer is aligned to W elements.
 */
int cuperm_ctr_gett_run_width(const int64_t* fast, int64_t n, const int64_t* other, int64_t nOther, const int64_t* l,
                              int64_t nL);

/* Whether group g has a table for operand w (M: A C D, N: B C D, K: A B, L: all). */
int cuperm_ctr_gett_has_table(int g, int w);

/* ---- mode orders (gett_order.c) ------------------------------------------------------
 * The order of the modes inside M, N and K decides which operands get vector runs: an operand
 * has runs along a group only when its unit-stride mode comes first there. M can follow A's
 * or D's strides, N B's or D's, K A's or B's; the plan prices each combination with a
 * sector-traffic model and keeps the cheapest (ties: the strides rule below). */

/* The tile layouts and run widths the tables of a mode order give (the fields of
 * cuperm_ctr_gett_tables_t of the same names). */
typedef struct {
    int aKFast, bKFast, dMFast;
    int vec[CTR_OPERANDS];
} cuperm_ctr_gett_paths_t;

/* Smallest stride operand w has in group g (INT64_MAX if none). */
int64_t cuperm_ctr_gett_min_stride(const cuperm_ctr_problem_t* p, int g, int w);

/* The strides rule (the orders before the model): M by A, N by B, K by A when A's smallest
 * stride is a K stride or B's is not, else by B. */
void cuperm_ctr_gett_default_orders(const cuperm_ctr_problem_t* p, int by[CTR_GETT_ORDERED]);

/* The modes of group g (mode-table order) sorted by operand w's strides, ties in table
 * order; returns their count. */
int cuperm_ctr_gett_group_order(const cuperm_ctr_problem_t* p, int g, int w, int* order);

/* The run width cuperm_ctr_gett_run_width finds for operand w along group g when g's modes
 * (order[0..n)) run in that order, computed from the strides without tables. */
int cuperm_ctr_gett_order_width(const cuperm_ctr_problem_t* p, int w, int g, const int* order, int n);

/* Tile layouts, run widths and D's direction from the widths each operand offers:
 * width[w][g] along group g (M, N, K; entries of groups w lacks are ignored). The rule of
 * cuperm_ctr_gett_tables_build: per operand the wider direction (a run counts at most as
 * long as its group), ties to the smaller stride; C follows D's direction. */
void cuperm_ctr_gett_paths(const cuperm_ctr_problem_t* p, int width[CTR_OPERANDS][CTR_GETT_ORDERED],
                           cuperm_ctr_gett_paths_t* q);

/* The paths the tables of orders by[] would give (from the strides, no tables). */
void cuperm_ctr_gett_paths_for(const cuperm_ctr_problem_t* p, const int by[CTR_GETT_ORDERED], cuperm_ctr_gett_paths_t* q);

/* Bytes per element an operand moves in W-element runs of e-byte elements: 32-byte sectors
 * per run, ceil(W e / 32), times 32, over W (W = 1: a sector per element). */
double cuperm_ctr_gett_sector_bytes(int64_t run, int elementBytes);

/* How many indices of each mode (mode-table index) one block's tiles span under orders by[]: M
 * and N tiles (CTR_GETT_BM, CTR_GETT_BN) take their group's modes in order, whole while they
 * fit, then floor(what is left / ...) of the next; K modes whole (a block walks all of K, so
 * the sectors its K tiles share are used within the block); L modes one index. */
void cuperm_ctr_gett_tile_cover(const cuperm_ctr_problem_t* p, const int by[CTR_GETT_ORDERED],
                                int64_t cover[CTR_MAX_MODES]);

/* Elements of operand w a tile's footprint holds contiguously in memory: w's modes by increasing
 * stride from stride 1, each continuing the span of those before it, multiplied by their covered
 * counts until a mode the tile holds only part of (or a gap). 1 when no mode has stride 1. The
 * sector efficiency of the tile's accesses to w depends on it, not on the kernel's vector width:
 * neighbouring runs of one tile are moved together. */
int64_t cuperm_ctr_gett_tile_run(const cuperm_ctr_problem_t* p, const int64_t cover[CTR_MAX_MODES], int w);

/* The price of one access (a load or store of q->vec elements) in bytes: small, so that it
 * decides only between orders whose footprints move about the same bytes (then vector runs
 * win). Priced at 4 or 16 bytes it outweighed D's half-written sectors on the H100: TCCG 32, 35,
 * 38, 41, 44, 47 kept orders that gather nothing element by element at 0.29 of a GEMM, where
 * the footprint's choice (whole sectors of D, the small A gathered) runs at 0.42
 * (bench/results/gett-h100/v3-orders/). */
#define CTR_GETT_ACCESS_BYTES 1.0

/* Modelled cost in bytes of orders by[] with paths q (cuperm_ctr_gett_paths_for(by)): A once per
 * N tile (ceil(n / 128) re-reads), B once per M tile, D once, C once when readC; per element
 * the bytes its sectors move at the sector efficiency of the operand's tile runs
 * (cuperm_ctr_gett_sector_bytes of cuperm_ctr_gett_tile_run), plus CTR_GETT_ACCESS_BYTES per
 * access of q->vec elements. D's runs are what TCCG 31-48 turn on: a run that stops at a tile
 * edge leaves sectors half written, to be completed by another tile much later. */
double cuperm_ctr_gett_traffic(const cuperm_ctr_problem_t* p, const int by[CTR_GETT_ORDERED],
                               const cuperm_ctr_gett_paths_t* q, int readC);

/* The same for orders by[] (with their paths): the cost the order choice minimises. */
double cuperm_ctr_gett_order_cost(const cuperm_ctr_problem_t* p, const int by[CTR_GETT_ORDERED], int readC);

/* The cheapest orders among M by A or D, N by B or D, K by A or B; ties keep the strides
 * rule, so nothing changes where the candidates agree. readC: price reading C (beta != 0). */
void cuperm_ctr_gett_choose_orders(const cuperm_ctr_problem_t* p, int readC, int by[CTR_GETT_ORDERED]);

/* "M by D, N by B, K by A" (empty groups included); returns snprintf's length. */
int cuperm_ctr_gett_orders_describe(const int by[CTR_GETT_ORDERED], char* buf, size_t size);

#endif
