/* Distributed tensors on the CPU (no GPU, no NCCL): descriptor validation, the block
 * arithmetic (owned ranges, uneven and empty blocks, grid coordinates), the exchange
 * boxes between every pair of ranks against a brute-force count over all elements, the
 * pipeline split, and a whole redistribution simulated with the same boxes, offsets and
 * packed orders that src/dist/plan.c uses. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "support/rng.h"
#include "dist/ctr_parts.h"
#include "dist/layout.h"

static void expect(cupermStatus_t st, const char* word)
{
    assert_int_equal(st, CUPERM_STATUS_INVALID_VALUE);
    if (!strstr(cupermGetLastErrorMessage(), word))
        fail_msg("message \"%s\" lacks \"%s\"", cupermGetLastErrorMessage(), word);
}

static void validation_rules(void** state)
{
    (void)state;
    const int64_t ext[3] = {10, 5, 7};
    const int modes[2] = {0, 2}, grid[2] = {2, 3};
    const int64_t blocks[2] = {5, 3};
    cupermDistTensorDescriptor_t d = {3, ext, CUPERM_R_32F, 2, modes, grid, blocks, NULL};
    cuperm_dist_layout_t l;
    assert_int_equal(cuperm_dist_layout_init(&l, &d, 6, "in"), 0);
    expect(cuperm_dist_layout_init(&l, NULL, 6, "in"), "in is NULL");
    expect(cuperm_dist_layout_init(&l, &d, 4, "in"), "gridDims"); /* wrong grid size */
    expect(cuperm_dist_layout_init(&l, &d, 12, "in"), "ncclCommCount");
    cupermDistTensorDescriptor_t b = d;
    b.rank = 0;
    expect(cuperm_dist_layout_init(&l, &b, 6, "in"), "in->rank");
    b = d;
    const int64_t zero[3] = {10, 0, 7};
    b.extents = zero;
    expect(cuperm_dist_layout_init(&l, &b, 6, "out"), "out->extents[1]");
    b = d;
    b.type = (cupermDataType_t)99;
    expect(cuperm_dist_layout_init(&l, &b, 6, "in"), "type");
    b = d;
    b.gridRank = 0;
    expect(cuperm_dist_layout_init(&l, &b, 6, "in"), "gridRank");
    b = d;
    const int rep[2] = {2, 2}, bad[2] = {0, 3};
    b.distModes = rep;
    expect(cuperm_dist_layout_init(&l, &b, 6, "in"), "distinct");
    b.distModes = bad;
    expect(cuperm_dist_layout_init(&l, &b, 6, "in"), "distModes[1]");
    b = d;
    const int g0[2] = {0, 6};
    b.gridDims = g0;
    expect(cuperm_dist_layout_init(&l, &b, 6, "in"), "gridDims[0]");
    b = d;
    const int64_t small[2] = {4, 3}, neg[2] = {5, 0};
    b.blockSizes = small; /* 2 blocks of 4 do not cover 10 */
    expect(cuperm_dist_layout_init(&l, &b, 6, "in"), "blockSizes[0]");
    b.blockSizes = neg;
    expect(cuperm_dist_layout_init(&l, &b, 6, "in"), "blockSizes[1]");
    b = d;
    const int64_t str[3] = {1, 0, 50};
    b.localStrides = str;
    expect(cuperm_dist_layout_init(&l, &b, 6, "in"), "localStrides[1]");
    /* larger blocks than needed are fine: trailing ranks own nothing */
    const int64_t big[2] = {10, 7};
    b = d;
    b.blockSizes = big;
    assert_int_equal(cuperm_dist_layout_init(&l, &b, 6, "in"), 0);
    int64_t le[3], off[3];
    assert_int_equal(cupermDistGetLocalBlock(&b, 1, 6, le, off), 0);
    assert_int_equal(le[0], 0); /* coordinate 1 along mode 0: [10, 10) */
    expect(cupermDistGetLocalBlock(&b, 6, 6, le, off), "commRank");
}

