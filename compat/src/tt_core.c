/* Handle table, device handles and cuperm calls behind cutt.c and librett.c. */
#include "tt_core.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "cuperm.h"

/* Handles pack a slot index (low bits, +1 so 0 is never a handle) and the slot's
 * generation (high bits), so a destroyed handle is recognised even if its slot is reused. */
#define SLOT_BITS 20u
#define SLOT_MASK ((1u << SLOT_BITS) - 1u)
#define MAX_SLOTS (SLOT_MASK - 1u)
#define MAX_DEVICES 64

typedef struct {
    cupermPlan_t plan;    /* NULL when the slot is free */
    int device;
    cudaStream_t stream;
    cupermDataType_t type;
    unsigned generation;
} slot_t;

static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;
static slot_t* slots;
static unsigned slot_count, slot_capacity;
static cupermHandle_t device_handles[MAX_DEVICES];

static _Thread_local char last_error[512];

static tt_result fail(tt_result r, const char* fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(last_error, sizeof last_error, fmt, ap);
    va_end(ap);
    return r;
}

const char* tt_last_error(void) { return last_error; }

/* A failed cuperm call in cuTT's terms, keeping cuperm's message. */
static tt_result from_cuperm(const char* api, cupermStatus_t st)
{
    tt_result r = st == CUPERM_STATUS_INVALID_VALUE || st == CUPERM_STATUS_NOT_SUPPORTED ? TT_INVALID_PARAMETER
                : st == CUPERM_STATUS_ARCH_MISMATCH ? TT_INVALID_DEVICE
                : TT_INTERNAL_ERROR;
    return fail(r, "%s: %s: %s", api, cupermGetErrorString(st), cupermGetLastErrorMessage());
}

/* cuTT moves elements as opaque bits: integer types copy them exactly. */
static int type_of_size(size_t elem_size, cupermDataType_t* type)
{
    switch (elem_size) {
    case 1: *type = CUPERM_R_8U; return 1;
    case 2: *type = CUPERM_R_16I; return 1;
    case 4: *type = CUPERM_R_32I; return 1;
    case 8: *type = CUPERM_R_64I; return 1;
    default: return 0;
    }
}

static tt_result check_args(const char* api, const unsigned* handle, int rank, const int* dim,
                            const int* perm, size_t elem_size)
{
    if (!handle) return fail(TT_INVALID_PARAMETER, "%s: handle is NULL", api);
    if (rank < 1 || rank > CUPERM_MAX_RANK)
        return fail(TT_INVALID_PARAMETER, "%s: rank = %d: it must be between 1 and %d", api, rank,
                    CUPERM_MAX_RANK);
    if (!dim) return fail(TT_INVALID_PARAMETER, "%s: dim is NULL", api);
    if (!perm) return fail(TT_INVALID_PARAMETER, "%s: permutation is NULL", api);
    unsigned seen[(CUPERM_MAX_RANK + 31) / 32] = {0};
    for (int i = 0; i < rank; ++i) {
        if (dim[i] < 1) return fail(TT_INVALID_PARAMETER, "%s: dim[%d] = %d: extents must be >= 1", api, i, dim[i]);
        if (perm[i] < 0 || perm[i] >= rank)
            return fail(TT_INVALID_PARAMETER, "%s: permutation[%d] = %d: entries must be in [0, %d)", api, i,
                        perm[i], rank);
        if (seen[perm[i] / 32] & (1u << (perm[i] % 32)))
            return fail(TT_INVALID_PARAMETER, "%s: permutation[%d] = %d repeats: it must be a permutation",
                        api, i, perm[i]);
        seen[perm[i] / 32] |= 1u << (perm[i] % 32);
    }
    cupermDataType_t type;
    if (!type_of_size(elem_size, &type))
        return fail(TT_INVALID_PARAMETER, "%s: sizeofType = %zu: it must be 1, 2, 4 or 8 bytes", api, elem_size);
    return TT_SUCCESS;
}

/* The cuperm handle of the current device, created on first use. Caller holds table_lock. */
static tt_result device_handle(const char* api, int* device, cupermHandle_t* handle)
{
    cudaError_t err = cudaGetDevice(device);
    if (err != cudaSuccess)
        return fail(TT_INTERNAL_ERROR, "%s: cudaGetDevice failed: %s", api, cudaGetErrorString(err));
    if (*device < 0 || *device >= MAX_DEVICES)
        return fail(TT_INVALID_DEVICE, "%s: device %d is beyond the %d this layer serves", api, *device,
                    MAX_DEVICES);
    if (!device_handles[*device]) {
        cupermStatus_t st = cupermCreate(&device_handles[*device]);
        if (st) return from_cuperm(api, st);
    }
    *handle = device_handles[*device];
    return TT_SUCCESS;
}

