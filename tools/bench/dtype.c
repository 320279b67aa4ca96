#include "dtype.h"

#include <stdint.h>
#include <string.h>

static const bench_dtype k_types[] = {
    {"f64", CUPERM_R_64F, 8, BENCH_KIND_FLOAT, 11, 52},
    {"f32", CUPERM_R_32F, 4, BENCH_KIND_FLOAT, 8, 23},
    {"f16", CUPERM_R_16F, 2, BENCH_KIND_FLOAT, 5, 10},
    {"bf16", CUPERM_R_16BF, 2, BENCH_KIND_FLOAT, 8, 7},
    {"c64", CUPERM_C_64F, 16, BENCH_KIND_COMPLEX, 11, 52},
    {"c32", CUPERM_C_32F, 8, BENCH_KIND_COMPLEX, 8, 23},
    {"i64", CUPERM_R_64I, 8, BENCH_KIND_INT, 0, 0},
    {"u64", CUPERM_R_64U, 8, BENCH_KIND_INT, 0, 0},
    {"i32", CUPERM_R_32I, 4, BENCH_KIND_INT, 0, 0},
    {"u32", CUPERM_R_32U, 4, BENCH_KIND_INT, 0, 0},
    {"i16", CUPERM_R_16I, 2, BENCH_KIND_INT, 0, 0},
    {"i8", CUPERM_R_8I, 1, BENCH_KIND_INT, 0, 0},
    {"u8", CUPERM_R_8U, 1, BENCH_KIND_INT, 0, 0},
};

const bench_dtype* bench_dtype_find(const char* name)
{
    for (size_t i = 0; i < sizeof k_types / sizeof k_types[0]; ++i)
        if (strcmp(k_types[i].name, name) == 0) return &k_types[i];
    return NULL;
}

const char* bench_dtype_names(void)
{
    return "f64, f32, f16, bf16, c64, c32, i64, u64, i32, u32, i16, i8, u8";
}

void bench_dtype_scalar(const bench_dtype* t, double value, unsigned char buf[16])
{
    memset(buf, 0, 16);
    switch (t->type) {
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
