/*
 * GPU test of the GETT kernel (backend/cuda/gett): CUPERM_GETT=1 is set before cupermCreate,
 * so model plans of eligible problems are GETT plans (asserted through the plan info). Fixed
 * shapes (extents 1, 3, 17, 31, 127 and more, several modes per group, batched modes, D
 * interleaving A's and B's free modes, empty groups, more than 65535 batches) and random
 * contractions, fp16/bf16 into fp32 or the input type and fp32 / fp64 on the CUDA-core kernel,
 * beta = 0 / C != D / C == D, base
 * pointers aligned or one element off. Every element of D is checked against a double
 * reference with an fp32-accumulation error bound, and every byte outside D's elements
 * (guards, padding, A, B, C) must be unchanged. CUPERM_GETT_TEST_CASES sets the number of
 * random cases (default 200; half as many with operators), CUPERM_GETT_TEST_FILTER a name pattern of
 * the tests to run, CUPERM_GETT_TEST_SHAPES the shapes test_many_tiles runs (digits). Exits 77
 * without a GPU.
 *
 * CUPERM_GETT_WGMMA=1 runs the table kernel's cases without operators on its wgmma form (compute
 * capability 9.0; the random cases must have some).
 *
 * CUPERM_GETT_TEST_ENGINE=tma runs the same cases with CUPERM_GETT=tma: GETT plans run the
 * Hopper TMA kernels where the problem maps onto them and A, B are 16-byte aligned (the table
 * kernel otherwise). It exits 77 when this build or device has no Hopper kernels.
 */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <cuda_runtime_api.h>
#include <math.h>

#include "contraction/ctr_random.h"
#include "contraction/ctr_reference.h"
#include "support/gpu_skip.h"
#include "support/poison.h"
#include "support/reference.h"
#include "support/rng.h"

#define CHECK_CUDA(x) assert_int_equal((x), cudaSuccess)
#define GUARD 64 /* elements of guard zone before and after every operand */

static cupermHandle_t handle;

typedef struct {
    cupermDataType_t ab, cd;
    const char* name;
} type_pair;

/* The tensor-core kernel's four pairs first (the vector-path test takes only those), then the
 * CUDA-core kernel's. */
static const type_pair pairs[] = {
    {CUPERM_R_16F, CUPERM_R_32F, "16F->32F"},
    {CUPERM_R_16F, CUPERM_R_16F, "16F->16F"},
    {CUPERM_R_16BF, CUPERM_R_32F, "16BF->32F"},
    {CUPERM_R_16BF, CUPERM_R_16BF, "16BF->16BF"},
    {CUPERM_R_32F, CUPERM_R_32F, "32F"},
    {CUPERM_R_64F, CUPERM_R_64F, "64F"},
};
#define TENSOR_CORE_PAIRS 4
#define ALL_PAIRS (sizeof pairs / sizeof pairs[0])

enum { BETA_ZERO = 0, BETA_C_NOT_D = 1, BETA_C_IS_D = 2 };

static double unit_roundoff(cupermDataType_t t)
{
    return t == CUPERM_R_16F ? 0x1p-11 : t == CUPERM_R_16BF ? 0x1p-8 : t == CUPERM_R_64F ? 0x1p-53 : 0x1p-24;
}

static double subnormal(cupermDataType_t t)
{
    return t == CUPERM_R_16F ? 0x1p-24 : t == CUPERM_R_16BF ? 0x1p-133 : t == CUPERM_R_64F ? 0x1p-1074 : 0x1p-149;
}

/* Product of the contracted extents (labels of A that D lacks). */
static double contracted(const cupermTensorDescriptor_t* A, const cupermTensorDescriptor_t* D)
{
    double k = 1;
    for (int i = 0; i < A->rank; ++i) {
        int inD = 0;
        for (int j = 0; j < D->rank; ++j) inD |= A->modes[i] == D->modes[j];
        if (!inD) k *= (double)A->extents[i];
    }
    return k;
}

typedef struct {
    size_t es, bytes, origin; /* element size, allocation bytes, byte offset of element 0 */
    int64_t span;
    unsigned char* host;      /* the allocation as uploaded */
    unsigned char* back;      /* the allocation after the run */
    ctr_cplx* values;         /* span values from element 0 */
    unsigned char* dev;
} buffer;

static void buffer_make(buffer* b, const cupermTensorDescriptor_t* d, int off)
{
    b->es = cupermDataTypeSize(d->type);
    b->span = ctr_ref_span(d);
    b->origin = (size_t)(GUARD + off) * b->es;
    b->bytes = (size_t)(GUARD + off + b->span + GUARD) * b->es;
    b->host = malloc(b->bytes);
    b->back = malloc(b->bytes);
    b->values = calloc((size_t)b->span, sizeof(ctr_cplx));
    b->dev = NULL;
    assert_non_null(b->host);
    assert_non_null(b->back);
    assert_non_null(b->values);
}

static void buffer_values(buffer* b, cupermDataType_t type)
{
    for (int64_t i = 0; i < b->span; ++i) {
        double v[2];
        ref_load(type, b->host + b->origin + (size_t)i * b->es, v);
        b->values[i] = v[0];
    }
}

/* |x| for every element (sqrt's operands): the sign is the top bit of the last byte. */
static void clear_signs(buffer* b)
{
    for (size_t i = b->es - 1; i < b->bytes; i += b->es) b->host[i] &= 0x7f;
}

static void buffer_free(buffer* b)
{
    free(b->host);
    free(b->back);
    free(b->values);
    if (b->dev) cudaFree(b->dev);
}

/* The mode orders of the GETT plans made (descriptions "orders M by X, N by Y, K by Z"):
 * plans, then M by D, N by D, K by B. */
static int orders_seen[7]; /* ... Hopper TMA plans (CUPERM_GETT_TEST_ENGINE=tma), D-tile plans, plans on
                              the table kernel's wgmma form (CUPERM_GETT_WGMMA=1 on compute capability 9.0) */

static void tally_orders(const char* description)
{
    ++orders_seen[0];
    orders_seen[1] += strstr(description, "M by D") != NULL;
    orders_seen[2] += strstr(description, "N by D") != NULL;
    orders_seen[3] += strstr(description, "K by B") != NULL;
    orders_seen[4] += strstr(description, "Hopper TMA") != NULL;
    orders_seen[5] += strstr(description, "D-tile kernel") != NULL;
    orders_seen[6] += strstr(description, "wgmma (Hopper") != NULL;
}

/* Whether this run asks table-kernel plans for the wgmma form and the device runs it. */
static int wgmma_expected(void)
{
    const char* on = getenv("CUPERM_GETT_WGMMA");
    int major = 0, minor = 0;
    if (!on || strcmp(on, "1") != 0) return 0;
    CHECK_CUDA(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0));
    CHECK_CUDA(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, 0));
    return major == 9 && minor == 0;
}

