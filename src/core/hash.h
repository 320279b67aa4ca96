/* The one byte-block hash of the library: FNV-1a over 8-byte words (each step's product folded
 * down, as a word multiply leaves the low bits weak), then the tail bytes. Keys run to kilobytes
 * (a contraction's problem is ~5 KB), so words, not bytes. Every step is a bijection of the state
 * given its input, so any change to one word changes the result: also the plan-cache file's
 * checksum (core/plan_file.c). */
#ifndef CUPERM_CORE_HASH_H
#define CUPERM_CORE_HASH_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

static inline uint64_t cuperm_hash_bytes(const void* p, size_t n)
{
    const unsigned char* b = p;
    uint64_t h = 0xcbf29ce484222325ull;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, b + i, 8);
        h = (h ^ w) * 0x100000001b3ull;
        h ^= h >> 29;
    }
    for (; i < n; ++i) h = (h ^ b[i]) * 0x100000001b3ull;
    return h;
}

#endif
