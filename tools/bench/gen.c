#include "gen.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void bench_gen_params_defaults(bench_gen_params* p)
{
    if (p->num_ranks == 0)
        for (int r = 2; r <= 12; ++r) p->ranks[p->num_ranks++] = r;
    if (p->num_ratios == 0) {
        p->ratios[0] = 1;
        p->ratios[1] = 5;
        p->ratios[2] = 15;
        p->num_ratios = 3;
    }
    if (p->count == 0) p->count = 2;
    if (p->volume == 0) p->volume = 200000000;
    if (p->seed == 0) p->seed = 1;
}

/* ---- all permutations --------------------------------------------------- */

/* Steps perm to its lexicographic successor; returns 0 after the last one. */
static int next_permutation(int* perm, int n)
{
    int i = n - 2;
    while (i >= 0 && perm[i] > perm[i + 1]) --i;
    if (i < 0) return 0;
    int j = n - 1;
    while (perm[j] < perm[i]) --j;
    int t = perm[i]; perm[i] = perm[j]; perm[j] = t;
    for (int a = i + 1, b = n - 1; a < b; ++a, --b) {
        t = perm[a]; perm[a] = perm[b]; perm[b] = t;
    }
    return 1;
}

int bench_gen_all_perms(int rank, int64_t extent, bench_case_list* out)
{
    if (rank < 1 || rank > 10 || extent < 1) return -1; /* 10! cases is already too many */
    bench_case c = {.rank = rank};
    for (int i = 0; i < rank; ++i) {
        c.extents[i] = extent;
        c.perm[i] = i;
    }
    do {
        if (bench_case_list_push(out, &c) != 0) return -1;
    } while (next_permutation(c.perm, rank));
    return 0;
}

/* ---- random extents ------------------------------------------------------ */

static double log_volume(const int64_t* e, int n)
{
    double s = 0;
    for (int i = 0; i < n; ++i) s += log((double)e[i]);
    return s;
}

/* Middle extents in [lo, hi] spread by log-positions u, then nudged one unit at a
 * time towards the target log-volume while that brings the product closer. */
static void fit_middle(int64_t* mid, const double* u, int n, int64_t lo, int64_t hi,
                       double log_target)
{
    double umax = 0, usum = 0;
    for (int i = 0; i < n; ++i) {
        usum += u[i];
        if (u[i] > umax) umax = u[i];
    }
    double span = log((double)hi / (double)lo);
    double s = 0;
    if (span > 0 && usum > 0) {
        s = (log_target - n * log((double)lo)) / (usum * span);
        if (s < 0) s = 0;
        if (s > 1 / umax) s = 1 / umax;
    }
    for (int i = 0; i < n; ++i) {
        mid[i] = llround((double)lo * exp(s * u[i] * span));
        if (mid[i] < lo) mid[i] = lo;
        if (mid[i] > hi) mid[i] = hi;
    }
    for (int guard = 0; guard < 100000; ++guard) {
        double now = log_volume(mid, n), best = fabs(now - log_target);
        int best_i = -1, best_d = 0;
        for (int i = 0; i < n; ++i)
            for (int d = -1; d <= 1; d += 2) {
                int64_t v = mid[i] + d;
                if (v < lo || v > hi) continue;
                double err = fabs(now - log((double)mid[i]) + log((double)v) - log_target);
                if (err < best - 1e-12) { best = err; best_i = i; best_d = d; }
            }
        if (best_i < 0) break;
        mid[best_i] += best_d;
    }
}

/* Extents for a given smallest extent lo; returns |log(volume / target)|. */
static double extents_for_min(int64_t lo, int rank, double ratio, double log_target,
                              const double* u, int64_t* ext)
{
    int64_t hi = llround((double)lo * ratio);
    ext[0] = lo;
    ext[1] = hi;
    fit_middle(ext + 2, u, rank - 2, lo, hi, log_target - log((double)lo) - log((double)hi));
    return fabs(log_volume(ext, rank) - log_target);
}

