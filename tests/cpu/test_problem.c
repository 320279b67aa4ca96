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
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