static void uneven_blocks(void** state)
{
    (void)state;
    const int64_t ext[1] = {10};
    const int modes[1] = {0}, grid[1] = {4};
    cupermDistTensorDescriptor_t d = {1, ext, CUPERM_R_64F, 1, modes, grid, NULL, NULL};
    const int64_t want[4][2] = {{0, 3}, {3, 6}, {6, 9}, {9, 10}};
    for (int r = 0; r < 4; ++r) {
        int64_t le, off;
        assert_int_equal(cupermDistGetLocalBlock(&d, r, 4, &le, &off), 0);
        assert_int_equal(off, want[r][0]);
        assert_int_equal(le, want[r][1] - want[r][0]);
    }
    const int64_t five[1] = {5}; /* blocks of 2: 2, 2, 1, 0 */
    d.extents = five;
    const int64_t lens[4] = {2, 2, 1, 0};
    for (int r = 0; r < 4; ++r) {
        int64_t le, off;
        assert_int_equal(cupermDistGetLocalBlock(&d, r, 4, &le, &off), 0);
        assert_int_equal(le, lens[r]);
    }
    /* a 2 x 3 grid: the first grid dimension varies fastest */
    const int64_t e2[2] = {4, 9};
    const int m2[2] = {1, 0}, g2[2] = {3, 2};
    cupermDistTensorDescriptor_t d2 = {2, e2, CUPERM_R_32F, 2, m2, g2, NULL, NULL};
    cuperm_dist_layout_t l;
    assert_int_equal(cuperm_dist_layout_init(&l, &d2, 6, "in"), 0);
    for (int r = 0; r < 6; ++r) {
        assert_int_equal(cuperm_dist_coord(&l, r, 0), r % 3);
        assert_int_equal(cuperm_dist_coord(&l, r, 1), r / 3);
        cuperm_dist_box_t b;
        assert_int_equal(cuperm_dist_owned(&l, r, &b), 2 * 3);
        assert_int_equal(b.lo[1], 3 * (r % 3));
        assert_int_equal(b.lo[0], 2 * (r / 3));
    }
}

/* ---- random cases --------------------------------------------------------- */

typedef struct {
    int64_t ext[CUPERM_MAX_RANK];
    int modes[CUPERM_MAX_RANK], grid[CUPERM_MAX_RANK];
    int64_t block[CUPERM_MAX_RANK];
    cupermDistTensorDescriptor_t d;
} rdesc_t;

/* A random distribution of extents ext over P ranks along 1..3 modes. */
static void random_desc(rng_t* g, int rank, const int64_t* ext, int P, rdesc_t* o)
{
    memcpy(o->ext, ext, sizeof(int64_t) * (size_t)rank);
    int perm[CUPERM_MAX_RANK];
    rng_permutation(g, rank, perm);
    int gr = (int)rng_range(g, 1, rank < 3 ? rank : 3);
    int left = P;
    for (int i = 0; i < gr; ++i) {
        o->modes[i] = perm[i];
        int f = 1;
        if (i == gr - 1) f = left;
        else
            for (int t = (int)rng_range(g, 1, left); t >= 1; --t)
                if (left % t == 0) { f = t; break; }
        o->grid[i] = f;
        left /= f;
        const int64_t least = (ext[perm[i]] + f - 1) / f;
        o->block[i] = least + (rng_range(g, 0, 3) == 0 ? rng_range(g, 0, 2) : 0);
    }
    o->d = (cupermDistTensorDescriptor_t){rank, o->ext, CUPERM_R_64F, gr, o->modes, o->grid,
                                          rng_range(g, 0, 1) ? o->block : NULL, NULL};
}

static int64_t linear(const int64_t* idx, const int64_t* ext, int rank)
{
    int64_t l = 0, s = 1;
    for (int m = 0; m < rank; ++m) {
        l += idx[m] * s;
        s *= ext[m];
    }
    return l;
}

/* Owner of a global index under a layout. */
static int owner(const cuperm_dist_layout_t* l, const int64_t* idx)
{
    int r = 0, below = 1;
    for (int g = 0; g < l->grid_rank; ++g) {
        r += (int)(idx[l->modes[g]] / l->block[g]) * below;
        below *= l->grid[g];
    }
    return r;
}

static int in_box(const cuperm_dist_box_t* b, const int64_t* idx, int rank)
{
    for (int m = 0; m < rank; ++m)
        if (idx[m] < b->lo[m] || idx[m] >= b->hi[m]) return 0;
    return 1;
}

static int next_index(int64_t* idx, const int64_t* lo, const int64_t* hi, int rank)
{
    for (int m = 0; m < rank; ++m) {
        if (++idx[m] < hi[m]) return 1;
        idx[m] = lo[m];
    }
    return 0;
}

