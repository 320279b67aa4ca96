/*
 * Index maps of the GETT kernel (gett_mma.cuh), plain C so that the CPU test
 * tests/contraction/test_gett_index.c can emulate the kernel's data movement (tile loads,
 * ldmatrix, mma.sync fragments, epilogue) with exactly these functions.
 *
 * Block tile GETT_BM x GETT_BN outputs, GETT_BK deep; 256 threads = 8 warps as 2 (M) x 4 (N),
 * each warp 64 x 32 outputs = 4 x 4 mma.sync.m16n8k16 tiles.
 *
 * Shared operand tiles (one per operand per pipeline stage, 8 KiB, 16-bit elements), in one of
 * two layouts, 16-byte chunks XOR-swizzled so that ldmatrix (8 rows of 16 bytes per phase)
 * and the loads' 16-byte writes meet no bank conflicts:
 *   k-major  (k contiguous):  128 rows x 32 k, 64 bytes a row; two rows form one 128-byte
 *            line, chunk p = (row & 1) * 4 + k / 8 of the line is stored at p ^ (line & 7);
 *   mn-major (m / n contiguous): 32 k x 128 rows, 256 bytes per k; chunk c = row / 8 is
 *            stored at c ^ (k & 7).
 */
#ifndef CUPERM_BACKEND_GETT_INDEX_H
#define CUPERM_BACKEND_GETT_INDEX_H

#ifdef __CUDACC__
#define GETT_HD static __host__ __device__ __forceinline__
#else
#define GETT_HD static inline
#endif

enum {
    GETT_BM = 128,
    GETT_BN = 128,
    GETT_BK = 32,
    GETT_THREADS = 256,
    GETT_STAGES = 4,
    GETT_TILE_BYTES = 128 * 32 * 2,         /* one operand tile */
    GETT_STAGE_BYTES = 2 * GETT_TILE_BYTES, /* A then B */
    GETT_PIPE_BYTES = GETT_STAGES * GETT_STAGE_BYTES,
    GETT_EPI_PITCH = 36,                    /* epilogue staging: floats per line of a 32 x 32 piece */
    GETT_EPI_WARP_FLOATS = 32 * GETT_EPI_PITCH,
};

/* Byte offset of element (row, k) in a k-major tile. */
GETT_HD int gett_kmajor_byte(int row, int k)
{
    const int line = row >> 1, p = ((row & 1) << 2) | (k >> 3);
    return (line << 7) + ((p ^ (line & 7)) << 4) + ((k & 7) << 1);
}

/* Byte offset of element (row, k) in an mn-major tile. */
GETT_HD int gett_mnmajor_byte(int row, int k)
{
    return (k << 8) + (((row >> 3) ^ (k & 7)) << 4) + ((row & 7) << 1);
}

GETT_HD int gett_tile_byte(int kMajor, int row, int k)
{
    return kMajor ? gett_kmajor_byte(row, k) : gett_mnmajor_byte(row, k);
}

/*
 * Tile loads: an operand tile is 4096 elements = 4096 / W runs of W elements along the
 * layout's contiguous direction; thread tid loads 16 / W of them, number i = 0 .. 16/W - 1 at
 * (row, k) .. (row, k + W - 1) (k-major) or (row, k) .. (row + W - 1, k) (mn-major).
 * k-major: consecutive threads take consecutive k-runs of a row (one k per thread);
 * mn-major: consecutive threads take consecutive row-runs of one k (one row start per thread).
 */
GETT_HD void gett_load_run(int kMajor, int w, int tid, int i, int* row, int* k)
{
    if (kMajor) {
        const int perRow = GETT_BK / w; /* runs per row */
        *k = (tid % perRow) * w;
        *row = tid / perRow + i * (GETT_THREADS / perRow);
    } else {
        const int perK = GETT_BM / w; /* runs per k */
        *row = (tid % perK) * w;
        *k = tid / perK + i * (GETT_THREADS / perK);
    }
}

