/* The plan-cache file format (see plan_file.h). */
#include "core/plan_file.h"

#include "core/hash.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char kMagic[8] = {'C', 'U', 'P', 'E', 'R', 'M', 'P', 'C'};

uint64_t cuperm_plan_file_checksum(const unsigned char* data, size_t size) { return cuperm_hash_bytes(data, size); }

static void put(cuperm_plan_file_writer_t* w, const void* p, size_t n)
{
    if (w->failed) return;
    if (w->size + n > w->capacity) {
        size_t cap = w->capacity ? w->capacity : 4096;
        while (cap < w->size + n) cap *= 2;
        unsigned char* d = realloc(w->data, cap);
        if (!d) {
            w->failed = 1;
            return;
        }
        w->data = d;
        w->capacity = cap;
    }
    memcpy(w->data + w->size, p, n);
    w->size += n;
}

static void put32(cuperm_plan_file_writer_t* w, uint32_t v) { put(w, &v, sizeof v); }

void cuperm_plan_file_begin(cuperm_plan_file_writer_t* w, const char* key)
{
    memset(w, 0, sizeof *w);
    w->countAt = (size_t)-1;
    put(w, kMagic, sizeof kMagic);
    put32(w, CUPERM_PLAN_FILE_VERSION);
    const size_t n = strlen(key);
    put32(w, (uint32_t)n);
    put(w, key, n);
}

void cuperm_plan_file_section(cuperm_plan_file_writer_t* w, uint32_t id, uint32_t keyBytes, uint32_t valueBytes)
{
    put32(w, id);
    put32(w, keyBytes);
    put32(w, valueBytes);
    w->countAt = w->size;
    put32(w, 0);
}

void cuperm_plan_file_record(cuperm_plan_file_writer_t* w, const void* key, const void* value)
{
    uint32_t kb, vb, count;
    if (w->failed || w->countAt == (size_t)-1) return;
    memcpy(&kb, w->data + w->countAt - 8, 4);
    memcpy(&vb, w->data + w->countAt - 4, 4);
    put(w, key, kb);
    put(w, value, vb);
    if (w->failed) return;
    memcpy(&count, w->data + w->countAt, 4);
    ++count;
    memcpy(w->data + w->countAt, &count, 4);
}

int cuperm_plan_file_end(cuperm_plan_file_writer_t* w)
{
    const uint64_t sum = w->failed ? 0 : cuperm_plan_file_checksum(w->data, w->size);
    put(w, &sum, sizeof sum);
    return w->failed ? -1 : 0;
}

void cuperm_plan_file_writer_free(cuperm_plan_file_writer_t* w)
{
    free(w->data);
    memset(w, 0, sizeof *w);
}

static int get32(cuperm_plan_file_reader_t* r, uint32_t* v)
{
    if (r->end - r->at < sizeof *v) return -1;
    memcpy(v, r->data + r->at, sizeof *v);
    r->at += sizeof *v;
    return 0;
}

int cuperm_plan_file_open(cuperm_plan_file_reader_t* r, const unsigned char* data, size_t size, const char* key,
                          char* why, size_t whySize)
{
    memset(r, 0, sizeof *r);
    r->data = data;
    r->size = size;
    uint32_t version, keyLength;
    if (size < sizeof kMagic + 8 + 8 || memcmp(data, kMagic, sizeof kMagic)) {
        snprintf(why, whySize, "not a cuperm plan-cache file");
        return -1;
    }
    r->end = size - 8;
    r->at = sizeof kMagic;
    uint64_t sum;
    memcpy(&sum, data + r->end, sizeof sum);
    if (get32(r, &version) || version != CUPERM_PLAN_FILE_VERSION) {
        snprintf(why, whySize, "file format version %u, this library reads %u", version, CUPERM_PLAN_FILE_VERSION);
        return -1;
    }
    if (sum != cuperm_plan_file_checksum(data, r->end)) {
        snprintf(why, whySize, "corrupt (checksum mismatch)");
        return -1;
    }
    const size_t n = strlen(key);
    if (get32(r, &keyLength) || keyLength > r->end - r->at) {
        snprintf(why, whySize, "corrupt (key runs past the end)");
        return -1;
    }
    if (keyLength != n || memcmp(data + r->at, key, n)) {
        snprintf(why, whySize, "written for another library build or device: \"%.*s\" (this one: \"%s\")",
                 (int)(keyLength < 200 ? keyLength : 200), (const char*)data + r->at, key);
        return -1;
    }
    r->at += keyLength;
    return 0;
}

int cuperm_plan_file_section_next(cuperm_plan_file_reader_t* r, uint32_t* id, uint32_t* keyBytes,
                                  uint32_t* valueBytes, uint32_t* count, char* why, size_t whySize)
{
    if (r->at == r->end) return 0;
    if (get32(r, id) || get32(r, keyBytes) || get32(r, valueBytes) || get32(r, count)) {
        snprintf(why, whySize, "corrupt (a section header runs past the end)");
        return -1;
    }
    const uint64_t bytes = (uint64_t)*count * ((uint64_t)*keyBytes + *valueBytes);
    if (bytes > r->end - r->at) {
        snprintf(why, whySize, "corrupt (section %u runs past the end)", *id);
        return -1;
    }
    return 1;
}

void cuperm_plan_file_next(cuperm_plan_file_reader_t* r, uint32_t keyBytes, uint32_t valueBytes, const void** key,
                           const void** value)
{
    *key = r->data + r->at;
    *value = r->data + r->at + keyBytes;
    r->at += (size_t)keyBytes + valueBytes;
}