static void brute_force_exchange(void** state)
{
    (void)state;
    rng_t g = {12345};
    for (int trial = 0; trial < 400; ++trial) {
        const int rank = (int)rng_range(&g, 1, 4);
        const int P = (int)rng_range(&g, 1, 6);
        int64_t ext[CUPERM_MAX_RANK], ext_o[CUPERM_MAX_RANK];
        int64_t vol = 1;
        for (int m = 0; m < rank; ++m) vol *= ext[m] = rng_range(&g, 1, 7);
        int perm[CUPERM_MAX_RANK];
        rng_permutation(&g, rank, perm);
        for (int r = 0; r < rank; ++r) ext_o[r] = ext[perm[r]];
        rdesc_t di, dout;
        random_desc(&g, rank, ext, P, &di);
        random_desc(&g, rank, ext_o, P, &dout);
        cuperm_dist_layout_t li, lo;
        assert_int_equal(cuperm_dist_layout_init(&li, &di.d, P, "in"), 0);
        assert_int_equal(cuperm_dist_layout_init(&lo, &dout.d, P, "out"), 0);
        /* Count, element by element, which (source, destination) pair moves it. */
        int64_t* count = calloc((size_t)(P * P), sizeof(int64_t));
        int64_t idx[CUPERM_MAX_RANK] = {0}, zero[CUPERM_MAX_RANK] = {0}, oidx[CUPERM_MAX_RANK];
        do {
            for (int r = 0; r < rank; ++r) oidx[r] = idx[perm[r]];
            const int s = owner(&li, idx), d = owner(&lo, oidx);
            assert_true(s < P && d < P);
            cuperm_dist_box_t bs, bd;
            cuperm_dist_owned(&li, s, &bs);
            cuperm_dist_owned(&lo, d, &bd);
            assert_true(in_box(&bs, idx, rank));
            assert_true(in_box(&bd, oidx, rank));
            count[s * P + d]++;
        } while (next_index(idx, zero, ext, rank));
        int64_t total_in = 0, total_out = 0;
        for (int s = 0; s < P; ++s) {
            cuperm_dist_box_t b;
            total_in += cuperm_dist_owned(&li, s, &b);
            total_out += cuperm_dist_owned(&lo, s, &b);
            for (int d = 0; d < P; ++d) {
                const int64_t v = cuperm_dist_exchange_box(&li, s, &lo, d, perm, &b);
                if (v != count[s * P + d])
                    fail_msg("trial %d: ranks %d -> %d: box volume %lld, brute force %lld", trial, s, d,
                             (long long)v, (long long)count[s * P + d]);
            }
        }
        assert_int_equal(total_in, vol);
        assert_int_equal(total_out, vol);
        free(count);
    }
}

/* cuperm_dist_split: the chunks partition the box (every element in exactly one, at most k of
 * them, contiguous ranges of one mode), and that mode is the one farthest from the fastest on both
 * sides, checked against its definition brute force. */
static void split_partitions_the_box(void** state)
{
    (void)state;
    rng_t g = {99};
    for (int trial = 0; trial < 300; ++trial) {
        const int rank = (int)rng_range(&g, 1, 5);
        cuperm_dist_box_t box;
        int perm[CUPERM_MAX_RANK];
        rng_permutation(&g, rank, perm);
        for (int m = 0; m < rank; ++m) {
            box.lo[m] = rng_range(&g, 0, 3);
            box.hi[m] = box.lo[m] + (rng_range(&g, 0, 2) ? 1 : rng_range(&g, 1, 6));
        }
        const int k = (int)rng_range(&g, 1, 9);
        cuperm_dist_box_t ch[16];
        const int n = cuperm_dist_split(&box, rank, perm, k, ch);
        assert_true(n >= 1 && n <= k);
        const int j = cuperm_dist_split_mode(&box, rank, perm);
        /* the rule: min(place among varying modes in input order, in output order), then extent */
        int place_in[CUPERM_MAX_RANK], place_out[CUPERM_MAX_RANK], a = 0, b = 0, best = -1;
        for (int m = 0; m < rank; ++m) place_in[m] = box.hi[m] - box.lo[m] > 1 ? a++ : -1;
        for (int r = 0; r < rank; ++r) place_out[perm[r]] = box.hi[perm[r]] - box.lo[perm[r]] > 1 ? b++ : -1;
        for (int m = 0; m < rank; ++m) {
            const int sc = place_in[m] < place_out[m] ? place_in[m] : place_out[m];
            if (place_in[m] >= 0 && sc > best) best = sc;
        }
        if (best < 0) {
            assert_int_equal(j, -1);
            assert_int_equal(n, 1);
        } else {
            assert_true(j >= 0 && place_in[j] >= 0);
            assert_int_equal(place_in[j] < place_out[j] ? place_in[j] : place_out[j], best);
        }
        /* the chunks tile mode j's range in order and equal the box elsewhere */
        int64_t next = j >= 0 ? box.lo[j] : 0;
        for (int c = 0; c < n; ++c) {
            for (int m = 0; m < rank; ++m) {
                if (m == j) continue;
                assert_int_equal(ch[c].lo[m], box.lo[m]);
                assert_int_equal(ch[c].hi[m], box.hi[m]);
            }
            if (j < 0) continue;
            assert_int_equal(ch[c].lo[j], next);
            assert_true(ch[c].hi[j] > ch[c].lo[j]);
            next = ch[c].hi[j];
        }
        if (j >= 0) assert_int_equal(next, box.hi[j]);
    }
}

