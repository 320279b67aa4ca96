/*
 * cuperm-dist-test: distributed transposes over NCCL on every visible GPU, one
 * communicator per GPU made with ncclCommInitAll in this one process, one host thread
 * per GPU for each collective call. Prints SKIPPED and exits 77 with fewer than 2 GPUs.
 *
 *   cuperm-dist-test [--quick] [--cases N] [--contractions N] [--seed S]   correctness, errors
 *   cuperm-dist-test --bench [--gb G] [--iters N]         timings vs grouped send/recv
 *
 * Correctness: random rank 2-6 tensors, uneven and empty blocks, random permutations,
 * every combination of source and destination distributed modes (random grids along
 * one or two modes), alpha and beta != 0, several dtypes, forced and model-chosen
 * variants and chunk counts; each rank's block is compared exactly (integer-valued data)
 * with the gathered single-GPU cupermExecute result. Errors: a bad descriptor on one
 * rank (mismatched extents, wrong grid size, bad block size, bad perm) must make every
 * rank return CUPERM_STATUS_INVALID_VALUE without hanging (a watchdog exits otherwise).
 * NCCL_NVLS_ENABLE=0 is set before NCCL starts (no NVLink multicast).
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cuda_runtime_api.h>

#include "cuperm_dist.h"

#define MAXG 16
#define CK(x)                                                                                     \
    do {                                                                                          \
        cudaError_t e_ = (x);                                                                     \
        if (e_ != cudaSuccess) {                                                                  \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_));    \
            exit(1);                                                                              \
        }                                                                                         \
    } while (0)

typedef struct {
    int dev;
    ncclComm_t comm;
    cudaStream_t stream;
    cupermHandle_t handle;
} rank_t;

static int G;
static rank_t R[MAXG];

/* ---- one host thread per GPU ------------------------------------------------ */
typedef void (*rank_fn)(int r, void* arg);
typedef struct { rank_fn fn; void* arg; int r; } job_t;
static void* job_main(void* p)
{
    job_t* j = p;
    CK(cudaSetDevice(R[j->r].dev));
    j->fn(j->r, j->arg);
    return NULL;
}
static void on_all_ranks(rank_fn fn, void* arg)
{
    pthread_t t[MAXG];
    job_t j[MAXG];
    for (int r = 0; r < G; ++r) {
        j[r] = (job_t){fn, arg, r};
        pthread_create(&t[r], NULL, job_main, &j[r]);
    }
    for (int r = 0; r < G; ++r) pthread_join(t[r], NULL);
}

static void watchdog(int sig)
{
    (void)sig;
    static const char m[] = "FAILED: watchdog: a collective call hung (ranks disagreed?)\n";
    if (write(2, m, sizeof m - 1) < 0) _exit(124);
    _exit(124);
}

