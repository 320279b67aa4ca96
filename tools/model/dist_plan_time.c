/* The redistribution cost model's account of every candidate, on the CPU (no GPU, no NCCL calls),
 * on a stand-in H100 handle (--dram 4.8e12: an H200's): for each case line and each rank, every
 * candidate's transport, variant and stages, the predicted times of its pack, unpack and local
 * transposes, its bytes and the model's time, and its largest pack and unpack pieces' kernels
 * (cuperm_launch_kind_t) and dense runs in elements (input, output), and the pack pieces' 32-byte sector
 * efficiencies (reads, stores; weighted by bytes). tools/model/dist_fit.py joins these rows with
 * cuperm-dist-test's forced candidates (DT_SWEEP=1) to fit the model's constants.
 *   cuperm-dist-plan-time FILE [--dram B] [--unpack-overlap F]
 * --unpack-overlap F, --link-overlap F, --permuting-stores F: the tuning table's dist_unpack_overlap,
 * dist_link_overlap or dist_permuting_store_rate replaced by F (what dist_fit.py scans); --atom B: the
 * transpose model's model_dram_atom_bytes (its footprint term; 0: off).
 * FILE: one case a line (dist_case.h), e.g. "2 17x91x21x193x23x14 0,2,4,3,5,1 3 1". Output: CSV, one row
 * per case, rank and candidate. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dist/plan.h"
#include "dist_case.h"
#include "exec/handle.h"
#include "plan/transpose/model.h"

/* Elements of the longest dense run of piece s on one side (out: its output, else its input). */
static int64_t dense_run(const cuperm_dist_piece_t* s, int out)
{
    int64_t run = 1;
    for (int changed = 1; changed;) { /* the dimension whose stride continues the run, until none */
        changed = 0;
        for (int d = 0; d < s->walk.rank; ++d) {
            const cuperm_dim_t* m = &s->walk.dim[d];
            if (m->extent > 1 && (out ? m->out_stride : m->in_stride) == run) {
                run *= m->extent;
                changed = 1;
            }
        }
    }
    return run;
}

/* The largest of n pieces: its kernel kind and dense runs (elements of input, of output). */
static void piece_shape(const cuperm_dist_piece_t* pieces, int n, int* kind, int64_t* in_run, int64_t* out_run)
{
    const cuperm_dist_piece_t* big = NULL;
    for (int i = 0; i < n; ++i)
        if (!big || pieces[i].bytes > big->bytes) big = &pieces[i];
    *kind = big ? (int)big->tp.host.launch.kind : -1;
    *in_run = big ? dense_run(big, 0) : 0;
    *out_run = big ? dense_run(big, 1) : 0;
}

/* The pack pieces' 32-byte sector efficiencies (cuperm_sector_efficiency, through the model's features),
 * weighted by their bytes: how fully their reads (in) and their stores (out) fill the sectors they touch. */
static void pack_sectors(const cuperm_dist_piece_t* s, int n, double* in_eff, double* out_eff)
{
    double bytes = 0, in = 0, out = 0;
    for (int i = 0; i < n; ++i) {
        cuperm_model_features_t f;
        cuperm_model_features(&s[i].tp.host.launch, &f);
        bytes += (double)s[i].bytes;
        in += (double)s[i].bytes * f.in_sector_eff;
        out += (double)s[i].bytes * f.out_sector_eff;
    }
    *in_eff = bytes > 0 ? in / bytes : 1;
    *out_eff = bytes > 0 ? out / bytes : 1;
}

/* A bound output's direct stores on rank me of p (adopted by a priced candidate), every rank's
 * output block dense: rows "direct" (one transpose per receiver beside the local piece) and
 * "whole" (one transpose of the whole input block, the receivers' outputs a window stride apart:
 * cuperm_dist_whole_view), their model time in pack_us, the model's total left empty. */
