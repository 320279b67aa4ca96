/* Dimension pairing, unit removal, ordering and fusion (host logic). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "core/layout.h"

static cuperm_problem_t canon(int rank, const int64_t* e, const int* p, const int64_t* is, const int64_t* os)
{
    cuperm_problem_t pr;
    cuperm_problem_init(&pr, rank, e, p, is, os);
    cuperm_problem_canonicalize(&pr);
    return pr;
}

static void assert_dim(const cuperm_dim_t* d, int64_t e, int64_t si, int64_t so)
{
    assert_int_equal(d->extent, e);
    assert_int_equal(d->in_stride, si);
    assert_int_equal(d->out_stride, so);
}

static void identity_fuses_to_one_dimension(void** state)
{
    (void)state;
    const int64_t e[4] = {3, 5, 7, 11};
    const int p[4] = {0, 1, 2, 3};
    cuperm_problem_t pr = canon(4, e, p, NULL, NULL);
    assert_int_equal(pr.rank, 1);
    assert_dim(&pr.dim[0], 3 * 5 * 7 * 11, 1, 1);
}

static void contiguous_groups_fuse(void** state)
{
    (void)state;
    /* (a b c d) -> (c d a b): two groups of two */
    const int64_t e[4] = {2, 3, 4, 5};
    const int p[4] = {2, 3, 0, 1};
    cuperm_problem_t pr = canon(4, e, p, NULL, NULL);
    assert_int_equal(pr.rank, 2);
    assert_dim(&pr.dim[0], 6, 1, 20);
    assert_dim(&pr.dim[1], 20, 6, 1);
    assert_int_equal(cuperm_problem_out_fastest(&pr), 1);
}

static void unit_extents_vanish(void** state)
{
    (void)state;
    const int64_t e[5] = {1, 8, 1, 9, 1};
    const int p[5] = {4, 3, 2, 1, 0};
    cuperm_problem_t pr = canon(5, e, p, NULL, NULL);
    assert_int_equal(pr.rank, 2);
    assert_dim(&pr.dim[0], 8, 1, 9);
    assert_dim(&pr.dim[1], 9, 8, 1);
    const int64_t ones[3] = {1, 1, 1};
    const int q[3] = {1, 2, 0};
    pr = canon(3, ones, q, NULL, NULL);
    assert_int_equal(pr.rank, 1);
    assert_dim(&pr.dim[0], 1, 1, 1);
}

static void strided_views_do_not_fuse_across_padding(void** state)
{
    (void)state;
    const int64_t e[2] = {4, 6};
    const int p[2] = {0, 1};
    const int64_t padded[2] = {1, 5}; /* rows of 5, using 4 */
    cuperm_problem_t pr = canon(2, e, p, padded, NULL);
    assert_int_equal(pr.rank, 2);
    assert_dim(&pr.dim[0], 4, 1, 1);
    assert_dim(&pr.dim[1], 6, 5, 4);
    /* an input stored in another memory order is sorted by input stride */
    const int64_t swapped[2] = {6, 1};
    pr = canon(2, e, p, swapped, NULL);
    assert_dim(&pr.dim[0], 6, 1, 4);
    assert_dim(&pr.dim[1], 4, 6, 1);
}

/* A row shared by both sides packs into one wide element when it is a power of two of at most
 * 16 bytes, else a power-of-two part of it does (the largest that divides it and fits), unless
 * that part is 16 bytes (the rows kernel's own vectors). */
static void pack_takes_the_shared_row_or_a_part(void** state)
{
    (void)state;
    static const struct {
        int64_t row;
        int elem;
        int wide;     /* 0: no packing */
        int64_t left; /* dimension 0's extent after packing (0: gone) */
    } cases[] = {{4, 4, 16, 0}, {2, 8, 16, 0}, {10, 4, 8, 5}, {12, 4, 0, 0},  {20, 2, 8, 5}, {24, 1, 8, 3},
                 {6, 8, 0, 0},  {7, 4, 0, 0},  {3, 4, 0, 0},  {9, 2, 0, 0},  {32, 4, 0, 0}, {5, 16, 0, 0},
                 {6, 4, 8, 3},  {12, 2, 8, 3}, {18, 1, 2, 9}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        /* [row, 11, 20] -> [row, 20, 11]: dimension 0 contiguous on both sides */
        const int64_t e[3] = {cases[i].row, 11, 20};
        const int perm[3] = {0, 2, 1};
        cuperm_problem_t p, q;
        cuperm_problem_init(&p, 3, e, perm, NULL, NULL);
        cuperm_problem_canonicalize(&p);
        int wide = -1;
        const int packs = cuperm_problem_pack(&p, cases[i].elem, 1, &q, &wide);
        assert_int_equal(packs, cases[i].wide != 0);
        cuperm_problem_t whole;
        int wholeWide = -1; /* without partial packing only whole rows pack */
        assert_int_equal(cuperm_problem_pack(&p, cases[i].elem, 0, &whole, &wholeWide), packs && cases[i].left == 0);
        if (!packs) continue;
        assert_int_equal(wide, cases[i].wide);
        const int64_t a = wide / cases[i].elem;
        assert_int_equal(cuperm_problem_volume(&q) * a, cuperm_problem_volume(&p));
        if (cases[i].left == 0) {
            assert_int_equal(q.rank, 2);
            assert_dim(&q.dim[0], 11, 1, 20);
            assert_dim(&q.dim[1], 20, 11, 1);
        } else {
            assert_int_equal(q.rank, 3);
            assert_dim(&q.dim[0], cases[i].left, 1, 1);
            assert_dim(&q.dim[1], 11, cases[i].left, cases[i].left * 20);
            assert_dim(&q.dim[2], 20, cases[i].left * 11, cases[i].left);
        }
    }
}

static void spans(void** state)
{
    (void)state;
    const int64_t e[3] = {4, 5, 6};
    const int p[3] = {2, 0, 1};
    const int64_t os[3] = {1, 10, 50};
    cuperm_problem_t pr;
    cuperm_problem_init(&pr, 3, e, p, NULL, os);
    assert_int_equal(cuperm_problem_max_in_offset(&pr), 119);
    assert_int_equal(cuperm_problem_max_out_offset(&pr), 5 * 1 + 3 * 10 + 4 * 50);
    assert_int_equal(cuperm_problem_volume(&pr), 120);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(identity_fuses_to_one_dimension),
        cmocka_unit_test(contiguous_groups_fuse),
        cmocka_unit_test(unit_extents_vanish),
        cmocka_unit_test(strided_views_do_not_fuse_across_padding),
        cmocka_unit_test(spans),
        cmocka_unit_test(pack_takes_the_shared_row_or_a_part),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
