#include "plan/contraction/problem.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "core/operators.h"
#include "core/error.h"
#include "core/layout.h"
#include "plan/contraction/types.h"

static const char* const operand_names[CTR_OPERANDS] = {"A", "B", "C", "D"};

const char* cuperm_ctr_operand_name(int which) { return operand_names[which]; }

const char* cuperm_ctr_group_name(cuperm_ctr_group_t g)
{
    static const char* names[CTR_GROUPS] = {"free-in-A", "free-in-B", "contracted", "batched"};
    return names[g];
}

/* Largest volume we accept: offsets must stay far from int64 overflow. */
#define CTR_MAX_VOLUME ((int64_t)1 << 52)

static cupermStatus_t copy_operand(cuperm_ctr_operand_t* t, const cupermTensorDescriptor_t* d, int which)
{
    const char* name = operand_names[which];
    if (!d) return cuperm_fail_in("cupermPlanContraction", CUPERM_STATUS_INVALID_VALUE, "descriptor %s is NULL", name);
    if (d->rank < 0 || d->rank > CUPERM_MAX_RANK)
        return cuperm_fail_in("cupermPlanContraction", CUPERM_STATUS_INVALID_VALUE, "%s.rank is %d; it must be in 0..%d", name,
                        d->rank, CUPERM_MAX_RANK);
    if (d->rank > 0 && (!d->modes || !d->extents))
        return cuperm_fail_in("cupermPlanContraction", CUPERM_STATUS_INVALID_VALUE, "%s.modes and %s.extents must not be NULL "
                        "when %s.rank > 0", name, name, name);
    memset(t, 0, sizeof *t);
    t->rank = d->rank;
    t->type = d->type;
    t->op = d->op;
    t->opParam = d->opParam;
    int64_t volume = 1;
    for (int i = 0; i < d->rank; ++i) {
        t->modes[i] = d->modes[i];
        t->extents[i] = d->extents[i];
        if (d->extents[i] < 1)
            return cuperm_fail_in("cupermPlanContraction", CUPERM_STATUS_INVALID_VALUE, "%s.extents[%d] is %lld; extents must be >= 1",
                            name, i, (long long)d->extents[i]);
        if (volume > CTR_MAX_VOLUME / d->extents[i])
            return cuperm_fail_in("cupermPlanContraction", CUPERM_STATUS_INVALID_VALUE, "%s has more than 2^52 elements", name);
        t->strides[i] = d->strides ? d->strides[i] : volume;
        volume *= d->extents[i];
        int64_t minStride = which == CTR_D ? 1 : 0;
        if (t->strides[i] < minStride || t->strides[i] > CTR_MAX_VOLUME)
            return cuperm_fail_in("cupermPlanContraction", CUPERM_STATUS_INVALID_VALUE, "%s.strides[%d] is %lld; %s strides must be "
                            "in %lld..2^52", name, i, (long long)t->strides[i], name,
                            (long long)minStride);
        for (int j = 0; j < i; ++j)
            if (d->modes[j] == d->modes[i])
                return cuperm_fail_in("cupermPlanContraction", CUPERM_STATUS_NOT_SUPPORTED, "mode %d appears twice in %s "
                                "(dimensions %d and %d); diagonals and traces are not supported",
                                (int)d->modes[i], name, j, i);
    }
    return CUPERM_STATUS_SUCCESS;
}

int64_t cuperm_ctr_operand_volume(const cuperm_ctr_operand_t* t)
{
    int64_t v = 1;
    for (int i = 0; i < t->rank; ++i) v *= t->extents[i];
    return v;
}

int64_t cuperm_ctr_operand_max_offset(const cuperm_ctr_operand_t* t)
{
    return cuperm_max_offset(t->rank, t->extents, t->strides);
}

void cuperm_ctr_gather(const cuperm_ctr_problem_t* p, int w, const int* order, int n, int64_t* extents, int64_t* strides)
{
    for (int i = 0; i < n; ++i) {
        const cuperm_ctr_mode_t* m = &p->modes[order[i]];
        extents[i] = m->extent;
        strides[i] = p->op[w].strides[m->pos[w]];
    }
}

void cuperm_ctr_mode_keys(const cuperm_ctr_problem_t* p, int w, int64_t* stride, int64_t* pos)
{
    for (int i = 0; i < p->nmodes; ++i) {
        const int d = p->modes[i].pos[w];
        stride[i] = d >= 0 ? p->op[w].strides[d] : INT64_MAX;
        if (pos) pos[i] = d;
    }
}

int cuperm_ctr_same_strides(const cuperm_ctr_problem_t* p, int v, int w)
{
    int64_t sv[CTR_MAX_MODES], sw[CTR_MAX_MODES];
    cuperm_ctr_mode_keys(p, v, sv, NULL);
    cuperm_ctr_mode_keys(p, w, sw, NULL);
    for (int i = 0; i < p->nmodes; ++i)
        if (sv[i] != sw[i]) return 0;
    return 1;
}

