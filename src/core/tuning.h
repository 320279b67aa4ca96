/*
 * Tuning as per-architecture data: what the planners assume of a device family,
 * chosen once per handle from the compute capability (cupermCreate). Numbers are
 * measurements or datasheet rates of the family's reference part, scaled by the
 * device's own SM count and memory bandwidth where they apply; an architecture
 * with no entry gets the documented defaults and says so (name, tuned = 0), and
 * plan infos report which table planned them.
 */
#ifndef CUPERM_CORE_TUNING_H
#define CUPERM_CORE_TUNING_H

#include "core/device_info.h"

/* GEMM units, as the contraction cost model indexes them. */
enum { CUPERM_RATE_FP64 = 0, CUPERM_RATE_FP32 = 1, CUPERM_RATE_TF32 = 2, CUPERM_RATE_FP16 = 3, CUPERM_RATES = 4 };

typedef struct {
    const char* name;                       /* e.g. "sm_90 (H100 measurements)" */
    int tuned;                              /* 0: defaults for an architecture nobody measured */
    int cc_major;                           /* the family (compute capability major) it was made for */
    double gemm_flops_per_sm[CUPERM_RATES]; /* dense GEMM peak per SM, FLOP/s */
    double copy_efficiency;                 /* fraction of the theoretical DRAM bandwidth a copy reaches */
} cuperm_tuning_t;

/** The table for a device (never NULL: unknown families get the defaults). */
const cuperm_tuning_t* cuperm_tuning_for(const cuperm_device_info_t* dev);

#endif
