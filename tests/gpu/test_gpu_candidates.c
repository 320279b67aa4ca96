/* Every candidate launch measure mode may pick, run on the GPU and checked
 * element by element: not only the heuristic's choice (test_gpu_transpose) but
 * each tile reshape, the other vector tile shapes, the scalar path of vector
 * launches and the packed forms. Plain moves, compared bit for bit; aligned
 * and, for unpacked candidates, misaligned pointers. Links the library's
 * internals (the candidate list and cuperm_launch_plan). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <cuda_runtime_api.h>

#include "common/cases.h"
#include "core/index_math.h"
#include "support/gpu_skip.h"
#include "support/poison.h"
#include "plan/transpose/select.h"
#include "core/scalars.h"
#include "exec/transpose/measure.h"

static const cuperm_device_info_t kDevice = {
    .cc_major = 9, .sm_count = 132, .smem_per_block = 48 << 10, .dram_bytes_per_second = 3.35e12};
/* Two SMs: whole-dims launches get 8 blocks, so each block walks many tiles with the tables it built. */
static const cuperm_device_info_t kFewSms = {
    .cc_major = 9, .sm_count = 2, .smem_per_block = 48 << 10, .dram_bytes_per_second = 3.35e12};
static const cuperm_scalars_t kPlain = {.plain = 1};

static int quick(void) { return getenv("CUPERM_TEST_QUICK") != NULL; }

/* want[out offset] = in[in offset] for every element, elem bytes each. */
static void reference_move(const test_case_t* c, int elem, const unsigned char* in, unsigned char* want)
{
    int64_t in_stride[CUPERM_MAX_RANK], out_stride[CUPERM_MAX_RANK], idx[CUPERM_MAX_RANK] = {0};
    int64_t s = 1;
    for (int d = 0; d < c->rank; ++d) {
        in_stride[d] = c->has_in_strides ? c->in_strides[d] : s;
        s *= c->extents[d];
    }
    s = 1; /* output dimension k is input dimension perm[k] */
    for (int k = 0; k < c->rank; ++k) {
        out_stride[c->perm[k]] = c->has_out_strides ? c->out_strides[k] : s;
        s *= c->extents[c->perm[k]];
    }
    for (int64_t n = case_volume(c); n > 0; --n) {
        int64_t io = 0, oo = 0;
        for (int d = 0; d < c->rank; ++d) {
            io += idx[d] * in_stride[d];
            oo += idx[d] * out_stride[d];
        }
        memcpy(want + oo * elem, in + io * elem, (size_t)elem);
        for (int d = 0; d < c->rank && ++idx[d] == c->extents[d]; ++d) idx[d] = 0;
    }
}

/* Runs every candidate of c (packed or not) on in/out shifted by misalign
 * elements; returns the number of failing candidates. */
static int shifted_runs; /* candidates run on the shifted vector tiles (tile_shifted.cuh) */
static int wide_runs;    /* candidates run on wide scalar tiles (CUPERM_TILE_ITEMS_WIDE) */
static int walked_whole_dims; /* whole-dims candidates whose blocks walk more than two tiles each */
static int rows_reordered;    /* rows candidates whose rows are in the other order than the planner's rows launch */
static int small_tile_runs[17]; /* candidates on small tiles (CUPERM_TILE_ITEMS_SMALL a thread), by element bytes */
static int half_tile_runs;      /* candidates on half-size tiles (the kernels' kFastHalf path) */
static int pipelined_runs[17];  /* candidates on the pipelined tile kernel, by element bytes */
static int walked_pipelined;    /* pipelined candidates whose blocks walk more than two tiles each */
static int lean_runs[17], lean_edge_runs[17]; /* candidates on the lean form of 8- and 16-byte tiles; of those,
                                                 * with edge tiles; by element bytes */
static int row_tiles_runs[17], row_tiles_edge_runs[17]; /* row-tiles candidates; of those, with edge tiles */
static int row_tiles_vector_runs[17]; /* ... with vectors, on aligned pointers (misaligned: the scalar kernel) */
static int copy_runs[CUPERM_COPY_UNROLL_MAX + 1]; /* copy candidates run, by vectors a thread (copy_unroll) */

static int rows_in_input_order(const cuperm_launch_t* l)
{
    for (int d = 2; d < l->tile.rank; ++d)
        if (l->tile.dim[d - 1].in_stride > l->tile.dim[d].in_stride) return 0;
    return 1;
}

static int is_wide(const cuperm_launch_t* l)
{
    const cuperm_tile_params_t* t = &l->tile;
    return l->kind == CUPERM_LAUNCH_TILED && !t->vec_log2 && l->elem_size <= 2 && t->tile_a_log2 <= 8 &&
           t->tile_b_log2 <= 8 && (1 << (t->tile_a_log2 + t->tile_b_log2)) == CUPERM_THREADS * CUPERM_TILE_ITEMS_WIDE;
}

