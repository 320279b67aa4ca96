#include "core/tuning.h"

#include <stddef.h>

/* Per SM: the reference part's dense peak divided by its SM count (H100 SXM: 132 SMs,
 * A100: 108). fp64 GEMMs run on the fp64 tensor cores of both. */
static const cuperm_tuning_t tables[] = {
    {"sm_90 (H100 measurements)", 1, 9, {67e12 / 132, 67e12 / 132, 495e12 / 132, 989e12 / 132}, 0.90},
    {"sm_80 (A100 datasheet rates)", 1, 8, {19.5e12 / 108, 19.5e12 / 108, 156e12 / 108, 312e12 / 108}, 0.90},
};

/* Anything else (sm_75, sm_89, sm_100, ...): Ampere's per-SM rates, the most conservative
 * family measured, so the model never promises GEMM speed a device may not have. */
static const cuperm_tuning_t fallback = {"defaults (untuned architecture: A100 per-SM rates)", 0, 0,
                                         {19.5e12 / 108, 19.5e12 / 108, 156e12 / 108, 312e12 / 108}, 0.90};

const cuperm_tuning_t* cuperm_tuning_for(const cuperm_device_info_t* dev)
{
    for (size_t i = 0; i < sizeof tables / sizeof tables[0]; ++i)
        if (tables[i].cc_major == dev->cc_major) return &tables[i];
    return &fallback;
}
