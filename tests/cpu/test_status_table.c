/*
 * One table of bad inputs, checked against both halves of the API: each rule
 * (an unknown enum, a zero extent, a negative stride, overlapping output
 * elements, ...) gives the same status from transpose planning and contraction
 * planning. INVALID_VALUE means a documented rule is broken, NOT_SUPPORTED a
 * valid request the library does not implement. Runs the host validators, so
 * it needs no GPU.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "plan/contraction/problem.h"
#include "plan/transpose/validate.h"

/* A 2-D problem in both halves: transpose (a, b) -> (b, a); contraction D[a,b] = A[a,k] B[k,b]. */
typedef struct {
    int64_t extents[2];
    int64_t inStrides[2], outStrides[2];
    cupermDataType_t type;
    cupermOperator_t op; /* contraction only */
    cupermComputeType_t compute;
    int32_t bModes[2];   /* contraction: B's modes */
} problem;

typedef struct {
    const char* rule;
    void (*breakIt)(problem* p);
    cupermStatus_t want;  /* from both halves */
    int transposeToo;     /* 0: a contraction-only rule (operators, compute types, mode labels) */
    const char* fragment; /* in the message of both halves */
} row;

static void unknown_type(problem* p) { p->type = (cupermDataType_t)99; }
static void zero_extent(problem* p) { p->extents[1] = 0; }
static void negative_in_stride(problem* p) { p->inStrides[1] = -4; }
static void overlapping_out(problem* p) { p->outStrides[0] = 1; p->outStrides[1] = 2; }
static void unknown_operator(problem* p) { p->op = (cupermOperator_t)42; }
static void unknown_compute(problem* p) { p->compute = (cupermComputeType_t)17; }
static void integer_type(problem* p) { p->type = CUPERM_R_32I; }
static void complex_relu(problem* p) { p->type = CUPERM_C_32F; p->op = CUPERM_OP_RELU; }
static void repeated_label(problem* p) { p->bModes[1] = 'k'; }
static void compute_for_other_type(problem* p) { p->type = CUPERM_R_64F; p->compute = CUPERM_COMPUTE_32F_FAST_TF32; }

static const row table[] = {
    {"unknown data type", unknown_type, CUPERM_STATUS_INVALID_VALUE, 1, "not a cupermDataType_t"},
    {"zero extent", zero_extent, CUPERM_STATUS_INVALID_VALUE, 1, ">= 1"},
    {"negative input stride", negative_in_stride, CUPERM_STATUS_INVALID_VALUE, 1, "-4"},
    {"overlapping output elements", overlapping_out, CUPERM_STATUS_INVALID_VALUE, 1, "overlap"},
    {"unknown operator", unknown_operator, CUPERM_STATUS_INVALID_VALUE, 0, "not a cupermOperator_t"},
    {"unknown compute type", unknown_compute, CUPERM_STATUS_INVALID_VALUE, 0, "not a cupermComputeType_t"},
    {"integer contraction", integer_type, CUPERM_STATUS_NOT_SUPPORTED, 0, "floating-point"},
    {"relu on a complex operand", complex_relu, CUPERM_STATUS_NOT_SUPPORTED, 0, "complex"},
    {"a label repeated in one operand (a diagonal)", repeated_label, CUPERM_STATUS_NOT_SUPPORTED, 0, "twice"},
    {"tf32 compute for fp64 data", compute_for_other_type, CUPERM_STATUS_NOT_SUPPORTED, 0, "compute type"},
};

static void valid_problem(problem* p)
{
    memset(p, 0, sizeof *p);
    p->extents[0] = 8;
    p->extents[1] = 6;
    p->inStrides[0] = 1;
    p->inStrides[1] = 8;
    p->outStrides[0] = 1;
    p->outStrides[1] = 6;
    p->type = CUPERM_R_32F;
    p->op = CUPERM_OP_IDENTITY;
    p->compute = CUPERM_COMPUTE_DEFAULT;
    p->bModes[0] = 'k';
    p->bModes[1] = 'b';
}

static cupermStatus_t plan_transpose(const problem* p)
{
    const int perm[2] = {1, 0};
    return cuperm_validate_transpose(2, p->extents, perm, p->type, p->inStrides, p->outStrides);
}

static cupermStatus_t plan_contraction(const problem* p)
{
    /* A[a,k] (a = extents[0], k = extents[1]) with the problem's input strides, B[k,b], D[a,b]
     * with its output strides; the operator goes on A. */
    const int32_t aModes[2] = {'a', 'k'}, dModes[2] = {'a', 'b'};
    const int64_t eA[2] = {p->extents[0], p->extents[1]}, eB[2] = {p->extents[1], 5},
                  eD[2] = {p->extents[0], 5};
    const int64_t dStrides[2] = {p->outStrides[0], p->outStrides[1] == 6 ? p->extents[0] : p->outStrides[1]};
    cupermTensorDescriptor_t A = {2, aModes, eA, p->inStrides, p->type, p->op, 0};
    cupermTensorDescriptor_t B = {2, p->bModes, eB, NULL, p->type, CUPERM_OP_IDENTITY, 0};
    cupermTensorDescriptor_t D = {2, dModes, eD, dStrides, p->type, CUPERM_OP_IDENTITY, 0};
    cuperm_ctr_problem_t out;
    return cuperm_ctr_problem_init(&out, &A, &B, &D, &D, p->compute);
}

static void expect(cupermStatus_t got, const row* r, const char* half)
{
    if (got != r->want)
        fail_msg("%s, %s: status %s, want %s (%s)", r->rule, half, cupermGetErrorString(got),
                 cupermGetErrorString(r->want), cupermGetLastErrorMessage());
    if (!strstr(cupermGetLastErrorMessage(), r->fragment))
        fail_msg("%s, %s: message \"%s\" lacks \"%s\"", r->rule, half, cupermGetLastErrorMessage(), r->fragment);
}

static void test_valid_problem_plans_in_both_halves(void** state)
{
    (void)state;
    problem p;
    valid_problem(&p);
    assert_int_equal(plan_transpose(&p), CUPERM_STATUS_SUCCESS);
    assert_int_equal(plan_contraction(&p), CUPERM_STATUS_SUCCESS);
}

static void test_every_rule_same_status_in_both_halves(void** state)
{
    (void)state;
    for (size_t i = 0; i < sizeof table / sizeof table[0]; ++i) {
        problem p;
        valid_problem(&p);
        table[i].breakIt(&p);
        if (table[i].transposeToo) expect(plan_transpose(&p), &table[i], "transpose");
        expect(plan_contraction(&p), &table[i], "contraction");
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_valid_problem_plans_in_both_halves),
        cmocka_unit_test(test_every_rule_same_status_in_both_halves),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
