/*
 * CPU emulation of the GETT kernel's data movement (src/backend/cuda/gett/gett_index.h, the
 * maps gett_mma.cu uses): tile loads of every run width cover each tile element once, at
 * 2W-aligned contiguous shared addresses inside the 8 KiB tile; ldmatrix.x4 (plain and .trans)
 * and mma.sync.m16n8k16 are emulated from the PTX ISA's fragment definitions on both tile
 * layouts of A and B, and every warp's accumulators, staged and written out by the epilogue
 * maps (both directions, every width), must equal the 128 x 128 x 32 product; bank conflicts
 * of ldmatrix phases, 16-byte tile writes and epilogue reads are absent.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "backend/cuda/gett/gett_index.h"

static uint8_t smem[GETT_STAGE_BYTES];

static uint16_t rd16(int byte)
{
    uint16_t v;
    memcpy(&v, smem + byte, 2);
    return v;
}

static void wr16(int byte, uint16_t v) { memcpy(smem + byte, &v, 2); }

/* The element (row, k) of a tile's run: k-major runs go along k, mn-major along rows. */
static void run_elem(int kMajor, int row, int k, int j, int* r, int* kk)
{
    *r = kMajor ? row : row + j;
    *kk = kMajor ? k + j : k;
}

/* Fills the tile at byte `at` with mat[row][k] (128 x 32) the way the kernel's loads do for
 * width w, checking coverage, bounds, contiguity and alignment. */
static void load_tile(int at, int kMajor, int w, uint16_t mat[128][32])
{
    static int seen[128][32];
    memset(seen, 0, sizeof seen);
    for (int tid = 0; tid < GETT_THREADS; ++tid)
        for (int i = 0; i < 16 / w; ++i) {
            int row, k;
            gett_load_run(kMajor, w, tid, i, &row, &k);
            const int first = gett_tile_byte(kMajor, row, k);
            assert_int_equal(first % (2 * w), 0);
            for (int j = 0; j < w; ++j) {
                int r, kk;
                run_elem(kMajor, row, k, j, &r, &kk);
                assert_true(r >= 0 && r < 128 && kk >= 0 && kk < 32);
                const int b = gett_tile_byte(kMajor, r, kk);
                assert_int_equal(b, first + 2 * j); /* one contiguous run */
                assert_true(b >= 0 && b < GETT_TILE_BYTES);
                ++seen[r][kk];
                wr16(at + b, mat[r][kk]);
            }
        }
    for (int r = 0; r < 128; ++r)
        for (int k = 0; k < 32; ++k) assert_int_equal(seen[r][k], 1);
}

static void test_tile_maps(void** state)
{
    (void)state;
    static int seen[GETT_TILE_BYTES / 2];
    for (int kMajor = 0; kMajor < 2; ++kMajor) {
        memset(seen, 0, sizeof seen);
        for (int r = 0; r < 128; ++r)
            for (int k = 0; k < 32; ++k) {
                const int b = gett_tile_byte(kMajor, r, k);
                assert_true(b >= 0 && b < GETT_TILE_BYTES && b % 2 == 0);
                ++seen[b / 2];
            }
        for (int i = 0; i < GETT_TILE_BYTES / 2; ++i) assert_int_equal(seen[i], 1); /* a bijection */
        /* 16-byte writes (W = 8): each phase of 8 threads hits 8 different bank groups. */
        for (int tid0 = 0; tid0 < GETT_THREADS; tid0 += 8)
            for (int i = 0; i < 2; ++i) {
                int groups = 0;
                for (int tid = tid0; tid < tid0 + 8; ++tid) {
                    int row, k;
                    gett_load_run(kMajor, 8, tid, i, &row, &k);
                    groups |= 1 << (gett_tile_byte(kMajor, row, k) / 16 % 8);
                }
                assert_int_equal(groups, 0xff);
            }
    }
}

/* ldmatrix.x4 per the PTX ISA: lanes 8j..8j+7 give the rows of matrix j; lane receives, in
 * register j, row lane/4 elements 2(lane%4), +1 (plain) or rows 2(lane%4), +1 of column
 * lane/4 (.trans), the lower-indexed element in the low half. */
