/*
 * The object behind a cupermHandle_t token: the device it was made on, what
 * plans share, and the state each engine keeps per handle (created on first
 * use). Engines register their state here by slot, so the handle knows no
 * operation by name: a GETT or NCCL engine adds a slot, not a field.
 */
#ifndef CUPERM_EXEC_HANDLE_H
#define CUPERM_EXEC_HANDLE_H

#include <stdatomic.h>

#include "core/device_info.h"
#include "core/error.h"
#include "core/tuning.h"
#include "cuperm.h"
#include "exec/transpose/plan_cache.h"

typedef enum {
    CUPERM_ENGINE_CONTRACTION = 0, /* exec/contraction/state.h */
    CUPERM_ENGINE_MEMORY,          /* exec/memory.h (after the engines whose plans hold its memory) */
    CUPERM_ENGINES
} cuperm_engine_t;

typedef struct {
    void* _Atomic state;
    void (*destroy)(void* state);
} cuperm_engine_slot_t;

typedef struct cuperm_handle {
    cuperm_device_info_t dev;
    const cuperm_tuning_t* tuning;   /* the device family's planning data */
    cuperm_plan_cache_t* plan_cache; /* measured transpose plans */
    cuperm_engine_slot_t engines[CUPERM_ENGINES];
    atomic_int refs; /* the public token's reference plus one per live plan that uses engine state */
    long ltAfterRuns; /* a one-GEMM plan's cuBLASLt algorithm is chosen at its run number ltAfterRuns (0: at
                         planning); CUPERM_LT_AFTER_RUNS=N at cupermCreate, else CTR_LT_AFTER_RUNS */
    int ltAlgo;       /* CUPERM_LT_ALGO=N (0..7) at cupermCreate: GEMM steps on cuBLASLt take its heuristic's
                         answer number N (its first where it gives fewer), for A/B runs; 0: the first */
    int gettForced;  /* CUPERM_GETT=1 or tma at cupermCreate: model contraction plans take GETT when eligible */
    int gettTma;     /* CUPERM_GETT=tma: GETT plans run the Hopper kernels where they map (not yet by default:
                        they have not run on a GPU) */
    int gettWgmma;   /* CUPERM_GETT_WGMMA=1 at cupermCreate: GETT plans on compute capability 9.0 run the table
                        kernel's wgmma form (backend/cuda/gett/gett_wgmma.cu) where it applies */
    int gettTmaTile; /* CUPERM_GETT_TMA_TILE=<tile name>: that block tile instead of the plan's (for
                        measuring every tile on every case); -1: the plan's */
    int ctrDenseWorkspace; /* CUPERM_CTR_DENSE_WORKSPACE=1 at cupermCreate: contraction workspace matrices
                              unpadded and GEMMs priced without the misalignment term (the plans of
                              before both, for A/B runs) */
    int ctrRawTransposePrices; /* CUPERM_CTR_TRANSPOSE_CALIBRATION=0 at cupermCreate: the contraction model prices
                                  transposes by the transpose model alone (for A/B runs) */
    int ctrZeroKind; /* CUPERM_CTR_ZERO=memset2d|slice at cupermCreate: every padded GEMM's K padding
                        zeroed that way (a cuperm_ctr_zero_kind_t, for A/B runs); 0: the cheapest priced */
    int ctrPackedUnpriced; /* CUPERM_CTR_DTILE_PACKED_PRICE=0 at cupermCreate: model plans price the D-tile
                              kernel's gathering form even where its packed path runs (the plans of
                              before the packed path's price, for A/B runs) */
    double ctrMeasureSampleMs; /* measured contraction plans time each candidate in samples of about this
                                  many milliseconds (exec/contraction/measure.c); CUPERM_CTR_MEASURE_SAMPLE_MS=X
                                  (X > 0) at cupermCreate, else CTR_MEASURE_SAMPLE_MS */
    int distStoreBlocks; /* CUPERM_DIST_STORE_BLOCKS=N (1..64) at cupermCreate: distributed plans cap the grids of
                            their transposes that store into other GPUs at N blocks an SM instead of the tuning
                            table's dist_store_blocks_per_sm (for A/B runs); 0: the table's */
} cuperm_handle_t;

/** A handle for the current device (the object; the token is made by the API). */
cupermStatus_t cuperm_handle_create(cuperm_handle_t** out);

/* The handle's switches from the environment (CUPERM_GETT*, CUPERM_CTR_*, CUPERM_LT_AFTER_RUNS), read
 * once per handle: a plan's choice never depends on when it was made. Host tools with a stand-in
 * handle call it too. */
CUPERM_INTERNAL_API void cuperm_handle_read_env(cuperm_handle_t* h);

/** The live handle a token names, or NULL. */
CUPERM_INTERNAL_API cuperm_handle_t* cuperm_handle_resolve(cupermHandle_t token);
/** Resolves a token or fails with INVALID_VALUE ("handle is NULL" / "... not a live cuperm handle"). */
CUPERM_INTERNAL_API cupermStatus_t cuperm_handle_get(cupermHandle_t token, cuperm_handle_t** out);

/** References that keep a handle's state alive after cupermDestroy. */
CUPERM_INTERNAL_API void cuperm_handle_retain(cuperm_handle_t* h);
CUPERM_INTERNAL_API void cuperm_handle_release(cuperm_handle_t* h);

/**
 * An engine's per-handle state, made by make() on first use; thread-safe (two
 * threads racing to make it keep one and destroy the other). destroy() runs when
 * the handle's last reference goes.
 */
cupermStatus_t cuperm_handle_engine(cuperm_handle_t* h, cuperm_engine_t engine, cupermStatus_t (*make)(void** state),
                                    void (*destroy)(void* state), void** out);

#endif