/* D's elements must not overlap: sorted by stride, each stride exceeds the offsets below it. */
static cupermStatus_t check_no_overlap(const cuperm_ctr_operand_t* t, const char* name)
{
    int idx[CUPERM_MAX_RANK], n = 0;
    for (int i = 0; i < t->rank; ++i)
        if (t->extents[i] > 1) idx[n++] = i;
    cuperm_sort_by_key(idx, n, t->strides, NULL);
    int64_t reach = 0;
    for (int i = 0; i < n; ++i) {
        const int d = idx[i];
        if (t->strides[d] <= reach)
            return cuperm_fail_in("cupermPlanContraction", CUPERM_STATUS_INVALID_VALUE, "%s.strides[%d] = %lld makes elements of %s "
                            "overlap (offsets up to %lld are reachable with smaller strides)",
                            name, d, (long long)t->strides[d], name, (long long)reach);
        reach += (t->extents[d] - 1) * t->strides[d];
    }
    return CUPERM_STATUS_SUCCESS;
}

static cupermStatus_t check_operator(const cuperm_ctr_operand_t* t, const char* name)
{
    char what[8];
    snprintf(what, sizeof what, "%s.op", name);
    return cuperm_check_operator(t->type, t->op, t->opParam, "cupermPlanContraction: ", what);
}

static int find_mode(const cuperm_ctr_operand_t* t, int32_t label)
{
    for (int i = 0; i < t->rank; ++i)
        if (t->modes[i] == label) return i;
    return -1;
}

/* Adds label (seen in operand `which` at dimension dim) to the table, checking extents. */
static cupermStatus_t note_mode(cuperm_ctr_problem_t* p, int32_t label, int64_t extent, int which, int dim,
                                int32_t* seen, int64_t* seenExtent, int* seenFrom, int* nseen)
{
    for (int i = 0; i < *nseen; ++i) {
        if (seen[i] != label) continue;
        if (seenExtent[i] != extent)
            return cuperm_fail_in("cupermPlanContraction", CUPERM_STATUS_INVALID_VALUE, "mode %d has extent %lld in %s but %lld in "
                            "%s (dimension %d)", (int)label, (long long)seenExtent[i],
                            operand_names[seenFrom[i]], (long long)extent, operand_names[which], dim);
        return CUPERM_STATUS_SUCCESS;
    }
    (void)p;
    seen[*nseen] = label;
    seenExtent[*nseen] = extent;
    seenFrom[*nseen] = which;
    ++*nseen;
    return CUPERM_STATUS_SUCCESS;
}

static cupermStatus_t classify(cuperm_ctr_problem_t* p)
{
    const cuperm_ctr_operand_t *A = &p->op[CTR_A], *B = &p->op[CTR_B], *C = &p->op[CTR_C], *D = &p->op[CTR_D];
    int32_t seen[3 * CUPERM_MAX_RANK];
    int64_t seenExtent[3 * CUPERM_MAX_RANK];
    int seenFrom[3 * CUPERM_MAX_RANK], nseen = 0;
    static const int order[3] = {CTR_A, CTR_B, CTR_D};
    for (int o = 0; o < 3; ++o) {
        const cuperm_ctr_operand_t* t = &p->op[order[o]];
        for (int i = 0; i < t->rank; ++i) {
            cupermStatus_t s = note_mode(p, t->modes[i], t->extents[i], order[o], i, seen,
                                         seenExtent, seenFrom, &nseen);
            if (s != CUPERM_STATUS_SUCCESS) return s;
        }
    }
    p->nmodes = 0;
    for (int g = 0; g < CTR_GROUPS; ++g) { p->groupSize[g] = 1; p->groupCount[g] = 0; }
    for (int i = 0; i < nseen; ++i) {
        const int32_t label = seen[i];
        const int a = find_mode(A, label), b = find_mode(B, label), d = find_mode(D, label);
        cuperm_ctr_group_t g;
        if (a >= 0 && b < 0 && d >= 0) g = CTR_GROUP_M;
        else if (a < 0 && b >= 0 && d >= 0) g = CTR_GROUP_N;
        else if (a >= 0 && b >= 0 && d < 0) g = CTR_GROUP_K;
        else if (a >= 0 && b >= 0 && d >= 0) g = CTR_GROUP_L;
        else
            return cuperm_fail_in("cupermPlanContraction", CUPERM_STATUS_INVALID_VALUE, "mode %d appears only in %s; every mode must "
                            "appear in at least two of A, B and D (summing or broadcasting a mode "
                            "of one operand is not supported)", (int)label,
                            a >= 0 ? "A" : b >= 0 ? "B" : "D (and C)");
        if (seenExtent[i] == 1) continue; /* unit modes never change an address */
        cuperm_ctr_mode_t* m = &p->modes[p->nmodes++];
        m->label = label;
        m->extent = seenExtent[i];
        m->group = g;
        m->pos[CTR_A] = a;
        m->pos[CTR_B] = b;
        m->pos[CTR_C] = find_mode(C, label);
        m->pos[CTR_D] = d;
        p->groupCount[g]++;
        p->groupSize[g] *= m->extent;
        if (p->groupSize[g] > CTR_MAX_VOLUME)
            return cuperm_fail_in("cupermPlanContraction", CUPERM_STATUS_INVALID_VALUE, "the %s modes span more than 2^52 elements",
                            cuperm_ctr_group_name(g));
    }
    return CUPERM_STATUS_SUCCESS;
}