static void ldsm_x4(const int addr[32], int trans, uint16_t out[32][4][2])
{
    for (int j = 0; j < 4; ++j) {
        uint16_t m[8][8];
        int groups = 0;
        for (int r = 0; r < 8; ++r) {
            const int a = addr[j * 8 + r];
            assert_int_equal(a % 16, 0);
            groups |= 1 << (a / 16 % 8);
            for (int c = 0; c < 8; ++c) m[r][c] = rd16(a + 2 * c);
        }
        assert_int_equal(groups, 0xff); /* no bank conflicts in this phase */
        for (int lane = 0; lane < 32; ++lane) {
            const int g = lane / 4, t = lane % 4;
            out[lane][j][0] = trans ? m[2 * t][g] : m[g][2 * t];
            out[lane][j][1] = trans ? m[2 * t + 1][g] : m[g][2 * t + 1];
        }
    }
}

/* mma.sync.m16n8k16.row.col per the PTX ISA fragment layouts (g = lane / 4, t = lane % 4):
 * A register i (halves h): row g + 8 (i & 1), column 2t + h + 8 (i >> 1); B register i:
 * row (k) 2t + h + 8 i, column g; C element v: row g + 8 (v >> 1), column 2t + (v & 1). */
static void mma(const uint16_t a[32][4][2], const uint16_t b0[32][2], const uint16_t b1[32][2], double c[32][4])
{
    double A[16][16], B[16][8];
    int seenA[16][16] = {{0}}, seenB[16][8] = {{0}};
    for (int lane = 0; lane < 32; ++lane) {
        const int g = lane / 4, t = lane % 4;
        for (int i = 0; i < 4; ++i)
            for (int h = 0; h < 2; ++h) {
                const int row = g + 8 * (i & 1), col = 2 * t + h + 8 * (i >> 1);
                A[row][col] = a[lane][i][h];
                ++seenA[row][col];
            }
        for (int h = 0; h < 2; ++h) {
            B[2 * t + h][g] = b0[lane][h];
            B[2 * t + h + 8][g] = b1[lane][h];
            ++seenB[2 * t + h][g];
            ++seenB[2 * t + h + 8][g];
        }
    }
    for (int r = 0; r < 16; ++r)
        for (int k = 0; k < 16; ++k) assert_int_equal(seenA[r][k], 1);
    for (int k = 0; k < 16; ++k)
        for (int n = 0; n < 8; ++n) assert_int_equal(seenB[k][n], 1);
    for (int lane = 0; lane < 32; ++lane) {
        const int g = lane / 4, t = lane % 4;
        for (int v = 0; v < 4; ++v) {
            const int row = g + 8 * (v >> 1), col = 2 * t + (v & 1);
            for (int k = 0; k < 16; ++k) c[lane][v] += A[row][k] * B[k][col];
        }
    }
}

static uint16_t matA[128][32], matB[128][32]; /* A[m][k], B[n][k] */
static double want[128][128];