int bench_gen_random_extents(rng_t* rng, int rank, int64_t volume, double ratio,
                             int64_t* extents)
{
    if (rank < 2 || rank > BENCH_MAX_RANK || volume < 2 || !(ratio >= 1) || ratio > 1e6)
        return -1;
    double u[BENCH_MAX_RANK], usum = 0;
    for (int i = 0; i < rank - 2; ++i) usum += (u[i] = rng_uniform(rng));
    double log_target = log((double)volume);

    /* The continuous solution for the smallest extent, then the better of its
     * two integer neighbours (at least 2, so that no dimension vanishes). */
    double lo_real = exp((log_target - (1 + usum) * log(ratio)) / rank);
    int64_t cand[2] = {(int64_t)floor(lo_real), (int64_t)ceil(lo_real)};
    int64_t best[BENCH_MAX_RANK], trial[BENCH_MAX_RANK];
    double best_err = INFINITY;
    for (int k = 0; k < 2; ++k) {
        int64_t lo = cand[k] < 2 ? 2 : cand[k];
        double err = extents_for_min(lo, rank, ratio, log_target, u, trial);
        if (err < best_err) {
            best_err = err;
            memcpy(best, trial, sizeof(int64_t) * rank);
        }
    }
    /* Shuffle so the smallest and largest land anywhere. */
    for (int i = rank - 1; i > 0; --i) {
        int j = (int)rng_range(rng, 0, i);
        int64_t t = best[i]; best[i] = best[j]; best[j] = t;
    }
    memcpy(extents, best, sizeof(int64_t) * rank);
    return 0;
}

void bench_gen_random_perm(rng_t* rng, int rank, int* perm)
{
    for (;;) {
        for (int i = 0; i < rank; ++i) perm[i] = i;
        for (int i = rank - 1; i > 0; --i) {
            int j = (int)rng_range(rng, 0, i);
            int t = perm[i]; perm[i] = perm[j]; perm[j] = t;
        }
        int identity = 1;
        for (int i = 0; i < rank; ++i) identity &= perm[i] == i;
        if (!identity || rank < 2) return;
    }
}

static int same_case(const bench_case* a, const bench_case* b)
{
    if (a->rank != b->rank) return 0;
    for (int i = 0; i < a->rank; ++i)
        if (a->extents[i] != b->extents[i] || a->perm[i] != b->perm[i]) return 0;
    return 1;
}

static int contains(const bench_case_list* list, size_t from, const bench_case* c)
{
    for (size_t i = from; i < list->count; ++i)
        if (same_case(&list->items[i], c)) return 1;
    return 0;
}

int bench_gen_random_suite(const bench_gen_params* p, bench_case_list* out, char* err,
                           size_t err_size)
{
    /* Distinct cases per (rank, ratio); small ranks may have fewer than count
     * (rank 2 at ratio 1 has exactly one), so give up on a group after some redraws. */
    enum { max_redraws = 32 };
    rng_t rng = {p->seed};
    for (int ri = 0; ri < p->num_ranks; ++ri)
        for (int xi = 0; xi < p->num_ratios; ++xi) {
            size_t group = out->count;
            for (int k = 0, redraws = 0; k < p->count && redraws < max_redraws;) {
                bench_case c = {.rank = p->ranks[ri]};
                if (bench_gen_random_extents(&rng, c.rank, p->volume, p->ratios[xi], c.extents))
                    return bench_fail(err, err_size,
                                "random: cannot make rank %d, volume %lld, ratio %g (rank must be "
                                "2..%d, volume >= 2, ratio >= 1)",
                                c.rank, (long long)p->volume, p->ratios[xi], BENCH_MAX_RANK);
                bench_gen_random_perm(&rng, c.rank, c.perm);
                if (contains(out, group, &c)) { ++redraws; continue; }
                if (bench_case_list_push(out, &c)) return bench_fail(err, err_size, "out of memory");
                ++k;
            }
        }
    return 0;
}

int bench_gen_highrank_suite(const bench_gen_params* p, bench_case_list* out, char* err,
                             size_t err_size)
{
    static const int ranks[2] = {8, 12};
    rng_t rng = {p->seed};
    for (int ri = 0; ri < 2; ++ri) {
        int rank = ranks[ri];
        /* Four large extents L with L^4 * 2^(rank-4) closest to the volume. */
        double l_real = pow((double)p->volume / ldexp(1.0, rank - 4), 0.25);
        int64_t large = (int64_t)floor(l_real);
        if (large < 2) large = 2;
        if (fabs(log((double)(large + 1) / l_real)) < fabs(log((double)large / l_real))) ++large;
        for (int k = 0; k < p->count; ++k) {
            bench_case c = {.rank = rank};
            int is_large[BENCH_MAX_RANK] = {0};
            if (k == 0) {
                for (int i = 0; i < 4; ++i) is_large[i] = 1;
                for (int i = 0; i < rank; ++i) c.perm[i] = rank - 1 - i;
            } else {
                for (int placed = 0; placed < 4;) {
                    int i = (int)rng_range(&rng, 0, rank - 1);
                    if (!is_large[i]) { is_large[i] = 1; ++placed; }
                }
                bench_gen_random_perm(&rng, rank, c.perm);
            }
            for (int i = 0; i < rank; ++i) c.extents[i] = is_large[i] ? large : 2;
            if (bench_case_list_push(out, &c)) return bench_fail(err, err_size, "out of memory");
        }
    }
    return 0;
}