static int is_small_tile(const cuperm_launch_t* l)
{
    const cuperm_tile_params_t* t = &l->tile;
    const int small = CUPERM_THREADS * CUPERM_TILE_ITEMS_SMALL(l->elem_size);
    return (l->kind == CUPERM_LAUNCH_TILED || l->kind == CUPERM_LAUNCH_ROWS) && !t->vec_log2 && t->tile_a_log2 <= 8 &&
           t->tile_b_log2 <= 8 && (1 << (t->tile_a_log2 + t->tile_b_log2)) == small;
}

static int is_half_tile(const cuperm_launch_t* l)
{
    const cuperm_tile_params_t* t = &l->tile;
    const int half = CUPERM_THREADS * CUPERM_TILE_ITEMS(l->elem_size) / 2;
    return (l->kind == CUPERM_LAUNCH_TILED || l->kind == CUPERM_LAUNCH_ROWS) && !t->vec_log2 && t->tile_a_log2 <= 8 &&
           t->tile_b_log2 <= 8 && (1 << (t->tile_a_log2 + t->tile_b_log2)) == half;
}

static int span_runs[17];   /* span-form whole-dims launches run, by element size ... */
static int span_block_runs; /* ... of which tiles of one inner block (no batch dimension) */
static int span_walks;      /* ... and blocks that walk more than two tiles */
static int runs_runs[3];    /* runs-form whole-dims launches run, by element size (1 and 2 bytes) ... */
static int runs_walks;      /* ... of which blocks walk more than two tiles */
static int runs_short;      /* ... and with a short split chunk */

static int run_candidates(const test_case_t* c, int elem, const cuperm_device_info_t* dev,
                          const cuperm_tuning_t* tuning, int packed, int misalign,
                          const unsigned char* h_want, unsigned char* h_out, unsigned char* d_in, unsigned char* d_out,
                          int64_t out_bytes)
{
    cuperm_launch_t cand[CUPERM_MAX_CANDIDATES];
    const int64_t* is = c->has_in_strides ? c->in_strides : NULL;
    const int64_t* os = c->has_out_strides ? c->out_strides : NULL;
    const int n = cuperm_plan_candidates(c->rank, c->extents, c->perm, elem, is, os, dev, tuning, packed, cand,
                                         CUPERM_MAX_CANDIDATES);
    const size_t off = (size_t)misalign * (size_t)elem;
    int failures = 0;
    for (int k = 0; k < n; ++k) {
        cudaMemset(d_out, POISON_BYTE, (size_t)out_bytes + off);
        cupermStatus_t st = cuperm_launch_plan(&cand[k], cuperm_bits_type(cand[k].elem_size), &kPlain,
                                               d_in + off, d_out + off, 0);
        cudaError_t err = cudaDeviceSynchronize();
        if (st != CUPERM_STATUS_SUCCESS || err != cudaSuccess) {
            fprintf(stderr, "candidate %d failed to run: %s %s\n", k, cupermGetLastErrorMessage(),
                    cudaGetErrorString(err));
            ++failures;
            continue;
        }
        shifted_runs += cand[k].kind == CUPERM_LAUNCH_TILED && cand[k].tile.vec_shifted;
        walked_whole_dims += cand[k].kind == CUPERM_LAUNCH_WHOLE_DIMS && cand[k].tile.num_tiles > 2 * cand[k].blocks;
        wide_runs += is_wide(&cand[k]);
        small_tile_runs[cand[k].elem_size] += is_small_tile(&cand[k]);
        half_tile_runs += is_half_tile(&cand[k]);
        pipelined_runs[cand[k].elem_size] += cand[k].tile.pipelined;
        walked_pipelined += cand[k].tile.pipelined && cand[k].tile.num_tiles > 2 * cand[k].blocks;
        if (cand[k].tile.lean && !cand[k].tile.pipelined) {
            const cuperm_tile_params_t* t = &cand[k].tile;
            ++lean_runs[cand[k].elem_size];
            lean_edge_runs[cand[k].elem_size] +=
                t->a_volume % (1 << t->tile_a_log2) != 0 || t->b_volume % (1 << t->tile_b_log2) != 0;
        }
        if (cand[k].kind == CUPERM_LAUNCH_ROW_TILES) {
            const cuperm_tile_params_t* t = &cand[k].tile;
            ++row_tiles_runs[cand[k].elem_size];
            row_tiles_edge_runs[cand[k].elem_size] += t->a_volume % t->rt_side_a != 0 || t->b_volume % t->rt_side_b != 0;
            row_tiles_vector_runs[cand[k].elem_size] += t->vec_log2 > 0 && !misalign;
        }
        if (cand[k].kind == CUPERM_LAUNCH_COPY) ++copy_runs[cand[k].copy_unroll];
        if (cand[k].kind == CUPERM_LAUNCH_WHOLE_DIMS && cand[k].tile.wd_span == 3) {
            const cuperm_tile_params_t* t = &cand[k].tile;
            ++runs_runs[cand[k].elem_size];
            runs_walks += t->num_tiles > 2 * cand[k].blocks;
            runs_short += t->wd_split >= 0 && t->split_extent % t->dim[t->wd_split].extent != 0;
        } else if (cand[k].kind == CUPERM_LAUNCH_WHOLE_DIMS && cand[k].tile.wd_span) {
            const cuperm_tile_params_t* t = &cand[k].tile;
            ++span_runs[cand[k].elem_size];
            span_block_runs += t->a_volume == t->span_inner;
            span_walks += t->num_tiles > 2 * cand[k].blocks;
        }
        rows_reordered += k > 0 && cand[k].kind == CUPERM_LAUNCH_ROWS && cand[0].kind == CUPERM_LAUNCH_ROWS &&
                          rows_in_input_order(&cand[k]) != rows_in_input_order(&cand[0]);
        unsigned char before[16]; /* the bytes before a misaligned output stay untouched */
        cudaMemcpy(before, d_out, off, cudaMemcpyDeviceToHost);
        for (size_t b = 0; b < off; ++b)
            if (before[b] != POISON_BYTE) {
                fprintf(stderr, "candidate %d wrote before the output: ", k);
                case_print(stderr, c);
                ++failures;
                break;
            }
        cudaMemcpy(h_out, d_out + off, (size_t)out_bytes, cudaMemcpyDeviceToHost);
        if (memcmp(h_out, h_want, (size_t)out_bytes) != 0) {
            const cuperm_tile_params_t* t = &cand[k].tile;
            fprintf(stderr,
                    "candidate %d (kind %d, %d-byte elements%s, tile 2^%d x 2^%d, vec 2^%d, shifted %d, misalign %d) "
                    "wrong: ",
                    k, cand[k].kind, cand[k].elem_size, packed ? ", packed" : "", t->tile_a_log2, t->tile_b_log2,
                    t->vec_log2, t->vec_shifted, misalign);
            case_print(stderr, c);
            ++failures;
        }
    }
    return failures;
}