static int direct_rows(cuperm_handle_t* h, cuperm_dist_plan_t* p, int id, int me)
{
    const int P = p->comm_size;
    int64_t* strides = calloc((size_t)P * CUPERM_MAX_RANK, sizeof *strides);
    char** peer = calloc((size_t)P, sizeof *peer);
    if (!strides || !peer || P > 64) {
        free(strides);
        free(peer);
        return 1;
    }
    for (int q = 0; q < P; ++q) cuperm_dist_local_strides(&p->lout, q, strides + (size_t)q * CUPERM_MAX_RANK);
    /* NCCL maps a window's parts one stride apart: its size rounded to 2 MiB pages, as numbers only */
    const uintptr_t part = ((uintptr_t)p->out_span * (uintptr_t)p->elem_size + (2u << 20) - 1) / (2u << 20) * (2u << 20);
    for (int q = 0; q < P; ++q) peer[q] = (char*)((uintptr_t)1 << 40) + (uintptr_t)q * part;
    cupermStatus_t st = cuperm_dist_build_direct(h, p, strides);
    if (!st) st = cuperm_dist_build_whole(h, p, strides, peer);
    if (st) {
        fprintf(stderr, "case %d rank %d direct stores: %s\n", id, me, cupermGetLastErrorMessage());
    } else {
        const double local = p->has_local ? p->local.tp.host.predicted_seconds : 0;
        for (int whole = 0; whole < 2; ++whole) {
            if (whole && !p->direct.has_whole) continue;
            const cuperm_dist_piece_t* s = whole ? &p->direct.whole : p->direct.pieces;
            const int n = whole ? 1 : p->direct.n;
            double t;
            const double permuting = cuperm_dist_pieces_cost(s, n, &t);
            int kind;
            int64_t in_run, out_run;
            piece_shape(s, n, &kind, &in_run, &out_run);
            double in_eff, out_eff;
            pack_sectors(s, n, &in_eff, &out_eff);
            printf("%d,%d,%s,0,1,%.3f,0,%.3f,%d,0,%zu,%zu,%zu,,%d,%lld,%lld,-1,0,0,%.3f,%.3f,%.3f\n", id, me,
                   whole ? "whole" : "direct", t * 1e6, whole ? 0 : local * 1e6, n, p->send_bytes, p->recv_bytes,
                   p->has_local && !whole ? p->local_bytes : 0, kind, (long long)in_run, (long long)out_run,
                   permuting, in_eff, out_eff);
        }
    }
    cuperm_dist_direct_free(p); /* nothing registered or captured: no NCCL or CUDA call */
    free(strides);
    free(peer);
    return st != CUPERM_STATUS_SUCCESS;
}

static int price_case(cuperm_handle_t* h, int id, const dist_case_t* dc)
{
    const int P = dc->ranks;
    const int* perm = dc->perm;
    cuperm_dist_layout_t li, lo;
    if (dist_case_layouts(dc, &li, &lo)) {
        fprintf(stderr, "case %d: %s\n", id, cupermGetLastErrorMessage());
        return 1;
    }
    static const char* names[] = {"", "sr", "ps", "pk"};
    for (int me = 0; me < P; ++me) {
        cuperm_dist_plan_t* p = calloc(1, sizeof *p);
        if (!p) return 1;
        for (int i = 0; i < CUPERM_DIST_CANDIDATES; ++i) {
            int transport, variant, k;
            cuperm_dist_candidate(i, NULL, &transport, &variant, &k);
            cuperm_dist_price_t c;
            if (cuperm_dist_price_candidate(h, &li, &lo, perm, me, NULL, i, &c, p)) {
                fprintf(stderr, "case %d rank %d candidate %d: %s\n", id, me, i, cupermGetLastErrorMessage());
                cuperm_dist_plan_free(p);
                return 1;
            }
            int kind[2];
            int64_t in_run[2], out_run[2];
            piece_shape(p->pack, p->n_pack, &kind[0], &in_run[0], &out_run[0]);
            piece_shape(p->unpack, p->n_unpack, &kind[1], &in_run[1], &out_run[1]);
            double in_eff, out_eff;
            pack_sectors(p->pack, p->n_pack, &in_eff, &out_eff);
            printf("%d,%d,%s,%d,%d,%.3f,%.3f,%.3f,%d,%d,%zu,%zu,%zu,%.3f,%d,%lld,%lld,%d,%lld,%lld,%.3f,%.3f,%.3f\n", id, me,
                   names[transport], variant, k, c.pack * 1e6, c.unpack * 1e6, c.local * 1e6, c.n_pack, c.n_unpack,
                   c.sent, c.received, p->has_local ? p->local_bytes : 0, c.seconds * 1e6, kind[0],
                   (long long)in_run[0], (long long)out_run[0], kind[1], (long long)in_run[1], (long long)out_run[1],
                   cuperm_dist_pieces_cost(p->pack, p->n_pack, &(double){0}), in_eff, out_eff);
        }
        if (direct_rows(h, p, id, me)) {
            cuperm_dist_plan_free(p);
            return 1;
        }
        cuperm_dist_plan_free(p);
    }
    return 0;
}

