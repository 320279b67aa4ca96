/*
 * The GETT kernels: D[m,n,l] = alpha sum_k A[m,k,l] B[k,n,l] + beta C[m,n,l], every element
 * found through the block-scatter offset tables of plan/contraction/gett.h.
 *
 * gett_mma.cu: tensor cores (mma.sync m16n8k16, fp16/bf16 inputs, fp32 accumulation), every element
 * found through the block-scatter offset tables of plan/contraction/gett.h: A and B are read
 * in place (cp.async into a 4-stage shared-memory pipeline, 16/8/4-byte vectors where the
 * plan found aligned contiguous runs, 2-byte loads otherwise), D is written in place.
 * gett_mma.cuh holds it; gett_mma.cu instantiates the plain kernels, gett_mma_ops.cu the ones
 * that apply operators (two translation units: they build in parallel).
 * Index maps shared with the CPU tests: gett_index.h.
 */
#ifndef CUPERM_BACKEND_GETT_H
#define CUPERM_BACKEND_GETT_H

#include <stdint.h>

#include <cuda_runtime_api.h>

#include "cuperm.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Block tile of the kernel: CUPERM_GETT_BM x CUPERM_GETT_BN outputs, CUPERM_GETT_BK deep. */
#define CUPERM_GETT_BM 128
#define CUPERM_GETT_BN 128
#define CUPERM_GETT_BK 32

/* gett_skinny.cu: the tensor-core types where N is small, B resident in shared memory for the
 * whole run: N at most CUPERM_GETT_SKINNY_MAX_N, K at most CUPERM_GETT_SKINNY_MAX_K; blocks of
 * CUPERM_GETT_SKINNY_BLOCKS_PER_SM an SM; a split M order's alpha_lo digit of
 * CUPERM_GETT_SKINNY_SPLIT (mSplitA below). */
#define CUPERM_GETT_SKINNY_MAX_N 32
#define CUPERM_GETT_SKINNY_MAX_K 512
#define CUPERM_GETT_SKINNY_BLOCKS_PER_SM 2
#define CUPERM_GETT_SKINNY_SPLIT 8

/* gett_simt.cu: fp32 (FFMA, strict) and fp64 (DFMA) on the CUDA cores, same tables, block tile
 * CUPERM_GETT_SIMT_BM x CUPERM_GETT_SIMT_BN outputs, K in steps of CUPERM_GETT_SIMT_BK. */
#define CUPERM_GETT_SIMT_BM 64
#define CUPERM_GETT_SIMT_BN 64
#define CUPERM_GETT_SIMT_BK 16

