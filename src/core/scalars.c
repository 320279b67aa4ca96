#include "core/scalars.h"

#include <string.h>

size_t cuperm_scalar_size(cupermDataType_t type)
{
    if (type == CUPERM_R_16F || type == CUPERM_R_16BF) return sizeof(float);
    return cupermDataTypeSize(type);
}

/* Whether the scalar v equals the real value x (0 or 1), tested in the scalar's own type so that
 * -0.0 counts as zero; a complex scalar's imaginary part must be zero. */
static int equals(cupermDataType_t type, const void* v, int x)
{
    switch (type) {
    case CUPERM_R_16F:
    case CUPERM_R_16BF:
    case CUPERM_R_32F: return *(const float*)v == (float)x;
    case CUPERM_R_64F: return *(const double*)v == (double)x;
    case CUPERM_C_32F: return ((const float*)v)[0] == (float)x && ((const float*)v)[1] == 0.0f;
    case CUPERM_C_64F: return ((const double*)v)[0] == (double)x && ((const double*)v)[1] == 0.0;
    case CUPERM_R_8I:
    case CUPERM_R_8U: return *(const uint8_t*)v == (uint8_t)x;
    case CUPERM_R_16I: return *(const uint16_t*)v == (uint16_t)x;
    case CUPERM_R_32I:
    case CUPERM_R_32U: return *(const uint32_t*)v == (uint32_t)x;
    case CUPERM_R_64I:
    case CUPERM_R_64U: return *(const uint64_t*)v == (uint64_t)x;
    }
    return x == 0; /* not a data type: no bytes to read, so it reads as zero */
}

void cuperm_read_scalars(cupermDataType_t type, const void* alpha, const void* beta,
                         cuperm_scalars_t* s)
{
    size_t n = cuperm_scalar_size(type);
    memset(s, 0, sizeof *s);
    memcpy(s->alpha, alpha, n);
    memcpy(s->beta, beta, n);
    s->use_beta = !equals(type, beta, 0);
    s->plain = !s->use_beta && equals(type, alpha, 1);
}

void cuperm_scalars_set_ops(cuperm_scalars_t* s, const cuperm_ops_t* ops)
{
    s->has_ops = ops && (ops->in != CUPERM_OP_IDENTITY || ops->c != CUPERM_OP_IDENTITY ||
                         ops->out != CUPERM_OP_IDENTITY);
    if (!s->has_ops) return;
    s->ops = *ops;
    s->plain = 0;
}
