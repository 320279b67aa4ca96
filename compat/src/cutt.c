/* cuTT entry points (include/cutt.h) on top of cuperm. */
#include "cutt.h"

#include "tt_core.h"

void cuttInitialize(void) {}
void cuttFinalize(void) {}

cuttResult cuttPlan(cuttHandle* handle, int rank, int* dim, int* permutation, size_t sizeofType,
                    cudaStream_t stream)
{
    return (cuttResult)tt_plan("cuttPlan", handle, rank, dim, permutation, sizeofType, stream, 0, NULL, NULL);
}

cuttResult cuttPlanMeasure(cuttHandle* handle, int rank, int* dim, int* permutation, size_t sizeofType,
                           cudaStream_t stream, void* idata, void* odata)
{
    return (cuttResult)tt_plan("cuttPlanMeasure", handle, rank, dim, permutation, sizeofType, stream, 1, idata,
                               odata);
}

cuttResult cuttDestroy(cuttHandle handle) { return (cuttResult)tt_destroy("cuttDestroy", handle); }

cuttResult cuttExecute(cuttHandle handle, void* idata, void* odata)
{
    return (cuttResult)tt_execute("cuttExecute", handle, idata, odata);
}

const char* cuttGetLastErrorMessage(void) { return tt_last_error(); }