static void print_orders(const char* what)
{
    printf("    %s: orders M by D in %d, N by D in %d, K by B in %d of %d GETT plans; %d on the Hopper TMA kernels, "
           "%d on the D-tile kernel, %d on the wgmma form\n", what, orders_seen[1], orders_seen[2], orders_seen[3],
           orders_seen[0], orders_seen[4], orders_seen[5], orders_seen[6]);
    memset(orders_seen, 0, sizeof orders_seen);
}

/* Whether the plan for these descriptors is a GETT plan (and what it says). */
static int plan_is_gett(cupermContractionPlan_t plan, cupermContractionInfo_t* info)
{
    assert_int_equal(cupermContractionPlanGetInfo(plan, info), CUPERM_STATUS_SUCCESS);
    const int gett = strncmp(info->description, "GETT", 4) == 0;
    assert_int_equal(info->kind, gett ? CUPERM_CONTRACTION_GETT : CUPERM_CONTRACTION_TTGT);
    return gett;
}

static int failures_total = 0;

/*
 * Plans and runs one contraction (desc's types are set here), checks it; returns the
 * number of failures (0 or 1). expectGett: assert the plan is GETT.
 */
static const char* expect_in_description = NULL; /* run_case asserts it is in the plan's description */
static int last_plan_dtile = 0;                   /* run_case's plan ran the D-tile kernel */
static int last_plan_packed = 0;                  /* ... with its packed path */

static int run_case(rng_t* r, cupermTensorDescriptor_t desc[4], const type_pair* tp, int betaMode, int off,
                    cupermPlanMode_t mode, int expectGett, const char* label)
{
    for (int t = 0; t < 4; ++t) desc[t].type = t < 2 ? tp->ab : tp->cd;
    cupermContractionPlan_t plan;
    cupermStatus_t st = cupermPlanContraction(handle, &plan, &desc[0], &desc[1], &desc[2], &desc[3],
                                              CUPERM_COMPUTE_DEFAULT, mode);
    if (st != CUPERM_STATUS_SUCCESS) fail_msg("%s: plan failed: %s", label, cupermGetLastErrorMessage());
    cupermContractionInfo_t info;
    const int gett = plan_is_gett(plan, &info);
    if (expectGett && !gett) fail_msg("%s: expected a GETT plan, got: %s", label, info.description);
    if (gett) tally_orders(info.description);
    last_plan_dtile = gett && strstr(info.description, "D-tile kernel") != NULL;
    /* GETT plans need workspace only for the D-tile kernel's packed panels. */
    const int packedPlan = gett && strstr(info.description, "; packed where beta = 0") != NULL;
    if (gett && !packedPlan) assert_int_equal(info.workspaceBytes, 0);
    if (packedPlan) assert_true(info.workspaceBytes > 0);
    if (expect_in_description && !strstr(info.description, expect_in_description)) {
        const char* expected = expect_in_description;
        expect_in_description = NULL; /* fail_msg leaves the test: the next test must not inherit it */
        fail_msg("%s: expected \"%s\" in the plan description: %s", label, expected, info.description);
    }

    const int alias = betaMode == BETA_C_IS_D;
    /* off = 0: C and D 16-byte aligned (buffer_make), so beta = 0 takes the packed path, and so
     * does beta != 0 where the plan says it reads C (C with D's strides, tiles from the registers) */
    last_plan_packed = packedPlan && off == 0 &&
                       (betaMode == BETA_ZERO || strstr(info.description, "or C has D's strides") != NULL);
    buffer b[4];
    for (int t = 0; t < 4; ++t) buffer_make(&b[t], &desc[t], off);
    for (int t = 0; t < 3; ++t) rng_fill(r, desc[t].type, (int64_t)(b[t].bytes / b[t].es), b[t].host);
    for (int t = 0; t < 3; ++t)
        if (desc[t].op == CUPERM_OP_SQRT) clear_signs(&b[t]);
    if (alias) {
        rng_fill(r, desc[3].type, (int64_t)(b[3].bytes / b[3].es), b[3].host);
        if (desc[2].op == CUPERM_OP_SQRT) clear_signs(&b[3]); /* C's values */
    } else {
        /* Guards and holes: a byte pattern; D's elements: NaN (every one must be written). */
        poison_pattern(b[3].host, b[3].bytes);
        unsigned char* mask = poison_element_mask(desc[3].rank, desc[3].extents, desc[3].strides, b[3].span);
        for (int64_t i = 0; i < b[3].span; ++i)
            if (mask[i]) memset(b[3].host + b[3].origin + (size_t)i * b[3].es, POISON_BYTE, b[3].es);
        free(mask);
    }
    for (int t = 0; t < 4; ++t) buffer_values(&b[t], desc[t].type);
    const double alpha = (double)(float)(0.5 + rng_uniform(r));
    const double beta = betaMode == BETA_ZERO ? 0.0 : (double)(float)(rng_unit(r));
    const int64_t spanD = b[3].span;
    ctr_cplx* want = calloc((size_t)spanD, sizeof(ctr_cplx));
    double* mag = calloc((size_t)spanD, sizeof(double));
    ctr_ref_contract(&desc[0], &desc[1], &desc[2], &desc[3], b[0].values, b[1].values,
                     alias ? b[3].values : b[2].values, alpha, beta, want, mag);

    for (int t = 0; t < 4; ++t) {
        CHECK_CUDA(cudaMalloc((void**)&b[t].dev, b[t].bytes));
        CHECK_CUDA(cudaMemcpy(b[t].dev, b[t].host, b[t].bytes, cudaMemcpyHostToDevice));
    }
    const float fa = (float)alpha, fb = (float)beta; /* scalars in the compute type: fp32, fp64 for fp64 */
    const int f64 = tp->ab == CUPERM_R_64F;
    void* C = betaMode == BETA_ZERO ? NULL : alias ? b[3].dev + b[3].origin : b[2].dev + b[2].origin;
    st = cupermContract(plan, f64 ? (const void*)&alpha : &fa, b[0].dev + b[0].origin, b[1].dev + b[1].origin,
                        f64 ? (const void*)&beta : &fb, C, b[3].dev + b[3].origin, NULL, 0, 0);
    if (st != CUPERM_STATUS_SUCCESS) fail_msg("%s: contract failed: %s", label, cupermGetLastErrorMessage());
    CHECK_CUDA(cudaDeviceSynchronize());
    for (int t = 0; t < 4; ++t) CHECK_CUDA(cudaMemcpy(b[t].back, b[t].dev, b[t].bytes, cudaMemcpyDeviceToHost));

    int bad = 0;
    char why[512] = "";
    for (int t = 0; t < 3 && !bad; ++t)
        if (memcmp(b[t].host, b[t].back, b[t].bytes)) {
            bad = 1;
            snprintf(why, sizeof why, "operand %c changed", "ABC"[t]);
        }
    unsigned char* mask = poison_element_mask(desc[3].rank, desc[3].extents, desc[3].strides, spanD);
    int64_t where;
    if (!bad && poison_changed_outside(b[3].host, b[3].back, b[3].bytes, b[3].origin, b[3].es, mask, spanD, &where)) {
        bad = 1;
        snprintf(why, sizeof why, "D's allocation changed outside its elements at byte %lld", (long long)where);
    }
    const double K = contracted(&desc[0], &desc[3]);
    const double u = unit_roundoff(tp->cd), sub = subnormal(tp->cd);
    const double acc = tp->ab == CUPERM_R_64F ? 0x1p-53 : 0x1p-24, accSub = tp->ab == CUPERM_R_64F ? 0x1p-1074 : 0x1p-149;
    /* Operators: op(A) and op(B) are rounded to their type before the products (as TTGT's
     * transposes store them), each op's own error a few units of the compute type; opD (the
     * test's are 1-Lipschitz) passes the error through and adds its own and D's rounding. */
    const int inOps = (desc[0].op != CUPERM_OP_IDENTITY && desc[0].op != CUPERM_OP_NEGATE) ||
                      (desc[1].op != CUPERM_OP_IDENTITY && desc[1].op != CUPERM_OP_NEGATE);
    const double uIn = inOps ? 3 * unit_roundoff(tp->ab) + 8 * acc : 0, uOut = desc[3].op ? u + 4 * acc : 0;
    double worst = 0;
    for (int64_t i = 0; i < spanD && !bad; ++i) {
        if (!mask[i]) continue;
        double v[2];
        ref_load(tp->cd, b[3].back + b[3].origin + (size_t)i * b[3].es, v);
        const double w = creal(want[i]);
        /* fp32 (fp64) accumulation (K + 2 roundings, doubled for the tensor cores' accumulation
         * order), the rounding to D's type, a subnormal floor. */
        const double bound = (2 * (K + 2) * acc + 2 * u + uIn) * mag[i] + uOut * fabs(w) + (K + 2) * accSub + sub;
        const double err = fabs(v[0] - w);
        if (!(err <= bound)) {
            bad = 1;
            snprintf(why, sizeof why, "D element at offset %lld: got %.9g, want %.9g, |diff| %.3g > bound %.3g",
                     (long long)i, v[0], w, err, bound);
        }
        if (bound > 0 && err / bound > worst) worst = err / bound;
    }
    free(mask);
    free(want);
    free(mag);
    for (int t = 0; t < 4; ++t) buffer_free(&b[t]);
    if (bad) /* before the destroy: the description lives with the plan */
        printf("FAILED %s [%s beta=%s off=%d]: %s\n    plan: %s\n", label, tp->name,
               betaMode == BETA_ZERO ? "0" : alias ? "C==D" : "C!=D", off, why, info.description);
    assert_int_equal(cupermContractionPlanDestroy(plan), CUPERM_STATUS_SUCCESS);
    failures_total += bad;
    return bad;
}