/* A whole redistribution on the CPU, as plan.c does it: per (source, destination,
 * chunk) pack the box from the source's local block into a buffer dense in the packed
 * order, then unpack it into the destination's local block with alpha and beta; the
 * local piece goes straight. Gathered, out must be alpha * perm(in) + beta * out. */
static void simulated_redistribution(void** state)
{
    (void)state;
    rng_t g = {2024};
    for (int trial = 0; trial < 300; ++trial) {
        const int rank = (int)rng_range(&g, 1, 4), P = (int)rng_range(&g, 1, 6);
        const int variant = (int)rng_range(&g, 1, 2), k = (int)rng_range(&g, 1, 4);
        int64_t ext[CUPERM_MAX_RANK], ext_o[CUPERM_MAX_RANK], vol = 1;
        for (int m = 0; m < rank; ++m) vol *= ext[m] = rng_range(&g, 1, 6);
        int perm[CUPERM_MAX_RANK], order[CUPERM_MAX_RANK];
        rng_permutation(&g, rank, perm);
        for (int r = 0; r < rank; ++r) {
            ext_o[r] = ext[perm[r]];
            order[r] = variant == 1 ? perm[r] : r;
        }
        rdesc_t di, dout;
        random_desc(&g, rank, ext, P, &di);
        random_desc(&g, rank, ext_o, P, &dout);
        cuperm_dist_layout_t li, lo;
        assert_int_equal(cuperm_dist_layout_init(&li, &di.d, P, "in"), 0);
        assert_int_equal(cuperm_dist_layout_init(&lo, &dout.d, P, "out"), 0);
        const double alpha = 2.0, beta = -0.5;
        /* local blocks: in holds its global linear index + 1, out holds -(out linear index) */
        double **lin = calloc((size_t)P, sizeof(double*)), **lout = calloc((size_t)P, sizeof(double*));
        cuperm_dist_box_t oin[8], oout[8];
        int64_t sin[8][CUPERM_MAX_RANK], sout[8][CUPERM_MAX_RANK];
        for (int r = 0; r < P; ++r) {
            cuperm_dist_owned(&li, r, &oin[r]);
            cuperm_dist_owned(&lo, r, &oout[r]);
            cuperm_dist_local_strides(&li, r, sin[r]);
            cuperm_dist_local_strides(&lo, r, sout[r]);
            lin[r] = calloc((size_t)cuperm_dist_local_span(&li, r) + 1, sizeof(double));
            lout[r] = calloc((size_t)cuperm_dist_local_span(&lo, r) + 1, sizeof(double));
            int64_t idx[CUPERM_MAX_RANK];
            if (cuperm_dist_owned(&li, r, &oin[r])) {
                memcpy(idx, oin[r].lo, sizeof idx);
                do {
                    int64_t off = 0;
                    for (int m = 0; m < rank; ++m) off += (idx[m] - oin[r].lo[m]) * sin[r][m];
                    lin[r][off] = (double)linear(idx, ext, rank) + 1;
                } while (next_index(idx, oin[r].lo, oin[r].hi, rank));
            }
            if (cuperm_dist_owned(&lo, r, &oout[r])) {
                memcpy(idx, oout[r].lo, sizeof idx);
                do {
                    int64_t off = 0;
                    for (int m = 0; m < rank; ++m) off += (idx[m] - oout[r].lo[m]) * sout[r][m];
                    lout[r][off] = -(double)linear(idx, ext_o, rank);
                } while (next_index(idx, oout[r].lo, oout[r].hi, rank));
            }
        }
        double* buf = malloc(sizeof(double) * (size_t)vol);
        for (int s = 0; s < P; ++s)
            for (int d = 0; d < P; ++d) {
                cuperm_dist_box_t box, ch[16];
                if (!cuperm_dist_exchange_box(&li, s, &lo, d, perm, &box)) continue;
                const int n = s == d ? 1 : cuperm_dist_split(&box, rank, perm, k, ch);
                if (s == d) ch[0] = box;
                for (int c = 0; c < n; ++c) {
                    int64_t cext[CUPERM_MAX_RANK], idx[CUPERM_MAX_RANK];
                    for (int m = 0; m < rank; ++m) cext[m] = ch[c].hi[m] - ch[c].lo[m];
                    /* pack: dense in order */
                    memcpy(idx, ch[c].lo, sizeof idx);
                    do {
                        int64_t src = 0, dst = 0, st = 1;
                        for (int m = 0; m < rank; ++m) src += (idx[m] - oin[s].lo[m]) * sin[s][m];
                        for (int i = 0; i < rank; ++i) {
                            dst += (idx[order[i]] - ch[c].lo[order[i]]) * st;
                            st *= cext[order[i]];
                        }
                        buf[dst] = lin[s][src];
                    } while (next_index(idx, ch[c].lo, ch[c].hi, rank));
                    /* unpack into d's out block (output mode r = input mode perm[r]) */
                    memcpy(idx, ch[c].lo, sizeof idx);
                    do {
                        int64_t src = 0, dst = 0, st = 1;
                        for (int i = 0; i < rank; ++i) {
                            src += (idx[order[i]] - ch[c].lo[order[i]]) * st;
                            st *= cext[order[i]];
                        }
                        for (int r = 0; r < rank; ++r) dst += (idx[perm[r]] - oout[d].lo[r]) * sout[d][r];
                        lout[d][dst] = alpha * buf[src] + beta * lout[d][dst];
                    } while (next_index(idx, ch[c].lo, ch[c].hi, rank));
                }
            }
        /* gather and compare */
        for (int d = 0; d < P; ++d) {
            if (!cuperm_dist_owned(&lo, d, &oout[d])) continue;
            int64_t idx[CUPERM_MAX_RANK], iidx[CUPERM_MAX_RANK];
            memcpy(idx, oout[d].lo, sizeof idx);
            do {
                int64_t off = 0;
                for (int r = 0; r < rank; ++r) {
                    off += (idx[r] - oout[d].lo[r]) * sout[d][r];
                    iidx[perm[r]] = idx[r];
                }
                const double want = alpha * ((double)linear(iidx, ext, rank) + 1) + beta * -(double)linear(idx, ext_o, rank);
                if (lout[d][off] != want)
                    fail_msg("trial %d (rank %d, %d ranks, variant %d, %d chunks): rank %d offset %lld: %g, want %g",
                             trial, rank, P, variant, k, d, (long long)off, lout[d][off], want);
            } while (next_index(idx, oout[d].lo, oout[d].hi, rank));
        }
        for (int r = 0; r < P; ++r) {
            free(lin[r]);
            free(lout[r]);
        }
        free(lin);
        free(lout);
        free(buf);
    }
}

