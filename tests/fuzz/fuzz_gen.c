/* cuperm-fuzz: random and fixed problems. Every random case is drawn from its own
 * seed (base seed + case number), so any case reproduces alone. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "support/reference.h"
#include "fuzz/fuzz.h"

const char* fuzz_op_name(cupermOperator_t op)
{
    static const char* names[] = {"IDENTITY", "NEGATE", "ABS", "RELU", "LEAKY_RELU", "ELU",
                                  "SIGMOID", "TANH", "EXP", "SQRT", "CONJ"};
    return (unsigned)op <= CUPERM_OP_CONJ ? names[op] : "?";
}

const char* fuzz_compute_name(cupermComputeType_t c)
{
    static const char* names[] = {"DEFAULT", "16F", "32F", "64F", "32F_FAST_TF32", "32F_FAST_16F",
                                  "32F_FAST_16BF"};
    return (unsigned)c <= CUPERM_COMPUTE_32F_FAST_16BF ? names[c] : "?";
}

/* Type combinations and compute types the header lists as supported. */
typedef struct {
    cupermDataType_t ab, cd;
    int n;
    cupermComputeType_t compute[5];
} type_combo;

static const type_combo combos[] = {
    {CUPERM_R_32F, CUPERM_R_32F, 5, {CUPERM_COMPUTE_DEFAULT, CUPERM_COMPUTE_32F, CUPERM_COMPUTE_32F_FAST_TF32,
                                     CUPERM_COMPUTE_32F_FAST_16F, CUPERM_COMPUTE_32F_FAST_16BF}},
    {CUPERM_C_32F, CUPERM_C_32F, 5, {CUPERM_COMPUTE_DEFAULT, CUPERM_COMPUTE_32F, CUPERM_COMPUTE_32F_FAST_TF32,
                                     CUPERM_COMPUTE_32F_FAST_16F, CUPERM_COMPUTE_32F_FAST_16BF}},
    {CUPERM_R_64F, CUPERM_R_64F, 2, {CUPERM_COMPUTE_DEFAULT, CUPERM_COMPUTE_64F}},
    {CUPERM_C_64F, CUPERM_C_64F, 2, {CUPERM_COMPUTE_DEFAULT, CUPERM_COMPUTE_64F}},
    {CUPERM_R_16F, CUPERM_R_16F, 3, {CUPERM_COMPUTE_DEFAULT, CUPERM_COMPUTE_32F, CUPERM_COMPUTE_16F}},
    {CUPERM_R_16F, CUPERM_R_32F, 2, {CUPERM_COMPUTE_DEFAULT, CUPERM_COMPUTE_32F}},
    {CUPERM_R_16BF, CUPERM_R_32F, 2, {CUPERM_COMPUTE_DEFAULT, CUPERM_COMPUTE_32F}},
    {CUPERM_R_16BF, CUPERM_R_16BF, 2, {CUPERM_COMPUTE_DEFAULT, CUPERM_COMPUTE_32F}},
};

/* forD: no sqrt or exp on the result; noExp: no exp on A or B (sums of exponentials overflow fp16). */
static cupermOperator_t random_op(rng_t* r, cupermDataType_t t, int forD, int noExp)
{
    static const cupermOperator_t cplxOps[] = {CUPERM_OP_IDENTITY, CUPERM_OP_NEGATE, CUPERM_OP_CONJ};
    if (rng_range(r, 0, 1)) return CUPERM_OP_IDENTITY;
    if (dtype_is_complex(t)) return cplxOps[rng_range(r, 0, 2)];
    cupermOperator_t op;
    do op = (cupermOperator_t)rng_range(r, 0, CUPERM_OP_CONJ);
    while ((forD && (op == CUPERM_OP_SQRT || op == CUPERM_OP_EXP)) || (noExp && op == CUPERM_OP_EXP));
    return op;
}