/* Random bytes in, each candidate's output (planned for dev with tuning) against reference_move. */
static int check_case_on(const test_case_t* c, int elem, const cuperm_device_info_t* dev,
                         const cuperm_tuning_t* tuning, rng_t* r)
{
    const int misalign = 1;
    const int64_t in_n = case_in_span(c) + misalign, out_n = case_out_span(c);
    const int64_t out_bytes = out_n * elem;
    unsigned char *h_in = malloc((size_t)(in_n * elem)), *h_out = malloc((size_t)out_bytes),
                  *h_want = malloc((size_t)out_bytes);
    unsigned char *d_in = NULL, *d_out = NULL;
    int failures = 0;
    assert_non_null(h_in);
    assert_non_null(h_out);
    assert_non_null(h_want);
    for (int64_t i = 0; i < in_n * elem; ++i) h_in[i] = (unsigned char)rng_next(r);
    assert_int_equal(cudaMalloc((void**)&d_in, (size_t)(in_n * elem)), cudaSuccess);
    assert_int_equal(cudaMalloc((void**)&d_out, (size_t)(out_bytes + misalign * elem)), cudaSuccess);
    for (int m = 0; m <= misalign; ++m) {
        memset(h_want, POISON_BYTE, (size_t)out_bytes);
        reference_move(c, elem, h_in + m * elem, h_want);
        cudaMemcpy(d_in, h_in, (size_t)(in_n * elem), cudaMemcpyHostToDevice);
        failures += run_candidates(c, elem, dev, tuning, 0, m, h_want, h_out, d_in, d_out, out_bytes);
        if (m == 0) failures += run_candidates(c, elem, dev, tuning, 1, 0, h_want, h_out, d_in, d_out, out_bytes);
    }
    cudaFree(d_in);
    cudaFree(d_out);
    free(h_in);
    free(h_out);
    free(h_want);
    return failures;
}

static int check_case(const test_case_t* c, int elem, const cuperm_tuning_t* tuning, rng_t* r)
{
    return check_case_on(c, elem, &kDevice, tuning, r);
}

static void random_problems_every_candidate(void** state)
{
    (void)state;
    rng_t r = {41};
    static const int elems[] = {1, 2, 4, 8, 16};
    int failures = 0;
    const int count = quick() ? 60 : 400;
    for (int i = 0; i < count; ++i) {
        test_case_t c;
        case_random(&r, &c, 1, 7, 300000, i % 4 == 3);
        /* every third on two SMs: whole-dims blocks then walk many tiles each */
        failures += check_case_on(&c, elems[i % 5], i % 3 == 2 ? &kFewSms : &kDevice, cuperm_tuning_for(&kDevice), &r);
    }
    assert_int_equal(failures, 0);
    assert_true(walked_whole_dims > 0);
    assert_true(rows_reordered > 0);
    for (int e = 1; e <= 16; e *= 2) assert_true(small_tile_runs[e] > 0);
    assert_true(half_tile_runs > 0);
    for (int e = 4; e <= 16; e *= 2) assert_true(pipelined_runs[e] > 0);
    assert_true(walked_pipelined > 0);
}

/* 8- and 16-byte shapes whose standard tiles take the lean form (cuperm_tile_params_t.lean):
 * whole tiles, edge tiles on either side or both, several dimensions a group, outer dimensions,
 * odd and prime extents (stores that leave sectors partly written); aligned and misaligned by an
 * element; planned with the device's table and with one that makes every such tile lean. */
