#include "parallel.h"

#include <pthread.h>
#include <unistd.h>

#define MAX_WORKERS 64

int bench_cpu_count(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    if (n < 1) return 1;
    return n > MAX_WORKERS ? MAX_WORKERS : (int)n;
}

typedef struct {
    bench_range_fn fn;
    void* ctx;
    size_t begin, end;
    int worker;
} task;

static void* run_task(void* arg)
{
    task* t = arg;
    t->fn(t->begin, t->end, t->worker, t->ctx);
    return NULL;
}

void bench_parallel_for(size_t n, size_t grain, int threads, bench_range_fn fn, void* ctx)
{
    if (grain < 1) grain = 1;
    size_t workers = (n + grain - 1) / grain;
    if (threads < 1) threads = 1;
    if (workers > (size_t)threads) workers = (size_t)threads;
    if (workers > MAX_WORKERS) workers = MAX_WORKERS;
    if (workers <= 1) {
        if (n) fn(0, n, 0, ctx);
        return;
    }
    task tasks[MAX_WORKERS];
    pthread_t ids[MAX_WORKERS];
    int started[MAX_WORKERS] = {0};
    for (size_t w = 0; w < workers; ++w) {
        tasks[w] = (task){fn, ctx, n * w / workers, n * (w + 1) / workers, (int)w};
        started[w] = pthread_create(&ids[w], NULL, run_task, &tasks[w]) == 0;
        if (!started[w]) run_task(&tasks[w]);
    }
    for (size_t w = 0; w < workers; ++w)
        if (started[w]) pthread_join(ids[w], NULL);
}