/* The scalar as cupermContract receives it: float unless D is R_64F / C_64F. */
static ctr_cplx round_scalar(cupermDataType_t cd, ctr_cplx v)
{
    if (cd == CUPERM_R_64F) return creal(v);
    if (cd == CUPERM_C_64F) return v;
    if (cd == CUPERM_C_32F) return (double)(float)creal(v) + I * (double)(float)cimag(v);
    return (double)(float)creal(v);
}

/* Case `index` of base seed `seed` starts from hash(seed) + index: reproducible alone, and runs
 * with different base seeds share no cases (plain seed + index would overlap almost entirely). */
static rng_t case_rng(uint64_t seed, int64_t index)
{
    rng_t h = {seed};
    rng_t r = {rng_next(&h) + (uint64_t)index};
    return r;
}

double fuzz_ctr_k(const fuzz_ctr_case* k)
{
    const cupermTensorDescriptor_t *A = &k->c.desc[0], *B = &k->c.desc[1], *D = &k->c.desc[3];
    double K = 1;
    for (int i = 0; i < A->rank; ++i) {
        int inB = 0, inD = 0;
        for (int j = 0; j < B->rank; ++j) inB |= B->modes[j] == A->modes[i];
        for (int j = 0; j < D->rank; ++j) inD |= D->modes[j] == A->modes[i];
        if (inB && !inD) K *= (double)A->extents[i];
    }
    return K;
}

static int64_t ctr_case_span(const fuzz_ctr_case* k)
{
    int64_t span = 0;
    for (int t = 0; t < 4; ++t) {
        const int64_t s = k->c.offset[t] + ctr_ref_span(&k->c.desc[t]);
        if (s > span) span = s;
    }
    return span;
}

/* One case in eight, chosen by its own stream (the others draw exactly as before), is made
 * the shape the Hopper GETT kernels take (plan/contraction/gett_tma.c's rules): every mode
 * with stride 1 somewhere gets extent 8 everywhere, each operand is dense again in its old
 * memory order (views dropped) and starts at element 0 (16-byte aligned), and fp16 / bf16
 * cases compute in fp32 with identity or negation as operators (the GETT family's). Without
 * it almost no random case maps: 13 of the 1,470 fp16 / bf16 cases of seed 5's first 3,000,
 * 71 with it. Undone when the result outgrows the case's size limits. */
static void maybe_tma_shape(uint64_t seed, int64_t index, fuzz_ctr_case* k)
{
    rng_t r = case_rng(seed ^ 0x7a3c5e91d2b4f608ull, index);
    if (rng_range(&r, 0, 7) != 0) return;
    fuzz_ctr_case was = *k;
    ctr_random_case* c = &k->c;
    ctr_random_unit_modes_to(c, 8);
    for (int w = 0; w < 4; ++w) k->base[w] = 0;
    const cupermDataType_t ab = c->desc[0].type;
    if (ab == CUPERM_R_16F || ab == CUPERM_R_16BF) {
        k->compute = CUPERM_COMPUTE_32F;
        for (int w = 0; w < 4; ++w) c->desc[w].op = rng_range(&r, 0, 3) ? CUPERM_OP_IDENTITY : CUPERM_OP_NEGATE;
    }
    const int half = k->c.desc[3].type == CUPERM_R_16F;
    if (ctr_case_span(k) > 300000 || (half && fuzz_ctr_k(k) > 4096)) *k = was;
}