/* ---- fixed shapes ------------------------------------------------------------- */

typedef struct {
    const char *a, *b, *d; /* one letter per mode */
    int64_t ext[26];       /* by letter */
    int padded;            /* 1: random memory orders and padding instead of column-major;
                              2: column-major with each stride a multiple of 8 (runs of 8, short last ones);
                              3: column-major with each stride a multiple of 32 */
} shape;

typedef struct {
    int32_t modes[4][16];
    int64_t extents[4][16];
    int64_t strides[4][16];
    cupermTensorDescriptor_t d[4];
} built;

static void strides_for(rng_t* r, int rank, const int64_t* e, int64_t* s, int padded)
{
    int order[16];
    for (int i = 0; i < rank; ++i) order[i] = i;
    if (padded == 1) rng_permutation(r, rank, order);
    int64_t next = 1;
    for (int i = 0; i < rank; ++i) {
        s[order[i]] = next;
        next *= e[order[i]] + (padded == 1 && rng_range(r, 0, 1) ? 1 : 0);
        if (padded == 2) next = (next + 7) / 8 * 8;
        if (padded == 3) next = (next + 31) / 32 * 32;
    }
}

static void build_shape(rng_t* r, const shape* sh, built* o)
{
    const char* str[4] = {sh->a, sh->b, sh->d, sh->d};
    memset(o, 0, sizeof *o);
    for (int t = 0; t < 4; ++t) {
        const int rank = (int)strlen(str[t]);
        for (int i = 0; i < rank; ++i) {
            o->modes[t][i] = str[t][i];
            o->extents[t][i] = sh->ext[str[t][i] - 'a'];
        }
        if (t == 3) memcpy(o->strides[3], o->strides[2], sizeof o->strides[3]); /* C and D alike */
        else strides_for(r, rank, o->extents[t], o->strides[t], sh->padded);
        o->d[t] = (cupermTensorDescriptor_t){rank, o->modes[t], o->extents[t], o->strides[t], CUPERM_R_16F,
                                             CUPERM_OP_IDENTITY, 0};
    }
}