static void block_product(int aKMajor, int bKMajor, int wA, int wB)
{
    memset(smem, 0, sizeof smem);
    load_tile(0, aKMajor, wA, matA);
    load_tile(GETT_TILE_BYTES, bKMajor, wB, matB);
    static double acc[8][4][4][32][4];
    memset(acc, 0, sizeof acc);
    for (int warp = 0; warp < 8; ++warp) {
        const int warpM = warp % 2, warpN = warp / 2; /* as in the kernel */
        int aBase[32], bBase[32];
        for (int lane = 0; lane < 32; ++lane) {
            int row, k;
            gett_ldsm_lane(0, aKMajor, lane, warpM * 64, 0, &row, &k);
            aBase[lane] = gett_tile_byte(aKMajor, row, k);
            gett_ldsm_lane(1, bKMajor, lane, warpN * 32, 0, &row, &k);
            bBase[lane] = GETT_TILE_BYTES + gett_tile_byte(bKMajor, row, k);
        }
        for (int ks = 0; ks < 2; ++ks) {
            uint16_t af[4][32][4][2], bf[2][32][4][2];
            for (int mt = 0; mt < 4; ++mt) {
                int addr[32];
                for (int lane = 0; lane < 32; ++lane) {
                    int row, k;
                    gett_ldsm_lane(0, aKMajor, lane, warpM * 64 + mt * 16, ks * 16, &row, &k);
                    addr[lane] = gett_ldsm_step(aKMajor, aBase[lane], ks, mt);
                    assert_int_equal(addr[lane], gett_tile_byte(aKMajor, row, k));
                }
                ldsm_x4(addr, !aKMajor, af[mt]);
            }
            for (int np = 0; np < 2; ++np) {
                int addr[32];
                for (int lane = 0; lane < 32; ++lane) {
                    int row, k;
                    gett_ldsm_lane(1, bKMajor, lane, warpN * 32 + np * 16, ks * 16, &row, &k);
                    addr[lane] = gett_ldsm_step(bKMajor, bBase[lane], ks, np);
                    assert_int_equal(addr[lane], GETT_TILE_BYTES + gett_tile_byte(bKMajor, row, k));
                }
                ldsm_x4(addr, !bKMajor, bf[np]);
            }
            for (int mt = 0; mt < 4; ++mt)
                for (int nt = 0; nt < 4; ++nt) {
                    uint16_t b0[32][2], b1[32][2];
                    for (int lane = 0; lane < 32; ++lane)
                        for (int h = 0; h < 2; ++h) {
                            b0[lane][h] = bf[nt / 2][lane][(nt % 2) * 2][h];
                            b1[lane][h] = bf[nt / 2][lane][(nt % 2) * 2 + 1][h];
                        }
                    mma((const uint16_t(*)[4][2])af[mt], (const uint16_t(*)[2])b0, (const uint16_t(*)[2])b1,
                        acc[warp][mt][nt]);
                }
        }
    }
    /* Epilogue: staging and every write-out map must deliver want[][] once per element, with
     * aligned vector reads and the bank conflicts gett_epi_slot promises. */
    static float st[GETT_EPI_WARP_FLOATS];
    for (int warp = 0; warp < 8; ++warp) {
        const int warpM = warp % 2, warpN = warp / 2;
        for (int h = 0; h < 2; ++h)
            for (int mFast = 0; mFast < 2; ++mFast) {
                memset(st, 0, sizeof st);
                for (int mt = 0; mt < 2; ++mt)
                    for (int nt = 0; nt < 4; ++nt)
                        for (int v = 0; v < 4; v += 2) {
                            /* mFast: two scalar stores, conflict-free; else one float2 store per lane,
                             * two half-warp phases, at most 2-way conflicts */
                            int banks[2][32] = {{0}};
                            for (int lane = 0; lane < 32; ++lane) {
                                int r, c;
                                gett_acc_pos(lane, mt, nt, v, &r, &c);
                                for (int j = 0; j < 2; ++j) {
                                    const int slot = gett_epi_slot(mFast, r, c + j);
                                    st[slot] = (float)acc[warp][h * 2 + mt][nt][lane][v + j];
                                    ++banks[mFast ? j : lane / 16][slot % 32];
                                }
                                if (!mFast) assert_int_equal(gett_epi_slot(0, r, c) % 2, 0);
                            }
                            for (int p = 0; p < 2; ++p)
                                for (int k = 0; k < 32; ++k) assert_true(banks[p][k] <= (mFast ? 1 : 2));
                        }
                for (int w = 1; w <= 8; w *= 2) {
                    const int vec = w < 4 ? w : 4, perPhase = 32 / vec; /* floats per read, lanes per phase */
                    int seen[32][32] = {{0}};
                    for (int i = 0; i < 32 / w; ++i) {
                        int banks[32][32] = {{0}}; /* [phase * (w / vec) + read][bank] */
                        for (int lane = 0; lane < 32; ++lane) {
                            int r, c;
                            gett_epi_run(mFast, w, lane, i, &r, &c);
                            const int slot = gett_epi_slot(mFast, r, c);
                            assert_int_equal(slot % vec, 0);
                            for (int j = 0; j < w; ++j) {
                                const int rr = mFast ? r + j : r, cc = mFast ? c : c + j;
                                assert_true(rr < 32 && cc < 32);
                                assert_int_equal(gett_epi_slot(mFast, rr, cc), slot + j);
                                ++seen[rr][cc];
                                ++banks[(lane / perPhase) * (w / vec) + j / vec][(slot + j) % 32];
                                const double got = st[slot + j];
                                const double exp = want[warpM * 64 + h * 32 + rr][warpN * 32 + cc];
                                if (got != exp)
                                    fail_msg("A %s-major x%d, B %s-major x%d: warp %d piece %d (%d, %d): got %g want %g",
                                             aKMajor ? "k" : "m", wA, bKMajor ? "k" : "n", wB, warp, h, rr, cc, got,
                                             exp);
                            }
                        }
                        for (int p = 0; p < 32; ++p)
                            for (int k = 0; k < 32; ++k) assert_true(banks[p][k] <= 1); /* conflict-free reads */
                    }
                    for (int r = 0; r < 32; ++r)
                        for (int c = 0; c < 32; ++c) assert_int_equal(seen[r][c], 1);
                }
            }
    }
}