static uint64_t rng_state = 1;
static uint64_t rnd(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
static int64_t rr(int64_t lo, int64_t hi) { return lo + (int64_t)(rnd() % (uint64_t)(hi - lo + 1)); }

/* ---- element access for the tested types (values are small integers: exact) --- */
static uint16_t f2h(float f)
{
    uint32_t x;
    memcpy(&x, &f, 4);
    const uint32_t sign = (x >> 16) & 0x8000u;
    const int exp = (int)((x >> 23) & 0xff) - 127 + 15;
    if ((x & 0x7fffffffu) == 0) return (uint16_t)sign;
    return (uint16_t)(sign | (uint32_t)exp << 10 | ((x >> 13) & 0x3ffu));
}
static float h2f(uint16_t h)
{
    const uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
    const int exp = (h >> 10) & 0x1f;
    uint32_t x = sign;
    if (exp || (h & 0x3ff)) x |= (uint32_t)(exp - 15 + 127) << 23 | (uint32_t)(h & 0x3ffu) << 13;
    float f;
    memcpy(&f, &x, 4);
    return f;
}
static void put(cupermDataType_t t, void* b, int64_t i, double v)
{
    switch (t) {
    case CUPERM_R_32F: ((float*)b)[i] = (float)v; break;
    case CUPERM_R_64F: ((double*)b)[i] = v; break;
    case CUPERM_C_32F: ((float*)b)[2 * i] = (float)v; ((float*)b)[2 * i + 1] = (float)(-v); break;
    case CUPERM_R_16F: ((uint16_t*)b)[i] = f2h((float)v); break;
    case CUPERM_R_8I: ((int8_t*)b)[i] = (int8_t)v; break;
    case CUPERM_R_64I: ((int64_t*)b)[i] = (int64_t)v; break;
    default: abort();
    }
}
static double get(cupermDataType_t t, const void* b, int64_t i, double* im)
{
    *im = 0;
    switch (t) {
    case CUPERM_R_32F: return ((const float*)b)[i];
    case CUPERM_R_64F: return ((const double*)b)[i];
    case CUPERM_C_32F: *im = ((const float*)b)[2 * i + 1]; return ((const float*)b)[2 * i];
    case CUPERM_R_16F: return h2f(((const uint16_t*)b)[i]);
    case CUPERM_R_8I: return ((const int8_t*)b)[i];
    case CUPERM_R_64I: return (double)((const int64_t*)b)[i];
    default: abort();
    }
}
/* alpha = 2, beta = -1 (or 0) in the type's scalar type */
static void scalar(cupermDataType_t t, double v, void* s)
{
    memset(s, 0, 16);
    switch (t) {
    case CUPERM_R_32F: case CUPERM_R_16F: case CUPERM_C_32F: { float f = (float)v; memcpy(s, &f, 4); break; }
    case CUPERM_R_64F: memcpy(s, &v, 8); break;
    case CUPERM_R_8I: { int8_t x = (int8_t)v; memcpy(s, &x, 1); break; }
    case CUPERM_R_64I: { int64_t x = (int64_t)v; memcpy(s, &x, 8); break; }
    default: abort();
    }
}
static const cupermDataType_t kTypes[] = {CUPERM_R_32F, CUPERM_R_64F, CUPERM_C_32F, CUPERM_R_16F, CUPERM_R_8I,
                                          CUPERM_R_64I};
static const char* type_name(cupermDataType_t t)
{
    switch (t) {
    case CUPERM_R_32F: return "f32";
    case CUPERM_R_64F: return "f64";
    case CUPERM_C_32F: return "c32";
    case CUPERM_R_16F: return "f16";
    case CUPERM_R_8I: return "i8";
    case CUPERM_R_64I: return "i64";
    default: return "?";
    }
}

/* ---- a distribution ------------------------------------------------------------ */
typedef struct {
    int64_t ext[6];
    int modes[6], grid[6];
    int64_t block[6];
    int use_blocks;
    cupermDistTensorDescriptor_t d;
} dist_t;

static void random_dist(int rank, const int64_t* ext, dist_t* o)
{
    memcpy(o->ext, ext, sizeof(int64_t) * (size_t)rank);
    int gr = (int)rr(1, rank < 2 ? 1 : 2), left = G;
    int used[6] = {0};
    for (int g = 0; g < gr; ++g) {
        int m;
        do m = (int)rr(0, rank - 1); while (used[m]);
        used[m] = 1;
        o->modes[g] = m;
        int f = left;
        if (g < gr - 1) {
            f = 1;
            for (int t = (int)rr(1, left); t >= 1; --t)
                if (left % t == 0) { f = t; break; }
        }
        o->grid[g] = f;
        left /= f;
        o->block[g] = (ext[m] + f - 1) / f + (rr(0, 3) == 0 ? rr(0, 2) : 0);
    }
    o->use_blocks = (int)rr(0, 1);
    o->d = (cupermDistTensorDescriptor_t){rank, o->ext, CUPERM_R_32F, gr, o->modes, o->grid,
                                          o->use_blocks ? o->block : NULL, NULL};
}

static void describe(const dist_t* d, char* s, size_t n)
{
    int k = snprintf(s, n, "Shard(");
    for (int g = 0; g < d->d.gridRank; ++g)
        k += snprintf(s + k, n - (size_t)k, "%s%d:%dx%lld", g ? "," : "", d->modes[g], d->grid[g],
                      (long long)(d->use_blocks ? d->block[g] : (d->ext[d->modes[g]] + d->grid[g] - 1) / d->grid[g]));
    snprintf(s + k, n - (size_t)k, ")");
}

/* ---- a correctness case ----------------------------------------------------------- */
typedef struct {
    int rank;
    int perm[6];
    cupermDataType_t type;
    dist_t in, out;
    int64_t in_strides[MAXG][6]; /* padded local input strides (pad != 0) */
    int pad;
    cupermDistOptions_t opt;
    double alpha, beta;
    /* per rank */
    int64_t le_in[MAXG][6], off_in[MAXG][6], le_out[MAXG][6], off_out[MAXG][6];
    void* h_in[MAXG];
    void* h_out[MAXG];
    size_t in_bytes[MAXG], out_bytes[MAXG];
    cupermStatus_t st[MAXG];
    char msg[MAXG][512];
    cupermDistPlanInfo_t info[MAXG];
} case_t;

static int64_t span(const int64_t* le, const int64_t* str, int rank)
{
    int64_t s = 1;
    for (int m = 0; m < rank; ++m) {
        if (!le[m]) return 0;
        s += (le[m] - 1) * str[m];
    }
    return s;
}

static void dense(const int64_t* le, int rank, int64_t* str, int pad)
{
    int64_t s = 1;
    for (int m = 0; m < rank; ++m) {
        str[m] = s;
        s *= (le[m] ? le[m] : 1) + (m == 0 ? pad : 0);
    }
}

static void run_case_rank(int r, void* arg)
{
    case_t* c = arg;
    rank_t* k = &R[r];
    const size_t es = cupermDataTypeSize(c->type);
    cupermDistTensorDescriptor_t din = c->in.d, dout = c->out.d;
    din.type = dout.type = c->type;
    if (c->pad) din.localStrides = c->in_strides[r];
    cupermDistPlan_t plan = NULL;
    c->st[r] = cupermDistPlanTranspose(k->handle, &plan, c->perm, &din, &dout, &c->opt, k->comm, k->stream);
    if (c->st[r]) {
        snprintf(c->msg[r], sizeof c->msg[r], "%s", cupermGetLastErrorMessage());
        return;
    }
    cupermDistPlanGetInfo(plan, &c->info[r]);
    void *din_d = NULL, *dout_d = NULL;
    CK(cudaMalloc(&din_d, c->in_bytes[r] + es));
    CK(cudaMalloc(&dout_d, c->out_bytes[r] + es));
    CK(cudaMemcpy(din_d, c->h_in[r], c->in_bytes[r], cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dout_d, c->h_out[r], c->out_bytes[r], cudaMemcpyHostToDevice));
    unsigned char a[16], b[16];
    scalar(c->type, c->alpha, a);
    scalar(c->type, c->beta, b);
    /* twice: plan once, execute many times (the second run starts from the first's output) */
    for (int it = 0; it < 2 && !c->st[r]; ++it) {
        if (it == 1) CK(cudaMemcpy(dout_d, c->h_out[r], c->out_bytes[r], cudaMemcpyHostToDevice));
        c->st[r] = cupermDistExecute(plan, a, din_d, b, dout_d, NULL, 0, k->stream);
        CK(cudaStreamSynchronize(k->stream));
    }
    if (c->st[r]) snprintf(c->msg[r], sizeof c->msg[r], "%s", cupermGetLastErrorMessage());
    CK(cudaMemcpy(c->h_out[r], dout_d, c->out_bytes[r], cudaMemcpyDeviceToHost));
    CK(cudaFree(din_d));
    CK(cudaFree(dout_d));
    cupermDistPlanDestroy(plan);
}

static int next_idx(int64_t* idx, const int64_t* ext, int rank)
{
    for (int m = 0; m < rank; ++m) {
        if (++idx[m] < ext[m]) return 1;
        idx[m] = 0;
    }
    return 0;
}

/* One random case: returns 0 if it passed. */
static int correctness_case(int id, int quick)
{
    case_t* c = calloc(1, sizeof *c);
    c->rank = (int)rr(2, 6);
    const int64_t target = quick ? 3000 : 40000;
    int64_t ext[6], vol = 1, ext_o[6];
    for (int m = 0; m < c->rank; ++m) ext[m] = 1;
    /* random extents up to ~target elements, often not divisible by the rank count */
    for (int guard = 0; guard < 100; ++guard) {
        const int m = (int)rr(0, c->rank - 1);
        if (vol / ext[m] * (ext[m] + 1) > target) break;
        vol = vol / ext[m] * (ext[m] + 1);
        ext[m]++;
    }
    for (int i = 0; i < c->rank; ++i) c->perm[i] = i;
    for (int i = c->rank - 1; i > 0; --i) {
        const int j = (int)rr(0, i), t = c->perm[i];
        c->perm[i] = c->perm[j];
        c->perm[j] = t;
    }
    for (int r = 0; r < c->rank; ++r) ext_o[r] = ext[c->perm[r]];
    c->type = kTypes[rr(0, (int)(sizeof kTypes / sizeof kTypes[0]) - 1)];
    random_dist(c->rank, ext, &c->in);
    random_dist(c->rank, ext_o, &c->out);
    c->alpha = 2;
    c->beta = rr(0, 4) ? -1 : 0;
    c->opt.variant = (cupermDistVariant_t)rr(0, 2);
    c->opt.chunks = rr(0, 1) ? 0 : (int)rr(1, 5);
    c->pad = (int)rr(0, 3) == 0;
    const size_t es = cupermDataTypeSize(c->type);
    /* host global tensors and the reference on GPU 0 */
    void* gin = malloc((size_t)vol * es);
    void* gout = malloc((size_t)vol * es);
    void* gref = malloc((size_t)vol * es);
    int64_t idx[6] = {0};
    for (int64_t i = 0; i < vol; ++i) {
        put(c->type, gin, i, (double)(i % 13) - 6);
        put(c->type, gout, i, (double)(i % 7) - 3);
    }
    {
        CK(cudaSetDevice(R[0].dev));
        cupermPlan_t p;
        if (cupermPlanTranspose(R[0].handle, &p, c->rank, ext, c->perm, c->type, NULL, NULL)) {
            printf("FAILED: reference plan: %s\n", cupermGetLastErrorMessage());
            return 1;
        }
        void *a_d, *b_d;
        CK(cudaMalloc(&a_d, (size_t)vol * es));
        CK(cudaMalloc(&b_d, (size_t)vol * es));
        CK(cudaMemcpy(a_d, gin, (size_t)vol * es, cudaMemcpyHostToDevice));
        CK(cudaMemcpy(b_d, gout, (size_t)vol * es, cudaMemcpyHostToDevice));
        unsigned char a[16], b[16];
        scalar(c->type, c->alpha, a);
        scalar(c->type, c->beta, b);
        if (cupermExecute(p, a, a_d, b, b_d, 0)) printf("FAILED: reference: %s\n", cupermGetLastErrorMessage());
        CK(cudaMemcpy(gref, b_d, (size_t)vol * es, cudaMemcpyDeviceToHost));
        cudaFree(a_d);
        cudaFree(b_d);
        cupermPlanDestroy(p);
    }
    /* scatter */
    for (int r = 0; r < G; ++r) {
        cupermDistGetLocalBlock(&c->in.d, r, G, c->le_in[r], c->off_in[r]);
        cupermDistGetLocalBlock(&c->out.d, r, G, c->le_out[r], c->off_out[r]);
        int64_t sin[6], sout[6];
        dense(c->le_in[r], c->rank, sin, c->pad ? 3 : 0);
        memcpy(c->in_strides[r], sin, sizeof sin);
        dense(c->le_out[r], c->rank, sout, 0);
        c->in_bytes[r] = (size_t)span(c->le_in[r], sin, c->rank) * es;
        c->out_bytes[r] = (size_t)span(c->le_out[r], sout, c->rank) * es;
        c->h_in[r] = calloc(1, c->in_bytes[r] + es);
        c->h_out[r] = calloc(1, c->out_bytes[r] + es);
        int64_t li[6] = {0};
        if (c->in_bytes[r]) do {
                int64_t g = 0, s = 1, o = 0;
                for (int m = 0; m < c->rank; ++m) {
                    g += (li[m] + c->off_in[r][m]) * s;
                    s *= ext[m];
                    o += li[m] * sin[m];
                }
                double im;
                put(c->type, c->h_in[r], o, get(c->type, gin, g, &im));
            } while (next_idx(li, c->le_in[r], c->rank));
        memset(li, 0, sizeof li);
        if (c->out_bytes[r]) do {
                int64_t g = 0, s = 1, o = 0;
                for (int m = 0; m < c->rank; ++m) {
                    g += (li[m] + c->off_out[r][m]) * s;
                    s *= ext_o[m];
                    o += li[m] * sout[m];
                }
                double im;
                put(c->type, c->h_out[r], o, get(c->type, gout, g, &im));
            } while (next_idx(li, c->le_out[r], c->rank));
    }
    on_all_ranks(run_case_rank, c);
    int bad = 0;
    char si[128], so[128];
    describe(&c->in, si, sizeof si);
    describe(&c->out, so, sizeof so);
    for (int r = 0; r < G && !bad; ++r) {
        if (c->st[r]) {
            printf("FAILED case %d rank %d: %s: %s\n", id, r, cupermGetErrorString(c->st[r]), c->msg[r]);
            bad = 1;
            break;
        }
        int64_t sout[6], li[6] = {0};
        dense(c->le_out[r], c->rank, sout, 0);
        if (!c->out_bytes[r]) continue;
        do {
            int64_t g = 0, s = 1, o = 0;
            for (int m = 0; m < c->rank; ++m) {
                g += (li[m] + c->off_out[r][m]) * s;
                s *= ext_o[m];
                o += li[m] * sout[m];
            }
            double im1, im2;
            const double want = get(c->type, gref, g, &im1), got = get(c->type, c->h_out[r], o, &im2);
            if (want != got || im1 != im2) {
                printf("FAILED case %d rank %d: out element %lld (global %lld): %g, want %g\n", id, r, (long long)o,
                       (long long)g, got, want);
                bad = 1;
                break;
            }
        } while (next_idx(li, c->le_out[r], c->rank));
    }
    printf("%s case %3d: %s rank %d extents", bad ? "FAIL" : "ok  ", id, type_name(c->type), c->rank);
    for (int m = 0; m < c->rank; ++m) printf("%s%lld", m ? "x" : " ", (long long)ext[m]);
    printf(" perm");
    for (int m = 0; m < c->rank; ++m) printf("%s%d", m ? "," : " ", c->perm[m]);
    printf(" %s -> %s%s beta %g variant %d chunks %d sent %zu B\n", si, so, c->pad ? " padded-in" : "", c->beta,
           (int)c->info[0].variant, c->info[0].chunks, c->info[0].bytesSent);
    for (int r = 0; r < G; ++r) {
        free(c->h_in[r]);
        free(c->h_out[r]);
    }
    free(gin);
    free(gout);
    free(gref);
    free(c);
    return bad;
}

/* ---- error agreement -------------------------------------------------------------- */
typedef struct {
    int kind, victim;
    cupermStatus_t st[MAXG];
    char msg[MAXG][512];
    int got_plan[MAXG];
} err_case_t;

static void err_rank(int r, void* arg)
{
    err_case_t* e = arg;
    int64_t ext[3] = {10, 7, 5}, ext_o[3] = {5, 10, 7};
    int perm[3] = {2, 0, 1};
    int mi[1] = {0}, mo[1] = {1}, gi[1] = {G}, go[1] = {G};
    int64_t bi[1] = {(10 + G - 1) / G}, bo[1] = {(10 + G - 1) / G};
    cupermDistTensorDescriptor_t in = {3, ext, CUPERM_R_64F, 1, mi, gi, bi, NULL};
    cupermDistTensorDescriptor_t out = {3, ext_o, CUPERM_R_64F, 1, mo, go, bo, NULL};
    if (r == e->victim) switch (e->kind) {
        case 0: ext[1] = 8; ext_o[2] = 8; break;  /* mismatched extents, valid by themselves */
        case 1: gi[0] = G + 1; break;             /* wrong grid size */
        case 2: bi[0] = 1; break;                 /* blocks too small to cover the extent */
        case 3: perm[1] = 2; break;               /* not a permutation */
        case 4: in.type = CUPERM_R_32F; out.type = CUPERM_R_32F; break; /* another dtype */
        }
    if (e->kind >= 5) { /* a contraction D[0,2] = A[0,1] B[1,2], each distributed along its mode 0 */
        int32_t ma[2] = {0, 1}, mb[2] = {1, 2}, md[2] = {0, 2};
        int64_t ea[2] = {10, 7}, eb[2] = {7, 5}, ed[2] = {10, 5};
        int zero[1] = {0}, grid[1] = {G};
        cupermDistTensorDescriptor_t da = {2, ea, CUPERM_R_32F, 1, zero, grid, NULL, NULL}, db = da, dd = da;
        db.extents = eb;
        dd.extents = ed;
        if (r == e->victim) switch (e->kind) {
            case 5: md[1] = 0; break;      /* a label twice in D */
            case 6: eb[0] = 8; break;      /* label 1: extent 7 in A, 8 in B */
            case 7: grid[0] = G + 1; break; /* wrong grid size */
            }
        cupermDistContractionPlan_t plan = NULL;
        e->st[r] = cupermDistPlanContraction(R[r].handle, &plan, &da, ma, &db, mb, &dd, md, CUPERM_COMPUTE_DEFAULT,
                                             R[r].comm, R[r].stream);
        snprintf(e->msg[r], sizeof e->msg[r], "%s", cupermGetLastErrorMessage());
        e->got_plan[r] = plan != NULL;
        if (plan) cupermDistContractionPlanDestroy(plan);
        return;
    }
    cupermDistPlan_t plan = NULL;
    e->st[r] = cupermDistPlanTranspose(R[r].handle, &plan, perm, &in, &out, NULL, R[r].comm, R[r].stream);
    snprintf(e->msg[r], sizeof e->msg[r], "%s", cupermGetLastErrorMessage());
    e->got_plan[r] = plan != NULL;
    if (plan) cupermDistPlanDestroy(plan);
}

static int error_cases(void)
{
    static const char* names[] = {"mismatched extents on one rank", "wrong grid size on one rank",
                                  "bad block size on one rank", "bad perm on one rank", "other dtype on one rank",
                                  "contraction: repeated label on one rank",
                                  "contraction: label extents differ on one rank",
                                  "contraction: wrong grid size on one rank"};
    int bad = 0;
    for (int kind = 0; kind < 8; ++kind)
        for (int victim = 0; victim < G; victim += G - 1) {
            err_case_t e;
            memset(&e, 0, sizeof e);
            e.kind = kind;
            e.victim = victim;
            alarm(60);
            on_all_ranks(err_rank, &e);
            alarm(0);
            int ok = 1;
            for (int r = 0; r < G; ++r)
                if (e.st[r] != CUPERM_STATUS_INVALID_VALUE || e.got_plan[r]) ok = 0;
            printf("%s error: %s (rank %d): every rank returned %s\n", ok ? "ok  " : "FAIL", names[kind], victim,
                   ok ? "CUPERM_STATUS_INVALID_VALUE" : "different statuses");
            for (int r = 0; r < G; ++r) printf("       rank %d: %s: %s\n", r, cupermGetErrorString(e.st[r]), e.msg[r]);
            bad |= !ok;
        }
    return bad;
}

/* ---- benchmark ------------------------------------------------------------------------ */
typedef struct {
    const char* name;
    cupermDataType_t type;
    int rank;
    int64_t ext[6];
    int perm[6];
    int in_mode, out_mode; /* Shard(in_mode) -> Shard(out_mode) (output mode numbering) */
    int chunks;            /* 0: the model's choice */
    int measure;           /* plan in measure mode */
    int iters;
    /* results */
    double t_dist[MAXG], t_a2a[MAXG];
    cupermDistPlanInfo_t info[MAXG];
    cupermStatus_t st[MAXG];
    char msg[MAXG][256];
} bench_t;

static void bench_rank(int r, void* arg)
{
    bench_t* b = arg;
    rank_t* k = &R[r];
    int mi[1] = {b->in_mode}, mo[1] = {b->out_mode}, gi[1] = {G}, go[1] = {G};
    int64_t ext_o[6];
    for (int i = 0; i < b->rank; ++i) ext_o[i] = b->ext[b->perm[i]];
    cupermDistTensorDescriptor_t in = {b->rank, b->ext, b->type, 1, mi, gi, NULL, NULL};
    cupermDistTensorDescriptor_t out = {b->rank, ext_o, b->type, 1, mo, go, NULL, NULL};
    cupermDistOptions_t opt = {0};
    opt.chunks = b->chunks;
    opt.measure = b->measure;
    cupermDistPlan_t plan;
    b->st[r] = cupermDistPlanTranspose(k->handle, &plan, b->perm, &in, &out, &opt, k->comm, k->stream);
    if (b->st[r]) {
        snprintf(b->msg[r], sizeof b->msg[r], "%s", cupermGetLastErrorMessage());
        return;
    }
    cupermDistPlanGetInfo(plan, &b->info[r]);
    const size_t es = cupermDataTypeSize(b->type);
    int64_t le[6], off[6], vin = 1, vout = 1;
    cupermDistGetLocalBlock(&in, r, G, le, off);
    for (int i = 0; i < b->rank; ++i) vin *= le[i];
    cupermDistGetLocalBlock(&out, r, G, le, off);
    for (int i = 0; i < b->rank; ++i) vout *= le[i];
    void *x, *y, *ws = NULL, *s2, *r2;
    size_t wsb = b->info[r].workspaceBytes;
    CK(cudaMalloc(&x, (size_t)vin * es + 256));
    CK(cudaMalloc(&y, (size_t)vout * es + 256));
    if (wsb) CK(cudaMalloc(&ws, wsb));
    CK(cudaMemset(x, 0, (size_t)vin * es));
    CK(cudaMemset(y, 0, (size_t)vout * es));
    /* the all-to-all of the same bytes: grouped ncclSend/ncclRecv of bytesSent / peers to every peer */
    const size_t per_peer = b->info[r].sendPeers ? b->info[r].bytesSent / (size_t)b->info[r].sendPeers : 0;
    CK(cudaMalloc(&s2, per_peer * (size_t)G + 256));
    CK(cudaMalloc(&r2, per_peer * (size_t)G + 256));
    unsigned char one[16], zero[16];
    scalar(b->type, 1, one);
    scalar(b->type, 0, zero);
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    for (int pass = 0; pass < 2; ++pass) {
        for (int it = -2; it < b->iters; ++it) { /* two warm-ups */
            if (it == 0) CK(cudaEventRecord(e0, k->stream));
            if (pass == 0) {
                cupermStatus_t st = cupermDistExecute(plan, one, x, zero, y, ws, wsb, k->stream);
                if (st) {
                    b->st[r] = st;
                    snprintf(b->msg[r], sizeof b->msg[r], "%s", cupermGetLastErrorMessage());
                }
            } else {
                ncclGroupStart();
                for (int p = 0; p < G; ++p) {
                    if (p == r || !per_peer) continue;
                    ncclSend((char*)s2 + per_peer * (size_t)p, per_peer, ncclInt8, p, k->comm, k->stream);
                    ncclRecv((char*)r2 + per_peer * (size_t)p, per_peer, ncclInt8, p, k->comm, k->stream);
                }
                ncclGroupEnd();
            }
        }
        CK(cudaEventRecord(e1, k->stream));
        CK(cudaEventSynchronize(e1));
        float ms;
        CK(cudaEventElapsedTime(&ms, e0, e1));
        (pass == 0 ? b->t_dist : b->t_a2a)[r] = ms / b->iters;
    }
    cudaFree(x);
    cudaFree(y);
    if (ws) cudaFree(ws);
    cudaFree(s2);
    cudaFree(r2);
    cudaEventDestroy(e0);
    cudaEventDestroy(e1);
    cupermDistPlanDestroy(plan);
}

static int bench(double gb, int iters)
{
    const double bytes_per_gpu = gb * 1e9;
    int bad = 0;
    printf("%-34s %-4s %-26s %9s %11s %4s %9s %9s %9s %6s\n", "case", "type", "global extents", "GB/GPU",
           "sent B/GPU", "v/k", "dist ms", "a2a ms", "model ms", "ratio");
    for (int ci = 0; ci < 10; ++ci) {
        bench_t* b = calloc(1, sizeof *b);
        b->type = CUPERM_R_32F;
        b->rank = 6;
        b->iters = iters;
        const int big = ci < 5;
        const double target = big ? bytes_per_gpu : (ci < 8 ? 1 << 20 : 64 << 10); /* bytes per GPU */
        int64_t base[6] = {16, 24, 32, 12, 16, 0};
        if (!big) { base[0] = 8; base[1] = 6; base[2] = 4; base[3] = 4; base[4] = 2; }
        int64_t other = 1;
        for (int i = 0; i < 5; ++i) other *= base[i];
        int64_t last = (int64_t)(target * G / 4.0 / (double)other);
        last = last / G * G;
        if (last < G) last = G;
        base[5] = last;
        memcpy(b->ext, base, sizeof base);
        static const int rev[6] = {5, 4, 3, 2, 1, 0}, swap01[6] = {1, 0, 2, 3, 4, 5}, mix[6] = {2, 0, 5, 1, 4, 3};
        switch (ci % 5) {
        case 0: b->name = "6-D reverse, Shard(5)->Shard(5), model"; memcpy(b->perm, rev, sizeof rev);
                b->in_mode = 5; b->out_mode = 5; break; /* out mode 5 = input mode 0 */
        case 1: b->name = "6-D reverse, Shard(5)->Shard(5), 1 chunk"; memcpy(b->perm, rev, sizeof rev);
                b->in_mode = 5; b->out_mode = 5; b->chunks = 1; break;
        case 2: b->name = "6-D reverse, Shard(5)->Shard(5), measure"; memcpy(b->perm, rev, sizeof rev);
                b->in_mode = 5; b->out_mode = 5; b->measure = 1; break;
        case 3: b->name = "6-D swap01, Shard(5)->Shard(1)"; memcpy(b->perm, swap01, sizeof swap01);
                b->in_mode = 5; b->out_mode = 1; break;
        case 4: b->name = "6-D mixed, Shard(5)->Shard(0)"; memcpy(b->perm, mix, sizeof mix);
                b->in_mode = 5; b->out_mode = 0; break;
        }
        if (!big) b->iters = iters * 20;
        if (!big && (ci % 5 == 1 || ci % 5 == 2)) { free(b); continue; }
        on_all_ranks(bench_rank, b);
        double td = 0, ta = 0, gpub = 0;
        for (int r = 0; r < G; ++r) {
            if (b->st[r]) {
                printf("FAILED bench %s rank %d: %s\n", b->name, r, b->msg[r]);
                bad = 1;
            }
            td = b->t_dist[r] > td ? b->t_dist[r] : td;
            ta = b->t_a2a[r] > ta ? b->t_a2a[r] : ta;
        }
        int64_t vol = 1;
        for (int i = 0; i < 6; ++i) vol *= b->ext[i];
        gpub = (double)vol * 4 / G / 1e9;
        char ex[64];
        snprintf(ex, sizeof ex, "%lldx%lldx%lldx%lldx%lldx%lld", (long long)b->ext[0], (long long)b->ext[1],
                 (long long)b->ext[2], (long long)b->ext[3], (long long)b->ext[4], (long long)b->ext[5]);
        printf("%-34s %-4s %-26s %9.4f %11zu %d/%-2d %9.4f %9.4f %9.4f %6.3f %s\n", b->name, type_name(b->type), ex,
               gpub, b->info[0].bytesSent, (int)b->info[0].variant, b->info[0].chunks, td, ta,
               b->info[0].predictedSeconds * 1e3, ta > 0 ? td / ta : 0, big ? "large" : "small");
        fflush(stdout);
        free(b);
    }
    return bad;
}

/* ---- distributed contractions -------------------------------------------------------- */
/* Global (dense column-major, extents ext) <-> a rank's local block (extents le at global
 * offsets off, strides str): to_local 1 copies global -> local, 0 local -> global. */
static void copy_block(cupermDataType_t t, void* global, const int64_t* ext, void* local, const int64_t* le,
                       const int64_t* off, const int64_t* str, int rank, int to_local)
{
    int64_t li[6] = {0};
    for (int m = 0; m < rank; ++m)
        if (!le[m]) return;
    do {
        int64_t g = 0, s = 1, o = 0;
        for (int m = 0; m < rank; ++m) {
            g += (li[m] + off[m]) * s;
            s *= ext[m];
            o += li[m] * str[m];
        }
        double im;
        if (to_local) put(t, local, o, get(t, global, g, &im));
        else put(t, global, g, get(t, local, o, &im));
    } while (next_idx(li, le, rank));
}

typedef struct {
    int rank[3];              /* A, B, D */
    int32_t modes[3][6];
    int64_t ext[3][6];
    dist_t dist[3];
    cupermDataType_t ab, cd;
    double beta;
    void* g[3];               /* global A, B and D (D: C's values in, the result out) */
    void* h[MAXG][3];         /* local blocks */
    int64_t le[MAXG][3][6], off[MAXG][3][6], str[MAXG][3][6];
    size_t bytes[MAXG][3];
    cupermStatus_t st[MAXG];
    char msg[MAXG][512];
    cupermDistContractionInfo_t info[MAXG];
} ctr_case_t;

static void run_ctr_rank(int r, void* arg)
{
    ctr_case_t* c = arg;
    rank_t* k = &R[r];
    cupermDistTensorDescriptor_t d[3];
    for (int t = 0; t < 3; ++t) {
        d[t] = c->dist[t].d;
        d[t].type = t < 2 ? c->ab : c->cd;
    }
    cupermDistContractionPlan_t plan = NULL;
    c->st[r] = cupermDistPlanContraction(k->handle, &plan, &d[0], c->modes[0], &d[1], c->modes[1], &d[2], c->modes[2],
                                         CUPERM_COMPUTE_DEFAULT, k->comm, k->stream);
    if (c->st[r]) {
        snprintf(c->msg[r], sizeof c->msg[r], "%s", cupermGetLastErrorMessage());
        return;
    }
    cupermDistContractionPlanGetInfo(plan, &c->info[r]);
    void* dev[3];
    for (int t = 0; t < 3; ++t) {
        CK(cudaMalloc(&dev[t], c->bytes[r][t] + 16));
        CK(cudaMemcpy(dev[t], c->h[r][t], c->bytes[r][t], cudaMemcpyHostToDevice));
    }
    unsigned char a[16], b[16];
    scalar(c->cd, 2.0, a);
    scalar(c->cd, c->beta, b);
    for (int it = 0; it < 2 && !c->st[r]; ++it) { /* plan once, run twice: D is C again each time */
        if (it) CK(cudaMemcpy(dev[2], c->h[r][2], c->bytes[r][2], cudaMemcpyHostToDevice));
        c->st[r] = cupermDistContract(plan, a, dev[0], dev[1], b, dev[2], dev[2], NULL, 0, k->stream);
        CK(cudaStreamSynchronize(k->stream));
    }
    if (c->st[r]) snprintf(c->msg[r], sizeof c->msg[r], "%s", cupermGetLastErrorMessage());
    CK(cudaMemcpy(c->h[r][2], dev[2], c->bytes[r][2], cudaMemcpyDeviceToHost));
    for (int t = 0; t < 3; ++t) CK(cudaFree(dev[t]));
    cupermDistContractionPlanDestroy(plan);
}

/* One random distributed contraction against a host reference (small integers: exact). */
static int contraction_case(int id)
{
    ctr_case_t* c = calloc(1, sizeof *c);
    /* labels: 0.. free in A (M), then free in B (N), then summed (K), then batch (L) */
    const int nm = (int)rr(1, 2), nn = (int)rr(1, 2), nk = (int)rr(1, 2), nl = (int)rr(0, 1), nlab = nm + nn + nk + nl;
    int64_t lext[8];
    int64_t space = 1;
    for (int i = 0; i < nlab; ++i) {
        lext[i] = rr(1, i < nm + nn ? 23 : 9);
        if (space * lext[i] > 200000) lext[i] = 1;
        space *= lext[i];
    }
    int has[3][8] = {{0}};
    for (int i = 0; i < nlab; ++i) {
        const int kind = i < nm ? 0 : i < nm + nn ? 1 : i < nm + nn + nk ? 2 : 3;
        has[0][i] = kind == 0 || kind >= 2;
        has[1][i] = kind >= 1;
        has[2][i] = kind <= 1 || kind == 3;
    }
    int64_t vol[3];
    for (int t = 0; t < 3; ++t) {
        c->rank[t] = 0;
        for (int i = 0; i < nlab; ++i)
            if (has[t][i]) c->modes[t][c->rank[t]++] = i;
        for (int i = c->rank[t] - 1; i > 0; --i) { /* shuffle the mode order */
            const int j = (int)rr(0, i);
            const int32_t x = c->modes[t][i];
            c->modes[t][i] = c->modes[t][j];
            c->modes[t][j] = x;
        }
        vol[t] = 1;
        for (int m = 0; m < c->rank[t]; ++m) vol[t] *= c->ext[t][m] = lext[c->modes[t][m]];
        random_dist(c->rank[t], c->ext[t], &c->dist[t]);
    }
    static const cupermDataType_t ab[] = {CUPERM_R_32F, CUPERM_R_64F, CUPERM_R_16F};
    static const cupermDataType_t cd[] = {CUPERM_R_32F, CUPERM_R_64F, CUPERM_R_32F};
    const int ti = (int)rr(0, 2);
    c->ab = ab[ti];
    c->cd = cd[ti];
    c->beta = rr(0, 3) ? -1 : 0;
    for (int t = 0; t < 3; ++t) {
        const cupermDataType_t ty = t < 2 ? c->ab : c->cd;
        c->g[t] = malloc((size_t)vol[t] * cupermDataTypeSize(ty));
        for (int64_t i = 0; i < vol[t]; ++i) put(ty, c->g[t], i, (double)((i * (3 + t)) % (11 + 2 * t)) - 5);
    }
    /* the reference: over every label assignment, D += A * B; then D = 2 * D + beta * C */
    double* ref = calloc((size_t)vol[2], sizeof(double));
    int64_t idx[8] = {0};
    do {
        int64_t o[3] = {0, 0, 0};
        for (int t = 0; t < 3; ++t) {
            int64_t s = 1;
            for (int m = 0; m < c->rank[t]; ++m) {
                o[t] += idx[c->modes[t][m]] * s;
                s *= c->ext[t][m];
            }
        }
        double im;
        ref[o[2]] += get(c->ab, c->g[0], o[0], &im) * get(c->ab, c->g[1], o[1], &im);
    } while (next_idx(idx, lext, nlab));
    for (int64_t i = 0; i < vol[2]; ++i) {
        double im;
        ref[i] = 2 * ref[i] + c->beta * get(c->cd, c->g[2], i, &im);
    }
    for (int r = 0; r < G; ++r)
        for (int t = 0; t < 3; ++t) {
            const cupermDataType_t ty = t < 2 ? c->ab : c->cd;
            cupermDistGetLocalBlock(&c->dist[t].d, r, G, c->le[r][t], c->off[r][t]);
            dense(c->le[r][t], c->rank[t], c->str[r][t], 0);
            c->bytes[r][t] = (size_t)span(c->le[r][t], c->str[r][t], c->rank[t]) * cupermDataTypeSize(ty);
            c->h[r][t] = calloc(1, c->bytes[r][t] + 16);
            copy_block(ty, c->g[t], c->ext[t], c->h[r][t], c->le[r][t], c->off[r][t], c->str[r][t], c->rank[t], 1);
        }
    on_all_ranks(run_ctr_rank, c);
    int bad = 0;
    for (int r = 0; r < G && !bad; ++r) {
        if (c->st[r]) {
            printf("FAILED contraction %d rank %d: %s: %s\n", id, r, cupermGetErrorString(c->st[r]), c->msg[r]);
            bad = 1;
            break;
        }
        copy_block(c->cd, c->g[2], c->ext[2], c->h[r][2], c->le[r][2], c->off[r][2], c->str[r][2], c->rank[2], 0);
    }
    for (int64_t i = 0; i < vol[2] && !bad; ++i) {
        double im;
        const double got = get(c->cd, c->g[2], i, &im);
        if (got != ref[i]) {
            printf("FAILED contraction %d: D element %lld (global, column-major) = %g, want %g\n", id, (long long)i,
                   got, ref[i]);
            bad = 1;
        }
    }
    char sd[3][128];
    for (int t = 0; t < 3; ++t) describe(&c->dist[t], sd[t], sizeof sd[t]);
    printf("%s contraction %3d: %s->%s labels", bad ? "FAIL" : "ok  ", id, type_name(c->ab), type_name(c->cd));
    for (int t = 0; t < 3; ++t) {
        printf(" %s[", t == 0 ? "A" : t == 1 ? "B" : "D");
        for (int m = 0; m < c->rank[t]; ++m) printf("%s%d:%lld", m ? "," : "", c->modes[t][m], (long long)c->ext[t][m]);
        printf("] %s", sd[t]);
    }
    printf(" beta %g in-place A/B %d/%d received A/B %zu/%zu B (rank 0)\n", c->beta, c->info[0].inPlaceA,
           c->info[0].inPlaceB, c->info[0].bytesReceivedA, c->info[0].bytesReceivedB);
    for (int t = 0; t < 3; ++t) {
        free(c->g[t]);
        for (int r = 0; r < G; ++r) free(c->h[r][t]);
    }
    free(ref);
    free(c);
    return bad;
}

/* ---- distributed contraction benchmark: parallel efficiency against one GPU ---------- */
/* D[a,b,c,d] = A[a,e,b,f] B[e,c,f,d] (f32, m = a*b, n = c*d, k = e*f), D distributed along
 * one mode over every GPU, A and B along the modes named below. Efficiency = T1 / (G * TG),
 * T1 the same contraction (model plan) on GPU 0 alone, TG the slowest rank's time per
 * distributed execute (CUDA events, median of iters after warm-up). */
typedef struct {
    const char* name;
    int32_t modes[3][4];
    int64_t ext[3][4];
    int dist_mode[3];
    int iters;
    double ms[MAXG];
    cupermStatus_t st[MAXG];
    char msg[MAXG][256];
    cupermDistContractionInfo_t info[MAXG];
} ctr_bench_t;

static int cmp_double(const void* a, const void* b)
{
    const double x = *(const double*)a, y = *(const double*)b;
    return x < y ? -1 : x > y;
}

/* Device memory of n floats holding small pseudo-random values (never zeros). */
static float* random_floats(int64_t n, uint64_t seed)
{
    float* h = malloc((size_t)n * sizeof(float));
    for (int64_t i = 0; i < n; ++i) h[i] = (float)(((uint64_t)i * 2654435761u + seed) % 1000) / 1000.0f + 0.25f;
    float* d = NULL;
    CK(cudaMalloc((void**)&d, (size_t)n * sizeof(float)));
    CK(cudaMemcpy(d, h, (size_t)n * sizeof(float), cudaMemcpyHostToDevice));
    free(h);
    return d;
}

static double time_loop(cudaStream_t s, int iters, int (*run)(void*), void* arg)
{
    double t[64];
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    for (int w = 0; w < 2; ++w)
        if (run(arg)) return -1;
    for (int i = 0; i < iters; ++i) {
        CK(cudaEventRecord(e0, s));
        if (run(arg)) return -1;
        CK(cudaEventRecord(e1, s));
        CK(cudaEventSynchronize(e1));
        float ms;
        CK(cudaEventElapsedTime(&ms, e0, e1));
        t[i] = ms;
    }
    cudaEventDestroy(e0);
    cudaEventDestroy(e1);
    qsort(t, (size_t)iters, sizeof t[0], cmp_double);
    return t[iters / 2];
}

typedef struct {
    cupermDistContractionPlan_t dplan;
    cupermContractionPlan_t plan;
    float *a, *b, *d;
    cudaStream_t s;
} ctr_run_t;
static int run_dist(void* p)
{
    ctr_run_t* x = p;
    const float one = 1, zero = 0;
    return cupermDistContract(x->dplan, &one, x->a, x->b, &zero, NULL, x->d, NULL, 0, x->s) != CUPERM_STATUS_SUCCESS;
}
static int run_local(void* p)
{
    ctr_run_t* x = p;
    const float one = 1, zero = 0;
    return cupermContract(x->plan, &one, x->a, x->b, &zero, NULL, x->d, NULL, 0, x->s) != CUPERM_STATUS_SUCCESS;
}

static void ctr_bench_rank(int r, void* arg)
{
    ctr_bench_t* c = arg;
    cupermDistTensorDescriptor_t d[3];
    int gdim = G;
    for (int t = 0; t < 3; ++t)
        d[t] = (cupermDistTensorDescriptor_t){4, c->ext[t], CUPERM_R_32F, 1, &c->dist_mode[t], &gdim, NULL, NULL};
    ctr_run_t x = {0};
    x.s = R[r].stream;
    c->st[r] = cupermDistPlanContraction(R[r].handle, &x.dplan, &d[0], c->modes[0], &d[1], c->modes[1], &d[2],
                                         c->modes[2], CUPERM_COMPUTE_DEFAULT, R[r].comm, x.s);
    if (c->st[r]) {
        snprintf(c->msg[r], sizeof c->msg[r], "%s", cupermGetLastErrorMessage());
        return;
    }
    cupermDistContractionPlanGetInfo(x.dplan, &c->info[r]);
    float** ptr[3] = {&x.a, &x.b, &x.d};
    for (int t = 0; t < 3; ++t) {
        int64_t le[4], vol = 1;
        cupermDistGetLocalBlock(&d[t], r, G, le, NULL);
        for (int m = 0; m < 4; ++m) vol *= le[m];
        *ptr[t] = random_floats(vol, (uint64_t)(t * 7 + r));
    }
    c->ms[r] = time_loop(x.s, c->iters, run_dist, &x);
    if (c->ms[r] < 0) {
        c->st[r] = CUPERM_STATUS_CUDA_ERROR;
        snprintf(c->msg[r], sizeof c->msg[r], "%s", cupermGetLastErrorMessage());
    }
    for (int t = 0; t < 3; ++t) cudaFree(*ptr[t]);
    cupermDistContractionPlanDestroy(x.dplan);
}

static int ctr_bench(int iters)
{
    static const ctr_bench_t cases[] = {
        {"D Shard(a), A Shard(a), B Shard(e)", {{0, 4, 1, 5}, {4, 2, 5, 3}, {0, 1, 2, 3}},
         {{96, 64, 96, 64}, {64, 96, 64, 96}, {96, 96, 96, 96}}, {0, 0, 0}, 0, {0}, {0}, {{0}}, {{0}}},
        {"D Shard(c), A Shard(b), B Shard(c)", {{0, 4, 1, 5}, {4, 2, 5, 3}, {0, 1, 2, 3}},
         {{96, 64, 96, 64}, {64, 96, 64, 96}, {96, 96, 96, 96}}, {2, 1, 2}, 0, {0}, {0}, {{0}}, {{0}}},
        {"D Shard(d), A Shard(e), B Shard(e)", {{0, 4, 1, 5}, {4, 2, 5, 3}, {0, 1, 2, 3}},
         {{96, 64, 96, 64}, {64, 96, 64, 96}, {96, 96, 96, 96}}, {3, 1, 0}, 0, {0}, {0}, {{0}}, {{0}}},
    };
    int bad = 0;
    printf("%-38s %10s %10s %10s %8s %s\n", "distributed contraction (f32)", "1 GPU ms", "dist ms", "GFLOP", "eff.",
           "received A/B MB (rank 0)");
    for (size_t ci = 0; ci < sizeof cases / sizeof cases[0]; ++ci) {
        ctr_bench_t* c = malloc(sizeof *c);
        *c = cases[ci];
        c->iters = iters < 64 ? iters : 64;
        /* one GPU: the whole contraction on GPU 0 */
        CK(cudaSetDevice(R[0].dev));
        cupermTensorDescriptor_t td[3];
        for (int t = 0; t < 3; ++t)
            td[t] = (cupermTensorDescriptor_t){4, c->modes[t], c->ext[t], NULL, CUPERM_R_32F, CUPERM_OP_IDENTITY, 0};
        ctr_run_t x = {0};
        x.s = R[0].stream;
        double t1 = -1;
        if (!cupermPlanContraction(R[0].handle, &x.plan, &td[0], &td[1], &td[2], &td[2], CUPERM_COMPUTE_DEFAULT,
                                   CUPERM_PLAN_MODEL)) {
            int64_t vol[3] = {1, 1, 1};
            for (int t = 0; t < 3; ++t)
                for (int m = 0; m < 4; ++m) vol[t] *= c->ext[t][m];
            x.a = random_floats(vol[0], 1);
            x.b = random_floats(vol[1], 2);
            x.d = random_floats(vol[2], 3);
            t1 = time_loop(x.s, c->iters, run_local, &x);
            cudaFree(x.a);
            cudaFree(x.b);
            cudaFree(x.d);
            cupermContractionPlanDestroy(x.plan);
        }
        on_all_ranks(ctr_bench_rank, c);
        double tg = 0;
        for (int r = 0; r < G; ++r) {
            if (c->st[r]) {
                printf("FAILED %s rank %d: %s\n", c->name, r, c->msg[r]);
                bad = 1;
            }
            if (c->ms[r] > tg) tg = c->ms[r];
        }
        const double flops = 2.0 * 96 * 96 * 96 * 96 * 64 * 64;
        printf("%-38s %10.3f %10.3f %10.1f %8.3f %.1f/%.1f\n", c->name, t1, tg, flops * 1e-9,
               t1 > 0 && tg > 0 ? t1 / (G * tg) : 0.0, c->info[0].bytesReceivedA / 1e6, c->info[0].bytesReceivedB / 1e6);
        free(c);
    }
    return bad;
}

/* ---- main ---------------------------------------------------------------------------- */
static void init_rank(int r, void* arg)
{
    (void)arg;
    CK(cudaStreamCreateWithFlags(&R[r].stream, cudaStreamNonBlocking));
    if (cupermCreate(&R[r].handle)) {
        printf("FAILED: cupermCreate on GPU %d: %s\n", r, cupermGetLastErrorMessage());
        exit(1);
    }
}

int main(int argc, char** argv)
{
    setenv("NCCL_NVLS_ENABLE", "0", 1); /* never NVLink multicast */
    int quick = 0, do_bench = 0, cases = 60, iters = 10, ctr_cases = 40;
    double gb = 1.0;
    for (int i = 1; i < argc; ++i) {
        if (!strcmp(argv[i], "--quick")) quick = 1;
        else if (!strcmp(argv[i], "--bench")) do_bench = 1;
        else if (!strcmp(argv[i], "--gb") && i + 1 < argc) gb = atof(argv[++i]);
        else if (!strcmp(argv[i], "--iters") && i + 1 < argc) iters = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--cases") && i + 1 < argc) cases = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--contractions") && i + 1 < argc) ctr_cases = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--seed") && i + 1 < argc) rng_state = strtoull(argv[++i], NULL, 10);
        else {
            fprintf(stderr, "usage: %s [--quick] [--cases N] [--contractions N] [--seed S] | --bench [--gb G] [--iters N]\n", argv[0]);
            return 2;
        }
    }
    if (quick) cases = cases < 20 ? cases : 20;
    int n = 0;
    cudaError_t e = cudaGetDeviceCount(&n);
    if (e != cudaSuccess || n < 2) {
        printf("SKIPPED: cuperm-dist-test needs at least 2 CUDA GPUs (%s)\n",
               e != cudaSuccess ? cudaGetErrorString(e) : n == 1 ? "1 device" : "no devices");
        return 77;
    }
    G = n < MAXG ? n : MAXG;
    signal(SIGALRM, watchdog);
    alarm(120);
    int devs[MAXG];
    ncclComm_t comms[MAXG];
    for (int r = 0; r < G; ++r) devs[r] = R[r].dev = r;
    ncclResult_t nr = ncclCommInitAll(comms, G, devs);
    if (nr != ncclSuccess) {
        printf("FAILED: ncclCommInitAll: %s\n", ncclGetErrorString(nr));
        return 1;
    }
    for (int r = 0; r < G; ++r) R[r].comm = comms[r];
    on_all_ranks(init_rank, NULL);
    alarm(0);
    printf("cuperm-dist-test: %d GPUs, NCCL %d, NCCL_NVLS_ENABLE=%s\n", G, NCCL_VERSION_CODE, getenv("NCCL_NVLS_ENABLE"));
    int bad = 0;
    if (do_bench) {
        alarm(540);
        bad = gb > 0 ? bench(gb, iters) : 0;
        bad |= ctr_bench(iters);
    } else {
        bad |= error_cases();
        int failed = 0;
        for (int i = 0; i < cases; ++i) {
            alarm(60);
            failed += correctness_case(i, quick);
        }
        int ctr_failed = 0;
        if (quick) ctr_cases = ctr_cases < 10 ? ctr_cases : 10;
        for (int i = 0; i < ctr_cases; ++i) {
            alarm(60);
            ctr_failed += contraction_case(i);
        }
        printf("dist: %d of %d random distributed contractions correct\n", ctr_cases - ctr_failed, ctr_cases);
        bad |= ctr_failed != 0;
        alarm(60);
        bad |= error_cases(); /* the communicators still work after everything */
        alarm(0);
        printf("dist: %d of %d random redistributions correct; error agreement %s\n", cases - failed, cases,
               bad ? "FAILED" : "ok");
        bad |= failed != 0;
    }
    for (int r = 0; r < G; ++r) {
        cudaSetDevice(R[r].dev);
        cupermDestroy(R[r].handle);
        ncclCommDestroy(R[r].comm);
    }
    printf("%s\n", bad ? "FAILED" : "PASSED");
    return bad ? 1 : 0;
}