#define E(...) {__VA_ARGS__}
static void test_fixed_shapes(void** state)
{
    (void)state;
    /* ext[] by letter: a b c d e f g h i j k l m n o p q r s t u v w x y z */
    static const shape shapes[] = {
        {"mk", "kn", "mn", E(['m' - 'a'] = 127, ['n' - 'a'] = 31, ['k' - 'a'] = 17), 0},
        {"mk", "kn", "mn", E(['m' - 'a'] = 1, ['n' - 'a'] = 1, ['k' - 'a'] = 1), 0},
        {"mk", "kn", "mn", E(['m' - 'a'] = 3, ['n' - 'a'] = 129, ['k' - 'a'] = 300), 0},
        {"km", "nk", "nm", E(['m' - 'a'] = 257, ['n' - 'a'] = 130, ['k' - 'a'] = 127), 0},
        {"mk", "kn", "mn", E(['m' - 'a'] = 200, ['n' - 'a'] = 140, ['k' - 'a'] = 65), 1},
        /* several modes per group, D interleaving A's and B's free modes (TCCG style) */
        {"aebf", "dfce", "acbd", E(['a' - 'a'] = 17, ['b' - 'a'] = 3, ['c' - 'a'] = 31, ['d' - 'a'] = 5,
                                   ['e' - 'a'] = 7, ['f' - 'a'] = 9), 0},
        {"aebf", "dfce", "dbca", E(['a' - 'a'] = 17, ['b' - 'a'] = 3, ['c' - 'a'] = 31, ['d' - 'a'] = 5,
                                   ['e' - 'a'] = 7, ['f' - 'a'] = 9), 1},
        {"eafb", "cedf", "cadb", E(['a' - 'a'] = 24, ['b' - 'a'] = 6, ['c' - 'a'] = 12, ['d' - 'a'] = 11,
                                   ['e' - 'a'] = 8, ['f' - 'a'] = 5), 1},
        /* batched modes, in different places */
        {"akl", "kbl", "abl", E(['a' - 'a'] = 31, ['b' - 'a'] = 17, ['k' - 'a'] = 33, ['l' - 'a'] = 3), 0},
        {"lak", "bkl", "bla", E(['a' - 'a'] = 130, ['b' - 'a'] = 3, ['k' - 'a'] = 40, ['l' - 'a'] = 5), 1},
        {"akl", "kbl", "abl", E(['a' - 'a'] = 2, ['b' - 'a'] = 3, ['k' - 'a'] = 2, ['l' - 'a'] = 66000), 0},
        /* empty groups: outer product (no K), no M, no N */
        {"m", "n", "mn", E(['m' - 'a'] = 31, ['n' - 'a'] = 17), 0},
        {"k", "kn", "n", E(['k' - 'a'] = 127, ['n' - 'a'] = 3), 0},
        {"mk", "k", "m", E(['m' - 'a'] = 129, ['k' - 'a'] = 31), 0},
        /* D-tile plans take part of c (N): tiles of 512 x 15 that straddle c's end */
        {"ad", "cbd", "acb", E(['a' - 'a'] = 512, ['b' - 'a'] = 4, ['c' - 'a'] = 512, ['d' - 'a'] = 7), 0},
        /* unit modes among the others */
        {"ajk", "kbj", "ab", E(['a' - 'a'] = 17, ['b' - 'a'] = 1, ['j' - 'a'] = 1, ['k' - 'a'] = 3), 1},
    };
    rng_t r = {77};
    int failures = 0, runs = 0;
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; ++s)
        for (int variant = 0; variant < 6; ++variant) {
            built b;
            build_shape(&r, &shapes[s], &b);
            char label[96];
            snprintf(label, sizeof label, "shape %zu (%s,%s->%s) variant %d", s, shapes[s].a, shapes[s].b,
                     shapes[s].d, variant);
            failures += run_case(&r, b.d, &pairs[(s + (size_t)variant) % ALL_PAIRS], variant % 3, variant / 3,
                                 CUPERM_PLAN_MODEL, 1, label);
            ++runs;
        }
    printf("    fixed shapes: %d runs, %d failed\n", runs, failures);
    print_orders("fixed shapes");
    assert_int_equal(failures, 0);
}

/*
 * The kernel's load and store paths: unit-stride fastest modes with extents divisible by 8
 * (16-byte runs) and not (runs of 4, 2, or 2-byte loads), all four tile layouts of A and B,
 * D's runs along M or N, leading dimensions padded to multiples of 8 (runs of 8 whose last
 * one is short), batch modes; every shape at base offsets of 0, 1, 2 and 4 elements (the
 * launch drops to the widths the pointers allow: 2-byte, 4-byte, 8-byte, 16-byte copies),
 * with beta = 0, C != D and C == D; D's unit-stride mode where A's or B's order puts it last
 * (the plan orders that group by D). Expected orders and path names are checked in the plan
 * description.
 */
static void test_vector_paths(void** state)
{
    (void)state;
    typedef struct {
        shape sh;
        const char* expect; /* in the description (widths before the pointer check) */
    } vshape;
    static const vshape shapes[] = {
        /* A m-major, B k-major, D along M; 11 k-tiles (more than the 4 stages) */
        {{"mk", "kn", "mn", E(['m' - 'a'] = 200, ['n' - 'a'] = 136, ['k' - 'a'] = 344), 0},
         "tiles A m-major x8, B k-major x8; D runs along M x8"},
        /* A k-major, B n-major, D along N */
        {{"km", "nk", "nm", E(['m' - 'a'] = 136, ['n' - 'a'] = 264, ['k' - 'a'] = 72), 0},
         "tiles A k-major x8, B n-major x8; D runs along N x8"},
        /* both k-major */
        {{"km", "kn", "mn", E(['m' - 'a'] = 130, ['n' - 'a'] = 129, ['k' - 'a'] = 160), 0}, "A k-major x8, B k-major x8"},
        /* both m/n-major */
        {{"mk", "nk", "mn", E(['m' - 'a'] = 256, ['n' - 'a'] = 40, ['k' - 'a'] = 96), 0}, "A m-major x8, B n-major x8"},
        /* extents 4 mod 8, 2 mod 4, odd: runs of 4, 2, none */
        {{"mk", "kn", "mn", E(['m' - 'a'] = 132, ['n' - 'a'] = 60, ['k' - 'a'] = 44), 0}, "A m-major x4, B k-major x4"},
        {{"mk", "kn", "mn", E(['m' - 'a'] = 130, ['n' - 'a'] = 70, ['k' - 'a'] = 38), 0}, "A m-major x2, B k-major x2"},
        {{"mk", "kn", "mn", E(['m' - 'a'] = 131, ['n' - 'a'] = 67, ['k' - 'a'] = 37), 0}, "A m-major x1, B k-major x1"},
        /* padded leading dimensions: runs of 8 with a short last one (m = 8q + 3 etc.) */
        {{"mk", "kn", "mn", E(['m' - 'a'] = 139, ['n' - 'a'] = 75, ['k' - 'a'] = 45), 2},
         "tiles A m-major x8, B k-major x8; D runs along M x8"},
        /* TCCG style: fused fastest modes (a, e / c, d), several modes per group */
        {{"aebf", "dfce", "abcd", E(['a' - 'a'] = 24, ['b' - 'a'] = 5, ['c' - 'a'] = 16, ['d' - 'a'] = 8,
                                    ['e' - 'a'] = 16, ['f' - 'a'] = 3), 0}, "A m-major x8"},
        {{"abc", "cd", "abd", E(['a' - 'a'] = 8, ['b' - 'a'] = 9, ['c' - 'a'] = 40, ['d' - 'a'] = 33), 0},
         "A m-major x8, B k-major x8; D runs along M x8"},
        /* TCCG 31 / 32 style: D's unit-stride mode is A's (B's) slowest; the plan orders M (N) by
         * D's strides so that D is written in runs of 8 (A gathered element by element; B
         * k-major keeps its runs) */
        {{"dega", "gfbc", "abcdef", E(['a' - 'a'] = 8, ['b' - 'a'] = 3, ['c' - 'a'] = 5, ['d' - 'a'] = 8,
                                      ['e' - 'a'] = 3, ['f' - 'a'] = 2, ['g' - 'a'] = 8), 0},
         "orders M by D, N by B, K by B; tiles A m-major x1, B k-major x8; D runs along M x8"},
        {{"degb", "gfac", "abcdef", E(['a' - 'a'] = 8, ['b' - 'a'] = 3, ['c' - 'a'] = 5, ['d' - 'a'] = 8,
                                      ['e' - 'a'] = 3, ['f' - 'a'] = 2, ['g' - 'a'] = 8), 0},
         "orders M by A, N by D, K by B; tiles A m-major x8, B k-major x8; D runs along N x8"},
        /* batch modes: runs continue through them when the batch strides are multiples of 8 */
        {{"mkl", "knl", "mnl", E(['m' - 'a'] = 64, ['n' - 'a'] = 48, ['k' - 'a'] = 40, ['l' - 'a'] = 3), 0},
         "A m-major x8, B k-major x8; D runs along M x8"},
        {{"lmk", "knl", "lmn", E(['m' - 'a'] = 16, ['n' - 'a'] = 24, ['k' - 'a'] = 40, ['l' - 'a'] = 5), 0}, NULL},
        /* extents 1 and primes around the vectors */
        {{"mk", "kn", "mn", E(['m' - 'a'] = 1, ['n' - 'a'] = 8, ['k' - 'a'] = 8), 0}, NULL},
        {{"mk", "kn", "mn", E(['m' - 'a'] = 8, ['n' - 'a'] = 1, ['k' - 'a'] = 13), 0}, NULL},
    };
    static const int offsets[] = {0, 1, 2, 4};
    rng_t r = {31337};
    int failures = 0, runs = 0, dtileRuns = 0;
    /* The descriptions name the table kernel's paths: first with the D-tile kernel off (read per
     * plan); then, where CUPERM_GETT_DTILE=1 turns it on (ctest test_gett_dtile_gpu), the same
     * shapes as the plans take them (short K: the D-tile kernel's load and store paths). */
    const char* was = getenv("CUPERM_GETT_DTILE");
    char saved[16] = "";
    if (was) snprintf(saved, sizeof saved, "%s", was);
    const int passes = was && strcmp(was, "1") == 0 ? 2 : 1;
    const char* skinnyWas = getenv("CUPERM_GETT_SKINNY");
    char skinnySaved[16] = "";
    if (skinnyWas) snprintf(skinnySaved, sizeof skinnySaved, "%s", skinnyWas);
    for (int pass = 0; pass < passes; ++pass) {
        if (pass == 0) setenv("CUPERM_GETT_DTILE", "0", 1);
        else if (was) setenv("CUPERM_GETT_DTILE", saved, 1);
        else unsetenv("CUPERM_GETT_DTILE");
        if (pass == 0) setenv("CUPERM_GETT_SKINNY", "0", 1); /* the table kernel's paths first */
        else if (skinnyWas) setenv("CUPERM_GETT_SKINNY", skinnySaved, 1);
        else unsetenv("CUPERM_GETT_SKINNY");
        for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; ++s)
            for (int o = 0; o < 4; ++o)
                for (int betaMode = 0; betaMode < 3; ++betaMode) {
                    built b;
                    build_shape(&r, &shapes[s].sh, &b);
                    char label[160];
                    snprintf(label, sizeof label, "vector shape %zu (%s,%s->%s) off %d%s", s, shapes[s].sh.a,
                             shapes[s].sh.b, shapes[s].sh.d, offsets[o], pass ? "" : " (CUPERM_GETT_DTILE=0)");
                    expect_in_description = pass == 0 ? shapes[s].expect : NULL;
                    failures += run_case(&r, b.d, &pairs[(s + (size_t)o + (size_t)betaMode) % TENSOR_CORE_PAIRS],
                                         betaMode, offsets[o], CUPERM_PLAN_MODEL, 1, label);
                    expect_in_description = NULL;
                    dtileRuns += last_plan_dtile;
                    ++runs;
                }
    }
    if (was) setenv("CUPERM_GETT_DTILE", saved, 1);
    else unsetenv("CUPERM_GETT_DTILE");
    if (skinnyWas) setenv("CUPERM_GETT_SKINNY", skinnySaved, 1);
    else unsetenv("CUPERM_GETT_SKINNY");
    printf("    vector paths: %d runs (%d on the D-tile kernel), %d failed\n", runs, dtileRuns, failures);
    print_orders("vector paths");
    assert_int_equal(failures, 0);
}