int bench_gen_small_suite(const bench_gen_params* p, size_t elem_size, bench_case_list* out,
                          char* err, size_t err_size)
{
    static const int64_t kib[] = {64, 256, 1024, 4096, 16384};
    static const int ranks[] = {2, 3, 4, 6};
    if (elem_size == 0) return bench_fail(err, err_size, "small: element size must be positive");
    rng_t rng = {p->seed};
    for (size_t s = 0; s < sizeof kib / sizeof kib[0]; ++s)
        for (size_t r = 0; r < sizeof ranks / sizeof ranks[0]; ++r) {
            bench_case c = {.rank = ranks[r]};
            int64_t volume = kib[s] * 1024 / (int64_t)elem_size;
            if (bench_gen_random_extents(&rng, c.rank, volume, 2.0, c.extents))
                return bench_fail(err, err_size, "small: cannot make rank %d of %lld elements", c.rank,
                            (long long)volume);
            bench_gen_random_perm(&rng, c.rank, c.perm);
            if (bench_case_list_push(out, &c)) return bench_fail(err, err_size, "out of memory");
        }
    return 0;
}

/* ---- suites outside the tuned shapes (permn, primes, mixed, l2) ------------ */

/* Extents of permn that only permn-heldout may run: measured at the end, never tuned on. */
const int64_t bench_permn_heldout_extents[BENCH_PERMN_HELDOUT_COUNT] = {13, 19, 21, 23};

int bench_permn_extent_is_heldout(int64_t extent)
{
    for (int i = 0; i < BENCH_PERMN_HELDOUT_COUNT; ++i)
        if (bench_permn_heldout_extents[i] == extent) return 1;
    return 0;
}

uint64_t bench_heldout_seed(uint64_t seed)
{
    /* Any fixed bijection of the seed that no tuning seed reaches by accident. */
    return (seed ^ 0x5DEECE66Dull) * 0x2545F4914F6CDD1Dull + 0x1000003ull;
}

int bench_is_prime(int64_t n)
{
    if (n < 2) return 0;
    for (int64_t d = 2; d * d <= n; ++d)
        if (n % d == 0) return 0;
    return 1;
}

/* The prime nearest to x (>= 2; the smaller one on a tie). */
static int64_t nearest_prime(double x)
{
    int64_t c = x < 2 ? 2 : (int64_t)llround(x);
    for (int64_t k = 0;; ++k) {
        if (c - k >= 2 && bench_is_prime(c - k)) return c - k;
        if (bench_is_prime(c + k)) return c + k;
    }
}

int bench_gen_primes_suite(const bench_gen_params* p, bench_case_list* out, char* err, size_t err_size)
{
    static const int ranks[] = {3, 4, 5, 6};
    rng_t rng = {p->seed};
    for (size_t ri = 0; ri < sizeof ranks / sizeof ranks[0]; ++ri) {
        const int rank = ranks[ri];
        size_t group = out->count;
        for (int k = 0, redraws = 0; k < p->count && redraws < 64;) {
            bench_case c = {.rank = rank};
            /* Log-spread extents around volume^(1/rank) (largest/smallest up to ~8),
             * each rounded to a prime; the last one makes up the volume. */
            double log_left = log((double)p->volume);
            for (int d = 0; d < rank; ++d) {
                double mean = log_left / (rank - d);
                double x = d + 1 < rank ? exp(mean + (rng_uniform(&rng) - 0.5) * 1.4) : exp(log_left);
                c.extents[d] = nearest_prime(x);
                log_left -= log((double)c.extents[d]);
            }
            for (int i = rank - 1; i > 0; --i) { /* the last extent anywhere */
                int j = (int)rng_range(&rng, 0, i);
                int64_t t = c.extents[i]; c.extents[i] = c.extents[j]; c.extents[j] = t;
            }
            bench_gen_random_perm(&rng, rank, c.perm);
            if (contains(out, group, &c)) { ++redraws; continue; }
            if (bench_case_list_push(out, &c)) return bench_fail(err, err_size, "out of memory");
            ++k;
        }
    }
    return 0;
}

