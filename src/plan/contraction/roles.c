#include "plan/contraction/roles.h"

#include "core/layout.h"

/* At most this many entries in a pointer-array batch (3 pointers each in the workspace). */
#define CTR_MAX_CALLS ((int64_t)1 << 22)

/* The matrix classes of each operand (A: M and K, B: N and K, D: M and N). */
static int operand_has_class(int which, cuperm_ctr_group_t g)
{
    if (g == CTR_GROUP_L) return 1;
    if (which == CTR_A) return g != CTR_GROUP_N;
    if (which == CTR_B) return g != CTR_GROUP_M;
    return g != CTR_GROUP_K;
}

/* Length of the run at seq[a..len): modes of class c, fused (contiguous) in operand which. */
static int fused_run(const cuperm_ctr_problem_t* p, int which, const int* seq, int a, int len, cuperm_ctr_group_t c)
{
    int n = 0;
    while (a + n < len && p->modes[seq[a + n]].group == c) ++n;
    int64_t extents[CTR_MAX_MODES], strides[CTR_MAX_MODES];
    cuperm_ctr_gather(p, which, seq + a, n, extents, strides);
    return cuperm_fused_prefix(n, extents, strides);
}

/*
 * D's stride-1 run of one free class as rows, the largest fused run of the other
 * free class anywhere in D as columns, every other free mode in the pointer-array
 * batch: D is written in place however its free modes interleave.
 */
static int wide_roles(const cuperm_ctr_problem_t* p, const int* seq, int len, int* role)
{
    const cuperm_ctr_group_t c1 = p->modes[seq[0]].group;
    const cuperm_ctr_group_t c2 = c1 == CTR_GROUP_M ? CTR_GROUP_N : CTR_GROUP_M;
    int inRun[CTR_MAX_MODES] = {0};
    const int i = fused_run(p, CTR_D, seq, 0, len, c1);
    for (int k = 0; k < i; ++k) inRun[seq[k]] = 1;
    /* Fused runs of class c2 in D's stride order: keep the largest. */
    int bestStart = -1, bestEnd = -1;
    int64_t bestSize = 1;
    for (int a = i; a < len;) {
        if (p->modes[seq[a]].group != c2) { ++a; continue; }
        const int b = a + fused_run(p, CTR_D, seq, a, len, c2);
        int64_t size = 1;
        for (int k = a; k < b; ++k) size *= p->modes[seq[k]].extent;
        if (size > bestSize) { bestSize = size; bestStart = a; bestEnd = b; }
        a = b;
    }
    if (bestStart < 0) return 0;
    for (int k = bestStart; k < bestEnd; ++k) inRun[seq[k]] = 1;
    int64_t entries = 1;
    int looped = 0;
    for (int k = 0; k < p->nmodes; ++k) {
        const cuperm_ctr_group_t g = p->modes[k].group;
        role[k] = g;
        if ((g == CTR_GROUP_M || g == CTR_GROUP_N) && !inRun[k]) {
            role[k] = CTR_ROLE_O;
            ++looped;
        }
        if (role[k] == CTR_ROLE_O || role[k] == CTR_GROUP_L) entries *= p->modes[k].extent;
    }
    return looped > 0 && entries <= CTR_MAX_CALLS;
}

/*
 * The roles operand X's own layout suggests: its stride-1 run of one class as the
 * GEMM's fast dimension, the next run of its other matrix class as the slow one,
 * and its remaining free modes batched (the operand without them gets batch
 * stride 0) or looped, so that X is read or written in place. For D: leftover
 * modes of one free class are batched and the other's looped (variant v picks
 * which). Returns 0 if X suggests nothing new.
 */