/* TCCG 31 / 32 shapes with enough tiles that a persistent block of the D-tile kernel walks several
 * (more than 2 blocks an SM on 132 SMs): the inner panel's slot table and prefetch, the outer
 * panel kept across tiles, D through the warps' staging (beta = 0, aligned), as pairs with C, and
 * element by element where the base pointer breaks the runs. On the table kernel where the D-tile
 * kernel is off (CUPERM_GETT_DTILE unset), as a check of the same shapes. */
static void test_many_tiles(void** state)
{
    (void)state;
    static const shape shapes[] = {
        /* tiles 24 (a) x 256 (b, c), D along M; 72 x 32 tiles (about 9 a block on 132 SMs: the
         * packed path's stages reused, its outer panel kept and reloaded) */
        {"dega", "gfbc", "abcdef", E(['a' - 'a'] = 24, ['b' - 'a'] = 16, ['c' - 'a'] = 16, ['d' - 'a'] = 12,
                                     ['e' - 'a'] = 6, ['f' - 'a'] = 32, ['g' - 'a'] = 24), 0},
        /* D along N; the tile takes modes a, b and d (not c): not one block of D, written from the registers */
        {"degb", "gfac", "abcdef", E(['a' - 'a'] = 24, ['b' - 'a'] = 16, ['c' - 'a'] = 16, ['d' - 'a'] = 12,
                                     ['e' - 'a'] = 6, ['f' - 'a'] = 4, ['g' - 'a'] = 24), 0},
        /* tiles 16 (a) x 384 (b, c), D along M, a batch mode l: 120 x 12 tiles, K = 20 */
        {"gadl", "cgbl", "abcdl", E(['a' - 'a'] = 16, ['b' - 'a'] = 24, ['c' - 'a'] = 16, ['d' - 'a'] = 120,
                                    ['g' - 'a'] = 20, ['l' - 'a'] = 12), 0},
        /* TCCG 40's form: tiles 384 (a, b) x 16 (c), D along M, 12 x 96 tiles; rows 768 bytes
         * apart, so the packed path pads its staging and writes each tile in several pieces */
        {"gdab", "efgc", "abcdef", E(['a' - 'a'] = 24, ['b' - 'a'] = 16, ['c' - 'a'] = 16, ['d' - 'a'] = 12,
                                     ['e' - 'a'] = 12, ['f' - 'a'] = 8, ['g' - 'a'] = 24), 0},
        /* shape 0's form with tiles 24 (a 6, d 4) x 256 (b, c): along the tile's Y side D runs 6
         * elements and jumps, so 16-byte pieces of D mix outputs of two fragment rows and the
         * packed path stages the tile in shared memory; 768 tiles */
        {"dega", "gfbc", "abcdef", E(['a' - 'a'] = 6, ['b' - 'a'] = 16, ['c' - 'a'] = 16, ['d' - 'a'] = 4,
                                     ['e' - 'a'] = 24, ['f' - 'a'] = 32, ['g' - 'a'] = 24), 0},
        /* shape 0 with D's (and C's) strides padded to multiples of 32 elements: the 24 x 256 tiles
         * (a; b, c) are whole modes but not one block of D (b lies 32 apart): from the registers */
        {"dega", "gfbc", "abcdef", E(['a' - 'a'] = 24, ['b' - 'a'] = 16, ['c' - 'a'] = 16, ['d' - 'a'] = 12,
                                     ['e' - 'a'] = 6, ['f' - 'a'] = 32, ['g' - 'a'] = 24), 3},
    };
    /* beta mode, base offset (elements), type pair (shifted by two per shape): 16-bit D first;
     * last: C's strides padded apart from D's */
    static const int cases[][4] = {{BETA_ZERO, 0, 1, 0},   {BETA_C_NOT_D, 0, 0, 0}, {BETA_C_IS_D, 0, 3, 0},
                                   {BETA_ZERO, 1, 1, 0},   {BETA_ZERO, 0, 2, 0},    {BETA_C_NOT_D, 1, 2, 0},
                                   {BETA_C_NOT_D, 0, 1, 1}};
    /* Shapes 0, 2, 3 and 4 have tiles that are one block of D (shape 1's, over modes a, b and d,
     * skips c; shape 5's rows lie apart): the packed path takes their aligned beta = 0 runs on sm_90 (two a shape), unless
     * CUPERM_GETT_DTILE_PACKED=0 keeps the gathering kernel. It writes the tiles of 0, 2 and 3 from
     * the registers, reading C where C has D's strides and is aligned (two more runs each), and
     * stages 4's (all of them with CUPERM_GETT_DTILE_PACKED=staged, beta = 0 only; then 3's staging
     * is padded). Shapes 1 and 5 have tiles of whole modes that are not blocks of D: from the
     * registers (4 runs each), or not at all (staged).
     * C's strides apart from D's or C unaligned: the gathering kernel. */
    const char* dtile = getenv("CUPERM_GETT_DTILE");
    const char* packed = getenv("CUPERM_GETT_DTILE_PACKED");
    int major = 0;
    CHECK_CUDA(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0));
    const int onDtile = dtile && strcmp(dtile, "1") == 0;
    const int onPacked = onDtile && !(packed && strcmp(packed, "0") == 0) && major >= 9;
    const int staged = packed && strcmp(packed, "staged") == 0;
    /* CUPERM_GETT_TEST_SHAPES: only these shapes (digits, e.g. "05": under the sanitizers) */
    const char* only = getenv("CUPERM_GETT_TEST_SHAPES");
    rng_t r = {4242};
    int failures = 0, runs = 0, dtileRuns = 0, packedRuns = 0;
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; ++s)
        for (size_t c = 0; c < sizeof cases / sizeof cases[0] && (!only || strchr(only, (int)('0' + s))); ++c) {
            built b;
            build_shape(&r, &shapes[s], &b);
            for (int64_t i = b.d[2].rank - 1, next = 1; cases[c][3] && i >= 0; --i) /* C apart: its last mode fastest */
                b.strides[2][i] = next, next *= b.extents[2][i];
            char label[160];
            snprintf(label, sizeof label, "many tiles %zu (%s,%s->%s) beta mode %d off %d%s", s, shapes[s].a,
                     shapes[s].b, shapes[s].d, cases[c][0], cases[c][1], cases[c][3] ? " C padded" : "");
            expect_in_description = !onPacked || (staged && (s == 1 || s == 5)) ? NULL
                                    : staged && s == 3  ? "from a padded staging"
                                    : staged || s == 4  ? "in 16-byte stores from a"
                                                        : "in 16-byte stores from the registers";
            failures += run_case(&r, b.d, &pairs[((size_t)cases[c][2] + 2 * s) % TENSOR_CORE_PAIRS], cases[c][0],
                                 cases[c][1], CUPERM_PLAN_MODEL, 1, label);
            expect_in_description = NULL;
            dtileRuns += last_plan_dtile;
            packedRuns += last_plan_packed;
            ++runs;
        }
    printf("    many tiles: %d runs (%d on the D-tile kernel, %d of them packed), %d failed\n", runs, dtileRuns,
           packedRuns, failures);
    if (onDtile) assert_int_equal(dtileRuns, runs);
    if (onPacked && !only) assert_int_equal(packedRuns, staged ? 8 : 22);
    assert_int_equal(failures, 0);
}