static void lean_tiles_8_16byte(void** state)
{
    (void)state;
    static const test_shape_t cases[] = { /* the first four alone with CUPERM_TEST_QUICK */
        {2, {1000, 2000}, {1, 0}}, {3, {19, 19, 19}, {2, 0, 1}}, {4, {13, 17, 5, 23}, {3, 1, 0, 2}},
        {5, {8, 4, 36, 4, 28}, {3, 2, 4, 0, 1}}, {2, {1024, 2048}, {1, 0}}, {2, {4000, 36}, {1, 0}},
        {3, {20, 30, 64}, {1, 2, 0}}, {4, {16, 12, 20, 8}, {2, 3, 0, 1}}, {2, {1001, 263}, {1, 0}},
        {5, {15, 15, 15, 15, 15}, {3, 0, 4, 1, 2}}, {6, {7, 11, 3, 13, 5, 9}, {5, 2, 0, 4, 1, 3}},
    };
    cuperm_tuning_t all = *cuperm_tuning_for(&kDevice);
    all.transpose.lean_min_store_eff = 0;
    const cuperm_tuning_t* tunings[] = {cuperm_tuning_for(&kDevice), &all};
    rng_t r = {45};
    int failures = 0;
    for (int e = 8; e <= 16; e *= 2) lean_runs[e] = lean_edge_runs[e] = 0;
    const size_t count = quick() ? 4 : sizeof cases / sizeof cases[0];
    for (size_t i = 0; i < count; ++i) {
        const test_case_t c = case_from_shape(&cases[i]);
        for (int e = 8; e <= 16; e *= 2)
            for (int t = 0; t < 2; ++t) failures += check_case(&c, e, tunings[t], &r);
    }
    assert_int_equal(failures, 0);
    for (int e = 8; e <= 16; e *= 2) {
        assert_true(lean_runs[e] > 0);
        assert_true(lean_edge_runs[e] > 0);
    }
}

/* Shapes whose vector tiles take each allowed shape: short A or B groups
 * (32-element rows), even extents for 8-byte vectors, multiples of 16 bytes; each with the
 * device's tuning and with one that asks for shifted vectors for 1- and 2-byte elements (their
 * kernel stays tested whatever the tuning table says of it). */
static void vector_tile_shapes(void** state)
{
    (void)state;
    static const test_shape_t cases[] = {
        {2, {256, 384}, {1, 0}},   {2, {24, 1000}, {1, 0}},       {2, {1000, 24}, {1, 0}},
        {2, {46, 2002}, {1, 0}},   {3, {20, 30, 64}, {1, 2, 0}},  {3, {64, 7, 36}, {2, 1, 0}},
        {4, {46, 14, 10, 6}, {1, 2, 3, 0}}, {3, {122, 36, 18}, {1, 0, 2}},
        /* odd and prime extents: shifted vectors for 1- and 2-byte elements */
        {2, {1001, 263}, {1, 0}}, {3, {57, 57, 9}, {2, 0, 1}}, {3, {3, 131, 67}, {2, 1, 0}},
        {4, {13, 5, 29, 7}, {3, 2, 0, 1}},
    };
    rng_t r = {42};
    cuperm_tuning_t shifted = *cuperm_tuning_for(&kDevice);
    shifted.transpose.tiled_shifted_max_elem = 2;
    int failures = 0;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i)
        for (int elem = 1; elem <= 4; elem *= 2) {
            const test_case_t c = case_from_shape(&cases[i]);
            failures += check_case(&c, elem, cuperm_tuning_for(&kDevice), &r);
            if (elem <= 2) failures += check_case(&c, elem, &shifted, &r);
        }
    assert_int_equal(failures, 0);
    assert_true(shifted_runs > 0);
}

/* out = in + out (alpha = beta = 1) by every unpacked candidate of dense c under tuning, for 1-byte
 * (uint8) or 2-byte (int16) elements: inputs of 0..63 per byte, outputs poisoned (-1 in both), so
 * each element must come out as its input - 1 (wrapping for uint8, never overflowing int16).
 * That runs the operator kernels, which move wide tiles in rounds (tile_lean.cuh). */