static void test_block_product(void** state)
{
    (void)state;
    uint32_t x = 12345;
    for (int r = 0; r < 128; ++r)
        for (int k = 0; k < 32; ++k) {
            x = x * 1103515245u + 12345u;
            matA[r][k] = (uint16_t)(x >> 16) % 17;
            x = x * 1103515245u + 12345u;
            matB[r][k] = (uint16_t)(x >> 16) % 13;
        }
    for (int m = 0; m < 128; ++m)
        for (int n = 0; n < 128; ++n) {
            double s = 0;
            for (int k = 0; k < 32; ++k) s += (double)matA[m][k] * matB[n][k];
            want[m][n] = s;
        }
    for (int aK = 0; aK < 2; ++aK)
        for (int bK = 0; bK < 2; ++bK)
            for (int w = 1; w <= 8; w *= 2) block_product(aK, bK, w, 8 / w);
}

static void test_tile_order(void** state)
{
    (void)state;
    const int shapes[][2] = {{1, 1}, {3, 5}, {8, 3}, {9, 7}, {17, 2}, {20, 20}};
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; ++s) {
        const int mT = shapes[s][0], nT = shapes[s][1];
        int seen[20][20] = {{0}};
        for (int b = 0; b < mT * nT; ++b) {
            int tm, tn;
            gett_tile_of(b, mT, nT, &tm, &tn);
            assert_true(tm >= 0 && tm < mT && tn >= 0 && tn < nT);
            ++seen[tm][tn];
        }
        for (int i = 0; i < mT; ++i)
            for (int j = 0; j < nT; ++j) assert_int_equal(seen[i][j], 1);
    }
}

/* The skinny kernel's split tiles (alpha_lo 8 x beta_lo 8 or 16): rows and (alpha, beta) one to
 * one in the plan's digit order; the accumulators staged by slot, read back run by run, give every
 * (row, column) once, each run contiguous, 4-float aligned and 8 consecutive beta of one alpha
 * (rows 8 apart: D's run); the element-by-element walk is a permutation along beta; staging
 * stores meet at most 4-way bank conflicts. */
