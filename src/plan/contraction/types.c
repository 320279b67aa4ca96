#include "plan/contraction/types.h"
#include "core/error.h"

int cuperm_ctr_type_is_complex(cupermDataType_t t) { return t == CUPERM_C_32F || t == CUPERM_C_64F; }

int cuperm_ctr_type_is_float(cupermDataType_t t)
{
    switch (t) {
    case CUPERM_R_16F: case CUPERM_R_16BF: case CUPERM_R_32F: case CUPERM_R_64F:
    case CUPERM_C_32F: case CUPERM_C_64F: return 1;
    default: return 0;
    }
}

const char* cuperm_ctr_type_name(cupermDataType_t t)
{
    switch (t) {
    case CUPERM_R_16F: return "R_16F";
    case CUPERM_R_16BF: return "R_16BF";
    case CUPERM_R_32F: return "R_32F";
    case CUPERM_R_64F: return "R_64F";
    case CUPERM_C_32F: return "C_32F";
    case CUPERM_C_64F: return "C_64F";
    case CUPERM_R_8I: return "R_8I";
    case CUPERM_R_8U: return "R_8U";
    case CUPERM_R_16I: return "R_16I";
    case CUPERM_R_32I: return "R_32I";
    case CUPERM_R_32U: return "R_32U";
    case CUPERM_R_64I: return "R_64I";
    case CUPERM_R_64U: return "R_64U";
    }
    return "unknown type";
}

const char* cuperm_ctr_compute_name(cupermComputeType_t c)
{
    switch (c) {
    case CUPERM_COMPUTE_DEFAULT: return "DEFAULT";
    case CUPERM_COMPUTE_16F: return "16F";
    case CUPERM_COMPUTE_32F: return "32F";
    case CUPERM_COMPUTE_64F: return "64F";
    case CUPERM_COMPUTE_32F_FAST_TF32: return "32F_FAST_TF32";
    case CUPERM_COMPUTE_32F_FAST_16F: return "32F_FAST_16F";
    case CUPERM_COMPUTE_32F_FAST_16BF: return "32F_FAST_16BF";
    }
    return "unknown compute type";
}

size_t cuperm_ctr_scalar_size(cupermDataType_t cdType)
{
    switch (cdType) {
    case CUPERM_R_64F: case CUPERM_C_32F: return 8;
    case CUPERM_C_64F: return 16;
    default: return 4;
    }
}

/* One accepted (A/B, C/D) pair: its strict compute type and the others it allows. */
typedef struct {
    cupermDataType_t ab, cd;
    cupermComputeType_t strict;
    unsigned allowed; /* bit per cupermComputeType_t */
} type_rule;

#define BIT(c) (1u << (c))
static const type_rule rules[] = {
    {CUPERM_R_32F, CUPERM_R_32F, CUPERM_COMPUTE_32F,
     BIT(CUPERM_COMPUTE_32F) | BIT(CUPERM_COMPUTE_32F_FAST_TF32) | BIT(CUPERM_COMPUTE_32F_FAST_16F) |
         BIT(CUPERM_COMPUTE_32F_FAST_16BF)},
    {CUPERM_C_32F, CUPERM_C_32F, CUPERM_COMPUTE_32F,
     BIT(CUPERM_COMPUTE_32F) | BIT(CUPERM_COMPUTE_32F_FAST_TF32) | BIT(CUPERM_COMPUTE_32F_FAST_16F) |
         BIT(CUPERM_COMPUTE_32F_FAST_16BF)},
    {CUPERM_R_64F, CUPERM_R_64F, CUPERM_COMPUTE_64F, BIT(CUPERM_COMPUTE_64F)},
    {CUPERM_C_64F, CUPERM_C_64F, CUPERM_COMPUTE_64F, BIT(CUPERM_COMPUTE_64F)},
    {CUPERM_R_16F, CUPERM_R_16F, CUPERM_COMPUTE_32F, BIT(CUPERM_COMPUTE_32F) | BIT(CUPERM_COMPUTE_16F)},
    {CUPERM_R_16F, CUPERM_R_32F, CUPERM_COMPUTE_32F, BIT(CUPERM_COMPUTE_32F)},
    {CUPERM_R_16BF, CUPERM_R_16BF, CUPERM_COMPUTE_32F, BIT(CUPERM_COMPUTE_32F)},
    {CUPERM_R_16BF, CUPERM_R_32F, CUPERM_COMPUTE_32F, BIT(CUPERM_COMPUTE_32F)},
};
#undef BIT

cupermStatus_t cuperm_ctr_types_resolve(cupermDataType_t abType, cupermDataType_t cdType,
                                 cupermComputeType_t requested, cupermComputeType_t* resolved)
{
    if ((unsigned)requested > CUPERM_COMPUTE_32F_FAST_16BF)
        return cuperm_fail_in("cupermPlanContraction", CUPERM_STATUS_INVALID_VALUE, "compute type %d is not a cupermComputeType_t",
                        (int)requested);
    for (size_t i = 0; i < sizeof rules / sizeof rules[0]; ++i) {
        if (rules[i].ab != abType || rules[i].cd != cdType) continue;
        cupermComputeType_t c = requested == CUPERM_COMPUTE_DEFAULT ? rules[i].strict : requested;
        if (!(rules[i].allowed & (1u << c)))
            return cuperm_fail_in("cupermPlanContraction", CUPERM_STATUS_NOT_SUPPORTED,
                            "compute type %s is not supported for A/B type %s with C/D type %s",
                            cuperm_ctr_compute_name(requested), cuperm_ctr_type_name(abType), cuperm_ctr_type_name(cdType));
        *resolved = c;
        return CUPERM_STATUS_SUCCESS;
    }
    return cuperm_fail_in("cupermPlanContraction", CUPERM_STATUS_NOT_SUPPORTED,
                    "the type pair A/B %s, C/D %s is not supported (supported: 32F/32F, C32F/C32F, "
                    "64F/64F, C64F/C64F, 16F/16F, 16F/32F, 16BF/16BF, 16BF/32F)",
                    cuperm_ctr_type_name(abType), cuperm_ctr_type_name(cdType));
}