static int check_axpby_case(const test_case_t* c, int elem, const cuperm_tuning_t* tuning, rng_t* r)
{
    const int64_t n = case_volume(c), bytes = n * elem;
    unsigned char *h_in = malloc((size_t)bytes), *h_want = malloc((size_t)bytes), *h_out = malloc((size_t)bytes);
    unsigned char *d_in = NULL, *d_out = NULL;
    assert_true(h_in && h_want && h_out);
    for (int64_t i = 0; i < bytes; ++i) h_in[i] = (unsigned char)(rng_next(r) & 0x3f);
    reference_move(c, elem, h_in, h_want);
    for (int64_t i = 0; i < n; ++i) { /* input - 1, little-endian elements */
        if (elem == 1) {
            h_want[i] = (unsigned char)(h_want[i] - 1);
        } else {
            int16_t v;
            memcpy(&v, h_want + 2 * i, 2);
            v = (int16_t)(v - 1);
            memcpy(h_want + 2 * i, &v, 2);
        }
    }
    assert_int_equal(cudaMalloc((void**)&d_in, (size_t)bytes), cudaSuccess);
    assert_int_equal(cudaMalloc((void**)&d_out, (size_t)bytes), cudaSuccess);
    cudaMemcpy(d_in, h_in, (size_t)bytes, cudaMemcpyHostToDevice);
    const cupermDataType_t type = cuperm_bits_type(elem);
    const uint16_t one = 1;
    cuperm_scalars_t s;
    cuperm_read_scalars(type, &one, &one, &s); /* the low byte first: 1 as uint8 and as int16 */
    cuperm_launch_t cand[CUPERM_MAX_CANDIDATES];
    const int k_n = cuperm_plan_candidates(c->rank, c->extents, c->perm, elem, NULL, NULL, &kDevice, tuning, 0, cand,
                                           CUPERM_MAX_CANDIDATES);
    int failures = 0;
    for (int k = 0; k < k_n; ++k) {
        cudaMemset(d_out, POISON_BYTE, (size_t)bytes);
        const cupermStatus_t st = cuperm_launch_plan(&cand[k], type, &s, d_in, d_out, 0);
        const cudaError_t err = cudaDeviceSynchronize();
        cudaMemcpy(h_out, d_out, (size_t)bytes, cudaMemcpyDeviceToHost);
        if (st != CUPERM_STATUS_SUCCESS || err != cudaSuccess || memcmp(h_out, h_want, (size_t)bytes) != 0) {
            fprintf(stderr, "out = in + out: candidate %d (kind %d, %d-byte elements, tile 2^%d x 2^%d) wrong: ", k,
                    cand[k].kind, elem, cand[k].tile.tile_a_log2, cand[k].tile.tile_b_log2);
            case_print(stderr, c);
            ++failures;
        }
        wide_runs += is_wide(&cand[k]);
        small_tile_runs[cand[k].elem_size] += is_small_tile(&cand[k]);
    }
    cudaFree(d_in);
    cudaFree(d_out);
    free(h_in);
    free(h_want);
    free(h_out);
    return failures;
}

/* Wide scalar tiles (tiled_wide_small_tiles, on in the sm_90 tuning; forced here): every candidate
 * of random 1- and 2-byte problems planned with them, plain moves (one round of 32 elements a thread)
 * and out = in + out (rounds of 16), against the reference. */
static void wide_tiles_every_candidate(void** state)
{
    (void)state;
    cuperm_tuning_t wide = *cuperm_tuning_for(&kDevice);
    wide.transpose.tiled_wide_small_tiles = 1;
    rng_t r = {43};
    int failures = 0;
    wide_runs = 0;
    const int count = quick() ? 30 : 120;
    for (int i = 0; i < count; ++i) {
        test_case_t c;
        case_random(&r, &c, 2, 7, 600000, 0);
        const int elem = 1 + i % 2;
        failures += check_case(&c, elem, &wide, &r);
        failures += check_axpby_case(&c, elem, &wide, &r);
    }
    assert_int_equal(failures, 0);
    assert_true(wide_runs > 0);
}

/* out = 2 in + 0.5 out in type (f64, c64 or f32), by the candidates of c that pick() takes, planned
 * for dev: the kernels' operator forms against a reference. Inputs are small integers and outputs
 * start at 3, so every result is exact in every type. Returns the failures; *runs counts the
 * candidates run. */
