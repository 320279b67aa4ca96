/* The transpose time model's footprint term (plan/transpose/model.c: cuperm_footprint_traffic,
 * cuperm_launch_footprint) against a byte-by-byte count, and what it leaves alone: dense tensors'
 * predictions. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "plan/transpose/model.h"
#include "plan/transpose/select.h"

static const cuperm_device_info_t kDevice = {0, 9, 0, 132, 50 << 20, 48 << 10, 3.35e12};

/* Every element's bytes marked in atoms of the whole footprint: the atoms touched, and those partly
 * covered, counted over the tensor (n dims, strides in elements, base atom-aligned). */
static double brute_force(const int64_t* ext, const int64_t* str, int n, int elem, int atom, int write)
{
    int64_t span = 1, vol = 1;
    for (int d = 0; d < n; ++d) span += (ext[d] - 1) * str[d], vol *= ext[d];
    const int64_t atoms = (span * elem + atom - 1) / atom;
    int32_t* cov = calloc((size_t)atoms, sizeof *cov);
    int64_t idx[8] = {0};
    for (int64_t i = 0; i < vol; ++i) {
        int64_t off = 0;
        for (int d = 0; d < n; ++d) off += idx[d] * str[d];
        for (int64_t b = off * elem; b < (off + 1) * elem; ++b) ++cov[b / atom];
        for (int d = 0; d < n && ++idx[d] == ext[d]; ++d) idx[d] = 0;
    }
    double touched = 0, partial = 0;
    for (int64_t a = 0; a < atoms; ++a) touched += cov[a] > 0, partial += cov[a] > 0 && cov[a] < atom;
    free(cov);
    return atom * (touched + (write ? partial : 0)) / (double)(vol * elem);
}

/* Boxes of larger tensors, one plane of runs each (the function counts the first plane; the outer
 * dimensions here start on atoms and share none), in every order of their strides: the function
 * equals the count exactly where the plane holds whole periods of the runs' starts (or fewer runs
 * than a period), whether neighbouring runs share atoms or not. */
static void footprint_matches_brute_force(void** state)
{
    (void)state;
    srand(62);
    int checked = 0, shared = 0;
    for (int trial = 0; trial < 4000 && checked < 400; ++trial) {
        const int elem = 1 << (rand() % 4), atom = rand() % 2 ? 64 : 32;
        const int64_t inner = 1 + rand() % 40, runs = 1 + rand() % 24, outer = 1 + rand() % 3;
        const int64_t stride = inner + rand() % (rand() % 2 ? 4 : 40); /* a gap, maybe within an atom */
        const int64_t plane_bytes = ((runs - 1) * stride + inner) * elem;
        const int64_t outer_stride = (plane_bytes / atom + 1 + rand() % 3) * atom / elem;
        if (outer_stride * elem % atom || stride == inner || runs * outer == 1) continue; /* one run: dense */
        const int64_t s_bytes = stride * elem % atom ? stride * elem % atom : atom;
        int64_t g = atom, x = s_bytes;
        while (x) { const int64_t t = g % x; g = x; x = t; }
        const int64_t period = atom / g;
        if (runs > period && runs % period) continue;
        const int64_t ext[3] = {inner, runs, outer}, str[3] = {1, stride, outer_stride};
        /* the same box with its dimensions listed in another order */
        const int64_t ext2[3] = {outer, inner, runs}, str2[3] = {outer_stride, 1, stride};
        for (int write = 0; write < 2; ++write) {
            const double got = cuperm_footprint_traffic(ext, str, 3, elem, atom, write);
            const double want = brute_force(ext, str, runs > 1 ? 2 : 1, elem, atom, write);
            if (got < want - 1e-9 || got > want + 1e-9)
                fail_msg("footprint_matches_brute_force: extents %lldx%lldx%lld strides 1,%lld,%lld elem %d atom %d "
                         "write %d: %.6f, counted %.6f", (long long)inner, (long long)runs, (long long)outer,
                         (long long)stride, (long long)outer_stride, elem, atom, write, got, want);
            assert_true(cuperm_footprint_traffic(ext2, str2, 3, elem, atom, write) == got);
            assert_true(got >= 1.0 - 1e-12);
        }
        shared += (stride - inner) * elem < atom;
        ++checked;
    }
    assert_true(checked >= 200);
    assert_true(shared >= 50 && checked - shared >= 50); /* both of the function's counts ran */
}