static void hash_sees_global_changes(void** state)
{
    (void)state;
    const int64_t ext[2] = {8, 6}, ext2[2] = {8, 7};
    const int modes[1] = {0}, grid[1] = {2};
    const int64_t strides[2] = {1, 100};
    cupermDistTensorDescriptor_t d = {2, ext, CUPERM_R_32F, 1, modes, grid, NULL, NULL};
    cuperm_dist_layout_t a, b;
    assert_int_equal(cuperm_dist_layout_init(&a, &d, 2, "in"), 0);
    d.localStrides = strides; /* local: not part of the hash */
    assert_int_equal(cuperm_dist_layout_init(&b, &d, 2, "in"), 0);
    assert_true(cuperm_dist_layout_hash(&a, 1) == cuperm_dist_layout_hash(&b, 1));
    d.extents = ext2;
    assert_int_equal(cuperm_dist_layout_init(&b, &d, 2, "in"), 0);
    assert_true(cuperm_dist_layout_hash(&a, 1) != cuperm_dist_layout_hash(&b, 1));
    d.extents = ext;
    d.type = CUPERM_R_64F;
    assert_int_equal(cuperm_dist_layout_init(&b, &d, 2, "in"), 0);
    assert_true(cuperm_dist_layout_hash(&a, 1) != cuperm_dist_layout_hash(&b, 1));
    assert_true(cuperm_dist_layout_hash(&a, 1) >= 0);
}