typedef struct {
    /* Device tables, element offsets (A(m,k,l) = A + aM[m] + aK[k] + aL[l], ...): int32_t
     * entries when off32 (the plan proved every offset of every operand fits), else int64_t. */
    const void *aM, *aK, *aL;
    const void *bK, *bN, *bL;
    const void *cM, *cN, *cL;
    const void *dM, *dN, *dL;
    int off32;
    int m, n, k, batch;      /* group sizes (1 for an empty group) */
    int mTiles, nTiles;      /* ceil(m / BM), ceil(n / BN) of the kernel's tile; mTiles * nTiles < 2^31 */
    /* The D-tile kernel (gett_dtile.cu) when dtileM > 0: tiles of dtileM x dtileN outputs along M
     * and N ordered by D's strides, K padded to dtileK (a multiple of 16, at most 64), smemBytes of
     * dynamic shared memory (plan/contraction/gett_dtile.h). */
    int dtileM, dtileN, dtileK, smemBytes;
    int dtileSlotBytes; /* its inner panel's slot table (after the panels), 0 for none */
    int gridBlocks; /* the D-tile and skinny kernels' persistent grid: min(tiles x batch, SMs x blocks an SM holds) */
    int skinny;     /* the skinny kernel (gett_skinny.cu) instead of the table kernel: N <= CUPERM_GETT_SKINNY_MAX_N,
                       K <= CUPERM_GETT_SKINNY_MAX_K; tiles of CUPERM_GETT_BM x N (nTiles 1) */
    /* Its M order's two leading digits when the plan split A's and D's unit-stride modes
     * (plan/contraction/gett.h: mSplit): m = a + fa (b + fb h), a A's run (fa = mSplitA), b D's
     * (fb = mSplitB); powers of two, fa fb dividing CUPERM_GETT_BM. The epilogue walks b fastest
     * (D's runs). 1, 1: no split. */
    int mSplitA, mSplitB;
    /* Its packed path (gett_dtile_packed.cu) where packed: each tile is one contiguous block of D,
     * or tiles of whole modes written from the registers (plan/contraction/gett_dtile.h). A run first packs A's and B's panels, as the kernel's
     * shared memory holds them, into images in the workspace (the X side's at packX, the Y side's
     * at packY bytes; image (l, tile) of either side at (l x its tiles + tile) x its panel bytes);
     * the kernel copies them whole a stage ahead, stages each tile in D's order (element e at
     * cuperm_ctr_dtile_stage_at(e, stageShift, stagePad)) and writes it in 16-byte pieces at D +
     * tileBase[item] elements. stageX[x] + stageY[y]: output (x, y)'s element in the tile (-1 past
     * it). packedSmem: its dynamic shared memory. packedC: C has D's strides (so C's tile is at
     * C + tileBase[item] too). Runs that cuperm_gett_dtile_packed_takes refuses take the gathering
     * kernel. packed = 2: the kernel launched after the pack kernel completes,
     * not overlapping its end (programmatic dependent launch off: A/B runs). packedDirect: every
     * 16-byte piece of the tile is one accumulator fragment row's run along Y
     * (plan/contraction/gett_dtile.h: cuperm_ctr_dtile_direct_pieces), so the lanes holding it
     * store it from registers (no staging; stageX, stageY still give the places). */
    int packed, packedDirect, packedC, stageShift, stagePad, packedSmem;
    size_t packX, packY;
    const long long* tileBase;
    const int *stageX, *stageY;
    int wgmma;               /* the table kernel's Hopper form (gett_wgmma.cu, persistent: gridBlocks) where
                                cuperm_gett_wgmma_takes */
    int aKFast, bKFast;      /* shared tile layout: k contiguous (1) or m / n contiguous (0) */
    int vecA, vecB;          /* run widths (8, 4, 2, 1 elements) along that layout's fast direction */
    int dMFast;              /* epilogue: D's runs along M (1) or N (0) */
    int vecC, vecD;          /* run widths of C and D along that direction (the skinny kernel's split:
                                along beta, plan/contraction/gett.h: cuperm_ctr_gett_skinny_run_width) */
    cupermDataType_t abType; /* R_16F or R_16BF (tensor cores); R_32F or R_64F (CUDA cores) */
    cupermDataType_t cdType; /* R_32F or abType; abType on the CUDA cores */
    /* Elementwise operators of A, B, C, D after the plan folded negations into the scalars:
     * op[0..1] on every loaded element of A / B (never on the zeros past K), op[2] on C's loaded
     * values, op[3] on the result; opParam as cupermTensorDescriptor_t's. */
    cupermOperator_t op[4];
    double opParam[4];
} cuperm_gett_params_t;

/* Whether some operator is not the identity: then the kernels' operator instances run. */
static inline int cuperm_gett_has_operators(const cuperm_gett_params_t* q)
{
    return q->op[0] != CUPERM_OP_IDENTITY || q->op[1] != CUPERM_OP_IDENTITY || q->op[2] != CUPERM_OP_IDENTITY ||
           q->op[3] != CUPERM_OP_IDENTITY;
}

/* The widths the kernel uses for these base pointers: each plan width halved until the
 * pointer is aligned to the vector (min(width x element size, 16) bytes); 1 always works.
 * out: A, B, C, D. */
