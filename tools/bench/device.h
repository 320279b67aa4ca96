/* The GPU the benchmark runs on, described once for the log and the summary. */
#ifndef CUPERM_BENCH_DEVICE_H
#define CUPERM_BENCH_DEVICE_H

#include <stddef.h>
#include <stdio.h>

typedef struct {
    char name[256];
    int sm_count;
    size_t l2_bytes;
    size_t global_bytes;
    int runtime_version, driver_version;
} bench_device;

/* Describes the current device; 0, or -1 with err set (no GPU, driver missing). */
int bench_device_query(bench_device* d, char* err, size_t err_size);

/* One line: "GPU: NAME (N SMs, L2 X MB, Y GiB), CUDA runtime A.B, driver C.D, cuperm V". */
void bench_device_print(FILE* f, const bench_device* d);

#endif
