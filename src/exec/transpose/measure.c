#include "exec/transpose/measure.h"

#include "backend/cuda/timer.h"
#include "core/error.h"
#include "plan/transpose/select.h"

enum { kRepeats = 5 };

cupermDataType_t cuperm_bits_type(int bytes)
{
    switch (bytes) {
    case 1: return CUPERM_R_8U;
    case 2: return CUPERM_R_16I;
    case 4: return CUPERM_R_32U;
    case 8: return CUPERM_R_64U;
    default: return CUPERM_C_64F;
    }
}

typedef struct {
    const cuperm_launch_t* launch;
    cupermDataType_t type;
    const void* in;
    void* out;
} plain_move;

/* One plain move (scalars 1 and 0: bits move, whatever the type). */
static cupermStatus_t run_move(void* ctx, cudaStream_t stream)
{
    const plain_move* m = ctx;
    const cuperm_scalars_t s = {.plain = 1};
    return cuperm_launch_plan(m->launch, m->type, &s, m->in, m->out, stream);
}

cupermStatus_t cuperm_time_launch(const cuperm_launch_t* l, cupermDataType_t type, const void* in, void* out,
                                  cudaStream_t stream, int repeats, double* seconds)
{
    cuperm_timer_t t;
    cupermStatus_t st = cuperm_timer_open(&t, "cudaEventCreate (timing a transpose)");
    if (st) return st;
    plain_move m = {l, type, in, out};
    st = cuperm_timer_median(&t, run_move, &m, stream, repeats, 0.0f, 1, seconds);
    cuperm_timer_close(&t);
    return st;
}

cupermStatus_t cuperm_measure_best(const cuperm_launch_t* cand, int n, cupermDataType_t type, const void* in,
                                   void* out, cudaStream_t stream, int* best, double* seconds)
{
    cuperm_timer_t t;
    cupermStatus_t st = cuperm_timer_open(&t, "cudaEventCreate (measuring transposes)");
    if (st) return st;
    *best = -1;
    for (int i = 0; i < n && !st; ++i) {
        plain_move m = {&cand[i], type, in, out};
        double s = 0;
        st = cuperm_timer_median(&t, run_move, &m, stream, kRepeats, 0.0f, 1, &s);
        if (!st && (*best < 0 || s < *seconds)) {
            *best = i;
            *seconds = s;
        }
    }
    cuperm_timer_close(&t);
    return st;
}