/*
 * ldmatrix.x4 addresses. Lane `lane` points at row (lane & 7) of 8 x 8 matrix j = lane / 8.
 * A (16 x 16 at rows r0.., k0..): matrix j holds rows r0 + (j & 1) * 8 .., k0 + (j >> 1) * 8 ..
 * = fragment registers a0..a3 of mma.m16n8k16 (row-major A). B (two 8-column n-tiles at
 * n0.., k0..): matrix j holds n0 + (j >> 1) * 8 .., k0 + (j & 1) * 8 .. = b0, b1 of n-tile 0,
 * then b0, b1 of n-tile 1 (col-major B). k-major tiles: the lane's address is the run of 8 k
 * of its row (plain ldmatrix); mn-major tiles: the run of 8 rows of its k (ldmatrix.trans).
 * Returns the (row, k) of the first element at the lane's address.
 */
GETT_HD void gett_ldsm_lane(int isB, int kMajor, int lane, int r0, int k0, int* row, int* k)
{
    const int j = lane >> 3, r = lane & 7;
    const int dRow = isB ? (j >> 1) * 8 : (j & 1) * 8, dK = isB ? (j & 1) * 8 : (j >> 1) * 8;
    *row = r0 + dRow + (kMajor ? r : 0);
    *k = k0 + dK + (kMajor ? 0 : r);
}

/*
 * The same addresses as byte offsets in a stage, cheap to form per k16 step ks (0, 1) and
 * m-tile (A, t = 0..3, rows r0 + 16 t) or n-tile pair (B, t = 0..1, rows r0 + 16 t) from the
 * offset for ks = 0, t = 0 (base = gett_tile_byte of gett_ldsm_lane(isB, kMajor, lane, r0, 0)):
 * k-major: +16 rows are +8 lines (+1024 bytes, the same swizzle), +16 k flip chunk bit 1;
 * mn-major: +16 k are +4096 bytes, +16 rows flip chunk bit 1 (rows r0 are a multiple of 32
 * for A, 16 for B, so the chunk bits below stay the lane's). tests/contraction/test_gett_index.c
 * checks these against gett_tile_byte for every lane, warp, ks and t.
 */
GETT_HD int gett_ldsm_step(int kMajor, int base, int ks, int t)
{
    return kMajor ? (base ^ (ks << 5)) + (t << 10) : (base + (ks << 12)) ^ (t << 5);
}

/*
 * Epilogue. Each warp writes its 64 x 32 outputs as two 32 x 32 pieces (rows h * 32 ..),
 * staged as floats (alpha already applied) in lines of GETT_EPI_PITCH along the direction the
 * piece goes out in (gett_epi_slot), so that each run is one or two vector reads. Accumulator
 * element v (0..3) of m-tile mt (0..1 within the piece) and n-tile nt (0..3) of lane is at
 * (r, c) below (mma.m16n8k16's C fragment: rows g and g + 8, columns 2t, 2t + 1, g = lane / 4,
 * t = lane % 4).
 */
GETT_HD void gett_acc_pos(int lane, int mt, int nt, int v, int* r, int* c)
{
    *r = mt * 16 + (lane >> 2) + (v >> 1) * 8;
    *c = nt * 8 + (lane & 3) * 2 + (v & 1);
}

/*
 * Staging slot (float index) of piece element (r, c): lines are columns when the piece goes
 * out along rows (mFast), rows otherwise; a run of W along the line is W consecutive floats,
 * 4-float aligned when W >= 4 (the pitch is a multiple of 4). Pitch 36 = 4 mod 32 banks: the
 * accumulator stores (scalar when mFast, float2 pairs (v, v + 1) otherwise) and every run read
 * of gett_epi_run meet at most 2-way conflicts (mFast stores and all reads: none; the float2
 * stores: 2-way); test_gett_index checks it.
 */
GETT_HD int gett_epi_slot(int mFast, int r, int c)
{
    return mFast ? c * GETT_EPI_PITCH + r : r * GETT_EPI_PITCH + c;
}

/*
 * The piece goes out in runs of W (8, 4, 2, 1) along rows (mFast) or columns: lane writes
 * 32 / W runs, number i = 0 .. 32/W - 1 starting at (r, c); consecutive lanes take
 * consecutive runs of one column (mFast) or row.
 */
GETT_HD void gett_epi_run(int mFast, int w, int lane, int i, int* r, int* c)
{
    const int perLine = 32 / w, fast = (lane % perLine) * w, slow = lane / perLine + i * w;
    *r = mFast ? fast : slow;
    *c = mFast ? slow : fast;
}