/* The operand layout of a distributed contraction: for every rank, the part of X it wants
 * is exactly the elements whose labels shared with D lie in that rank's block of D; the
 * parts of X's own blocks that every rank receives cover each wanted element once. */
static void operand_layout_is_d_projection(void** state)
{
    (void)state;
    rng_t g = {777};
    for (int trial = 0; trial < 300; ++trial) {
        const int P = (int)rng_range(&g, 1, 6), rd = (int)rng_range(&g, 1, 4), rx = (int)rng_range(&g, 1, 4);
        int32_t labels[8], md[CUPERM_MAX_RANK], mx[CUPERM_MAX_RANK];
        int64_t lext[8], ed[CUPERM_MAX_RANK], ex[CUPERM_MAX_RANK];
        for (int i = 0; i < 8; ++i) {
            labels[i] = 10 + i;
            lext[i] = rng_range(&g, 1, 6);
        }
        int perm[8];
        rng_permutation(&g, 8, perm); /* D's labels: the first rd; X's: rx of a shifted window */
        const int shift = (int)rng_range(&g, 0, rd);
        for (int m = 0; m < rd; ++m) ed[m] = lext[perm[m]], md[m] = labels[perm[m]];
        for (int m = 0; m < rx; ++m) ex[m] = lext[perm[m + shift]], mx[m] = labels[perm[m + shift]];
        rdesc_t dd, dx;
        random_desc(&g, rd, ed, P, &dd);
        random_desc(&g, rx, ex, P, &dx);
        cuperm_dist_layout_t ld, lx, want;
        assert_int_equal(cuperm_dist_layout_init(&ld, &dd.d, P, "D"), 0);
        assert_int_equal(cuperm_dist_layout_init(&lx, &dx.d, P, "X"), 0);
        cuperm_dist_operand_layout(&ld, md, &lx, mx, &want);
        int ident[CUPERM_MAX_RANK];
        for (int i = 0; i < CUPERM_MAX_RANK; ++i) ident[i] = i;
        for (int r = 0; r < P; ++r) {
            cuperm_dist_box_t own_d, part;
            cuperm_dist_owned(&ld, r, &own_d);
            const int64_t vol = cuperm_dist_owned(&want, r, &part);
            int64_t expect = 1, d_vol = 1;
            for (int k = 0; k < rd; ++k) d_vol *= own_d.hi[k] - own_d.lo[k];
            for (int m = 0; m < rx && d_vol; ++m) {
                int64_t lo = 0, hi = ex[m];
                for (int k = 0; k < rd; ++k)
                    if (md[k] == mx[m]) lo = own_d.lo[k], hi = own_d.hi[k];
                assert_int_equal(part.lo[m], lo);
                assert_int_equal(part.hi[m], hi);
                expect *= hi - lo;
            }
            assert_int_equal(vol, d_vol ? expect : 0); /* a rank without work wants nothing */
            int64_t received = 0;
            for (int s = 0; s < P; ++s) {
                cuperm_dist_box_t b;
                received += cuperm_dist_exchange_box(&lx, s, &want, r, ident, &b);
            }
            assert_int_equal(received, vol);
        }
    }
}

/* A sub-contraction of host tensors (labels 0 .. nlab-1, extents by label): D[d] = beta * D[d]
 * over D's block, then D[d] += alpha * A[a] * B[b] over every label; each tensor t addressed from
 * offset[t] by its strides str[t] over its modes. */
static void host_contract(int nlab, const int64_t* lext, const int* rank, const int32_t* const modes[3],
                          const int64_t* const str[3], const int64_t* offset, double alpha, double beta,
                          const double* A, const double* B, double* D)
{
    int64_t idx[8] = {0}, lo[8] = {0};
    for (int pass = 0; pass < 2; ++pass) {
        memset(idx, 0, sizeof idx);
        int64_t hi[8];
        for (int i = 0; i < nlab; ++i) hi[i] = lext[i];
        if (pass == 0) /* labels D lacks stay at 0: the scaling pass visits each element once */
            for (int i = 0; i < nlab; ++i) {
                int in_d = 0;
                for (int j = 0; j < rank[2]; ++j) in_d |= modes[2][j] == i;
                if (!in_d) hi[i] = 1;
            }
        do {
            int64_t o[3];
            for (int t = 0; t < 3; ++t) {
                o[t] = offset[t];
                for (int j = 0; j < rank[t]; ++j) o[t] += idx[modes[t][j]] * str[t][j];
            }
            if (pass == 0) D[o[2]] *= beta;
            else D[o[2]] += alpha * A[o[0]] * B[o[1]];
        } while (next_index(idx, lo, hi, nlab));
    }
}