static void test_split_maps(void** state)
{
    (void)state;
    enum { COLS = 32 };
    static int slotOf[GETT_BM][COLS], seen[COLS * GETT_SPLIT_PITCH];
    for (int fbLog = 3; fbLog <= 4; ++fbLog) {
        const int fb = 1 << fbLog;
        int rows[GETT_BM] = {0};
        for (int r = 0; r < GETT_BM; ++r) {
            int a, b;
            gett_split_ab(fbLog, r, &a, &b);
            assert_true(a >= 0 && a < GETT_BM / fb && b >= 0 && b < fb);
            assert_int_equal(gett_split_row(fbLog, a, b), r);
            /* the plan's digits: alpha_lo = r % 8, beta_lo = r / 8 % fb, alpha_hi = r / (8 fb) */
            assert_int_equal(a, r % 8 + 8 * (r / (8 * fb)));
            assert_int_equal(b, r / 8 % fb);
            ++rows[gett_split_walk_row(1, fbLog, r)];
            if (r % fb) assert_int_equal(gett_split_walk_row(1, fbLog, r), gett_split_walk_row(1, fbLog, r - 1) + 8);
        }
        for (int r = 0; r < GETT_BM; ++r) assert_int_equal(rows[r], 1);
        /* the kernel's accumulator staging: warp w's rows 16 w .., mma fragment positions */
        memset(seen, 0, sizeof seen);
        int worst = 0;
        for (int warp = 0; warp < 8; ++warp)
            for (int nt = 0; nt < 4; ++nt)
                for (int v = 0; v < 4; ++v) {
                    int perBank[32][32], count[32] = {0};
                    for (int lane = 0; lane < 32; ++lane) {
                        int r, col, a, b;
                        gett_acc_pos(lane, 0, nt, v, &r, &col);
                        r += warp * 16;
                        gett_split_ab(fbLog, r, &a, &b);
                        const int s = gett_split_slot(fbLog, a, b, col);
                        assert_true(s >= 0 && s < COLS * GETT_SPLIT_PITCH);
                        assert_int_equal(seen[s]++, 0);
                        slotOf[r][col] = s;
                        int dup = 0;
                        for (int i = 0; i < count[s % 32]; ++i) dup |= perBank[s % 32][i] == s;
                        if (!dup) perBank[s % 32][count[s % 32]++] = s;
                    }
                    for (int k = 0; k < 32; ++k) worst = count[k] > worst ? count[k] : worst;
                }
        assert_true(worst <= 4);
        /* read back run by run */
        int got[GETT_BM][COLS];
        memset(got, 0, sizeof got);
        for (int i = 0; i < GETT_BM / GETT_SPLIT_RUN * COLS; ++i) {
            int col, a, b;
            gett_split_run(fbLog, i, &col, &a, &b);
            assert_true(col >= 0 && col < COLS && b % GETT_SPLIT_RUN == 0 && b + GETT_SPLIT_RUN <= fb);
            const int first = gett_split_slot(fbLog, a, b, col), m = gett_split_row(fbLog, a, b);
            assert_int_equal(first % 4, 0);
            for (int j = 0; j < GETT_SPLIT_RUN; ++j) {
                const int r = gett_split_row(fbLog, a, b + j);
                assert_int_equal(r, m + 8 * j); /* D's run: beta_lo steps, rows 8 apart */
                assert_int_equal(slotOf[r][col], first + j);
                ++got[r][col];
            }
        }
        for (int r = 0; r < GETT_BM; ++r)
            for (int c = 0; c < COLS; ++c) assert_int_equal(got[r][c], 1);
    }
    for (int t = 0; t < GETT_BM; ++t) assert_int_equal(gett_split_walk_row(0, 0, t), t);
}

/* The Hopper form's tiles (gett_wg_*): each layout puts the 128 x 32 elements on distinct 2-byte
 * slots of the 8 KiB tile, every load run of every width contiguous and aligned, and is the
 * unswizzled canonical layout with the swizzle's XOR of address bits (64-byte: bits 4-5 ^= 7-8;
 * 128-byte: bits 4-6 ^= 7-9). */
static void test_wg_tiles(void** state)
{
    (void)state;
    static int seen[GETT_TILE_BYTES / 2];
    for (int kMajor = 0; kMajor < 2; ++kMajor) {
        memset(seen, 0, sizeof seen);
        for (int row = 0; row < 128; ++row)
            for (int k = 0; k < 32; ++k) {
                const int b = gett_wg_tile_byte(kMajor, row, k);
                assert_true(b >= 0 && b < GETT_TILE_BYTES && b % 2 == 0);
                ++seen[b / 2];
                const int plain = kMajor ? row * 64 + k * 2
                                         : ((row >> 6) + 2 * (k >> 3)) * 1024 + (k & 7) * 128 + (row & 63) * 2;
                const int swizzled = kMajor ? plain ^ (((plain >> 7) & 3) << 4) : plain ^ (((plain >> 7) & 7) << 4);
                assert_int_equal(b, swizzled);
            }
        for (int i = 0; i < GETT_TILE_BYTES / 2; ++i) assert_int_equal(seen[i], 1);
        for (int w = 1; w <= 8; w *= 2)
            for (int tid = 0; tid < GETT_THREADS; ++tid)
                for (int i = 0; i < 16 / w; ++i) {
                    int row, k;
                    gett_load_run(kMajor, w, tid, i, &row, &k);
                    const int first = gett_wg_tile_byte(kMajor, row, k);
                    assert_int_equal(first % (2 * w), 0);
                    for (int j = 1; j < w; ++j) {
                        int r, kk;
                        run_elem(kMajor, row, k, j, &r, &kk);
                        assert_int_equal(gett_wg_tile_byte(kMajor, r, kk), first + 2 * j);
                    }
                }
    }
}

