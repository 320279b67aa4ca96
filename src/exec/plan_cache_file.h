/* A handle's measured planning decisions saved to and loaded from a file
 * (core/plan_file.h's format): transposes planned with cupermPlanTransposeMeasure and
 * contractions planned with CUPERM_PLAN_MEASURE, so that another process on the same kind of
 * device plans them without measuring again. */
#ifndef CUPERM_EXEC_PLAN_CACHE_FILE_H
#define CUPERM_EXEC_PLAN_CACHE_FILE_H

#include "exec/handle.h"

/* Writes every measured decision of h to path; *written: how many (may be NULL). */
cupermStatus_t cuperm_plan_cache_file_write(cuperm_handle_t* h, const char* path, int* written);

/* Adds the decisions of path to h's caches; *read: how many. A file of another library
 * build, device or format, or a corrupt one, adds nothing: SUCCESS, *read = 0, and the
 * thread's message says why. A file that cannot be read: INVALID_VALUE. */
cupermStatus_t cuperm_plan_cache_file_read(cuperm_handle_t* h, const char* path, int* read);

#endif