void fuzz_ctr_draw(uint64_t seed, int64_t index, fuzz_ctr_case* k)
{
    memset(k, 0, sizeof *k);
    rng_t r = case_rng(seed, index);
    k->seed = seed;
    k->index = index;
    const type_combo* tc = &combos[rng_range(&r, 0, (int64_t)(sizeof combos / sizeof combos[0]) - 1)];
    k->compute = tc->compute[rng_range(&r, 0, tc->n - 1)];
    ctr_random_options o = {6, 70, 1.5e5, (int)rng_range(&r, 0, 1), 2, 1, 20, 20};
    /* Small tensors: spans of at most ~3e5 elements; fp16 results: K <= 4096 (no overflow). */
    for (int tries = 0;; ++tries) {
        ctr_random_draw(&r, &o, &k->c);
        const int64_t span = ctr_case_span(k);
        if (tries >= 50) break;
        if (span > 300000) continue;
        if (tc->cd == CUPERM_R_16F && fuzz_ctr_k(k) > 4096) continue;
        break;
    }
    for (int t = 0; t < 4; ++t) {
        cupermTensorDescriptor_t* d = &k->c.desc[t];
        d->type = t < 2 ? tc->ab : tc->cd;
        d->op = random_op(&r, d->type, t == 3, t < 2 && tc->cd == CUPERM_R_16F);
        d->opParam = 0.05 + 1.45 * fabs(rng_unit(&r));
    }
    const int cplx = dtype_is_complex(tc->cd);
    k->aliasCD = o.cAliasD && rng_range(&r, 0, 1);
    k->betaZero = rng_range(&r, 0, 3) == 0;
    k->alpha = round_scalar(tc->cd, 1.5 * rng_unit(&r) + (cplx ? I * 1.5 * rng_unit(&r) : 0));
    k->beta = k->betaZero ? 0 : round_scalar(tc->cd, 1.5 * rng_unit(&r) + (cplx ? I * 1.5 * rng_unit(&r) : 0));
    for (int t = 0; t < 4; ++t) k->base[t] = rng_range(&r, 0, 7) + k->c.offset[t];
    if (k->aliasCD) k->base[2] = k->base[3];
    k->ws = (fuzz_ws_mode)rng_range(&r, 0, 2);
    k->wsExtra = (int)rng_range(&r, 1, 4);
    k->planMode = rng_range(&r, 0, 49) == 0 ? CUPERM_PLAN_MEASURE : CUPERM_PLAN_MODEL;
    k->useStream = rng_range(&r, 0, 3) == 0;
    /* Dense column-major operands without an origin are sometimes passed with NULL strides. */
    for (int t = 0; t < 4; ++t) {
        cupermTensorDescriptor_t* d = &k->c.desc[t];
        int64_t dense = 1;
        int isDense = 1;
        for (int i = 0; i < d->rank; ++i) {
            isDense &= d->strides[i] == dense;
            dense *= d->extents[i];
        }
        if (isDense && rng_range(&r, 0, 1) && !(t == 2 && k->aliasCD) && !(t == 3 && k->aliasCD))
            d->strides = NULL;
    }
    k->dataSeed = rng_next(&r);
    maybe_tma_shape(seed, index, k);
}

/* ---- regression cases ----------------------------------------------------------------- */

static void set_operand(fuzz_ctr_case* k, int t, int rank, const char* modes, const int64_t* extents,
                        const int64_t* strides, cupermDataType_t type, cupermOperator_t op, double param)
{
    cupermTensorDescriptor_t* d = &k->c.desc[t];
    int64_t dense = 1;
    for (int i = 0; i < rank; ++i) {
        k->c.modes[t][i] = modes[i];
        k->c.extents[t][i] = extents[i];
        k->c.strides[t][i] = strides ? strides[i] : dense;
        dense *= extents[i];
    }
    d->rank = rank;
    d->modes = k->c.modes[t];
    d->extents = k->c.extents[t];
    d->strides = k->c.strides[t];
    d->type = type;
    d->op = op;
    d->opParam = param;
}

static const char* const regression_names[] = {
    "a: bf16 sigmoid(A), B at +19, C=D permuted R_32F, relu(D)",
    "b: R_32F elu(A) at +7, sigmoid(B) at +341, -C",
    "c: fp16 -A at +1, -B, D strided at +686, tanh(D), beta 0",
    "d: R_32F elu(A) with A near zero (expm1 accuracy)",
    "e: R_32F elu(D) with D near zero (expm1 accuracy)",
};

int fuzz_ctr_regression_count(void) { return (int)(sizeof regression_names / sizeof regression_names[0]); }