/* What wgmma reads through a descriptor (the PTX ISA's canonical layouts, 16-bit elements):
 * element (m, kk) of an operand of `rowsOp` rows x 16 k. k-major, 64-byte swizzle: 8-row groups
 * SBO apart, rows 64 bytes apart; mn-major, 128-byte swizzle: 64-row atoms LBO apart, 8-k atoms
 * SBO apart, 128 bytes a k. The swizzle XORs the absolute address. */
static int wg_read_byte(unsigned long long desc, int kMajor, int m, int kk)
{
    const int start = (int)(desc & 0x3FFF) << 4, lbo = (int)((desc >> 16) & 0x3FFF) << 4;
    const int sbo = (int)((desc >> 32) & 0x3FFF) << 4, type = (int)(desc >> 62);
    assert_int_equal(type, kMajor ? GETT_WG_SWIZZLE_64B : GETT_WG_SWIZZLE_128B);
    assert_int_equal((int)((desc >> 49) & 7), 0); /* base offset: tiles 1 KiB aligned */
    if (kMajor) {
        const int a = start + (m / 8) * sbo + (m % 8) * 64 + kk * 2;
        return a ^ (((a >> 7) & 3) << 4);
    }
    const int a = start + (m / 64) * lbo + (kk / 8) * sbo + (kk % 8) * 128 + (m % 64) * 2;
    return a ^ (((a >> 7) & 7) << 4);
}

/* Every warpgroup's A operand (64 rows) and the B operand (128 rows) of both k16 steps, read
 * through the kernel's descriptors from a stage at a 1 KiB-aligned address, are the tile elements
 * the loads put there; the accumulator map covers a warpgroup's 64 x 128 outputs once. */
static void test_wg_descriptors(void** state)
{
    (void)state;
    const unsigned stage = 3 * 1024 * 16; /* a stage of the pipeline: 1 KiB aligned */
    for (int kMajor = 0; kMajor < 2; ++kMajor)
        for (int isB = 0; isB < 2; ++isB)
            for (int g = 0; g < (isB ? 1 : 2); ++g)
                for (int ks = 0; ks < 2; ++ks) {
                    const int tile = isB ? GETT_TILE_BYTES : 0, r0 = isB ? 0 : 64 * g;
                    const unsigned long long d =
                        gett_wg_desc(stage + (unsigned)(tile + gett_wg_operand_byte(kMajor, r0, ks)), kMajor);
                    for (int m = 0; m < (isB ? 128 : 64); ++m)
                        for (int kk = 0; kk < 16; ++kk)
                            assert_int_equal(wg_read_byte(d, kMajor, m, kk),
                                             (int)stage + tile + gett_wg_tile_byte(kMajor, r0 + m, 16 * ks + kk));
                }
    static int hit[64][128];
    memset(hit, 0, sizeof hit);
    for (int w = 0; w < 4; ++w)
        for (int lane = 0; lane < 32; ++lane)
            for (int i = 0; i < 64; ++i) {
                int r, c;
                gett_wg_acc_pos(w, lane, i, &r, &c);
                assert_true(r >= 0 && r < 64 && c >= 0 && c < 128);
                ++hit[r][c];
            }
    for (int r = 0; r < 64; ++r)
        for (int c = 0; c < 128; ++c) assert_int_equal(hit[r][c], 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tile_maps),
        cmocka_unit_test(test_block_product),
        cmocka_unit_test(test_tile_order),
        cmocka_unit_test(test_split_maps),
        cmocka_unit_test(test_wg_tiles),
        cmocka_unit_test(test_wg_descriptors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
