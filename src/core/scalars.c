#include "core/scalars.h"

#include <string.h>

size_t cuperm_scalar_size(cupermDataType_t type)
{
    if (type == CUPERM_R_16F || type == CUPERM_R_16BF) return sizeof(float);
    return cupermDataTypeSize(type);
}

/* Value tests in the scalar's own type, so that -0.0 counts as zero. */
static int is_zero(cupermDataType_t type, const void* v)
{
    switch (type) {
    case CUPERM_R_16F:
    case CUPERM_R_16BF:
    case CUPERM_R_32F: return *(const float*)v == 0.0f;
    case CUPERM_R_64F: return *(const double*)v == 0.0;
    case CUPERM_C_32F: return ((const float*)v)[0] == 0.0f && ((const float*)v)[1] == 0.0f;
    case CUPERM_C_64F: return ((const double*)v)[0] == 0.0 && ((const double*)v)[1] == 0.0;
    default: {
        const unsigned char* b = v;
        for (size_t i = 0; i < cupermDataTypeSize(type); ++i)
            if (b[i]) return 0;
        return 1;
    }
    }
}

static int is_one(cupermDataType_t type, const void* v)
{
    switch (type) {
    case CUPERM_R_16F:
    case CUPERM_R_16BF:
    case CUPERM_R_32F: return *(const float*)v == 1.0f;
    case CUPERM_R_64F: return *(const double*)v == 1.0;
    case CUPERM_C_32F: return ((const float*)v)[0] == 1.0f && ((const float*)v)[1] == 0.0f;
    case CUPERM_C_64F: return ((const double*)v)[0] == 1.0 && ((const double*)v)[1] == 0.0;
    case CUPERM_R_8I:
    case CUPERM_R_8U: return *(const uint8_t*)v == 1;
    case CUPERM_R_16I: return *(const int16_t*)v == 1;
    case CUPERM_R_32I:
    case CUPERM_R_32U: return *(const uint32_t*)v == 1;
    case CUPERM_R_64I:
    case CUPERM_R_64U: return *(const uint64_t*)v == 1;
    }
    return 0;
}

void cuperm_read_scalars(cupermDataType_t type, const void* alpha, const void* beta,
                         cuperm_scalars_t* s)
{
    size_t n = cuperm_scalar_size(type);
    memset(s, 0, sizeof *s);
    memcpy(s->alpha, alpha, n);
    memcpy(s->beta, beta, n);
    s->use_beta = !is_zero(type, beta);
    s->plain = !s->use_beta && is_one(type, alpha);
}

void cuperm_scalars_set_ops(cuperm_scalars_t* s, const cuperm_ops_t* ops)
{
    s->has_ops = ops && (ops->in != CUPERM_OP_IDENTITY || ops->c != CUPERM_OP_IDENTITY ||
                         ops->out != CUPERM_OP_IDENTITY);
    if (!s->has_ops) return;
    s->ops = *ops;
    s->plain = 0;
}
