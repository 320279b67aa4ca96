#include "support/dtype.h"

#include <stdint.h>
#include <string.h>

/* Short name, enum name (CUPERM_ dropped), bytes; floating types: kind and IEEE layout. */
#define IEEE(name, e, size, kind, exp, man) {#name, #e, CUPERM_##e, size, kind, exp, man}
#define INTEGER(name, e, size) {#name, #e, CUPERM_##e, size, DTYPE_INT, 0, 0}

/* cuperm-bench lists and matches the types in this order. */
static const dtype_info k_types[] = {
    IEEE(f64, R_64F, 8, DTYPE_FLOAT, 11, 52),
    IEEE(f32, R_32F, 4, DTYPE_FLOAT, 8, 23),
    IEEE(f16, R_16F, 2, DTYPE_FLOAT, 5, 10),
    IEEE(bf16, R_16BF, 2, DTYPE_FLOAT, 8, 7),
    IEEE(c64, C_64F, 16, DTYPE_COMPLEX, 11, 52),
    IEEE(c32, C_32F, 8, DTYPE_COMPLEX, 8, 23),
    INTEGER(i64, R_64I, 8),
    INTEGER(u64, R_64U, 8),
    INTEGER(i32, R_32I, 4),
    INTEGER(u32, R_32U, 4),
    INTEGER(i16, R_16I, 2),
    INTEGER(i8, R_8I, 1),
    INTEGER(u8, R_8U, 1),
};
#define NUM_TYPES ((int)(sizeof k_types / sizeof k_types[0]))

const cupermDataType_t dtype_all[] = {CUPERM_R_8I,  CUPERM_R_8U,  CUPERM_R_16I, CUPERM_R_16F, CUPERM_R_16BF,
                                      CUPERM_R_32F, CUPERM_R_32I, CUPERM_R_32U, CUPERM_R_64F, CUPERM_R_64I,
                                      CUPERM_R_64U, CUPERM_C_32F, CUPERM_C_64F};
const int dtype_count = NUM_TYPES;

const dtype_info* dtype_find(const char* name)
{
    for (int i = 0; i < NUM_TYPES; ++i)
        if (strcmp(k_types[i].name, name) == 0 || strcmp(k_types[i].enum_name, name) == 0) return &k_types[i];
    return NULL;
}

const dtype_info* dtype_of(cupermDataType_t type)
{
    for (int i = 0; i < NUM_TYPES; ++i)
        if (k_types[i].type == type) return &k_types[i];
    return NULL;
}

const char* dtype_enum_name(cupermDataType_t type)
{
    const dtype_info* t = dtype_of(type);
    return t ? t->enum_name : "?";
}

const char* dtype_names(void)
{
    static char names[NUM_TYPES * 8];
    if (!names[0]) {
        size_t n = 0;
        for (int i = 0; i < NUM_TYPES; ++i) {
            const size_t len = strlen(k_types[i].name);
            if (i) memcpy(names + n, ", ", 2), n += 2;
            memcpy(names + n, k_types[i].name, len);
            n += len;
        }
        names[n] = '\0';
    }
    return names;
}

size_t dtype_size(cupermDataType_t type)
{
    const dtype_info* t = dtype_of(type);
    return t ? t->size : 0;
}

size_t dtype_scalar_size(cupermDataType_t type)
{
    const dtype_info* t = dtype_of(type);
    if (!t) return 0;
    return t->kind == DTYPE_FLOAT && t->size == 2 ? 4 : t->size;
}

int dtype_is_float(cupermDataType_t type)
{
    const dtype_info* t = dtype_of(type);
    return t && t->kind != DTYPE_INT;
}

int dtype_is_complex(cupermDataType_t type)
{
    const dtype_info* t = dtype_of(type);
    return t && t->kind == DTYPE_COMPLEX;
}

void dtype_scalar(cupermDataType_t type, double value, unsigned char buf[16])
{
    memset(buf, 0, 16);
    switch (type) {
    case CUPERM_R_16F:
    case CUPERM_R_16BF:
    case CUPERM_R_32F:
    case CUPERM_C_32F: {
        float f = (float)value;
        memcpy(buf, &f, sizeof f);
        break;
    }
    case CUPERM_R_64F:
    case CUPERM_C_64F:
        memcpy(buf, &value, sizeof value);
        break;
    case CUPERM_R_8I: { int8_t v = (int8_t)value; memcpy(buf, &v, 1); break; }
    case CUPERM_R_8U: { uint8_t v = (uint8_t)value; memcpy(buf, &v, 1); break; }
    case CUPERM_R_16I: { int16_t v = (int16_t)value; memcpy(buf, &v, 2); break; }
    case CUPERM_R_32I: { int32_t v = (int32_t)value; memcpy(buf, &v, 4); break; }
    case CUPERM_R_32U: { uint32_t v = (uint32_t)value; memcpy(buf, &v, 4); break; }
    case CUPERM_R_64I: { int64_t v = (int64_t)value; memcpy(buf, &v, 8); break; }
    case CUPERM_R_64U: { uint64_t v = (uint64_t)value; memcpy(buf, &v, 8); break; }
    }
}