static int axpby_candidates(const test_case_t* c, cupermDataType_t type, const cuperm_device_info_t* dev,
                            int (*pick)(const cuperm_launch_t*), rng_t* r, int* runs)
{
    const int elem = (int)cupermDataTypeSize(type), f32 = type == CUPERM_R_32F, parts = f32 ? 1 : elem / 8;
    const int64_t n = case_volume(c) * parts, bytes = n * (f32 ? 4 : 8);
    double *h_in = malloc((size_t)n * 8), *h_want = malloc((size_t)n * 8), *h_out = malloc((size_t)n * 8);
    void *h_got = malloc((size_t)bytes), *d_in = NULL, *d_out = NULL;
    int failures = 0;
    assert_true(h_in && h_want && h_out && h_got);
    for (int64_t k = 0; k < n; ++k) h_in[k] = (double)(rng_next(r) % 64);
    reference_move(c, parts * 8, (const unsigned char*)h_in, (unsigned char*)h_want);
    for (int64_t k = 0; k < n; ++k) h_want[k] = 2 * h_want[k] + 1.5;
    for (int64_t k = 0; k < n; ++k) h_out[k] = 3;
    if (f32) /* the same values as floats, in place (each float below its double) */
        for (double* a[3] = {h_in, h_want, h_out}, **p = a; p < a + 3; ++p)
            for (int64_t k = 0; k < n; ++k) ((float*)*p)[k] = (float)(*p)[k];
    assert_int_equal(cudaMalloc(&d_in, (size_t)bytes), cudaSuccess);
    assert_int_equal(cudaMalloc(&d_out, (size_t)bytes), cudaSuccess);
    cudaMemcpy(d_in, h_in, (size_t)bytes, cudaMemcpyHostToDevice);
    const double alpha[2] = {2, 0}, beta[2] = {0.5, 0};
    const float alpha32 = 2, beta32 = 0.5f;
    cuperm_scalars_t s;
    cuperm_read_scalars(type, f32 ? (const void*)&alpha32 : alpha, f32 ? (const void*)&beta32 : beta, &s);
    cuperm_launch_t cand[CUPERM_MAX_CANDIDATES];
    const int k_n = cuperm_plan_candidates(c->rank, c->extents, c->perm, elem, NULL, NULL, dev,
                                           cuperm_tuning_for(&kDevice), 0, cand, CUPERM_MAX_CANDIDATES);
    for (int k = 0; k < k_n; ++k) {
        if (!pick(&cand[k])) continue;
        cudaMemcpy(d_out, h_out, (size_t)bytes, cudaMemcpyHostToDevice);
        const cupermStatus_t st = cuperm_launch_plan(&cand[k], type, &s, d_in, d_out, 0);
        const cudaError_t err = cudaDeviceSynchronize();
        cudaMemcpy(h_got, d_out, (size_t)bytes, cudaMemcpyDeviceToHost);
        ++*runs;
        if (st != CUPERM_STATUS_SUCCESS || err != cudaSuccess || memcmp(h_got, h_want, (size_t)bytes) != 0) {
            fprintf(stderr, "out = 2 in + 0.5 out: candidate %d (kind %d, %d-byte elements, vec 2^%d, %lld blocks) wrong: ",
                    k, cand[k].kind, elem, cand[k].tile.vec_log2, (long long)cand[k].blocks);
            case_print(stderr, c);
            ++failures;
        }
    }
    cudaFree(d_in);
    cudaFree(d_out);
    free(h_in);
    free(h_want);
    free(h_out);
    free(h_got);
    return failures;
}

/* Batches of small transposes, the span form's shapes: [a, b, batch] perm 1,0,2 with short sides on
 * either, odd and prime extents and batches, inner blocks of three dimensions, spans of one inner
 * block (the outer dimensions swapped; 16 KB at 4 bytes, so more granules than a round of registers),
 * a batch shorter than a span; 1-, 2- and 4-byte elements, aligned and misaligned by an element, on
 * the device and on two SMs (blocks walk many tiles). The plain moves here, alpha = beta = 1 in
 * span_axpby below. */
static const test_shape_t kSpanShapes[] = {
    {3, {2, 62, 3001}, {1, 0, 2}}, {3, {37, 2, 2003}, {1, 0, 2}}, {3, {5, 17, 997}, {1, 0, 2}},
    {3, {3, 40, 1201}, {1, 0, 2}}, {4, {3, 5, 7, 311}, {2, 0, 1, 3}}, {3, {7, 3, 5}, {1, 0, 2}},
    {4, {64, 64, 5, 3}, {1, 0, 3, 2}}, {5, {2, 3, 4, 5, 701}, {3, 1, 0, 2, 4}},
};

static void span_candidates(void** state)
{
    (void)state;
    rng_t r = {46};
    int failures = 0;
    for (size_t i = 0; i < sizeof kSpanShapes / sizeof kSpanShapes[0]; ++i) {
        const test_case_t c = case_from_shape(&kSpanShapes[i]);
        for (int elem = 1; elem <= 4; elem *= 2)
            failures += check_case_on(&c, elem, i % 2 ? &kFewSms : &kDevice, cuperm_tuning_for(&kDevice), &r);
    }
    assert_int_equal(failures, 0);
    for (int e = 1; e <= 4; e *= 2) assert_true(span_runs[e] > 0);
    assert_true(span_block_runs > 0);
    assert_true(span_walks > 0);
}

static int is_span(const cuperm_launch_t* l) { return l->kind == CUPERM_LAUNCH_WHOLE_DIMS && l->tile.wd_span; }

/* The span kernel's arithmetic forms: out = in + out (uint8, int16; every candidate) and
 * out = 2 in + 0.5 out (f32) on the span shapes, so that it reads the output it writes. */
static void span_axpby(void** state)
{
    (void)state;
    rng_t r = {47};
    int failures = 0, runs = 0;
    for (size_t i = 0; i < sizeof kSpanShapes / sizeof kSpanShapes[0]; ++i) {
        const test_case_t c = case_from_shape(&kSpanShapes[i]);
        for (int elem = 1; elem <= 2; ++elem) failures += check_axpby_case(&c, elem, cuperm_tuning_for(&kDevice), &r);
        failures += axpby_candidates(&c, CUPERM_R_32F, i % 2 ? &kFewSms : &kDevice, is_span, &r, &runs);
    }
    assert_int_equal(failures, 0);
    assert_true(runs > 0);
}

/* Batches of small transposes whose outer dimensions are permuted too, the runs form's shapes (the
 * short-group suite's rank-4 and rank-5 kind, shorter): prime and odd extents, short split chunks, a
 * padded input; 1- and 2-byte elements, aligned and misaligned by an element, on the device and on two
 * SMs; then out = in + out (uint8, int16), which reads the output it writes. */