void fuzz_ctr_regression(int i, fuzz_ctr_case* k)
{
    memset(k, 0, sizeof *k);
    k->name = regression_names[i];
    k->index = i;
    k->compute = CUPERM_COMPUTE_DEFAULT;
    k->planMode = CUPERM_PLAN_MODEL;
    k->ws = FUZZ_WS_NULL;
    k->dataSeed = 0x5eed0000u + (uint64_t)i;
    switch (i) {
    case 0: {
        const int64_t eA[] = {4, 3, 3, 3, 7}, eB[] = {16, 3, 3, 3}, sB[] = {1, 16, 64, 192};
        const int64_t eD[] = {16, 7, 4, 3, 3, 3}, sD[] = {3528, 84, 1, 21, 588, 7};
        set_operand(k, 0, 5, "abcde", eA, NULL, CUPERM_R_16BF, CUPERM_OP_SIGMOID, 0);
        set_operand(k, 1, 4, "fcgd", eB, sB, CUPERM_R_16BF, CUPERM_OP_IDENTITY, 0);
        set_operand(k, 2, 6, "feabgd", eD, sD, CUPERM_R_32F, CUPERM_OP_IDENTITY, 0);
        set_operand(k, 3, 6, "feabgd", eD, sD, CUPERM_R_32F, CUPERM_OP_RELU, 0);
        k->base[1] = 19;
        k->aliasCD = 1;
        k->alpha = (float)1.339;
        k->beta = (float)1.550;
        break;
    }
    case 1: {
        const int64_t eA[] = {4, 17, 5, 12, 16}, eB[] = {16, 17, 5, 4}, sB[] = {340, 1, 17, 85};
        const int64_t eD[] = {12, 5};
        set_operand(k, 0, 5, "pqrst", eA, NULL, CUPERM_R_32F, CUPERM_OP_ELU, 0.2);
        set_operand(k, 1, 4, "tqrp", eB, sB, CUPERM_R_32F, CUPERM_OP_SIGMOID, 0);
        set_operand(k, 2, 2, "sr", eD, NULL, CUPERM_R_32F, CUPERM_OP_NEGATE, 0);
        set_operand(k, 3, 2, "sr", eD, NULL, CUPERM_R_32F, CUPERM_OP_IDENTITY, 0);
        k->base[0] = 7;
        k->base[1] = 341;
        k->aliasCD = 1;
        k->alpha = (float)-0.209;
        k->beta = (float)1.292;
        break;
    }
    case 2: {
        const int64_t eA[] = {1, 8, 5, 4}, eB[] = {16, 8, 4, 4, 5, 1}, eD[] = {16, 1, 4, 5};
        const int64_t sD[] = {1, 340, 85, 17};
        set_operand(k, 0, 4, "xkbl", eA, NULL, CUPERM_R_16F, CUPERM_OP_NEGATE, 0);
        set_operand(k, 1, 6, "nklmbx", eB, NULL, CUPERM_R_16F, CUPERM_OP_NEGATE, 0);
        set_operand(k, 2, 4, "nxmb", eD, NULL, CUPERM_R_32F, CUPERM_OP_IDENTITY, 0);
        set_operand(k, 3, 4, "nxmb", eD, sD, CUPERM_R_32F, CUPERM_OP_TANH, 0);
        k->base[0] = 1;
        k->base[3] = 686;
        k->alpha = (float)-1.633;
        k->beta = 0;
        k->betaZero = 1;
        break;
    }
    case 3:
    case 4: {
        const int64_t eA[] = {8, 16}, eB[] = {16, 8}, eD[] = {8, 8};
        set_operand(k, 0, 2, "ik", eA, NULL, CUPERM_R_32F, i == 3 ? CUPERM_OP_ELU : CUPERM_OP_IDENTITY, 1.0);
        set_operand(k, 1, 2, "kj", eB, NULL, CUPERM_R_32F, CUPERM_OP_IDENTITY, 0);
        set_operand(k, 2, 2, "ij", eD, NULL, CUPERM_R_32F, CUPERM_OP_IDENTITY, 0);
        set_operand(k, 3, 2, "ij", eD, NULL, CUPERM_R_32F, i == 4 ? CUPERM_OP_ELU : CUPERM_OP_IDENTITY, 1.0);
        k->alpha = 1;
        k->beta = 0;
        k->betaZero = 1;
        k->dataKind = 1;
        break;
    }
    default: break;
    }
    if (k->aliasCD) k->base[2] = k->base[3];
}

