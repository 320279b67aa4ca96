/* cuperm-dist-test's harness (harness.h). */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"

int dt_G;
rank_t dt_R[MAXG];

/* ---- one host thread per GPU ------------------------------------------------ */
typedef struct { rank_fn fn; void* arg; int r; } job_t;
static void* job_main(void* p)
{
    job_t* j = p;
    CK(cudaSetDevice(dt_R[j->r].dev));
    j->fn(j->r, j->arg);
    return NULL;
}
void dt_on_all_ranks(rank_fn fn, void* arg)
{
    pthread_t t[MAXG];
    job_t j[MAXG];
    for (int r = 0; r < dt_G; ++r) {
        j[r] = (job_t){fn, arg, r};
        pthread_create(&t[r], NULL, job_main, &j[r]);
    }
    for (int r = 0; r < dt_G; ++r) pthread_join(t[r], NULL);
}

void dt_watchdog(int sig)
{
    (void)sig;
    static const char m[] = "FAILED: watchdog: a collective call hung (ranks disagreed?)\n";
    if (write(2, m, sizeof m - 1) < 0) _exit(124);
    _exit(124);
}

void dt_alarm(unsigned seconds)
{
    const char* s = getenv("DT_WATCHDOG_SCALE");
    const unsigned k = s && atoi(s) > 0 ? (unsigned)atoi(s) : 1;
    alarm(seconds * k);
}

void dt_trace(int r, const char* what, long long it)
{
    if (getenv("DT_TRACE")) fprintf(stderr, "  %10.3f s rank %d: %s %lld\n", dt_now(), r, what, it);
}

uint64_t dt_rng_state = 1;
uint64_t dt_rnd(void)
{
    uint64_t z = (dt_rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
int64_t dt_rr(int64_t lo, int64_t hi) { return lo + (int64_t)(dt_rnd() % (uint64_t)(hi - lo + 1)); }

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
void dt_put(cupermDataType_t t, void* b, int64_t i, double v)
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
double dt_get(cupermDataType_t t, const void* b, int64_t i, double* im)
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
void dt_scalar(cupermDataType_t t, double v, void* s)
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
const char* dt_type_name(cupermDataType_t t)
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
void dt_random_dist(int rank, const int64_t* ext, dist_t* o)
{
    memcpy(o->ext, ext, sizeof(int64_t) * (size_t)rank);
    int gr = (int)dt_rr(1, rank < 2 ? 1 : 2), left = dt_G;
    int used[6] = {0};
    for (int g = 0; g < gr; ++g) {
        int m;
        do m = (int)dt_rr(0, rank - 1); while (used[m]);
        used[m] = 1;
        o->modes[g] = m;
        int f = left;
        if (g < gr - 1) {
            f = 1;
            for (int t = (int)dt_rr(1, left); t >= 1; --t)
                if (left % t == 0) { f = t; break; }
        }
        o->grid[g] = f;
        left /= f;
        o->block[g] = (ext[m] + f - 1) / f + (dt_rr(0, 3) == 0 ? dt_rr(0, 2) : 0);
    }
    o->use_blocks = (int)dt_rr(0, 1);
    o->d = (cupermDistTensorDescriptor_t){rank, o->ext, CUPERM_R_32F, gr, o->modes, o->grid,
                                          o->use_blocks ? o->block : NULL, NULL};
}

void dt_describe(const dist_t* d, char* s, size_t n)
{
    int k = snprintf(s, n, "Shard(");
    for (int g = 0; g < d->d.gridRank; ++g)
        k += snprintf(s + k, n - (size_t)k, "%s%d:%dx%lld", g ? "," : "", d->modes[g], d->grid[g],
                      (long long)(d->use_blocks ? d->block[g] : (d->ext[d->modes[g]] + d->grid[g] - 1) / d->grid[g]));
    snprintf(s + k, n - (size_t)k, ")");
}

/* ---- local blocks ------------------------------------------------------------------ */
int64_t dt_span(const int64_t* le, const int64_t* str, int rank)
{
    int64_t s = 1;
    for (int m = 0; m < rank; ++m) {
        if (!le[m]) return 0;
        s += (le[m] - 1) * str[m];
    }
    return s;
}

void dt_upload(void* d, const void* h, size_t n)
{
    CK(cudaMemcpy(d, h, n, cudaMemcpyHostToDevice));
    CK(cudaDeviceSynchronize());
}

void dt_dense(const int64_t* le, int rank, int64_t* str, int pad)
{
    int64_t s = 1;
    for (int m = 0; m < rank; ++m) {
        str[m] = s;
        s *= (le[m] ? le[m] : 1) + (m == 0 ? pad : 0);
    }
}

int dt_next_idx(int64_t* idx, const int64_t* ext, int rank)
{
    for (int m = 0; m < rank; ++m) {
        if (++idx[m] < ext[m]) return 1;
        idx[m] = 0;
    }
    return 0;
}

/* Global (dense column-major, extents ext) <-> a rank's local block (extents le at global
 * offsets off, strides str): to_local 1 copies global -> local, 0 local -> global. */
void dt_copy_block(cupermDataType_t t, void* global, const int64_t* ext, void* local, const int64_t* le,
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
        if (to_local) dt_put(t, local, o, dt_get(t, global, g, &im));
        else dt_put(t, global, g, dt_get(t, local, o, &im));
    } while (dt_next_idx(li, le, rank));
}

double dt_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}
