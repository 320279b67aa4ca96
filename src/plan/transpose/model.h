/* The performance model: what a launch's time depends on, and the estimate.
 * Its parameters (model_params.h) were fitted to H100 measurements by
 * tools/model/fit_model.py; docs/model.md says how and how well. */
#ifndef CUPERM_HOST_MODEL_H
#define CUPERM_HOST_MODEL_H

#include "core/kernel_params.h"
#include "core/device_info.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    CUPERM_MODEL_COPY = 0,
    CUPERM_MODEL_ROWS = 1,
    CUPERM_MODEL_ROWS_VEC = 2,
    CUPERM_MODEL_TILED = 3,
    CUPERM_MODEL_TILED_VEC = 4,
    CUPERM_MODEL_CLASSES = 5
} cuperm_model_class_t;

typedef struct {
    cuperm_model_class_t cls;
    double bytes;         /* read + written */
    double run_bytes;     /* shorter of the contiguous runs read and written */
    double in_run_bytes;  /* contiguous run a tile reads (copy: everything) */
    double out_run_bytes; /* contiguous run a tile writes */
    double tile_bytes;    /* a tile's bytes (copy: 0) */
    double fill;          /* moved elements / tile slots launched (1 for copy) */
    double tiles;         /* tiles launched (copy: 0) */
} cuperm_model_features_t;

void cuperm_model_features(const cuperm_launch_t* launch, cuperm_model_features_t* f);

/** t = t0 + bytes / (peak * efficiency[class] * min(1, run / 128 B) ^ gamma). */
double cuperm_model_seconds(const cuperm_model_features_t* f, double peak_bytes_per_second);

#ifdef __cplusplus
}
#endif

#endif
