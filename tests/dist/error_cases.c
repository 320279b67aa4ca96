/* cuperm-dist-test: a bad descriptor on one rank makes every rank fail alike, without hanging. */
#define _POSIX_C_SOURCE 200809L
#include <string.h>
#include <unistd.h>

#include "dist_parts.h"
#include "harness.h"

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
    int mi[1] = {0}, mo[1] = {1}, gi[1] = {dt_G}, go[1] = {dt_G};
    int64_t bi[1] = {(10 + dt_G - 1) / dt_G}, bo[1] = {(10 + dt_G - 1) / dt_G};
    cupermDistTensorDescriptor_t in = {3, ext, CUPERM_R_64F, 1, mi, gi, bi, NULL};
    cupermDistTensorDescriptor_t out = {3, ext_o, CUPERM_R_64F, 1, mo, go, bo, NULL};
    if (r == e->victim) switch (e->kind) {
        case 0: ext[1] = 8; ext_o[2] = 8; break;  /* mismatched extents, valid by themselves */
        case 1: gi[0] = dt_G + 1; break;             /* wrong grid size */
        case 2: bi[0] = 1; break;                 /* blocks too small to cover the extent */
        case 3: perm[1] = 2; break;               /* not a permutation */
        case 4: in.type = CUPERM_R_32F; out.type = CUPERM_R_32F; break; /* another dtype */
        }
    if ((e->kind >= 5 && e->kind < 8) || e->kind >= 13) { /* a contraction D[0,2] = A[0,1] B[1,2], each
                                                              distributed along its mode 0 */
        int32_t ma[2] = {0, 1}, mb[2] = {1, 2}, md[2] = {0, 2};
        int64_t ea[2] = {10, 7}, eb[2] = {7, 5}, ed[2] = {10, 5};
        int zero[1] = {0}, grid[1] = {dt_G};
        cupermDistTensorDescriptor_t da = {2, ea, CUPERM_R_32F, 1, zero, grid, NULL, NULL}, db = da, dd = da;
        db.extents = eb;
        dd.extents = ed;
        if (r == e->victim) switch (e->kind) {
            case 5: md[1] = 0; break;      /* a label twice in D */
            case 6: eb[0] = 8; break;      /* label 1: extent 7 in A, 8 in B */
            case 7: grid[0] = dt_G + 1; break; /* wrong grid size */
            }
        cupermDistContractionOptions_t co;
        memset(&co, 0, sizeof co);
        if (r == e->victim && e->kind == 13) co.overlap = CUPERM_DIST_OVERLAP_BY_PEER; /* valid, unlike the others' */
        if (r == e->victim && e->kind == 14) co.overlap = (cupermDistOverlap_t)7;      /* not an option */
        cupermDistContractionPlan_t plan = NULL;
        e->st[r] = cupermDistPlanContractionWithOptions(dt_R[r].handle, &plan, &da, ma, &db, mb, &dd, md,
                                                        CUPERM_COMPUTE_DEFAULT, &co, dt_R[r].comm, dt_R[r].stream);
        snprintf(e->msg[r], sizeof e->msg[r], "%s", cupermGetLastErrorMessage());
        e->got_plan[r] = plan != NULL;
        if (plan) cupermDistContractionPlanDestroy(plan);
        return;
    }
    cupermDistOptions_t opt; /* the defaults, but on the victim of kind 12 */
    memset(&opt, 0, sizeof opt);
    if (r == e->victim && e->kind == 12) { /* one kernel is one stage */
        opt.transport = CUPERM_DIST_TRANSPORT_PEER_STORES_ONE_KERNEL;
        opt.chunks = 2;
    }
    cupermDistPlan_t plan = NULL;
    e->st[r] = cupermDistPlanTranspose(dt_R[r].handle, &plan, perm, &in, &out, &opt, dt_R[r].comm, dt_R[r].stream);
    snprintf(e->msg[r], sizeof e->msg[r], "%s", cupermGetLastErrorMessage());
    e->got_plan[r] = plan != NULL;
    if (plan && e->kind >= 8 && e->kind < 12) { /* binding an output (valid plans everywhere), broken on the victim */
        const size_t bytes = 4096; /* above every rank's output span (at most 10 * 7 * 5 doubles / 2) */
        const int victim = r == e->victim;
        void* buf = NULL;
        int from_nccl = !(victim && e->kind == 8);
        if (from_nccl ? ncclMemAlloc(&buf, bytes) != ncclSuccess : cudaMalloc(&buf, bytes) != cudaSuccess) buf = NULL;
        size_t b = bytes;
        if (victim && e->kind == 9) b = bytes - 256;  /* another size than the other ranks' */
        if (victim && e->kind == 10) b = 8;           /* less than this rank's output span */
        void* o = victim && e->kind == 11 ? NULL : buf;
        if (victim && e->kind == 11) b = 0;           /* unbinds while the others bind */
        e->st[r] = cupermDistPlanBindOutput(plan, o, b, dt_R[r].stream);
        snprintf(e->msg[r], sizeof e->msg[r], "%s", cupermGetLastErrorMessage());
        cupermDistPlanInfo_t info;
        cupermDistPlanGetInfo(plan, &info);
        e->got_plan[r] = info.outputBound; /* a failed binding leaves none */
        cupermDistPlanDestroy(plan);
        if (buf) from_nccl ? (void)ncclMemFree(buf) : (void)cudaFree(buf);
        return;
    }
    if (plan) cupermDistPlanDestroy(plan);
}

int dt_error_cases(void)
{
    static const char* names[] = {"mismatched extents on one rank", "wrong grid size on one rank",
                                  "bad block size on one rank", "bad perm on one rank", "other dtype on one rank",
                                  "contraction: repeated label on one rank",
                                  "contraction: label extents differ on one rank",
                                  "contraction: wrong grid size on one rank",
                                  "bound output: cudaMalloc memory on one rank", "bound output: another size on one rank",
                                  "bound output: too small on one rank", "bound output: one rank unbinds",
                                  "one-kernel transport with 2 chunks on one rank",
                                  "contraction: another overlap option on one rank",
                                  "contraction: overlap option out of range on one rank"};
    int bad = 0;
    for (int kind = 0; kind < 15; ++kind)
        for (int victim = 0; victim < dt_G; victim += dt_G - 1) {
            err_case_t e;
            memset(&e, 0, sizeof e);
            e.kind = kind;
            e.victim = victim;
            dt_alarm(60);
            dt_on_all_ranks(err_rank, &e);
            dt_alarm(0);
            /* memory NCCL cannot register: NOT_SUPPORTED everywhere (or, in a build without NCCL's device
             * API, that for every binding alike) */
            const cupermStatus_t want = kind == 8 ? CUPERM_STATUS_NOT_SUPPORTED : CUPERM_STATUS_INVALID_VALUE;
            int ok = 1;
            for (int r = 0; r < dt_G; ++r)
                if (e.st[r] != want || e.got_plan[r]) ok = 0;
            printf("%s error: %s (rank %d): every rank returned %s\n", ok ? "ok  " : "FAIL", names[kind], victim,
                   ok ? cupermGetErrorString(want) : "different statuses");
            for (int r = 0; r < dt_G; ++r)
                printf("       rank %d: %s: %s\n", r, cupermGetErrorString(e.st[r]), e.msg[r]);
            bad |= !ok;
        }
    return bad;
}
