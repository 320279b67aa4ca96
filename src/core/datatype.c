#include "cuperm.h"

size_t cupermDataTypeSize(cupermDataType_t type)
{
    switch (type) {
    case CUPERM_R_8I:
    case CUPERM_R_8U: return 1;
    case CUPERM_R_16F:
    case CUPERM_R_16BF:
    case CUPERM_R_16I: return 2;
    case CUPERM_R_32F:
    case CUPERM_R_32I:
    case CUPERM_R_32U: return 4;
    case CUPERM_R_64F:
    case CUPERM_C_32F:
    case CUPERM_R_64I:
    case CUPERM_R_64U: return 8;
    case CUPERM_C_64F: return 16;
    }
    return 0;
}