static void print_operand(FILE* f, char name, const cupermTensorDescriptor_t* d, int64_t base)
{
    fprintf(f, "    %c %-6s modes [", name, dtype_enum_name(d->type));
    for (int i = 0; i < d->rank; ++i) {
        const int32_t m = d->modes[i];
        if (m >= 'a' && m <= 'z') fprintf(f, "%s%c", i ? " " : "", (char)m);
        else fprintf(f, "%s%d", i ? " " : "", (int)m);
    }
    fprintf(f, "] extents [");
    for (int i = 0; i < d->rank; ++i) fprintf(f, "%s%lld", i ? " " : "", (long long)d->extents[i]);
    if (d->strides) {
        fprintf(f, "] strides [");
        for (int i = 0; i < d->rank; ++i) fprintf(f, "%s%lld", i ? " " : "", (long long)d->strides[i]);
        fprintf(f, "]");
    } else {
        fprintf(f, "] strides NULL (dense)");
    }
    fprintf(f, " base +%lld elements, op %s", (long long)base, fuzz_op_name(d->op));
    if (d->op == CUPERM_OP_ELU || d->op == CUPERM_OP_LEAKY_RELU) fprintf(f, "(%.17g)", d->opParam);
    fprintf(f, ", span %lld\n", (long long)ctr_ref_span(d));
}

void fuzz_ctr_describe(FILE* f, const fuzz_ctr_case* k)
{
    if (k->name) fprintf(f, "    regression case %lld: %s\n", (long long)k->index, k->name);
    fprintf(f, "    compute %s, K = %.0f\n", fuzz_compute_name(k->compute), fuzz_ctr_k(k));
    static const char names[4] = {'A', 'B', 'C', 'D'};
    for (int t = 0; t < 4; ++t) print_operand(f, names[t], &k->c.desc[t], k->base[t]);
    fprintf(f, "    alpha %.9g%+.9gi, beta %.9g%+.9gi%s; %s; workspace %s; plan %s; %s stream\n",
            creal(k->alpha), cimag(k->alpha), creal(k->beta), cimag(k->beta),
            k->betaZero ? " (C poisoned with NaN)" : "", k->aliasCD ? "C == D (same pointer)" : "C != D",
            k->ws == FUZZ_WS_NULL ? "NULL" : k->ws == FUZZ_WS_EXACT ? "exact" : "larger",
            k->planMode == CUPERM_PLAN_MEASURE ? "MEASURE" : "MODEL", k->useStream ? "created" : "default");
}

/* ---- transposes ------------------------------------------------------------------------ */

static int64_t tr_extent(rng_t* r, int small)
{
    static const int64_t primes[] = {2, 3, 5, 7, 11, 13};
    if (small) return rng_range(r, 1, 3);
    const int64_t kind = rng_range(r, 0, 19);
    if (kind < 4) return 1;
    if (kind < 12) return primes[rng_range(r, 0, 5)];
    if (kind < 18) return rng_range(r, 1, 16);
    return rng_range(r, 17, 97);
}