/* A free slot index, growing the table if needed. Caller holds table_lock. */
static tt_result free_slot(const char* api, unsigned* index)
{
    for (unsigned i = 0; i < slot_count; ++i)
        if (!slots[i].plan) { *index = i; return TT_SUCCESS; }
    if (slot_count == MAX_SLOTS)
        return fail(TT_INTERNAL_ERROR, "%s: more than %u live plans", api, MAX_SLOTS);
    if (slot_count == slot_capacity) {
        unsigned cap = slot_capacity ? 2 * slot_capacity : 64;
        slot_t* grown = realloc(slots, cap * sizeof *grown);
        if (!grown) return fail(TT_INTERNAL_ERROR, "%s: out of host memory", api);
        slots = grown;
        slot_capacity = cap;
    }
    slots[slot_count] = (slot_t){0};
    *index = slot_count++;
    return TT_SUCCESS;
}

static unsigned make_handle(unsigned index, unsigned generation)
{
    return (generation << SLOT_BITS) | (index + 1u);
}

/* The live slot a handle names, or NULL. Caller holds table_lock. */
static slot_t* find(unsigned handle)
{
    unsigned index = (handle & SLOT_MASK) - 1u;
    if ((handle & SLOT_MASK) == 0 || index >= slot_count) return NULL;
    slot_t* s = &slots[index];
    return s->plan && make_handle(index, s->generation) == handle ? s : NULL;
}

tt_result tt_plan(const char* api, unsigned* handle, int rank, const int* dim, const int* perm,
                  size_t elem_size, cudaStream_t stream, int measure, const void* idata, void* odata)
{
    tt_result r = check_args(api, handle, rank, dim, perm, elem_size);
    if (r) return r;
    *handle = 0;
    int64_t extents[CUPERM_MAX_RANK];
    for (int i = 0; i < rank; ++i) extents[i] = dim[i];
    cupermDataType_t type = CUPERM_R_8U;
    type_of_size(elem_size, &type);

    /* Planning (and measuring, which runs kernels) happens outside the lock. */
    pthread_mutex_lock(&table_lock);
    int device = -1;
    cupermHandle_t h = NULL;
    r = device_handle(api, &device, &h);
    pthread_mutex_unlock(&table_lock);
    if (r) return r;
    cupermPlan_t plan = NULL;
    cupermStatus_t st = measure ? cupermPlanTransposeMeasure(h, &plan, rank, extents, perm, type, NULL, NULL,
                                                             idata, odata, stream)
                                : cupermPlanTranspose(h, &plan, rank, extents, perm, type, NULL, NULL);
    if (st) return from_cuperm(api, st);

    pthread_mutex_lock(&table_lock);
    unsigned index = 0;
    r = free_slot(api, &index);
    if (!r) {
        slot_t* s = &slots[index];
        s->plan = plan;
        s->device = device;
        s->stream = stream;
        s->type = type;
        s->generation = (s->generation + 1u) & (0xffffffffu >> SLOT_BITS);
        *handle = make_handle(index, s->generation);
    }
    pthread_mutex_unlock(&table_lock);
    if (r) cupermPlanDestroy(plan);
    return r;
}

tt_result tt_execute(const char* api, unsigned handle, const void* idata, void* odata)
{
    pthread_mutex_lock(&table_lock);
    slot_t* s = find(handle);
    slot_t copy = s ? *s : (slot_t){0};
    pthread_mutex_unlock(&table_lock);
    if (!s) return fail(TT_INVALID_PLAN, "%s: handle %u names no live plan", api, handle);

    int device;
    cudaError_t err = cudaGetDevice(&device);
    if (err != cudaSuccess)
        return fail(TT_INTERNAL_ERROR, "%s: cudaGetDevice failed: %s", api, cudaGetErrorString(err));
    if (device != copy.device)
        return fail(TT_INVALID_DEVICE, "%s: the current device is %d but the plan was made on device %d", api,
                    device, copy.device);
    /* alpha = 1, beta = 0 in the plan's integer type: a plain move. */
    const int8_t one8 = 1, zero8 = 0;
    const int16_t one16 = 1, zero16 = 0;
    const int32_t one32 = 1, zero32 = 0;
    const int64_t one64 = 1, zero64 = 0;
    const void *one, *zero;
    switch (copy.type) {
    case CUPERM_R_8U: one = &one8; zero = &zero8; break;
    case CUPERM_R_16I: one = &one16; zero = &zero16; break;
    case CUPERM_R_32I: one = &one32; zero = &zero32; break;
    default: one = &one64; zero = &zero64; break;
    }
    cupermStatus_t st = cupermExecute(copy.plan, one, idata, zero, odata, copy.stream);
    return st ? from_cuperm(api, st) : TT_SUCCESS;
}

tt_result tt_destroy(const char* api, unsigned handle)
{
    pthread_mutex_lock(&table_lock);
    slot_t* s = find(handle);
    tt_result r = TT_SUCCESS;
    if (!s) {
        r = fail(TT_INVALID_PLAN, "%s: handle %u names no live plan", api, handle);
    } else {
        cupermStatus_t st = cupermPlanDestroy(s->plan);
        s->plan = NULL;
        if (st) r = from_cuperm(api, st);
    }
    pthread_mutex_unlock(&table_lock);
    return r;
}