cupermStatus_t cuperm_ctr_problem_init(cuperm_ctr_problem_t* p, const cupermTensorDescriptor_t* A,
                                const cupermTensorDescriptor_t* B,
                                const cupermTensorDescriptor_t* C,
                                const cupermTensorDescriptor_t* D, cupermComputeType_t compute)
{
    memset(p, 0, sizeof *p);
    const cupermTensorDescriptor_t* in[CTR_OPERANDS] = {A, B, C, D};
    cupermStatus_t s;
    for (int w = 0; w < CTR_OPERANDS; ++w)
        if ((s = copy_operand(&p->op[w], in[w], w)) != CUPERM_STATUS_SUCCESS) return s;
    for (int w = 0; w < CTR_OPERANDS; ++w)
        if (cupermDataTypeSize(p->op[w].type) == 0)
            return cuperm_fail_in("cupermPlanContraction", CUPERM_STATUS_INVALID_VALUE, "%s.type is %d, not a cupermDataType_t",
                            operand_names[w], (int)p->op[w].type);
    for (int w = 0; w < CTR_OPERANDS; ++w)
        if (!cuperm_ctr_type_is_float(p->op[w].type))
            return cuperm_fail_in("cupermPlanContraction", CUPERM_STATUS_NOT_SUPPORTED, "%s.type %s is not supported by contractions "
                            "(floating-point types only)", operand_names[w],
                            cuperm_ctr_type_name(p->op[w].type));
    if (p->op[CTR_A].type != p->op[CTR_B].type)
        return cuperm_fail_in("cupermPlanContraction", CUPERM_STATUS_NOT_SUPPORTED, "A.type %s differs from B.type %s; A and B must "
                        "share one type", cuperm_ctr_type_name(p->op[CTR_A].type),
                        cuperm_ctr_type_name(p->op[CTR_B].type));
    if (p->op[CTR_C].type != p->op[CTR_D].type)
        return cuperm_fail_in("cupermPlanContraction", CUPERM_STATUS_NOT_SUPPORTED, "C.type %s differs from D.type %s; C and D must "
                        "share one type", cuperm_ctr_type_name(p->op[CTR_C].type),
                        cuperm_ctr_type_name(p->op[CTR_D].type));
    if ((s = cuperm_ctr_types_resolve(p->op[CTR_A].type, p->op[CTR_D].type, compute, &p->compute)) !=
        CUPERM_STATUS_SUCCESS)
        return s;
    for (int w = 0; w < CTR_OPERANDS; ++w)
        if ((s = check_operator(&p->op[w], operand_names[w])) != CUPERM_STATUS_SUCCESS) return s;

    const cuperm_ctr_operand_t *Cop = &p->op[CTR_C], *Dop = &p->op[CTR_D];
    if (Cop->rank != Dop->rank)
        return cuperm_fail_in("cupermPlanContraction", CUPERM_STATUS_INVALID_VALUE, "C.rank %d differs from D.rank %d; C and D must "
                        "have the same modes in the same order", Cop->rank, Dop->rank);
    for (int i = 0; i < Dop->rank; ++i) {
        if (Cop->modes[i] != Dop->modes[i])
            return cuperm_fail_in("cupermPlanContraction", CUPERM_STATUS_INVALID_VALUE, "C.modes[%d] = %d differs from D.modes[%d] = "
                            "%d; C and D must have the same modes in the same order", i,
                            (int)Cop->modes[i], i, (int)Dop->modes[i]);
        if (Cop->extents[i] != Dop->extents[i])
            return cuperm_fail_in("cupermPlanContraction", CUPERM_STATUS_INVALID_VALUE, "C.extents[%d] = %lld differs from "
                            "D.extents[%d] = %lld", i, (long long)Cop->extents[i], i,
                            (long long)Dop->extents[i]);
    }
    if ((s = check_no_overlap(Dop, "D")) != CUPERM_STATUS_SUCCESS) return s;
    return classify(p);
}

double cuperm_ctr_problem_flops(const cuperm_ctr_problem_t* p)
{
    double macs = 1.0;
    for (int g = 0; g < CTR_GROUPS; ++g) macs *= (double)p->groupSize[g];
    return macs * (cuperm_ctr_type_is_complex(p->op[CTR_A].type) ? 8.0 : 2.0);
}
