/* LibreTT entry points (include/librett.h) on top of cuperm. */
#include "librett.h"

#include "tt_core.h"

void librettInitialize(void) {}
void librettFinalize(void) {}

librettResult librettPlan(librettHandle* handle, int rank, int* dim, int* permutation, size_t sizeofType,
                          librett_gpuStream_t stream)
{
    return (librettResult)tt_plan("librettPlan", handle, rank, dim, permutation, sizeofType, stream, 0, NULL,
                                  NULL);
}

librettResult librettPlanMeasure(librettHandle* handle, int rank, int* dim, int* permutation, size_t sizeofType,
                                 librett_gpuStream_t stream, void* idata, void* odata)
{
    return (librettResult)tt_plan("librettPlanMeasure", handle, rank, dim, permutation, sizeofType, stream, 1,
                                  idata, odata);
}

librettResult librettDestroy(librettHandle handle) { return (librettResult)tt_destroy("librettDestroy", handle); }

librettResult librettExecute(librettHandle handle, void* idata, void* odata)
{
    return (librettResult)tt_execute("librettExecute", handle, idata, odata);
}

const char* librettGetLastErrorMessage(void) { return tt_last_error(); }