void cuperm_gett_effective_widths(const cuperm_gett_params_t* q, const void* A, const void* B, const void* C,
                                  const void* D, int out[4]);

/* Enqueues the kernel. C is read only when useBeta (it may equal D). */
cudaError_t cuperm_gett_launch(const cuperm_gett_params_t* q, const void* A, const void* B, const void* C, void* D,
                               float alpha, float beta, int useBeta, cudaStream_t stream);

/* The D-tile kernel (q->dtileM > 0; tensor-core types, no operators). C is read only when useBeta. */
cudaError_t cuperm_gett_dtile_launch(const cuperm_gett_params_t* q, const void* A, const void* B, const void* C,
                                     void* D, float alpha, float beta, int useBeta, cudaStream_t stream);

/* Whether a run takes the D-tile kernel's packed path (q->packed): workspace given, D 16-byte
 * aligned, and beta = 0 or, where the tile is written from the registers (packedDirect), C with
 * D's strides (packedC) and 16-byte aligned. */
static inline int cuperm_gett_dtile_packed_takes(const cuperm_gett_params_t* q, const void* C, const void* D,
                                                 int useBeta, const void* workspace)
{
    return q->packed && workspace && (uintptr_t)D % 16 == 0 &&
           (!useBeta || (q->packedDirect && q->packedC && (uintptr_t)C % 16 == 0));
}

/* The D-tile kernel's packed path (where cuperm_gett_dtile_packed_takes): packs A's and B's
 * panels into workspace (q->packY + the Y images' bytes at least), then runs. C is read only when
 * useBeta (it may equal D). */
cudaError_t cuperm_gett_dtile_packed_launch(const cuperm_gett_params_t* q, const void* A, const void* B,
                                            const void* C, void* D, float alpha, float beta, int useBeta,
                                            void* workspace, cudaStream_t stream);

/* 1 if the packed path was compiled for sm_90+ (bulk copies) and can run on the current device. */
int cuperm_gett_dtile_packed_available(void);

/* The skinny kernel (q->skinny; tensor-core types, any operators). C is read only when useBeta
 * (it may equal D). */
cudaError_t cuperm_gett_skinny_launch(const cuperm_gett_params_t* q, const void* A, const void* B, const void* C,
                                      void* D, float alpha, float beta, int useBeta, cudaStream_t stream);

/* The CUDA-core kernel (A/B/C/D all R_32F or all R_64F; any device): scalars in D's type,
 * vector widths unused. C is read only when useBeta (it may equal D). */
cudaError_t cuperm_gett_simt_launch(const cuperm_gett_params_t* q, const void* A, const void* B, const void* C,
                                    void* D, double alpha, double beta, int useBeta, cudaStream_t stream);

/* 1 if the kernel was compiled for sm_80+ (mma.sync) and can run on the current device. */
int cuperm_gett_available(void);

/* The table kernel's Hopper form (gett_wgmma.cu: wgmma.mma_async, sm_90a machine code): the same
 * tables, tiles and results, no operators (cudaErrorNotSupported with any). C is read only when
 * useBeta (it may equal D). */
cudaError_t cuperm_gett_wgmma_launch(const cuperm_gett_params_t* q, const void* A, const void* B, const void* C,
                                     void* D, float alpha, float beta, int useBeta, cudaStream_t stream);

/* 1 if this build has the Hopper form (its architectures include 9.0: src/CMakeLists.txt). */
int cuperm_gett_wgmma_built(void);

/* Whether a run of the table kernel takes its Hopper form: the plan chose it (q->wgmma, set only for
 * table-kernel plans) and no operator is left for the kernel to apply. */
static inline int cuperm_gett_wgmma_takes(const cuperm_gett_params_t* q)
{
    return q->wgmma && !cuperm_gett_has_operators(q);
}

#ifdef __cplusplus
}
#endif

#endif