/*
 * The Hopper form of the table kernel (gett_wgmma.cu): the same block tile and loads, its operand
 * tiles in the canonical layouts that wgmma.mma_async reads through shared-memory descriptors
 * (the PTX ISA's "matrix descriptor" layouts; the swizzles XOR address bits, so every tile starts
 * 1 KiB aligned):
 *   k-major  (k contiguous): 128 rows x 32 k, 64 bytes a row, the 64-byte swizzle: 16-byte chunk
 *            c = k / 8 of row r is stored at c ^ ((r / 2) & 3); eight rows form a 512-byte group;
 *   mn-major (m / n contiguous): 1 KiB atoms of 64 rows x 8 k (128 bytes a k), the 128-byte
 *            swizzle: chunk c = (row / 8) & 7 of k is stored at c ^ (k & 7); atom (row / 64, k / 8)
 *            at (row / 64 + 2 (k / 8)) KiB.
 * A warpgroup (4 warps) multiplies 64 rows of A by the 128 columns of B, 16 k at a time
 * (m64n128k16), 64 fp32 accumulators a thread.
 */
enum {
    GETT_WG_KMAJOR_SBO = 8 * 64,     /* bytes between 8-row groups of a k-major tile */
    GETT_WG_MNMAJOR_LBO = 1024,      /* bytes between the 64-row atoms of an mn-major tile */
    GETT_WG_MNMAJOR_SBO = 2 * 1024,  /* bytes between its 8-k atoms */
    GETT_WG_SWIZZLE_128B = 1,        /* the descriptor's layout type */
    GETT_WG_SWIZZLE_64B = 2,
};

/* Byte offset of element (row, k) in a k-major / mn-major tile of the Hopper form. */
GETT_HD int gett_wg_kmajor_byte(int row, int k)
{
    return (row << 6) + (((k >> 3) ^ ((row >> 1) & 3)) << 4) + ((k & 7) << 1);
}

GETT_HD int gett_wg_mnmajor_byte(int row, int k)
{
    return (((row >> 6) + ((k >> 3) << 1)) << 10) + ((k & 7) << 7) + ((((row >> 3) & 7) ^ (k & 7)) << 4) +
           ((row & 7) << 1);
}

GETT_HD int gett_wg_tile_byte(int kMajor, int row, int k)
{
    return kMajor ? gett_wg_kmajor_byte(row, k) : gett_wg_mnmajor_byte(row, k);
}

/* Where a warpgroup's operand of one k16 step starts in its tile (bytes): rows r0 .. of A (64 of
 * them) or of B (all 128, r0 = 0), k 16 ks .. 16 ks + 15. k-major: rows of 64 bytes, the step
 * +32 bytes inside them; mn-major: the atom of rows r0 and k 16 ks. */
GETT_HD int gett_wg_operand_byte(int kMajor, int r0, int ks)
{
    return kMajor ? r0 * 64 + ks * 32 : (r0 >> 6) * GETT_WG_MNMAJOR_LBO + ks * 2 * GETT_WG_MNMAJOR_SBO;
}

/* The descriptor of an operand at shared address addr (bytes; 4 low bits dropped as the format
 * has them): start address, leading and stride byte offsets, base offset 0, layout type. */
GETT_HD unsigned long long gett_wg_desc(unsigned addr, int kMajor)
{
    const unsigned long long lbo = kMajor ? 16 : GETT_WG_MNMAJOR_LBO; /* k-major swizzled: unused */
    const unsigned long long sbo = kMajor ? GETT_WG_KMAJOR_SBO : GETT_WG_MNMAJOR_SBO;
    const unsigned long long type = kMajor ? GETT_WG_SWIZZLE_64B : GETT_WG_SWIZZLE_128B;
    return (unsigned long long)((addr >> 4) & 0x3FFF) | ((lbo >> 4) & 0x3FFF) << 16 | ((sbo >> 4) & 0x3FFF) << 32 |
           type << 62;
}

/* Accumulator i (0..63) of lane `lane` of warp w (0..3) of a warpgroup: its row (0..63) and
 * column (0..127) among the warpgroup's outputs (eight-column groups of mma.m16n8's C fragment). */
GETT_HD void gett_wg_acc_pos(int w, int lane, int i, int* r, int* c)
{
    *r = 16 * w + (lane >> 2) + 8 * ((i >> 1) & 1);
    *c = 8 * (i >> 2) + 2 * (lane & 3) + (i & 1);
}