/* Dense column-major copy of the block box of a global tensor (extents ext) into buf. */
static void copy_block(const double* global, const int64_t* ext, int rank, const cuperm_dist_box_t* box, double* buf)
{
    int64_t idx[CUPERM_MAX_RANK], n = 0;
    for (int m = 0; m < rank; ++m) idx[m] = box->lo[m];
    do buf[n++] = global[linear(idx, ext, rank)];
    while (next_index(idx, box->lo, box->hi, rank));
}

/* Overlapped distributed contractions (dist/ctr_parts.h): for every rank and either operand
 * arriving piece by piece, the parts' sub-contractions on the rank's buffers of A', B' and D,
 * run in order with beta on a block's first part and 1 after, give exactly the rank's block of
 * alpha * A B + beta * C; the parts come in the by-peer order and cover the operand's part. */
static void overlapped_parts_sum_to_the_contraction(void** state)
{
    (void)state;
    rng_t g = {4242};
    for (int trial = 0; trial < 300; ++trial) {
        const int P = (int)rng_range(&g, 1, 6);
        /* labels: free in A, free in B, summed, batch */
        const int nm = (int)rng_range(&g, 1, 2), nn = (int)rng_range(&g, 1, 2), nk = (int)rng_range(&g, 1, 2),
                  nl = (int)rng_range(&g, 0, 1), nlab = nm + nn + nk + nl;
        int64_t lext[8];
        for (int i = 0; i < nlab; ++i) lext[i] = rng_range(&g, 1, 5);
        int32_t md[3][CUPERM_MAX_RANK];
        int rank[3] = {0, 0, 0};
        int64_t ext[3][CUPERM_MAX_RANK];
        for (int i = 0; i < nlab; ++i) {
            const int kind = i < nm ? 0 : i < nm + nn ? 1 : i < nm + nn + nk ? 2 : 3;
            if (kind != 1) md[0][rank[0]++] = i;
            if (kind != 0) md[1][rank[1]++] = i;
            if (kind != 2) md[2][rank[2]++] = i;
        }
        rdesc_t desc[3];
        cuperm_dist_layout_t l[3], want[2];
        double* global[3];
        int64_t vol[3];
        for (int t = 0; t < 3; ++t) {
            for (int j = rank[t] - 1; j > 0; --j) { /* shuffle the mode order */
                const int k = (int)rng_range(&g, 0, j);
                const int32_t s = md[t][j];
                md[t][j] = md[t][k];
                md[t][k] = s;
            }
            vol[t] = 1;
            for (int j = 0; j < rank[t]; ++j) vol[t] *= ext[t][j] = lext[md[t][j]];
            random_desc(&g, rank[t], ext[t], P, &desc[t]);
            assert_int_equal(cuperm_dist_layout_init(&l[t], &desc[t].d, P, "X"), 0);
            global[t] = malloc((size_t)vol[t] * sizeof(double));
            for (int64_t i = 0; i < vol[t]; ++i) global[t][i] = (double)rng_range(&g, 0, 8) - 4;
        }
        for (int x = 0; x < 2; ++x) cuperm_dist_operand_layout(&l[2], md[2], &l[x], md[x], &want[x]);
        const double alpha = 2, beta = rng_range(&g, 0, 1) ? -1 : 0;
        /* the reference: the whole contraction on global tensors */
        double* ref = malloc((size_t)vol[2] * sizeof(double));
        memcpy(ref, global[2], (size_t)vol[2] * sizeof(double));
        int64_t gstr[3][CUPERM_MAX_RANK];
        const int64_t* gs[3] = {gstr[0], gstr[1], gstr[2]};
        const int32_t* const mp[3] = {md[0], md[1], md[2]};
        const int64_t zero3[3] = {0, 0, 0};
        for (int t = 0; t < 3; ++t)
            for (int j = 0, s = 1; j < rank[t]; s *= (int)ext[t][j], ++j) gstr[t][j] = s;
        host_contract(nlab, lext, rank, mp, gs, zero3, alpha, beta, global[0], global[1], ref);
        const cuperm_dist_layout_t* const buf[3] = {&want[0], &want[1], &l[2]};
        for (int me = 0; me < P; ++me) {
            cuperm_dist_box_t box[3];
            double* local[3];
            int64_t bstr[3][CUPERM_MAX_RANK], bvol[3];
            const int64_t* bs[3] = {bstr[0], bstr[1], bstr[2]};
            for (int t = 0; t < 3; ++t) {
                bvol[t] = cuperm_dist_owned(buf[t], me, &box[t]);
                local[t] = malloc((size_t)(bvol[t] ? bvol[t] : 1) * sizeof(double));
                if (bvol[t]) copy_block(global[t], ext[t], rank[t], &box[t], local[t]);
                for (int j = 0, s = 1; j < rank[t]; s *= (int)(box[t].hi[j] - box[t].lo[j]), ++j) bstr[t][j] = s;
            }
            double* want_d = malloc((size_t)(bvol[2] ? bvol[2] : 1) * sizeof(double));
            if (bvol[2]) copy_block(ref, ext[2], rank[2], &box[2], want_d);
            for (int x = 0; x < 2; ++x) {
                cuperm_dist_part_t parts[6];
                const int n = cuperm_dist_ctr_parts(&l[x], buf, mp, bs, x, me, parts);
                if (!bvol[2]) {
                    assert_int_equal(n, 0);
                    continue;
                }
                double* d = malloc((size_t)bvol[2] * sizeof(double));
                if (bvol[2]) copy_block(global[2], ext[2], rank[2], &box[2], d); /* C = D */
                int64_t covered = 0;
                for (int i = 0; i < n; ++i) {
                    const cuperm_dist_part_t* p = &parts[i];
                    assert_int_equal(p->step, ((me - p->peer) % P + P) % P);
                    if (i) assert_true(p->step > parts[i - 1].step);
                    int64_t pl[8], piece = 1;
                    for (int t = 0; t < 3; ++t)
                        for (int j = 0; j < rank[t]; ++j) pl[md[t][j]] = p->ext[t][j];
                    for (int j = 0; j < rank[x]; ++j) piece *= p->ext[x][j];
                    covered += piece;
                    host_contract(nlab, pl, rank, mp, bs, p->offset, alpha, p->accumulate ? 1 : beta, local[0],
                                  local[1], d);
                }
                assert_int_equal(covered, bvol[x]); /* the pieces partition the operand's part */
                for (int64_t i = 0; i < bvol[2]; ++i)
                    if (d[i] != want_d[i])
                        fail_msg("trial %d P %d rank %d operand %d: D element %lld = %g, want %g", trial, P, me, x,
                                 (long long)i, d[i], want_d[i]);
                free(d);
            }
            for (int t = 0; t < 3; ++t) free(local[t]);
            free(want_d);
        }
        for (int t = 0; t < 3; ++t) free(global[t]);
        free(ref);
    }
}