static int driven_roles(const cuperm_ctr_problem_t* p, int which, int v, int* role)
{
    const cuperm_ctr_operand_t* X = &p->op[which];
    int seq[CTR_MAX_MODES], len = 0;
    for (int i = 0; i < p->nmodes; ++i)
        if (p->modes[i].pos[which] >= 0) seq[len++] = i;
    int64_t stride[CTR_MAX_MODES];
    cuperm_ctr_mode_keys(p, which, stride, NULL);
    cuperm_sort_by_key(seq, len, stride, NULL);
    if (len < 3) return 0;
    const cuperm_ctr_group_t c1 = p->modes[seq[0]].group;
    if (c1 == CTR_GROUP_L || X->strides[p->modes[seq[0]].pos[which]] != 1) return 0;
    /* The two runs. */
    int i = 0, inRun[CTR_MAX_MODES] = {0};
    cuperm_ctr_group_t c2 = c1;
    if (v == 2) return wide_roles(p, seq, len, role);
    for (int run = 0; run < 2; ++run) {
        const int start = i;
        if (run == 1) {
            if (i == len) return 0;
            c2 = p->modes[seq[i]].group;
            if (c2 == c1 || c2 == CTR_GROUP_L) return 0;
        }
        i += fused_run(p, which, seq, i, len, run ? c2 : c1);
        for (int k = start; k < i; ++k) inRun[seq[k]] = 1;
        if (i == start) return 0;
    }
    /* Leftover free modes of X (its K modes stay contracted). */
    const int haveL = p->groupCount[CTR_GROUP_L] > 0;
    int64_t leftover[CTR_GROUPS] = {1, 1, 1, 1};
    for (int k = 0; k < p->nmodes; ++k) {
        const cuperm_ctr_group_t g = p->modes[k].group;
        if ((g == CTR_GROUP_M || g == CTR_GROUP_N) && operand_has_class(which, g) && !inRun[k])
            leftover[g] *= p->modes[k].extent;
    }
    if (leftover[CTR_GROUP_M] == 1 && leftover[CTR_GROUP_N] == 1) return 0;
    /* Which free class is batched: variant v of D's two; an input's only one. */
    cuperm_ctr_group_t batched = which == CTR_A ? CTR_GROUP_M : which == CTR_B ? CTR_GROUP_N
                        : (v ? CTR_GROUP_N : CTR_GROUP_M);
    if (haveL) batched = CTR_GROUP_L;
    if (which != CTR_D && v) return 0;
    if (which == CTR_D && v == 1 && (haveL || leftover[CTR_GROUP_M] == 1 || leftover[CTR_GROUP_N] == 1)) return 0;
    int64_t calls = 1;
    for (int k = 0; k < p->nmodes; ++k) {
        const cuperm_ctr_group_t g = p->modes[k].group;
        int r = g;
        if ((g == CTR_GROUP_M || g == CTR_GROUP_N) && operand_has_class(which, g) && !inRun[k]) {
            r = g == batched ? CTR_GROUP_L : CTR_ROLE_O;
            if (r == CTR_ROLE_O) calls *= p->modes[k].extent;
        }
        role[k] = r;
    }
    int64_t batch = 1;
    for (int k = 0; k < p->nmodes; ++k)
        if (role[k] == CTR_GROUP_L) batch *= p->modes[k].extent;
    return calls * batch <= CTR_MAX_CALLS;
}

/* Role assignments worth pricing: the classes themselves and what D, A and B suggest. */
int cuperm_ctr_role_candidates(const cuperm_ctr_problem_t* p, int roles[][CTR_MAX_MODES], int max)
{
    int n = 0;
    for (int i = 0; i < p->nmodes; ++i) roles[n][i] = p->modes[i].group;
    ++n;
    static const int drivers[5][2] = {{CTR_D, 0}, {CTR_D, 1}, {CTR_D, 2}, {CTR_A, 0}, {CTR_B, 0}};
    for (int d = 0; d < 5 && n < max; ++d)
        if (driven_roles(p, drivers[d][0], drivers[d][1], roles[n])) ++n;
    return n;
}