/*
 * The skinny kernel's split tiles (gett_skinny.cu; the plan's M order,
 * plan/contraction/gett.h: cuperm_ctr_gett_skinny_split): M's leading digits are alpha_lo
 * (GETT_SPLIT = 8 of A's unit-stride mode) and beta_lo (fb = 1 << fbLog, 8 or 16, of D's),
 * then alpha_hi, so a GETT_BM-row tile holds alpha a < GETT_BM / fb and beta b < fb at row
 * r = a % 8 + 8 b + 8 fb (a / 8). Powers of two: shifts and masks (the division sequences of
 * runtime divisors doubled the kernel's instructions).
 */
enum {
    GETT_SPLIT = 8,
    GETT_SPLIT_LOG = 3,
    GETT_SPLIT_RUN = 8, /* the epilogue's runs along beta: 8 elements, one or two 16-byte stores */
    GETT_SPLIT_GAP = 4, /* floats between one alpha's staged runs and the next's */
    GETT_SPLIT_PITCH = GETT_BM + (GETT_BM / GETT_SPLIT_RUN) * GETT_SPLIT_GAP + 4, /* floats a column */
};

/* Row of alpha a, beta b in a split tile. */
GETT_HD int gett_split_row(int fbLog, int a, int b)
{
    return (a & (GETT_SPLIT - 1)) + (b << GETT_SPLIT_LOG) + ((a >> GETT_SPLIT_LOG) << (GETT_SPLIT_LOG + fbLog));
}

/* Alpha a and beta b of split-tile row r (gett_split_row's inverse). */
GETT_HD void gett_split_ab(int fbLog, int r, int* a, int* b)
{
    const int blkLog = GETT_SPLIT_LOG + fbLog, in = r & ((1 << blkLog) - 1);
    *a = (in & (GETT_SPLIT - 1)) + ((r >> blkLog) << GETT_SPLIT_LOG);
    *b = in >> GETT_SPLIT_LOG;
}

/* Staging slot (float index) of alpha a, beta b, column col when a split tile goes out in runs
 * along beta: b + (fb + GETT_SPLIT_GAP) a of the column, so that each run is contiguous and
 * 4-float aligned (b a multiple of GETT_SPLIT_RUN). An accumulator store (8 alphas x 4 columns)
 * meets at most 4-way bank conflicts, the floor with every run 4-float aligned: its 8 alphas
 * fall on 8 different groups of 4 banks, its 4 columns on one. */
GETT_HD int gett_split_slot(int fbLog, int a, int b, int col)
{
    return col * GETT_SPLIT_PITCH + b + ((1 << fbLog) + GETT_SPLIT_GAP) * a;
}

/* Run i (0 .. GETT_BM / GETT_SPLIT_RUN x columns - 1) of a split tile going out: its column,
 * alpha and first beta; consecutive runs along beta, then alpha, then columns. */
GETT_HD void gett_split_run(int fbLog, int i, int* col, int* a, int* b)
{
    const int perAlphaLog = fbLog - 3, j = i % (GETT_BM / GETT_SPLIT_RUN);
    *col = i / (GETT_BM / GETT_SPLIT_RUN);
    *a = j >> perAlphaLog;
    *b = (j & ((1 << perAlphaLog) - 1)) * GETT_SPLIT_RUN;
}

/* The row thread t (0 .. GETT_BM - 1) writes when a tile goes out element by element: with a
 * split, consecutive threads along beta (D's run), then alpha; without, row t. */
GETT_HD int gett_split_walk_row(int split, int fbLog, int t)
{
    const int in = t & ((GETT_SPLIT << fbLog) - 1); /* alpha in >> fbLog < 8, beta in % fb */
    return split ? t - in + (in >> fbLog) + ((in & ((1 << fbLog) - 1)) << GETT_SPLIT_LOG) : t;
}

/* Tile order: groups of 8 tile rows (M) sweep all tile columns (N) before the next group
 * (L2 reuse of A's rows and B's columns). */
GETT_HD void gett_tile_of(int block, int mTiles, int nTiles, int* tm, int* tn)
{
    const int perGroup = 8 * nTiles, first = block / perGroup * 8, in = block % perGroup;
    const int size = mTiles - first < 8 ? mTiles - first : 8;
    *tm = first + in % size;
    *tn = in / size;
}

#endif