/* The overlapped schedule's time (cuperm_dist_overlap_seconds) on timelines worked by hand. */
static void overlap_model_timelines(void** state)
{
    (void)state;
    const double link[3] = {0, 2, 2}; /* rounds 1 and 2: 2 s each, after the other move's 1 s */
    const int round[3] = {0, 1, 2};
    /* compute-bound: own part 1..4, round 1 (arrived at 3) 4..5, round 2 (arrived at 5) 5..6 */
    const double slow[3] = {3, 1, 1};
    assert_true(cuperm_dist_overlap_seconds(1, 1, link, 2, round, slow, 3) == 6);
    /* the other operand read in place: the own part starts at 0 and ends at 3, the rest as above */
    assert_true(cuperm_dist_overlap_seconds(1, 0, link, 2, round, slow, 3) == 6);
    /* link-bound: parts of 0.5 s wait for each round; the last ends at 5.5 */
    const double fast[3] = {0.5, 0.5, 0.5};
    assert_true(cuperm_dist_overlap_seconds(1, 1, link, 2, round, fast, 3) == 5.5);
    /* no parts (an empty block of D): the link alone */
    assert_true(cuperm_dist_overlap_seconds(1, 1, link, 2, round, fast, 0) == 5);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(validation_rules),   cmocka_unit_test(uneven_blocks),
        cmocka_unit_test(brute_force_exchange), cmocka_unit_test(split_partitions_the_box),
        cmocka_unit_test(simulated_redistribution), cmocka_unit_test(hash_sees_global_changes),
        cmocka_unit_test(operand_layout_is_d_projection), cmocka_unit_test(overlapped_parts_sum_to_the_contraction),
        cmocka_unit_test(overlap_model_timelines),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