/* The skinny kernel (N <= 32, K <= 512: B resident, persistent blocks streaming A): N of 1-32
 * (one mode or several), K from empty to 512 and not a multiple of the 32-deep steps, A m- or
 * k-major or gathered, D along M or N, TCCG 1 / 4 style D that interleaves A's modes, batched
 * modes (a block reloads B), more M tiles than resident blocks; every type pair, beta modes,
 * base offsets, operators on some runs. */
static void test_skinny(void** state)
{
    (void)state;
    const char* off = getenv("CUPERM_GETT_SKINNY");
    if (off && strcmp(off, "0") == 0) {
        printf("    skinny: not run (CUPERM_GETT_SKINNY=0: this run checks the table kernel on such shapes)\n");
        return;
    }
    static const shape shapes[] = {
        {"mk", "kn", "mn", E(['m' - 'a'] = 1000, ['n' - 'a'] = 24, ['k' - 'a'] = 72), 0},
        {"km", "nk", "mn", E(['m' - 'a'] = 777, ['n' - 'a'] = 31, ['k' - 'a'] = 313), 0},
        {"bda", "dc", "abc", E(['a' - 'a'] = 40, ['b' - 'a'] = 24, ['c' - 'a'] = 24, ['d' - 'a'] = 40), 0},
        {"deca", "be", "abcd", E(['a' - 'a'] = 16, ['b' - 'a'] = 24, ['c' - 'a'] = 5, ['d' - 'a'] = 24,
                                 ['e' - 'a'] = 72), 0},
        {"akl", "kbl", "abl", E(['a' - 'a'] = 300, ['b' - 'a'] = 8, ['k' - 'a'] = 40, ['l' - 'a'] = 7), 1},
        {"mk", "k", "m", E(['m' - 'a'] = 1000, ['k' - 'a'] = 100), 0},
        {"mk", "kn", "mn", E(['m' - 'a'] = 300, ['n' - 'a'] = 32, ['k' - 'a'] = 512), 0},
        {"mk", "kn", "nm", E(['m' - 'a'] = 500, ['n' - 'a'] = 32, ['k' - 'a'] = 64), 0},
        {"m", "n", "mn", E(['m' - 'a'] = 1000, ['n' - 'a'] = 17), 0},
        {"mk", "kbc", "mbc", E(['m' - 'a'] = 70001, ['b' - 'a'] = 3, ['c' - 'a'] = 7, ['k' - 'a'] = 40), 0},
        {"kam", "bk", "mab", E(['m' - 'a'] = 129, ['a' - 'a'] = 5, ['b' - 'a'] = 2, ['k' - 'a'] = 33), 1},
    };
    /* The D-tile kernel (CUPERM_GETT_DTILE=1, ctest test_gett_dtile_gpu) would take the short-K ones. */
    const char* dtile = getenv("CUPERM_GETT_DTILE");
    char saved[16] = "";
    if (dtile) snprintf(saved, sizeof saved, "%s", dtile);
    setenv("CUPERM_GETT_DTILE", "0", 1);
    rng_t r = {1357};
    int failures = 0, runs = 0;
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; ++s)
        for (int variant = 0; variant < 6; ++variant) {
            built b;
            build_shape(&r, &shapes[s], &b);
            if (variant == 5) /* operators on every operand (the tile pass, B's load, the epilogue) */
                for (int t = 0; t < 4; ++t) b.d[t].op = (cupermOperator_t)rng_range(&r, CUPERM_OP_ABS, CUPERM_OP_TANH);
            char label[128];
            snprintf(label, sizeof label, "skinny shape %zu (%s,%s->%s) variant %d", s, shapes[s].a, shapes[s].b,
                     shapes[s].d, variant);
            expect_in_description = "skinny kernel";
            failures += run_case(&r, b.d, &pairs[(s + (size_t)variant) % TENSOR_CORE_PAIRS], variant % 3,
                                 (variant / 3) % 2, CUPERM_PLAN_MODEL, 1, label);
            expect_in_description = NULL;
            ++runs;
        }
    if (dtile) setenv("CUPERM_GETT_DTILE", saved, 1);
    else unsetenv("CUPERM_GETT_DTILE");
    printf("    skinny: %d runs, %d failed\n", runs, failures);
    print_orders("skinny");
    assert_int_equal(failures, 0);
}