static const test_shape_t kRunsShapes[] = {
    {4, {4, 21, 2003, 7}, {1, 0, 3, 2}},     {4, {4, 34, 1001, 38}, {3, 1, 0, 2}},
    {5, {3, 16, 8, 11, 301}, {1, 3, 4, 2, 0}}, {4, {6, 401, 27, 32}, {2, 0, 1, 3}},
    {5, {2, 44, 35, 32, 17}, {3, 0, 2, 4, 1}}, {4, {8, 40, 4, 1163}, {1, 0, 3, 2}},
    {3, {7, 3, 4099}, {2, 0, 1}},              {4, {5, 7, 9, 1999}, {2, 0, 3, 1}},
};

static void runs_candidates(void** state)
{
    (void)state;
    rng_t r = {48};
    int failures = 0;
    for (size_t i = 0; i < sizeof kRunsShapes / sizeof kRunsShapes[0]; ++i) {
        const test_case_t c = case_from_shape(&kRunsShapes[i]);
        for (int elem = 1; elem <= 2; ++elem) {
            failures += check_case_on(&c, elem, i % 2 ? &kFewSms : &kDevice, cuperm_tuning_for(&kDevice), &r);
            failures += check_axpby_case(&c, elem, cuperm_tuning_for(&kDevice), &r);
        }
    }
    assert_int_equal(failures, 0);
    assert_true(runs_runs[1] > 0 && runs_runs[2] > 0);
    assert_true(runs_walks > 0 && runs_short > 0);
}

static int is_pipelined(const cuperm_launch_t* l) { return l->tile.pipelined; }
static int is_row_tiles(const cuperm_launch_t* l) { return l->kind == CUPERM_LAUNCH_ROW_TILES; }
static int is_copy(const cuperm_launch_t* l) { return l->kind == CUPERM_LAUNCH_COPY; }

/* The pipelined kernel's operator instances on random f64 and c64 problems, on 132 SMs and on two
 * (where a pipelined block walks many tiles through its two buffers). */
static void pipelined_tiles_axpby(void** state)
{
    (void)state;
    rng_t r = {44};
    int failures = 0, runs = 0;
    const int count = quick() ? 12 : 48;
    for (int i = 0; i < count; ++i) {
        test_case_t c;
        case_random(&r, &c, 2, 6, 200000, 0);
        failures += axpby_candidates(&c, i % 2 ? CUPERM_C_64F : CUPERM_R_64F, i % 4 < 2 ? &kDevice : &kFewSms,
                                     is_pipelined, &r, &runs);
    }
    assert_int_equal(failures, 0);
    assert_true(runs > 0);
}

/* Row tiles (the same fastest dimension on both sides, short rows): rows of 2-64 elements, groups of
 * one and several dimensions, edge tiles on either side, outer dimensions, rows of whole vectors
 * (18 and 12 elements: 8- and 16-byte ones of 4-byte elements, 16-byte ones of 8-byte elements);
 * 4-, 8- and 16-byte elements moved as they are, aligned (vectors) and misaligned by an element (the
 * scalar kernel), on 132 SMs and on two; then out = 2 in + 0.5 out in f64, c64 and f32. */
static void row_tiles_shapes(void** state)
{
    (void)state;
    static const test_shape_t cases[] = { /* the first three alone with CUPERM_TEST_QUICK */
        {4, {17, 19, 23, 29}, {0, 2, 3, 1}},   {3, {3, 1000, 70}, {0, 2, 1}},
        {5, {12, 7, 11, 5, 9}, {0, 4, 2, 1, 3}}, {6, {5, 6, 7, 8, 9, 10}, {0, 5, 3, 1, 4, 2}},
        {4, {18, 19, 23, 29}, {0, 2, 3, 1}},   {5, {13, 7, 11, 5, 9}, {0, 4, 2, 1, 3}},
        {4, {31, 2, 3, 1001}, {0, 3, 1, 2}},   {3, {64, 300, 200}, {0, 2, 1}},
        {5, {2, 3, 5, 7, 11}, {0, 3, 4, 2, 1}}, {6, {15, 15, 15, 15, 15, 15}, {0, 2, 3, 5, 4, 1}},
    };
    rng_t r = {46};
    int failures = 0, runs = 0;
    for (int e = 4; e <= 16; e *= 2) row_tiles_runs[e] = row_tiles_edge_runs[e] = row_tiles_vector_runs[e] = 0;
    const size_t count = quick() ? 3 : sizeof cases / sizeof cases[0];
    for (size_t i = 0; i < count; ++i) {
        const test_case_t c = case_from_shape(&cases[i]);
        for (int e = 4; e <= 16; e *= 2) failures += check_case_on(&c, e, i % 2 ? &kFewSms : &kDevice,
                                                                     cuperm_tuning_for(&kDevice), &r);
        for (int t = 0; t < 3; ++t)
            failures += axpby_candidates(&c, t == 0 ? CUPERM_R_64F : t == 1 ? CUPERM_C_64F : CUPERM_R_32F, &kDevice,
                                         is_row_tiles, &r, &runs);
    }
    assert_int_equal(failures, 0);
    assert_true(runs > 0);
    for (int e = 4; e <= 16; e *= 2) assert_true(row_tiles_runs[e] > 0 && row_tiles_edge_runs[e] > 0);
    assert_true(row_tiles_vector_runs[4] > 0 && row_tiles_vector_runs[8] > 0);
}