/* The cases the term is for, by hand: a distributed redistribution's local piece that writes 11 of
 * every 21 elements (f32: 44-byte runs 84 bytes apart), and one that reads 8 of every 16 (32 bytes of
 * each 64). */
static void footprint_of_cut_runs(void** state)
{
    (void)state;
    const int64_t ext[2] = {11, 39}, str[2] = {1, 21};
    /* starts 0, 84, 168, ... modulo 64 repeat every 16 runs; each run touches 1-2 atoms, all partly */
    const double w = cuperm_footprint_traffic(ext, str, 2, 4, 64, 1), r = cuperm_footprint_traffic(ext, str, 2, 4, 64, 0);
    assert_true(w > 2.0 * r - 1e-9 && r > 1.5);
    const int64_t half[2] = {8, 100}, hstr[2] = {1, 16};
    assert_true(cuperm_footprint_traffic(half, hstr, 2, 4, 64, 0) == 2.0); /* one 64-byte atom a 32-byte run */
    assert_true(cuperm_footprint_traffic(half, hstr, 2, 4, 32, 0) == 1.0); /* whole 32-byte sectors */
    /* dense sides, and sides the term does not model */
    const int64_t dense[3] = {1, 11, 11 * 39}, bcast[2] = {1, 0};
    const int64_t ext3[3] = {11, 39, 5};
    assert_true(cuperm_footprint_traffic(ext3, dense, 3, 4, 64, 1) == 1.0);
    assert_true(cuperm_footprint_traffic(ext, bcast, 2, 4, 64, 1) == 1.0);
    assert_true(cuperm_footprint_traffic(ext, str, 2, 4, 0, 1) == 1.0);
}

/* Dense tensors (any permutation, any element size) keep their predictions: the term is 1 there. */
static void dense_predictions_unchanged(void** state)
{
    (void)state;
    srand(621);
    cuperm_tuning_t off = *cuperm_tuning_for(&kDevice);
    off.transpose.model_dram_atom_bytes = 0;
    for (int trial = 0; trial < 300; ++trial) {
        const int rank = 1 + rand() % 6, elem = 1 << (rand() % 4);
        int64_t ext[6];
        int perm[6];
        for (int d = 0; d < rank; ++d) ext[d] = 1 + rand() % 37, perm[d] = d;
        for (int d = rank - 1; d > 0; --d) {
            const int j = rand() % (d + 1), x = perm[d];
            perm[d] = perm[j], perm[j] = x;
        }
        cuperm_host_plan_t a, b;
        cuperm_plan_host(rank, ext, perm, elem, NULL, NULL, &kDevice, cuperm_tuning_for(&kDevice), &a);
        cuperm_plan_host(rank, ext, perm, elem, NULL, NULL, &kDevice, &off, &b);
        assert_true(a.predicted_seconds == b.predicted_seconds);
        assert_true(memcmp(&a.launch, &b.launch, sizeof a.launch) == 0);
    }
}

/* A box of a larger tensor: priced above the same box stored densely, by the term's factor. */
static void gapped_box_priced_by_its_traffic(void** state)
{
    (void)state;
    cuperm_tuning_t on = *cuperm_tuning_for(&kDevice);
    on.transpose.model_dram_atom_bytes = 64; /* off in the tables until test_plan_mapping agrees */
    const int64_t ext[4] = {11, 64, 64, 32};
    const int perm[4] = {0, 2, 1, 3};
    const int64_t out_dense[4] = {1, 11, 11 * 64, 11 * 64 * 64};  /* output dim r is input dim perm[r] */
    const int64_t out_gapped[4] = {1, 21, 21 * 64, 21 * 64 * 64}; /* 11 of every 21 elements written */
    cuperm_host_plan_t d, g;
    cuperm_plan_host(4, ext, perm, 4, NULL, out_dense, &kDevice, &on, &d);
    cuperm_plan_host(4, ext, perm, 4, NULL, out_gapped, &kDevice, &on, &g);
    const cuperm_launch_t* gl = g.has_packed ? &g.packed : &g.launch;
    const double f = cuperm_launch_footprint(gl, 64);
    assert_true(f > 1.5);
    assert_true(g.predicted_seconds > 1.4 * d.predicted_seconds);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(footprint_matches_brute_force),
        cmocka_unit_test(footprint_of_cut_runs),
        cmocka_unit_test(dense_predictions_unchanged),
        cmocka_unit_test(gapped_box_priced_by_its_traffic),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