/* ---- random contractions ---------------------------------------------------------- */

static int case_count(void)
{
    const char* s = getenv("CUPERM_GETT_TEST_CASES");
    const int n = s ? atoi(s) : 200;
    return n > 0 ? n : 200;
}

/* Random case i of a test: every fifth one larger, every other one with C and D alike (then
 * returns 1: C may be D). */
static int draw_case(rng_t* r, int i, ctr_random_case* c)
{
    const int aliasable = i % 2;
    ctr_random_options o = {6, i % 5 == 0 ? 200 : 40, i % 5 == 0 ? 1 << 22 : 1 << 18, aliasable, 0, 1, 15, 20};
    ctr_random_draw(r, &o, c);
    return aliasable;
}

static void test_random(void** state)
{
    (void)state;
    rng_t r = {4242};
    const int count = case_count();
    int failures = 0;
    int packed = 0;
    for (int i = 0; i < count; ++i) {
        ctr_random_case c;
        const int aliasable = draw_case(&r, i, &c);
        /* Negations fold into alpha and beta: still GETT. */
        for (int t = 0; t < 4; ++t) {
            c.desc[t].op = rng_range(&r, 0, 5) == 0 ? CUPERM_OP_NEGATE : CUPERM_OP_IDENTITY;
            c.desc[t].opParam = 0;
        }
        const int betaMode = aliasable ? (int)rng_range(&r, 0, 2) : (int)rng_range(&r, 0, 1);
        char label[1100], text[1000];
        ctr_random_print(&c, text, sizeof text);
        snprintf(label, sizeof label, "random %d: %s", i, text);
        failures += run_case(&r, c.desc, &pairs[i % ALL_PAIRS], betaMode, (int)rng_range(&r, 0, 1), CUPERM_PLAN_MODEL, 1,
                             label);
        packed += last_plan_packed;
    }
    printf("    random: %d cases (%d on the D-tile kernel's packed path), %d failed\n", count, packed, failures);
    if (wgmma_expected()) assert_true(orders_seen[6] > 0); /* the table kernel's cases ran on the wgmma form */
    print_orders("random");
    assert_int_equal(failures, 0);
}

/* An operator for operand t: any of cupermOperator_t's real ones for A, B and C, the 1-Lipschitz
 * ones for D (the error bound passes through them unscaled); parameters in (0, 1]. */
static cupermOperator_t random_operator(rng_t* r, int t, double* param)
{
    static const cupermOperator_t any[] = {CUPERM_OP_IDENTITY, CUPERM_OP_NEGATE, CUPERM_OP_ABS,     CUPERM_OP_RELU,
                                           CUPERM_OP_LEAKY_RELU, CUPERM_OP_ELU, CUPERM_OP_SIGMOID, CUPERM_OP_TANH,
                                           CUPERM_OP_EXP,        CUPERM_OP_SQRT, CUPERM_OP_CONJ};
    const int n = t == 3 ? 8 : (int)(sizeof any / sizeof any[0]); /* D: up to tanh */
    *param = 0.05 + 0.95 * rng_uniform(r);
    return any[rng_range(r, 0, n - 1)];
}

/* Operators on the GETT kernels (opA / opB on the loaded tiles, opC / opD in the epilogue), every
 * type pair, random shapes, strides, beta modes and base offsets: each case has at least one
 * operator that does not fold into the scalars, so the kernels' operator instances run. */
static void test_operators(void** state)
{
    (void)state;
    rng_t r = {2718};
    const int count = case_count() / 2 > 8 ? case_count() / 2 : 8;
    int failures = 0;
    for (int i = 0; i < count; ++i) {
        ctr_random_case c;
        const int aliasable = draw_case(&r, i, &c);
        for (int t = 0; t < 4; ++t) c.desc[t].op = random_operator(&r, t, &c.desc[t].opParam);
        const int forced = i % 4; /* this operand gets relu .. tanh (none of them folds) */
        c.desc[forced].op = (cupermOperator_t)rng_range(&r, CUPERM_OP_ABS, CUPERM_OP_TANH);
        const type_pair* tp = &pairs[i % ALL_PAIRS];
        for (int t = 0; t < 2; ++t) /* exp(A) exp(B) summed over K could pass fp16's largest value */
            if (tp->cd == CUPERM_R_16F && c.desc[t].op == CUPERM_OP_EXP) c.desc[t].op = CUPERM_OP_SIGMOID;
        const int betaMode = aliasable ? (int)rng_range(&r, 0, 2) : (int)rng_range(&r, 0, 1);
        char label[1200], text[1000];
        ctr_random_print(&c, text, sizeof text);
        snprintf(label, sizeof label, "operators %d: %s; ops A %d B %d C %d D %d", i, text, c.desc[0].op,
                 c.desc[1].op, c.desc[2].op, c.desc[3].op);
        expect_in_description = "operators";
        failures += run_case(&r, c.desc, tp, betaMode, (int)rng_range(&r, 0, 1), CUPERM_PLAN_MODEL, 1, label);
        expect_in_description = NULL;
    }
    printf("    operators: %d cases, %d failed\n", count, failures);
    print_orders("operators");
    assert_int_equal(failures, 0);
}