int main(int argc, char** argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s FILE [--dram B] [--unpack-overlap F] [--link-overlap F] [--permuting-stores F] [--atom B]\n",
                argv[0]);
        return 2;
    }
    double dram = 3.35e12; /* the stand-in device's DRAM bytes a second (H100 SXM) */
    double unpack_overlap = -1, link_overlap = -1, permuting = -1, atom = -1; /* < 0: the table's */
    for (int i = 2; i < argc; ++i) {
        if (i + 1 < argc && !strcmp(argv[i], "--dram")) {
            dram = atof(argv[++i]);
        } else if (i + 1 < argc && !strcmp(argv[i], "--unpack-overlap")) {
            unpack_overlap = atof(argv[++i]);
        } else if (i + 1 < argc && !strcmp(argv[i], "--link-overlap")) {
            link_overlap = atof(argv[++i]);
        } else if (i + 1 < argc && !strcmp(argv[i], "--permuting-stores")) {
            permuting = atof(argv[++i]);
        } else if (i + 1 < argc && !strcmp(argv[i], "--atom")) {
            atom = atof(argv[++i]);
        } else {
            fprintf(stderr, "unknown argument %s\n", argv[i]);
            return 2;
        }
    }
    FILE* f = fopen(argv[1], "r");
    if (!f) {
        fprintf(stderr, "cannot read %s\n", argv[1]);
        return 1;
    }
    cuperm_handle_t h;
    memset(&h, 0, sizeof h);
    h.dev = (cuperm_device_info_t){0, 9, 0, 132, 50 << 20, 48 << 10, dram};
    cuperm_tuning_t tuning = *cuperm_tuning_for(&h.dev);
    if (unpack_overlap >= 0) tuning.dist_unpack_overlap = unpack_overlap;
    if (link_overlap >= 0) tuning.dist_link_overlap = link_overlap;
    if (permuting > 0) tuning.dist_permuting_store_rate = permuting;
    if (atom >= 0) tuning.transpose.model_dram_atom_bytes = (int)atom;
    h.tuning = &tuning;
    h.plan_cache = cuperm_plan_cache_create();
    cuperm_handle_read_env(&h);
    printf("case,rank,transport,variant,stages,pack_us,unpack_us,local_us,n_pack,n_unpack,sent,received,local_bytes,"
           "model_us,pack_kind,pack_in_run,pack_out_run,unpack_kind,unpack_in_run,unpack_out_run,pack_permuting,"
           "pack_in_sector_eff,pack_out_sector_eff\n");
    int id = 0, bad = 0, got;
    dist_case_t dc;
    while ((got = dist_case_next(f, &dc, &id)) != 0) {
        bad |= got < 0;
        if (got < 0) continue;
        bad |= price_case(&h, id++, &dc);
    }
    fclose(f);
    return bad;
}
