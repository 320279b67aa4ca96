#include "support/poison.h"

#include <stdlib.h>

#include "cuperm.h"

unsigned char poison_pattern_byte(size_t i) { return (unsigned char)(0x5a ^ (i * 0x9d + (i >> 8) * 0x31)); }

void poison_pattern(unsigned char* p, size_t bytes)
{
    for (size_t i = 0; i < bytes; ++i) p[i] = poison_pattern_byte(i);
}

cudaError_t poison_device(void* p, size_t bytes, cudaStream_t s) { return cudaMemsetAsync(p, POISON_BYTE, bytes, s); }

unsigned char* poison_element_mask(int rank, const int64_t* extents, const int64_t* strides, int64_t span)
{
    unsigned char* mask = calloc((size_t)span, 1);
    if (!mask) return NULL;
    int64_t idx[CUPERM_MAX_RANK] = {0}, stride[CUPERM_MAX_RANK], dense = 1;
    for (int i = 0; i < rank; ++i) {
        stride[i] = strides ? strides[i] : dense;
        dense *= extents[i];
    }
    for (;;) {
        int64_t off = 0;
        for (int i = 0; i < rank; ++i) off += idx[i] * stride[i];
        mask[off] = 1;
        int i = 0;
        while (i < rank && ++idx[i] == extents[i]) idx[i++] = 0;
        if (i == rank) break;
    }
    return mask;
}

int poison_changed_outside(const unsigned char* before, const unsigned char* after, size_t bytes, size_t origin,
                           size_t es, const unsigned char* mask, int64_t span, int64_t* where)
{
    for (size_t i = 0; i < bytes; ++i) {
        if (before[i] == after[i]) continue;
        const int64_t rel = (int64_t)i - (int64_t)origin;
        if (mask && rel >= 0 && rel / (int64_t)es < span && mask[rel / (int64_t)es]) continue;
        *where = rel;
        return 1;
    }
    return 0;
}