void fuzz_tr_draw(uint64_t seed, int64_t index, fuzz_tr_case* t)
{
    memset(t, 0, sizeof *t);
    rng_t r = case_rng(seed, index);
    t->seed = seed;
    t->index = index;
    test_case_t* c = &t->c;
    const int big = rng_range(&r, 0, 19) == 0;
    c->rank = big ? (int)rng_range(&r, 9, 12) : (int)rng_range(&r, 1, 8);
    const int64_t maxVolume = rng_range(&r, 0, 9) == 0 ? 100000 : 30000;
    for (int d = 0; d < c->rank; ++d) c->extents[d] = tr_extent(&r, big);
    for (;;) { /* shrink the largest extent until the volume fits */
        int64_t v = 1;
        int b = 0;
        for (int d = 0; d < c->rank; ++d) {
            v *= c->extents[d];
            if (c->extents[d] > c->extents[b]) b = d;
        }
        if (v <= maxVolume || c->extents[b] == 1) break;
        c->extents[b] = rng_range(&r, 1, c->extents[b] / 2);
    }
    rng_permutation(&r, c->rank, c->perm);
    const int inKind = (int)rng_range(&r, 0, 3); /* dense, padded/permuted, + broadcast, dense + broadcast */
    if (inKind > 0) {
        c->has_in_strides = 1;
        if (inKind == 3) {
            int64_t s = 1;
            for (int d = 0; d < c->rank; ++d) {
                c->in_strides[d] = s;
                s *= c->extents[d];
            }
        } else {
            case_random_strides(&r, c->rank, c->extents, 3, c->in_strides);
        }
        if (inKind >= 2) {
            const int n = (int)rng_range(&r, 1, c->rank > 1 ? c->rank - 1 : 1);
            for (int i = 0; i < n; ++i) c->in_strides[rng_range(&r, 0, c->rank - 1)] = 0;
        }
    }
    if (rng_range(&r, 0, 1)) {
        int64_t outExt[CUPERM_MAX_RANK];
        for (int k = 0; k < c->rank; ++k) outExt[k] = c->extents[c->perm[k]];
        c->has_out_strides = 1;
        case_random_strides(&r, c->rank, outExt, 3, c->out_strides);
    }
    t->type = dtype_all[rng_range(&r, 0, dtype_count - 1)];
    t->scalars = (fuzz_tr_scalars)rng_range(&r, 0, 2);
    const int half = t->type == CUPERM_R_16F || t->type == CUPERM_R_16BF;
    if (t->scalars == FUZZ_TR_PLAIN) {
        if (half) *(float*)t->alpha = 1.0f;
        else if (dtype_is_float(t->type)) ref_store(t->type, t->alpha, (double[2]){1, 0});
        else t->alpha[0] = 1;
    } else {
        rng_scalar(&r, t->type, t->alpha);
        if (t->scalars == FUZZ_TR_ALPHA_BETA) rng_scalar(&r, t->type, t->beta);
    }
    t->baseIn = rng_range(&r, 0, 7);
    t->baseOut = rng_range(&r, 0, 7);
    t->measure = rng_range(&r, 0, 99) == 0;
    t->useStream = rng_range(&r, 0, 3) == 0;
    t->dataSeed = rng_next(&r);
}

void fuzz_tr_describe(FILE* f, const fuzz_tr_case* t)
{
    fprintf(f, "    type %s, ", dtype_enum_name(t->type));
    case_print(f, &t->c);
    uint64_t a = 0, b = 0;
    const size_t es = cupermDataTypeSize(t->type);
    memcpy(&a, t->alpha, es < 8 ? es : 8);
    memcpy(&b, t->beta, es < 8 ? es : 8);
    fprintf(f, "    scalars %s (alpha bits %016llx, beta bits %016llx); in base +%lld, out base +%lld elements; "
            "plan %s; %s stream\n",
            t->scalars == FUZZ_TR_PLAIN ? "plain copy" : t->scalars == FUZZ_TR_ALPHA ? "alpha, beta 0" : "alpha, beta",
            (unsigned long long)a, (unsigned long long)b, (long long)t->baseIn, (long long)t->baseOut,
            t->measure ? "measure" : "heuristic", t->useStream ? "created" : "default");
}

void fuzz_print_repro(FILE* f, const char* kind, uint64_t seed, int64_t index, int cpu)
{
    if (!strcmp(kind, "regression"))
        fprintf(f, "REPRO: cuperm-fuzz%s --kind regression --case %lld\n", cpu ? " --cpu" : "", (long long)index);
    else
        fprintf(f, "REPRO: cuperm-fuzz%s --kind %s --seed %llu --case %lld\n", cpu ? " --cpu" : "", kind,
                (unsigned long long)seed, (long long)index);
}
