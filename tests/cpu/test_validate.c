/* Transpose argument validation (host logic, no GPU): every rule, and messages
 * that name the argument. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "plan/transpose/validate.h"

static const int64_t kExt[3] = {4, 5, 6};
static const int kPerm[3] = {2, 0, 1};

static void expect(cupermStatus_t st, const char* word)
{
    assert_int_equal(st, CUPERM_STATUS_INVALID_VALUE);
    if (!strstr(cupermGetLastErrorMessage(), word)) fail_msg("message \"%s\" lacks \"%s\"", cupermGetLastErrorMessage(), word);
}

static void valid_arguments_pass(void** state)
{
    (void)state;
    assert_int_equal(cuperm_validate_transpose(3, kExt, kPerm, CUPERM_R_32F, NULL, NULL), 0);
    const int64_t one[1] = {1};
    const int p1[1] = {0};
    assert_int_equal(cuperm_validate_transpose(1, one, p1, CUPERM_C_64F, NULL, NULL), 0);
    /* padded input, output with gaps, broadcast input dimension */
    const int64_t in[3] = {1, 8, 48}, out[3] = {2, 20, 100}, bcast[3] = {0, 1, 5};
    assert_int_equal(cuperm_validate_transpose(3, kExt, kPerm, CUPERM_R_8U, in, out), 0);
    assert_int_equal(cuperm_validate_transpose(3, kExt, kPerm, CUPERM_R_8U, bcast, NULL), 0);
    int64_t ext32[CUPERM_MAX_RANK];
    int p32[CUPERM_MAX_RANK];
    for (int i = 0; i < CUPERM_MAX_RANK; ++i) {
        ext32[i] = 2;
        p32[i] = CUPERM_MAX_RANK - 1 - i;
    }
    assert_int_equal(cuperm_validate_transpose(CUPERM_MAX_RANK, ext32, p32, CUPERM_R_64F, NULL, NULL), 0);
}

static void rank_extents_perm_type(void** state)
{
    (void)state;
    expect(cuperm_validate_transpose(0, kExt, kPerm, CUPERM_R_32F, NULL, NULL), "rank");
    expect(cuperm_validate_transpose(CUPERM_MAX_RANK + 1, kExt, kPerm, CUPERM_R_32F, NULL, NULL), "rank");
    expect(cuperm_validate_transpose(3, NULL, kPerm, CUPERM_R_32F, NULL, NULL), "extents");
    expect(cuperm_validate_transpose(3, kExt, NULL, CUPERM_R_32F, NULL, NULL), "perm");
    expect(cuperm_validate_transpose(3, kExt, kPerm, (cupermDataType_t)77, NULL, NULL), "type");
    const int64_t zero[3] = {4, 5, 0};
    expect(cuperm_validate_transpose(3, zero, kPerm, CUPERM_R_32F, NULL, NULL), "extents[2]");
    const int rep[3] = {1, 1, 0}, out_of_range[3] = {0, 1, 3};
    expect(cuperm_validate_transpose(3, kExt, rep, CUPERM_R_32F, NULL, NULL), "perm[1]");
    expect(cuperm_validate_transpose(3, kExt, out_of_range, CUPERM_R_32F, NULL, NULL), "perm[2]");
}

static void overflow(void** state)
{
    (void)state;
    const int64_t vol[2] = {INT64_MAX / 2, 3};
    const int p[2] = {1, 0};
    expect(cuperm_validate_transpose(2, vol, p, CUPERM_R_8U, NULL, NULL), "volume");
    /* volume fits, bytes do not */
    const int64_t bytes[2] = {(int64_t)1 << 31, (int64_t)1 << 30};
    expect(cuperm_validate_transpose(2, bytes, p, CUPERM_C_64F, NULL, NULL), "overflows");
    assert_int_equal(cuperm_validate_transpose(2, bytes, p, CUPERM_R_8U, NULL, NULL), 0);
    const int64_t e[2] = {3, 3}, big[2] = {INT64_MAX / 2, 1};
    expect(cuperm_validate_transpose(2, e, p, CUPERM_R_8U, big, NULL), "inStrides");
    expect(cuperm_validate_transpose(2, e, p, CUPERM_R_8U, NULL, big), "outStrides");
}

static void strides(void** state)
{
    (void)state;
    const int64_t neg[3] = {1, -4, 20}, zero_out[3] = {1, 0, 6};
    expect(cuperm_validate_transpose(3, kExt, kPerm, CUPERM_R_32F, neg, NULL), "inStrides[1]");
    expect(cuperm_validate_transpose(3, kExt, kPerm, CUPERM_R_32F, NULL, zero_out), "outStrides[1]");
    /* out extents are (6, 4, 5) */
    const int64_t overlap[3] = {1, 5, 24}, interleave[3] = {2, 1, 24}, same[3] = {1, 1, 24};
    expect(cuperm_validate_transpose(3, kExt, kPerm, CUPERM_R_32F, NULL, overlap), "overlap");
    expect(cuperm_validate_transpose(3, kExt, kPerm, CUPERM_R_32F, NULL, interleave), "overlap");
    expect(cuperm_validate_transpose(3, kExt, kPerm, CUPERM_R_32F, NULL, same), "overlap");
    const int64_t swapped[3] = {4, 1, 24}; /* (6, 4) stored with the 4 fastest: no overlap */
    assert_int_equal(cuperm_validate_transpose(3, kExt, kPerm, CUPERM_R_32F, NULL, swapped), 0);
    /* an extent-1 output dimension may have any stride */
    const int64_t ext[3] = {4, 1, 6};
    const int64_t ok[3] = {4, 1, 1};
    assert_int_equal(cuperm_validate_transpose(3, ext, kPerm, CUPERM_R_32F, NULL, ok), 0);
    /* the input may overlap itself (a read-only broadcast) */
    const int64_t in_overlap[3] = {1, 1, 1};
    assert_int_equal(cuperm_validate_transpose(3, kExt, kPerm, CUPERM_R_32F, in_overlap, NULL), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(valid_arguments_pass),
        cmocka_unit_test(rank_extents_perm_type),
        cmocka_unit_test(overflow),
        cmocka_unit_test(strides),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