/* Batches of small matrices transposed and other shapes with a short group (8,24,M 1,0,2: a tile of
 * 8 x 256, under the standard size, within a block; 4 x 24 x M: 4 x 256 or whole-dims; 2 x 64 x M;
 * 5,15,19,9,8,10 with its 5-element run the output's slowest dimension): every candidate of every
 * element size, each with the device's tuning and the planner's launch among them; edges in every
 * group (M odd). At least one launch per element size of 1-8 bytes is such an in-block tile. */
static void short_group_tiles(void** state)
{
    (void)state;
    static const test_shape_t cases[] = {
        {3, {8, 24, 1001}, {1, 0, 2}},  {3, {24, 8, 999}, {1, 0, 2}},  {3, {4, 24, 777}, {1, 0, 2}},
        {3, {2, 64, 513}, {1, 0, 2}},   {3, {3, 40, 301}, {1, 0, 2}},  {6, {5, 15, 19, 9, 8, 10}, {1, 2, 3, 4, 5, 0}},
    };
    rng_t r = {48};
    int failures = 0, short_tiles[17] = {0};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        const test_case_t c = case_from_shape(&cases[i]);
        for (int e = 1; e <= 16; e *= 2) {
            cuperm_launch_t cand[CUPERM_MAX_CANDIDATES];
            const int n = cuperm_plan_candidates(c.rank, c.extents, c.perm, e, NULL, NULL, &kDevice,
                                                 cuperm_tuning_for(&kDevice), 0, cand, CUPERM_MAX_CANDIDATES);
            for (int k = 0; k < n; ++k) {
                const cuperm_tile_params_t* t = &cand[k].tile;
                short_tiles[e] += cand[k].kind == CUPERM_LAUNCH_TILED && !t->vec_log2 &&
                                  cuperm_tile_sides_within_block(t->tile_a_log2, t->tile_b_log2) &&
                                  t->tile_a_log2 + t->tile_b_log2 <
                                      cuperm_log2_ceil((int64_t)CUPERM_THREADS * CUPERM_TILE_ITEMS(cand[k].elem_size));
            }
            failures += check_case(&c, e, cuperm_tuning_for(&kDevice), &r);
        }
    }
    assert_int_equal(failures, 0);
    for (int e = 1; e <= 8; e *= 2) assert_true(short_tiles[e] > 0);
}

/* Copies (contiguous on both sides) in both forms, one vector a thread and CUPERM_COPY_UNROLL_MAX
 * (the candidates list both): lengths of 1, primes, a vector short of and past whole blocks of either
 * form, 2-D and 3-D shapes that fuse into one; every element size, aligned and with both pointers an
 * element past alignment (16-byte vectors after a head of elements); then out = 2 in + 0.5 out in f64,
 * c64 and f32. */
static void copy_forms(void** state)
{
    (void)state;
    static const test_shape_t cases[] = {
        {1, {1}, {0}},           {1, {7}, {0}},           {1, {1000003}, {0}},     {1, {4097}, {0}},
        {1, {16383}, {0}},       {2, {997, 263}, {0, 1}}, {3, {2, 3, 40009}, {0, 1, 2}},
    };
    rng_t r = {47};
    int failures = 0, runs = 0;
    copy_runs[1] = copy_runs[CUPERM_COPY_UNROLL_MAX] = 0;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        const test_case_t c = case_from_shape(&cases[i]);
        for (int e = 1; e <= 16; e *= 2) failures += check_case(&c, e, cuperm_tuning_for(&kDevice), &r);
        for (int t = 0; t < 3; ++t)
            failures += axpby_candidates(&c, t == 0 ? CUPERM_R_64F : t == 1 ? CUPERM_C_64F : CUPERM_R_32F, &kDevice,
                                         is_copy, &r, &runs);
    }
    assert_int_equal(failures, 0);
    assert_int_equal(runs, 2 * 3 * (int)(sizeof cases / sizeof cases[0]));
    assert_true(copy_runs[1] > 0 && copy_runs[CUPERM_COPY_UNROLL_MAX] > 0);
}

int main(void)
{
    require_gpu_or_skip("test_gpu_candidates");
    if (getenv("CUPERM_TEST_FILTER")) cmocka_set_test_filter(getenv("CUPERM_TEST_FILTER"));
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(vector_tile_shapes),
        cmocka_unit_test(lean_tiles_8_16byte),
        cmocka_unit_test(random_problems_every_candidate),
        cmocka_unit_test(wide_tiles_every_candidate),
        cmocka_unit_test(pipelined_tiles_axpby),
        cmocka_unit_test(row_tiles_shapes),
        cmocka_unit_test(copy_forms),
        cmocka_unit_test(short_group_tiles),
        cmocka_unit_test(span_candidates),
        cmocka_unit_test(span_axpby),
        cmocka_unit_test(runs_candidates),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