/* Measured plans time GETT against the TTGT candidates: whichever wins must be right. */
static void test_measured(void** state)
{
    (void)state;
    rng_t r = {99};
    const shape sh = {"aebf", "dfce", "acbd", E(['a' - 'a'] = 48, ['b' - 'a'] = 24, ['c' - 'a'] = 40,
                                                ['d' - 'a'] = 16, ['e' - 'a'] = 24, ['f' - 'a'] = 16), 0};
    int failures = 0;
    for (int i = 0; i < (int)ALL_PAIRS; ++i) {
        built b;
        build_shape(&r, &sh, &b);
        failures += run_case(&r, b.d, &pairs[i], i % 3, 0, CUPERM_PLAN_MEASURE, 0, "measured");
    }
    assert_int_equal(failures, 0);
}

/* Ineligible problems keep TTGT plans under CUPERM_GETT=1. */
static void test_not_eligible(void** state)
{
    (void)state;
    const int32_t mA[2] = {'a', 'k'}, mB[2] = {'k', 'b'}, mD[2] = {'a', 'b'};
    const int64_t e[2] = {32, 32};
    cupermTensorDescriptor_t A = {2, mA, e, NULL, CUPERM_C_32F, CUPERM_OP_IDENTITY, 0};
    cupermTensorDescriptor_t B = {2, mB, e, NULL, CUPERM_C_32F, CUPERM_OP_IDENTITY, 0};
    cupermTensorDescriptor_t D = {2, mD, e, NULL, CUPERM_C_32F, CUPERM_OP_IDENTITY, 0};
    cupermContractionPlan_t plan;
    cupermContractionInfo_t info;
    assert_int_equal(cupermPlanContraction(handle, &plan, &A, &B, &D, &D, CUPERM_COMPUTE_DEFAULT, CUPERM_PLAN_MODEL), 0);
    assert_false(plan_is_gett(plan, &info)); /* complex */
    assert_int_equal(cupermContractionPlanDestroy(plan), 0);
    A.type = B.type = D.type = CUPERM_R_32F;
    assert_int_equal(cupermPlanContraction(handle, &plan, &A, &B, &D, &D, CUPERM_COMPUTE_32F_FAST_TF32,
                                           CUPERM_PLAN_MODEL), 0);
    assert_false(plan_is_gett(plan, &info)); /* TF32 stays on cuBLAS */
    assert_int_equal(cupermContractionPlanDestroy(plan), 0);
    assert_int_equal(cupermPlanContraction(handle, &plan, &A, &B, &D, &D, CUPERM_COMPUTE_DEFAULT, CUPERM_PLAN_MODEL), 0);
    assert_true(plan_is_gett(plan, &info)); /* strict fp32: the CUDA-core kernel */
    assert_non_null(strstr(info.description, "CUDA cores (fp32 FFMA)"));
    assert_int_equal(cupermContractionPlanDestroy(plan), 0);
    A.type = B.type = D.type = CUPERM_R_16F;
    A.op = CUPERM_OP_RELU; /* operators run inside the GETT kernels */
    assert_int_equal(cupermPlanContraction(handle, &plan, &A, &B, &D, &D, CUPERM_COMPUTE_DEFAULT, CUPERM_PLAN_MODEL), 0);
    assert_true(plan_is_gett(plan, &info));
    assert_non_null(strstr(info.description, "operators"));
    assert_int_equal(cupermContractionPlanDestroy(plan), 0);
    A.op = CUPERM_OP_IDENTITY;
    assert_int_equal(cupermPlanContraction(handle, &plan, &A, &B, &D, &D, CUPERM_COMPUTE_DEFAULT, CUPERM_PLAN_MODEL), 0);
    assert_true(plan_is_gett(plan, &info));
    printf("    GETT plan: %s\n", info.description);
    assert_int_equal(cupermContractionPlanDestroy(plan), 0);
}

static int setup(void** state)
{
    (void)state;
    return cupermCreate(&handle) == CUPERM_STATUS_SUCCESS ? 0 : -1;
}

static int teardown(void** state)
{
    (void)state;
    return cupermDestroy(handle) == CUPERM_STATUS_SUCCESS ? 0 : -1;
}

/* Under CUPERM_GETT=tma: whether a dense 128 x 128 x 128 fp16 GEMM plans onto the Hopper kernels. */
static int hopper_kernels_present(void)
{
    cupermHandle_t h;
    const int32_t mA[2] = {'a', 'k'}, mB[2] = {'k', 'b'}, mD[2] = {'a', 'b'};
    const int64_t e[2] = {128, 128};
    const cupermTensorDescriptor_t A = {2, mA, e, NULL, CUPERM_R_16F, CUPERM_OP_IDENTITY, 0};
    const cupermTensorDescriptor_t B = {2, mB, e, NULL, CUPERM_R_16F, CUPERM_OP_IDENTITY, 0};
    const cupermTensorDescriptor_t D = {2, mD, e, NULL, CUPERM_R_16F, CUPERM_OP_IDENTITY, 0};
    cupermContractionPlan_t plan;
    cupermContractionInfo_t info;
    int present = 0;
    if (cupermCreate(&h) != CUPERM_STATUS_SUCCESS) return 0;
    if (cupermPlanContraction(h, &plan, &A, &B, &D, &D, CUPERM_COMPUTE_DEFAULT, CUPERM_PLAN_MODEL) == 0) {
        present = cupermContractionPlanGetInfo(plan, &info) == 0 && strstr(info.description, "Hopper TMA") != NULL;
        cupermContractionPlanDestroy(plan);
    }
    cupermDestroy(h);
    return present;
}

int main(void)
{
    require_gpu_or_skip("test_gett_gpu");
    /* Before cupermCreate: the handle reads it once. */
    const char* engine = getenv("CUPERM_GETT_TEST_ENGINE");
    const int tma = engine && strcmp(engine, "tma") == 0;
    setenv("CUPERM_GETT", tma ? "tma" : "1", 1);
    if (tma && !hopper_kernels_present()) {
        printf("SKIPPED: test_gett_gpu (tma): no Hopper GETT kernels here (built without CUPERM_GETT_TMA, or the "
               "device is not compute capability 9.0)\n");
        return 77;
    }
    /* CUPERM_GETT_TEST_FILTER: only the tests whose names match (cmocka's * and ? patterns), e.g.
     * test_operators under compute-sanitizer's racecheck, which is too slow for all of them. */
    const char* filter = getenv("CUPERM_GETT_TEST_FILTER");
    if (filter && *filter) cmocka_set_test_filter(filter);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_not_eligible),
        cmocka_unit_test(test_fixed_shapes),
        cmocka_unit_test(test_vector_paths),
        cmocka_unit_test(test_many_tiles),
        cmocka_unit_test(test_skinny),
        cmocka_unit_test(test_random),
        cmocka_unit_test(test_operators),
        cmocka_unit_test(test_measured),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
