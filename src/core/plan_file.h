/*
 * The plan-cache file format (plain C, no device): what cupermHandleWritePlanCache writes and
 * cupermHandleReadPlanCache reads. Layout, little-endian as the host writes it:
 *   "CUPERMPC" | u32 format version | u32 key length | key (the writer's identity: library
 *   version, device, tuning table, record sizes) | sections: u32 id, u32 key bytes, u32 value
 *   bytes, u32 count, then count x (key, value) | u64 hash (core/hash.h) of everything before it.
 * A reader accepts a file only if magic, version, key and checksum all match; otherwise it
 * says why (a foreign file: another library version, device or build; a corrupt one).
 */
#ifndef CUPERM_CORE_PLAN_FILE_H
#define CUPERM_CORE_PLAN_FILE_H

#include <stddef.h>
#include <stdint.h>

#define CUPERM_PLAN_FILE_VERSION 1u

/* A growing byte buffer being written. */
typedef struct {
    unsigned char* data;
    size_t size, capacity;
    int failed; /* an allocation failed: the buffer is unusable */
    size_t countAt; /* where the open section's count is */
} cuperm_plan_file_writer_t;

void cuperm_plan_file_begin(cuperm_plan_file_writer_t* w, const char* key);
/* Starts a section of records of keyBytes + valueBytes; cuperm_plan_file_record adds one. */
void cuperm_plan_file_section(cuperm_plan_file_writer_t* w, uint32_t id, uint32_t keyBytes, uint32_t valueBytes);
void cuperm_plan_file_record(cuperm_plan_file_writer_t* w, const void* key, const void* value);
/* Appends the checksum; returns 0 (w->data holds the file, w->size bytes) or -1 (out of memory). */
int cuperm_plan_file_end(cuperm_plan_file_writer_t* w);
void cuperm_plan_file_writer_free(cuperm_plan_file_writer_t* w);

typedef struct {
    const unsigned char* data;
    size_t size, at, end; /* end: where the checksum starts */
} cuperm_plan_file_reader_t;

/* Checks magic, version, key and checksum of data[0, size). 0: ok (r positioned at the first
 * section); -1: not accepted, with the reason in why. */
int cuperm_plan_file_open(cuperm_plan_file_reader_t* r, const unsigned char* data, size_t size, const char* key,
                          char* why, size_t whySize);
/* The next section's header: 1, 0 at the end, -1 if it runs past the data (why set). Its
 * records follow: count x (keyBytes + valueBytes) bytes, read with cuperm_plan_file_next. */
int cuperm_plan_file_section_next(cuperm_plan_file_reader_t* r, uint32_t* id, uint32_t* keyBytes,
                                  uint32_t* valueBytes, uint32_t* count, char* why, size_t whySize);
/* The next record of the current section: pointers into the data (unaligned: memcpy them). */
void cuperm_plan_file_next(cuperm_plan_file_reader_t* r, uint32_t keyBytes, uint32_t valueBytes, const void** key,
                           const void** value);

uint64_t cuperm_plan_file_checksum(const unsigned char* data, size_t size);

#endif