int bench_gen_mixed_suite(const bench_gen_params* p, bench_case_list* out, char* err, size_t err_size)
{
    static const int ranks[] = {8, 12};
    rng_t rng = {p->seed};
    const double vmax = 1.25 * (double)p->volume, vmin = 0.1 * (double)p->volume;
    for (size_t ri = 0; ri < sizeof ranks / sizeof ranks[0]; ++ri) {
        const int rank = ranks[ri];
        size_t group = out->count;
        for (int k = 0, tries = 0; k < p->count;) {
            if (++tries > 100000)
                return bench_fail(err, err_size, "mixed: cannot make rank %d near %lld elements", rank,
                            (long long)p->volume);
            bench_case c = {.rank = rank};
            /* 2-5 large extents (18-40), the others small (2-5), at random positions */
            int large = 2 + (int)rng_range(&rng, 0, 3);
            double volume = 1;
            for (int d = 0; d < rank; ++d) {
                c.extents[d] = d < large ? 18 + rng_range(&rng, 0, 22) : 2 + rng_range(&rng, 0, 3);
                volume *= (double)c.extents[d];
            }
            /* shrink at random (each extent stays in its range) until the volume fits */
            for (int guard = 0; volume > vmax && guard < 1000; ++guard) {
                int d = (int)rng_range(&rng, 0, rank - 1);
                int64_t lo = d < large ? 18 : 2;
                if (c.extents[d] <= lo) continue;
                volume = volume / (double)c.extents[d] * (double)(c.extents[d] - 1);
                --c.extents[d];
            }
            if (volume > vmax || volume < vmin) continue;
            for (int i = rank - 1; i > 0; --i) {
                int j = (int)rng_range(&rng, 0, i);
                int64_t t = c.extents[i]; c.extents[i] = c.extents[j]; c.extents[j] = t;
            }
            bench_gen_random_perm(&rng, rank, c.perm);
            if (contains(out, group, &c)) continue;
            if (bench_case_list_push(out, &c)) return bench_fail(err, err_size, "out of memory");
            ++k;
        }
    }
    return 0;
}

int bench_gen_shortgroup_suite(const bench_gen_params* p, bench_case_list* out, char* err, size_t err_size)
{
    rng_t rng = {p->seed};
    for (int rank = 3; rank <= 5; ++rank) {
        const size_t group = out->count;
        for (int k = 0, tries = 0; k < p->count;) {
            if (++tries > 100000)
                return bench_fail(err, err_size, "shortgroup: cannot make rank %d near %lld elements", rank,
                                  (long long)p->volume);
            bench_case c = {.rank = rank};
            const double target = (0.5 + 0.75 * rng_uniform(&rng)) * (double)p->volume;
            c.extents[0] = 2 + rng_range(&rng, 0, 6);
            for (int d = 1; d < rank; ++d) c.extents[d] = rank == 3 && d == 1 ? 3 + rng_range(&rng, 0, 117)
                                                                              : 3 + rng_range(&rng, 0, 37);
            /* the batch (rank 3) or a random dimension past the first takes the rest of the volume */
            const int grow = rank == 3 ? 2 : 1 + (int)rng_range(&rng, 0, rank - 2);
            double others = 1;
            for (int d = 0; d < rank; ++d)
                if (d != grow) others *= (double)c.extents[d];
            c.extents[grow] = (int64_t)(target / others);
            if (c.extents[grow] < 2) continue;
            if (rank == 3) {
                c.perm[0] = 1, c.perm[1] = 0, c.perm[2] = 2;
                if (rng_range(&rng, 0, 1)) { /* the short side on the output */
                    const int64_t t = c.extents[0];
                    c.extents[0] = c.extents[1], c.extents[1] = t;
                }
            } else {
                do bench_gen_random_perm(&rng, rank, c.perm);
                while (c.perm[0] == 0); /* the short dimension moves */
            }
            if (contains(out, group, &c)) continue;
            if (bench_case_list_push(out, &c)) return bench_fail(err, err_size, "out of memory");
            ++k;
        }
    }
    return 0;
}

int bench_gen_l2_suite(const bench_gen_params* p, size_t elem_size, bench_case_list* out, char* err,
                       size_t err_size)
{
    static const int64_t mib[] = {1, 2, 4, 8, 16};
    if (elem_size == 0) return bench_fail(err, err_size, "l2: element size must be positive");
    rng_t rng = {p->seed};
    for (size_t s = 0; s < sizeof mib / sizeof mib[0]; ++s)
        for (int k = 0; k < p->count; ++k) {
            bench_case c = {.rank = 6};
            /* a jittered size, so extents differ between cases of one size */
            double jitter = 0.85 + 0.3 * rng_uniform(&rng);
            int64_t volume = (int64_t)((double)(mib[s] << 20) * jitter / (double)elem_size);
            double ratio = 1.5 + 3.5 * rng_uniform(&rng);
            if (bench_gen_random_extents(&rng, c.rank, volume, ratio, c.extents))
                return bench_fail(err, err_size, "l2: cannot make %lld elements", (long long)volume);
            bench_gen_random_perm(&rng, c.rank, c.perm);
            if (bench_case_list_push(out, &c)) return bench_fail(err, err_size, "out of memory");
        }
    return 0;
}
